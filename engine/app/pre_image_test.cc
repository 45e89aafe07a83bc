#include "engine/app/pre_image.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("SiteSpans: each hand-tuned site on one line, as a span of that line") {
  const std::string text = "a = 1\n  m = 24\r\nk = [1,\n 2]\n";
  SourceText file("f.py", text);
  auto site = [&](std::string_view value, bool hand_tuned) {
    Site s;
    s.path = "f.py";
    s.begin = text.find(value);
    s.end = s.begin + value.size();
    s.hand_tuned = hand_tuned;
    return s;
  };
  PlanResult plan;
  RuleOutcome o;
  o.found = {site("1", false), site("24", true), site("[1,\n 2]", true)};
  plan.outcomes = {o};
  std::vector<LooseSpan> spans = SiteSpans(plan, file);
  REQUIRE(spans.size() == 1);  // not upstream's value, nor one over two lines
  CHECK(spans[0].line == 2);
  CHECK(spans[0].begin == 6);
  CHECK(spans[0].end == 8);
  // Another file's sites give none.
  CHECK(SiteSpans(plan, SourceText("g.py", text)).empty());
}

}  // namespace muh
