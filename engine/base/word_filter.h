// A Bloom filter of the words of a file (runs of IsWordByte), so that a
// whole-word search skips the files that cannot hold its word: the analysis
// searches each reached file for dozens of names, most of which it lacks.
// Two bits of 16384 a word, from its length and its first and last (up to)
// eight bytes; a filter with few words set is then folded in halves (down
// to 512 bits) while at most one bit in 8 is set, so that a tree of
// thousands of small files keeps small filters. Building one is a pass
// over the file that finds the edges of words 64 bytes at a time
// (byte_scan.h); every word is hashed, none copied.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace muh {

class WordFilter {
 public:
  explicit WordFilter(std::string_view text);

  // False when `word` is surely not a whole word of the text.
  bool MayHold(std::string_view word) const;
  // The filter's size in bits: 512 to 16384.
  std::size_t bits() const { return bits_.size() * 64; }

 private:
  void Add(std::uint64_t hash);
  bool Has(std::uint64_t hash) const;
  void Fold();

  std::vector<std::uint64_t> bits_;  // a power of two of 64-bit words
  std::uint64_t mask_ = 0;           // bit count - 1
};

// A file's filter from someone who keeps them (the text must be the file's
// bytes as the keeper knows them); nullptr: build one yourself.
using WordFilterFn =
    std::function<const WordFilter*(const std::string& path, std::string_view text)>;

}  // namespace muh
