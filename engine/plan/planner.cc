#include "engine/plan/planner.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <set>

#include "engine/base/parallel.h"
#include "engine/patch/unified_diff.h"
#include "engine/plan/config_list.h"
#include "engine/python/py_literal.h"
#include "engine/python/syntax_tree.h"
#include "engine/query/no_match.h"
#include "engine/query/query.h"
#include "engine/rules/scope.h"

namespace muh {

namespace {

// Freeing a tree walks all its nodes: free them on the workers.
void FreeTrees(std::map<std::string, std::unique_ptr<SyntaxTree>>* trees) {
  std::vector<std::unique_ptr<SyntaxTree>> all;
  for (auto& [path, tree] : *trees) {
    if (tree) all.push_back(std::move(tree));
  }
  trees->clear();
  if (all.size() <= 1) return;
  ParallelFor(all.size(), 0, [&](NoWorkerState&, std::size_t i) { all[i].reset(); });
}

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
  void Run();
  // After Run: the tree of every file parsed, as the plan leaves the file
  // (a rewritten file's tree is its incremental reparse). The planner keeps
  // none.
  std::map<std::string, std::unique_ptr<SyntaxTree>> TakeTreesAfter();
  ~Planner();

 private:
  void ParseAll();
  const SyntaxTree* SyntaxTreeOf(const std::string& path);
  std::vector<std::string> Scope(const std::vector<std::string>& patterns) const;
  Diagnostic At(const std::string& path, std::size_t offset, Severity sev, std::string msg) const;
  // False when the rule must not rewrite (skipped or failed).
  bool CheckPreconditions(const Rule& rule, RuleOutcome* outcome);
  void PlanRule(const Rule& rule);
  // The error for a rule that found no site in `file`, saying why.
  Diagnostic FoundNothing(const Rule& rule, const SourceText& file, std::string msg);
  void PlanMatch(const Rule& rule, const SourceText& file, const QueryMatch& match,
                 RuleOutcome* outcome);
  void AddEdit(const Edit& e, RuleOutcome* outcome);
  // Keeps the rule's staged edits unless it failed or one overlaps another
  // rule's (then the rule fails, naming both).
  void CommitStaged(RuleOutcome* outcome);
  void Fail(const std::string& rule_id);
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
  bool lazy_ = false;
};

Diagnostic Planner::At(const std::string& path, std::size_t offset, Severity sev,
                       std::string msg) const {
  Position p = files_.at(path).PositionOf(offset);
  return Diagnostic{path, p.line, p.column, sev, std::move(msg)};
}

const SyntaxTree* Planner::SyntaxTreeOf(const std::string& path) {
  auto it = syntax_trees_.find(path);
  if (it == syntax_trees_.end()) {
    const SourceText& file = files_.at(path);
    it = syntax_trees_.emplace(path, std::make_unique<SyntaxTree>(parser_.Parse(file.bytes())))
             .first;
  }
  return it->second.get();
}

std::vector<std::string> Planner::Scope(const std::vector<std::string>& patterns) const {
  std::vector<Diagnostic> ignored;  // reported once by FilesNeeded
  std::vector<std::string> paths =
      ResolvePatterns(patterns, {}, tree_paths_, rules_.path, {}, "", &ignored);
  paths.erase(std::remove_if(paths.begin(), paths.end(),
                             [&](const std::string& p) { return files_.count(p) == 0; }),
              paths.end());
  return paths;
}

bool Planner::CheckPreconditions(const Rule& rule, RuleOutcome* outcome) {
  for (const Precondition& pre : rule.preconditions) {
    std::vector<Diagnostic> blocked;
    std::optional<Diagnostic> first_match;
    int found = 0;
    for (const std::string& path : Scope(pre.files)) {
      std::vector<QueryMatch> m = pre.query->Run(*SyntaxTreeOf(path));
      if (found == 0 && !m.empty()) {
        first_match = At(path, m.front().Begin(), Severity::kNote,
                         fmt::format("precondition '{}' holds here", pre.name));
      }
      found += static_cast<int>(m.size());
      if (!pre.want_present && !m.empty()) {
        blocked.push_back(At(path, m.front().Begin(), Severity::kNote,
                             fmt::format("blocked by: '{}' does not hold here", pre.name)));
      }
    }
    bool met = pre.want_present ? found > 0 : found == 0;
    if (met) {
      if (!outcome->decided_at) {
        outcome->decided_at =
            pre.want_present
                ? first_match
                : Diagnostic{rules_.path, pre.loc.line, pre.loc.column, Severity::kNote,
                             fmt::format("precondition '{}' holds: its query matches nowhere "
                                         "in {}",
                                         pre.name, fmt::join(Scope(pre.files), ", "))};
      }
      continue;
    }
    if (!pre.want_present) outcome->decided_at = blocked.front();
    Severity sev = pre.required ? Severity::kError : Severity::kNote;
    std::string what = pre.required ? "required precondition" : "precondition";
    std::string head = fmt::format("rule '{}' {}: {} '{}' is not met", rule.id,
                                   pre.required ? "cannot run" : "skipped", what, pre.name);
    if (pre.want_present) {
      head += fmt::format(" (no match in {})", fmt::join(Scope(pre.files), ", "));
      out_->diagnostics.push_back(Diagnostic{rules_.path, pre.loc.line, pre.loc.column, sev, head});
    } else {
      Diagnostic d = blocked.front();
      d.severity = sev;
      d.message = head;
      out_->diagnostics.push_back(d);
    }
    outcome->status = pre.required ? RuleStatus::kFailed : RuleStatus::kSkipped;
    outcome->reason = head;
    return false;
  }
  return true;
}

void Planner::AddEdit(const Edit& e, RuleOutcome* outcome) {
  staged_.push_back(e);
  ++outcome->edits;
}

void Planner::CommitStaged(RuleOutcome* outcome) {
  std::vector<Edit> staged = std::move(staged_);
  staged_.clear();
  if (outcome->status == RuleStatus::kFailed || outcome->status == RuleStatus::kNoValue) {
    outcome->edits = 0;
    return;
  }
  std::map<std::string, EditSet> trial;
  for (const Edit& e : staged) {
    auto it = trial.find(e.path);
    if (it == trial.end()) it = trial.emplace(e.path, edit_sets_[e.path]).first;
    Edit conflict;
    if (!it->second.Add(e, &conflict)) {
      out_->diagnostics.push_back(At(
          e.path, e.offset, Severity::kError,
          fmt::format("rules '{}' and '{}' edit overlapping bytes", conflict.rule_id, e.rule_id)));
      outcome->status = RuleStatus::kFailed;
      outcome->edits = 0;
      return;
    }
  }
  for (auto& [path, set] : trial) edit_sets_[path] = std::move(set);
}

void Planner::Fail(const std::string& rule_id) {
  for (RuleOutcome& o : out_->outcomes) {
    if (o.rule_id == rule_id) {
      o.status = RuleStatus::kFailed;
      o.edits = 0;
    }
  }
  for (auto& [path, set] : edit_sets_) {
    EditSet kept;
    for (const Edit& e : set.edits()) {
      Edit ignored;
      if (e.rule_id != rule_id) kept.Add(e, &ignored);
    }
    set = std::move(kept);
  }
}

void Planner::PlanMatch(const Rule& rule, const SourceText& file, const QueryMatch& match,
                        RuleOutcome* outcome) {
  const Capture* target = match.Find(rule.target);
  if (target == nullptr) {
    out_->diagnostics.push_back(At(
        file.path(), match.Begin(), Severity::kError,
        fmt::format("rule '{}': capture '@{}' is absent from this match", rule.id, rule.target)));
    outcome->status = RuleStatus::kFailed;
    return;
  }
  Position at = file.PositionOf(target->begin);
  Site site;
  site.path = file.path();
  site.begin = target->begin;
  site.end = target->end;
  site.line = at.line;
  site.column = at.column;
  site.current = target->text;
  site.wanted = target->text;
  site.deletes = rule.action == ActionKind::kDeleteLines;
  switch (rule.action) {
    case ActionKind::kReplace: {
      std::string text;
      std::string error;
      std::string why;
      if (!rule.with.Expand(match, values_, &text, &error, &why)) {
        // The model derives no valid value here: the knob is left alone,
        // like an unmet precondition, and the note names the constraint.
        outcome->reason =
            fmt::format("rule '{}' skipped: the model has no valid value: {}", rule.id, error);
        out_->diagnostics.push_back(
            At(file.path(), target->begin, Severity::kNote, outcome->reason));
        outcome->status = RuleStatus::kNoValue;
        outcome->found.push_back(site);
        return;
      }
      text = DropEqualBranches(text);
      site.wanted = text;
      if (rule.upstream) {
        site.upstream = *rule.upstream;
        site.hand_tuned =
            !SameValue(*rule.upstream, target->text) && !SameValue(text, target->text);
      }
      outcome->found.push_back(site);
      if (SameValue(text, target->text)) return;
      if (site.hand_tuned) {
        out_->diagnostics.push_back(
            At(file.path(), target->begin, Severity::kWarning,
               fmt::format("rule '{}' replaces '{}', which is neither upstream's '{}' nor the "
                           "model's '{}': a hand-tuned value is overwritten",
                           rule.id, target->text, *rule.upstream, text)));
      }
      AddEdit(Edit{file.path(), target->begin, target->end - target->begin, text, rule.id, why},
              outcome);
      return;
    }
    case ActionKind::kDeleteLines: {
      site.wanted = "";
      outcome->found.push_back(site);
      std::size_t first = file.LineIndexOf(target->begin);
      std::size_t last = file.LineIndexOf(target->end);
      std::size_t begin = file.LineStart(first);
      std::size_t end =
          last + 1 < file.LineCount() ? file.LineStart(last + 1) : file.bytes().size();
      std::string_view before(file.bytes().data() + begin, target->begin - begin);
      std::string_view after(file.bytes().data() + target->end, end - target->end);
      if (before.find_first_not_of(" \t") != std::string_view::npos ||
          after.find_first_not_of(" \t\r\n") != std::string_view::npos) {
        out_->diagnostics.push_back(
            At(file.path(), target->begin, Severity::kError,
               fmt::format("rule '{}': cannot delete '@{}': its lines hold other code", rule.id,
                           rule.target)));
        outcome->status = RuleStatus::kFailed;
        return;
      }
      if (begin == end) return;  // an empty capture on an empty last line: nothing to delete
      AddEdit(Edit{file.path(), begin, end - begin, "", rule.id,
                   "the rule deletes these lines (" + rule.description + ")\n"},
              outcome);
      return;
    }
    case ActionKind::kAppendEntries: {
      const Value* v = values_.Find(rule.entries);
      outcome->found.push_back(site);
      if (!v->error.empty()) {
        outcome->reason =
            fmt::format("rule '{}' skipped: the model has no valid value: value '{}': {}", rule.id,
                        rule.entries, v->error);
        out_->diagnostics.push_back(
            At(file.path(), target->begin, Severity::kNote, outcome->reason));
        outcome->status = RuleStatus::kNoValue;
        return;
      }
      ConfigAppend append;
      std::string error;
      std::size_t error_offset = 0;
      if (!PlanConfigAppend(file, *SyntaxTreeOf(file.path()), target->begin, target->end,
                            v->entries, rule.id, &append, &error, &error_offset)) {
        out_->diagnostics.push_back(At(file.path(), error_offset, Severity::kError, error));
        outcome->status = RuleStatus::kFailed;
        return;
      }
      for (Edit e : append.edits) {
        e.why = fmt::format("{} of the selected entries were already in the list; {} appended\n",
                            append.duplicates.size(), append.appended) +
                v->why;
        AddEdit(e, outcome);
      }
      return;
    }
  }
}

Diagnostic Planner::FoundNothing(const Rule& rule, const SourceText& file, std::string msg) {
  // Help the user rebase: the part of the query that still matches, where,
  // and the shape around it that no longer does. Located at the knob's
  // nearest candidate in the source when there is one.
  std::optional<NoMatchReason> why = ExplainNoMatch(*rule.query, *SyntaxTreeOf(file.path()));
  if (!why) {
    return Diagnostic{rules_.path, rule.loc.line, rule.loc.column, Severity::kError, msg};
  }
  if (why->matching_part.empty()) {
    msg += fmt::format(": no `{}` in the file", why->failing_part);
    return Diagnostic{rules_.path, rule.loc.line, rule.loc.column, Severity::kError, msg};
  }
  std::vector<int> lines;
  for (std::size_t at : why->matching_at) {
    int line = file.PositionOf(at).line;
    if (lines.empty() || lines.back() != line) lines.push_back(line);
  }
  std::string where = fmt::format(
      "{}", fmt::join(lines.begin(), lines.begin() + std::min<std::size_t>(lines.size(), 5), ", "));
  if (lines.size() > 5) where += fmt::format(" and {} more", lines.size() - 5);
  msg += fmt::format(": `{}` matches at line{} {}, but not inside `{}`", why->matching_part,
                     lines.size() == 1 ? "" : "s", where, why->failing_part);
  return At(file.path(), why->matching_at.front(), Severity::kError, msg);
}

void Planner::PlanRule(const Rule& rule) {
  RuleOutcome outcome;
  outcome.rule_id = rule.id;
  outcome.status = RuleStatus::kRewrites;
  if (auto it = refused_.find(rule.id); it != refused_.end()) {
    out_->diagnostics.push_back(it->second);
    outcome.status = RuleStatus::kFailed;
    out_->outcomes.push_back(outcome);
    return;
  }
  std::vector<std::string> paths = Scope(rule.files);
  bool ready = true;
  for (const std::string& path : paths) {
    const SyntaxTree* tree = SyntaxTreeOf(path);
    if (auto problem = tree->FirstProblem()) {
      ready = false;
      if (!reported_broken_[path]) {
        reported_broken_[path] = true;
        out_->diagnostics.push_back(At(path, problem->offset, Severity::kError,
                                       fmt::format("{}; rule '{}' will not rewrite a file that "
                                                   "does not parse",
                                                   problem->what, rule.id)));
      }
    }
  }
  if (!ready) {
    outcome.status = RuleStatus::kFailed;
    out_->outcomes.push_back(outcome);
    return;
  }
  if (!CheckPreconditions(rule, &outcome)) {
    out_->outcomes.push_back(outcome);
    return;
  }
  for (const std::string& path : paths) {
    if (outcome.status == RuleStatus::kNoValue) break;
    const SourceText& file = files_.at(path);
    std::vector<QueryMatch> matches = rule.query->Run(*SyntaxTreeOf(path));
    int n = static_cast<int>(matches.size());
    outcome.sites += n;
    if (n != rule.expect) {
      if (rule.done_when &&
          static_cast<int>(rule.done_when->Run(*SyntaxTreeOf(path)).size()) == rule.expect) {
        continue;  // already applied
      }
      std::string msg = fmt::format("rule '{}' expects {} match{} in {}, found {}", rule.id,
                                    rule.expect, rule.expect == 1 ? "" : "es", path, n);
      if (n == 0) {
        outcome.lost = true;
        if (auto problem = rule.query->StructureProblem()) {
          std::string what =
              problem->message.substr(problem->message.rfind("query ", 0) == 0 ? 6 : 0);
          msg += fmt::format(" (libtree-sitter: {} at query offset {}; the query can never match)",
                             what, problem->offset);
          out_->diagnostics.push_back(
              Diagnostic{rules_.path, rule.loc.line, rule.loc.column, Severity::kError, msg});
        } else {
          out_->diagnostics.push_back(FoundNothing(rule, file, msg));
        }
      } else {
        std::vector<int> lines;
        for (const QueryMatch& m : matches) {
          const Capture* target = m.Find(rule.target);
          lines.push_back(file.PositionOf(target != nullptr ? target->begin : m.Begin()).line);
        }
        msg += fmt::format(" (at lines {})", fmt::join(lines, ", "));
        const QueryMatch& extra = matches[std::min<std::size_t>(matches.size() - 1, rule.expect)];
        const Capture* extra_target = extra.Find(rule.target);
        out_->diagnostics.push_back(
            At(path, extra_target != nullptr ? extra_target->begin : extra.Begin(),
               Severity::kError, msg));
      }
      outcome.status = RuleStatus::kFailed;
      continue;
    }
    for (const QueryMatch& m : matches) {
      if (outcome.status == RuleStatus::kNoValue) break;
      PlanMatch(rule, file, m, &outcome);
    }
  }
  CommitStaged(&outcome);
  if (outcome.status == RuleStatus::kRewrites && outcome.edits == 0) {
    outcome.status = RuleStatus::kAlreadyApplied;
  }
  out_->outcomes.push_back(outcome);
}

void Planner::ApplyAndReparse() {
  // Each rewritten file is applied and reparsed on a worker (incrementally:
  // only the edited statements are parsed again); messages follow in path
  // order. A problem the incremental parse reports is confirmed by a full
  // parse, which the message describes. The rule to blame fails and loses
  // all its edits, and the files are applied again without them, so that
  // one bad rewrite never hides the others.
  struct Done {
    const std::string* path;
    const EditSet* set;
    std::string rewritten;
    std::optional<SyntaxProblem> problem;
    std::unique_ptr<SyntaxTree> tree;  // of `rewritten`, when it parses
  };
  std::vector<Done> done;
  for (;;) {
    done.clear();
    for (auto& [path, set] : edit_sets_) {
      if (!set.empty()) done.push_back({&path, &set, "", std::nullopt, nullptr});
    }
    ParallelFor<PythonParser>(done.size(), 0, [&](PythonParser& parser, std::size_t i) {
      Done& d = done[i];
      d.rewritten = ApplyEdits(files_.at(*d.path).bytes(), d.set->edits());
      std::vector<ByteEdit> byte_edits;
      for (const Edit& e : d.set->edits()) byte_edits.push_back({e.offset, e.length, e.text});
      d.tree = std::make_unique<SyntaxTree>(
          parser.Reparse(*syntax_trees_.at(*d.path), d.rewritten, byte_edits));
      d.problem = d.tree->FirstProblem();
      if (d.problem) {
        d.tree.reset();
        d.problem = parser.Parse(d.rewritten).FirstProblem();
      }
    });
    std::vector<std::string> blamed_rules;
    for (Done& d : done) {
      auto& problem = d.problem;
      if (!problem) continue;
      const std::string& path = *d.path;
      const SourceText& file = files_.at(path);
      // Blame the last edit that starts at or before the problem, and point
      // at it in the file as it is on disk.
      const Edit* blamed = &d.set->edits().front();
      long long shift = 0;
      for (const Edit& e : d.set->edits()) {
        if (static_cast<long long>(e.offset) + shift > static_cast<long long>(problem->offset))
          break;
        blamed = &e;
        shift += static_cast<long long>(e.text.size()) - static_cast<long long>(e.length);
      }
      std::string_view old_text(file.bytes().data() + blamed->offset, blamed->length);
      out_->diagnostics.push_back(
          At(path, blamed->offset, Severity::kError,
             fmt::format("rewrite by rule '{}' ('{}' -> '{}') would introduce a {}; refused",
                         blamed->rule_id, old_text, blamed->text, problem->what)));
      blamed_rules.push_back(blamed->rule_id);
    }
    if (blamed_rules.empty()) break;
    for (const std::string& id : blamed_rules) Fail(id);
  }
  for (Done& d : done) {
    const std::string& path = *d.path;
    if (d.rewritten == files_.at(path).bytes()) continue;  // "only files that change"
    out_->edits[path] = d.set->edits();
    std::string& kept = out_->new_contents[path] = std::move(d.rewritten);
    if (d.tree) {
      d.tree->Rebind(kept);
      rewritten_trees_[path] = std::move(d.tree);
    }
  }
}

void Planner::ParseAll() {
  // Parse every file up front, one worker per core; planning then only
  // looks trees up. Each worker owns its parser.
  // Largest first, so that the workers finish together; each also builds
  // its tree's node index for the matcher.
  std::vector<const SourceText*> todo;
  for (const auto& [path, file] : files_) todo.push_back(&file);
  std::stable_sort(todo.begin(), todo.end(), [](const SourceText* a, const SourceText* b) {
    return a->bytes().size() > b->bytes().size();
  });
  std::vector<std::unique_ptr<SyntaxTree>> parsed(todo.size());
  ParallelFor<PythonParser>(todo.size(), 0, [&](PythonParser& parser, std::size_t i) {
    auto t = std::chrono::steady_clock::now();
    parsed[i] = std::make_unique<SyntaxTree>(parser.Parse(todo[i]->bytes()));
    auto t2 = std::chrono::steady_clock::now();
    parsed[i]->NodeIndex();
    spdlog::trace(
        "parsed {} in {:.2f} ms, indexed in {:.2f} ms", todo[i]->path(),
        std::chrono::duration<double, std::milli>(t2 - t).count(),
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t2).count());
  });
  for (std::size_t i = 0; i < todo.size(); ++i)
    syntax_trees_[todo[i]->path()] = std::move(parsed[i]);
}

void Planner::Run() {
  auto t0 = std::chrono::steady_clock::now();
  auto ms = [&t0]() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  };
  if (!lazy_) ParseAll();
  spdlog::debug("plan: {} files parsed: {:.1f} ms", files_.size(), ms());
  for (const Rule& rule : rules_.rules) {
    try {
      PlanRule(rule);
    } catch (const QueryBudgetExceeded& e) {  // the rule fails, located at its query
      staged_.clear();
      out_->diagnostics.push_back(MakeError(rules_.path, rule.loc.line, rule.loc.column,
                                            fmt::format("rule '{}': {}", rule.id, e.what())));
      out_->outcomes.emplace_back().rule_id = rule.id;  // kFailed
    }
  }
  spdlog::debug("plan: rules matched and edits planned: {:.1f} ms", ms());
  ApplyAndReparse();
  spdlog::debug("plan: edits applied and reparsed: {:.1f} ms", ms());
}

void Planner::UseTrees(std::map<std::string, std::unique_ptr<SyntaxTree>> trees) {
  for (auto& [path, tree] : trees) {
    if (files_.count(path) != 0) syntax_trees_[path] = std::move(tree);
  }
  FreeTrees(&trees);
}

std::map<std::string, std::unique_ptr<SyntaxTree>> Planner::TakeTreesAfter() {
  std::map<std::string, std::unique_ptr<SyntaxTree>> out = std::move(syntax_trees_);
  syntax_trees_.clear();
  for (auto& [path, tree] : rewritten_trees_) std::swap(out[path], tree);
  FreeTrees(&rewritten_trees_);  // now the trees of the files as they were
  return out;
}

Planner::~Planner() {
  FreeTrees(&syntax_trees_);
  FreeTrees(&rewritten_trees_);
}

}  // namespace

namespace {

// The rules whose rewrite a second run would change again, each with the
// error that says so: the rules that edited, planned once more over the
// files as the first run leaves them.
std::map<std::string, Diagnostic> NotIdempotent(
    const RuleSet& rules, const PlanResult& first, const std::map<std::string, SourceText>& files,
    const std::vector<std::string>& tree_paths,
    std::map<std::string, std::unique_ptr<SyntaxTree>> trees) {
  std::map<std::string, Diagnostic> refused;
  if (first.new_contents.empty()) {
    FreeTrees(&trees);
    return refused;
  }
  RuleSet editing = rules;
  editing.rules.clear();
  for (const Rule& r : rules.rules) {
    const RuleOutcome* o = first.Find(r.id);
    if (o != nullptr && o->edits > 0) editing.rules.push_back(r);
  }
  std::map<std::string, SourceText> next = files;
  for (const auto& [path, text] : first.new_contents) next[path] = SourceText(path, text);
  PlanResult again;
  Planner second(editing, *rules.values, next, tree_paths, &again);
  second.ParseLazily();
  for (auto& [path, tree] : trees) tree->Rebind(next.at(path).bytes());
  second.UseTrees(std::move(trees));
  second.Run();
  for (const auto& [path, edits] : again.edits) {
    for (const Edit& e : edits) {
      if (refused.count(e.rule_id) != 0) continue;
      // Located at the rule's first site as the file is now.
      const RuleOutcome* o = first.Find(e.rule_id);
      const SourceText& now = files.at(path);
      Position p = now.PositionOf(o != nullptr && !o->found.empty() ? o->found.front().begin : 0);
      auto shown = [](std::string_view text) {
        std::string out;
        for (char c : text.substr(0, std::min<std::size_t>(text.size(), 57))) {
          out += c == '\n'   ? std::string("\\n")
                 : c == '\r' ? std::string("\\r")
                             : std::string(1, c);
        }
        return text.size() > 57 ? out + "..." : out;
      };
      std::string_view was(next.at(path).bytes().data() + e.offset, e.length);
      refused[e.rule_id] = Diagnostic{
          path, p.line, p.column, Severity::kError,
          fmt::format("rule '{}' is not idempotent: a second run would change '{}' to '{}' "
                      "(its template writes text its query does not match again)",
                      e.rule_id, shown(was), shown(e.text))};
    }
  }
  return refused;
}

}  // namespace

PlanResult Plan(const RuleSet& rules, const std::map<std::string, SourceText>& files,
                const std::vector<std::string>& tree_paths) {
  PlanResult out;
  Planner first(rules, *rules.values, files, tree_paths, &out);
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
  planner.Refuse(std::move(refused));
  planner.Run();
  return checked;
}

const char* RuleStatusName(RuleStatus s) {
  switch (s) {
    case RuleStatus::kRewrites:
      return "rewrites";
    case RuleStatus::kAlreadyApplied:
      return "at value";
    case RuleStatus::kSkipped:
      return "skipped";
    case RuleStatus::kNoValue:
      return "no value";
    case RuleStatus::kFailed:
      return "failed";
    case RuleStatus::kDead:
      return "dead";
  }
  return "failed";
}

bool PlanResult::AnyFailed() const {
  for (const RuleOutcome& o : outcomes) {
    if (o.status == RuleStatus::kFailed) return true;
  }
  return false;
}

const RuleOutcome* PlanResult::Find(const std::string& rule_id) const {
  for (const RuleOutcome& o : outcomes) {
    if (o.rule_id == rule_id) return &o;
  }
  return nullptr;
}

int LeaveDeadSitesAlone(PlanResult* plan, const std::map<std::string, SourceText>& files) {
  int left = 0;
  std::set<std::string> touched;
  for (RuleOutcome& o : plan->outcomes) {
    if (o.status != RuleStatus::kRewrites && o.status != RuleStatus::kAlreadyApplied) continue;
    int dead = 0;
    for (const Site& site : o.found) {
      if (site.liveness != "dead") continue;
      ++dead;
      auto it = plan->edits.find(site.path);
      if (it == plan->edits.end()) continue;
      std::vector<Edit>& edits = it->second;
      std::size_t before = edits.size();
      edits.erase(std::remove_if(edits.begin(), edits.end(),
                                 [&](const Edit& e) {
                                   return e.rule_id == o.rule_id && e.offset >= site.begin &&
                                          e.offset <= site.end;
                                 }),
                  edits.end());
      if (edits.size() != before) {
        ++left;
        o.edits -= static_cast<int>(before - edits.size());
        touched.insert(site.path);
      }
    }
    if (dead > 0 && dead == static_cast<int>(o.found.size())) {
      o.status = RuleStatus::kDead;
    } else if (o.status == RuleStatus::kRewrites && o.edits <= 0) {
      o.status = RuleStatus::kAlreadyApplied;
    }
  }
  for (const std::string& path : touched) {
    std::vector<Edit>& edits = plan->edits[path];
    if (edits.empty()) {
      plan->edits.erase(path);
      plan->new_contents.erase(path);
      continue;
    }
    std::string text = ApplyEdits(files.at(path).bytes(), edits);
    if (text == files.at(path).bytes()) {
      plan->edits.erase(path);
      plan->new_contents.erase(path);
    } else {
      plan->new_contents[path] = std::move(text);
    }
  }
  if (left > 0) {
    // About the run, not a file: the same words however the rules are named.
    plan->diagnostics.push_back(MakeNote(
        "", 0, 0,
        fmt::format("{} dead site{} left alone (code that does not run on the served platform; "
                    "`muhpatch status` says why, --include-dead rewrites them)",
                    left, left == 1 ? "" : "s")));
  }
  return left;
}

std::string PlanSummary(const PlanResult& plan) {
  int rewrites = 0, done = 0, skipped = 0, no_value = 0, failed = 0, dead = 0;
  for (const RuleOutcome& o : plan.outcomes) {
    rewrites += o.status == RuleStatus::kRewrites;
    done += o.status == RuleStatus::kAlreadyApplied;
    skipped += o.status == RuleStatus::kSkipped;
    no_value += o.status == RuleStatus::kNoValue;
    failed += o.status == RuleStatus::kFailed;
    dead += o.status == RuleStatus::kDead;
  }
  std::string out = fmt::format("{} rules: {} rewrite, {} already at their value, {} skipped",
                                plan.outcomes.size(), rewrites, done, skipped);
  if (dead > 0) out += fmt::format(", {} dead", dead);
  if (no_value > 0) out += fmt::format(", {} without a valid value", no_value);
  if (failed > 0) out += fmt::format(", {} failed", failed);
  return out;
}

std::string RenderDiff(const std::map<std::string, SourceText>& files,
                       const std::map<std::string, std::string>& new_contents) {
  std::string diff;
  for (const auto& [path, text] : new_contents) {
    diff += UnifiedDiff(path, files.at(path).bytes(), text);
  }
  return diff;
}

std::string RenderPatch(const std::map<std::string, SourceText>& files, const PlanResult& plan) {
  std::string diff = RenderDiff(files, plan.new_contents);
  if (diff.empty()) return diff;
  std::string preamble;
  for (const RuleOutcome& o : plan.outcomes) {
    preamble += fmt::format("muhpatch: rule {}: {}\n", o.rule_id, RuleStatusName(o.status));
  }
  return preamble + diff;
}

std::map<std::string, std::string> PreambleStatuses(const std::vector<std::string>& preamble) {
  std::map<std::string, std::string> out;
  constexpr std::string_view kHead = "muhpatch: rule ";
  for (const std::string& line : preamble) {
    if (line.rfind(kHead, 0) != 0) continue;
    std::size_t colon = line.find(": ", kHead.size());
    if (colon == std::string::npos) continue;
    std::string status = line.substr(colon + 2);
    if (!status.empty() && status.back() == '\r') status.pop_back();
    out[line.substr(kHead.size(), colon - kHead.size())] = status;
  }
  return out;
}

}  // namespace muh
