#include "engine/rules/raw_search_spaces.h"

#include <doctest/doctest.h>

namespace muh {

namespace {

std::string Read(const std::string& text, std::vector<SearchSpace>* spaces) {
  std::vector<Diagnostic> errors;
  const std::string path = "s.yaml";  // the reader keeps references
  YamlReader reader(path, text, &errors);
  std::vector<RuleLoc> locs;
  ReadSearchSpaces(&reader, YAML::Load(text), spaces, &locs);
  std::string out;
  for (const Diagnostic& d : errors) out += d.Format() + "\n";
  return out;
}

}  // namespace

TEST_CASE("a search space reads its dimensions as Python literals") {
  std::vector<SearchSpace> spaces;
  CHECK(Read("fa:\n  kernel: attention\n  dims:\n    BLOCK_M: [64, 128]\n"
             "    PRE_LOAD_V: [false]\n",
             &spaces) == "");
  REQUIRE(spaces.size() == 1);
  CHECK(spaces[0].dims[0].second == std::vector<std::string>{"64", "128"});
  CHECK(spaces[0].dims[1].second == std::vector<std::string>{"False"});
}

TEST_CASE("a dimension that is not a list is located") {
  std::vector<SearchSpace> spaces;
  CHECK(Read("fa:\n  kernel: attention\n  dims:\n    BLOCK_M: 64\n", &spaces) ==
        "s.yaml:4:14: error: a dimension must be a non-empty list of values\n");
}

}  // namespace muh
