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
