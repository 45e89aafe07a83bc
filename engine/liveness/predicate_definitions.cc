#include "engine/liveness/predicate_definitions.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <regex>
#include <string_view>
#include <vector>

#include "engine/base/text.h"
#include "engine/liveness/top_statements.h"
#include "engine/python/capability_body.h"
#include "engine/python/name_use.h"

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

namespace {

// Calls visit(path, offset, line, header, body) for each `def name` of the
// tree (`offset`: its name's; `header`: the def line's code), its body
// being its logical lines' code squeezed (Squeezed), a leading docstring
// dropped, joined by ';': the lines directly under the def, or with
// `whole` every line of its block. Stops at the first evidence visit
// returns, and returns it; a file that cannot be parsed is one.
std::optional<Evidence> EachDef(
    TreeIndex* index, const std::string& name, bool whole,
    const std::function<std::optional<Evidence>(const std::string&, std::size_t, int,
                                                std::string_view, const std::string&)>& visit) {
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
      // Its body: the logical lines under the def's.
      const std::vector<LogicalLine>& ls = lines->lines();
      std::string body;
      bool first = true;
      for (std::size_t j = static_cast<std::size_t>(k) + 1; j < ls.size(); ++j) {
        if (ls[j].parent < k) break;
        if (ls[j].parent != k && !whole) continue;
        std::string code = Squeezed(lines->Code(static_cast<int>(j)));
        bool docstring = first && !code.empty() && (code[0] == '"' || code[0] == '\'');
        first = false;
        if (docstring) continue;
        body += (body.empty() ? "" : ";") + code;
      }
      if (std::optional<Evidence> e = visit(q, o, k, lines->Code(k), body)) return e;
    }
  }
  return std::nullopt;
}

// The capability x10 a squeezed body returns as a constant (`return[9,0]`,
// `return(7,0)`, `returnDeviceCapability(major=7,minor=0)`); -1 for
// `returnTrue` / `returnFalse` (an answer, whatever is asked); nullopt for
// any other body.
std::optional<int> ConstantCapability(const std::string& body) {
  static const std::regex kPair(R"(return[\[\(]?(\d+),(\d+)[\]\)]?)");
  static const std::regex kNamed(R"(returnDeviceCapability\(major=(\d+),minor=(\d+)\))");
  std::smatch m;
  if (std::regex_match(body, m, kPair) || std::regex_match(body, m, kNamed)) {
    if (m[1].length() > 3 || m[2].length() > 3) return std::nullopt;
    return std::stoi(m[1].str()) * 10 + std::stoi(m[2].str());
  }
  if (body == "returnTrue" || body == "returnFalse") return -1;
  return std::nullopt;
}

}  // namespace

std::optional<Evidence> PredicateRedefined(TreeIndex* index, const std::string& name) {
  const std::vector<std::string> accepted = AcceptedBodies(name);
  if (accepted.empty()) return std::nullopt;
  return EachDef(index, name, false,
                 [&](const std::string& q, std::size_t, int k, std::string_view header,
                     const std::string& body) -> std::optional<Evidence> {
                   if (std::find(accepted.begin(), accepted.end(), body) != accepted.end()) {
                     return std::nullopt;
                   }
                   Evidence e = index->At(q, k);
                   e.what = "the tree defines " + name + "() otherwise than vLLM (" +
                            std::string(header) + "), so its answer is not read from the platform";
                   return e;
                 });
}

namespace {

// The text of the def whose name is at `offset` of `path`, its decorators
// first; empty when the file cannot be read whole.
std::string_view DefText(TreeIndex* index, const std::string& path, std::size_t offset) {
  const StatementTable* lines = index->Lines(path);
  if (lines == nullptr) return {};
  const std::vector<LogicalLine>& ls = lines->lines();
  int k = lines->IndexAt(offset);
  if (k < 0) return {};
  int first = k;
  while (first > 0 &&
         ls[static_cast<std::size_t>(first - 1)].parent == ls[static_cast<std::size_t>(k)].parent &&
         lines->Code(first - 1).substr(0, 1) == "@") {
    --first;
  }
  int end = index->BlockEnd(path, k);
  std::size_t from = ls[static_cast<std::size_t>(first)].begin;
  std::size_t to = end < static_cast<int>(ls.size()) ? ls[static_cast<std::size_t>(end)].begin
                                                     : lines->src().size();
  return lines->src().substr(from, to - from);
}

}  // namespace

std::optional<Evidence> CapabilityPinned(TreeIndex* index, int have) {
  for (const char* name :
       {"get_physical_device_capability", "get_device_capability", "has_device_capability"}) {
    auto pinned = EachDef(index, name, true,
                          [&](const std::string& q, std::size_t o, int k, std::string_view header,
                              const std::string& body) -> std::optional<Evidence> {
                            if (std::optional<int> c = ConstantCapability(body)) {
                              if (*c == have) return std::nullopt;
                              Evidence e = index->At(q, k);
                              std::string returns = body.substr(6);  // after "return"
                              e.what = std::string("the tree's ") + name + "() returns " + returns +
                                       " whatever the device";
                              return e;
                            }
                            // Closed world: any other body must ask the device, in a shape
                            // capability_body.h lists.
                            std::string_view text = DefText(index, q, o);
                            CapabilityBody read = ReadCapabilityBody(text);
                            if (read.from_device) return std::nullopt;
                            Evidence e = index->At(q, k);
                            e.what =
                                std::string("the tree's ") + name + "() (" + std::string(header) +
                                ") computes its answer from `" + read.construct +
                                "`, not from the device alone, so what it answers is not known";
                            return e;
                          });
    if (pinned) return pinned;
  }
  // A binding of such a name that is no def (a class body's
  // `get_device_capability = classmethod(lambda ...)`, an import, an
  // assignment): its answer is none the whitelist read.
  for (const char* name :
       {"get_physical_device_capability", "get_device_capability", "has_device_capability"}) {
    for (const std::string& q : index->paths()) {
      const std::vector<std::size_t>& occ = index->Occurrences(q, name);
      if (occ.empty()) continue;
      const StatementTable* lines = index->Lines(q);
      if (lines == nullptr) return Evidence{q, 0, "the file could not be read or parsed"};
      TopStatements parses(*lines);
      for (std::size_t o : occ) {
        int k = lines->IndexAt(o);
        if (k < 0 || !lines->InCode(o)) continue;
        auto found = parses.PathAt(o, std::strlen(name));
        if (!found || found->tree == nullptr) return index->At(q, k);
        NameUse use = UseOf(found->path);
        if (!Binds(use) || use == NameUse::kDefine || use == NameUse::kParameter) continue;
        Evidence e = index->At(q, k);
        e.what = std::string("the tree binds ") + name + " otherwise than by a def (" + e.what +
                 "), so what a capability test answers is not known";
        return e;
      }
    }
  }
  // Closed world: a store to one of them, or to what they call, anywhere
  // (`CudaPlatform.get_device_capability = classmethod(...)`,
  // `pynvml.nvmlDeviceGetCudaComputeCapability = lambda h: (9, 0)`,
  // `DeviceCapability.to_int = ...`, a helper probe of the whitelist): the
  // answer is then not the defs'.
  for (const char* name :
       {"get_physical_device_capability", "get_device_capability", "has_device_capability",
        "nvmlDeviceGetCudaComputeCapability", "to_int"}) {
    if (std::optional<Evidence> by = index->ReboundElsewhere("", name)) {
      by->what = std::string("the tree may store another function as ") + name + " (" + by->what +
                 "), so what a capability test answers is not known";
      return by;
    }
  }
  return std::nullopt;
}

}  // namespace muh
