#include "engine/python/capability_body.h"

#include <doctest/doctest.h>

namespace muh {

namespace {

// The construct named, or "" when the def answers from the device alone.
std::string Outside(std::string_view def_text) {
  CapabilityBody b = ReadCapabilityBody(def_text);
  CHECK(b.from_device == b.construct.empty());
  return b.construct;
}

}  // namespace

TEST_CASE("the shapes of vLLM's capability functions answer from the device") {
  // NVML, behind its context and a cache.
  CHECK(Outside("@lru_cache(maxsize=8)\n@with_nvml_context\n"
                "def get_physical_device_capability(device_id: int = 0):\n"
                "    handle = pynvml.nvmlDeviceGetHandleByIndex(device_id)\n"
                "    return pynvml.nvmlDeviceGetCudaComputeCapability(handle)\n") == "");
  // A method through the physical id, indented in its class.
  CHECK(Outside("    @classmethod\n    def get_device_capability(cls, device_id: int = 0):\n"
                "        physical = device_id_to_physical_device_id(device_id)\n"
                "        major, minor = get_physical_device_capability(physical)\n"
                "        return DeviceCapability(major=major, minor=minor)\n") == "");
  CHECK(Outside("    @staticmethod\n    def get_device_capability(device_id: int = 0):\n"
                "        major, minor, *_ = torch.xpu.get_device_capability(\n"
                "            device_id)['version'].split('.')\n"
                "        return DeviceCapability(major=int(major), minor=int(minor))\n") == "");
  CHECK(Outside("def get_device_capability(cls, device_id=0):\n"
                "    \"\"\"None: no device.\"\"\"\n    return None\n") == "");
  // The comparison, with the answer read through the class or in parts.
  CHECK(Outside("    def has_device_capability(cls, capability, device_id=0):\n"
                "        current = cls.get_device_capability(device_id=device_id)\n"
                "        if current is None:\n            return False\n"
                "        if isinstance(capability, tuple):\n"
                "            return current >= capability\n"
                "        return current.to_int() >= capability\n") == "");
  CHECK(Outside("    def has_device_capability(self, cap):\n"
                "        major, minor = torch.cuda.get_device_capability()\n"
                "        return major * 10 + minor >= cap\n") == "");
}

TEST_CASE("a capability from anything but the device is named") {
  // A constant bound to a name, module-level or a class's.
  CHECK(Outside("def get_physical_device_capability(device_id=0):\n"
                "    return _BI100_CAPABILITY\n") == "_BI100_CAPABILITY");
  CHECK(Outside("    def get_device_capability(cls, device_id=0):\n"
                "        return cls._PIN\n") == "cls._PIN");
  CHECK(Outside("def get_physical_device_capability(device_id=0):\n"
                "    return tuple([9, 0])\n") == "[9, 0]");
  CHECK(Outside("def get_physical_device_capability(device_id=0):\n"
                "    major, minor = 9, 0\n    return major, minor\n") == "9");
  CHECK(Outside("    def has_device_capability(self, cap):\n"
                "        return 90 >= cap\n") == "90");
  // A call of a name the body binds, a statement of another kind, a decorator.
  CHECK(Outside("def get_device_capability(device_id=0):\n    f = pinned\n    return f()\n") ==
        "pinned");
  CHECK(Outside("def get_device_capability(device_id=0, q=None):\n    return q()\n") == "q");
  CHECK(Outside("def get_device_capability(device_id=0):\n"
                "    try:\n        return torch.cuda.get_device_capability(device_id)\n"
                "    except RuntimeError:\n        return None\n")
            .rfind("try:", 0) == 0);
  CHECK(Outside("@pin_to(9, 0)\ndef get_device_capability(device_id=0):\n"
                "    return torch.cuda.get_device_capability(device_id)\n") == "@pin_to(9, 0)");
  CHECK(Outside("def get_device_capability(device_id=0):\n    return torch.cuda.fake_cap\n") ==
        "torch.cuda.fake_cap");
  CHECK(Outside("def get_device_capability(:\n") == "a definition that does not parse");
  // Whitelisted pieces that spell a number: a string, a parameter's default.
  CHECK(Outside("def get_device_capability(device_id=0):\n"
                "    major, minor = \"9.0\".split(\".\")\n"
                "    return DeviceCapability(major=int(major), minor=int(minor))\n") == "\"9.0\"");
  CHECK(Outside("def get_device_capability(device_id=0, bi100=(9, 0)):\n    return bi100\n") ==
        "bi100=(9, 0)");
}

}  // namespace muh
