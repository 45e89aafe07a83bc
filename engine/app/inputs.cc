#include "engine/app/inputs.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "engine/app/serve_environment.h"
#include "engine/base/edit_distance.h"
#include "engine/base/logging.h"
#include "engine/io/tree_io.h"
#include "engine/model/hf_config.h"
#include "engine/model/measurements.h"
#include "engine/model/profile_yaml.h"
#include "engine/model/serve_args.h"
#include "engine/rules/rule_loader.h"

namespace muh {

namespace {

bool BuildProfile(const InputOptions& opts, Profile* out, std::vector<Diagnostic>* errors) {
  *out = Profile::BiV100();
  for (const TreeFact& t : opts.tree_facts) {
    // A value no card has is not the model's fact: the derivations keep
    // the default, and the rule whose site holds it fails at that site
    // (the kept-value gate names the domain).
    std::string err;
    if (!out->SetFromTree(t, &err)) logging::Debug("{}: not a fact: {}", t.where, err);
  }
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

using DeploymentParser = std::function<bool(std::string_view, Workload*, std::vector<std::string>*,
                                            std::vector<Diagnostic>*)>;

// Applies a deployment file (--hf-config, --serve-args) to `workload`; its
// warnings go on stderr.
bool ApplyDeployment(const std::string& path, const DeploymentParser& parse, Workload* workload,
                     std::vector<Diagnostic>* errors) {
  if (path.empty()) return true;
  std::string text, err;
  if (!ReadWholeFile(path, &text, &err)) {
    errors->push_back(MakeError(path, 0, 0, err));
    return false;
  }
  std::vector<std::string> problems;
  std::vector<Diagnostic> warnings;
  bool ok = parse(text, workload, &problems, &warnings);
  for (Diagnostic& d : warnings) {
    d.file = path;
    logging::Diag(d.Format());
  }
  if (ok) return true;
  for (const std::string& p : problems) errors->push_back(MakeError(path, 0, 0, p));
  return false;
}

bool HfConfig(std::string_view text, Workload* w, std::vector<std::string>* errors,
              std::vector<Diagnostic>*) {
  return WorkloadFromHfConfig(text, w, errors);
}

// The serving command line; vLLM's refusals as warnings, at their word.
bool ServeArgs(std::string_view text, Workload* w, std::vector<std::string>* errors,
               std::vector<Diagnostic>* warnings) {
  std::vector<ServeArgWarning> found;
  bool ok = WorkloadFromServeArgs(text, w, errors, &found);
  for (const ServeArgWarning& f : found) {
    int line = 1, column = 1;
    for (std::size_t k = 0; k < f.offset && k < text.size(); ++k) {
      column = text[k] == '\n' ? 1 : column + 1;
      line += text[k] == '\n';
    }
    warnings->push_back(Diagnostic{"", line, column, Severity::kWarning, f.message});
  }
  return ok;
}

// The measurement file --measurements or `measurements:` names (that one
// relative to the rule file), read and parsed; null when none is named.
bool LoadMeasurements(const InputOptions& opts, const RawRuleFile& raw,
                      std::shared_ptr<const MeasuredKnobs>* out, std::vector<Diagnostic>* errors) {
  std::string path = opts.measurements_path;
  if (path.empty() && raw.measurements.present) {
    path = raw.measurements.value;
    std::size_t slash = raw.path.rfind('/');
    if (!path.empty() && path[0] != '/' && slash != std::string::npos) {
      path = raw.path.substr(0, slash + 1) + path;
    }
  }
  if (path.empty()) return true;
  std::string text, err;
  if (!ReadWholeFile(path, &text, &err)) {
    errors->push_back(MakeError(path, 0, 0, err));
    return false;
  }
  auto measured = std::make_shared<MeasuredKnobs>();
  measured->path = path;
  MeasurementsError bad;
  if (!ParseMeasurements(text, &measured->data, &bad)) {
    errors->push_back(MakeError(
        path, bad.line, bad.column,
        bad.line == 0 ? "not a muhpatch-probe/1 measurement file: " + bad.message : bad.message));
    return false;
  }
  bool ok = true;
  for (KnobMeasurement& k : measured->data.knobs) {
    std::string why = ModelValues::MalformedRow(&k);
    if (why.empty()) continue;
    errors->push_back(
        MakeError(path, k.line, k.column, fmt::format("knobs row {}: {}", k.row, why)));
    ok = false;
  }
  if (!ok) return false;
  *out = std::move(measured);
  return true;
}

// Every knob the measurements name must be one the model derives.
bool CheckMeasuredKnobs(const ModelValues& model, std::vector<Diagnostic>* errors) {
  const MeasuredKnobs* measured = model.measured();
  if (measured == nullptr) return true;
  bool ok = true;
  std::vector<std::string> names = model.Names();
  for (const KnobMeasurement& k : measured->data.knobs) {
    for (const auto& [entry, value] : k.point) {
      if (ModelValues::TierVariable(k.knob, entry)) continue;
      Workload w = Workload::Defaults();
      std::string err;
      if (!w.Set(entry, value, &err)) {
        errors->push_back(MakeError(measured->path, k.line, k.column,
                                    fmt::format("knobs row {}: point: {}", k.row, err)));
        ok = false;
      }
    }
    if (model.Measurable(k.knob)) continue;
    errors->push_back(
        MakeError(measured->path, k.line, k.column,
                  fmt::format("knobs row {}: '{}' is not a scalar quantity the model derives{}",
                              k.row, k.knob, DidYouMean(k.knob, names))));
    ok = false;
  }
  return ok;
}

}  // namespace

void SayUnusedMeasurements(const ModelValues& model) {
  std::vector<Diagnostic> said = model.UnusedMeasurements();
  for (const Diagnostic& d : model.RefusedMeasurements()) said.push_back(d);
  for (const Diagnostic& d : said) {
    logging::Diag(d.Format());
  }
}

namespace {

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
  if (!ApplyDeployment(opts.hf_config_path, HfConfig, &workload, errors) ||
      !ApplyDeployment(opts.serve_args_path, ServeArgs, &workload, errors)) {
    return nullptr;
  }
  std::shared_ptr<const MeasuredKnobs> measured;
  if (!LoadMeasurements(opts, raw, &measured, errors)) return nullptr;
  auto model = std::make_shared<ModelValues>(profile, workload, raw.search_spaces, measured);
  for (const RawRule& r : raw.rules) {
    const RawTiers* tiers = RawTiersOf(r);
    if (!tiers) continue;
    if (std::optional<TierChainShape> chain = DeclaredTierChain(*tiers)) {
      model->DeclareTierChain(*chain);
    }
  }
  if (!CheckMeasuredKnobs(*model, errors)) return nullptr;
  // Rows for another workload are not used, and that is said.
  if (opts.say_unused_measurements) SayUnusedMeasurements(*model);
  return model;
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
  if (!out->queries) out->queries = std::make_shared<QueryCache>();
  if (!CheckRules(raw, out->model, &out->rules, errors, out->queries.get())) return false;
  if (!opts.serve_args_path.empty()) {
    // Its environment assignments are the deployment's (the workload was
    // read from it above).
    std::string text, err;
    if (!ReadWholeFile(opts.serve_args_path, &text, &err)) {
      errors->push_back(MakeError(opts.serve_args_path, 0, 0, err));
      return false;
    }
    if (!EnvironmentFromServeArgs(opts.serve_args_path, text, &out->rules.liveness, errors)) {
      return false;
    }
  }
  if (opts.retune) {
    for (Rule& r : out->rules.rules) r.retune = true;
  }
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
