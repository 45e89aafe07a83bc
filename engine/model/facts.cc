#include "engine/model/facts.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>

#include "engine/base/edit_distance.h"
#include "engine/model/derivation.h"
#include "engine/model/fact_domain.h"

namespace muh {

std::string_view ConfidenceName(Confidence c) {
  switch (c) {
    case Confidence::kVendor:
      return "vendor";
    case Confidence::kMeasured:
      return "measured";
    case Confidence::kClaimed:
      return "claimed, unconfirmed";
    case Confidence::kConflicting:
      return "conflicting";
    case Confidence::kAssumed:
      return "assumed, unconfirmed";
  }
  return "assumed";
}

bool IsShaky(Confidence c) {
  return c == Confidence::kClaimed || c == Confidence::kConflicting || c == Confidence::kAssumed;
}

Profile Profile::BiV100() {
  Profile p;
  p.name_ = "bi100";
  p.facts_ = {
      {"warp_size", 64, "threads", "Iluvatar's Triton backend launches 64*num_warps threads",
       Confidence::kVendor, ""},
      {"compute_capability", 7.0, "", "vendor Triton maps ivcore10 to compute capability 7.0",
       Confidence::kVendor, ""},
      {"compute_units", 16, "", "the fork's author, reading ixsmi", Confidence::kClaimed, ""},
      {"smem_per_block", 32768, "bytes",
       "the built-in default, the value that cannot break a kernel", Confidence::kConflicting,
       "49152: the design notes and the fork's author, citing ixsmi (--set smem_per_block=49152 "
       "once measured)"},
      {"max_stages", 2, "",
       "Iluvatar's Triton prunes num_stages to {1, 2} below compute capability 8",
       Confidence::kVendor, ""},
      {"regs_per_cu", 65536, "32-bit registers",
       "no source for this card; the size of a compute-capability-7.0 register file",
       Confidence::kAssumed, ""},
      {"max_threads_per_cu", 2048, "threads",
       "no source for this card; the compute-capability-7.0 limit", Confidence::kAssumed, ""},
      {"max_threads_per_block", 1024, "threads",
       "no source for this card; Triton's and CUDA's block limit", Confidence::kAssumed, ""},
      {"max_regs_per_thread", 255, "registers",
       "no source for this card; the compute-capability-7.0 limit", Confidence::kAssumed, ""},
      {"prebuilt_partition_size", 512, "tokens",
       "paged_attn.py: _PARTITION_SIZE must match the prebuilt paged_attention_v2_launcher, built "
       "for 512; set the size a rebuilt kernel takes, or 0 when it accepts any",
       Confidence::kVendor, ""},
      {"hbm_bandwidth", 1200, "GB/s", "vendor peak claim (32 GB HBM2)", Confidence::kConflicting,
       "584 GB/s measured by a third party"},
      {"fp16_tflops", 147, "TFLOPS", "vendor claim", Confidence::kClaimed, ""},
      {"clock_mhz", 1500, "MHz", "SM clock observed in ixsmi output", Confidence::kMeasured, ""},
  };
  return p;
}

const Fact* Profile::Find(std::string_view name) const {
  for (const Fact& f : facts_) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

double Profile::Get(std::string_view name) const {
  const Fact* f = Find(name);
  return f ? f->value : 0;
}

std::vector<std::string> Profile::Names() const {
  std::vector<std::string> names;
  for (const Fact& f : facts_) names.push_back(f.name);
  return names;
}

bool Profile::Override(std::string_view name, double value, const std::string& source,
                       Confidence confidence, std::string* error) {
  for (Fact& f : facts_) {
    if (f.name != name) continue;
    std::string outside = FactDomainProblem(name, value);
    if (!outside.empty()) {
      *error = fmt::format("{} = {} is no card's: {}", name, FormatNumber(value), outside);
      return false;
    }
    f.passed_over.push_back(fmt::format("{} ({})", FormatNumber(f.value), f.source));
    f.value = value;
    f.source = source;
    f.confidence = confidence;
    f.alternative.clear();
    f.user_given = true;
    f.from_tree = false;
    return true;
  }
  *error = fmt::format("unknown hardware fact '{}'{} (known: {})", name, DidYouMean(name, Names()),
                       fmt::join(Names(), ", "));
  return false;
}

bool Profile::SetFromTree(const TreeFact& t, std::string* error) {
  std::string source = fmt::format("the tree's value: {}: `{}`", t.where, t.text);
  if (!Override(t.fact, t.value, source, Confidence::kClaimed, error)) return false;
  for (Fact& f : facts_) {
    if (f.name != t.fact) continue;
    f.user_given = false;
    f.from_tree = true;
  }
  return true;
}

bool Profile::ApplySet(std::string_view assignment, std::string* error) {
  std::size_t eq = assignment.find('=');
  if (eq == std::string_view::npos) {
    *error = fmt::format("--set expects FACT=VALUE, got '{}'", assignment);
    return false;
  }
  std::string name(assignment.substr(0, eq));
  std::string text(assignment.substr(eq + 1));
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end == nullptr || *end != '\0') {
    *error = fmt::format("--set {}: '{}' is not a number", name, text);
    return false;
  }
  return Override(name, value, "--set on the command line", Confidence::kMeasured, error);
}

}  // namespace muh
