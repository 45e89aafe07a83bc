// One rule's plan (internal to engine/plan): PlanRule checks that the
// rule's files parse and its preconditions hold, finds its sites through its
// finder, checks their count and plans what each site would be written
// with. It reads the context (plan_context.h) and returns a RulePlan; what
// it builds lives for the call alone. Its parts are defined by concept:
// rule_planner.cc (the rule's run and the count of its matches),
// rule_planner_sites.cc (preconditions, sites and why none were found) and
// rule_planner_edits.cc (the edit a site asks for).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/base/diagnostic.h"
#include "engine/base/source_text.h"
#include "engine/plan/plan_context.h"
#include "engine/plan/rule_plan.h"
#include "engine/rules/finder.h"
#include "engine/rules/rule.h"

namespace muh {
namespace plan {

// The site a capture of `file` is: where it is and what it holds now (and
// wants, until a plan says otherwise).
Site SiteOf(const SourceText& file, const Capture& target);

// The plan of `rule` over the context's files: never throws for a query
// over its budget (the rule fails, located at its query). Every
// diagnostic names the rule.
RulePlan PlanRule(PlanContext& ctx, const Rule& rule);

// The one call PlanRule makes: the planner of one rule, alive while it plans.
class RulePlanner {
 public:
  RulePlanner(PlanContext& ctx, const Rule& rule) : ctx_(ctx), rule_(rule) {}
  // Plans the rule; the plan so far when it throws (Abandoned()).
  void Run();
  RulePlan Take() { return std::move(plan_); }

 private:
  const SyntaxTree* SyntaxTreeOf(const std::string& path) { return &ctx_.Tree(path); }
  const std::vector<std::string>& Scope(const std::vector<std::string>& patterns) const {
    return ctx_.Scope(patterns);
  }
  Diagnostic At(const std::string& path, std::size_t offset, Severity sev, std::string msg) const {
    return ctx_.At(path, offset, sev, std::move(msg));
  }
  void Say(Diagnostic d) { plan_.diagnostics.push_back(std::move(d)); }
  // False when the rule must not rewrite (skipped or failed).
  bool CheckPreconditions(const Rule& rule, RuleOutcome* outcome);
  // A `retired:` rule: a note when it finds none of its sites in `paths`
  // (kRetired), an error at each site it finds (the knob is back).
  void PlanRetired(const Rule& rule, const std::vector<std::string>& paths, RuleOutcome* outcome);
  // A rule its precondition skipped: the sites its query finds, unplanned.
  void RecordSkippedSites(const Rule& rule, RuleOutcome* outcome);
  // The rule's sites in `path`, as its finder finds them (finder.h); where
  // it can find none, why fails `outcome` with an error (unless null).
  FoundSites RuleSites(const Rule& rule, const std::string& path, RuleOutcome* outcome);
  // The error for a rule that found no site in `file`, saying why.
  Diagnostic FoundNothing(const Rule& rule, const SourceText& file, std::string msg);
  // For a rule whose pattern names its knob's variable: what the variable
  // holds now, where, and the pattern that would match that; nullopt when
  // the file assigns it no code.
  std::optional<Diagnostic> KnobReplaced(const Rule& rule, const SourceText& file,
                                         const std::string& msg);
  // Plans the sites `found` in `file`, in order.
  void PlanSites(const Rule& rule, const SourceText& file, const FoundSites& found,
                 RuleOutcome* outcome);
  // Plans one site: what it holds, and the edit to what the rule (or the
  // site, finder.h) writes there.
  void PlanSite(const Rule& rule, const SourceText& file, const SiteMatch& match,
                RuleOutcome* outcome);
  // Whether bytes [begin, end) of `file` lie on `+` lines of the patch
  // muhpatch wrote before (prior_patch.h).
  bool WrittenByMuhpatch(const SourceText& file, std::size_t begin, std::size_t end) const;
  // Whether `target`, which a literal would replace, is computed at run
  // time from other names: then an error names them, and the rule fails.
  bool ComputedAtRunTime(const Rule& rule, const Template& with, const SourceText& file,
                         const Capture& target);
  void AddEdit(const Edit& e, RuleOutcome* outcome);

  PlanContext& ctx_;
  const Rule& rule_;
  RulePlan plan_;
  bool tier_pins_said_ = false;  // a `pin:` list of another length than a chain
};

}  // namespace plan
}  // namespace muh
