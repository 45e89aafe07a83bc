#include "engine/base/byte_scan.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>

namespace muh {

namespace {

// Bytes that exercise every class: the searched ones, word bytes at the
// edges of their ranges, UTF-8 and control bytes.
std::string RandomBytes(std::mt19937* rng, std::size_t n) {
  static const std::string kAlphabet =
      std::string("#\\()[]{}\"'\n azAZ09_@`/:[{\x7f\x80\xff\t\r.=") + '\0';
  std::uniform_int_distribution<std::size_t> pick(0, kAlphabet.size() - 1);
  std::uniform_int_distribution<int> rare(0, 9);
  std::string out(n, ' ');
  // Mostly plain letters, so that the searched bytes fall anywhere in a step.
  for (char& c : out) c = rare(*rng) == 0 ? kAlphabet[pick(*rng)] : 'q';
  return out;
}

}  // namespace

TEST_CASE("WordBytes marks letters, digits, '_' and bytes from 0x80, and no others") {
  std::mt19937 rng(11);
  for (int round = 0; round < 300; ++round) {
    std::string s = RandomBytes(&rng, 64);
    std::size_t n = static_cast<std::size_t>(round % 65);
    std::uint64_t want = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (IsWordByte(s[i])) want |= std::uint64_t{1} << i;
    }
    CHECK(WordBytes(s.data(), n) == want);
  }
  std::string all(256, ' ');
  for (int c = 0; c < 256; ++c) all[static_cast<std::size_t>(c)] = static_cast<char>(c);
  for (std::size_t at = 0; at < 256; at += 64) {
    std::uint64_t bits = WordBytes(all.data() + at, 64);
    for (std::size_t i = 0; i < 64; ++i) {
      unsigned char u = static_cast<unsigned char>(at + i);
      bool word = (u >= '0' && u <= '9') || (u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z') ||
                  u == '_' || u >= 0x80;
      CHECK(((bits >> i) & 1) == (word ? 1u : 0u));
    }
  }
}

}  // namespace muh
