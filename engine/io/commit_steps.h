// The single steps of a transactional write (internal to engine/io), each
// made through a SysCalls so that tests can fail it. Each returns false with
// errno set on failure.
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/io/syscalls.h"
#include "engine/io/write_journal.h"

namespace muh {
namespace io {

// Writes all of BYTES to FD, retrying after EINTR and short writes.
bool WriteFully(SysCalls* sys, int fd, std::string_view bytes);

// Reads the regular file PATH without following a final symlink and without
// blocking on a FIFO: at most LIMIT bytes (more fails with EFBIG), anything
// not a regular file fails with EINVAL. *st receives its fstat.
bool ReadRegular(SysCalls* sys, const std::string& path, std::uint64_t limit, std::string* out,
                 struct stat* st);

// True when PATH exists (lstat); false with errno set otherwise.
bool PathExists(SysCalls* sys, const std::string& path);

// fsync(2)s the directory DIR.
bool SyncDir(SysCalls* sys, const std::string& dir);

// fsyncs each of DIRS; stops at the first failure.
bool SyncDirs(SysCalls* sys, const std::vector<std::string>& dirs);

// Replaces the journal under REAL_ROOT atomically: writes kJournalNewName,
// fsyncs it, renames it over kJournalName and fsyncs the root.
bool StoreJournal(SysCalls* sys, const std::string& real_root, const Journal& journal);

// Removes the journal (and a kJournalNewName a crash left) and fsyncs the
// root; a missing journal is fine.
bool RemoveJournal(SysCalls* sys, const std::string& real_root);

// Test-only: MUHPATCH_TEST_KILL_AT=N sends SIGKILL to this process at the Nth
// write point (1-based) of the run. WriteAll has four per file: temp
// created, temp written, temp synced, renamed over the target.
void WritePoint();

}  // namespace io
}  // namespace muh
