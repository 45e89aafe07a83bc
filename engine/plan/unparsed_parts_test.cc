#include "engine/plan/unparsed_parts.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("only a rewritten file parsed in part has its other statements parsed") {
  const std::string good = "A = 1\nB = [1,\n     2]\n";
  const std::string bad = "A = 1\nx = = 2\n";
  std::map<std::string, SourceText> files = {{"good.py", SourceText("good.py", good)},
                                             {"bad.py", SourceText("bad.py", bad)},
                                             {"kept.py", SourceText("kept.py", bad)},
                                             {"whole.py", SourceText("whole.py", bad)}};
  PlanResult plan;
  plan.parsed_in_part["good.py"] = {{0, 6}};
  plan.parsed_in_part["bad.py"] = {{0, 6}};
  plan.parsed_in_part["kept.py"] = {{0, 6}};  // not rewritten: not looked at
  plan.new_contents["good.py"] = "A = 2\nB = [1,\n     2]\n";
  plan.new_contents["bad.py"] = "A = 2\nx = = 2\n";
  plan.new_contents["whole.py"] = "A = 2\nx = = 2\n";  // parsed whole: the plan saw it
  CHECK(UnparsableRewrites(plan, files) == std::set<std::string>{"bad.py"});
  // The parsed statements in the middle: both sides are checked.
  std::map<std::string, SourceText> middle = {
      {"m.py", SourceText("m.py", "x = (\nA = 1\ny = 2\n")}};
  PlanResult p2;
  p2.parsed_in_part["m.py"] = {{6, 12}};
  p2.new_contents["m.py"] = "x = (\nA = 2\ny = 2\n";
  CHECK(UnparsableRewrites(p2, middle) == std::set<std::string>{"m.py"});
  p2.parsed_in_part["m.py"] = {{0, 18}};  // all of it parsed already
  CHECK(UnparsableRewrites(p2, middle).empty());
}

TEST_CASE("the rests parsed while the caller waits are kept; the others only if still rewritten") {
  const std::string bad = "A = 1\nx = = 2\n";
  std::map<std::string, SourceText> files = {{"a.py", SourceText("a.py", bad)},
                                             {"b.py", SourceText("b.py", bad + "y = 3\n")}};
  PlanResult plan;
  for (const char* path : {"a.py", "b.py"}) {
    plan.parsed_in_part[path] = {{0, 6}};
    plan.new_contents[path] = "changed";
  }
  UnparsedParts rest(plan, files);
  std::size_t stop = 1;
  rest.ParseUntil(&stop);  // stopped before it began: nothing parsed
  stop = 0;
  rest.ParseUntil(&stop);           // both
  plan.new_contents.erase("b.py");  // the filter left b.py unchanged
  CHECK(rest.Broken(plan) == std::set<std::string>{"a.py"});
  plan.new_contents.erase("a.py");
  CHECK(rest.Broken(plan).empty());
}

}  // namespace muh
