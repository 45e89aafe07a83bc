#include "engine/liveness/tree_index.h"

#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

namespace muh {
namespace {

TEST_CASE("Occurrences finds text the word filter cannot know, such as a dashed dict key") {
  std::map<std::string, std::string> files = {
      {"a.py", "cfg = {'num-warps': 4}\nn = cfg['num-warps']\nnum = 1\n"}};
  ReadFn read = [&files](const std::string& p) -> std::optional<std::string_view> {
    return std::string_view(files.at(p));
  };
  LivenessFacts facts;
  TreeIndex index({"a.py"}, read, facts);
  CHECK(index.Occurrences("a.py", "num-warps") == std::vector<std::size_t>{8, 32});
  // Whole words: a '-' bounds a word as a space does.
  CHECK(index.Occurrences("a.py", "num") == std::vector<std::size_t>{8, 32, 44});
  CHECK(index.Occurrences("a.py", "um").empty());
  CHECK(index.Occurrences("a.py", "m-w").empty());
}

}  // namespace
}  // namespace muh
