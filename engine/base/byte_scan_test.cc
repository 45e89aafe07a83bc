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

TEST_CASE("a byte cursor finds the next of its bytes from every offset, at every length") {
  std::mt19937 rng(7);
  for (int round = 0; round < 300; ++round) {
    std::string s = RandomBytes(&rng, static_cast<std::size_t>(round % 200));
    ByteCursor<'\\', '\n', '"'> cursor(s);
    // Forward in random steps, as the lexer moves, and from every offset.
    for (std::size_t from = 0; from <= s.size() + 1; from += 1 + rng() % 40) {
      std::size_t want = from;
      while (want < s.size() && s[want] != '\\' && s[want] != '\n' && s[want] != '"') ++want;
      CHECK(cursor.Next(from) == std::min(want, s.size()));
    }
    ByteCursor<'\\', '\n', '"'> fresh(s);
    for (std::size_t from = 0; from < s.size(); ++from) {
      std::size_t want = from;
      while (want < s.size() && s[want] != '\\' && s[want] != '\n' && s[want] != '"') ++want;
      CHECK(fresh.Next(from) == want);
    }
  }
  std::string none(200, 'x');
  ByteCursor<'#'> cursor(none);
  CHECK(cursor.Next(0) == 200);
  none[199] = '#';
  ByteCursor<'#'> last(none);
  CHECK(last.Next(0) == 199);
  CHECK(last.Next(199) == 199);
  CHECK(last.Next(200) == 200);
}

TEST_CASE("BytesIn marks its bytes and no others") {
  std::mt19937 rng(9);
  for (int round = 0; round < 300; ++round) {
    std::string s = RandomBytes(&rng, 64);
    std::size_t n = static_cast<std::size_t>(round % 65);
    std::uint64_t want = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (s[i] == '#' || s[i] == '(' || s[i] == '\0') want |= std::uint64_t{1} << i;
    }
    CHECK(BytesIn<'#', '(', '\0'>(s.data(), n) == want);
  }
}

TEST_CASE("LeadingSpaces counts spaces up to the first other byte or the end") {
  for (std::size_t spaces = 0; spaces < 40; ++spaces) {
    for (const char* rest : {"", "x", "\t ", "\n"}) {
      std::string s = std::string(spaces, ' ') + rest;
      CHECK(LeadingSpaces(s.data(), s.data() + s.size()) == spaces);
    }
  }
}

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
