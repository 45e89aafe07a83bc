// Writing one file outside any tree (diff -o FILE) whole or not at all: the
// bytes go to a temporary file in the target's directory, fsynced, then
// renamed over the target, so that a reader (or a crash) sees the old file
// or the new one, and FILE may be the very file the run read its input from.
#pragma once

#include <string>

namespace muh {

// Replaces `path` with `bytes`. A file already there keeps its permission
// bits. False, with a message without the path (for the caller to locate),
// when any step fails; the temporary file is then removed and `path` is as
// it was.
bool WriteFileAtomically(const std::string& path, const std::string& bytes, std::string* err);

}  // namespace muh
