#include "engine/base/idle_priority.h"

#include <doctest/doctest.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <thread>

namespace muh {

TEST_CASE("a thread lowered to idle priority leaves the others as they were") {
  const int before = ::getpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)));
  int inside = -100;
  bool lowered = false;
  std::thread t([&] {
    lowered = LowerThisThreadToIdlePriority();
    inside = ::getpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)));
  });
  t.join();
  REQUIRE(lowered);
  CHECK(inside == 19);
  CHECK(::getpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid))) == before);
}

}  // namespace muh
