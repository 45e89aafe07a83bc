// Whether a function the platform's capability answer goes through
// (`has_device_capability`, `get_device_capability`,
// `get_physical_device_capability`) computes that answer from the device
// alone, read from its parse. The declared compute capability decides a
// capability test only where every such function of the tree does; a
// fork that answers from anything else (a constant bound to a name, a
// class attribute, `tuple([9, 0])`) makes the test the tree's own.
//
// A whitelist over the def's body, statement and expression kinds alike:
// - statements: assignments, `if`/`elif`/`else`, `return`, a docstring;
// - calls of the device queries (`torch.cuda.get_device_capability`,
//   `torch.xpu.get_device_capability`, `pynvml.nvmlDeviceGetHandleByIndex`,
//   `pynvml.nvmlDeviceGetCudaComputeCapability`), of the functions the
//   answer goes through (`get_device_capability` of `self`/`cls` or by
//   name, `get_physical_device_capability`,
//   `device_id_to_physical_device_id`), and of `DeviceCapability`,
//   `isinstance`, `int`, `.to_int()`, `.split()`;
// - names: the def's parameters, the names its body binds, and those
//   callees and modules; a docstring, and the strings of xpu's
//   `['version'].split('.')`; `None`, `True`, `False`; the integer 10
//   (`major * 10 + minor`), and no other number; parameter defaults of
//   `0` or `None` only;
// - comparisons, arithmetic, `not`/`and`/`or`, conditionals, tuples and
//   subscripts of those.
// Anything else is named, and the function does not answer from the device
// alone. A function the body calls is checked as a def of its own.
// Decorators: `classmethod`, `staticmethod`, `lru_cache`/`cache` (with
// `functools.`) and vLLM's `with_nvml_context`, taken as vLLM defines them
// (an assumption: their own defs are not read).
// Pure: the def's text in, a verdict out.
#pragma once

#include <string>
#include <string_view>

namespace muh {

struct CapabilityBody {
  bool from_device = false;
  // Where it is not: the first construct outside the whitelist, as written
  // (one line at most), or what kept the text from being read.
  std::string construct;
};

// `def_text`: one function definition, its decorators first, as it
// stands in its file (indented or not).
CapabilityBody ReadCapabilityBody(std::string_view def_text);

}  // namespace muh
