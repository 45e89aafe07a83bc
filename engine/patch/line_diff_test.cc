#include "engine/patch/line_diff.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace muh {

// Lets doctest print changes in failure messages.
std::ostream& operator<<(std::ostream& os, const LineChange& c) {
  return os << "{" << c.old_begin << "," << c.old_count << "," << c.new_begin << "," << c.new_count
            << "}";
}

namespace {

using Lines = std::vector<std::string_view>;

// Deterministic 64-bit LCG (Knuth's MMIX constants).
class Lcg {
 public:
  explicit Lcg(std::uint64_t seed) : state_(seed) {}
  std::uint32_t Next(std::uint32_t bound) {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::uint32_t>((state_ >> 33) % bound);
  }

 private:
  std::uint64_t state_;
};

// Longest common subsequence length by dynamic programming (test oracle).
std::size_t LcsLength(const Lines& a, const Lines& b) {
  std::vector<std::size_t> row(b.size() + 1, 0);
  for (std::size_t i = 0; i < a.size(); ++i) {
    std::size_t diagonal = 0;
    for (std::size_t j = 0; j < b.size(); ++j) {
      const std::size_t up = row[j + 1];
      row[j + 1] = a[i] == b[j] ? diagonal + 1 : std::max(row[j + 1], row[j]);
      diagonal = up;
    }
  }
  return row[b.size()];
}

// Checks that `changes` is a well-formed script turning `a` into `b` and
// returns how many lines it deletes plus inserts.
std::size_t CheckScript(const Lines& a, const Lines& b, const std::vector<LineChange>& changes) {
  std::size_t i = 0;
  std::size_t j = 0;
  std::size_t cost = 0;
  for (std::size_t c = 0; c < changes.size(); ++c) {
    const LineChange& change = changes[c];
    REQUIRE(change.old_count + change.new_count > 0);
    REQUIRE(change.old_begin >= i);
    REQUIRE(change.old_begin - i == change.new_begin - j);
    if (c > 0) REQUIRE(change.old_begin > i);  // separated by an unchanged line
    for (; i < change.old_begin; ++i, ++j) REQUIRE(a[i] == b[j]);
    i += change.old_count;
    j += change.new_count;
    cost += change.old_count + change.new_count;
  }
  REQUIRE(i <= a.size());
  REQUIRE(a.size() - i == b.size() - j);
  for (; i < a.size(); ++i, ++j) REQUIRE(a[i] == b[j]);
  return cost;
}

}  // namespace

TEST_CASE("SplitLines keeps terminators") {
  CHECK(SplitLines("").empty());
  CHECK(SplitLines("a") == Lines{"a"});
  CHECK(SplitLines("a\n") == Lines{"a\n"});
  CHECK(SplitLines("a\r\nb") == Lines{"a\r\n", "b"});
  CHECK(SplitLines("\n\n") == Lines{"\n", "\n"});
  CHECK(SplitLines("x\ry\n\r") == Lines{"x\ry\n", "\r"});
}

TEST_CASE("DiffLines of equal or empty inputs") {
  CHECK(DiffLines({}, {}).empty());
  CHECK(DiffLines({"a\n", "b"}, {"a\n", "b"}).empty());
  CHECK(DiffLines({}, {"a\n", "b\n"}) == std::vector<LineChange>{{0, 0, 0, 2}});
  CHECK(DiffLines({"a\n", "b\n"}, {}) == std::vector<LineChange>{{0, 2, 0, 0}});
}

TEST_CASE("DiffLines compares terminators") {
  CHECK(DiffLines({"a\n", "b\n"}, {"a\r\n", "b\n"}) == std::vector<LineChange>{{0, 1, 0, 1}});
  CHECK(DiffLines({"a\n", "b"}, {"a\n", "b\n"}) == std::vector<LineChange>{{1, 1, 1, 1}});
}

TEST_CASE("DiffLines groups a replacement into one change") {
  CHECK(DiffLines({"a\n", "x\n", "y\n", "b\n"}, {"a\n", "p\n", "q\n", "r\n", "b\n"}) ==
        std::vector<LineChange>{{1, 2, 1, 3}});
  CHECK(DiffLines({"x\n", "a\n", "y\n"}, {"p\n", "a\n", "q\n"}) ==
        std::vector<LineChange>{{0, 1, 0, 1}, {2, 1, 2, 1}});
}

TEST_CASE("DiffLines pairs lines as git does when a new value is a neighbour's old one") {
  // A tier chain whose values each move to the next tier's value: git keeps
  // the value lines and shows the tier heads as moved, and so must we (an
  // earlier version kept the heads and showed every value line changed).
  const Lines old_lines = {"if n <= 1:\n",   "    m = 16\n", "elif n <= 2:\n", "    m = 32\n",
                           "elif n <= 4:\n", "    m = 64\n", "else:\n",        "    m = 128\n"};
  const Lines new_lines = {"if n <= 1:\n",   "    m = 32\n",  "elif n <= 2:\n", "    m = 64\n",
                           "elif n <= 4:\n", "    m = 128\n", "else:\n",        "    m = 256\n"};
  CHECK(DiffLines(old_lines, new_lines) ==
        std::vector<LineChange>{{1, 2, 1, 0}, {4, 1, 2, 1}, {6, 1, 4, 1}, {8, 0, 6, 2}});
}

TEST_CASE("DiffLines leaves a very common line out among unmatched ones, as git") {
  // The blank line is common in the new file; among the old file's lines
  // without a match it is changed rather than matched, as git does.
  const Lines old_lines = {"a\n", "b\n", "c\n", "d\n", "\n", "e\n",
                           "f\n", "g\n", "h\n", "\n",  "i\n"};
  const Lines new_lines = {"p\n", "\n", "q\n", "\n", "r\n", "\n", "s\n", "\n", "t\n", "\n", "i\n"};
  CHECK(DiffLines(old_lines, new_lines) == std::vector<LineChange>{{0, 9, 0, 9}});
}

TEST_CASE("DiffLines slides an ambiguous change as low as possible") {
  CHECK(DiffLines({"x\n", "x\n"}, {"x\n", "x\n", "x\n"}) == std::vector<LineChange>{{2, 0, 2, 1}});
  CHECK(DiffLines({"x\n", "x\n", "x\n"}, {"x\n"}) == std::vector<LineChange>{{1, 2, 1, 0}});
  // A block that repeats its surroundings ends up lowest.
  CHECK(DiffLines({"}\n", "\n", "f\n", "}\n"}, {"}\n", "\n", "g\n", "}\n", "\n", "f\n", "}\n"}) ==
        std::vector<LineChange>{{2, 0, 2, 3}});
}

TEST_CASE("DiffLines lines a change up with a change in the other file") {
  // Deleting one of two x's next to the replaced line joins that change.
  CHECK(DiffLines({"a\n", "x\n", "x\n"}, {"b\n", "x\n"}) == std::vector<LineChange>{{0, 2, 0, 1}});
  CHECK(DiffLines({"x\n", "x\n", "a\n"}, {"x\n", "b\n"}) == std::vector<LineChange>{{1, 2, 1, 1}});
}

TEST_CASE("DiffLines is well-formed and deterministic on random inputs") {
  static const std::string_view kAlphabet[] = {"a\n", "b\n", "c\n", "d\n", "e\n", "a", "b\r\n"};
  Lcg rng(12345);
  for (int iteration = 0; iteration < 3000; ++iteration) {
    const std::uint32_t alphabet = 2 + rng.Next(6);
    Lines a, b;
    const std::uint32_t a_size = rng.Next(iteration < 2000 ? 12 : 60);
    for (std::uint32_t i = 0; i < a_size; ++i) a.push_back(kAlphabet[rng.Next(alphabet)]);
    // Half the cases edit a copy of `a`, the other half are independent.
    if (rng.Next(2) == 0) {
      b = a;
      const std::uint32_t edits = rng.Next(5);
      for (std::uint32_t e = 0; e < edits; ++e) {
        const std::size_t at = rng.Next(static_cast<std::uint32_t>(b.size() + 1));
        if (rng.Next(2) == 0 && at < b.size()) {
          b.erase(b.begin() + static_cast<std::ptrdiff_t>(at));
        } else {
          b.insert(b.begin() + static_cast<std::ptrdiff_t>(at), kAlphabet[rng.Next(alphabet)]);
        }
      }
    } else {
      const std::uint32_t b_size = rng.Next(iteration < 2000 ? 12 : 60);
      for (std::uint32_t j = 0; j < b_size; ++j) b.push_back(kAlphabet[rng.Next(alphabet)]);
    }
    CAPTURE(iteration);
    const std::vector<LineChange> changes = DiffLines(a, b);
    // Like git's default diff, the script may exceed the shortest one where
    // a common line is left out (tests/diff_vs_git checks it against git).
    const std::size_t cost = CheckScript(a, b, changes);
    REQUIRE(cost >= a.size() + b.size() - 2 * LcsLength(a, b));
    REQUIRE(DiffLines(a, b) == changes);
  }
}

TEST_CASE("DiffLines handles large inputs with few changes") {
  std::vector<std::string> storage;
  for (int i = 0; i < 200000; ++i) storage.push_back("line " + std::to_string(i % 5000) + "\n");
  Lines a(storage.begin(), storage.end());
  Lines b = a;
  b[0] = "first\n";
  b.erase(b.begin() + 100000);
  b.insert(b.begin() + 150000, "inserted\n");
  b.back() = "last";
  const std::vector<LineChange> changes = DiffLines(a, b);
  CHECK(CheckScript(a, b, changes) == 6);
  CHECK(changes.size() == 4);
}

}  // namespace muh
