#include "engine/plan/record_path.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("RecordPath: an ordinary path is written as is") {
  CHECK(RecordPath("vllm/attention/ops/paged_attn.py") == "vllm/attention/ops/paged_attn.py");
  CHECK(RecordPath("vllm/a b/@x=1.py") == "vllm/a b/@x=1.py");
}

TEST_CASE("RecordPath: the bytes that would split or cut an entry are escaped, and read back") {
  CHECK(RecordPath("vllm/a, b/x.py") == "vllm/a%2C b/x.py");
  CHECK(RecordPath("vllm/a; left: 0@y.py") == "vllm/a%3B left: 0@y.py");
  CHECK(RecordPath("50%/x.py") == "50%25/x.py");
  CHECK(RecordPath("a\nb\r.py") == "a%0Ab%0D.py");
  for (std::string p : {"vllm/a, b/x.py", "50%/x.py", "a\nb\r.py", "%2C.py", ";,%"}) {
    CHECK(ReadRecordPath(RecordPath(p)) == p);
  }
}

TEST_CASE("ReadRecordPath: a `%` without two hex digits is no recorded path") {
  CHECK(ReadRecordPath("a%2") == std::nullopt);
  CHECK(ReadRecordPath("a%") == std::nullopt);
  CHECK(ReadRecordPath("a%G0.py") == std::nullopt);
  CHECK(ReadRecordPath("a%2c.py") == std::optional<std::string>("a,.py"));
}

}  // namespace muh
