#include "engine/liveness/assumptions.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "engine/python/value_use.h"

namespace muh {

namespace {

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Skips blanks (and backslash-newlines) from `i`.
std::size_t Skip(std::string_view s, std::size_t i) {
  while (i < s.size() && (IsBlank(s[i]) || s[i] == '\\')) ++i;
  return i;
}

// The quoted literal at `i` (no escapes, no prefix); `end` past it.
std::optional<std::string> Quoted(std::string_view s, std::size_t i, std::size_t* end) {
  if (i >= s.size() || (s[i] != '"' && s[i] != '\'')) return std::nullopt;
  std::size_t close = s.find(s[i], i + 1);
  if (close == std::string_view::npos) return std::nullopt;
  std::string_view body = s.substr(i + 1, close - i - 1);
  if (body.find('\\') != std::string_view::npos || body.find('\n') != std::string_view::npos) {
    return std::nullopt;
  }
  *end = close + 1;
  return std::string(body);
}

bool StartsAt(std::string_view s, std::size_t i, std::string_view word) {
  return s.substr(i, word.size()) == word;
}

// Whether the lambda's body ends at `i` (past the getenv call's `)`): the
// next code is the dict's `,` or `}`, after blanks and comments. Anything
// else goes on with the call's value (`os.getenv(N) or "ROCM_FLASH"`,
// `... if os.getenv(N) else ...`: a helper probe of f751cf4 read those as
// unset).
bool LambdaEndsAt(std::string_view s, std::size_t i) {
  for (i = Skip(s, i); i < s.size() && s[i] == '#'; i = Skip(s, i)) {
    while (i < s.size() && s[i] != '\n') ++i;
  }
  return i < s.size() && (s[i] == ',' || s[i] == '}');
}

}  // namespace

bool IsVllmBackendName(std::string_view name) {
  static const char* const kNames[] = {"FLASH_ATTN", "XFORMERS",    "ROCM_FLASH", "TORCH_SDPA",
                                       "OPENVINO",   "FLASHINFER",  "HPU_ATTN",   "PALLAS",
                                       "IPEX",       "NO_ATTENTION"};
  return std::any_of(std::begin(kNames), std::end(kNames),
                     [name](const char* n) { return name == n; });
}

bool MarkerDecides(const PlatformMarker& m, const LivenessFacts& facts) {
  if (m.env.empty()) return true;
  auto it = facts.environment.find(m.env);
  if (it == facts.environment.end()) return true;  // vLLM 0.6's default: unset
  if (!it->second.known) return false;
  const std::optional<std::string>& v = it->second.value;
  if (!v) return true;
  return *v != m.env_value && IsVllmBackendName(*v);
}

std::string EnvText(const std::string& name, const EnvValue& v) {
  if (!v.known) return fmt::format("{} not known ({})", name, v.source);
  std::string source = v.source.empty() ? "" : " (" + v.source + ")";
  if (!v.value) return name + " unset" + source;
  return fmt::format("{}={}{}", name, *v.value, source);
}

std::string EnvText(const LivenessFacts& facts, const std::string& name) {
  auto it = facts.environment.find(name);
  if (it != facts.environment.end()) return EnvText(name, it->second);
  EnvValue unset;
  unset.source = "vLLM's default";
  unset.is_default = true;
  return EnvText(name, unset);
}

EnvValue EnvDefault(std::string_view s, const std::string& name, int* line) {
  EnvValue out;
  out.known = false;
  out.source = "vLLM's default, not read from vllm/envs.py";
  for (char q : {'"', '\''}) {
    std::string key = q + name + q;
    for (std::size_t at = s.find(key); at != std::string_view::npos;
         at = s.find(key, at + key.size())) {
      std::size_t i = Skip(s, at + key.size());
      if (i >= s.size() || s[i] != ':') continue;
      i = Skip(s, i + 1);
      if (!StartsAt(s, i, "lambda")) continue;
      i = Skip(s, i + 6);
      if (i >= s.size() || s[i] != ':') continue;
      i = Skip(s, i + 1);
      std::size_t call = 0;
      for (std::string_view fn : {"os.getenv(", "os.environ.get("}) {
        if (StartsAt(s, i, fn)) call = fn.size();
      }
      if (call == 0) return out;
      i = Skip(s, i + call);
      std::size_t end = 0;
      std::optional<std::string> named = Quoted(s, i, &end);
      if (!named || *named != name) return out;
      i = Skip(s, end);
      if (line != nullptr)
        *line = 1 + static_cast<int>(std::count(s.begin(), s.begin() + at, '\n'));
      EnvValue found;
      found.source = "vLLM's default";
      found.is_default = true;
      if (i < s.size() && s[i] == ')') return LambdaEndsAt(s, i + 1) ? found : out;
      if (i >= s.size() || s[i] != ',') return out;
      i = Skip(s, i + 1);
      if (StartsAt(s, i, "None")) {
        std::size_t close = Skip(s, i + 4);
        if (close < s.size() && s[close] == ')' && LambdaEndsAt(s, close + 1)) return found;
        return out;
      }
      std::optional<std::string> value = Quoted(s, i, &end);
      std::size_t close = value ? Skip(s, end) : s.size();
      if (close >= s.size() || s[close] != ')' || !LambdaEndsAt(s, close + 1)) return out;
      found.value = *value;
      return found;
    }
  }
  return out;
}

LivenessFacts WithEnv(const LivenessFacts& facts, const std::string& name, const EnvValue& value) {
  LivenessFacts out = facts;
  out.environment[name] = value;
  return out;
}

EnvValue AnyEnvValue() {
  EnvValue any;
  any.known = false;
  any.source = "any value";
  return any;
}

std::string AssumptionText(const LivenessFacts& facts, const std::string& key) {
  if (key == kPlatformAssumption) {
    int cc = static_cast<int>(std::lround(facts.compute_capability * 10));
    return fmt::format("platform {}, compute capability {}.{}", facts.platform, cc / 10, cc % 10);
  }
  return EnvText(facts, key);
}

LivenessFacts WithAny(const LivenessFacts& facts, const std::string& key) {
  LivenessFacts out = facts;
  if (key == kPlatformAssumption) {
    out.platform.clear();
    out.compute_capability = 0;
  } else {
    out.environment[key] = AnyEnvValue();
  }
  return out;
}

std::string PluginsText(const LivenessFacts& facts) {
  if (facts.plugins.empty()) {
    return facts.plugins_source.empty() ? "no plugin is installed (vLLM's default)"
                                        : "no plugin is installed (" + facts.plugins_source + ")";
  }
  return fmt::format("plugins installed: {} ({})", fmt::join(facts.plugins, ", "),
                     facts.plugins_source.empty() ? "rule file" : facts.plugins_source);
}

std::vector<Assumption> AssumptionsInForce(const LivenessFacts& facts) {
  std::vector<Assumption> out;
  out.push_back({AssumptionText(facts, kPlatformAssumption), false});
  for (const auto& [name, value] : facts.environment) {
    out.push_back({EnvText(name, value), value.is_default});
  }
  out.push_back({PluginsText(facts), facts.plugins.empty() && facts.plugins_source.empty()});
  // Loads no rule can declare otherwise (muhpatch-rules(5), dynamic-imports).
  out.push_back(
      {"unpickled data and logging's dictConfig import only modules the process has "
       "imported or its configuration names (vLLM's default)",
       true});
  // What the check that a written value reaches its kernel (value_use.h,
  // key_reads.h) takes on trust, not proof.
  out.push_back({std::string(kPassedAssumption) + "; " + std::string(kCarriedAssumption), true});
  return out;
}

}  // namespace muh
