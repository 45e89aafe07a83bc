#include "engine/base/idle_priority.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace muh {

bool LowerThisThreadToIdlePriority() {
  // On Linux PRIO_PROCESS with a thread id sets that thread's nice value.
  const auto tid = static_cast<id_t>(::syscall(SYS_gettid));
  return ::setpriority(PRIO_PROCESS, tid, 19) == 0;
}

}  // namespace muh
