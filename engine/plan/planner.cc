#include "engine/plan/planner.h"

#include <iterator>
#include <map>
#include <string>

#include "engine/base/idle_priority.h"
#include "engine/base/parallel.h"
#include "engine/plan/idempotence.h"
#include "engine/plan/rule_planner.h"
#include "engine/plan/unparsed_parts.h"

namespace muh {

using plan::NotIdempotent;
using plan::Planner;

namespace {

// One plan, with the files of `whole` parsed whole.
PlanResult PlanOnce(const RuleSet& rules, const std::map<std::string, SourceText>& files,
                    const std::vector<std::string>& tree_paths,
                    const std::set<std::string>& whole) {
  PlanResult out;
  Planner first(rules, *rules.values, files, tree_paths, &out);
  first.ParseWhole(whole);
  first.Run();
  // Idempotence is checked, not assumed: a rule whose rewrite a second run
  // would change again fails, and the others are planned without it. The
  // second run queries the first one's trees (the rewritten files' trees
  // are their incremental reparses), so it parses nothing again.
  std::map<std::string, Diagnostic> refused =
      NotIdempotent(rules, out, files, tree_paths, first.TakeTreesAfter());
  if (refused.empty()) return out;
  PlanResult checked;
  Planner planner(rules, *rules.values, files, tree_paths, &checked);
  planner.ParseWhole(whole);
  planner.Refuse(std::move(refused));
  planner.Run();
  return checked;
}

}  // namespace

PlanResult Plan(const RuleSet& rules, const std::map<std::string, SourceText>& files,
                const std::vector<std::string>& tree_paths, const PlanFilter& then,
                const std::size_t* then_ready) {
  PlanResult out = PlanOnce(rules, files, tree_paths, {});
  // A file to be rewritten that does not parse outside the parts its rules
  // looked at: planned again, parsed whole, it is refused as any file that
  // does not parse is. Those parts are parsed while `then` would wait (a
  // caller's filter waits for the liveness analysis, whose thread usually
  // ends last), and after it only in the files it left rewritten.
  UnparsedParts rest(out, files);
  if (then && then_ready != nullptr) {
    // On a thread of idle priority: the wait is for the liveness thread,
    // which this must not slow down, and some of these files may turn out
    // not to be rewritten.
    BackgroundTask early([&] {
      LowerThisThreadToIdlePriority();
      rest.ParseUntil(then_ready);
    });
    then(&out);
    early.Join();
  } else if (then) {
    then(&out);
  }
  std::set<std::string> broken = rest.Broken(out);
  if (broken.empty()) return out;
  PlanResult again = PlanOnce(rules, files, tree_paths, broken);
  if (then) then(&again);
  return again;
}

}  // namespace muh
