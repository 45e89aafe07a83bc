// What a write to the tree did, in terms the caller turns into an exit code.
// TreeIo::WriteAll and TreeIo::RecoverInterruptedApply both return one.
#pragma once

#include <string>
#include <vector>

namespace muh {

// The state the tree is left in.
enum class WriteState {
  kUnchanged,   // no target was touched: refused before writing, or a failure
                // before the first rename (temps and backups removed again)
  kRolledBack,  // some targets were replaced, then every one was restored
  kWritten,     // every target holds its new content (for recovery: the
                // interrupted apply was rolled forward)
  kTorn,        // a rollback failed: exactly the targets in `new_files` hold
                // their new content, every other target its old content
};

// Why a write failed. kNone exactly when it succeeded.
enum class FailureCause {
  kNone,
  kBadInput,  // the tree refused (permissions, EBUSY, a read-only or full
              // path, a file that is not regular or too large)
  kConflict,  // a target changed on disk since the plan read it
  kResource,  // the system ran short or failed (ENOSPC, EMFILE, EIO, ENOMEM)
  kInternal,  // an unreadable journal or another state muhpatch cannot explain
};

struct WriteResult {
  WriteState state = WriteState::kUnchanged;
  FailureCause cause = FailureCause::kNone;
  std::vector<std::string> new_files;  // with kTorn: the targets left new; after a
                                       // recovery that rolled forward: every target
  std::vector<std::string> removed;    // muhpatch's own files removed (recovery)
  std::vector<std::string> leftovers;  // muhpatch's own files it could not remove;
                                       // the journal names them for the next run

  bool ok() const { return cause == FailureCause::kNone; }
};

// The exit code for R (engine/base/exit_codes.h): 0 when it succeeded; 3
// (kExitWriteFailed) only when the tree is torn; otherwise no target holds
// new content, and the code is that of the cause: 2 for kBadInput and
// kConflict, 4 for kResource and kInternal.
int ExitCodeFor(const WriteResult& r);

// The cause an errno from a write, rename, link or open stands for.
FailureCause CauseOfErrno(int e);

}  // namespace muh
