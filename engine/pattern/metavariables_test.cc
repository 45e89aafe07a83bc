#include "engine/pattern/metavariables.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("metavariables become placeholders that map back to the pattern") {
  Substituted sub;
  std::size_t at = 0;
  std::string err;
  REQUIRE(SubstituteMetavariables("f($A, $$$REST) + $_", &sub, &at, &err));
  CHECK(sub.text == "f(_muh_mv_A_, _muh_seq_REST_) + _muh_mv__");
  REQUIRE(sub.metavariables.size() == 3);
  CHECK(sub.metavariables[0].name == "A");
  CHECK(sub.metavariables[1].sequence);
  CHECK(sub.metavariables[1].name == "REST");
  CHECK(sub.metavariables[2].name == "_");
  CHECK(sub.Original(0) == 0);   // f
  CHECK(sub.Original(5) == 2);   // inside _muh_mv_A_: where $A starts
  CHECK(sub.Original(12) == 4);  // the ',' after it
  CHECK(sub.Original(sub.text.size() - 1) == 17);
  CHECK(sub.Find("_muh_seq_REST_")->name == "REST");
  CHECK(sub.Find("_muh_mv_B_") == nullptr);
}

TEST_CASE("a '$' that starts no metavariable is an error at it") {
  Substituted sub;
  std::size_t at = 0;
  std::string err;
  CHECK_FALSE(SubstituteMetavariables("x = $ + 1", &sub, &at, &err));
  CHECK(at == 4);
  CHECK_FALSE(SubstituteMetavariables("x = $1", &sub, &at, &err));
  CHECK(at == 4);
  CHECK(SubstituteMetavariables("x = $$$", &sub, &at, &err));
}

}  // namespace muh
