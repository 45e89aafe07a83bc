// The commands a finding tells the user to run next, spelled with the
// inputs this run was given (rule file, tree, --hw, --set and the rest) so
// that they can be pasted as they are.
#pragma once

#include <string>
#include <string_view>

#include "engine/app/commands.h"

namespace muh {

// `word` as a POSIX shell reads it back: as it is when it holds only
// characters no shell treats specially, else in single quotes.
std::string ShellWord(std::string_view word);

// `muhpatch COMMAND RULES TREE` with the options that change what the rules
// write (--hw, --hf-config, --serve-args, --set, --rule, --include-dead).
std::string CommandLine(const CommandOptions& opts, std::string_view command);

// The command that writes the patch afresh: `muhpatch diff ... > PATCH`.
std::string RefreshPatchCommand(const CommandOptions& opts);

}  // namespace muh
