#include "engine/app/base_patch.h"

#include <fmt/format.h>

#include <set>

#include "engine/app/foreign_hunks.h"
#include "engine/app/pre_image.h"
#include "engine/app/site_liveness.h"
#include "engine/base/exit_codes.h"
#include "engine/base/logging.h"
#include "engine/base/one_line.h"
#include "engine/plan/keep_hand_tuned.h"
#include "engine/plan/render_patch.h"

namespace muh {

namespace {

void Report(const std::vector<Diagnostic>& errors) {
  for (const Diagnostic& d : errors) logging::Diag(d.Format(), d.severity == Severity::kError);
}

// Why the pre-image could not be made, one error per cause.
std::vector<Diagnostic> UndoErrors(const std::string& patch_path, const PreImage& pre) {
  std::vector<Diagnostic> out;
  for (const std::string& path : pre.missing) {
    out.push_back(
        MakeError(patch_path, 0, 0, fmt::format("names {}, which the tree does not have", path)));
  }
  for (const UndoMiss& m : pre.misses) {
    std::string why =
        m.miss.differs_at == 0
            ? "its lines are not in the file"
            : fmt::format("{}:{} is '{}' where the hunk has '{}'", m.file->path, m.miss.differs_at,
                          OneLineExact(m.miss.has, 70), OneLineExact(m.miss.wanted, 70));
    out.push_back(MakeError(
        patch_path, m.miss.patch_line, 1,
        fmt::format("hunk {} of {} cannot be undone, even with the knobs' values retuned: {}",
                    m.miss.hunk + 1, m.file->path, why)));
  }
  return out;
}

}  // namespace

int RunDiffFromBase(const CommandOptions& opts) {
  OpenedRun run;
  if (int code = OpenRun(opts, TreeAccess::kRead, &run); code != kExitClean) {
    Report(run.errors);
    return code;
  }
  // OpenRun read and parsed FILE, and marked its `+` values as muhpatch's:
  // which values of the tree as it is are muhpatch's, which tuned by hand.
  const std::string& base = run.patch.path;
  const std::vector<FilePatch>& patch = run.patch.files;
  std::vector<Diagnostic> errors;
  if (auto other = OtherRulesRecorded(run.patch, opts.inputs.only_rules)) errors.push_back(*other);
  for (const FilePatch& fp : patch) {
    if (std::string what = fp.OtherChange(); !what.empty()) {
      errors.push_back(MakeError(base, fp.line, 1,
                                 fmt::format("for {}, the patch {}: muhpatch never makes such a "
                                             "change, and cannot undo it",
                                             fp.path, what)));
    }
  }
  if (!errors.empty()) {
    Report(errors);
    return kExitBadInput;
  }
  const Workspace& w = run.workspace;
  PlanResult now = PlanTree(run, opts.include_dead);
  PreImage pre = PreImageOf(w, patch, now);
  if (!pre.ok()) {
    Report(UndoErrors(base, pre));
    return kExitBadInput;
  }
  // The pre-image planned with its own liveness, as diff planned it when
  // the patch was made; then the values kept by hand put back.
  PlanResult plan = PlanWithLiveness(run.inputs, w, pre.files, opts.include_dead, &pre.files);
  ReportPlan(run, opts, plan);
  KeptPlan kept = KeepHandTuned(pre.files, plan, now);
  // A kept value passes the kernel's check as the model's does: the tree's
  // own plan said where one fails (a helper probe of f751cf4: a tier tuned
  // by hand to 200 was recorded, exit 0, and verify then failed on it).
  std::set<std::string> failing;
  for (const HandTunedRecord& r : kept.hand_tuned) {
    const Diagnostic* error = now.FirstError(r.rule_id);
    if (error == nullptr || !failing.insert(r.rule_id).second) continue;
    logging::Diag(w.Shown(*error).Format());
    plan.diagnostics.push_back(*error);
  }
  for (const HandTunedRecord& r : kept.hand_tuned) {
    if (failing.count(r.rule_id) != 0) continue;
    logging::Diag(w.Shown(Diagnostic{r.path, r.line, 0, Severity::kNote,
                                     fmt::format("rule '{}' keeps the value tuned by hand here, "
                                                 "and the patch records it as hand-tuned",
                                                 r.rule_id)})
                      .Format());
  }
  plan.new_contents = kept.new_contents;
  std::string rendered = RenderPatch(pre.files, plan, kept.hand_tuned);
  // Under --rule the other rules' files count as no rule's: not asked then.
  if (plan.ok() && opts.inputs.only_rules.empty()) {
    std::vector<Diagnostic> foreign = ForeignHunks(run.inputs.rules, base, patch);
    if (!foreign.empty()) {
      Report(foreign);
      if (!opts.output_path.empty()) {
        logging::Diag(
            fmt::format("muhpatch: error: {}: not written, and kept as it was", opts.output_path),
            /*important=*/true);
      }
      return kExitBadInput;
    }
  }
  if (int code = WriteDiffOutput(opts, rendered, true, plan.ok()); code != kExitClean) {
    return code;
  }
  return plan.ok() ? kExitClean : kExitRulesFailed;
}

}  // namespace muh
