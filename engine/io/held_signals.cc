#include "engine/io/held_signals.h"

#include <unistd.h>

namespace muh {

namespace {

constexpr int kHeld[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

volatile std::sig_atomic_t noted = 0;

extern "C" void NoteSignal(int sig) {
  if (noted == 0) noted = sig;
}

}  // namespace

HeldSignals::HeldSignals() {
  struct sigaction note = {};
  note.sa_handler = NoteSignal;
  sigemptyset(&note.sa_mask);
  note.sa_flags = SA_RESTART;
  for (int i = 0; i < 4; ++i) {
    held_[i] = false;
    if (sigaction(kHeld[i], nullptr, &old_[i]) != 0) continue;
    // A signal the process ignores (nohup, a background job's SIGINT)
    // stays ignored: holding it would end a run that ignores it.
    if (old_[i].sa_handler == SIG_IGN) continue;
    held_[i] = sigaction(kHeld[i], &note, nullptr) == 0;
  }
}

HeldSignals::~HeldSignals() {
  bool outer = false;  // a holder around this one takes the signal on
  for (int i = 0; i < 4; ++i) {
    if (!held_[i]) continue;
    sigaction(kHeld[i], &old_[i], nullptr);
    if (kHeld[i] == noted && old_[i].sa_handler == NoteSignal) outer = true;
  }
  int sig = noted;
  if (sig == 0 || outer) return;
  noted = 0;
  // Said before the signal ends the process: the exit status alone (128+N)
  // would not tell that it came during the write, which finished first.
  const char msg[] =
      "muhpatch: a signal arrived while the tree was being written; it ends muhpatch now, "
      "after the write and its report\n";
  ssize_t ignored = write(STDERR_FILENO, msg, sizeof msg - 1);
  (void)ignored;
  std::raise(sig);
}

int HeldSignals::Noted() { return noted; }

}  // namespace muh
