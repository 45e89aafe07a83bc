#include "engine/app/pr_summary.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("pr summary: one row per edit with its hunk, derivation and facts") {
  std::string old_text = "A = 1\nB = 2\nC = 3\n";
  std::map<std::string, SourceText> files = {{"x.py", SourceText("x.py", old_text)}};
  PlanResult plan;
  Edit e{"x.py", 4, 1, "4", "warps", ""};
  e.why =
      "num_warps = 4\n"
      "  formula: largest W\n"
      "  input: warp_size = 64 threads (vendor; Iluvatar)\n"
      "  input: regs_per_cu = 65536 registers (assumed, unconfirmed; no source)\n"
      "  input: smem_per_block = 49152 bytes (measured; card.yaml)\n"
      "  input: head_dim = 128 (workload)\n"
      "  decided by: most warps | that fit\n";
  plan.edits["x.py"] = {e};
  plan.new_contents["x.py"] = "A = 4\nB = 2\nC = 3\n";
  RuleOutcome warps;
  warps.rule_id = "warps";
  warps.status = RuleStatus::kRewrites;
  RuleOutcome skipped;
  skipped.rule_id = "v1";
  skipped.status = RuleStatus::kSkipped;
  skipped.reason = "rule 'v1' skipped: precondition 'p' is not met";
  plan.outcomes = {warps, skipped};
  std::string md = FormatPrSummary(files, plan);
  CHECK(md.rfind("### muhpatch: 1 change in 1 file\n", 0) == 0);
  CHECK(md.find("| `x.py:1` `@@ -1,3 +1,3 @@` | `warps` | `1` → `4` | num_warps = 4 (most "
                "warps \\| that fit) | assumed, unconfirmed: regs_per_cu; vendor: warp_size; "
                "measured: smem_per_block |\n") != std::string::npos);
  CHECK(md.find("- `v1` skipped: precondition 'p' is not met\n") != std::string::npos);
}

TEST_CASE("pr summary: a failed rule with its first error, a dead one with its reason") {
  std::map<std::string, SourceText> files;
  PlanResult plan;
  RuleOutcome broken;
  broken.rule_id = "broken";
  broken.status = RuleStatus::kFailed;
  Diagnostic err = MakeError("d.py", 7, 1, "rule 'broken' expects 1 match, found 2");
  err.rule_id = "broken";
  plan.diagnostics = {MakeError("d.py", 3, 1, "another rule's error"), err,
                      MakeError("d.py", 9, 1, "rule 'broken': a later error")};
  plan.diagnostics[2].rule_id = "broken";
  RuleOutcome gone;
  gone.rule_id = "gone";
  gone.status = RuleStatus::kDead;
  for (int line : {20, 21}) {
    Site s;
    s.path = "b.py";
    s.line = line;
    s.liveness = SiteVerdict{Liveness::kDead, "never imported (b.py is imported nowhere)"};
    gone.found.push_back(s);
  }
  plan.outcomes = {broken, gone};
  std::string md = FormatPrSummary(files, plan);
  CHECK(md.find("- `broken` failed: `d.py:7`: rule 'broken' expects 1 match, found 2; none of "
                "its edits is in the patch\n") != std::string::npos);
  CHECK(md.find("- `gone` dead at `b.py:20` and 1 more site: never imported (b.py is imported "
                "nowhere) (--include-dead rewrites it)\n") != std::string::npos);
}

TEST_CASE("pr summary: insertions and an empty plan") {
  std::map<std::string, SourceText> files = {{"y.py", SourceText("y.py", "L = [\n]\n")}};
  PlanResult plan;
  plan.edits["y.py"] = {Edit{"y.py", 6, 0, "  1,\n  2,\n", "list", "3 appended\n"}};
  plan.new_contents["y.py"] = "L = [\n  1,\n  2,\n]\n";
  std::string md = FormatPrSummary(files, plan);
  CHECK(md.find("| `list` | inserts 2 lines: `1, 2,` | 3 appended | no hardware fact |") !=
        std::string::npos);
  CHECK(FormatPrSummary(files, PlanResult{}).rfind("### muhpatch: nothing to change\n", 0) == 0);
}

}  // namespace muh
