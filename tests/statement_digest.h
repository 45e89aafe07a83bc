// A digest of what a statement table says about a file: its logical lines
// (every field), their statement splits and header conditions, and the
// class (code, string, comment) of every byte. The statement table's tests
// compare it with digests kept in tests/statement_table_expected.txt: those
// of the lexer it replaced (py_lines, since deleted), written by the
// differential test of commit 2e3e12a, which found the two agreeing on
// every fixture and real-tree file.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "engine/base/text.h"

namespace muh::testing {

class Fnv {
 public:
  void Add(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) {
      h_ ^= (v >> (8 * i)) & 0xff;
      h_ *= 0x100000001b3ULL;
    }
  }
  void Add(std::string_view s) {
    Add(s.size());
    for (char c : s) {
      h_ ^= static_cast<unsigned char>(c);
      h_ *= 0x100000001b3ULL;
    }
  }
  std::string Hex() const {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h_));
    return buf;
  }

 private:
  std::uint64_t h_ = 0xcbf29ce484222325ULL;
};

// A hash of a file's bytes.
inline std::string ContentHash(std::string_view bytes) {
  Fnv h;
  h.Add(bytes);
  return h.Hex();
}

// "refused", or the digest of `table` (a StatementTable, or a class with its
// interface) built from `src`.
template <typename Table>
std::string StatementDigest(const Table* table, std::string_view src) {
  if (table == nullptr) return "refused";
  Fnv h;
  const auto& ls = table->lines();
  h.Add(ls.size());
  for (std::size_t k = 0; k < ls.size(); ++k) {
    const auto& l = ls[k];
    const int i = static_cast<int>(k);
    for (std::uint64_t v :
         {std::uint64_t{l.begin}, std::uint64_t{l.code}, std::uint64_t{l.code_end},
          std::uint64_t{l.end}, static_cast<std::uint64_t>(l.indent),
          static_cast<std::uint64_t>(l.line), static_cast<std::uint64_t>(l.parent + 1)}) {
      h.Add(v);
    }
    h.Add(table->HasSeveralStatements(i) ? 1 : 0);
    if (l.parent >= 0) h.Add(table->HeaderCondition(l.parent));
    // Where the statement of each word starts (long generated lines: the
    // first 2,000 bytes).
    for (std::size_t o = l.code; o < l.code_end && o < l.code + 2000u; ++o) {
      if (!IsWordChar(src[o]) || (o > 0 && IsWordChar(src[o - 1]))) continue;
      std::size_t b = 0;
      h.Add(table->StatementAt(i, o, &b).size());
      h.Add(b);
    }
  }
  // The classes of the bytes, as runs.
  std::uint64_t last = ~std::uint64_t{0};
  for (std::size_t o = 0; o <= src.size(); ++o) {
    auto str = table->StringAt(o);
    // A string is known by its first byte: adjacent literals are two runs.
    std::uint64_t now = str ? 2 + std::uint64_t{str->first} : table->InCode(o) ? 0 : 1;
    if (now != last) {
      h.Add(o);
      h.Add(now);
      last = now;
    }
  }
  return h.Hex();
}

}  // namespace muh::testing
