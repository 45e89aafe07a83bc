#include "engine/base/diagnostic.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("diagnostic formats as file:line:col: severity: message") {
  CHECK(MakeError("rules.yaml", 3, 7, "unknown key 'qurey'").Format() ==
        "rules.yaml:3:7: error: unknown key 'qurey'");
  CHECK(MakeNote("a.py", 12, 0, "skipped").Format() == "a.py:12: note: skipped");
  CHECK(MakeError("tree", 0, 0, "missing").Format() == "tree: error: missing");
}

TEST_CASE("HasErrors ignores notes") {
  CHECK_FALSE(HasErrors({MakeNote("a", 1, 1, "n")}));
  CHECK(HasErrors({MakeNote("a", 1, 1, "n"), MakeError("b", 1, 1, "e")}));
}

}  // namespace muh
