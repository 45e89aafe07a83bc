#include "engine/base/quick_exit.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("a quick exit is not allowed unless main allows it") {
  // The test binary runs commands in-process: they must tear down.
  CHECK_FALSE(QuickExitAllowed());
}

}  // namespace muh
