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
  noted = 0;
  struct sigaction note = {};
  note.sa_handler = NoteSignal;
  sigemptyset(&note.sa_mask);
  note.sa_flags = SA_RESTART;
  for (int i = 0; i < 4; ++i) sigaction(kHeld[i], &note, &old_[i]);
}

HeldSignals::~HeldSignals() {
  for (int i = 0; i < 4; ++i) sigaction(kHeld[i], &old_[i], nullptr);
  int sig = noted;
  noted = 0;
  if (sig == 0) return;
  // Said before the signal ends the process: the exit status alone (128+N)
  // would not tell that the write finished.
  const char msg[] =
      "muhpatch: a signal arrived while the tree was being written; the write finished "
      "first (all files or none), and the signal now ends muhpatch\n";
  ssize_t ignored = write(STDERR_FILENO, msg, sizeof msg - 1);
  (void)ignored;
  std::raise(sig);
}

int HeldSignals::Noted() { return noted; }

}  // namespace muh
