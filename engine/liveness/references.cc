#include "engine/liveness/references.h"

#include <optional>
#include <set>
#include <string_view>

#include "engine/base/text.h"
#include "engine/liveness/module_escape.h"
#include "engine/liveness/prose.h"

namespace muh {

namespace {

constexpr std::size_t kMaxEvidence = 6;

void Append(std::vector<Evidence>* to, const std::vector<Evidence>& from) {
  for (const Evidence& e : from) {
    if (to->size() >= kMaxEvidence) return;
    to->push_back(e);
  }
}

// A decorator the analysis models: it wraps or marks its function and
// registers it nowhere, so the function is still called by its name only.
bool ModeledDecorator(std::string_view code) {
  std::string_view d = code.substr(1);
  while (!d.empty() && (d.front() == ' ' || d.front() == '\t')) d.remove_prefix(1);
  std::size_t paren = d.find('(');
  if (paren != std::string_view::npos) d = d.substr(0, paren);
  while (!d.empty() && (d.back() == ' ' || d.back() == '\t')) d.remove_suffix(1);
  static const std::set<std::string_view> kWrappers = {"staticmethod",
                                                       "classmethod",
                                                       "property",
                                                       "abstractmethod",
                                                       "abc.abstractmethod",
                                                       "wraps",
                                                       "functools.wraps",
                                                       "lru_cache",
                                                       "functools.lru_cache",
                                                       "cache",
                                                       "functools.cache",
                                                       "cached_property",
                                                       "functools.cached_property",
                                                       "contextmanager",
                                                       "contextlib.contextmanager",
                                                       "asynccontextmanager",
                                                       "contextlib.asynccontextmanager",
                                                       "overload",
                                                       "typing.overload",
                                                       "dataclass",
                                                       "dataclasses.dataclass",
                                                       "total_ordering",
                                                       "functools.total_ordering",
                                                       "final",
                                                       "typing.final",
                                                       "triton.jit",
                                                       "triton.autotune",
                                                       "triton.heuristics",
                                                       "torch.no_grad",
                                                       "torch.inference_mode",
                                                       "torch.jit.script",
                                                       "torch.compile"};
  if (kWrappers.count(d) != 0) return true;
  // `@name.setter` and friends of a property.
  for (std::string_view s : {".setter", ".getter", ".deleter"}) {
    if (d.size() > s.size() && d.substr(d.size() - s.size()) == s) return true;
  }
  return false;
}

}  // namespace

std::optional<Evidence> References::DecoratorDoubt(const std::string& path, int k) {
  const StatementTable* lines = index_->Lines(path);
  if (lines == nullptr) return std::nullopt;
  const std::vector<LogicalLine>& ls = lines->lines();
  // Decorators sit on the lines just above, at the same indentation.
  for (int d = k - 1;
       d >= 0 && ls[static_cast<std::size_t>(d)].indent == ls[static_cast<std::size_t>(k)].indent &&
       lines->Code(d).substr(0, 1) == "@";
       --d) {
    if (!ModeledDecorator(lines->Code(d))) return index_->At(path, d);
  }
  return std::nullopt;
}

Evidence References::SubclassLookup(bool any_class) {
  // Any class, bases or not: `__set_name__` runs with the class being made
  // as its owner (a descriptor that registers it), and the gc module hands
  // out every live object (a helper probe of d751784: each reached a class
  // "nothing refers to").
  const std::vector<const char*> words =
      any_class ? std::vector<const char*>{"__set_name__", "get_objects", "get_referrers",
                                           "get_referents", "__subclasses__"}
                : std::vector<const char*>{"__subclasses__", "__init_subclass__", "metaclass"};
  for (const std::string& q : index_->paths()) {
    if (!reached_(q)) continue;
    bool lexed = index_->Lexed(q);
    Evidence found;
    for (const char* word : words) {
      const std::vector<std::size_t>& occ = index_->Occurrences(q, word);
      if (occ.empty() || !found.path.empty()) continue;
      const StatementTable* ql = index_->Lines(q);
      if (ql == nullptr) continue;
      for (std::size_t o : occ) {
        // For any class, a string may name the word too (`getattr(gc,
        // "get_objects")`; `object.__subclasses__()` lists the classes with
        // no base: a review of 71b4731).
        if (!ql->InCode(o) && !(any_class && ql->InString(o))) continue;
        // `metaclass=` in a class header (`__metaclass__`, which does nothing
        // in Python 3, is another word).
        if (word == std::string_view("metaclass") && ql->src().substr(o + 9, 1) != "=" &&
            ql->src().substr(o + 9, 2) != " =") {
          continue;
        }
        found = index_->At(q, ql->IndexAt(o));
        found.what = (any_class ? "classes may be reached without a name ("
                                : "classes are looked up through their bases (") +
                     std::string(word) + "): " + found.what;
        break;
      }
    }
    if (!lexed) index_->Drop(q);  // one file at a time over a large tree
    if (!found.path.empty()) return found;
  }
  return Evidence{};
}

ReferenceResult References::Of(const std::string& path, int k) {
  ReferenceResult out;
  const StatementTable* lines = index_->Lines(path);
  std::string name = index_->DefinedName(path, k);
  if (lines == nullptr || name.empty()) return out;
  // Any decorator may register its function with a caller the analysis
  // cannot see (a web route, a plugin table); only the modeled ones do not.
  if (auto d = DecoratorDoubt(path, k)) {
    out.why = name +
              " has a decorator the analysis does not model, which may register it as a "
              "callee; the modeled wrappers (staticmethod, property, functools.lru_cache, "
              "triton.jit ...) would not";
    out.evidence.push_back(*d);
    return out;
  }
  // A module's own __getattr__ or __dir__ (PEP 562): Python calls it for an
  // attribute the module lacks, or for dir(module), with no name of it in
  // the code.
  if ((name == "__getattr__" || name == "__dir__") &&
      lines->lines()[static_cast<std::size_t>(k)].parent == -1) {
    out.referenced = Tri::kUnknown;
    out.why = "Python calls a module's " + name + " itself, on an attribute the module lacks";
    out.evidence.push_back(index_->At(path, k));
    return out;
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
  // The words to look for: the name everywhere, then each alias an import
  // binds it to (`from m import f as g`), in the importing file only.
  std::vector<std::pair<std::string, std::string>> words = {{name, ""}};
  for (std::size_t w = 0; w < words.size() && w < 32; ++w) {
    const std::string word = words[w].first;
    const std::string only = words[w].second;
    for (const std::string& q : index_->paths()) {
      if (!only.empty() && q != only) continue;
      if (!reached_(q)) continue;
      const std::vector<std::size_t>& occ = index_->Occurrences(q, word);
      if (occ.empty()) continue;
      const StatementTable* ql = index_->Lines(q);
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
          if (!ql->InString(o) || InProse(*ql, o)) continue;  // a comment, a docstring, a message
          // A quoted forward reference in a type annotation is no use.
          std::size_t b = o - 1;
          while (b > 0 && src[b - 1] == ' ') --b;
          std::string_view before = src.substr(b >= 12 ? b - 12 : 0, b >= 12 ? 12 : b);
          bool whole_string = o > 0 && o + word.size() < src.size() &&
                              (src[o - 1] == '"' || src[o - 1] == '\'') &&
                              src[o + word.size()] == src[o - 1];
          bool annotation =
              whole_string && before.size() >= 2 &&
              (before.substr(before.size() - 2) == "->" ||
               (before.back() == '[' && (before.find("Type[") != std::string_view::npos ||
                                         before.find("type[") != std::string_view::npos ||
                                         before.find("Optional[") != std::string_view::npos ||
                                         before.find("List[") != std::string_view::npos)));
          if (!annotation) {
            unknown = true;
            Evidence e = index_->At(q, ql->IndexAt(o));
            e.what = "'" + word +
                     "' in a string that may name it (getattr, a registry); only a docstring or a "
                     "log, print, raise or assert message does not count: " +
                     e.what;
            unknown_evidence.push_back(e);
          }
          continue;
        }
        std::size_t sb = 0;
        std::string_view stmt = ql->StatementAt(j, o, &sb);
        std::string_view skw = stmt.substr(0, stmt.find_first_of(" \t\\(\n"));
        if (skw == "import" || skw == "from") {
          // An import binds the name; under an alias, the alias is what is used.
          if (auto s = ParseImport(stmt)) {
            for (const ImportedName& n : s->names) {
              std::string_view last = n.name;
              if (last.rfind('.') != std::string_view::npos)
                last = last.substr(last.rfind('.') + 1);
              if (last == word && !n.alias.empty() && n.alias != word) {
                // At a module's top level the alias is also that module's
                // attribute (`pkg.alias` elsewhere): look for it everywhere.
                bool top = ql->lines()[static_cast<std::size_t>(j)].parent == -1;
                words.emplace_back(n.alias, top ? "" : q);
              }
            }
            continue;
          }
          unknown = true;
          Evidence e = index_->At(q, j);
          e.what = "an import the analysis cannot read: " + e.what;
          unknown_evidence.push_back(e);
          continue;
        }
        std::string_view kw = ql->Keyword(j);
        if (sb == ql->lines()[static_cast<std::size_t>(j)].code &&
            (kw == "def" || kw == "class" || kw == "async") && index_->DefinedName(q, j) == word) {
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
        // A class body runs where the class statement does: a use in it, in
        // no def, counts as its module's.
        bool in_def = false;
        for (int h = ql->lines()[static_cast<std::size_t>(j)].parent; h >= 0 && !in_def;
             h = ql->lines()[static_cast<std::size_t>(h)].parent) {
          in_def = ql->Keyword(h) == "def" ||
                   (ql->Keyword(h) == "async" && ql->Code(h).find("def") != std::string_view::npos);
        }
        if (!in_def) unit = -1;
        if (unit < 0) {
          visiting_.erase(key);
          referenced_.insert(key);
          out.referenced = Tri::kTrue;
          out.why = name + " is used where its module runs";
          out.evidence.push_back(index_->At(q, j));
          return out;
        }
        // A decorated def or class around the use, inside the unit: the
        // decorator may register it, so that it runs without a reference.
        std::optional<Evidence> decorated;
        for (int h = ql->lines()[static_cast<std::size_t>(j)].parent; h > unit && !decorated;
             h = ql->lines()[static_cast<std::size_t>(h)].parent) {
          if (!index_->DefinedName(q, h).empty()) decorated = DecoratorDoubt(q, h);
        }
        if (decorated) {
          unknown = true;
          Evidence e = index_->At(q, j);
          unknown_evidence.push_back(e);
          decorated->what =
              "a decorator that may register the function around it: " + decorated->what;
          unknown_evidence.push_back(*decorated);
          continue;
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
  }
  visiting_.erase(key);
  if (unknown) {
    out.referenced = Tri::kUnknown;
    out.why = "whether " + name + " is used cannot be decided";
    Append(&out.evidence, unknown_evidence);
    return out;
  }
  // A def of the module's top level can also be called by a name built at
  // run time once the module's object is used as a value (module_escape.h).
  if (lines->lines()[static_cast<std::size_t>(k)].parent == -1) {
    auto escaped = escapes_.find(path);
    if (escaped == escapes_.end()) {
      if (auto e = ModuleEscape(index_, reached_, path)) {
        escaped = escapes_.emplace(path, *e).first;  // a finding stays as reach grows
      }
    }
    if (escaped != escapes_.end()) {
      out.referenced = Tri::kUnknown;
      out.why = "no code names " + name +
                ", but its module's functions can be reached by a name built at run time";
      out.evidence.push_back(escaped->second);
      return out;
    }
  }
  // A class with bases can be found through them: __subclasses__(), a base's
  // __init_subclass__, a metaclass that registers.
  if (lines->Keyword(k) == "class") {
    if (!any_class_lookup_) {
      Evidence e = SubclassLookup(true);
      if (!e.path.empty()) any_class_lookup_ = e;
    }
    if (any_class_lookup_) {
      out.referenced = Tri::kUnknown;
      out.why = "no code names " + name + ", but classes may be reached without a name here";
      out.evidence.push_back(*any_class_lookup_);
      return out;
    }
    std::string_view code = lines->Code(k);
    std::size_t open = code.find('(');
    std::string_view bases =
        open == std::string_view::npos ? "" : code.substr(open + 1, code.rfind(')') - open - 1);
    if (!bases.empty() && Trim(bases) != "object") {
      if (!subclass_lookup_) {
        Evidence e = SubclassLookup(false);
        if (!e.path.empty()) subclass_lookup_ = e;  // a finding stays as reach grows
      }
      if (subclass_lookup_) {
        out.referenced = Tri::kUnknown;
        out.why = "no code names " + name + ", but classes are found through their bases here";
        out.evidence.push_back(*subclass_lookup_);
        return out;
      }
    }
  }
  out.referenced = Tri::kFalse;
  out.why = "nothing reached refers to " + name;
  out.evidence.push_back(index_->At(path, k));
  Append(&out.evidence, ignored);
  return out;
}

}  // namespace muh
