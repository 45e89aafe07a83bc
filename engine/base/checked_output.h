// Output whose failure is noticed: `muhpatch diff > /dev/full` must exit
// non-zero, not print a patch into the void and report success. Writes go
// straight to the descriptor with write(2), so no stdio or iostream buffer
// can hide an error until exit.
#pragma once

#include <string>
#include <string_view>

namespace muh {

// Writes all of BYTES to FD, retrying after EINTR and short writes. On
// failure returns false and sets *err, e.g. "cannot write (No space left on
// device)"; EPIPE reads "cannot write (the reader closed the pipe)" and
// EBADF "cannot write (the descriptor is not open)". (With SIGPIPE at its
// default a closed pipe kills the process first; EPIPE is seen only when
// SIGPIPE is ignored.)
bool WriteAllToFd(int fd, std::string_view bytes, std::string* err);

// WriteAllToFd on standard output.
bool WriteStdout(std::string_view bytes, std::string* err);

// Closes FD and reports a failure close(2) returns (NFS and some FUSE file
// systems report a failed write only here); EINTR counts as closed.
bool CloseChecked(int fd, std::string* err);

// Call once, after the last output: flushes std::cout and stdio's stdout
// (for output that did not go through WriteStdout), then closes descriptor 1
// and reports the first failure of any of these, e.g. "cannot write stdout
// (No space left on device)".
bool FinishStdout(std::string* err);

// The end of every run: FinishStdout, and a failure said on stderr, turning
// `code` into kExitInternal.
int FinishOutput(int code);

}  // namespace muh
