#include "engine/base/edit_distance.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("edit distance") {
  CHECK(EditDistance("", "") == 0);
  CHECK(EditDistance("kitten", "sitting") == 3);
  CHECK(EditDistance("qurey", "query") == 1);
}

TEST_CASE("did you mean") {
  std::vector<std::string> commands{"apply", "diff", "verify", "model"};
  CHECK(DidYouMean("aply", commands) == " (did you mean 'apply'?)");
  CHECK(DidYouMean("verfy", commands) == " (did you mean 'verify'?)");
  CHECK(DidYouMean("frobnicate", commands).empty());
}

}  // namespace muh
