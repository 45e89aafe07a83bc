#include "engine/base/text.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("word characters are an identifier's bytes") {
  CHECK(IsWordChar('a'));
  CHECK(IsWordChar('Z'));
  CHECK(IsWordChar('7'));
  CHECK(IsWordChar('_'));
  CHECK(IsWordChar('\xc3'));  // a UTF-8 lead byte
  CHECK_FALSE(IsWordChar('.'));
  CHECK_FALSE(IsWordChar(' '));
  CHECK_FALSE(IsWordChar('('));
}

TEST_CASE("trim drops whitespace at both ends only") {
  CHECK(Trim("  a b \t\n") == "a b");
  CHECK(Trim("") == "");
  CHECK(Trim(" \r\n") == "");
  CHECK(Trim("x") == "x");
}

}  // namespace muh
