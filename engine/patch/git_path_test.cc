#include "engine/patch/git_path.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace muh {

TEST_CASE("paths are quoted only when git would") {
  CHECK(QuoteGitPath("a/vllm/_custom_ops.py") == "a/vllm/_custom_ops.py");
  CHECK(QuoteGitPath("a/dir b/c.py") == "a/dir b/c.py");  // git leaves spaces alone
  CHECK(QuoteGitPath("a/caf\xc3\xa9.py") == "a/caf\xc3\xa9.py");
  CHECK(QuoteGitPath("a/x\ty.py") == "\"a/x\\ty.py\"");
  CHECK(QuoteGitPath("a/a\nb.py") == "\"a/a\\nb.py\"");
  CHECK(QuoteGitPath("a/q\"b\\.py") == "\"a/q\\\"b\\\\.py\"");
  CHECK(QuoteGitPath(std::string("a/\x01\x7f.py")) == "\"a/\\001\\177.py\"");
}

TEST_CASE("quoted paths read back") {
  for (const std::string& p :
       std::vector<std::string>{"a/x\ty.py", "a/a\nb.py", "a/q\"b\\.py", "a/\x01\x7f.py"}) {
    CAPTURE(p);
    std::string q = QuoteGitPath(p) + " rest";
    std::size_t used = 0;
    auto back = UnquoteGitPath(q, &used);
    REQUIRE(back);
    CHECK(*back == p);
    CHECK(q.substr(used) == " rest");
  }
  std::size_t used = 0;
  CHECK_FALSE(UnquoteGitPath("\"a/unterminated", &used));
  CHECK_FALSE(UnquoteGitPath("\"a/\\9.py\"", &used));
  CHECK_FALSE(UnquoteGitPath("a/plain", &used));
}

}  // namespace muh
