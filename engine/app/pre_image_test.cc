#include "engine/app/pre_image.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("SiteSpans: each site on one line, as a span of that line, and others on context only") {
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
  REQUIRE(spans.size() == 2);  // none over two lines
  CHECK(spans[0].line == 1);
  CHECK(spans[0].begin == 4);
  CHECK(spans[0].context_only);  // upstream's value: not where the patch wrote another
  CHECK(spans[1].line == 2);
  CHECK(spans[1].begin == 6);
  CHECK(spans[1].end == 8);
  CHECK_FALSE(spans[1].context_only);
  // Another file's sites give none.
  CHECK(SiteSpans(plan, SourceText("g.py", text)).empty());
}

}  // namespace muh
