// Ending a short run without tearing it down. The last thing a command does
// is free what it built (a syntax tree per knob file, every module's lines
// for the liveness analysis, the files it read), work the kernel does anyway,
// and faster, when the process ends. The muhpatch binary allows skipping it
// (main.cc); tests and fuzzers, which run commands in-process, never do, nor
// do sanitizer builds, whose leak check would report all of it.
#pragma once

namespace muh {

// Allows QuickExit for the rest of the process. Call once, from main.
void AllowQuickExit();
bool QuickExitAllowed();

// The end of every run: standard output finished (FinishStdout); a failure
// is said on stderr and turns `code` into kExitInternal.
int FinishOutput(int code);

// FinishOutput, then the process ends at once with that code: no
// destructors, no atexit handlers. Only where QuickExitAllowed().
[[noreturn]] void QuickExit(int code);

}  // namespace muh
