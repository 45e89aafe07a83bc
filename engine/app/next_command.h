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

// A path as ShellWord spells it, with `./` before one that starts with '-'
// (which muhpatch would read as an option).
std::string PathWord(std::string_view path);

// `muhpatch COMMAND RULES TREE` with the options that change what the rules
// write (--hw, --hf-config, --serve-args, --set, --rule, --include-dead).
std::string CommandLine(const CommandOptions& opts, std::string_view command);

// CommandLine with `options` (each with its leading space) right after the
// command word.
std::string CommandLineWith(const CommandOptions& opts, std::string_view command,
                            std::string_view options);

// The command that writes the patch afresh: `muhpatch diff -o PATCH ...`
// (a shell's `>` would empty PATCH even when the rules fail; -o keeps it
// then, and keeps a non-empty PATCH rather than write an empty one).
std::string RefreshPatchCommand(const CommandOptions& opts);

// The command that makes the patch again from the pre-image:
// `muhpatch diff --base-patch PATCH -o PATCH RULES TREE ...`.
std::string BasePatchCommand(const CommandOptions& opts);

// What verify tells the user to run to bring PATCH up to date: on a tree
// that carries PATCH, BasePatchCommand (a plain diff would find nothing to
// change); else RefreshPatchCommand.
std::string RefreshCommand(const CommandOptions& opts, bool tree_carries_patch);

}  // namespace muh
