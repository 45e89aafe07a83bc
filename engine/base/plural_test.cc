#include "engine/base/plural.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("Counted puts the noun in the count's number") {
  CHECK(Counted(0, "file") == "0 files");
  CHECK(Counted(1, "file") == "1 file");
  CHECK(Counted(2, "file") == "2 files");
  CHECK(Counted(1, "entry", "entries") == "1 entry");
  CHECK(Counted(3, "entry", "entries") == "3 entries");
}

}  // namespace muh
