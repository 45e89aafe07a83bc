#include "engine/base/out_of_memory.h"

#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <exception>
#include <new>

#include "engine/base/exit_codes.h"

namespace muh {

namespace {

std::atomic<void*> reserve{nullptr};
std::atomic<int> abrupt_code{kExitInternal};
std::atomic<const char*> abrupt_words{nullptr};
std::terminate_handler previous_terminate = nullptr;

void WriteLine(const char* detail) { WriteStderrLine({"muhpatch: error: out of memory", detail}); }

[[noreturn]] void OnTerminate() {
  if (std::exception_ptr e = std::current_exception()) {
    try {
      std::rethrow_exception(e);
    } catch (const std::bad_alloc&) {
      ExitOutOfMemory("");
    } catch (...) {
    }
  }
  if (previous_terminate != nullptr) previous_terminate();
  std::abort();
}

}  // namespace

void ReserveMemory() {
  if (reserve.load() != nullptr) return;
  void* p = ::mmap(nullptr, kMemoryReserveBytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p != MAP_FAILED) reserve.store(p);
}

void ReleaseMemoryReserve() {
  if (void* p = reserve.exchange(nullptr)) ::munmap(p, kMemoryReserveBytes);
}

void WriteOutOfMemory(const char* detail) { WriteLine(detail); }

void WriteStderrLine(std::initializer_list<std::string_view> parts) {
  struct iovec iov[9];
  int n = 0;
  for (std::string_view part : parts) {
    if (n == 8) break;
    iov[n++] = {const_cast<char*>(part.data()), part.size()};
  }
  iov[n++] = {const_cast<char*>("\n"), 1};
  (void)!::writev(STDERR_FILENO, iov, n);
}

[[noreturn]] void ExitOutOfMemory(const char* detail) {
  // Several threads may run out at once: one says so, the others wait for
  // the exit.
  static std::atomic<bool> reported{false};
  if (reported.exchange(true)) {
    for (;;) ::pause();
  }
  const char* words = abrupt_words.load();
  WriteLine(words != nullptr ? words : detail);
  ::_exit(words != nullptr ? abrupt_code.load() : kExitInternal);
}

AbruptExitNote::AbruptExitNote(int code, const char* words) {
  abrupt_code.store(code);
  abrupt_words.store(words);
}

AbruptExitNote::~AbruptExitNote() {
  abrupt_words.store(nullptr);
  abrupt_code.store(kExitInternal);
}

void InstallTerminateHandler() {
  std::terminate_handler before = std::set_terminate(OnTerminate);
  if (before != OnTerminate) previous_terminate = before;
}

}  // namespace muh
