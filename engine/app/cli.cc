#include "engine/app/cli.h"

#include <CLI/CLI.hpp>
#include <exception>
#include <functional>
#include <iostream>
#include <new>
#include <string>
#include <system_error>
#include <vector>

#include "engine/app/cli_extras.h"
#include "engine/app/commands.h"
#include "engine/app/diag_output.h"
#include "engine/app/verify.h"
#include "engine/base/checked_output.h"
#include "engine/base/colour.h"
#include "engine/base/edit_distance.h"
#include "engine/base/exit_codes.h"
#include "engine/base/logging.h"
#include "engine/base/out_of_memory.h"

namespace muh {

namespace {

struct CommandSpec {
  const char* name;
  const char* help;
  int positionals;     // 2: RULES TREE; 1: RULES TESTS (test); 0: [RULES] (model)
  bool takes_patch;    // --patch
  bool takes_explain;  // --explain
  std::function<int(const CommandOptions&)> run;
  std::vector<std::string> formats = {};  // --format choices, the first the default
};

const std::vector<CommandSpec>& Commands() {
  static const std::vector<CommandSpec> kCommands = {
      {"diff",
       "print the unified diff the rules produce; modify nothing",
       2,
       false,
       true,
       RunDiff,
       {"text", "markdown"}},
      {"apply", "rewrite the tree in place: all files or none", 2, false, true, RunApply},
      {"verify",
       "fail (exit 1) when the tree or the committed patch has drifted",
       2,
       true,
       true,
       RunVerify,
       {"text", "json", "sarif", "github"}},
      {"status",
       "one row per knob site: where, its value, the model's, what diff would do",
       2,
       false,
       false,
       RunStatus,
       {"text", "json", "markdown"}},
      {"model", "print every value the BI-V100 model derives (RULES adds its workload)", 0, false,
       true, RunModel},
      {"test", "run rule tests: snippets each rule must and must not rewrite", 1, false, false,
       RunRuleTestsCommand},
  };
  return kCommands;
}

void SetUpLogging(int verbosity, bool quiet) {
  // -q and colour: diag_output.h. RunCli may run more than once in a
  // process (fuzz_cli): SetUp starts both logs afresh.
  logging::SetUp(verbosity, quiet, DiagToStderr(quiet, ColourStderr()));
  SetVerbosity(verbosity, quiet);
}

// RunCli, but for what nothing below catches: out of memory and the like.
// Parses the arguments and runs the command (or prints help or the
// version); its exit code.
int Dispatch(int argc, char** argv) {
  std::vector<std::string> names;
  for (const CommandSpec& c : Commands()) names.push_back(c.name);
  if (argc >= 2 && argv[1][0] != '-') {
    std::string word = argv[1];
    bool known = false;
    for (const std::string& n : names) known = known || n == word;
    known = known || word == "help";
    if (!known) {
      names.push_back("help");
      std::cerr << "muhpatch: error: unknown command '" << word << "'" << DidYouMean(word, names)
                << "\n";
      return kExitBadInput;
    }
  }
  CLI::App app{"muhpatch: rewrite the tuning knobs of enginex-vllm from declared rules",
               "muhpatch"};
  app.require_subcommand(1);
  app.fallthrough();  // -v may follow the subcommand too
  int verbosity = 0;
  app.add_flag("-v,--verbose", verbosity,
               "log more on stderr (-vv: phase timings, -vvv: every file searched)");
  GlobalOptions global;
  AddGlobalOptions(&app, &global);
  CommandOptions opts;
  std::vector<std::pair<CLI::App*, const CommandSpec*>> subs;
  for (const CommandSpec& c : Commands()) {
    CLI::App* sub = app.add_subcommand(c.name, c.help);
    if (c.positionals == 2) {
      sub->add_option("RULES", opts.inputs.rules_path, "rule file (YAML)")->required();
      sub->add_option("TREE", opts.tree_path, "root of the source tree")->required();
      sub->add_option("--rule", opts.inputs.only_rules, "run only this rule (repeatable)")
          ->allow_extra_args(false);
    } else if (c.positionals == 1) {
      sub->add_option("RULES", opts.inputs.rules_path, "rule file (YAML)")->required();
      sub->add_option("TESTS", opts.tests_path, "rule tests (YAML)")->required();
    } else {
      sub->add_option("RULES", opts.inputs.rules_path, "rule file whose workload to use");
      sub->add_option("--tree", opts.tree_path,
                      "a source tree: say where each quantity is written and whether it runs");
    }
    sub->add_option("--hw", opts.inputs.hw_path, "hardware profile (YAML) over the built-in bi100");
    sub->add_option("--hf-config", opts.inputs.hf_config_path,
                    "the served model's Hugging Face config.json: heads, head_dim, experts");
    sub->add_option("--serve-args", opts.inputs.serve_args_path,
                    "a file holding the serving command line (the vllm serve arguments)");
    // One value per --set/--rule, so positionals after them stay positionals.
    sub->add_option("--set", opts.inputs.sets, "override a fact: FACT=VALUE (repeatable)")
        ->allow_extra_args(false);
    if (c.takes_explain) {
      sub->add_flag("--explain", opts.explain, "say which derivation produced each value");
    }
    sub->add_option("--measurements", opts.inputs.measurements_path,
                    "measured times of the knobs' candidates (muhpatch-probe/1 JSON): they "
                    "decide over the model where they have data");
    if (c.positionals == 2) {
      sub->add_flag("--include-dead", opts.include_dead,
                    "also rewrite sites the liveness analysis finds dead on the served platform");
      sub->add_flag("--retune", opts.inputs.retune,
                    "overwrite hand-tuned values (neither upstream's nor the model's) too");
    }
    if (std::string(c.name) == "diff") {
      sub->add_option("--base-patch", opts.base_patch_path,
                      "make the patch from the pre-image: the tree with FILE (a patch muhpatch "
                      "wrote) undone, keeping the values tuned by hand since");
      sub->add_option("-o", opts.output_path,
                      "write the patch to FILE, whole or not at all (it may be --base-patch's)");
    }
    if (std::string(c.name) == "apply") {
      sub->add_flag("--keep-going", opts.keep_going,
                    "when some rules fail, still write the files of the rules that planned");
    }
    if (c.positionals == 2 && !c.takes_patch) {
      sub->add_option("--patch", opts.patch_path,
                      "the patch muhpatch wrote before: a site holding its `+` value is not "
                      "hand-tuned");
    }
    if (c.takes_patch) {
      sub->add_option("--patch", opts.patch_path, "the committed patch to compare");
      if (std::string(c.name) == "verify") {
        sub->add_option("-p", opts.strip,
                        "strip N leading components from the patch's file names, as git apply "
                        "-p N does (default 1)")
            ->check(CLI::NonNegativeNumber);
      }
      sub->add_option("--threads", opts.threads,
                      "workers for the whole-tree search (0: one per core)");
    }
    if (!c.formats.empty()) {
      std::string choices;
      for (const std::string& f : c.formats) choices += (choices.empty() ? "" : ", ") + f;
      sub->add_option("--format", opts.format,
                      "output format: " + choices + " (default " + c.formats.front() + ")")
          ->check(CLI::IsMember(c.formats));
    }
    subs.emplace_back(sub, &c);
  }
  CLI::App* help = AddHelpCommand(&app, &global);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ExtrasError& e) {
    std::cerr << "muhpatch: error: " << ExplainExtras(app, e) << "\n";
    return kExitBadInput;
  } catch (const CLI::ParseError& e) {
    std::cerr << "muhpatch: error: " << e.what() << "\n";
    return kExitBadInput;
  }
  if (help->parsed()) return PrintHelp(app, global.help_topic);
  // An empty argument (an unset variable in a CI script) names nothing:
  // taken as "not given", `verify RULES ''` would check no tree and pass.
  for (const auto& [sub, spec] : subs) {
    if (!sub->parsed()) continue;
    for (const CLI::Option* o : sub->get_options()) {
      for (const std::string& r : o->results()) {
        if (!r.empty()) continue;
        std::cerr << "muhpatch: error: " << o->get_name() << ": an empty argument names nothing\n";
        return kExitBadInput;
      }
    }
  }
  SetColourMode(global.colour);
  SetUpLogging(verbosity, global.quiet);
  SetExplainDerivations(opts.explain);
  int code = kExitBadInput;
  for (const auto& [sub, spec] : subs) {
    if (sub->parsed()) code = spec->run(opts);
  }
  return code;
}

int Run(int argc, char** argv) {
  const int code = Dispatch(argc, argv);
  // stdout is the product: a write that failed (a full disk, a closed
  // descriptor) must not read as success. Help and the version too go
  // through std::cout, and are flushed here, not at exit, so that nothing
  // of one run is left buffered for the next (fuzz_cli runs many in one
  // process).
  return FinishOutput(code);
}

}  // namespace

int RunCli(int argc, char** argv) {
  try {
    return Run(argc, argv);
  } catch (const std::bad_alloc&) {
    // Every write to the tree (apply) catches its own bad_alloc and says
    // what it left (tree_commit.cc, RunApply): one that arrives here left
    // no file changed.
    ReleaseMemoryReserve();
    WriteOutOfMemory("");
    return kExitInternal;
  } catch (const std::system_error& e) {
    // A thread that cannot start is no error (parallel.h); the system
    // running short elsewhere is said as such.
    if (e.code() == std::errc::resource_unavailable_try_again ||
        e.code() == std::errc::not_enough_memory) {
      ReleaseMemoryReserve();
      std::cerr << "muhpatch: error: out of memory (" << e.what() << ")\n";
    } else {
      std::cerr << "muhpatch: internal error: " << e.what() << "\n";
    }
    return kExitInternal;
  } catch (const std::exception& e) {
    std::cerr << "muhpatch: internal error: " << e.what() << "\n";
    return kExitInternal;
  }
}

}  // namespace muh
