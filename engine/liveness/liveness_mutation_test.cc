// The differential test of the liveness analysis: copies of the real
// enginex-vllm tree (held in memory; the tree itself is never written),
// each mutated by generated, valid Python that reaches one of the knobs the
// unmutated tree has dead (a module, a function, a dict key, an overwritten
// value) through one construct, or that provably does not (a comment, a
// docstring, a message). A mutation that reaches its knob must never leave
// it dead; one that does not must leave the verdict as it was.
//
// Skipped without ../shared/targets/enginex-vllm. Seeds 1..MUHPATCH_MUTATION_SEEDS
// (default 3, CI's; .ci/sanitize runs more), each drawing every generator
// once with its own names, spacing and host module.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "engine/liveness/liveness.h"
#include "tests/fixture_testing.h"

namespace muh {

namespace {

namespace fs = std::filesystem;

using Files = std::map<std::string, std::string>;

const char* const kEntry = "vllm/entrypoints/openai/api_server.py";
const char* const kUtils = "vllm/utils.py";
const char* const kFlagFile = "vllm/triton_utils/importing.py";
const char* const kMoe = "vllm/model_executor/layers/fused_moe/fused_moe.py";

// Modules that run at baseline, whose top level a mutation may extend.
const std::vector<std::string> kHosts = {kEntry, kUtils, "vllm/config.py",
                                         "vllm/engine/llm_engine.py"};

struct Knob {
  const char* name;
  std::string path;
  std::string after;    // the site is the first `context` after this text
  std::string context;  // ... and `value` inside it
  std::string value;
};

const std::vector<Knob>& Knobs() {
  static const std::vector<Knob> knobs = {
      {"module", "vllm/attention/ops/prefix_prefill.py", "def context_attention_fwd", "else 64",
       "64"},
      {"flash", "vllm/attention/ops/triton_flash_attention.py", "@triton.autotune(", "configs=[",
       "["},
      {"function", "vllm/_custom_ops.py", "def get_max_shared_memory_per_block_device_attribute",
       "return 32 * 1024", "32"},
      {"key", kMoe, "def get_default_config", "'BLOCK_SIZE_N': 64", "64"},
      {"overwrite", kMoe, "def get_default_config", "'BLOCK_SIZE_M': 64", "64"},
  };
  return knobs;
}

// One mutation: text inserted into a file, before the first `before` after
// `after` (or appended at the end when `before` is empty).
struct Mutation {
  std::string construct;
  std::string knob;
  bool reaches = true;
  std::string path;
  std::string after;
  std::string before;
  std::string text;
};

class Gen {
 public:
  explicit Gen(unsigned seed) : rng_(seed) {}

  std::string Name() {
    static const char* const kStems[] = {"_m", "_tmp", "_knob", "_q", "_probe", "_x"};
    return std::string(kStems[Pick(6)]) + std::to_string(Pick(900) + 100);
  }
  std::string Semi() {
    static const char* const kSemis[] = {"; ", " ; ", ";", ";  "};
    return kSemis[Pick(4)];
  }
  std::string Colon() { return Pick(2) == 0 ? ": " : ":  "; }
  std::string Host() { return kHosts[Pick(kHosts.size())]; }
  std::string Cond() {
    switch (Pick(3)) {
      case 0:
        return "len(\"" + Name() + "\") > " + std::to_string(Pick(3));
      case 1:
        return "__name__ != \"" + Name() + "\"";
      default:
        return "not " + std::to_string(Pick(5) - 7) + " > 0";
    }
  }
  std::size_t Pick(std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_);
  }

 private:
  std::mt19937 rng_;
};

using Generator = std::function<Mutation(Gen&)>;

Mutation AtTop(std::string construct, std::string knob, std::string host, std::string text,
               bool reaches = true) {
  return Mutation{std::move(construct),         std::move(knob), reaches, std::move(host), "", "",
                  "\n" + std::move(text) + "\n"};
}

// Code that reaches module `module` (dotted, `pkg` its package, `leaf` its
// last name), for knob `knob`.
void ModuleGenerators(const std::string& knob, const std::string& pkg, const std::string& leaf,
                      std::vector<Generator>* out) {
  std::string module = pkg + "." + leaf;
  out->push_back([=](Gen& g) {
    return AtTop("import after ;", knob, g.Host(), "import os" + g.Semi() + "import " + module);
  });
  out->push_back([=](Gen& g) {
    return AtTop("import on an if header", knob, g.Host(),
                 "if " + g.Cond() + g.Colon() + "import " + module + " as " + g.Name());
  });
  out->push_back([=](Gen& g) {
    return AtTop("import on a try header", knob, g.Host(),
                 "try" + g.Colon() + "from " + pkg + " import " + leaf + "\nexcept ImportError" +
                     g.Colon() + "pass");
  });
  out->push_back(
      [=](Gen& g) { return AtTop("star import", knob, g.Host(), "from " + module + " import *"); });
  out->push_back([=](Gen& g) {
    std::string f = g.Name();
    return AtTop("global, in a function called", knob, g.Host(),
                 "def " + f + "():\n    global " + g.Name() + "\n    import " + module + "\n\n\n" +
                     f + "()");
  });
  out->push_back([=](Gen& g) {
    return AtTop(
        "relative import_module", knob, g.Host(),
        "import importlib\nimportlib.import_module(\"." + leaf + "\", package=\"" + pkg + "\")");
  });
  out->push_back([=](Gen& g) {
    std::string a = g.Name();
    return AtTop("match", knob, g.Host(),
                 a + " = 1\nmatch " + a + ":\n    case 1:\n        import " + module +
                     "\n    case _:\n        pass");
  });
  out->push_back([=](Gen& g) {
    std::string n = g.Name();
    return AtTop("exec of a string", knob, g.Host(),
                 n + " = \"import " + module + "\"\nexec(" + n + ")");
  });
  // Provably not: a comment, a docstring, a message.
  out->push_back(
      [=](Gen& g) { return AtTop("comment", knob, g.Host(), "# import " + module, false); });
  out->push_back([=](Gen& g) {
    return AtTop("docstring", knob, g.Host(),
                 "def " + g.Name() + "():\n    \"\"\"Never imports " + leaf + ".\"\"\"", false);
  });
  out->push_back([=](Gen& g) {
    return AtTop("print message", knob, g.Host(), "print(\"" + leaf + " is off here\")", false);
  });
}

// Code that rebinds HAS_TRITON to True, which imports prefix_prefill.
void FlagGenerators(std::vector<Generator>* out) {
  const std::string knob = "module";
  out->push_back([=](Gen& g) {
    std::string a = g.Name();
    return AtTop("flag rebound through the package", knob, g.Host(),
                 "import vllm.triton_utils as " + a + g.Semi() + a + ".HAS_TRITON = True");
  });
  out->push_back([=](Gen& g) {
    std::string a = g.Name();
    return AtTop("flag rebound in its module", knob, g.Host(),
                 "import vllm.triton_utils.importing as " + a + "\n" + a + ".HAS_TRITON = True");
  });
  out->push_back([=](Gen& g) {
    std::string a = g.Name();
    return AtTop("flag rebound by setattr", knob, g.Host(),
                 "import vllm.triton_utils as " + a + "\nsetattr(" + a + ", \"HAS_TRITON\", True)");
  });
  out->push_back([=](Gen& g) {
    std::string f = g.Name();
    return AtTop("flag rebound by global", knob, kFlagFile,
                 "def " + f + "():\n    global HAS_TRITON\n    HAS_TRITON = True\n\n\n" + f + "()");
  });
  out->push_back([=](Gen& g) {
    return AtTop("flag rebound after ;", knob, kFlagFile,
                 g.Name() + " = 1" + g.Semi() + "HAS_TRITON = True");
  });
  out->push_back(
      [=](Gen&) { return AtTop("flag augmented", knob, kFlagFile, "HAS_TRITON |= True"); });
  out->push_back([=](Gen& g) {
    return AtTop("flag by walrus", knob, kFlagFile, "if (HAS_TRITON := True)" + g.Colon() + "pass");
  });
  out->push_back([=](Gen& g) {
    return AtTop("flag on an if header", knob, kFlagFile,
                 "if " + g.Cond() + g.Colon() + "HAS_TRITON = True");
  });
  out->push_back([=](Gen&) {
    return AtTop("flag in match", knob, kFlagFile,
                 "match 1:\n    case _:\n        HAS_TRITON = True");
  });
}

// Code that calls get_max_shared_memory_bytes, the caller of the knob's function.
void FunctionGenerators(std::vector<Generator>* out) {
  const std::string knob = "function";
  const std::string fn = "get_max_shared_memory_bytes";
  auto call = [fn](Gen& g, std::string* setup) {
    std::string a = g.Name();
    switch (g.Pick(3)) {
      case 0:
        *setup = "from vllm.utils import " + fn + " as " + a + "\n";
        return a + "()";
      case 1:
        *setup = "import vllm.utils as " + a + "\n";
        return a + "." + fn + "()";
      default:
        *setup = "from vllm.utils import " + fn + "\n";
        return fn + "()";
    }
  };
  auto with = [=](std::string construct, std::function<std::string(Gen&, const std::string&)> f) {
    return [=](Gen& g) {
      std::string setup;
      std::string c = call(g, &setup);
      return AtTop(construct, knob, g.Host(), setup + f(g, c));
    };
  };
  out->push_back(with("alias call", [](Gen&, const std::string& c) { return c; }));
  out->push_back(with("call after ;", [](Gen& g, const std::string& c) {
    return g.Name() + " = 0" + g.Semi() + c;
  }));
  out->push_back(with("call on an if header", [](Gen& g, const std::string& c) {
    return "if " + g.Cond() + g.Colon() + c;
  }));
  out->push_back(with("call on a try header", [](Gen& g, const std::string& c) {
    return "try" + g.Colon() + c + "\nexcept Exception" + g.Colon() + "pass";
  }));
  out->push_back(with("decorator that calls", [](Gen& g, const std::string& c) {
    std::string d = g.Name() + "_deco";
    std::string h = g.Name() + "_handler";
    return "def " + d + "(fn):\n    fn()\n    return fn\n\n\n@" + d + "\ndef " + h +
           "():\n    return " + c;
  }));
  out->push_back(with("route decorator", [](Gen& g, const std::string& c) {
    std::string r = g.Name();
    return "class " + r + "_Router:\n    def get(self, path):\n        def wrap(fn):\n" +
           "            fn()\n            return fn\n        return wrap\n\n\n" + r + " = " + r +
           "_Router()\n\n\n@" + r + ".get(\"/" + g.Name() + "\")\ndef " + g.Name() +
           "():\n    return " + c;
  }));
  out->push_back(with("global", [](Gen& g, const std::string& c) {
    std::string f = g.Name();
    std::string v = g.Name();
    return "def " + f + "():\n    global " + v + "\n    " + v + " = " + c + "\n\n\n" + f + "()";
  }));
  out->push_back(with("augmented assignment", [](Gen& g, const std::string& c) {
    std::string v = g.Name();
    return v + " = 0\n" + v + " += " + c;
  }));
  out->push_back(with("del", [](Gen& g, const std::string& c) {
    std::string v = g.Name();
    return v + " = [" + c + "]\ndel " + v;
  }));
  out->push_back(with("walrus", [](Gen& g, const std::string& c) {
    return "if (" + g.Name() + " := " + c + ")" + g.Colon() + "pass";
  }));
  out->push_back(with("match", [](Gen& g, const std::string& c) {
    return "match " + std::to_string(g.Pick(4)) + ":\n    case _:\n        " + c;
  }));
  out->push_back(with("lambda", [](Gen& g, const std::string& c) {
    return g.Name() + " = (lambda: " + c + ")()";
  }));
  out->push_back(with("class body", [](Gen& g, const std::string& c) {
    return "class " + g.Name() + ":\n    " + g.Name() + " = " + c;
  }));
  out->push_back(with(
      "f-string", [](Gen& g, const std::string& c) { return g.Name() + " = f\"{" + c + "}\""; }));
  out->push_back([=](Gen& g) {
    std::string a = g.Name();
    return AtTop("getattr by string", knob, g.Host(),
                 "import vllm.utils as " + a + "\ngetattr(" + a + ", \"" + fn + "\")()");
  });
  out->push_back([=](Gen& g) {
    return AtTop("star import", knob, g.Host(), "from vllm.utils import *\n" + fn + "()");
  });
  out->push_back([=](Gen& g) { return AtTop("comment", knob, g.Host(), "# " + fn + "()", false); });
  out->push_back([=](Gen& g) {
    return AtTop("docstring", knob, g.Host(),
                 "class " + g.Name() + ":\n    \"\"\"Does not call " + fn + ".\"\"\"", false);
  });
  out->push_back([=](Gen& g) {
    return AtTop("print message", knob, g.Host(), "print(\"" + fn + " is not called\")", false);
  });
}

Mutation InMoe(std::string construct, std::string knob, std::string before, std::string text,
               bool reaches = true) {
  return Mutation{std::move(construct),     std::move(knob),   reaches,        kMoe,
                  "def get_default_config", std::move(before), std::move(text)};
}

// Code in get_default_config that reads BLOCK_SIZE_N of the first dict, or
// the first BLOCK_SIZE_M before the tiers overwrite it.
void DictGenerators(std::vector<Generator>* out) {
  const std::string heuristic = "    # A heuristic";
  const std::string tiers = "    numel = M * topk";
  struct Read {
    const char* construct;
    std::function<std::string(Gen&)> code;  // 4-space indented lines, each ending in \n
    bool reads_m = true;                    // reads BLOCK_SIZE_M too
  };
  std::vector<Read> reads = {
      {"pop", [](Gen&) { return std::string("    print(config.pop('BLOCK_SIZE_N'))\n"); }, false},
      {"copy",
       [](Gen& g) {
         std::string c = g.Name();
         return "    " + c + " = config.copy()" + g.Semi() + "print(" + c + ")\n";
       }},
      {"dict()",
       [](Gen& g) {
         std::string c = g.Name();
         return "    " + c + " = dict(config)\n    print(*" + c + ".values())\n";
       }},
      {"values", [](Gen&) { return std::string("    print(*config.values())\n"); }},
      {"items", [](Gen&) { return std::string("    print(sorted(config.items()))\n"); }},
      {"loop over keys",
       [](Gen& g) {
         std::string k = g.Name();
         return "    for " + k + " in config:\n        print(config[" + k + "])\n";
       }},
      {"computed key",
       [](Gen& g) {
         std::string k = g.Name();
         return "    " + k + " = 'BLOCK_SIZE_' + 'N'\n    print(config[" + k + "])\n";
       },
       false},
      {"one-line if", [](Gen& g) { return "    if M" + g.Colon() + "print(config)\n"; }},
      {"f-string", [](Gen&) { return std::string("    print(f\"{config}\")\n"); }},
      {"walrus",
       [](Gen& g) {
         std::string c = g.Name();
         return "    if (" + c + " := config)" + g.Colon() + "print(" + c + ")\n";
       }},
      {"augmented assignment",
       [](Gen& g) {
         std::string c = g.Name();
         return "    " + c + " = {}\n    " + c + " |= config\n    print(" + c + ")\n";
       }},
      {"global",
       [](Gen& g) {
         std::string c = g.Name();
         return "    global " + c + "\n    " + c + " = config\n";
       }},
      {"closure",
       [](Gen& g) {
         std::string f = g.Name();
         return "    " + f + " = lambda: config\n    print(" + f + "())\n";
       }},
      {"match",
       [](Gen&) {
         return std::string("    match M:\n        case _:\n            print(config)\n");
       }},
      {"keys as strings",
       [](Gen&) {
         return std::string("    print([config[k] for k in ('BLOCK_SIZE_M', 'BLOCK_SIZE_N')])\n");
       }},
  };
  for (const Read& r : reads) {
    out->push_back([=](Gen& g) { return InMoe(r.construct, "key", heuristic, r.code(g)); });
    if (r.reads_m) {
      out->push_back([=](Gen& g) { return InMoe(r.construct, "overwrite", tiers, r.code(g)); });
    }
  }
  out->push_back([=](Gen& g) {
    return InMoe("one-line return", "overwrite", tiers,
                 "    if M > " + std::to_string(g.Pick(5000)) + g.Colon() + "return config\n");
  });
  out->push_back([=](Gen& g) {
    return InMoe("try handler", "overwrite", tiers,
                 "    try" + g.Colon() + "numel = M * topk\n    except Exception" + g.Colon() +
                     "return config\n");
  });
  out->push_back([=](Gen&) {
    return InMoe("comment", "key", heuristic, "    # print(config.pop('BLOCK_SIZE_N'))\n", false);
  });
  out->push_back([=](Gen&) {
    return InMoe("print message", "key", heuristic, "    print('BLOCK_SIZE_N stays as tuned')\n",
                 false);
  });
}

std::vector<Generator> Generators() {
  std::vector<Generator> out;
  ModuleGenerators("module", "vllm.attention.ops", "prefix_prefill", &out);
  ModuleGenerators("flash", "vllm.attention.ops", "triton_flash_attention", &out);
  FlagGenerators(&out);
  FunctionGenerators(&out);
  DictGenerators(&out);
  return out;
}

std::size_t Offset(const Files& files, const Knob& k) {
  const std::string& bytes = files.at(k.path);
  std::size_t from = bytes.find(k.after);
  std::size_t at = bytes.find(k.context, from);
  REQUIRE_MESSAGE(at != std::string::npos, k.path << ": no '" << k.context << "'");
  return at + k.context.find(k.value);
}

LivenessFacts ServingFacts() {
  LivenessFacts facts;
  facts.markers = VllmBackendMarkers();
  DeclaredFact none{DeclaredFact::Kind::kImportsNothing, kEntry, "build_app", {}, "no middleware"};
  facts.declared.push_back(none);
  return facts;
}

SiteLiveness Verdict(const Files& files, const Knob& k) {
  std::vector<std::string> paths;
  for (const auto& [p, bytes] : files) paths.push_back(p);
  ReadFn read = [&files](const std::string& p) -> std::optional<std::string_view> {
    auto it = files.find(p);
    return it == files.end() ? std::nullopt : std::optional<std::string_view>(it->second);
  };
  LivenessAnalysis live = LivenessAnalysis::Run(paths, read, ServingFacts());
  return live.At(k.path, Offset(files, k));
}

std::string Describe(const SiteLiveness& s) {
  std::string out = std::string(LivenessName(s.state)) + ": " + s.reason;
  for (const Evidence& e : s.evidence)
    out += "\n    " + e.path + ":" + std::to_string(e.line) + ": " + e.what;
  return out;
}

}  // namespace

TEST_CASE("differential: mutations of the real tree that reach a dead knob never leave it dead" *
          doctest::test_suite("slow")) {
  std::optional<fs::path> real = testing::RealTreeOrSkip();
  if (!real) return;
  const fs::path& root = *real;
  Files tree;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (e.is_regular_file() && e.path().extension() == ".py") {
      tree[fs::relative(e.path(), root).generic_string()] = testing::Slurp(e.path());
    }
  }
  // Each knob is dead in the unmutated tree, but the shared-memory function:
  // its module takes globals() (vllm/_custom_ops.py, the hint_on_error
  // wrapping), which no proof of "nothing calls it" survives, so it is
  // unknown from the start and its mutations have nothing to show.
  std::map<std::string, bool> dead_at_base;
  for (const Knob& k : Knobs()) {
    SiteLiveness base = Verdict(tree, k);
    INFO(k.name << " " << Describe(base));
    dead_at_base[k.name] = base.state == Liveness::kDead;
    if (std::string(k.name) == "function") {
      CHECK(base.state == Liveness::kUnknown);
    } else {
      REQUIRE(base.state == Liveness::kDead);
    }
  }
  int seeds = 3;
  if (const char* env = std::getenv("MUHPATCH_MUTATION_SEEDS")) seeds = std::max(1, std::atoi(env));
  std::vector<Generator> generators = Generators();
  int reaching = 0;
  int controls = 0;
  std::map<std::string, int> states;
  for (int seed = 1; seed <= seeds; ++seed) {
    Gen gen(static_cast<unsigned>(seed));
    for (const Generator& make : generators) {
      Mutation m = make(gen);
      if (!dead_at_base[m.knob]) continue;
      const Knob& knob = *std::find_if(Knobs().begin(), Knobs().end(),
                                       [&](const Knob& k) { return m.knob == k.name; });
      Files copy = tree;
      std::string& bytes = copy.at(m.path);
      if (m.before.empty()) {
        if (!bytes.empty() && bytes.back() != '\n') bytes += '\n';
        bytes += m.text;
      } else {
        std::size_t at = bytes.find(m.before, bytes.find(m.after));
        REQUIRE_MESSAGE(at != std::string::npos, m.path << ": no '" << m.before << "'");
        bytes.insert(at, m.text);
      }
      SiteLiveness s = Verdict(copy, knob);
      INFO("seed " << seed << ", " << m.construct << " -> " << m.knob << ", in " << m.path << ":\n"
                   << m.text << "\n"
                   << Describe(s));
      // Reaching: never dead. A control: dead as before.
      CHECK((s.state == Liveness::kDead) != m.reaches);
      ++(m.reaches ? reaching : controls);
      if (m.reaches) ++states[LivenessName(s.state)];
    }
  }
  MESSAGE(seeds << " seeds: " << reaching << " reaching mutations (" << states["live"] << " live, "
                << states["unknown"] << " unknown), " << controls << " controls left dead");
}

}  // namespace muh
