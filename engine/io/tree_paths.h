// Path helpers shared by tree_io.cc and tree_commit.cc (internal to engine/io):
// joining and splitting real paths, and resolving a tree-relative path to a
// regular file that may be rewritten.
#pragma once

#include <sys/stat.h>

#include <string>
#include <vector>

#include "engine/base/diagnostic.h"

namespace muh {
namespace io {

// " (<strerror(E)>)", to end a message.
std::string Why(int e);

// True when REAL (a realpath) is ROOT (a realpath) or lies below it.
bool IsWithin(const std::string& real, const std::string& root);

// ROOT joined with the tree-relative REL.
std::string JoinRoot(const std::string& root, const std::string& rel);

// REAL (inside ROOT) as a tree-relative path; "." for ROOT itself.
std::string RelativeTo(const std::string& real, const std::string& root);

// The directory part of an absolute PATH; "/" for a top-level entry.
std::string DirName(const std::string& path);

std::string BaseName(const std::string& path);

// realpath(3) into *out; false with errno set on failure. ENOMEM throws
// std::bad_alloc: out of memory is never a path that does not resolve.
bool RealPath(const std::string& path, std::string* out);

bool HasDotDotComponent(const std::string& rel);

// What a file of MODE is, for "not a regular file (a FIFO)".
std::string KindOf(mode_t mode);

// A tree-relative path resolved to a regular file inside the tree.
struct Resolved {
  std::string rel;   // as the caller named it
  std::string real;  // realpath of the file
  struct stat st;    // stat of the file
};

// Resolves REL below REAL_ROOT to a regular file, or sets *err (file = REL).
bool ResolveFile(const std::string& real_root, const std::string& rel, Resolved* out,
                 Diagnostic* err);

// Resolves every path of RELS and checks that it and its directory may be
// written (see TreeIo::CheckWritable), appending each success to *resolved
// and each refusal to *errs.
bool CheckAll(const std::string& real_root, const std::vector<std::string>& rels,
              std::vector<Resolved>* resolved, std::vector<Diagnostic>* errs);

}  // namespace io
}  // namespace muh
