#include "engine/query/site_query.h"

#include <doctest/doctest.h>

namespace muh {

namespace {

QueryMatch Match(std::vector<std::pair<std::size_t, std::size_t>> ranges) {
  QueryMatch m;
  for (auto [b, e] : ranges) m.captures.push_back({"c" + std::to_string(b), b, e, "", ""});
  return m;
}

}  // namespace

TEST_CASE("a match begins at its first capture, and is found by capture name") {
  QueryMatch m = Match({{7, 9}, {3, 4}});
  CHECK(m.Begin() == 3);
  REQUIRE(m.Find("c7") != nullptr);
  CHECK(m.Find("c7")->end == 9);
  CHECK(m.Find("nope") == nullptr);
  CHECK(QueryMatch{}.Begin() == 0);
}

TEST_CASE("matches sort by first byte, then by their captures' ranges, stably") {
  std::vector<QueryMatch> ms = {Match({{5, 6}}), Match({{1, 9}}), Match({{1, 2}}),
                                Match({{1, 2}, {4, 5}})};
  ms[0].captures[0].text = "first";
  SortMatches(&ms);
  CHECK(ms[0].captures[0].end == 2);
  CHECK(ms[0].captures.size() == 1);
  CHECK(ms[1].captures.size() == 2);
  CHECK(ms[2].captures[0].end == 9);
  CHECK(ms[3].captures[0].text == "first");
}

}  // namespace muh
