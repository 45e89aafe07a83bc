#include "engine/model/fact_domain.h"

#include <fmt/format.h>

#include <cmath>

namespace muh {

namespace {

struct FactDomain {
  const char* name;
  double min;
  double max;
  bool whole;
  double multiple_of;  // 0: any
  bool power_of_two;
  bool zero_too;  // 0 is also accepted (it means "any")
  const char* unit;
  const char* why;
};

// The bounds are wide: every accelerator a Triton backend serves lies far
// inside them, and a value outside is a typo or a unit slip (KiB for bytes).
constexpr FactDomain kDomains[] = {
    {"warp_size", 32, 64, true, 32, true, false, "threads",
     "NVIDIA's 32 or AMD's and Iluvatar's 64"},
    {"compute_capability", 1, 20, false, 0, false, false, "", "a major.minor number"},
    {"compute_units", 1, 4096, true, 0, false, false, "", ""},
    {"smem_per_block", 16384, 1048576, true, 1024, false, false, "bytes",
     "whole KiB: the limit every card reports"},
    {"max_stages", 1, 8, true, 0, false, false, "", ""},
    {"regs_per_cu", 4096, 1048576, true, 0, false, false, "32-bit registers", ""},
    {"max_threads_per_cu", 64, 8192, true, 0, false, false, "threads", ""},
    {"max_threads_per_block", 64, 4096, true, 0, false, false, "threads", ""},
    {"max_regs_per_thread", 32, 1024, true, 0, false, false, "registers", ""},
    {"prebuilt_partition_size", 16, 65536, true, 0, true, true, "tokens",
     "0 when the kernel accepts any size"},
    {"hbm_bandwidth", 1, 100000, false, 0, false, false, "GB/s", ""},
    {"fp16_tflops", 0.1, 100000, false, 0, false, false, "TFLOPS", ""},
    {"clock_mhz", 100, 10000, true, 0, false, false, "MHz", ""},
};

std::string Describe(const FactDomain& d) {
  std::string what = d.power_of_two  ? "a power of two"
                     : d.multiple_of ? fmt::format("a multiple of {}", d.multiple_of)
                     : d.whole       ? "a whole number"
                                     : "a number";
  std::string text =
      fmt::format("{} from {} to {}{}{}", what, d.min, d.max, *d.unit != '\0' ? " " : "", d.unit);
  if (d.zero_too) text = "0, or " + text;
  if (*d.why != '\0') text += fmt::format(" ({})", d.why);
  return text;
}

bool Inside(const FactDomain& d, double v) {
  if (!std::isfinite(v)) return false;
  if (d.zero_too && v == 0) return true;
  if (v < d.min || v > d.max) return false;
  if (d.whole && std::floor(v) != v) return false;
  if (d.multiple_of != 0 && std::fmod(v, d.multiple_of) != 0) return false;
  if (d.power_of_two) {
    auto n = static_cast<long long>(v);
    if (n <= 0 || (n & (n - 1)) != 0) return false;
  }
  return true;
}

}  // namespace

std::string FactDomainProblem(std::string_view name, double value) {
  for (const FactDomain& d : kDomains) {
    if (name != d.name) continue;
    if (Inside(d, value)) return "";
    return fmt::format("it must be {}", Describe(d));
  }
  return "";
}

}  // namespace muh
