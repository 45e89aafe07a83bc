#include "engine/rules/rule_checker.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "engine/base/edit_distance.h"
#include "engine/model/input_values.h"
#include "engine/query/query_cache.h"
#include "engine/rules/combined_values.h"
#include "engine/rules/finder_kind.h"
#include "engine/rules/finder_query.h"
#include "engine/rules/template_inputs.h"

namespace muh {

namespace {

// The capture a rule's action names (`replace: @value`), without its '@'.
std::string ActionTarget(const RawRule& r) {
  std::string target = r.replace.present ? r.replace.value
                       : r.del.present   ? r.del.value
                                         : r.append_to.value;
  if (!target.empty() && target.front() == '@') target.erase(0, 1);
  return target;
}

// A rule of a kind of site that takes any number of sites, without
// `expect:` (a `value-of` rule takes every value its question finds).
constexpr int kManySites = 1000;

class Checker {
 public:
  Checker(YamlReader* reader, const ValueSource* values, QueryCache* queries)
      : l_(*reader), values_(values), queries_(queries) {}

  std::shared_ptr<const Query> CompileQuery(const RawScalar& s) {
    QueryError qe;
    std::shared_ptr<const Query> q = queries_->Get(s.value, &qe);
    if (!q) {
      RuleLoc at = l_.OffsetLoc(s.mark, qe.offset);
      l_.errors_->push_back(MakeError(l_.path_, at.line, at.column,
                                      fmt::format("{} at query offset {}", qe.message, qe.offset)));
      return nullptr;
    }
    return q;
  }

  // The finder of the kind of site `kind` (finder_kind.h), from its keys.
  void CheckKind(const FinderKind& kind, const RawFinderKeys& keys, FinderCheck* check,
                 Rule* rule) {
    check->reader = &l_;
    check->queries = queries_;
    rule->finder = kind.check(keys, check);
    rule->knob = check->knob;
    rule->knob_shape = check->knob_shape;
    rule->tiers = check->tiers;
    if (kind.any_number) rule->expect_max = kManySites;
  }

  bool CheckPath(const RawScalar& s) {
    if (s.value.empty() || s.value.front() == '/' || s.value == ".." ||
        s.value.rfind("../", 0) == 0 || s.value.find("/../") != std::string::npos ||
        (s.value.size() >= 3 && s.value.compare(s.value.size() - 3, 3, "/..") == 0)) {
      l_.Error(s.mark, fmt::format("'{}' must be a path inside the tree", s.value));
      return false;
    }
    return true;
  }

  bool CaptureExists(const SiteQuery& q, const std::string& name, const YAML::Mark& mark,
                     const char* key) {
    if (q.HasCapture(name)) return true;
    std::string list;
    for (const std::string& c : q.capture_names()) {
      // A code pattern's own captures (`@_p0`, its literals) are not the user's.
      if (c.rfind("_p", 0) != 0) list += (list.empty() ? "@" : ", @") + c;
    }
    l_.Error(mark, fmt::format("unknown capture '@{}' in '{}'{} (query captures: {})", name, key,
                               DidYouMean(name, q.capture_names()), list));
    return false;
  }

  // A mark at byte `offset` of scalar `s`, for messages about part of it.
  YAML::Mark PartMark(const RawScalar& s, std::size_t offset) const {
    RuleLoc loc = l_.OffsetLoc(s.mark, offset);
    YAML::Mark m = s.mark;
    m.line = loc.line - 1;
    m.column = loc.column - 1;
    return m;
  }

  void FunctionExists(const std::string& name, const YAML::Mark& mark) {
    std::vector<std::string> fns = values_->Functions();
    if (std::find(fns.begin(), fns.end(), name) != fns.end()) return;
    l_.Error(mark, fmt::format("unknown function '{}'{} (known: {})", name, DidYouMean(name, fns),
                               fns.empty() ? "none" : fmt::format("{}", fmt::join(fns, ", "))));
  }

  bool ValueExists(const std::string& name, const YAML::Mark& mark, bool want_list) {
    const Value* v = values_->Find(name);
    if (v == nullptr && IsInputName(name)) {
      l_.Error(mark, UnknownInput(name, values_->InputNames()));
      return false;
    }
    std::vector<std::string> names = values_->Names();
    if (v == nullptr) {
      std::string known;
      for (const std::string& n : names) known += (known.empty() ? "" : ", ") + n;
      l_.Error(mark,
               fmt::format("unknown value '{}'{} (known: {}){}", name, DidYouMean(name, names),
                           known.empty() ? "none" : known, InputHint(name, values_->InputNames())));
      return false;
    }
    if (v->is_list != want_list) {
      l_.Error(mark, fmt::format("value '{}' is {}", name, v->is_list ? "a list" : "not a list"));
      return false;
    }
    return true;
  }

  // One precondition entry (a mapping); its files stay empty when it names
  // none: they are then the rule's.
  std::optional<Precondition> CheckPrecondition(const RawPrecondition& rp) {
    Precondition p;
    p.loc = {rp.mark.line + 1, rp.mark.column + 1};
    p.name = rp.name.value;
    bool ok = true;
    if (!rp.name.present) {
      l_.Error(rp.mark, "precondition has no 'name'");
      ok = false;
    }
    if (rp.present.present == rp.absent.present) {
      l_.Error(rp.mark, "a precondition needs exactly one of 'present' or 'absent'");
      return std::nullopt;
    }
    p.want_present = rp.present.present;
    p.query = CompileQuery(p.want_present ? rp.present : rp.absent);
    for (const RawScalar& f : rp.files) {
      if (CheckPath(f)) p.files.push_back(f.value);
    }
    if (rp.required.present) {
      if (rp.required.value == "true") {
        p.required = true;
      } else if (rp.required.value != "false") {
        l_.Error(rp.required.mark, "'required' must be true or false");
        ok = false;
      }
    }
    if (!ok || !p.query) return std::nullopt;
    return p;
  }

  // The file's named precondition lists, each checked once.
  void CheckNamedLists(const std::vector<NamedPreconditions>& lists) {
    for (const NamedPreconditions& n : lists) {
      std::vector<Precondition>& checked = named_[n.name.value];
      for (const RawPrecondition& rp : n.entries) {
        if (std::optional<Precondition> p = CheckPrecondition(rp)) checked.push_back(std::move(*p));
      }
      named_order_.push_back(n.name.value);
    }
  }

  // The list a rule names; an error at the name when the file declares none.
  const std::vector<Precondition>* NamedList(const RawScalar& ref) {
    auto it = named_.find(ref.value);
    if (it != named_.end()) return &it->second;
    l_.Error(ref.mark,
             fmt::format(
                 "unknown precondition list '{}'{} (the file's "
                 "'preconditions:' names: {})",
                 ref.value, DidYouMean(ref.value, named_order_),
                 named_order_.empty() ? "none" : fmt::format("{}", fmt::join(named_order_, ", "))));
    return nullptr;
  }

  std::optional<Rule> Check(const RawRule& r, std::set<std::string>* ids);

 private:
  std::map<std::string, std::vector<Precondition>> named_;
  std::vector<std::string> named_order_;  // as declared
  YamlReader& l_;
  const ValueSource* values_;
  QueryCache* queries_;
};

std::optional<Rule> Checker::Check(const RawRule& r, std::set<std::string>* ids) {
  std::size_t errors_before = l_.errors_->size();
  Rule rule;
  // The query the rule's sites come from: its kind's, its pattern's or its own.
  std::shared_ptr<const SiteQuery> query;
  rule.loc = {r.mark.line + 1, r.mark.column + 1};
  if (!r.id.present) {
    l_.Error(r.mark, "rule has no 'id'");
  } else if (r.id.value.empty() ||
             r.id.value.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                          "0123456789._-") != std::string::npos) {
    // Ids appear in messages, annotations and the patch's preamble lines.
    l_.Error(r.id.mark, "a rule id is letters, digits, '.', '_' and '-' only");
  } else if (!ids->insert(r.id.value).second) {
    l_.Error(r.id.mark, fmt::format("duplicate rule id '{}'", r.id.value));
  }
  rule.id = r.id.value;
  rule.description = r.description.value;
  auto meant = [&](const char* key) {
    return std::find(r.misspelled.begin(), r.misspelled.end(), key) != r.misspelled.end();
  };
  if (r.files.empty() && !r.files_key.present && !meant("files")) {
    l_.Error(r.mark, fmt::format("rule '{}' has no 'files'", rule.id));
  }
  for (const RawScalar& f : r.files) {
    if (CheckPath(f)) {
      rule.files.push_back(f.value);
      rule.file_locs.push_back({f.mark.line + 1, f.mark.column + 1});
    }
  }
  rule.files_loc = {r.files_key.mark.line + 1, r.files_key.mark.column + 1};
  for (const RawScalar& f : r.also_matches) {
    if (CheckPath(f)) rule.also_matches.push_back(f.value);
  }
  // The kind of site the rule names: one with a target of its own (the
  // first written, when there are several), `query:`, or `pattern:`.
  const FinderKind* kind = nullptr;
  const RawFinderKeys* kind_keys = nullptr;
  auto named = [&](const char* key) -> const RawFinderKeys* {
    auto it = r.finder_keys.find(key);
    return it != r.finder_keys.end() && it->second->named ? it->second.get() : nullptr;
  };
  const RawFinderKeys* query_keys = named("query");
  const RawFinderKeys* pattern_keys = named("pattern");
  int kinds = 0;
  for (const auto& [key, keys] : r.finder_keys) {
    if (!keys->named) continue;
    ++kinds;
    const FinderKind* k = FinderKindOf(key);
    if (!k->target.empty() && (kind == nullptr || keys->key_mark.pos < kind_keys->key_mark.pos)) {
      kind = k;
      kind_keys = keys.get();
    }
  }
  // A tier family's rule: its templates may name @tier and @bounds, and its pin be a list.
  const bool tiered = RawTiersOf(r) != nullptr;
  FinderCheck check;
  check.target = ActionTarget(r);
  if (kind != nullptr) check.target = kind->target;
  check.values = values_;
  check.replaces = r.replace.present;
  check.upstream = r.upstream.present;
  if (kind != nullptr && kinds > 1) {
    std::string names;
    for (const FinderKind& k : FinderKinds()) {
      if (!k.target.empty()) names += "'" + k.key + "', ";
    }
    l_.Error(kind_keys->key_mark, fmt::format("a rule has one of {}'pattern' or 'query'", names));
  } else if (kind != nullptr) {
    CheckKind(*kind, *kind_keys, &check, &rule);
  } else if (pattern_keys != nullptr && query_keys != nullptr) {
    l_.Error(pattern_keys->key_mark, "a rule has a 'pattern' or a 'query', not both");
  } else if (pattern_keys != nullptr) {
    CheckKind(*FinderKindOf("pattern"), *pattern_keys, &check, &rule);
  } else if (query_keys == nullptr) {
    if (!meant("query") && !meant("pattern"))
      l_.Error(r.mark, fmt::format("rule '{}' has no 'pattern' or 'query'", rule.id));
  } else {
    CheckKind(*FinderKindOf("query"), *query_keys, &check, &rule);
  }
  if (rule.finder) query = rule.finder->query();
  // Keys that go with a kind's key (`inside`, `where`) without it.
  for (const auto& [key, keys] : r.finder_keys) {
    if (keys->named) continue;
    for (const auto& [also, mark] : keys->also) {
      l_.Error(mark, fmt::format("'{}' only goes with '{}'", also, key));
    }
  }
  int actions = int(r.replace.present) + int(r.del.present) + int(r.append_to.present);
  // With no action key, a misspelled one was reported with its suggestion;
  // nothing else about the action is said (no "'with' only goes with ...").
  bool action_unknown = actions == 0 && (meant("replace") || meant("delete") || meant("append-to"));
  if (kind != nullptr && actions != 0) {
    l_.Error(r.mark, fmt::format("a rule with '{}' replaces the value it names: no 'replace', "
                                 "'delete' or 'append-to'",
                                 kind->key));
  } else if (actions != 1 && !action_unknown && kind == nullptr) {
    l_.Error(r.mark, fmt::format("rule '{}' needs exactly one of 'replace', 'delete', 'append-to'",
                                 rule.id));
  }
  const RawScalar* target = r.replace.present ? &r.replace : r.del.present ? &r.del : &r.append_to;
  rule.action = r.replace.present || kind != nullptr ? ActionKind::kReplace
                : r.del.present                      ? ActionKind::kDeleteLines
                                                     : ActionKind::kAppendEntries;
  const std::string& target_name = check.target;
  rule.target = target_name;
  const char* target_key = r.replace.present ? "replace" : r.del.present ? "delete" : "append-to";
  if (query && target->present) CaptureExists(*query, target_name, target->mark, target_key);
  if (rule.action == ActionKind::kReplace) {
    if (!r.with.present) {
      l_.Error(kind != nullptr ? kind_keys->key_mark : r.replace.key_mark,
               fmt::format("rule '{}' has '{}' but no 'with'", rule.id,
                           kind != nullptr ? kind->key : "replace"));
    } else {
      std::string err;
      std::size_t off = 0;
      if (!Template::Parse(r.with.value, &rule.with, &err, &off)) {
        RuleLoc at = l_.OffsetLoc(r.with.mark, off);
        l_.errors_->push_back(MakeError(l_.path_, at.line, at.column, err));
      } else {
        std::size_t mixed_at = 0;
        std::string mixed = MixedInputs(rule.with, &mixed_at);
        if (!mixed.empty()) l_.Error(PartMark(r.with, mixed_at), mixed);
        for (const TemplatePart& p : rule.with.parts()) {
          YAML::Mark at = PartMark(r.with, p.offset);
          bool tier = tiered && IsTierCapture(p.text);
          if (p.kind == TemplatePart::Kind::kCapture && query && !tier) {
            CaptureExists(*query, p.text, at, "with");
          } else if (p.kind == TemplatePart::Kind::kValue) {
            ValueExists(p.text, at, false);
          } else if (p.kind == TemplatePart::Kind::kCall) {
            FunctionExists(p.text, at);
            for (const std::string& a : p.args) {
              if (query && !(tiered && IsTierCapture(a))) CaptureExists(*query, a, at, "with");
            }
          }
        }
      }
    }
  } else if (r.with.present && actions != 0) {
    l_.Error(r.with.key_mark, "'with' only goes with 'replace'");
  }
  if (rule.action == ActionKind::kAppendEntries && r.append_to.present) {
    if (!r.entries.present) {
      l_.Error(r.append_to.key_mark,
               fmt::format("rule '{}' has 'append-to' but no 'entries'", rule.id));
    } else if (ValueExists(r.entries.value, r.entries.mark, true)) {
      rule.entries = r.entries.value;
    }
  } else if (r.entries.present && actions != 0) {
    l_.Error(r.entries.key_mark, "'entries' only goes with 'append-to'");
  }
  if (r.expect.present) {
    // A number, or a range `LO..HI` for a family of sites (the tiers of a
    // chain, which the fork may grow).
    std::size_t dots = r.expect.value.find("..");
    std::string lo = r.expect.value.substr(0, dots);
    std::string hi = dots == std::string::npos ? lo : r.expect.value.substr(dots + 2);
    try {
      rule.expect = std::stoi(lo);
      rule.expect_max = std::stoi(hi);
      if (rule.expect < 1 || std::to_string(rule.expect) != lo ||
          std::to_string(rule.expect_max) != hi || rule.expect_max < rule.expect)
        throw std::exception();
    } catch (...) {
      l_.Error(r.expect.mark, fmt::format("'expect' must be a whole number of at least 1, or a "
                                          "range LO..HI of them, got '{}'",
                                          r.expect.value));
    }
  }
  if (r.done_when.present) rule.done_when = CompileQuery(r.done_when);
  if (r.upstream.present) {
    if (rule.action != ActionKind::kReplace && actions != 0) {
      l_.Error(r.upstream.key_mark, "'upstream' only goes with 'replace'");
    } else {
      rule.upstream = r.upstream.value;
    }
  }
  if (r.retune.present) {
    if (r.retune.value == "true" || r.retune.value == "false") {
      rule.retune = r.retune.value == "true";
    } else {
      l_.Error(r.retune.mark,
               fmt::format("'retune' must be true or false, got '{}'", r.retune.value));
    }
  }
  auto pin_of = [&](const RawScalar& value, const RawScalar& reason, const RawScalar& unchecked,
                    const YAML::Mark& at, const YAML::Mark& loc) -> std::optional<Rule::Pin> {
    if (!value.present || value.value.empty()) {
      l_.Error(at, "'pin' needs 'value': the Python text to write");
    } else if (!reason.present || reason.value.empty()) {
      l_.Error(at, "'pin' needs 'reason': why this value (who measured or decided it)");
    } else {
      return Rule::Pin{value.value, reason.value, {loc.line + 1, loc.column + 1}, unchecked.value};
    }
    return std::nullopt;
  };
  if (r.pin.present && r.pin_list) {
    if (!tiered) {
      l_.Error(r.pin.key_mark,
               "a list of pins goes with 'tiers' (one entry per tier, by position); pin one "
               "value with {value: V, reason: \"why\"}");
    } else if (r.tier_pins.empty()) {
      l_.Error(r.pin.mark,
               "'pin' lists no tier: give one entry per tier, null where the model "
               "decides");
    }
    rule.tier_pins_loc = {r.pin.key_mark.line + 1, r.pin.key_mark.column + 1};
    for (const RawRule::RawTierPin& p : r.tier_pins) {
      rule.tier_pins.push_back(p.none ? std::nullopt
                                      : pin_of(p.value, p.reason, p.unchecked, p.mark, p.mark));
    }
  } else if (r.pin.present) {
    if (rule.action != ActionKind::kReplace && actions != 0) {
      l_.Error(r.pin.key_mark, "'pin' only goes with 'replace'");
    } else {
      rule.pin = pin_of(r.pin_value, r.pin_reason, r.pin_unchecked, r.pin.mark, r.pin.key_mark);
    }
  }
  if (r.retired.present) {
    if (!r.retired_reason.present || r.retired_reason.value.empty()) {
      l_.Error(r.retired.mark, "'retired' needs 'reason': why the knob is gone upstream");
    } else {
      rule.retired = Rule::Retired{r.retired_reason.value,
                                   r.retired_replaced_by.value,
                                   {r.retired.key_mark.line + 1, r.retired.key_mark.column + 1}};
    }
  }
  for (const RawPrecondition& rp : r.preconditions) {
    std::vector<Precondition> entries;
    if (!rp.ref.present) {
      if (std::optional<Precondition> p = CheckPrecondition(rp)) entries.push_back(std::move(*p));
    } else if (const std::vector<Precondition>* list = NamedList(rp.ref)) {
      entries = *list;
    }
    for (Precondition& p : entries) {
      if (p.files.empty()) p.files = rule.files;
      rule.preconditions.push_back(std::move(p));
    }
  }
  if (l_.errors_->size() != errors_before) return std::nullopt;
  if (!rule.finder) {
    rule.finder = std::make_shared<QueryFinder>(query, rule.target);
  }
  return rule;
}

}  // namespace

std::vector<std::string> KindQueryTexts(const RawRule& r) {
  FinderCheck check;
  check.target = ActionTarget(r);
  std::vector<std::string> out;
  for (const auto& [key, keys] : r.finder_keys) {
    const FinderKind* kind = FinderKindOf(key);
    if (!keys->named || kind->texts == nullptr) continue;
    for (std::string& t : kind->texts(*keys, check)) out.push_back(std::move(t));
  }
  return out;
}

bool CheckRuleFile(const RawRuleFile& raw, std::shared_ptr<const ValueSource> model, RuleSet* out,
                   std::vector<Diagnostic>* errors, QueryCache* shared_queries) {
  std::size_t errors_before = errors->size();
  YamlReader reader(raw.path, raw.text, errors);
  out->path = raw.path;
  out->rules.clear();
  out->table = raw.table;
  out->liveness = raw.liveness;
  if (model) {
    for (const auto& [name, mark] : raw.value_names) {
      if (model->Find(name) != nullptr) {
        reader.Error(
            mark, fmt::format("value '{}' would shadow the model's quantity of that name", name));
      }
    }
    out->values = std::make_shared<CombinedValues>(out->table, model);
  } else {
    out->values = out->table;
  }
  QueryCache own_queries;
  QueryCache& queries = shared_queries != nullptr ? *shared_queries : own_queries;
  std::vector<std::string> texts;
  for (const RawRule& r : raw.rules) {
    for (std::string& t : KindQueryTexts(r)) texts.push_back(std::move(t));
    if (r.done_when.present) texts.push_back(r.done_when.value);
    PreconditionQueryTexts(r.preconditions, &texts);
  }
  for (const NamedPreconditions& n : raw.preconditions) PreconditionQueryTexts(n.entries, &texts);
  queries.CompileAll(texts);
  Checker checker(&reader, out->values.get(), &queries);
  checker.CheckNamedLists(raw.preconditions);
  out->exclude.clear();
  for (const RawScalar& g : raw.exclude) {
    if (checker.CheckPath(g)) out->exclude.push_back(g.value);
  }
  std::set<std::string> ids;
  for (const RawRule& r : raw.rules) {
    std::optional<Rule> rule = checker.Check(r, &ids);
    if (rule) out->rules.push_back(std::move(*rule));
  }
  return errors->size() == errors_before;
}

}  // namespace muh
