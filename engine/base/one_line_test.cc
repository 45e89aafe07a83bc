#include "engine/base/one_line.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("one line: blanks fold, long text is cut with an ellipsis") {
  CHECK(OneLine("  a\n\tb  c\r\n", 40) == "a b c");
  CHECK(OneLine("abcdefghij", 8) == "abcde...");
  CHECK(OneLine("abcdefgh", 8) == "abcdefgh");
}

TEST_CASE("one line exact: line breaks become spaces, other blanks stay") {
  CHECK(OneLineExact("a  =\n  1\r\n", 40) == "a  =   1");
  CHECK(OneLineExact("abcdefghij", 8) == "abcde...");
}

}  // namespace muh
