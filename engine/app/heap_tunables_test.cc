#include "engine/app/heap_tunables.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <optional>
#include <string>

namespace muh {

namespace {

std::optional<std::string> Env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::optional<std::string>(v) : std::nullopt;
}

// Sets or unsets `name` for one test case, and puts it back after.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name), old_(Env(name)) {
    if (value != nullptr) {
      ::setenv(name, value, 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

}  // namespace

TEST_CASE("TunablesForShortRun: ours first, then the user's, which glibc reads last") {
  CHECK(TunablesForShortRun(nullptr) == "glibc.malloc.hugetlb=1:glibc.malloc.top_pad=67108864");
  CHECK(TunablesForShortRun("") == "glibc.malloc.hugetlb=1:glibc.malloc.top_pad=67108864");
  CHECK(TunablesForShortRun("glibc.malloc.hugetlb=0") ==
        "glibc.malloc.hugetlb=1:glibc.malloc.top_pad=67108864:glibc.malloc.hugetlb=0");
}

TEST_CASE("RestoreUserTunables: the second process gives the user's value back") {
  ScopedEnv tunables("GLIBC_TUNABLES", "ours");
  {
    ScopedEnv marker("MUHPATCH_HEAP_USER_TUNABLES", "=glibc.malloc.check=0");
    CHECK(RestoreUserTunables());
    CHECK(Env("GLIBC_TUNABLES") == std::optional<std::string>("glibc.malloc.check=0"));
    CHECK_FALSE(Env("MUHPATCH_HEAP_USER_TUNABLES"));
  }
  {
    ScopedEnv marker("MUHPATCH_HEAP_USER_TUNABLES", "=");
    CHECK(RestoreUserTunables());
    CHECK(Env("GLIBC_TUNABLES") == std::optional<std::string>(""));
  }
  {
    ScopedEnv marker("MUHPATCH_HEAP_USER_TUNABLES", "-");
    CHECK(RestoreUserTunables());
    CHECK_FALSE(Env("GLIBC_TUNABLES"));
  }
}

TEST_CASE("RestoreUserTunables: a first process changes nothing") {
  ScopedEnv tunables("GLIBC_TUNABLES", "glibc.malloc.check=0");
  ScopedEnv marker("MUHPATCH_HEAP_USER_TUNABLES", nullptr);
  CHECK_FALSE(RestoreUserTunables());
  CHECK(Env("GLIBC_TUNABLES") == std::optional<std::string>("glibc.malloc.check=0"));
}

}  // namespace muh
