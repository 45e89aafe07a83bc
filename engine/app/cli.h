// Command-line front end: one table of subcommands, "did you mean" for typos.
#pragma once

namespace muh {

// Parses argv, runs the subcommand and returns the process exit code.
int RunCli(int argc, char** argv);

}  // namespace muh
