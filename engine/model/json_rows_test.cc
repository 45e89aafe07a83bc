#include "engine/model/json_rows.h"

#include <doctest/doctest.h>

#include <string>

namespace muh {

TEST_CASE("the rows of a top-level array member, past strings and nested values") {
  std::string text =
      "{\"a\": {\"knobs\": [9]}, \"s\": \"x]\\\"[\",\n"
      " \"knobs\": [\n  [\"k\", {\"p\": [1, 2]}, \"]\"],\n  7 , \"z\"\n]}";
  std::vector<std::size_t> at = ArrayElementOffsets(text, "knobs");
  REQUIRE(at.size() == 3);
  CHECK(text.substr(at[0], 5) == "[\"k\",");
  CHECK(text[at[1]] == '7');
  CHECK(text.substr(at[2], 3) == "\"z\"");
  CHECK(ArrayElementOffsets(text, "none").empty());
  CHECK(ArrayElementOffsets("{\"knobs\": []}", "knobs").empty());
  CHECK(ArrayElementOffsets("[1]", "knobs").empty());
}

}  // namespace muh
