// RulePlanner::PlanSite and the staging of a rule's edits: what each site's
// action (replace, delete lines, append entries) would write, staged until
// the rule is done, then kept unless the rule failed or overlaps another
// rule's edits (see rule_planner.h).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <string_view>

#include "engine/base/one_line.h"
#include "engine/base/text.h"
#include "engine/plan/config_list.h"
#include "engine/plan/rule_planner.h"
#include "engine/plan/value_gate.h"
#include "engine/python/assigned_values.h"
#include "engine/python/py_literal.h"
#include "engine/python/reaching_values.h"
#include "engine/python/tier_chain.h"

namespace muh {
namespace plan {

void RulePlanner::AddEdit(const Edit& e, RuleOutcome* outcome) {
  plan_.edits.push_back(e);
  ++outcome->edits;
}

bool RulePlanner::WrittenByMuhpatch(const SourceText& file, std::size_t begin,
                                    std::size_t end) const {
  auto it = ctx_.written().find(file.path());
  if (it == ctx_.written().end()) return false;
  if (it->second.content_hash != std::hash<std::string_view>{}(file.bytes())) return false;
  // Every line the site spans must be a `+` line.
  std::size_t at = begin;
  while (true) {
    bool inside = false;
    for (const auto& [b, e] : it->second.ranges) inside = inside || (b <= at && at < e);
    if (!inside) return false;
    std::size_t nl = file.bytes().find('\n', at);
    if (nl == std::string::npos || nl + 1 >= end) return true;
    at = nl + 1;
  }
}

bool RulePlanner::ComputedAtRunTime(const Rule& rule, const Template& with, const SourceText& file,
                                    const Capture& target) {
  // A template that keeps captured code (`{{@keep}} if {{@cond}} else ...`)
  // writes an expression itself; only a literal replaces a literal.
  for (const TemplatePart& p : with.parts()) {
    if (p.kind == TemplatePart::Kind::kCapture) return false;
  }
  // A literal reads no name (and finding its node again from the root costs
  // the file's nesting depth, for every site of a deep expression).
  for (const char* literal : {"integer", "float", "string", "true", "false", "none"}) {
    if (target.node_type == literal) return false;
  }
  std::optional<RunTimeValue> v =
      RunTimeInputs(*SyntaxTreeOf(file.path()), target.begin, target.end);
  if (!v) return false;
  std::vector<std::string> inputs;
  for (const ValueInput& in : v->inputs) {
    if (inputs.size() == 8) {  // a generated expression may read thousands
      inputs.push_back(fmt::format("and {} more", v->inputs.size() - 8));
      break;
    }
    inputs.push_back(
        in.assigned ? fmt::format("{} (line {})", in.name, file.PositionOf(in.assigned_at).line)
                    : in.name);
  }
  Say(At(file.path(), target.begin, Severity::kError,
         fmt::format("rule '{}': {} is computed from {}: no literal to rewrite (it holds `{}`)",
                     rule.id,
                     !v->assigned_to.empty() ? v->assigned_to
                     : !rule.knob.empty()    ? rule.knob
                                             : std::string("the value"),
                     fmt::join(inputs, ", "), OneLine(target.text, 120))));
  return true;
}

void RulePlanner::PlanSite(const Rule& rule, const SourceText& file, const SiteMatch& match,
                           RuleOutcome* outcome) {
  const Capture* target = match.match.Find(match.target);
  if (target == nullptr) {
    Say(At(
        file.path(), match.at, Severity::kError,
        fmt::format("rule '{}': capture '@{}' is absent from this match", rule.id, match.target)));
    outcome->status = RuleStatus::kFailed;
    return;
  }
  // What the site is rewritten with: the rule's, unless the site says.
  const Template& with = match.with != nullptr ? *match.with : rule.with;
  const std::optional<std::string>& upstream = match.upstream ? match.upstream : rule.upstream;
  std::optional<Rule::Pin> pin;
  if (match.pinned) pin = rule.pin;
  if (!rule.tier_pins.empty() && match.tier_index >= 0) {
    // One pin per tier, by position: the list must describe this chain.
    if (rule.tier_pins.size() != static_cast<std::size_t>(match.tier_count)) {
      if (!tier_pins_said_) {
        tier_pins_said_ = true;
        Position chain = file.PositionOf(match.at);
        Say(Diagnostic{
            ctx_.rules().path, rule.tier_pins_loc.line, rule.tier_pins_loc.column, Severity::kError,
            fmt::format("rule '{}' pins {} tier{}, but the chain at {}:{} has {}: give "
                        "one entry per tier, by position (null where the model decides)",
                        rule.id, rule.tier_pins.size(), rule.tier_pins.size() == 1 ? "" : "s",
                        file.path(), chain.line, match.tier_count)});
      }
      outcome->status = RuleStatus::kFailed;
      return;
    }
    pin = rule.tier_pins[static_cast<std::size_t>(match.tier_index)];
  }
  Site site = SiteOf(file, *target);
  site.deletes = rule.action == ActionKind::kDeleteLines;
  switch (rule.action) {
    case ActionKind::kReplace: {
      if (ComputedAtRunTime(rule, with, file, *target)) {
        outcome->status = RuleStatus::kFailed;
        return;
      }
      // `a = b = 8`: the value is b's too, and rewriting it would change b.
      std::vector<std::string> targets =
          AssignedTargets(*SyntaxTreeOf(file.path()), target->begin, target->end);
      if (targets.size() > 1) {
        Say(At(file.path(), target->begin, Severity::kError,
               fmt::format("rule '{}': {} is assigned to {} at once (a chained assignment): "
                           "rewriting it would change them all; write each on its own line",
                           rule.id, target->text,
                           fmt::join(targets.rbegin(), targets.rend(), " and "))));
        outcome->status = RuleStatus::kFailed;
        return;
      }
      const ValueSource* table = ctx_.rules().table.get();  // the rule file's own values
      std::string text;
      std::string error;
      std::string why;
      bool valued = with.Expand(match.match, ctx_.values(), &text, &error, &why);
      if (!valued && !pin) {
        // The model derives no valid value here: the knob is left alone,
        // like an unmet precondition, and the note names the constraint.
        outcome->reason =
            fmt::format("rule '{}' skipped: the model has no valid value: {}", rule.id, error);
        Say(At(file.path(), target->begin, Severity::kNote, outcome->reason));
        outcome->status = RuleStatus::kNoValue;
        outcome->found.push_back(site);
        return;
      }
      std::string model = valued ? DropEqualBranches(text) : "";
      text = model;
      // What the code does to the value before the kernel gets it.
      std::vector<SelfTransform> transforms =
          LaterTransforms(*SyntaxTreeOf(file.path()), target->begin, target->end);
      if (pin) {
        // The pin decides; the model's value is shown beside it.
        text = pin->value;
        site.pin_reason = pin->reason;
        CheckWritten(ctx_.values(), table, with, ValueOrigin::kPin, text, target->text, &*pin,
                     &site);
        CheckReached(ctx_.values(), with, ValueOrigin::kPin, text, transforms, &*pin, &site);
        site.model = valued ? model : "(none: " + error + ")";
        why = fmt::format("pinned by the rule ({}:{}): {}\nthe model's own value: {}\n",
                          ctx_.rules().path, pin->loc.line, pin->reason, site.model) +
              why;
      }
      if (match.path_only) {
        if (!match.path_condition.empty()) {
          std::string wrapped = DropEqualBranches(
              OnThisPath(match.path_condition, match.path_condition_true, target->text, text));
          // A wrap that stays a conditional expression, in a larger one.
          if (match.path_operand && wrapped != DropEqualBranches(text)) {
            wrapped = "(" + wrapped + ")";
          }
          text = wrapped;
        }
        text = DropEqualBranches(text);
      }
      site.wanted = text;
      site.ours = WrittenByMuhpatch(file, target->begin, target->end);
      if (upstream) {
        site.upstream = *upstream;
        site.hand_tuned = !SameValue(*upstream, target->text) && !SameValue(text, target->text) &&
                          !(valued && SameValue(model, target->text)) && !site.ours;
      }
      if (SameValue(text, target->text)) {
        outcome->found.push_back(site);
        return;
      }
      if (site.hand_tuned && !rule.retune) {
        // The maintainers' value wins over the model's guess: left alone,
        // and said where.
        site.kept = true;
        site.why = why;
        // The kernel gets the kept value too: checked as the model's would
        // be. A name stands for the constant it provably holds (one the
        // tree may rebind elsewhere fails in rebound_constants).
        std::string kept = target->text;
        std::string name(Trim(kept));
        bool is_name = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
                       std::all_of(name.begin(), name.end(), [](char c) {
                         return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
                       });
        if (is_name) {
          if (std::optional<std::string> c =
                  ConstantAt(*SyntaxTreeOf(file.path()), target->begin, name)) {
            kept = *c;
            site.bound_constants.push_back(BoundConstant{name, target->begin, false, true});
          }
        }
        CheckWritten(ctx_.values(), table, with, ValueOrigin::kKept, kept, target->text, nullptr,
                     &site);
        CheckReached(ctx_.values(), with, ValueOrigin::kKept, kept, transforms, nullptr, &site);
        outcome->found.push_back(site);
        Diagnostic note =
            At(file.path(), target->begin, Severity::kNote,
               fmt::format("rule '{}' keeps '{}', a hand-tuned value: neither upstream's '{}' nor "
                           "the {} '{}' (--retune, or `retune: true` on the rule, overwrites it; "
                           "`pin:` accepts it with a reason)",
                           rule.id, OneLine(target->text, 60), *upstream, pin ? "pin" : "model's",
                           OneLine(text, 60)));
        // Where the rule's state was decided, for verify's state check.
        if (!outcome->decided_at) {
          outcome->decided_at = note;
          outcome->decided_at->message = fmt::format("rule '{}' keeps '{}', a hand-tuned value",
                                                     rule.id, OneLine(target->text, 60));
        }
        Say(std::move(note));
        return;
      }
      // The model's value, as it is written (a pin was checked above).
      if (!pin) {
        CheckWritten(ctx_.values(), table, with, ValueOrigin::kModel, model, target->text, nullptr,
                     &site);
        CheckReached(ctx_.values(), with, ValueOrigin::kModel, model, transforms, nullptr, &site);
      }
      outcome->found.push_back(site);
      if (site.hand_tuned) {
        Say(At(file.path(), target->begin, Severity::kWarning,
               fmt::format("rule '{}' replaces '{}', which is neither upstream's '{}' nor the "
                           "model's '{}': a hand-tuned value is overwritten",
                           rule.id, target->text, *upstream, text)));
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
      // A comment after the statement on its last line goes with it
      // (`use_v1 = True  # noqa`): it is about the line deleted.
      std::size_t code_after = after.find_first_not_of(" \t\r\n");
      bool only_comment = code_after != std::string_view::npos && after[code_after] == '#' &&
                          after.find('\n', code_after) >= after.find_last_not_of("\r\n");
      if (before.find_first_not_of(" \t") != std::string_view::npos ||
          (code_after != std::string_view::npos && !only_comment)) {
        Say(At(file.path(), target->begin, Severity::kError,
               fmt::format("rule '{}': cannot delete '@{}': its lines hold other code", rule.id,
                           match.target)));
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
      const Value* v = ctx_.values().Find(rule.entries);
      outcome->found.push_back(site);
      if (!v->error.empty()) {
        outcome->reason =
            fmt::format("rule '{}' skipped: the model has no valid value: value '{}': {}", rule.id,
                        rule.entries, v->error);
        Say(At(file.path(), target->begin, Severity::kNote, outcome->reason));
        outcome->status = RuleStatus::kNoValue;
        return;
      }
      ConfigAppend append;
      std::string error;
      std::size_t error_offset = 0;
      if (!PlanConfigAppend(file, *SyntaxTreeOf(file.path()), target->begin, target->end,
                            v->entries, rule.id, &append, &error, &error_offset)) {
        Say(At(file.path(), error_offset, Severity::kError, error));
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

}  // namespace plan
}  // namespace muh
