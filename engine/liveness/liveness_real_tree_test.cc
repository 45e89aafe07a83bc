// The liveness analysis on the real enginex-vllm tree (skipped when
// ../shared/targets/enginex-vllm is absent). Sites are found by searching
// the real files' bytes, never by their line numbers.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "engine/liveness/liveness.h"
#include "tests/fixture_testing.h"

namespace muh {

namespace {

namespace fs = std::filesystem;

std::vector<std::string> PyPaths(const fs::path& root) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (e.is_regular_file() && e.path().extension() == ".py") {
      out.push_back(fs::relative(e.path(), root).generic_string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The offset of `value` inside the first `context` after `after` in `path`.
std::size_t Site(const fs::path& root, const std::string& path, const std::string& after,
                 const std::string& context, const std::string& value) {
  std::string bytes = testing::Slurp(root / path);
  std::size_t from = after.empty() ? 0 : bytes.find(after);
  REQUIRE_MESSAGE(from != std::string::npos, path << ": no '" << after << "'");
  std::size_t at = bytes.find(context, from);
  REQUIRE_MESSAGE(at != std::string::npos, path << ": no '" << context << "'");
  std::size_t v = context.find(value);
  REQUIRE(v != std::string::npos);
  return at + v;
}

std::string Describe(const SiteLiveness& s) {
  std::string out = std::string(LivenessName(s.state)) + ": " + s.reason;
  for (const Evidence& e : s.evidence) {
    out += "\n    " + e.path + ":" + std::to_string(e.line) + ": " + e.what;
  }
  return out;
}

LivenessFacts ServingFacts() {
  LivenessFacts facts;
  facts.markers = VllmBackendMarkers();
  DeclaredFact middleware;
  middleware.kind = DeclaredFact::Kind::kImportsNothing;
  middleware.path = "vllm/entrypoints/openai/api_server.py";
  middleware.callee = "build_app";
  middleware.source = "the serving command (computility-run.yaml) passes no --middleware";
  facts.declared.push_back(middleware);
  DeclaredFact tool_parser = middleware;  // it runs a file named on the command line
  tool_parser.path = "vllm/entrypoints/openai/tool_parsers/abstract_tool_parser.py";
  tool_parser.callee = "ToolParserManager";
  tool_parser.source = "the serving command (computility-run.yaml) passes no --tool-parser-plugin";
  facts.declared.push_back(tool_parser);
  return facts;
}

}  // namespace

TEST_CASE("liveness on the real enginex-vllm tree") {
  std::optional<fs::path> real = testing::RealTreeOrSkip();
  if (!real) return;
  const fs::path& root = *real;
  std::vector<std::string> paths = PyPaths(root);
  // Read up front, as verify does: the time below is the analysis alone.
  std::map<std::string, std::string> files;
  for (const std::string& p : paths) files[p] = testing::Slurp(root / p);
  ReadFn read = [&files](const std::string& p) -> std::optional<std::string_view> {
    auto it = files.find(p);
    if (it == files.end()) return std::nullopt;
    return std::string_view(it->second);
  };
  auto t0 = std::chrono::steady_clock::now();
  LivenessAnalysis live = LivenessAnalysis::Run(paths, read, ServingFacts());
  auto t_run = std::chrono::steady_clock::now();
  struct Probe {
    const char* name;
    std::string path;
    std::size_t offset;
  };
  const std::string pa = "vllm/attention/ops/paged_attn.py";
  const std::string co = "vllm/_custom_ops.py";
  const std::string pp = "vllm/attention/ops/prefix_prefill.py";
  const std::string fm = "vllm/model_executor/layers/fused_moe/fused_moe.py";
  const std::string fa = "vllm/attention/ops/triton_flash_attention.py";
  std::vector<Probe> probes = {
      {"partition-size", pa, Site(root, pa, "", "_PARTITION_SIZE = 512", "512")},
      {"v1-max-context", pa, Site(root, pa, "use_v1 = (", "max_seq_len <= 8192", "8192")},
      {"v1-min-work", pa, Site(root, pa, "use_v1 = (", "num_seqs * num_heads > 512", "512")},
      {"use-v1-override", pa, Site(root, pa, "use_v1 = (", "use_v1 = True", "True")},
      {"smem-limit", co,
       Site(root, co, "def get_max_shared_memory_per_block_device_attribute", "return 32 * 1024",
            "32")},
      {"prefix-block", pp, Site(root, pp, "def context_attention_fwd", "else 64", "64")},
      {"prefix-num-warps", pp, Site(root, pp, "def context_attention_fwd", "NUM_WARPS = 8", "8")},
      {"moe-default-m", fm, Site(root, fm, "def get_default_config", "'BLOCK_SIZE_M': 64", "64")},
      {"moe-default-n", fm, Site(root, fm, "def get_default_config", "'BLOCK_SIZE_N': 64", "64")},
      {"moe-default-k", fm, Site(root, fm, "def get_default_config", "'BLOCK_SIZE_K': 32", "32")},
      {"moe-default-group", fm, Site(root, fm, "def get_default_config", "'GROUP_SIZE_M': 8", "8")},
      {"moe-small-m", fm, Site(root, fm, "def get_default_config", "'BLOCK_SIZE_M': 16", "16")},
      {"moe-small-n", fm, Site(root, fm, "def get_default_config", "'BLOCK_SIZE_N': 32", "32")},
      {"moe-small-k", fm, Site(root, fm, "def get_default_config", "'BLOCK_SIZE_K': 64", "64")},
      {"moe-tier-small", fm,
       Site(root, fm, "def get_default_config", "config['BLOCK_SIZE_M'] = 32", "32")},
      {"moe-tier-medium", fm,
       Site(root, fm, "def get_default_config", "config['BLOCK_SIZE_M'] = 64", "64")},
      {"moe-tier-large", fm,
       Site(root, fm, "def get_default_config", "config['BLOCK_SIZE_M'] = 256", "256")},
      {"flash-autotune", fa, Site(root, fa, "@triton.autotune(", "configs=[", "[")},
  };
  std::vector<SiteLiveness> verdicts;
  for (const Probe& p : probes) verdicts.push_back(live.At(p.path, p.offset));
  auto t1 = std::chrono::steady_clock::now();
  double ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
  double run_ms = std::chrono::duration<double, std::milli>(t_run - t0).count();
  MESSAGE("liveness on the real tree: " << ms << " ms (reachability " << run_ms << " ms), "
                                        << live.modules_reached() << " modules reached");
  for (std::size_t i = 0; i < probes.size(); ++i) {
    MESSAGE(std::string(probes[i].name) << " " << Describe(verdicts[i]));
  }
  auto verdict = [&](const std::string& name) -> const SiteLiveness& {
    std::size_t i = 0;
    while (i + 1 < probes.size() && probes[i].name != name) ++i;
    REQUIRE(probes[i].name == name);
    return verdicts[i];
  };
  auto cites = [](const SiteLiveness& s, const std::string& path, const std::string& what) {
    return std::any_of(s.evidence.begin(), s.evidence.end(), [&](const Evidence& e) {
      return e.path == path && e.what.find(what) != std::string::npos;
    });
  };
  for (const char* name : {"prefix-block", "prefix-num-warps"}) {
    const SiteLiveness& s = verdict(name);
    CHECK(s.state == Liveness::kDead);
    CHECK(s.reason.find("HAS_TRITON is False") != std::string::npos);
    CHECK(cites(s, "vllm/triton_utils/importing.py", "HAS_TRITON = False"));
    CHECK(cites(s, pa, "if HAS_TRITON:"));
  }
  CHECK(verdict("flash-autotune").state == Liveness::kDead);
  CHECK(cites(verdict("flash-autotune"), "vllm/attention/backends/rocm_flash_attn.py",
              "triton_flash_attention"));
  // It rests on the selector's variable at vLLM's default; with it naming
  // the ROCm backend, exactly the verdicts that said so flip.
  const std::string unset = "VLLM_ATTENTION_BACKEND unset (vLLM's default)";
  auto rests = [](const SiteLiveness& s, const std::string& a) {
    return std::find(s.assumptions.begin(), s.assumptions.end(), a) != s.assumptions.end();
  };
  CHECK(rests(verdict("flash-autotune"), unset));
  LivenessFacts rocm_flash = ServingFacts();
  rocm_flash.environment["VLLM_ATTENTION_BACKEND"] =
      EnvValue{true, "ROCM_FLASH", "rule file", false, ""};
  LivenessAnalysis other = LivenessAnalysis::Run(paths, read, rocm_flash);
  int flipped = 0;
  for (std::size_t i = 0; i < probes.size(); ++i) {
    SiteLiveness now = other.At(probes[i].path, probes[i].offset);
    bool flips = (now.state == Liveness::kDead) != (verdicts[i].state == Liveness::kDead);
    INFO(probes[i].name << " " << Describe(now));
    CHECK(flips == rests(verdicts[i], unset));
    flipped += flips;
  }
  CHECK(flipped == 1);
  // A plugin declared installed flips exactly the verdicts that assumed none.
  const std::string no_plugin = "no plugin is installed (vLLM's default)";
  LivenessFacts with_plugin = ServingFacts();
  with_plugin.plugins = {"some_plugin"};
  with_plugin.plugins_source = "rule file";
  LivenessAnalysis plugged = LivenessAnalysis::Run(paths, read, with_plugin);
  int unplugged = 0;
  for (std::size_t i = 0; i < probes.size(); ++i) {
    SiteLiveness now = plugged.At(probes[i].path, probes[i].offset);
    bool flips = (now.state == Liveness::kDead) != (verdicts[i].state == Liveness::kDead);
    INFO(probes[i].name << " " << Describe(now));
    CHECK(flips == rests(verdicts[i], no_plugin));
    unplugged += flips;
  }
  CHECK(unplugged == 8);
  // Without the declaration that the tool-parser loader runs no file, the
  // same verdicts are unknown: it may run any code (spec_from_file_location,
  // exec_module), and each names it.
  LivenessFacts undeclared = ServingFacts();
  undeclared.declared.pop_back();
  LivenessAnalysis open = LivenessAnalysis::Run(paths, read, undeclared);
  int opened = 0;
  for (std::size_t i = 0; i < probes.size(); ++i) {
    SiteLiveness now = open.At(probes[i].path, probes[i].offset);
    INFO(probes[i].name << " " << Describe(now));
    bool flips = now.state != verdicts[i].state;
    CHECK(flips == rests(verdicts[i], no_plugin));
    if (flips) CHECK(now.reason.find("abstract_tool_parser.py:156") != std::string::npos);
    opened += flips;
  }
  CHECK(opened == 8);
  // Served on ROCm: a verdict that changes rested on the platform.
  LivenessFacts on_rocm = ServingFacts();
  on_rocm.platform = "rocm";
  LivenessAnalysis rocm = LivenessAnalysis::Run(paths, read, on_rocm);
  int moved = 0;
  for (std::size_t i = 0; i < probes.size(); ++i) {
    SiteLiveness now = rocm.At(probes[i].path, probes[i].offset);
    bool flips = (now.state == Liveness::kDead) != (verdicts[i].state == Liveness::kDead);
    INFO(probes[i].name << " " << Describe(now));
    CHECK((!flips || rests(verdicts[i], "platform cuda, compute capability 7.0")));
    moved += flips;
  }
  CHECK(moved >= 1);  // the autotune site at least
  for (const char* name : {"moe-default-m", "moe-small-m"}) {
    CHECK(verdict(name).state == Liveness::kDead);
    CHECK(verdict(name).reason.find("overwritten") != std::string::npos);
  }
  for (const char* name :
       {"moe-default-n", "moe-default-k", "moe-default-group", "moe-small-n", "moe-small-k"}) {
    CHECK(verdict(name).state == Liveness::kDead);
    CHECK(verdict(name).reason.find("no reached code reads key") != std::string::npos);
  }
  for (const char* name : {"moe-tier-small", "moe-tier-medium", "moe-tier-large"}) {
    CHECK(verdict(name).state == Liveness::kLive);
  }
  // Nothing calls it by name, but its module takes globals() and rewraps
  // every function it defines (hint_on_error): no proof, so unknown.
  CHECK(verdict("smem-limit").state == Liveness::kUnknown);
  CHECK(cites(verdict("smem-limit"), "vllm/_custom_ops.py", "names_and_values = globals()"));
  for (const char* name : {"partition-size", "use-v1-override"}) {
    CHECK(verdict(name).state != Liveness::kDead);
  }
  // The heuristic's terms are overwritten by `use_v1 = True` on the next
  // line (the override that paged-attn-use-v1-override deletes).
  for (const char* name : {"v1-max-context", "v1-min-work"}) {
    CHECK(verdict(name).state == Liveness::kDead);
    CHECK(cites(verdict(name), pa, "use_v1 = True"));
  }
}

}  // namespace muh
