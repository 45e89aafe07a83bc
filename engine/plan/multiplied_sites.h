// A knob written twice. A rule's query may match once while the code writes
// the knob again, on a statement the query does not match (`NUM_WARPS = 8`
// copied under itself): the liveness analysis then finds the rule's site
// overwritten before anything reads it, and calls it dead. The rule no
// longer describes the code: the site it rewrites is not the one that runs,
// and the day the code goes live the rewrite does nothing. Such a rule
// fails like one whose match count is wrong, dead or not; only a rule that
// manages nothing (skipped, no value) is left out.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "engine/base/source_text.h"
#include "engine/liveness/liveness.h"
#include "engine/plan/plan_result.h"
#include "engine/python/statement_table.h"

namespace muh {

// For every site of `plan` that `analysis` finds overwritten, the writes
// that overwrite it: one that assigns the same variable (or key) and holds
// no site of any rule multiplies the knob. Its rule fails: an error located
// at that write, and its status kFailed; the caller drops its edits. A file
// where the plan reported an error already is left out: the rule that
// failed there recorded no sites, and may own the write. Returns the rules
// it failed.
// A statement after a rewritten site, in its function (or anywhere in a
// loop around it), that may replace the value the site writes without
// reading it: an assignment of the same variable whole or of the same key
// (one computing from the knob is a transform the value gate follows), or a
// `return` in a `finally` (it replaces the function's result). A site of
// any rule is no such statement. Closed world: the statement need not be
// proved to run; that it may is enough to refuse the rewrite.
struct LaterWrite {
  int line = 0;                 // logical line index
  bool finally_return = false;  // a `return` in a `finally`; else a write
};
std::optional<LaterWrite> WriteAfterSite(const StatementTable& lines, const PlanResult& plan,
                                         const Site& site);

// A rewritten site that is a function's return value (`return 32 * 1024`):
// the line and why its callers may not get it: the function is async, a
// generator, decorated (but by functools.lru_cache or cache), or, at a
// module's top level, its name is mentioned at the top level after its def
// or declared global. nullopt when none holds.
std::optional<std::pair<int, std::string>> ReturnedValueProblem(const StatementTable& lines,
                                                                const Site& site);

// The name of the function whose `return` holds the site; nullopt when the
// site is no such value.
std::optional<std::string> ReturnedFunctionName(const StatementTable& lines, const Site& site);

// Also fails the rule of a rewritten site that WriteAfterSite finds a
// statement after, or ReturnedValueProblem a problem for, or whose
// function another module may replace (`ops.NAME = other`,
// LivenessAnalysis::StoredElsewhere).
std::set<std::string> FailMultipliedSites(const LivenessAnalysis& analysis,
                                          const std::map<std::string, SourceText>& files,
                                          PlanResult* plan);

}  // namespace muh
