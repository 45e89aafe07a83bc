// The kinds of site that own rule keys of their own (finder.h), in one
// table. A kind reads its keys of a rule in step 1 of loading
// (raw_rule_file.h): their shape only, every error located. In step 2
// (rule_checker.h) it checks what it read into the rule's Finder. A rule
// names at most one kind; one that names none finds its sites with its
// `query:` or `pattern:`.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/query/query_cache.h"
#include "engine/rules/finder.h"
#include "engine/rules/yaml_reader.h"

namespace muh {

// A kind's keys of one rule, as step 1 read them.
struct RawFinderKeys {
  virtual ~RawFinderKeys() = default;
  YAML::Mark key_mark;  // of the key that names the kind
};

struct FinderKind {
  std::string key;  // the rule key that names it (`value-of`)
  // The capture its sites rewrite: the rule replaces it with its `with:`,
  // and has no `replace`, `delete` or `append-to`. Empty: the rule's
  // action names it (`query:`).
  std::string target;
  // Without `expect:` a rule takes every site it finds, however many.
  bool any_number = false;
  // Step 1: reads `value`, the value of the rule key `key`.
  std::shared_ptr<const RawFinderKeys> (*read)(YamlReader* reader, const YAML::Node& key,
                                               const YAML::Node& value);
  // Step 2: the finder, or null with errors reported through `reader`;
  // `target` is the capture the rule's action names, for a kind without one.
  std::shared_ptr<const Finder> (*check)(const RawFinderKeys& raw, YamlReader* reader,
                                         QueryCache* queries, const std::string& target);
  // The query texts its check compiles, for QueryCache::CompileAll to
  // compile with every rule's up front; null when it names none.
  std::vector<std::string> (*texts)(const RawFinderKeys& raw) = nullptr;
};

// For the kinds' checks: whether `s`, the key `key` of the `kind:` mapping
// at `mapping`, is there and a Python name. False with an error located at
// the mapping (missing: "'KIND' needs 'KEY': WHAT") or at the value.
bool PythonNameKey(YamlReader* reader, const RawScalar& s, const std::string& kind,
                   const YAML::Mark& mapping, const char* key, const char* what);

// Every kind, in the order of its key in the rule keys' list.
const std::vector<FinderKind>& FinderKinds();

// The kind `key` names, or null.
const FinderKind* FinderKindOf(const std::string& key);

}  // namespace muh
