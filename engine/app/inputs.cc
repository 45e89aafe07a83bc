#include "engine/app/inputs.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>

#include "engine/base/edit_distance.h"
#include "engine/io/tree_io.h"
#include "engine/model/hf_config.h"
#include "engine/model/profile_yaml.h"
#include "engine/model/serve_args.h"
#include "engine/rules/rule_loader.h"

namespace muh {

namespace {

bool BuildProfile(const InputOptions& opts, Profile* out, std::vector<Diagnostic>* errors) {
  *out = Profile::BiV100();
  if (!opts.hw_path.empty()) {
    std::string text, err;
    if (!ReadWholeFile(opts.hw_path, &text, &err)) {
      errors->push_back(MakeError(opts.hw_path, 0, 0, err));
      return false;
    }
    if (!ApplyProfileYaml(opts.hw_path, text, out, errors)) return false;
  }
  for (const std::string& set : opts.sets) {
    std::string err;
    if (!out->ApplySet(set, &err)) {
      errors->push_back(MakeError("--set", 0, 0, err));
      return false;
    }
  }
  return true;
}

// Applies a deployment file (--hf-config, --serve-args) to `workload`.
bool ApplyDeployment(const std::string& path,
                     bool (*parse)(std::string_view, Workload*, std::vector<std::string>*),
                     Workload* workload, std::vector<Diagnostic>* errors) {
  if (path.empty()) return true;
  std::string text, err;
  if (!ReadWholeFile(path, &text, &err)) {
    errors->push_back(MakeError(path, 0, 0, err));
    return false;
  }
  std::vector<std::string> problems;
  if (parse(text, workload, &problems)) return true;
  for (const std::string& p : problems) errors->push_back(MakeError(path, 0, 0, p));
  return false;
}

std::shared_ptr<const ModelValues> BuildModel(const InputOptions& opts, const Profile& profile,
                                              const RawRuleFile& raw,
                                              std::vector<Diagnostic>* errors) {
  Workload workload = Workload::Defaults();
  std::size_t errors_before = errors->size();
  for (const WorkloadSetting& w : raw.workload) {
    std::string err;
    if (!workload.Set(w.name, w.value, &err)) {
      errors->push_back(MakeError(raw.path, w.loc.line, w.loc.column, err));
    }
  }
  if (errors->size() != errors_before) return nullptr;
  if (!ApplyDeployment(opts.hf_config_path, WorkloadFromHfConfig, &workload, errors) ||
      !ApplyDeployment(opts.serve_args_path, WorkloadFromServeArgs, &workload, errors)) {
    return nullptr;
  }
  return std::make_shared<ModelValues>(profile, workload, raw.search_spaces);
}

// Keeps only the rules named in `ids` (all when empty); an unknown id is an error.
bool SelectRules(const std::vector<std::string>& ids, RuleSet* rules,
                 std::vector<Diagnostic>* errors) {
  if (ids.empty()) return true;
  std::vector<std::string> known;
  for (const Rule& r : rules->rules) known.push_back(r.id);
  bool ok = true;
  for (const std::string& id : ids) {
    if (std::find(known.begin(), known.end(), id) == known.end()) {
      errors->push_back(
          MakeError(rules->path, 0, 0,
                    fmt::format("--rule '{}': no such rule{}", id, DidYouMean(id, known))));
      ok = false;
    }
  }
  rules->rules.erase(std::remove_if(rules->rules.begin(), rules->rules.end(),
                                    [&](const Rule& r) {
                                      return std::find(ids.begin(), ids.end(), r.id) == ids.end();
                                    }),
                     rules->rules.end());
  return ok;
}

}  // namespace

bool LoadInputsFromText(const InputOptions& opts, const std::string& rules_text, Inputs* out,
                        std::vector<Diagnostic>* errors) {
  Profile profile;
  if (!BuildProfile(opts, &profile, errors)) return false;
  RawRuleFile raw;
  if (!opts.rules_path.empty() && !ReadRules(opts.rules_path, rules_text, &raw, errors)) {
    return false;
  }
  out->model = BuildModel(opts, profile, raw, errors);
  if (!out->model) return false;
  if (opts.rules_path.empty()) return true;
  if (!CheckRules(raw, out->model, &out->rules, errors)) return false;
  return SelectRules(opts.only_rules, &out->rules, errors);
}

bool LoadInputs(const InputOptions& opts, Inputs* out, std::vector<Diagnostic>* errors) {
  std::string text;
  if (!opts.rules_path.empty()) {
    std::string err;
    if (!ReadWholeFile(opts.rules_path, &text, &err)) {
      // The profile's errors come first, as they would after a good read.
      Profile ignored;
      if (BuildProfile(opts, &ignored, errors))
        errors->push_back(MakeError(opts.rules_path, 0, 0, err));
      return false;
    }
  }
  return LoadInputsFromText(opts, text, out, errors);
}

}  // namespace muh
