#include "engine/base/glob.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("literal paths") {
  CHECK(GlobMatch("vllm/a.py", "vllm/a.py"));
  CHECK_FALSE(GlobMatch("vllm/a.py", "vllm/a.pyc"));
  CHECK_FALSE(IsGlob("vllm/a.py"));
  CHECK(IsGlob("vllm/*.py"));
}

TEST_CASE("star stays within a segment") {
  CHECK(GlobMatch("vllm/*.py", "vllm/a.py"));
  CHECK_FALSE(GlobMatch("vllm/*.py", "vllm/x/a.py"));
  CHECK(GlobMatch("vllm/?.py", "vllm/a.py"));
  CHECK_FALSE(GlobMatch("vllm/?.py", "vllm/ab.py"));
}

TEST_CASE("double star spans segments") {
  CHECK(GlobMatch("**/*.py", "a.py"));
  CHECK(GlobMatch("**/*.py", "vllm/x/y/a.py"));
  CHECK(GlobMatch("vllm/**/paged_attn.py", "vllm/paged_attn.py"));
  CHECK(GlobMatch("vllm/**/paged_attn.py", "vllm/attention/ops/paged_attn.py"));
  CHECK_FALSE(GlobMatch("vllm/**/paged_attn.py", "other/attention/paged_attn.py"));
  CHECK(GlobMatch("vllm/**", "vllm/a/b.py"));
}

TEST_CASE("character classes") {
  CHECK(GlobMatch("v[a-z]llm.py", "vxllm.py"));
  CHECK_FALSE(GlobMatch("v[!a-z]llm.py", "vxllm.py"));
  CHECK(GlobMatch("a[.py", "a[.py"));
}

}  // namespace muh
