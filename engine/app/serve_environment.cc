#include "engine/app/serve_environment.h"

#include <fmt/format.h>

#include "engine/liveness/assumptions.h"
#include "engine/model/serve_args.h"

namespace muh {

namespace {

// 1-based line and column of byte `offset` of `text`.
std::pair<int, int> LineColumn(std::string_view text, std::size_t offset) {
  int line = 1, column = 1;
  for (std::size_t k = 0; k < offset && k < text.size(); ++k) {
    column = text[k] == '\n' ? 1 : column + 1;
    line += text[k] == '\n';
  }
  return {line, column};
}

}  // namespace

bool EnvironmentFromServeArgs(const std::string& file, std::string_view text, LivenessFacts* facts,
                              std::vector<Diagnostic>* errors) {
  std::vector<EnvAssignment> assigned;
  std::string err;
  if (!LeadingEnvAssignments(text, &assigned, &err)) {
    errors->push_back(Diagnostic{file, 0, 0, Severity::kError, err});
    return false;
  }
  std::map<std::string, EnvValue> out = facts->environment;
  bool ok = true;
  for (const EnvAssignment& a : assigned) {
    if (a.name.rfind("VLLM_", 0) != 0) continue;
    auto [line, column] = LineColumn(text, a.offset);
    EnvValue v;
    v.value = a.value;
    v.source = "serve args";
    v.where = fmt::format("{}:{}:{}", file, line, column);
    auto it = out.find(a.name);
    if (it != out.end() && !it->second.is_default && it->second.value != v.value) {
      errors->push_back(Diagnostic{
          file, line, column, Severity::kError,
          fmt::format("the serving command sets {}={}, but the rule file declares {} at {}: "
                      "make them agree",
                      a.name, a.value, EnvText(a.name, it->second), it->second.where)});
      ok = false;
      continue;
    }
    if (it != out.end() && !it->second.is_default) continue;  // the same, declared twice
    out[a.name] = std::move(v);
  }
  if (!ok) return false;
  facts->environment = std::move(out);
  return true;
}

}  // namespace muh
