// The journal of one WriteAll: the temp and backup files it made and how far
// it got, so that the next run can finish or undo an apply that was killed.
// It lives at the tree's root, where the tree's lock is taken (flock on the
// root directory), and exists only while an apply writes or after one died.
//
// Format (text, one record a line, paths %XX-escaped):
//   muhpatch-journal 1
//   state preparing|committing|rolling-back|committed
//   file TARGET TEMP BACKUP OLD_SIZE OLD_HASH NEW_SIZE NEW_HASH
//   ...
//   end
// Paths are relative to the tree's real root; hashes are 16 hex digits of
// ContentHash. TEMP and BACKUP lie in TARGET's directory and are named
// `.<basename of TARGET>.muhpatch-tmp.<...>`; a journal naming anything else
// is refused, so recovery never touches a file that is not its own.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace muh {

// Names at the tree's root. The journal is replaced atomically: written to
// kJournalNewName, fsynced, then renamed over kJournalName.
inline constexpr char kJournalName[] = ".muhpatch-journal";
inline constexpr char kJournalNewName[] = ".muhpatch-journal.new";

// Marks WriteAll's own files: `.<basename>.muhpatch-tmp.<pid>[-<n>].new` (the
// new content) and `.old` (a hard link to the old content). Files with this
// infix that no journal names are never removed.
inline constexpr char kTempInfix[] = ".muhpatch-tmp.";

enum class JournalState {
  kPreparing,    // temps and backups being made; no target renamed yet
  kCommitting,   // every temp complete and synced; targets being renamed
  kRollingBack,  // a failure: renamed targets being restored from backups
  kCommitted,    // every target renamed and synced; backups being removed
};

struct JournalEntry {
  std::string target;  // relative to the tree's real root
  std::string temp;    // the new content until renamed over target
  std::string backup;  // a hard link to target's old content
  std::uint64_t old_size = 0;
  std::uint64_t old_hash = 0;
  std::uint64_t new_size = 0;
  std::uint64_t new_hash = 0;
};

struct Journal {
  JournalState state = JournalState::kPreparing;
  std::vector<JournalEntry> entries;
};

// 64-bit FNV-1a of BYTES: tells a complete temp file from a torn one, and the
// old content from the new, in recovery. Not a defence against an adversary.
std::uint64_t ContentHash(std::string_view bytes);

std::string FormatJournal(const Journal& journal);

// Parses TEXT (FormatJournal's output). On failure sets *err, e.g.
// "line 3: temp file must lie beside its target".
bool ParseJournal(std::string_view text, Journal* out, std::string* err);

}  // namespace muh
