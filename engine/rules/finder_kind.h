// The kinds of site that own rule keys of their own (finder.h), in one
// table. A kind reads its keys of a rule in step 1 of loading
// (raw_rule_file.h): their shape only, every error located. In step 2
// (rule_checker.h) it checks what it read into the rule's Finder. A rule
// names one kind; `tiers:` (tier_rule.h) goes with `pattern:` and makes its
// finder a tier family's (finder_tiers.h).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/query/query_cache.h"
#include "engine/rules/finder.h"
#include "engine/rules/tier_rule.h"
#include "engine/rules/yaml_reader.h"

namespace muh {

// A kind's keys of one rule, as step 1 read them.
struct RawFinderKeys {
  virtual ~RawFinderKeys() = default;
  YAML::Mark key_mark;  // of the key that names the kind
  bool named = false;   // that key is there
  // The keys that go with it (`inside`, `where`) that are there, with the
  // marks of the keys.
  std::vector<std::pair<std::string, YAML::Mark>> also;
};

// What a kind's check is given besides its keys, and gives back besides
// the finder.
struct FinderCheck {
  YamlReader* reader = nullptr;  // null: no errors are said (QueryTexts)
  QueryCache* queries = nullptr;
  // The capture the rule's action names, for a kind without one of its own.
  std::string target;
  // The values names resolve against (a tier bound's template).
  const ValueSource* values = nullptr;
  // The rule replaces its target (`replace:`), and states `upstream:`.
  bool replaces = false;
  bool upstream = false;
  // Given back: the variable the knob is assigned to and the code it sits
  // in, when the keys say so (code_pattern.h), and a tier family's block.
  std::string knob;
  std::string knob_shape;
  std::shared_ptr<const TierSpec> tiers;
};

struct FinderKind {
  std::string key;  // the rule key that names it (`value-of`)
  // Keys that go with `key` only, read into the same raw keys (`inside`).
  std::vector<std::string> also;
  // The capture its sites rewrite: the rule replaces it with its `with:`,
  // and has no `replace`, `delete` or `append-to`. Empty: the rule's
  // action names it (`query:`).
  std::string target;
  // Without `expect:` a rule takes every site it finds, however many.
  bool any_number = false;
  // Step 1: reads `value`, the value of its key `key`, into `into` (null
  // for the first of its keys the rule has); returns what it read into.
  std::shared_ptr<RawFinderKeys> (*read)(YamlReader* reader, const YAML::Node& key,
                                         const YAML::Node& value,
                                         std::shared_ptr<RawFinderKeys> into);
  // Step 2: the finder, or null with errors reported through the check's
  // reader.
  std::shared_ptr<const Finder> (*check)(const RawFinderKeys& raw, FinderCheck* check);
  // The query texts its check compiles, for QueryCache::CompileAll to
  // compile with every rule's up front; null when it names none.
  std::vector<std::string> (*texts)(const RawFinderKeys& raw, const FinderCheck& check) = nullptr;
};

// For the kinds' checks: whether `s`, the key `key` of the `kind:` mapping
// at `mapping`, is there and a Python name. False with an error located at
// the mapping (missing: "'KIND' needs 'KEY': WHAT") or at the value.
bool PythonNameKey(YamlReader* reader, const RawScalar& s, const std::string& kind,
                   const YAML::Mark& mapping, const char* key, const char* what);

// Every kind, in the order of its key in the rule keys' list.
const std::vector<FinderKind>& FinderKinds();

// The kind that owns the rule key `key` (names it, or has it go with its
// own), or null.
const FinderKind* FinderKindOf(const std::string& key);

// The `tiers:` block a rule's pattern goes with, as step 1 read it; null
// when it has none (finder_pattern.cc).
struct RawRule;
const RawTiers* RawTiersOf(const RawRule& r);

}  // namespace muh
