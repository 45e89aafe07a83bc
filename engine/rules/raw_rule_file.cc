#include "engine/rules/raw_rule_file.h"

#include <fmt/format.h>

#include <algorithm>

#include "engine/base/edit_distance.h"
#include "engine/rules/raw_liveness.h"
#include "engine/rules/raw_search_spaces.h"

namespace muh {

namespace {

const std::vector<std::string> kTopKeys = {"version",       "values",       "workload",
                                           "search_spaces", "rules",        "liveness",
                                           "exclude",       "measurements", "preconditions"};
const std::vector<std::string> kRuleKeys = {
    "id",        "description", "files",  "replace",   "with",          "delete",
    "append-to", "entries",     "expect", "done-when", "preconditions", "also-matches",
    "upstream",  "retune",      "pin",    "retired",   "tiers"};

// kRuleKeys, with the keys of the kinds of site (finder_kind.h) before `tiers`
// (which goes with `pattern:`, and is listed last).
const std::vector<std::string>& RuleKeys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> out = kRuleKeys;
    for (const FinderKind& k : FinderKinds()) {
      out.insert(out.end() - 1, k.key);
      for (const std::string& also : k.also) {
        if (also != "tiers") out.insert(out.end() - 1, also);
      }
    }
    return out;
  }();
  return keys;
}
const std::vector<std::string> kPinKeys = {"value", "reason", "unchecked"};
const std::vector<std::string> kRetiredKeys = {"reason", "replaced-by"};

void ReadRetired(YamlReader* l, const YAML::Node& key, const YAML::Node& node, RawRule* r) {
  r->retired.present = true;
  r->retired.key_mark = key.Mark();
  r->retired.mark = node.Mark();
  if (!node.IsMap()) {
    l->Error(node.Mark(), "'retired' must be a mapping: {reason: \"why\", replaced-by: \"what\"}");
    return;
  }
  l->CheckKeys(node, kRetiredKeys, "retired");
  for (const auto& kv : node) {
    std::string k = kv.first.as<std::string>();
    if (k == "reason")
      l->Scalar(kv.first, kv.second, &r->retired_reason);
    else if (k == "replaced-by")
      l->Scalar(kv.first, kv.second, &r->retired_replaced_by);
  }
}

// `pin: {value: V, reason: "..."}`: both keys, each a scalar.
void ReadPin(YamlReader* l, const YAML::Node& key, const YAML::Node& node, RawRule* r) {
  r->pin.present = true;
  r->pin.key_mark = key.Mark();
  r->pin.mark = node.Mark();
  auto read = [&](const YAML::Node& map, RawScalar* value, RawScalar* reason,
                  RawScalar* unchecked) {
    l->CheckKeys(map, kPinKeys, "pin");
    for (const auto& kv : map) {
      std::string k = kv.first.as<std::string>();
      if (k == "value")
        l->Scalar(kv.first, kv.second, value);
      else if (k == "reason")
        l->Scalar(kv.first, kv.second, reason);
      else if (k == "unchecked")
        l->Scalar(kv.first, kv.second, unchecked);
    }
  };
  if (node.IsSequence()) {
    r->pin_list = true;
    for (const YAML::Node& entry : node) {
      RawRule::RawTierPin& p = r->tier_pins.emplace_back();
      p.mark = entry.Mark();
      if (entry.IsNull()) {
        p.none = true;
      } else if (entry.IsMap()) {
        read(entry, &p.value, &p.reason, &p.unchecked);
      } else {
        l->Error(entry.Mark(),
                 "a tier's pin is a mapping {value: V, reason: \"why\"}, or null where the model "
                 "decides");
      }
    }
    return;
  }
  if (!node.IsMap()) {
    l->Error(node.Mark(),
             "'pin' must be a mapping: {value: V, reason: \"why\"} (or, on a 'tiers' rule, a "
             "list of them, one per tier)");
    return;
  }
  read(node, &r->pin_value, &r->pin_reason, &r->pin_unchecked);
}

RawRule ReadRule(YamlReader* l, const YAML::Node& node) {
  RawRule r;
  r.mark = node.Mark();
  if (!node.IsMap()) {
    l->Error(node.Mark(), "a rule must be a mapping");
    return r;
  }
  r.misspelled = l->CheckKeys(node, RuleKeys(), "rule");
  for (const auto& kv : node) {
    std::string k = kv.first.as<std::string>();
    if (k == "id")
      l->Scalar(kv.first, kv.second, &r.id);
    else if (k == "description")
      l->Scalar(kv.first, kv.second, &r.description);
    else if (k == "replace")
      l->Scalar(kv.first, kv.second, &r.replace);
    else if (k == "with")
      l->Scalar(kv.first, kv.second, &r.with);
    else if (k == "delete")
      l->Scalar(kv.first, kv.second, &r.del);
    else if (k == "append-to")
      l->Scalar(kv.first, kv.second, &r.append_to);
    else if (k == "entries")
      l->Scalar(kv.first, kv.second, &r.entries);
    else if (k == "expect")
      l->Scalar(kv.first, kv.second, &r.expect);
    else if (k == "done-when")
      l->Scalar(kv.first, kv.second, &r.done_when);
    else if (k == "upstream")
      l->Scalar(kv.first, kv.second, &r.upstream);
    else if (k == "retune")
      l->Scalar(kv.first, kv.second, &r.retune);
    else if (k == "pin")
      ReadPin(l, kv.first, kv.second, &r);
    else if (k == "retired")
      ReadRetired(l, kv.first, kv.second, &r);
    else if (const FinderKind* kind = FinderKindOf(k)) {
      std::shared_ptr<RawFinderKeys>& keys = r.finder_keys[kind->key];
      keys = kind->read(l, kv.first, kv.second, keys);
      if (k == kind->key) {
        keys->named = true;
        keys->key_mark = kv.first.Mark();
      } else {
        keys->also.emplace_back(k, kv.first.Mark());
      }
    } else if (k == "files") {
      r.files_key.present = true;
      r.files_key.key_mark = kv.first.Mark();
      r.files_key.mark = kv.second.Mark();
      l->ScalarList(kv.first, kv.second, &r.files);
    } else if (k == "also-matches") {
      l->ScalarList(kv.first, kv.second, &r.also_matches);
    } else if (k == "preconditions") {
      ReadRulePreconditions(l, kv.second, &r.preconditions);
    }
  }
  return r;
}

void ReadValues(YamlReader* l, const YAML::Node& node, TableValues* table) {
  if (!node.IsMap()) {
    l->Error(node.Mark(), "'values' must be a mapping of names to values");
    return;
  }
  for (const auto& kv : node) {
    Value v;
    if (kv.second.IsScalar()) {
      v.text = kv.second.as<std::string>();
    } else if (kv.second.IsSequence()) {
      v.is_list = true;
      for (const YAML::Node& item : kv.second) {
        if (!item.IsMap()) {
          l->Error(item.Mark(), "each entry of a list value must be a mapping");
          continue;
        }
        ConfigEntry e;
        for (const auto& f : item) {
          if (!f.second.IsScalar()) {
            l->Error(f.second.Mark(), "entry fields must be scalars");
            continue;
          }
          e.fields.emplace_back(f.first.as<std::string>(),
                                PythonLiteral(f.second.as<std::string>()));
        }
        v.entries.push_back(std::move(e));
      }
    } else {
      l->Error(kv.second.Mark(), "a value must be a scalar or a list of mappings");
      continue;
    }
    table->Set(kv.first.as<std::string>(), std::move(v));
  }
}

void ReadWorkload(YamlReader* l, const YAML::Node& node, RawRuleFile* out) {
  if (!node.IsMap()) {
    l->Error(node.Mark(), "'workload' must be a mapping of names to values");
    return;
  }
  for (const auto& kv : node) {
    if (!kv.second.IsScalar()) {
      l->Error(kv.second.Mark(), "a workload entry must be a scalar");
      continue;
    }
    out->workload.push_back({kv.first.as<std::string>(),
                             kv.second.as<std::string>(),
                             {kv.first.Mark().line + 1, kv.first.Mark().column + 1}});
  }
}

}  // namespace

bool ReadRuleFile(const std::string& display_path, const std::string& text, RawRuleFile* out,
                  std::vector<Diagnostic>* errors) {
  std::size_t errors_before = errors->size();
  out->path = display_path;
  out->text = text;
  YamlReader reader(out->path, out->text, errors);
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    reader.Error(e.mark, "malformed YAML: " + e.msg);
    return false;
  }
  if (!root.IsMap()) {
    reader.Error(root.Mark(), "a rule file must be a mapping with 'version' and 'rules'");
    return false;
  }
  // A repeated key (two `with:` in a rule) is an error, never last-wins (a
  // helper probe of 3cee5a3).
  std::size_t before_duplicates = errors->size();
  reader.NoDuplicateKeys(root);
  if (errors->size() != before_duplicates) return false;
  reader.CheckKeys(root, kTopKeys, "rule file");
  YAML::Node version = root["version"];
  if (!version || !version.IsScalar() || version.as<std::string>() != "1") {
    reader.Error(version ? version.Mark() : root.Mark(), "'version' must be 1");
  }
  if (YAML::Node v = root["values"]) {
    ReadValues(&reader, v, out->table.get());
    if (v.IsMap()) {
      for (const auto& kv : v)
        out->value_names.emplace_back(kv.first.as<std::string>(), kv.first.Mark());
    }
  }
  if (YAML::Node v = root["workload"]) ReadWorkload(&reader, v, out);
  if (YAML::Node v = root["search_spaces"])
    ReadSearchSpaces(&reader, v, &out->search_spaces, &out->search_space_locs);
  out->liveness.markers = VllmBackendMarkers();
  if (YAML::Node v = root["liveness"]) ReadLiveness(&reader, v, &out->liveness);
  for (const auto& kv : root) {
    if (kv.first.as<std::string>() == "exclude")
      reader.ScalarList(kv.first, kv.second, &out->exclude);
    if (kv.first.as<std::string>() == "measurements")
      reader.Scalar(kv.first, kv.second, &out->measurements);
  }
  // The model is built from the workload and search spaces: only from
  // sections that checked out.
  if (errors->size() != errors_before) return false;
  YAML::Node rules = root["rules"];
  if (!rules || !rules.IsSequence() || rules.size() == 0) {
    reader.Error(rules ? rules.Mark() : root.Mark(), "'rules' must be a non-empty list");
    return false;
  }
  if (YAML::Node v = root["preconditions"]) ReadNamedPreconditions(&reader, v, &out->preconditions);
  for (const YAML::Node& r : rules) out->rules.push_back(ReadRule(&reader, r));
  return true;
}

}  // namespace muh
