#include "engine/plan/edit.h"

#include <doctest/doctest.h>

namespace muh {

namespace {
Edit E(std::size_t off, std::size_t len, std::string text, std::string rule = "r") {
  return Edit{"a.py", off, len, std::move(text), std::move(rule), ""};
}
}  // namespace

TEST_CASE("edits apply last to first") {
  EditSet set;
  Edit c;
  REQUIRE(set.Add(E(8, 1, "64"), &c));
  REQUIRE(set.Add(E(0, 1, "BB"), &c));
  CHECK(ApplyEdits("A = 1\nB=2\n", set.edits()) == "BB = 1\nB=64\n");
}

TEST_CASE("overlap is refused and names the other edit") {
  EditSet set;
  Edit c;
  REQUIRE(set.Add(E(4, 3, "x", "first"), &c));
  CHECK_FALSE(set.Add(E(6, 2, "y", "second"), &c));
  CHECK(c.rule_id == "first");
  CHECK_FALSE(set.Add(E(5, 0, "ins", "third"), &c));
}

TEST_CASE("identical edits merge, adjacent edits are allowed") {
  EditSet set;
  Edit c;
  REQUIRE(set.Add(E(4, 3, "x", "a"), &c));
  REQUIRE(set.Add(E(4, 3, "x", "b"), &c));
  CHECK(set.edits().size() == 1);
  REQUIRE(set.Add(E(7, 1, "y"), &c));
  REQUIRE(set.Add(E(2, 2, "z"), &c));
  REQUIRE(set.Add(E(7, 0, "i"), &c));
  CHECK(set.edits().size() == 4);
  CHECK_FALSE(set.Add(E(7, 0, "j"), &c));
  CHECK(ApplyEdits("0123456789", set.edits()) == "01zxiy89");
}

TEST_CASE("removing edits keeps the others in order") {
  EditSet set;
  Edit c;
  REQUIRE(set.Add(E(0, 1, "a", "keep"), &c));
  REQUIRE(set.Add(E(4, 1, "b", "drop"), &c));
  REQUIRE(set.Add(E(8, 1, "c", "keep"), &c));
  CHECK(set.RemoveIf([](const Edit& e) { return e.rule_id == "drop"; }) == 1);
  CHECK(ApplyEdits("0123456789", set.edits()) == "a1234567c9");
}

}  // namespace muh
