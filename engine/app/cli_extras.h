// The CLI's options that belong to no subcommand: -q, --color, --version and
// `help [COMMAND]`, and the answer to an option typo. cli.cc adds them to
// its CLI11 app; kept apart so the subcommand table stays readable.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "engine/base/colour.h"

namespace muh {

struct GlobalOptions {
  bool quiet = false;                     // -q: no notes or info on stderr
  ColourMode colour = ColourMode::kAuto;  // --color=auto|always|never
  std::string help_topic;                 // `help COMMAND`
};

// -q/--quiet, --color and --version (`muhpatch X.Y.Z`, the CMake project's
// version) on `app`, writing into `out`.
void AddGlobalOptions(CLI::App* app, GlobalOptions* out);

// The `help [COMMAND]` subcommand.
CLI::App* AddHelpCommand(CLI::App* app, GlobalOptions* out);

// Prints the help of `app`, or of its subcommand `topic`, on stdout and
// returns 0; an unknown topic is an error with a suggestion (exit 2).
int PrintHelp(const CLI::App& app, const std::string& topic);

// The message for arguments CLI11 did not expect. An option close to one
// the subcommand (or muhpatch itself) has is answered with a suggestion:
// "unknown option '--pach' (did you mean '--patch'?)"; otherwise CLI11's
// message stands.
std::string ExplainExtras(const CLI::App& app, const CLI::ExtrasError& e);

}  // namespace muh
