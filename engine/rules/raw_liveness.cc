#include "engine/rules/raw_liveness.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "engine/base/edit_distance.h"
#include "engine/liveness/liveness.h"

namespace muh {

namespace {

const std::vector<std::string> kLivenessKeys = {"entry",       "platform", "declared",
                                                "environment", "plugins",  "dynamic-imports"};
const std::vector<std::string> kDeclaredKeys = {"path", "callee", "reads-keys", "imports-nothing",
                                                "source"};
const std::vector<std::string> kDynamicImportKeys = {"at", "loads", "source"};

bool IsEnvName(const std::string& name) {
  return name.rfind("VLLM_", 0) == 0 && name.size() > 5 &&
         std::all_of(name.begin(), name.end(), [](char c) {
           return std::isupper(static_cast<unsigned char>(c)) ||
                  std::isdigit(static_cast<unsigned char>(c)) || c == '_';
         });
}

// A dotted module name: identifiers joined by single dots.
bool IsModuleName(const std::string& name) {
  if (name.empty() || name.front() == '.' || name.back() == '.') return false;
  if (name.find("..") != std::string::npos) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
  });
}

void ReadDeclared(YamlReader* l, const YAML::Node& declared, LivenessFacts* out) {
  if (!declared.IsSequence()) {
    l->Error(declared.Mark(), "'declared' must be a list of facts");
    return;
  }
  for (const YAML::Node& f : declared) {
    if (!f.IsMap()) {
      l->Error(f.Mark(), "a declared fact must be a mapping");
      continue;
    }
    l->CheckKeys(f, kDeclaredKeys, "declared fact");
    DeclaredFact fact;
    if (f["path"] && f["path"].IsScalar()) fact.path = f["path"].as<std::string>();
    if (f["callee"] && f["callee"].IsScalar()) fact.callee = f["callee"].as<std::string>();
    if (f["source"] && f["source"].IsScalar()) fact.source = f["source"].as<std::string>();
    if (fact.callee.empty()) l->Error(f.Mark(), "a declared fact needs 'callee'");
    if (fact.source.empty()) l->Error(f.Mark(), "a declared fact needs 'source': who says so");
    bool reads = static_cast<bool>(f["reads-keys"]);
    bool nothing = f["imports-nothing"] && f["imports-nothing"].IsScalar() &&
                   f["imports-nothing"].as<std::string>() == "true";
    if (reads == nothing) {
      l->Error(f.Mark(),
               "a declared fact needs exactly one of 'reads-keys' or 'imports-nothing: true'");
      continue;
    }
    if (nothing) {
      fact.kind = DeclaredFact::Kind::kImportsNothing;
    } else {
      fact.kind = DeclaredFact::Kind::kReadsKeys;
      YAML::Node keys = f["reads-keys"];
      if (!keys.IsSequence()) {
        l->Error(keys.Mark(), "'reads-keys' must be a list of dict keys");
        continue;
      }
      for (const YAML::Node& k : keys) {
        if (k.IsScalar()) fact.reads_keys.push_back(k.as<std::string>());
      }
    }
    out->declared.push_back(std::move(fact));
  }
}

// `environment:`: VLLM_* variables, each a string or null (unset).
void ReadEnvironment(YamlReader* l, const YAML::Node& env, LivenessFacts* out) {
  if (!env.IsMap()) {
    l->Error(env.Mark(), "'environment' must map VLLM_* variables to values (null: unset)");
    return;
  }
  for (const auto& kv : env) {
    std::string name = kv.first.IsScalar() ? kv.first.as<std::string>() : "";
    if (!IsEnvName(name)) {
      l->Error(kv.first.Mark(),
               fmt::format("'{}' is not a VLLM_* variable: 'environment' declares the "
                           "variables vLLM reads",
                           name));
      continue;
    }
    EnvValue v;
    v.source = "rule file";
    v.where =
        fmt::format("{}:{}:{}", l->path_, kv.first.Mark().line + 1, kv.first.Mark().column + 1);
    if (kv.second.IsNull()) {
      v.value.reset();
    } else if (kv.second.IsScalar()) {
      v.value = kv.second.as<std::string>();
    } else {
      l->Error(kv.second.Mark(), fmt::format("'{}' must be a string, or null for unset", name));
      continue;
    }
    out->environment[name] = std::move(v);
  }
}

void ReadPlugins(YamlReader* l, const YAML::Node& plugins, LivenessFacts* out) {
  if (!plugins.IsSequence()) {
    l->Error(plugins.Mark(),
             "'plugins' must be a list of the vllm.general_plugins entry points installed "
             "([]: none)");
    return;
  }
  out->plugins_source = "rule file";
  for (const YAML::Node& p : plugins) {
    if (!p.IsScalar() || p.as<std::string>().empty()) {
      l->Error(p.Mark(), "a plugin must be named by its entry point's name");
      continue;
    }
    out->plugins.push_back(p.as<std::string>());
  }
}

void ReadDynamicImports(YamlReader* l, const YAML::Node& list, LivenessFacts* out) {
  if (!list.IsSequence()) {
    l->Error(list.Mark(), "'dynamic-imports' must be a list of {at: FILE:FUNCTION, loads: [...]}");
    return;
  }
  for (const YAML::Node& d : list) {
    if (!d.IsMap()) {
      l->Error(d.Mark(), "a dynamic import must be a mapping with 'at' and 'loads'");
      continue;
    }
    l->CheckKeys(d, kDynamicImportKeys, "dynamic import");
    DeclaredDynamicImport decl;
    std::string at = d["at"] && d["at"].IsScalar() ? d["at"].as<std::string>() : "";
    // FILE:FUNCTION, or FILE alone for an import at the module's top level.
    std::size_t colon = at.rfind(':');
    if (at.empty() || colon == 0 || (colon != std::string::npos && colon + 1 == at.size())) {
      l->Error(d["at"] ? d["at"].Mark() : d.Mark(),
               "a dynamic import needs 'at: FILE:FUNCTION' (the outermost def or class that "
               "holds the import; FILE alone for one at the module's top level)");
      continue;
    }
    decl.path = at.substr(0, colon);
    if (colon != std::string::npos) decl.function = at.substr(colon + 1);
    YAML::Node loads = d["loads"];
    if (!loads || !loads.IsSequence() || loads.size() == 0) {
      l->Error(
          loads ? loads.Mark() : d.Mark(),
          "a dynamic import needs 'loads': the modules it may load (each with those under it)");
      continue;
    }
    bool ok = true;
    for (const YAML::Node& m : loads) {
      std::string name = m.IsScalar() ? m.as<std::string>() : "";
      if (!IsModuleName(name)) {
        l->Error(m.Mark(), fmt::format("'{}' is not a dotted module name", name));
        ok = false;
        continue;
      }
      decl.loads.push_back(name);
    }
    if (ok) out->dynamic_imports.push_back(std::move(decl));
  }
}

}  // namespace

void ReadLiveness(YamlReader* l, const YAML::Node& node, LivenessFacts* out) {
  out->markers = VllmBackendMarkers();
  if (!node.IsMap()) {
    l->Error(node.Mark(), "'liveness' must be a mapping");
    return;
  }
  l->CheckKeys(node, kLivenessKeys, "liveness");
  auto scalar = [&](const char* key, std::string* into) {
    if (YAML::Node v = node[key]) {
      if (!v.IsScalar()) {
        l->Error(v.Mark(), fmt::format("'{}' must be a scalar", key));
      } else {
        *into = v.as<std::string>();
      }
    }
  };
  scalar("entry", &out->entry_module);
  scalar("platform", &out->platform);
  const std::vector<std::string> platforms = {"cuda", "rocm", "xpu",    "cpu",
                                              "tpu",  "hpu",  "neuron", "openvino"};
  if (std::find(platforms.begin(), platforms.end(), out->platform) == platforms.end()) {
    l->Error(node["platform"].Mark(), fmt::format("unknown platform '{}'{}", out->platform,
                                                  DidYouMean(out->platform, platforms)));
  }
  if (YAML::Node v = node["declared"]) ReadDeclared(l, v, out);
  if (YAML::Node v = node["environment"]) ReadEnvironment(l, v, out);
  if (YAML::Node v = node["plugins"]) ReadPlugins(l, v, out);
  if (YAML::Node v = node["dynamic-imports"]) ReadDynamicImports(l, v, out);
}

}  // namespace muh
