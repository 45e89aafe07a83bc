// The planning of one run over the files (internal to engine/plan): Planner
// queries each rule's files, checks its preconditions and match count,
// stages its edits and keeps them unless the rule fails, then applies the
// kept edits (less those at dead sites) and reparses. Plan() (planner.cc) runs it once, and again
// when the idempotence re-plan (idempotence.h) refuses rules; that re-plan runs it over the first
// run's output, on the first run's trees. Its member functions are defined by concept:
// rule_planner.cc (running it, parsing and the trees it hands over), rule_planner_sites.cc (a
// rule's preconditions and sites, as its finder finds them), rule_planner_edits.cc (the edits a
// site asks for, staged per rule) and rule_planner_reparse.cc (applying the edits and reparsing).
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "engine/base/diagnostic.h"
#include "engine/base/source_text.h"
#include "engine/model/value_source.h"
#include "engine/plan/edit.h"
#include "engine/plan/plan_result.h"
#include "engine/plan/site_verdicts.h"
#include "engine/python/syntax_tree.h"
#include "engine/query/query.h"
#include "engine/rules/finder.h"
#include "engine/rules/rule.h"

namespace muh {
namespace plan {

// Freeing a tree walks all its nodes: free them on the workers.
void FreeTrees(std::map<std::string, std::unique_ptr<SyntaxTree>>* trees);

// The site a capture of `file` is: where it is and what it holds now (and
// wants, until a plan says otherwise).
Site SiteOf(const SourceText& file, const Capture& target);

class Planner {
 public:
  Planner(const RuleSet& rules, const ValueSource& values,
          const std::map<std::string, SourceText>& files,
          const std::vector<std::string>& tree_paths, PlanResult* out)
      : rules_(rules), values_(values), files_(files), tree_paths_(tree_paths), out_(out) {}

  // Rules that must fail with the given error instead of planning (a second
  // run would change what the first one wrote).
  void Refuse(std::map<std::string, Diagnostic> refused) { refused_ = std::move(refused); }
  // Parse files only as rules need them (the idempotence re-plan touches few).
  void ParseLazily() { lazy_ = true; }
  // Trees already parsed, each borrowing bytes equal to its file's here.
  void UseTrees(std::map<std::string, std::unique_ptr<SyntaxTree>> trees);
  // Parses the files and plans every rule: what needs no liveness verdict.
  void Match();
  // After Match: records `liveness`'s verdicts on the sites and, unless it
  // includes dead sites, drops the edits at dead ones (site_verdicts.h);
  // then applies the edits kept and reparses.
  void Finish(const PlanLiveness& liveness);
  void Run(const PlanLiveness& liveness);
  // After Run: the tree of every file parsed, as the plan leaves the file
  // (a rewritten file's tree is its incremental reparse). The planner keeps
  // none.
  std::map<std::string, std::unique_ptr<SyntaxTree>> TakeTreesAfter();
  ~Planner();

 private:
  void ParseAll();
  const SyntaxTree* SyntaxTreeOf(const std::string& path);
  // By path, every query the plan runs there (rules, preconditions,
  // `done-when`); a query shared by several rules once.
  std::map<std::string, std::set<const Query*>> QueriesByPath() const;
  // The files of the tree that `patterns` name (resolved once per list).
  const std::vector<std::string>& Scope(const std::vector<std::string>& patterns) const;
  Diagnostic At(const std::string& path, std::size_t offset, Severity sev, std::string msg) const;
  // False when the rule must not rewrite (skipped or failed).
  bool CheckPreconditions(const Rule& rule, RuleOutcome* outcome);
  // A rule its precondition skipped: the sites its query finds, unplanned.
  void RecordSkippedSites(const Rule& rule, RuleOutcome* outcome);
  void PlanRule(const Rule& rule);
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
  // muhpatch wrote before (RuleSet::written_by_muhpatch).
  bool WrittenByMuhpatch(const SourceText& file, std::size_t begin, std::size_t end) const;
  // Whether `target`, which a literal would replace, is computed at run
  // time from other names: then an error names them, and the rule fails.
  bool ComputedAtRunTime(const Rule& rule, const SiteMatch& match, const Template& with,
                         const SourceText& file, const Capture& target);
  void AddEdit(const Edit& e, RuleOutcome* outcome);
  // Keeps the rule's staged edits unless it failed or one overlaps another
  // rule's (then the rule fails, naming both).
  void CommitStaged(RuleOutcome* outcome);
  void Fail(const std::string& rule_id);
  // Why the kept `value` of a site the template `with` writes is outside
  // its knob's domain.
  std::string KeptOutsideDomain(const Template& with, const std::string& value) const;
  // A kept value outside its knob's domain fails its rule on a live or
  // unknown site (an error there); a note on a dead one.
  void GateKeptValues();
  // After every rule planned, before the edits are applied: each site's
  // verdict, the rules whose knob is written twice failed
  // (multiplied_sites.h), and the dead sites' edits dropped (dead_sites.h).
  void JudgeSites();
  void ApplyAndReparse();

  const RuleSet& rules_;
  const ValueSource& values_;
  const std::map<std::string, SourceText>& files_;
  const std::vector<std::string>& tree_paths_;
  PlanResult* out_;
  PythonParser parser_;
  std::map<std::string, std::unique_ptr<SyntaxTree>> syntax_trees_;
  std::map<std::string, std::unique_ptr<SyntaxTree>> rewritten_trees_;
  std::map<std::string, bool> reported_broken_;
  std::map<std::string, EditSet> edit_sets_;
  std::vector<Edit> staged_;  // the current rule's edits
  std::map<std::string, Diagnostic> refused_;
  PlanLiveness liveness_;
  bool lazy_ = false;
  mutable std::map<std::vector<std::string>, std::vector<std::string>> scopes_;
};

}  // namespace plan
}  // namespace muh
