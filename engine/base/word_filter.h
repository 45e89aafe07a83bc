// A Bloom filter of the words of a file (runs of IsWordByte), so that a
// whole-word search skips the files that cannot hold its word: the analysis
// searches each reached file for dozens of names, most of which it lacks.
// Two bits of 16384 a word, from its length and its first and last (up to)
// eight bytes. Building one is a pass over the file that finds the edges of
// words 64 bytes at a time (byte_scan.h); every word is hashed, none copied.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace muh {

class WordFilter {
 public:
  explicit WordFilter(std::string_view text);

  // False when `word` is surely not a whole word of the text.
  bool MayHold(std::string_view word) const;

 private:
  void Add(std::uint64_t hash);
  bool Has(std::uint64_t hash) const;

  std::array<std::uint64_t, 256> bits_{};
};

// A file's filter from someone who keeps them (the text must be the file's
// bytes as the keeper knows them); nullptr: build one yourself.
using WordFilterFn =
    std::function<const WordFilter*(const std::string& path, std::string_view text)>;

}  // namespace muh
