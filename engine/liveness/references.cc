#include "engine/liveness/references.h"

namespace muh {

namespace {

constexpr std::size_t kMaxEvidence = 6;

void Append(std::vector<Evidence>* to, const std::vector<Evidence>& from) {
  for (const Evidence& e : from) {
    if (to->size() >= kMaxEvidence) return;
    to->push_back(e);
  }
}

}  // namespace

ReferenceResult References::Of(const std::string& path, int k) {
  ReferenceResult out;
  const PyLines* lines = index_->Lines(path);
  std::string name = index_->DefinedName(path, k);
  if (lines == nullptr || name.empty()) return out;
  const std::vector<LogicalLine>& ls = lines->lines();
  // Decorators sit on the lines just above, at the same indentation.
  for (int d = k - 1;
       d >= 0 && ls[static_cast<std::size_t>(d)].indent == ls[static_cast<std::size_t>(k)].indent &&
       lines->Code(d).substr(0, 1) == "@";
       --d) {
    if (lines->Code(d).find("register") != std::string_view::npos) {
      out.why = name + " is registered by a decorator";
      out.evidence.push_back(index_->At(path, d));
      return out;
    }
  }
  auto key = std::make_pair(path, k);
  if (referenced_.count(key) != 0) {
    out.referenced = Tri::kTrue;
    out.why = name + " is referenced";
    return out;
  }
  if (visiting_.size() > 24) {
    out.why = "the chain of references to " + name + " is too long to follow";
    return out;
  }
  if (!visiting_.insert(key).second) {
    out.referenced = Tri::kFalse;
    return out;
  }
  int end = index_->BlockEnd(path, k);
  bool unknown = false;
  std::vector<Evidence> unknown_evidence;
  std::vector<Evidence> ignored;
  for (const std::string& q : index_->paths()) {
    if (!reached_(q)) continue;
    const std::vector<std::size_t>& occ = index_->Occurrences(q, name);
    if (occ.empty()) continue;
    const PyLines* ql = index_->Lines(q);
    if (ql == nullptr) {
      unknown = true;
      unknown_evidence.push_back(Evidence{q, 0, "the file could not be read or lexed"});
      continue;
    }
    std::string_view src = ql->src();
    for (std::size_t o : occ) {
      int j = ql->IndexAt(o);
      if (j < 0 || (q == path && j >= k && j < end)) continue;  // the definition itself
      if (!ql->InCode(o)) {
        bool whole_string = ql->InString(o) && o > 0 && o + name.size() < src.size() &&
                            (src[o - 1] == '"' || src[o - 1] == '\'') &&
                            src[o + name.size()] == src[o - 1];
        // A quoted forward reference in a type annotation is no use.
        std::size_t b = o - 1;
        while (b > 0 && src[b - 1] == ' ') --b;
        std::string_view before = src.substr(b >= 12 ? b - 12 : 0, b >= 12 ? 12 : b);
        bool annotation =
            before.size() >= 2 &&
            (before.substr(before.size() - 2) == "->" ||
             (before.back() == '[' && (before.find("Type[") != std::string_view::npos ||
                                       before.find("type[") != std::string_view::npos ||
                                       before.find("Optional[") != std::string_view::npos ||
                                       before.find("List[") != std::string_view::npos)));
        if (whole_string && !annotation) {
          unknown = true;
          Evidence e = index_->At(q, ql->IndexAt(o));
          e.what = "'" + name + "' as a string: " + e.what;
          unknown_evidence.push_back(e);
        }
        continue;
      }
      std::string_view kw = ql->Keyword(j);
      if (kw == "import" || kw == "from") continue;
      if ((kw == "def" || kw == "class" || kw == "async") && index_->DefinedName(q, j) == name) {
        continue;
      }
      LineGuard g = index_->Guard(q, j);
      if (g.value == Tri::kFalse) {
        Evidence e = index_->At(q, j);
        e.what += "  [branch not taken: " + g.why + "]";
        ignored.push_back(e);
        continue;
      }
      if (auto exit = index_->AfterExit(q, j)) {
        Evidence e = index_->At(q, j);
        e.what += "  [after " + index_->At(q, *exit).what + "]";
        ignored.push_back(e);
        continue;
      }
      int unit = index_->OutermostUnit(q, j);
      if (unit < 0) {
        visiting_.erase(key);
        referenced_.insert(key);
        out.referenced = Tri::kTrue;
        out.why = name + " is used where its module runs";
        out.evidence.push_back(index_->At(q, j));
        return out;
      }
      ReferenceResult via = Of(q, unit);
      if (via.referenced == Tri::kTrue) {
        visiting_.erase(key);
        referenced_.insert(key);
        out.referenced = Tri::kTrue;
        out.why = name + " is used in " + index_->DefinedName(q, unit) + ", which is reached";
        out.evidence.push_back(index_->At(q, j));
        Append(&out.evidence, via.evidence);
        return out;
      }
      if (via.referenced == Tri::kUnknown) {
        unknown = true;
        unknown_evidence.push_back(index_->At(q, j));
        Append(&unknown_evidence, via.evidence);
      } else {
        Evidence e = index_->At(q, j);
        e.what += "  [in " + index_->DefinedName(q, unit) + ", which nothing reached refers to]";
        ignored.push_back(e);
      }
    }
  }
  visiting_.erase(key);
  if (unknown) {
    out.referenced = Tri::kUnknown;
    out.why = "whether " + name + " is used cannot be decided";
    Append(&out.evidence, unknown_evidence);
    return out;
  }
  out.referenced = Tri::kFalse;
  out.why = "nothing reached refers to " + name;
  out.evidence.push_back(index_->At(path, k));
  Append(&out.evidence, ignored);
  return out;
}

}  // namespace muh
