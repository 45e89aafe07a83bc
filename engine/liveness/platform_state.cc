#include "engine/liveness/platform_state.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <string_view>
#include <vector>

#include "engine/base/text.h"
#include "engine/liveness/py_imports.h"

namespace muh {

namespace {

bool IsPredicate(std::string_view name) {
  static constexpr std::string_view kNames[] = {"is_hip",
                                                "is_cuda_alike",
                                                "is_cuda",
                                                "is_rocm",
                                                "is_tpu",
                                                "is_xpu",
                                                "is_cpu",
                                                "is_hpu",
                                                "is_neuron",
                                                "is_openvino",
                                                "has_device_capability"};
  return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
}

// The end of the assignment targets of `stmt` (the offset of its last
// top-level `=`, or of an augmented operator), or npos for no assignment.
std::size_t TargetsEnd(std::string_view stmt) {
  std::size_t last = std::string_view::npos;
  ScanTopLevel(stmt, [&](std::size_t i, int depth) -> std::size_t {
    if (stmt[i] != '=' || depth != 0) return 0;
    char before = i > 0 ? stmt[i - 1] : ' ';
    char after = i + 1 < stmt.size() ? stmt[i + 1] : ' ';
    if (after == '=') return 1;
    if (before == '=' || before == '!' || before == '<' || before == '>') {
      // `<=`, `>=`, `!=`, but `<<=` and `>>=` assign.
      bool shift = i >= 2 && stmt[i - 2] == before && (before == '<' || before == '>');
      if (!shift) return 0;
    }
    if (before != ':') last = i;  // not `:=`
    return 0;
  });
  return last;
}

// The class whose body holds line `k`, by name; empty when none.
std::string EnclosingClass(const StatementTable& lines, int k) {
  const std::vector<LogicalLine>& ls = lines.lines();
  for (int p = ls[static_cast<std::size_t>(k)].parent; p >= 0;
       p = ls[static_cast<std::size_t>(p)].parent) {
    if (lines.Keyword(p) != "class") continue;
    std::string_view code = Trim(lines.Code(p).substr(5));
    std::size_t e = 0;
    while (e < code.size() && IsWordChar(code[e])) ++e;
    return std::string(code.substr(0, e));
  }
  return "";
}

std::string Lower(std::string_view s) {
  std::string out;
  for (char c : s) out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return out;
}

// Whether `_enum = VALUE` in class `cls` gives the class its own member:
// CudaPlatform's PlatformEnum.CUDA, Platform's UNSPECIFIED.
bool OwnMember(const std::string& cls, std::string_view value) {
  std::string v(Trim(value));
  const std::string prefix = "PlatformEnum.";
  if (v.rfind(prefix, 0) != 0) return false;
  std::string member = Lower(v.substr(prefix.size()));
  std::string own = Lower(cls);
  const std::string suffix = "platform";
  if (own.size() < suffix.size() ||
      own.compare(own.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return false;
  }
  own.resize(own.size() - suffix.size());
  if (own.empty()) own = "unspecified";
  return member == own;
}

// A computed setattr's object that may be the platform or what a
// predicate reads.
bool NamesPlatformState(std::string_view object) {
  std::string o = Lower(object);
  for (const char* w : {"platform", "utils", "torch", "sys.modules", "globals"}) {
    if (o.find(w) != std::string::npos) return true;
  }
  return false;
}

class Scan {
 public:
  Scan(TreeIndex* index, std::string name) : index_(index), name_(std::move(name)) {}

  std::optional<Evidence> Run() {
    std::vector<std::string> words = {name_, "current_platform", "__class__"};
    if (name_ != "has_device_capability") {
      words.push_back("_enum");
      words.push_back("PlatformEnum");
    }
    if (name_ == "is_hip") words.push_back("hip");
    for (const std::string& q : index_->paths()) {
      for (const std::string& w : words) {
        if (auto e = Stores(q, w)) return e;
      }
      if (auto e = Setattrs(q)) return e;
    }
    return std::nullopt;
  }

 private:
  std::optional<Evidence> Found(const std::string& q, const StatementTable& lines, int k,
                                const std::string& why) {
    Evidence e = index_->At(q, k);
    e.what = std::string(Trim(lines.Code(k))) + ": " + why + ", so " + name_ +
             "() is not read from the platform";
    return e;
  }

  std::optional<Evidence> Stores(const std::string& q, const std::string& w) {
    const std::vector<std::size_t>& occ = index_->Occurrences(q, w);
    if (occ.empty()) return std::nullopt;
    const std::string_view* bytes = index_->Bytes(q);
    if (bytes == nullptr) return std::nullopt;
    std::string_view src = *bytes;
    for (std::size_t o : occ) {
      const StatementTable* lines = index_->LinesBefore(q, o);
      if (lines == nullptr) return Evidence{q, 0, "the file could not be read or parsed"};
      if (!lines->InCode(o)) continue;
      int k = lines->IndexAt(o);
      if (k < 0) continue;
      std::size_t begin = 0;
      std::string_view stmt = lines->StatementAt(k, o, &begin);
      std::size_t at = o - begin;
      bool attribute = o > 0 && src[o - 1] == '.';
      bool deleted = lines->Keyword(k) == "del";
      std::size_t end = TargetsEnd(stmt);
      bool stored = deleted || (end != std::string_view::npos && at < end);
      if (w == "PlatformEnum") {
        if (auto e = EnumMembers(q, *lines, k)) return e;
        continue;
      }
      if (!stored) continue;
      std::string cls = EnclosingClass(*lines, k);
      if (w == "_enum") {
        if (!attribute && !deleted && !cls.empty() && OwnMember(cls, stmt.substr(end + 1)))
          continue;
        return Found(q, *lines, k, "the platform's _enum is set here");
      }
      if (w == "__class__") {
        if (!NamesPlatformState(stmt.substr(0, at)) && !SeesPlatform(q)) continue;
        return Found(q, *lines, k, "the platform object's class is replaced here");
      }
      if (w == "current_platform") {
        if (!attribute && q == "vllm/platforms/__init__.py") continue;  // the choice itself
        return Found(q, *lines, k, "current_platform is bound here");
      }
      if (w == "hip") {
        if (!attribute) continue;
        return Found(q, *lines, k, "torch.version.hip is set here");
      }
      // The predicate itself: by attribute anywhere; by name where the
      // module defines it (its importers see the new value).
      if (attribute) return Found(q, *lines, k, "it is replaced here");
      if (DefinesAtTop(q, w) && cls.empty()) return Found(q, *lines, k, "it is rebound here");
    }
    return std::nullopt;
  }

  // Whether `q` names the platform module or object (an alias of it may
  // then be any name).
  bool SeesPlatform(const std::string& q) {
    return !index_->Occurrences(q, "current_platform").empty() ||
           !index_->Occurrences(q, "platforms").empty();
  }

  // `def NAME` at a module's top level in `q`.
  bool DefinesAtTop(const std::string& q, const std::string& w) {
    const StatementTable* lines = index_->Lines(q);
    if (lines == nullptr) return false;
    const std::vector<LogicalLine>& ls = lines->lines();
    for (std::size_t k = 0; k < ls.size(); ++k) {
      if (ls[k].parent >= 0 || lines->Keyword(static_cast<int>(k)) != "def") continue;
      std::string_view code = Trim(lines->Code(static_cast<int>(k)).substr(3));
      if (code.rfind(w, 0) == 0 && (code.size() == w.size() || !IsWordChar(code[w.size()]))) {
        return true;
      }
    }
    return false;
  }

  // In `class PlatformEnum`, every member must be `auto()`: two members of
  // one value are one member (an alias), and `is_rocm()` may then answer
  // True on CUDA.
  std::optional<Evidence> EnumMembers(const std::string& q, const StatementTable& lines, int k) {
    if (lines.Keyword(k) != "class") return std::nullopt;
    std::string_view code = Trim(lines.Code(k).substr(5));
    if (code.rfind("PlatformEnum", 0) != 0 || (code.size() > 12 && IsWordChar(code[12]))) {
      return std::nullopt;
    }
    const std::vector<LogicalLine>& ls = lines.lines();
    for (std::size_t j = static_cast<std::size_t>(k) + 1; j < ls.size(); ++j) {
      if (ls[j].parent < k) break;
      if (ls[j].parent != k) continue;
      std::string_view member = Trim(lines.Code(static_cast<int>(j)));
      if (!member.empty() && (member[0] == '"' || member[0] == '\'')) continue;  // a docstring
      std::size_t eq = TargetsEnd(member);
      if (eq == std::string_view::npos) {
        return Found(q, lines, static_cast<int>(j), "PlatformEnum holds more than its members");
      }
      std::string_view value = Trim(member.substr(eq + 1));
      if (value != "enum.auto()" && value != "auto()") {
        return Found(q, lines, static_cast<int>(j), "a PlatformEnum member is not auto()");
      }
    }
    return std::nullopt;
  }

  std::optional<Evidence> Setattrs(const std::string& q) {
    for (const char* fn : {"setattr", "delattr"}) {
      const std::vector<std::size_t>& occ = index_->Occurrences(q, fn);
      if (occ.empty()) continue;
      const std::string_view* bytes = index_->Bytes(q);
      if (bytes == nullptr) return std::nullopt;
      std::string_view src = *bytes;
      for (std::size_t o : occ) {
        const StatementTable* lines = index_->LinesBefore(q, o);
        if (lines == nullptr) return Evidence{q, 0, "the file could not be read or parsed"};
        if (!lines->InCode(o) || (o > 0 && src[o - 1] == '.')) continue;
        int k = lines->IndexAt(o);
        if (k < 0 || lines->Keyword(k) == "def") continue;
        std::size_t open = o + std::strlen(fn);
        while (open < src.size() && src[open] == ' ') ++open;
        if (open >= src.size() || src[open] != '(') {
          return Found(q, *lines, k, std::string(fn) + " is taken as a value here");
        }
        std::string_view args = ArgumentsAt(src, open);
        std::vector<std::string_view> parts = SplitTopLevel(args);
        std::string_view object = parts.empty() ? std::string_view{} : parts[0];
        std::string_view attr = parts.size() < 2 ? std::string_view{} : parts[1];
        std::optional<std::string> literal = StringLiteralValue(attr);
        if (literal) {
          bool rests =
              *literal == name_ || *literal == "_enum" || *literal == "current_platform" ||
              (*literal == "__class__" && (NamesPlatformState(object) || SeesPlatform(q))) ||
              (*literal == "hip" && name_ == "is_hip");
          if (rests) return Found(q, *lines, k, "it is set by " + std::string(fn) + " here");
          continue;
        }
        if (NamesPlatformState(object) || SeesPlatform(q)) {
          return Found(q, *lines, k, "an attribute of a computed name is set here");
        }
      }
    }
    return std::nullopt;
  }

  // The inside of the call's parentheses opened at `open` (to the end of
  // `src` when they do not close).
  static std::string_view ArgumentsAt(std::string_view src, std::size_t open) {
    std::string_view rest = src.substr(open);
    std::size_t close = std::string_view::npos;
    ScanTopLevel(rest, [&](std::size_t i, int depth) -> std::size_t {
      if (rest[i] != ')' || depth != 0) return 0;
      close = i;
      return rest.size();  // done
    });
    return close == std::string_view::npos ? src.substr(open + 1) : rest.substr(1, close - 1);
  }

  TreeIndex* index_;
  std::string name_;
};

}  // namespace

std::optional<Evidence> PlatformStateRebound(TreeIndex* index, const std::string& name) {
  if (!IsPredicate(name)) return std::nullopt;
  return Scan(index, name).Run();
}

}  // namespace muh
