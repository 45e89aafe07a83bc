// The statement table against the lexer it replaces (py_lines.h): on every
// fixture .py and every .py of the real tree (when present), the same
// logical lines, parents, statement splits and string/comment classes.
// Where they differ for a reason, Explained() names it.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "engine/base/text.h"
#include "engine/python/py_lines.h"
#include "engine/python/statement_table.h"
#include "tests/fixture_testing.h"
#include "tests/statement_digest.h"

namespace muh {

namespace {

namespace fs = std::filesystem;

std::string Show(const LogicalLine& l) {
  return "begin " + std::to_string(l.begin) + " code " + std::to_string(l.code) + " code_end " +
         std::to_string(l.code_end) + " end " + std::to_string(l.end) + " indent " +
         std::to_string(l.indent) + " line " + std::to_string(l.line) + " parent " +
         std::to_string(l.parent);
}

bool Same(const LogicalLine& a, const LogicalLine& b) {
  return a.begin == b.begin && a.code == b.code && a.code_end == b.code_end && a.end == b.end &&
         a.indent == b.indent && a.line == b.line && a.parent == b.parent;
}

// The differences between the two readings of `src`, one line each.
std::vector<std::string> Differences(const std::string& src) {
  std::vector<std::string> out;
  std::optional<PyLines> lexed = PyLines::Lex(src);
  std::optional<StatementTable> table = StatementTable::Build(src);
  if (lexed.has_value() != table.has_value()) {
    out.push_back(std::string("lexer ") + (lexed ? "reads" : "refuses") + ", parse " +
                  (table ? "reads" : "refuses"));
    return out;
  }
  if (!lexed) return out;
  if (testing::StatementDigest(&*lexed, src) != testing::StatementDigest(&*table, src)) {
    out.push_back("digests differ");
  }
  const auto& a = lexed->lines();
  const auto& b = table->lines();
  if (a.size() != b.size()) {
    out.push_back("lexer " + std::to_string(a.size()) + " lines, parse " +
                  std::to_string(b.size()));
  }
  for (std::size_t k = 0; k < std::min(a.size(), b.size()); ++k) {
    int i = static_cast<int>(k);
    if (!Same(a[k], b[k])) {
      out.push_back("line " + std::to_string(a[k].line) + ": lexer " + Show(a[k]) + " | parse " +
                    Show(b[k]));
      break;  // the lines after it are off as well
    }
    if (lexed->HasSeveralStatements(i) != table->HasSeveralStatements(i)) {
      out.push_back("line " + std::to_string(a[k].line) + ": several statements differ");
    }
    if (b[k].parent < 0 ||
        lexed->HeaderCondition(b[k].parent) != table->HeaderCondition(b[k].parent)) {
      if (b[k].parent >= 0) {
        out.push_back("line " + std::to_string(a[k].line) + ": header condition differs");
      }
    }
    // The statement of every word on the line (long generated lines: the
    // first 2,000 bytes).
    for (std::size_t o = b[k].code; o < std::min<std::size_t>(b[k].code_end, b[k].code + 2000);
         ++o) {
      if (!IsWordChar(src[o]) || (o > 0 && IsWordChar(src[o - 1]))) continue;
      std::size_t sa = 0;
      std::size_t sb = 0;
      if (lexed->StatementAt(i, o, &sa) != table->StatementAt(i, o, &sb) || sa != sb) {
        out.push_back("line " + std::to_string(a[k].line) + ": statement at " + std::to_string(o) +
                      ": lexer `" + std::string(lexed->StatementAt(i, o)) + "` | parse `" +
                      std::string(table->StatementAt(i, o)) + "`");
        break;
      }
    }
  }
  for (std::size_t o = 0; o <= src.size(); ++o) {
    if (lexed->InCode(o) != table->InCode(o) || lexed->InString(o) != table->InString(o) ||
        lexed->StringAt(o) != table->StringAt(o)) {
      out.push_back("offset " + std::to_string(o) + " (line " + std::to_string(lexed->LineOf(o)) +
                    "): lexer " +
                    (lexed->InString(o) ? "string"
                     : lexed->InCode(o) ? "code"
                                        : "comment") +
                    " | parse " +
                    (table->InString(o) ? "string"
                     : table->InCode(o) ? "code"
                                        : "comment"));
      break;
    }
    if (o < src.size() && src[o] == '\n' && lexed->LineOf(o) != table->LineOf(o)) {
      out.push_back("offset " + std::to_string(o) + ": line numbers differ");
      break;
    }
  }
  return out;
}

// Checks every .py under `files`; prints each difference. With
// MUHPATCH_WRITE_STATEMENT_DIGESTS set to a file, appends the lexer's
// digest of each file to it, named `prefix` + its path under `root`
// (tests/statement_table_expected.txt was written so).
int CountDifferences(const std::vector<fs::path>& files, const fs::path& root,
                     const std::string& prefix) {
  const char* write = std::getenv("MUHPATCH_WRITE_STATEMENT_DIGESTS");
  std::ofstream digests;
  if (write != nullptr) digests.open(write, std::ios::app);
  int total = 0;
  for (const fs::path& p : files) {
    std::string src = testing::Slurp(p);
    if (write != nullptr) {
      std::optional<PyLines> lexed = PyLines::Lex(src);
      digests << prefix << fs::relative(p, root).generic_string() << " "
              << testing::ContentHash(src) << " "
              << testing::StatementDigest(lexed ? &*lexed : nullptr, src) << "\n";
    }
    std::vector<std::string> d = Differences(src);
    for (const std::string& s : d) {
      std::cout << fs::relative(p, root).generic_string() << ": " << s << "\n";
    }
    total += static_cast<int>(d.size());
  }
  return total;
}

}  // namespace

TEST_CASE("the statement table reads every fixture as the lexer did") {
  const fs::path root(MUHPATCH_SOURCE_DIR);
  CHECK(CountDifferences(testing::FixturePython(), root, "") == 0);
}

TEST_CASE("the statement table reads the real tree as the lexer did") {
  std::optional<fs::path> real = testing::RealTreeOrSkip();
  if (!real) return;
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(*real)) {
    if (e.is_regular_file() && e.path().extension() == ".py") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  CHECK(files.size() > 400);
  CHECK(CountDifferences(files, *real, "real/") == 0);
}

}  // namespace muh
