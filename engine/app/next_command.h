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

// CommandLine with `options` (each with its leading space) right after the
// command word.
std::string CommandLineWith(const CommandOptions& opts, std::string_view command,
                            std::string_view options);

// The command that writes the patch afresh: `muhpatch diff ... > PATCH`.
std::string RefreshPatchCommand(const CommandOptions& opts);

// The command that makes the patch again from the pre-image:
// `muhpatch diff --base-patch PATCH -o PATCH RULES TREE ...`.
std::string BasePatchCommand(const CommandOptions& opts);

// What verify tells the user to run to bring PATCH up to date: on a tree
// that carries PATCH, BasePatchCommand (a plain diff would write an empty
// patch over it); else RefreshPatchCommand, saying so when it would write
// an empty patch over a non-empty one (`empties_patch`).
std::string RefreshCommand(const CommandOptions& opts, bool tree_carries_patch, bool empties_patch);

}  // namespace muh
