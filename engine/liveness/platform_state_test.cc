#include "engine/liveness/platform_state.h"

#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

namespace muh {
namespace {

const char* const kInterface =
    "import enum\n\nclass PlatformEnum(enum.Enum):\n    CUDA = enum.auto()\n"
    "    ROCM = enum.auto()\n\nclass Platform:\n    _enum: PlatformEnum\n\n"
    "    def is_rocm(self) -> bool:\n        return self._enum == PlatformEnum.ROCM\n";
const char* const kCuda =
    "from .interface import Platform, PlatformEnum\n\nclass CudaPlatform(Platform):\n"
    "    _enum = PlatformEnum.CUDA\n";
const char* const kInit =
    "from .cuda import CudaPlatform\ncurrent_platform = None\nif True:\n"
    "    current_platform = CudaPlatform()\n";

std::optional<Evidence> Rebound(const std::string& main, const std::string& name,
                                const char* cuda = kCuda, const char* interface = kInterface) {
  std::map<std::string, std::string> files = {
      {"vllm/__init__.py", ""},
      {"vllm/utils.py",
       "import torch\n\ndef is_hip():\n    return torch.version.hip is not None\n"},
      {"vllm/platforms/__init__.py", kInit},
      {"vllm/platforms/interface.py", interface},
      {"vllm/platforms/cuda.py", cuda},
      {"app/main.py", main}};
  ReadFn read = [&files](const std::string& p) -> std::optional<std::string_view> {
    return std::string_view(files.at(p));
  };
  std::vector<std::string> paths;
  for (const auto& [p, text] : files) paths.push_back(p);
  LivenessFacts facts;
  TreeIndex index(paths, read, facts);
  return PlatformStateRebound(&index, name);
}

TEST_CASE("vLLM's own platform classes and the choice of current_platform rebind nothing") {
  CHECK_FALSE(Rebound("from vllm.platforms import current_platform\n", "is_rocm"));
  CHECK_FALSE(Rebound("x = 1\n", "is_hip"));
  CHECK_FALSE(
      Rebound("class Cfg:\n    def set(self, k, v):\n        setattr(self, k, v)\n", "is_rocm"));
  CHECK_FALSE(Rebound("tok.__class__ = Cached\n", "is_rocm"));  // not the platform
  CHECK_FALSE(Rebound("x = 1\n", "not_a_predicate"));
}

TEST_CASE("a predicate or the state it reads, rebound anywhere, is named") {
  // A helper probe of 3cee5a3: each of these ran a branch on is_rocm() or
  // is_hip() that muhpatch called never taken on cuda.
  struct Case {
    const char* main;
    const char* name;
    int line;
  };
  const Case cases[] = {
      {"import vllm.utils\nvllm.utils.is_hip = lambda: True\n", "is_hip", 2},
      {"import vllm.utils\nsetattr(vllm.utils, 'is_hip', lambda: True)\n", "is_hip", 2},
      {"import torch\ntorch.version.hip = '5.7'\n", "is_hip", 2},
      {"from vllm.platforms.cuda import CudaPlatform\nCudaPlatform.is_rocm = lambda s: True\n",
       "is_rocm", 2},
      {"from vllm.platforms import current_platform\ncurrent_platform._enum = 2\n", "is_rocm", 2},
      {"from vllm.platforms import current_platform as p\n"
       "from vllm.platforms.rocm import R\np.__class__ = R\n",
       "is_rocm", 3},
      {"import vllm.platforms\nvllm.platforms.current_platform = object()\n", "is_rocm", 2},
      {"from vllm.platforms import current_platform\nn = 'is_' + 'rocm'\n"
       "setattr(current_platform, n, lambda: True)\n",
       "is_rocm", 3},
      {"import vllm.platforms\nsetattr(vllm.platforms, 'current_platform', None)\n", "is_rocm", 2},
  };
  for (const Case& c : cases) {
    auto e = Rebound(c.main, c.name);
    REQUIRE_MESSAGE(e, std::string(c.main));
    CHECK_MESSAGE(e->path == "app/main.py", std::string(c.main));
    CHECK_MESSAGE(e->line == c.line, std::string(c.main));
    CHECK_MESSAGE(e->what.find("is not read from the platform") != std::string::npos, e->what);
  }
}

TEST_CASE("a platform class given another member, or an aliased member, is named") {
  auto own = Rebound("x = 1\n", "is_rocm",
                     "from .interface import Platform, PlatformEnum\n\n"
                     "class CudaPlatform(Platform):\n    _enum = PlatformEnum.ROCM\n");
  REQUIRE(own);
  CHECK(own->path == "vllm/platforms/cuda.py");
  CHECK(own->line == 4);
  std::string aliased = kInterface;
  aliased.replace(aliased.find("CUDA = enum.auto()"), 18, "CUDA = 1");
  auto alias = Rebound("x = 1\n", "is_rocm", kCuda, aliased.c_str());
  REQUIRE(alias);
  CHECK(alias->path == "vllm/platforms/interface.py");
  CHECK(alias->what.find("not auto()") != std::string::npos);
  // utils.py defines is_hip once and rebinds it nowhere.
  auto byname = Rebound("x = 1\n", "is_hip");
  CHECK_FALSE(byname);
}

}  // namespace
}  // namespace muh
