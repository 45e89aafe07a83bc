// Step 1 of loading a rule file, as ast-grep does it: YAML is read into a
// plain mirror of the file, every field with its location, and only shape
// errors (wrong types, unknown keys) are reported here. Step 2
// (rule_checker.h) turns the mirror into checked rules. In between, the
// caller builds the model from the mirror's workload and search spaces.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/base/diagnostic.h"
#include "engine/model/value_source.h"
#include "engine/model/workload.h"
#include "engine/rules/finder_kind.h"
#include "engine/rules/raw_preconditions.h"
#include "engine/rules/rule.h"
#include "engine/rules/yaml_reader.h"

namespace muh {

struct RawRule {
  YAML::Mark mark;
  std::vector<std::string> misspelled;  // keys that unknown keys probably meant
  RawScalar id, description, replace, with, del, append_to, entries, expect, done_when, upstream,
      retune;
  // `pin:`, a mapping: its own mark, and its `value`, `reason` and
  // `unchecked` (why a value outside the knob's domain is written anyway).
  RawScalar pin, pin_value, pin_reason, pin_unchecked;
  // `pin:` as a list, one entry per tier by position: each a mapping
  // (`mark` its node's), or null (`value` absent: the model decides).
  struct RawTierPin {
    YAML::Mark mark;
    bool none = false;
    RawScalar value, reason, unchecked;
  };
  bool pin_list = false;
  std::vector<RawTierPin> tier_pins;
  RawScalar retired, retired_reason, retired_replaced_by;
  std::vector<RawScalar> files;
  std::vector<RawScalar> also_matches;
  RawScalar files_key;
  std::vector<RawPrecondition> preconditions;  // inline entries and names, as written
  // The keys of each kind of site the rule has keys of (finder_kind.h), by
  // the key that names the kind.
  std::map<std::string, std::shared_ptr<RawFinderKeys>> finder_keys;
};

// One `workload:` entry as written, for the model to check and apply.
struct WorkloadSetting {
  std::string name;
  std::string value;
  RuleLoc loc;
};

// The whole file, read. Owns its path and text, which later messages
// (query errors inside block scalars) are located against.
struct RawRuleFile {
  std::string path;
  std::string text;
  std::shared_ptr<TableValues> table = std::make_shared<TableValues>();
  std::vector<std::pair<std::string, YAML::Mark>> value_names;  // `values:` keys
  std::vector<WorkloadSetting> workload;
  std::vector<SearchSpace> search_spaces;
  std::vector<RuleLoc> search_space_locs;         // parallel to search_spaces
  std::vector<NamedPreconditions> preconditions;  // the top-level `preconditions:` map
  std::vector<RawRule> rules;
  LivenessFacts liveness;          // `liveness:`, or the defaults
  std::vector<RawScalar> exclude;  // `exclude:` globs
  RawScalar measurements;          // `measurements:` a muhpatch-probe/1 file
};

// Reads `text`, the rule file `display_path`. False, with every shape error
// in `errors`, when the file cannot be checked further. Pure.
bool ReadRuleFile(const std::string& display_path, const std::string& text, RawRuleFile* out,
                  std::vector<Diagnostic>* errors);

}  // namespace muh
