#include "engine/app/foreign_hunks.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("a hunk in a file no rule reads is not muhpatch's") {
  RuleSet rules;
  rules.rules.emplace_back().files = {"vllm/attention/**/*.py"};
  const std::string text =
      "diff --git a/vllm/attention/a.py b/vllm/attention/a.py\n"
      "--- a/vllm/attention/a.py\n"
      "+++ b/vllm/attention/a.py\n"
      "@@ -1 +1 @@\n"
      "-X = 1\n"
      "+X = 2\n"
      "diff --git a/vllm/envs.py b/vllm/envs.py\n"
      "--- a/vllm/envs.py\n"
      "+++ b/vllm/envs.py\n"
      "@@ -1 +1,2 @@\n"
      " A = 1\n"
      "+# extra\n";
  std::vector<FilePatch> patch;
  std::vector<Diagnostic> errors;
  REQUIRE(ParsePatch("p.diff", text, &patch, &errors));
  std::vector<Diagnostic> foreign = ForeignHunks(rules, "p.diff", patch);
  REQUIRE(foreign.size() == 1);
  CHECK(foreign[0].Format() ==
        "p.diff:10:1: error: this hunk changes vllm/envs.py, a file no rule reads: muhpatch did "
        "not make that change, and a patch made again would drop it; take it out of p.diff (into "
        "a patch of its own)");
}

}  // namespace muh
