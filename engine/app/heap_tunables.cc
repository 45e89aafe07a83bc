#include "engine/app/heap_tunables.h"

#include <sys/resource.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace muh {

namespace {

// Whether a sanitizer's allocator replaces glibc's (its tunables then do
// nothing).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitizerAllocator = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || \
    __has_feature(thread_sanitizer)
constexpr bool kSanitizerAllocator = true;
#else
constexpr bool kSanitizerAllocator = false;
#endif
#else
constexpr bool kSanitizerAllocator = false;
#endif

constexpr const char* kOurs = "glibc.malloc.hugetlb=1:glibc.malloc.top_pad=67108864";
constexpr const char* kTunables = "GLIBC_TUNABLES";
// Set in the second process's environment: "=" and the user's
// GLIBC_TUNABLES, or "-" where the user had none.
constexpr const char* kMarker = "MUHPATCH_HEAP_USER_TUNABLES";
constexpr const char* kOptOut = "MUHPATCH_HEAP";

// What this process found (the constructor runs before any thread):
// nullptr when tuned, else why not.
const char* not_tuned = "set up before main did not run";

// The executable's own path, so that the second process keeps its name
// (`ps`, `pkill muhpatch`), where /proc/self/exe would name it "exe"; that
// link itself where the path is unknown or the file was replaced.
std::string SelfPath() {
  char buf[4096];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf);
  std::string path = n > 0 && static_cast<std::size_t>(n) < sizeof buf
                         ? std::string(buf, static_cast<std::size_t>(n))
                         : std::string();
  const std::string deleted = " (deleted)";
  if (path.empty() || path[0] != '/' ||
      (path.size() >= deleted.size() &&
       path.compare(path.size() - deleted.size(), deleted.size(), deleted) == 0)) {
    return "/proc/self/exe";
  }
  return path;
}

}  // namespace

std::string TunablesForShortRun(const char* user) {
  std::string out = kOurs;
  if (user != nullptr && *user != '\0') {
    out += ':';
    out += user;
  }
  return out;
}

bool RestoreUserTunables() {
  const char* saved = std::getenv(kMarker);
  if (saved == nullptr) return false;
  if (saved[0] == '=') {
    ::setenv(kTunables, saved + 1, 1);
  } else {
    ::unsetenv(kTunables);
  }
  ::unsetenv(kMarker);
  return true;
}

void TuneHeapForShortRun(char** argv) {
  if (RestoreUserTunables()) {
    not_tuned = nullptr;
    return;
  }
  if (kSanitizerAllocator) {
    not_tuned = "a sanitizer's allocator is in use";
    return;
  }
  const char* opt = std::getenv(kOptOut);
  if (opt != nullptr && std::strcmp(opt, "default") == 0) {
    not_tuned = "MUHPATCH_HEAP=default";
    return;
  }
  // Valgrind follows an exec only when told to: the second process would
  // run outside it, unchecked.
  const char* preload = std::getenv("LD_PRELOAD");
  if (preload != nullptr && std::strstr(preload, "vgpreload") != nullptr) {
    not_tuned = "running under valgrind";
    return;
  }
  rlimit as{};
  if (::getrlimit(RLIMIT_AS, &as) != 0 || as.rlim_cur != RLIM_INFINITY) {
    not_tuned = "an address-space limit is set";
    return;
  }
  const char* user = std::getenv(kTunables);
  // Both values are copied by setenv before the environment changes.
  const std::string saved = user != nullptr ? std::string("=") + user : std::string("-");
  const std::string tunables = TunablesForShortRun(user);
  if (::setenv(kMarker, saved.c_str(), 1) != 0 || ::setenv(kTunables, tunables.c_str(), 1) != 0) {
    RestoreUserTunables();
    not_tuned = "the environment could not be set";
    return;
  }
  ::execv(SelfPath().c_str(), argv);
  // Only where executing failed (no /proc, a seccomp filter, E2BIG).
  RestoreUserTunables();
  not_tuned = "muhpatch could not execute itself again";
}

std::string HeapSetupDescription() {
  return not_tuned == nullptr ? std::string("heap: tuned: GLIBC_TUNABLES=") + kOurs
                              : std::string("heap: not tuned: ") + not_tuned;
}

}  // namespace muh
