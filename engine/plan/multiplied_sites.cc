#include "engine/plan/multiplied_sites.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>

#include "engine/liveness/overwrite.h"
#include "engine/python/statement_table.h"

namespace muh {

namespace {

// Whether logical line `k` assigns the knob `knob` writes: the same
// variable whole, or the same key of it.
bool WritesKnob(const StatementTable& lines, int k, const WriteSite& knob) {
  const LogicalLine& l = lines.lines()[static_cast<std::size_t>(k)];
  if (l.code_end <= l.code) return false;
  std::optional<WriteSite> other = WriteSiteAt(lines, l.code_end - 1);
  return other && other->var == knob.var && (other->key.empty() || other->key == knob.key);
}

// Whether some rule found a site in [begin, end) of `path`.
bool HoldsASite(const PlanResult& plan, const std::string& path, std::size_t begin,
                std::size_t end) {
  for (const RuleOutcome& o : plan.outcomes) {
    for (const Site& s : o.found) {
      if (s.path == path && s.begin >= begin && s.begin < end) return true;
    }
  }
  return false;
}

// The first write of `site`'s knob, after the site, that overwrites it and
// holds no rule's site: its logical line in `lines`, or -1.
int UnmanagedOverwrite(const LivenessAnalysis& analysis, const StatementTable& lines,
                       const PlanResult& plan, const Site& site) {
  std::optional<WriteSite> knob = WriteSiteAt(lines, site.begin);
  if (!knob) return -1;
  // The state and its evidence: the assumptions it rests on are not needed.
  SiteLiveness l = analysis.At(site.path, site.begin, false);
  if (l.state != Liveness::kDead) return -1;
  for (const Evidence& e : l.evidence) {
    if (e.path != site.path || e.line <= 0) continue;
    const std::vector<LogicalLine>& all = lines.lines();
    auto at = std::find_if(all.begin(), all.end(),
                           [&](const LogicalLine& ll) { return ll.line == e.line; });
    if (at == all.end()) continue;
    int k = static_cast<int>(at - all.begin());
    if (k == knob->line || !WritesKnob(lines, k, *knob)) continue;
    if (HoldsASite(plan, site.path, at->begin, at->end)) continue;
    return k;
  }
  return -1;
}

}  // namespace

std::set<std::string> FailMultipliedSites(const LivenessAnalysis& analysis,
                                          const std::map<std::string, SourceText>& files,
                                          PlanResult* plan) {
  // A rule that failed recorded no sites: in a file with an error, the
  // writes no site holds may be its own, and the check waits for that
  // error to be fixed.
  std::set<std::string> with_errors;
  for (const Diagnostic& d : plan->diagnostics) {
    if (d.severity == Severity::kError) with_errors.insert(d.file);
  }
  std::map<std::string, std::optional<StatementTable>> lexed;
  std::set<std::string> failed;
  for (RuleOutcome& o : plan->outcomes) {
    if (o.status == RuleStatus::kFailed || ManagesNothing(o.status)) continue;
    for (const Site& site : o.found) {
      auto file = files.find(site.path);
      if (file == files.end() || with_errors.count(site.path) != 0) continue;
      auto lines = lexed.find(site.path);
      if (lines == lexed.end()) {
        lines = lexed.emplace(site.path, StatementTable::Build(file->second.bytes())).first;
      }
      if (!lines->second) continue;
      int k = UnmanagedOverwrite(analysis, *lines->second, *plan, site);
      if (k < 0) continue;
      const LogicalLine& again = lines->second->lines()[static_cast<std::size_t>(k)];
      Position p = file->second.PositionOf(again.code);
      plan->diagnostics.push_back(Diagnostic{
          site.path, p.line, p.column, Severity::kError,
          fmt::format("rule '{}': its knob is written again at line {}, which no rule's query "
                      "matches, and that write overwrites the rule's site at line {} before "
                      "anything reads it: the site multiplied (make the query match the write "
                      "that runs, or remove the other)",
                      o.rule_id, p.line, site.line),
          o.rule_id});
      o.status = RuleStatus::kFailed;
      failed.insert(o.rule_id);
      break;
    }
  }
  return failed;
}

}  // namespace muh
