#include "engine/liveness/predicate_definitions.h"

#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

namespace muh {
namespace {

std::optional<Evidence> Redefined(const std::string& utils, const std::string& name) {
  std::map<std::string, std::string> files = {
      {"vllm/__init__.py", ""},
      {"vllm/utils.py", utils},
      {"vllm/platforms/interface.py",
       "class Platform:\n    def is_rocm(self) -> bool:\n        \"\"\"Whether ROCm.\"\"\"\n"
       "        return self._enum == PlatformEnum.ROCM\n\n    def is_cuda_alike(self) -> bool:\n"
       "        return self._enum in (PlatformEnum.CUDA, PlatformEnum.ROCM)\n"}};
  ReadFn read = [&files](const std::string& p) -> std::optional<std::string_view> {
    return std::string_view(files.at(p));
  };
  LivenessFacts facts;
  TreeIndex index({"vllm/__init__.py", "vllm/utils.py", "vllm/platforms/interface.py"}, read,
                  facts);
  return PredicateRedefined(&index, name);
}

TEST_CASE("a platform predicate defined as vLLM defines it is read by its name") {
  const std::string utils =
      "import torch\n\n\ndef is_hip() -> bool:\n    return torch.version.hip is not None\n";
  CHECK_FALSE(Redefined(utils, "is_hip"));
  CHECK_FALSE(Redefined(utils, "is_rocm"));
  CHECK_FALSE(Redefined(utils, "is_cuda_alike"));
  CHECK_FALSE(Redefined(utils, "has_device_capability"));  // not checked
}

TEST_CASE("a platform predicate the tree defines otherwise decides nothing, naming the def") {
  // A helper probe of 68d400c: is_hip() edited to return True still had
  // the ROCm branch called never taken on cuda.
  auto e = Redefined("def is_hip() -> bool:\n    # BI-V100 runs the HIP paths\n    return True\n",
                     "is_hip");
  REQUIRE(e);
  CHECK(e->path == "vllm/utils.py");
  CHECK(e->line == 1);
  CHECK(e->what.find("defines is_hip() otherwise than vLLM") != std::string::npos);
  // A second definition anywhere (a subclass's override) counts too.
  auto sub = Redefined("class Mine:\n    def is_rocm(self):\n        return True\n", "is_rocm");
  REQUIRE(sub);
  CHECK(sub->path == "vllm/utils.py");
  CHECK(sub->line == 2);
}

}  // namespace
}  // namespace muh

namespace muh {
namespace {

std::optional<Evidence> Pinned(const std::string& cuda, int have = 70) {
  std::map<std::string, std::string> files = {{"vllm/__init__.py", ""},
                                              {"vllm/platforms/cuda.py", cuda}};
  ReadFn read = [&files](const std::string& p) -> std::optional<std::string_view> {
    return std::string_view(files.at(p));
  };
  LivenessFacts facts;
  TreeIndex index({"vllm/__init__.py", "vllm/platforms/cuda.py"}, read, facts);
  return CapabilityPinned(&index, have);
}

}  // namespace

TEST_CASE("a capability function returning a constant pins the capability the code sees") {
  auto fork = Pinned(
      "@lru_cache(maxsize=8)\ndef get_physical_device_capability(device_id: int = 0):\n"
      "    return [9, 0]\n");
  REQUIRE(fork);
  CHECK(fork->path == "vllm/platforms/cuda.py");
  CHECK(fork->line == 2);
  CHECK(fork->what ==
        "the tree's get_physical_device_capability() returns [9,0] whatever the device");
  CHECK(
      Pinned("class P:\n    def get_device_capability(cls, device_id=0):\n"
             "        \"\"\"Pinned.\"\"\"\n        return DeviceCapability(major=8, minor=6)\n"));
  CHECK(Pinned("class P:\n    def has_device_capability(self, c):\n        return True\n"));
  CHECK(Pinned("def get_physical_device_capability(d=0):\n    return (7, 5)\n"));
  // The declared capability itself, or a body that asks: nothing pinned.
  CHECK_FALSE(Pinned("def get_physical_device_capability(d=0):\n    return (7, 0)\n"));
  CHECK_FALSE(Pinned("def get_physical_device_capability(d=0):\n    return [9, 0]\n", 90));
  CHECK_FALSE(
      Pinned("def get_physical_device_capability(device_id=0):\n"
             "    handle = pynvml.nvmlDeviceGetHandleByIndex(device_id)\n"
             "    return pynvml.nvmlDeviceGetCudaComputeCapability(handle)\n"));
  // A constant returned only on one path, or an answer from a function
  // that is no device query: not the device's (capability_body.h).
  CHECK(
      Pinned("def get_physical_device_capability(d=0):\n    if d:\n        return [9, 0]\n"
             "    return torch.cuda.get_device_capability(d)\n"));
  CHECK(Pinned("def get_physical_device_capability(d=0):\n    return ask(d)\n"));
  // The fork's pin bound to a name (a helper probe of 5726a3b).
  CHECK(
      Pinned("_BI100 = (9, 0)\n\n\ndef get_physical_device_capability(d=0):\n"
             "    return _BI100\n"));
}

}  // namespace muh
