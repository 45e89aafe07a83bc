// The one load path every command takes: the hardware profile (built-in,
// then --hw, then each --set), then the rule file's first step (YAML read
// into a mirror), then the model over the profile and the file's workload
// and search spaces, then the rules checked against the model's values,
// then --rule's selection. Nothing here touches the tree.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/base/diagnostic.h"
#include "engine/model/model_values.h"
#include "engine/query/query_cache.h"
#include "engine/rules/rule.h"

namespace muh {

struct InputOptions {
  std::string rules_path;         // empty: the model alone (`muhpatch model`)
  std::string hw_path;            // --hw PROFILE.yaml
  std::vector<std::string> sets;  // --set FACT=VALUE, in order
  // The deployment the model sizes for, over the rule file's `workload:`:
  // the served model's Hugging Face config.json (--hf-config), then the
  // serving command line (--serve-args FILE: `vllm serve` arguments).
  std::string hf_config_path;
  std::string serve_args_path;
  // When non-empty, only these rules run (`--rule ID`, repeatable).
  std::vector<std::string> only_rules;
  // --retune: every rule overwrites hand-tuned values (as `retune: true`).
  bool retune = false;
  // --measurements FILE (muhpatch-probe/1), over the rule file's
  // `measurements:` (a path relative to the rule file).
  std::string measurements_path;
  // The facts the tree states (tree_facts.h): over the built-in profile,
  // under --hw and --set. Set by OpenRun once the tree is read.
  std::vector<TreeFact> tree_facts;
  // Whether loading says which measurements it does not use
  // (SayUnusedMeasurements); OpenRun says it once the tree's facts are in.
  bool say_unused_measurements = true;
};

struct Inputs {
  std::shared_ptr<const ModelValues> model;
  RuleSet rules;  // empty when no rule file was named
  // The rule file's compiled queries: a second load of the same file (with
  // the tree's facts) given this cache compiles nothing again.
  std::shared_ptr<QueryCache> queries;
};

// Says on stderr which measurement rows the model does not use: those for
// another workload, and those outside their knob's domain.
void SayUnusedMeasurements(const ModelValues& model);

// Loads everything `opts` names. False, with every error in `errors`, when
// the run cannot go on.
bool LoadInputs(const InputOptions& opts, Inputs* out, std::vector<Diagnostic>* errors);

// As LoadInputs, with the rule file's content given (the fuzzers' way in).
bool LoadInputsFromText(const InputOptions& opts, const std::string& rules_text, Inputs* out,
                        std::vector<Diagnostic>* errors);

}  // namespace muh
