#include "engine/liveness/predicate_definitions.h"

#include <algorithm>
#include <string_view>
#include <vector>

#include "engine/base/text.h"

namespace muh {

namespace {

std::string Squeezed(std::string_view code) {
  std::string out;
  for (char c : code) {
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != '\\') out.push_back(c);
  }
  return out;
}

// The `PlatformEnum` member an `is_X` method tests.
std::optional<std::string> EnumMember(const std::string& name) {
  static const char* const kMembers[][2] = {{"is_cuda", "CUDA"},     {"is_rocm", "ROCM"},
                                            {"is_tpu", "TPU"},       {"is_xpu", "XPU"},
                                            {"is_cpu", "CPU"},       {"is_hpu", "HPU"},
                                            {"is_neuron", "NEURON"}, {"is_openvino", "OPENVINO"}};
  for (const auto& m : kMembers) {
    if (name == m[0]) return std::string(m[1]);
  }
  return std::nullopt;
}

}  // namespace

std::vector<std::string> AcceptedBodies(const std::string& name) {
  std::vector<std::string> out;
  if (name == "is_hip") out.push_back("returntorch.version.hipisnotNone");
  if (name == "is_cuda_alike") {
    out.push_back("returnself._enumin(PlatformEnum.CUDA,PlatformEnum.ROCM)");
  }
  if (auto member = EnumMember(name)) out.push_back("returnself._enum==PlatformEnum." + *member);
  return out;
}

std::optional<Evidence> PredicateRedefined(TreeIndex* index, const std::string& name) {
  const std::vector<std::string> accepted = AcceptedBodies(name);
  if (accepted.empty()) return std::nullopt;
  for (const std::string& q : index->paths()) {
    const std::vector<std::size_t>& occ = index->Occurrences(q, name);
    if (occ.empty()) continue;
    const std::string_view* bytes = index->Bytes(q);
    if (bytes == nullptr) continue;
    std::string_view src = *bytes;
    for (std::size_t o : occ) {
      // `def NAME` (after `def` and blanks).
      std::size_t b = o;
      while (b > 0 && (src[b - 1] == ' ' || src[b - 1] == '\t')) --b;
      if (b < 3 || src.substr(b - 3, 3) != "def" || (b > 3 && IsWordChar(src[b - 4]))) continue;
      const StatementTable* lines = index->LinesBefore(q, o);
      if (lines == nullptr) return Evidence{q, 0, "the file could not be read or parsed"};
      if (!lines->InCode(o)) continue;
      int k = lines->IndexAt(o);
      if (k < 0) continue;
      // Its body: the logical lines whose parent is the def's.
      const std::vector<LogicalLine>& ls = lines->lines();
      std::string body;
      bool first = true;
      for (std::size_t j = static_cast<std::size_t>(k) + 1; j < ls.size(); ++j) {
        if (ls[j].parent < k) break;
        if (ls[j].parent != k) continue;
        std::string code = Squeezed(lines->Code(static_cast<int>(j)));
        bool docstring = first && !code.empty() && (code[0] == '"' || code[0] == '\'');
        first = false;
        if (docstring) continue;
        body += (body.empty() ? "" : ";") + code;
      }
      if (std::find(accepted.begin(), accepted.end(), body) != accepted.end()) continue;
      Evidence e = index->At(q, k);
      e.what = "the tree defines " + name + "() otherwise than vLLM (" +
               std::string(lines->Code(k)) + "), so its answer is not read from the platform";
      return e;
    }
  }
  return std::nullopt;
}

}  // namespace muh
