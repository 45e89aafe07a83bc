// The signals that end a process by default and that a user or a CI runner
// sends (SIGINT, SIGTERM, SIGHUP, SIGQUIT), held while a tree is written:
// apply changes all files or none, and a Ctrl-C between two renames would
// leave some new and some old (a helper probe of d751784 with strace's
// signal injection: exit 130, one file of three new). Each arriving signal
// is noted; when the holder goes, the handlers the process had come back
// and the first signal noted is raised again, so the process ends (or its
// own handler runs) after the write, not in the middle of it. A holder
// inside another hands the signal to the outer one (apply holds around the
// write and its report, TreeIo::WriteAll around the write alone). A signal
// the process ignores stays ignored. SIGKILL cannot be held: the journal
// (write_journal.h) covers it.
#pragma once

#include <csignal>

namespace muh {

class HeldSignals {
 public:
  HeldSignals();
  ~HeldSignals();
  HeldSignals(const HeldSignals&) = delete;
  HeldSignals& operator=(const HeldSignals&) = delete;

  // The first signal noted so far; 0 when none.
  static int Noted();

 private:
  struct sigaction old_[4];
  bool held_[4];
};

}  // namespace muh
