// One fixture tree per reason (fixtures/liveness/<case>/), written for
// these tests; sites are found by searching the files' text.
#include "engine/liveness/liveness.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "tests/fixture_testing.h"

namespace muh {

namespace {

namespace fs = std::filesystem;

class Fixture {
 public:
  explicit Fixture(const std::string& name, LivenessFacts facts = LivenessFacts{}) {
    fs::path root = fs::path(MUHPATCH_SOURCE_DIR) / "fixtures/liveness" / name;
    for (const auto& e : fs::recursive_directory_iterator(root)) {
      if (e.is_regular_file() && e.path().extension() == ".py") {
        files_[fs::relative(e.path(), root).generic_string()] = testing::Slurp(e.path());
      }
    }
    std::vector<std::string> paths;
    for (const auto& [p, bytes] : files_) paths.push_back(p);
    facts.entry_module = "app.main";
    if (facts.markers.empty()) facts.markers = VllmBackendMarkers();
    read_ = [this](const std::string& p) -> std::optional<std::string_view> {
      auto it = files_.find(p);
      if (it == files_.end()) return std::nullopt;
      return std::string_view(it->second);
    };
    analysis_ = std::make_unique<LivenessAnalysis>(LivenessAnalysis::Run(paths, read_, facts));
  }

  // The verdict at `value` inside the first `context` of `path`.
  SiteLiveness At(const std::string& path, const std::string& context, const std::string& value) {
    const std::string& bytes = files_.at(path);
    std::size_t at = bytes.find(context);
    REQUIRE_MESSAGE(at != std::string::npos, path << ": no '" << context << "'");
    std::size_t v = context.find(value);
    REQUIRE(v != std::string::npos);
    return analysis_->At(path, at + v);
  }
  SiteLiveness AtUnnamed(const std::string& path, const std::string& context,
                         const std::string& value) {
    const std::string& bytes = files_.at(path);
    return analysis_->At(path, bytes.find(context) + context.find(value), false);
  }

  const LivenessAnalysis& analysis() const { return *analysis_; }

 private:
  std::map<std::string, std::string> files_;
  ReadFn read_;
  std::unique_ptr<LivenessAnalysis> analysis_;
};

std::string Describe(const SiteLiveness& s) {
  std::string out = std::string(LivenessName(s.state)) + ": " + s.reason;
  for (const Evidence& e : s.evidence) {
    out += "\n  " + e.path + ":" + std::to_string(e.line) + ": " + e.what;
  }
  return out;
}

bool Cites(const SiteLiveness& s, const std::string& path, const std::string& what) {
  return std::any_of(s.evidence.begin(), s.evidence.end(), [&](const Evidence& e) {
    return e.path == path && e.what.find(what) != std::string::npos;
  });
}

}  // namespace

TEST_CASE("a module imported only under a constant flag is dead, through a re-export") {
  Fixture f("flag_guard");
  SiteLiveness tile = f.At("app/fast_kernel.py", "TILE = 64", "64");
  INFO(Describe(tile));
  CHECK(tile.state == Liveness::kDead);
  CHECK(tile.reason.find("USE_FAST is False") != std::string::npos);
  CHECK(Cites(tile, "app/ops.py", "if USE_FAST:"));
  CHECK(Cites(tile, "app/flags/detect.py", "USE_FAST = False"));
  CHECK(f.At("app/ops.py", "WIDTH = 128", "128").state == Liveness::kLive);
}

TEST_CASE("the flag's module as CPython imports it: a package before a module, sys.modules") {
  // Helper probes of d751784: a package beside the old module of its name
  // (Python imports the package), and `sys.modules["app.flags"] = other`
  // on the way; each made the flag True while the site was called dead.
  Fixture shadow("flag_package_shadow");
  SiteLiveness a = shadow.At("app/fast_kernel.py", "TILE = 64", "64");
  INFO(Describe(a));
  CHECK(a.state != Liveness::kDead);
  Fixture replaced("flag_sys_modules");
  SiteLiveness b = replaced.At("app/fast_kernel.py", "TILE = 64", "64");
  INFO(Describe(b));
  CHECK(b.state != Liveness::kDead);
  Fixture aliased("flag_sys_modules_alias");  // `import sys as _sys` (a review of 71b4731)
  SiteLiveness c = aliased.At("app/fast_kernel.py", "TILE = 64", "64");
  INFO(Describe(c));
  CHECK(c.state != Liveness::kDead);
}

TEST_CASE("sitecustomize at the tree's root runs at start-up: what it imports is not dead") {
  // A helper probe of d751784: with the root on PYTHONPATH, Python imported
  // the kernel under sitecustomize while the site was called dead.
  Fixture f("startup_hook");
  SiteLiveness tile = f.At("app/fast_kernel.py", "TILE = 64", "64");
  INFO(Describe(tile));
  CHECK(tile.state != Liveness::kDead);
}

TEST_CASE("a class registered by __set_name__ is reached without its name") {
  // A helper probe of d751784: a descriptor's __set_name__ put the class in
  // a registry the served code calls, and the kernel it imports ran.
  Fixture f("class_registry");
  SiteLiveness bm = f.At("app/kernels/tuned.py", "BM = 128", "128");
  INFO(Describe(bm));
  CHECK(bm.state != Liveness::kDead);
}

TEST_CASE("a module imported inside a class whose use a broken file leaves open is unknown") {
  // A helper probe of e2916b3: a syntax error elsewhere made a ROCm-only
  // module's site "live". Here app/broken.py, which cannot be parsed, may
  // refer to Impl: tuned.py is reached only if it does.
  Fixture f("reference_in_broken_file");
  SiteLiveness bm = f.At("app/kernels/tuned.py", "BM = 128", "128");
  INFO(Describe(bm));
  CHECK(bm.state == Liveness::kUnknown);
  CHECK(bm.reason.find("only if its import runs: it is imported only inside Impl") !=
        std::string::npos);
  CHECK(Cites(bm, "app/runner.py", "from app.kernels import tuned"));
}

TEST_CASE("a module imported only by another platform's backend is dead") {
  Fixture f("backend_only");
  SiteLiveness tuned = f.At("app/kernels/tuned.py", "dict(BM=128, BN=64)", "128");
  INFO(Describe(tuned));
  CHECK(tuned.state == Liveness::kDead);
  CHECK(Cites(tuned, "app/backends/amd.py", "from app.kernels.tuned import attention"));
  CHECK(f.At("app/backends/native.py", "SPLIT = 256", "256").state == Liveness::kLive);
  // Served on ROCm, the same kernels run.
  LivenessFacts rocm;
  rocm.platform = "rocm";
  Fixture g("backend_only", rocm);
  CHECK(g.At("app/kernels/tuned.py", "dict(BM=128, BN=64)", "128").state != Liveness::kDead);
}

TEST_CASE("a marker decides nothing where the tree itself makes its value") {
  // backend_only makes "ROCM_FLASH" only under is_rocm(): still dead on
  // cuda. backend_made also binds it to a constant the cuda path passes to
  // the selector (a forced backend, a default): the comparison proves
  // nothing, and the verdict names the statement.
  Fixture f("backend_only");
  SiteLiveness guarded = f.At("app/kernels/tuned.py", "dict(BM=128, BN=64)", "128");
  INFO(Describe(guarded));
  CHECK(guarded.state == Liveness::kDead);
  Fixture g("backend_made");
  SiteLiveness tuned = g.At("app/kernels/tuned.py", "dict(BM=128, BN=64)", "128");
  INFO(Describe(tuned));
  CHECK(tuned.state != Liveness::kDead);
}

TEST_CASE("a predicate's name bound to another function is not the platform's") {
  // `from vllm.utils import is_pin_memory_available as is_hip`: CPython
  // calls is_pin_memory_available, True on CUDA (a helper probe of f751cf4:
  // the ROCm backend's autotune list was called dead).
  Fixture f("predicate_alias");
  SiteLiveness aliased = f.At("app/rocm_aliased.py", "BLOCK = 64", "64");
  INFO(Describe(aliased));
  CHECK(aliased.state != Liveness::kDead);
  SiteLiveness own = f.At("app/rocm_own.py", "BLOCK = 32", "32");
  INFO(Describe(own));
  CHECK(own.state == Liveness::kDead);
}

TEST_CASE("has_device_capability branches follow the compute capability") {
  Fixture f("capability");
  SiteLiveness big = f.At("app/tile.py", "128 if current", "128");
  INFO(Describe(big));
  CHECK(big.state == Liveness::kDead);
  CHECK(big.reason.find("compute capability 7.0") != std::string::npos);
  CHECK(std::find(big.assumptions.begin(), big.assumptions.end(),
                  "platform cuda, compute capability 7.0") != big.assumptions.end());
  // Unnamed (verify's clean run): the same verdict and evidence, named on nothing.
  SiteLiveness unnamed = f.AtUnnamed("app/tile.py", "128 if current", "128");
  CHECK(unnamed.state == big.state);
  CHECK(unnamed.evidence.size() == big.evidence.size());
  CHECK(unnamed.assumptions.empty());
  CHECK(f.At("app/tile.py", "else 32", "32").state == Liveness::kLive);
  CHECK(f.At("app/tile.py", "warps = 8", "8").state == Liveness::kDead);
  CHECK(f.At("app/tile.py", "warps = 4", "4").state == Liveness::kLive);
  LivenessFacts ampere;
  ampere.compute_capability = 8.0;
  Fixture g("capability", ampere);
  CHECK(g.At("app/tile.py", "128 if current", "128").state == Liveness::kLive);
  CHECK(g.At("app/tile.py", "else 32", "32").state == Liveness::kDead);
}

TEST_CASE("a capability the tree pins itself decides no capability test") {
  // get_physical_device_capability returns [9, 0] whatever the device (the
  // fork's vllm/platforms/cuda.py): CPython's has_device_capability(80) is
  // True on the BI-V100, whose declared capability is 7.0.
  Fixture f("capability_pinned");
  SiteLiveness big = f.At("app/tile.py", "128 if current", "128");
  INFO(Describe(big));
  CHECK(big.state == Liveness::kLive);
  SiteLiveness warps = f.At("app/tile.py", "warps = 8", "8");
  INFO(Describe(warps));
  CHECK(warps.state != Liveness::kDead);
  std::optional<Evidence> pinned = f.analysis().CapabilityAnsweredByTree();
  REQUIRE(pinned);
  CHECK(pinned->path == "vllm/platforms/__init__.py");
  CHECK(pinned->line == 1);
  CHECK(pinned->what ==
        "the tree's get_physical_device_capability() returns [9,0] whatever the device");
  // Pinned at the declared capability: the declared one decides.
  LivenessFacts volta;
  volta.compute_capability = 9.0;
  Fixture g("capability_pinned", volta);
  CHECK_FALSE(g.analysis().CapabilityAnsweredByTree());
  CHECK(g.At("app/tile.py", "else 32", "32").state == Liveness::kDead);
  // A platform that asks the device pins nothing.
  CHECK_FALSE(Fixture("capability").analysis().CapabilityAnsweredByTree());
}

TEST_CASE("a dict value overwritten on every path is dead, and the overwrites are live") {
  Fixture f("overwrite");
  SiteLiveness first = f.At("app/tiles.py", "\"TILE\": 64", "64");
  INFO(Describe(first));
  CHECK(first.state == Liveness::kDead);
  CHECK(Cites(first, "app/tiles.py", "cfg[\"TILE\"] = 128"));
  CHECK(Cites(first, "app/tiles.py", "cfg[\"TILE\"] = 32"));
  CHECK(f.At("app/tiles.py", "\"TILE\": 16", "16").state == Liveness::kDead);
  CHECK(f.At("app/tiles.py", "cfg[\"TILE\"] = 128", "128").state == Liveness::kLive);
  CHECK(f.At("app/tiles.py", "cfg[\"TILE\"] = 32", "32").state == Liveness::kLive);
  // SPLIT is replaced only on one path.
  CHECK(f.At("app/tiles.py", "\"SPLIT\": 2", "2").state == Liveness::kLive);
}

TEST_CASE("a value before a break or continue is read after the loop: not overwritten") {
  Fixture f("overwrite");
  // `width = 8` then `if alibi is None: break` then `width = 16`: the break
  // takes 8 to the return (CPython: warps(None) is 8 * 5).
  SiteLiveness before_break = f.At("app/tiles.py", "width = 8", "8");
  INFO(Describe(before_break));
  CHECK(before_break.state == Liveness::kLive);
  // `depth = 4` then `if alibi: continue`: the next round or the loop's end reads it.
  CHECK(f.At("app/tiles.py", "depth = 4", "4").state == Liveness::kLive);
}

TEST_CASE("a function whose only caller is never called is dead") {
  Fixture f("unreferenced");
  SiteLiveness limit = f.At("app/limits.py", "return 32 * 1024", "32");
  INFO(Describe(limit));
  CHECK(limit.state == Liveness::kDead);
  CHECK(limit.reason.find("smem_limit") != std::string::npos);
  CHECK(Cites(limit, "app/util.py", "limits.smem_limit(0)"));
  CHECK(f.At("app/limits.py", "return 7", "7").state == Liveness::kLive);
}

TEST_CASE("a dict passed to a binary is unknown until a fact says what the binary reads") {
  Fixture f("declared");
  SiteLiveness bn = f.At("app/moe.py", "\"BN\": 32", "32");
  INFO(Describe(bn));
  CHECK(bn.state == Liveness::kUnknown);
  CHECK(Cites(bn, "app/ops.py", "_F.launch(x, cfg)"));
  LivenessFacts facts;
  DeclaredFact fact;
  fact.callee = "fastlib.launch";
  fact.reads_keys = {"BM"};
  fact.source = "fastlib's launch signature";
  facts.declared.push_back(fact);
  Fixture g("declared", facts);
  SiteLiveness declared = g.At("app/moe.py", "\"BN\": 32", "32");
  INFO(Describe(declared));
  CHECK(declared.state == Liveness::kDead);
  CHECK(Cites(declared, "app/ops.py", "fastlib's launch signature"));
  CHECK(g.At("app/moe.py", "\"BM\": 16", "16").state == Liveness::kLive);
}

TEST_CASE("a dynamic import the analysis cannot follow leaves unreached modules unknown") {
  Fixture f("dynamic");
  CHECK(f.At("app/loaded.py", "DEPTH = 3", "3").state == Liveness::kLive);
  SiteLiveness width = f.At("app/plugin.py", "WIDTH = 16", "16");
  INFO(Describe(width));
  CHECK(width.state == Liveness::kUnknown);
  CHECK(Cites(width, "app/main.py", "APP_PLUGIN"));
  // A local reason still decides.
  CHECK(f.At("app/plugin.py", "w = 8", "8").state == Liveness::kDead);
}

TEST_CASE("code after an unconditional return is dead") {
  Fixture f("after_return");
  SiteLiveness grid = f.At("app/kernel.py", "cfg[\"BN\"]", "BN");
  INFO(Describe(grid));
  CHECK(grid.state == Liveness::kDead);
  CHECK(grid.reason.find("return") != std::string::npos);
  CHECK(f.At("app/kernel.py", "cfg[\"BM\"]", "BM").state == Liveness::kLive);
}

TEST_CASE("dict keys that nothing reached reads are dead") {
  Fixture f("unread_keys");
  SiteLiveness bn = f.At("app/config.py", "\"BN\": 32", "32");
  INFO(Describe(bn));
  CHECK(bn.state == Liveness::kDead);
  CHECK(bn.reason.find("'BN'") != std::string::npos);
  CHECK(f.At("app/config.py", "\"GROUP\": 8", "8").state == Liveness::kDead);
  CHECK(f.At("app/config.py", "\"BM\": 16", "16").state == Liveness::kLive);
  SiteLiveness commented = f.At("app/config.py", "'BN2': 32", "32");
  INFO(Describe(commented));
  CHECK(commented.state == Liveness::kDead);
  CHECK(commented.reason.find("'BN2'") != std::string::npos);
}

TEST_CASE("a key read whose value is changed before a call takes it is named, at the change") {
  Fixture f("changed_reads");
  auto changed = [&](const std::string& context) {
    const std::string path = "app/config.py";
    CHECK(f.At(path, context, "16").state == Liveness::kLive);
    std::vector<std::string> out;
    for (const ChangedRead& c : f.analysis().ChangedReads(
             path, testing::Slurp(fs::path(MUHPATCH_SOURCE_DIR) /
                                  "fixtures/liveness/changed_reads/app/config.py")
                           .find(context) +
                       context.find("16"))) {
      out.push_back(c.at.path + ":" + std::to_string(c.at.line) + ":" + std::to_string(c.column) +
                    ": " + c.expression);
    }
    return out;
  };
  // Passed whole, by keyword and through a name; derived; tested.
  CHECK(changed("\"PM\": 16").empty());
  CHECK(changed("\"DM\": 16").empty());
  CHECK(changed("\"TM\": 16").empty());
  // A clamp in the call; through a name bound first, a conditional's branch.
  CHECK(changed("\"CM\": 16") == std::vector<std::string>{"app/use.py:14:22: max(c[\"CM\"], 32)"});
  CHECK(changed("\"CA\": 16") ==
        std::vector<std::string>{"app/use.py:16:15: int(ca) if ca > 8 else 8"});
  // Returned: where it goes then is not followed.
  CHECK(changed("\"RM\": 16") == std::vector<std::string>{"app/use.py:5:5: return c[\"RM\"]"});
}

TEST_CASE("a name whose value is clamped before a call takes it is named, at the clamp") {
  Fixture f("changed_reads");
  const std::string path = "app/names.py";
  const std::string text =
      testing::Slurp(fs::path(MUHPATCH_SOURCE_DIR) / "fixtures/liveness/changed_reads" / path);
  auto changed = [&](const std::string& context) {
    std::string out;
    for (const ChangedRead& c :
         f.analysis().ChangedReads(path, text.find(context) + context.find("16"))) {
      out += c.at.path + ":" + std::to_string(c.at.line) + ":" + std::to_string(c.column) + ": " +
             c.expression + "\n";
    }
    return out;
  };
  CHECK(changed("BLOCK = 16") == "app/names.py:8:24: min(BLOCK, 8)\n");
  // The reads are taken without regard to order: a later value's clamp counts.
  CHECK(changed("WARPS = 16") == "app/names.py:15:26: max(WARPS, 2)\n");
  // Halved (the value gate's), passed, in a tuple and returned whole: no change seen.
  CHECK(changed("STAGES = 16") == "");
  // A module-level name, and one a def's `global` names: read in the whole file.
  CHECK(changed("LIMIT = 16\n\n") == "app/names.py:33:22: max(LIMIT, 32)\n");
  CHECK(changed("    LIMIT = 16") == "app/names.py:33:22: max(LIMIT, 32)\n");
}

TEST_CASE("without the entry module every verdict beyond local ones is unknown") {
  std::map<std::string, std::string> files{{"lib/x.py", "A = 1\n"}};
  ReadFn read = [&files](const std::string& p) -> std::optional<std::string_view> {
    return std::string_view(files.at(p));
  };
  LivenessAnalysis a = LivenessAnalysis::Run({"lib/x.py"}, read, LivenessFacts{});
  CHECK(a.At("lib/x.py", 4).state == Liveness::kUnknown);
}

TEST_CASE("a dead verdict a plugin could overturn says it assumes none is installed") {
  Fixture f("plugins");
  SiteLiveness unused = f.At("app/unused.py", "size = 32", "32");
  INFO(Describe(unused));
  CHECK(unused.state == Liveness::kDead);
  CHECK(unused.reason.find("; assuming no plugin is installed (vLLM's default), since "
                           "app/main.py:6 loads every installed entry point") != std::string::npos);
  CHECK(Cites(unused, "app/main.py", "for plugin in entry_points("));
  SiteLiveness helper = f.At("app/used.py", "depth = 4", "4");
  CHECK(helper.state == Liveness::kDead);
  CHECK(helper.reason.find("assuming no plugin") != std::string::npos);
  // Overwritten in its own function on every path: no plugin changes that.
  SiteLiveness over = f.At("app/used.py", "width = 64", "64");
  CHECK(over.state == Liveness::kDead);
  CHECK(over.reason.find("assuming") == std::string::npos);
}

TEST_CASE("a verdict that rests on VLLM_ATTENTION_BACKEND names it, and another value flips it") {
  auto has = [](const SiteLiveness& s, const std::string& a) {
    return std::find(s.assumptions.begin(), s.assumptions.end(), a) != s.assumptions.end();
  };
  Fixture f("backend_only");
  SiteLiveness tuned = f.At("app/kernels/tuned.py", "dict(BM=128, BN=64)", "128");
  INFO(Describe(tuned));
  CHECK(tuned.state == Liveness::kDead);
  CHECK(has(tuned, "VLLM_ATTENTION_BACKEND unset (vLLM's default)"));
  CHECK(tuned.reason.find("; assuming platform cuda, compute capability 7.0 and "
                          "VLLM_ATTENTION_BACKEND unset (vLLM's "
                          "default)") != std::string::npos);
  CHECK(has(tuned, "platform cuda, compute capability 7.0"));
  SiteLiveness split = f.At("app/backends/native.py", "SPLIT = 256", "256");
  CHECK(split.state == Liveness::kLive);
  CHECK(split.assumptions.empty());

  // The variable names the ROCm backend: the selector may return it on cuda.
  LivenessFacts rocm_flash;
  rocm_flash.environment["VLLM_ATTENTION_BACKEND"] =
      EnvValue{true, "ROCM_FLASH", "rule file", false, ""};
  Fixture g("backend_only", rocm_flash);
  SiteLiveness flipped = g.At("app/kernels/tuned.py", "dict(BM=128, BN=64)", "128");
  INFO(Describe(flipped));
  CHECK(flipped.state != Liveness::kDead);
  CHECK(has(flipped, "VLLM_ATTENTION_BACKEND=ROCM_FLASH (rule file)"));
  CHECK(flipped.reason.find("with VLLM_ATTENTION_BACKEND unset (vLLM's default) it is dead") !=
        std::string::npos);
  CHECK(g.At("app/backends/native.py", "SPLIT = 256", "256").assumptions.empty());

  // Another backend of vLLM's: still not ROCm's, and the verdict says what it rests on.
  LivenessFacts xformers;
  xformers.environment["VLLM_ATTENTION_BACKEND"] =
      EnvValue{true, "XFORMERS", "rule file", false, ""};
  Fixture h("backend_only", xformers);
  SiteLiveness still = h.At("app/kernels/tuned.py", "dict(BM=128, BN=64)", "128");
  CHECK(still.state == Liveness::kDead);
  CHECK(has(still, "VLLM_ATTENTION_BACKEND=XFORMERS (rule file)"));
}

TEST_CASE("the environment written by a key not read as a literal: the backend is not decided") {
  // A helper probe of d751784: keys split out of a string (or read from a
  // file) set VLLM_ATTENTION_BACKEND, and the ROCm backend's kernel ran.
  Fixture f("backend_environ_key");
  SiteLiveness tuned = f.At("app/kernels/tuned.py", "dict(BM=128, BN=64)", "128");
  INFO(Describe(tuned));
  CHECK(tuned.state != Liveness::kDead);
  // The keys of a mapping the caller passes: dead, saying so.
  Fixture g("backend_environ_copy");
  SiteLiveness copied = g.At("app/kernels/tuned.py", "dict(BM=128, BN=64)", "128");
  INFO(Describe(copied));
  CHECK(copied.state == Liveness::kDead);
  const std::string assumed =
      "the environment the tree writes by its callers' keys (app/workers.py:7) copies the "
      "serving process's own";
  CHECK(std::find(copied.assumptions.begin(), copied.assumptions.end(), assumed) !=
        copied.assumptions.end());
  CHECK(copied.reason.find(assumed) != std::string::npos);
}

TEST_CASE("with a plugin declared, what a plugin could overturn is unknown") {
  LivenessFacts facts;
  facts.plugins = {"extra_kernels"};
  facts.plugins_source = "rule file";
  Fixture f("plugins", facts);
  SiteLiveness unused = f.At("app/unused.py", "size = 32", "32");
  INFO(Describe(unused));
  CHECK(unused.state == Liveness::kUnknown);
  CHECK(unused.reason.find("plugins installed: extra_kernels (rule file)") != std::string::npos);
  CHECK(unused.assumptions ==
        std::vector<std::string>{"plugins installed: extra_kernels (rule file)"});
  // What no plugin changes stays dead, and rests on no plugin assumption.
  SiteLiveness over = f.At("app/used.py", "width = 64", "64");
  CHECK(over.state == Liveness::kDead);
  CHECK(over.assumptions.empty());
  // Undeclared: vLLM's default, named by the verdict.
  Fixture g("plugins");
  CHECK(g.At("app/unused.py", "size = 32", "32").assumptions ==
        std::vector<std::string>{"no plugin is installed (vLLM's default)"});
}

TEST_CASE("a dynamic import declared is resolved, and undeclared, it names the declaration") {
  Fixture f("dynamic_loader");
  SiteLiveness tuned = f.At("app/kernels/amd_tuned.py", "dict(BM=128, BN=64)", "128");
  INFO(Describe(tuned));
  CHECK(tuned.state == Liveness::kUnknown);
  CHECK(Cites(tuned, "app/loader.py", "importlib.import_module(module_path)"));
  CHECK(tuned.reason.find("declaring what app/loader.py:5 loads would decide it (liveness: "
                          "dynamic-imports: - at: app/loader.py:load_parser, loads: [MODULE, "
                          "...])") != std::string::npos);
  SiteLiveness spare = f.At("app/kernels/used.py", "size = 32", "32");
  INFO(Describe(spare));
  CHECK(spare.state == Liveness::kUnknown);
  CHECK(spare.reason.find("at: app/loader.py:load_parser") != std::string::npos);

  LivenessFacts facts;
  facts.dynamic_imports.push_back({"app/loader.py", "load_parser", {"app.parsers"}});
  Fixture g("dynamic_loader", facts);
  SiteLiveness dead = g.At("app/kernels/amd_tuned.py", "dict(BM=128, BN=64)", "128");
  INFO(Describe(dead));
  CHECK(dead.state == Liveness::kDead);
  CHECK(dead.reason.find("not imported when serving") != std::string::npos);
  CHECK(g.At("app/kernels/used.py", "size = 32", "32").state == Liveness::kDead);
  CHECK(g.At("app/kernels/used.py", "return 64", "64").state == Liveness::kLive);
  // What the declaration loads is reached from the loader.
  SiteLiveness width = g.At("app/parsers/simple.py", "width = 8", "8");
  INFO(Describe(width));
  CHECK(width.state != Liveness::kDead);
  CHECK(Cites(width, "app/loader.py", "declared in dynamic-imports"));
  // A declaration of another def resolves nothing.
  LivenessFacts elsewhere;
  elsewhere.dynamic_imports.push_back({"app/loader.py", "other", {"app.parsers"}});
  Fixture h("dynamic_loader", elsewhere);
  CHECK(h.At("app/kernels/amd_tuned.py", "dict(BM=128, BN=64)", "128").state == Liveness::kUnknown);
  CHECK(h.analysis().UnusedDynamicImports() == std::vector<std::string>{"app/loader.py:other"});
  CHECK(g.analysis().UnusedDynamicImports().empty());
}

}  // namespace muh
