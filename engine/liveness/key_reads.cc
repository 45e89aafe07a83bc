#include "engine/liveness/key_reads.h"

#include <cctype>
#include <cstring>
#include <optional>
#include <set>

#include "engine/liveness/key_flow.h"
#include "engine/liveness/overwrite.h"
#include "engine/liveness/prose.h"
#include "engine/liveness/top_statements.h"
#include "engine/python/name_use.h"
#include "engine/python/ts_nodes.h"
#include "engine/python/value_use.h"

namespace muh {

namespace {

// Reads of a function's locals as a whole, which read the dict without
// naming it: in a def (or at the top level) of `path` that names `var`, a
// word of kWholeLocalsWords (vars with no argument); in any reached file,
// a frame's f_locals read whole (FrameLocalsRead).
std::vector<Evidence> WholeLocals(TreeIndex* index, const Reachability& reach,
                                  const std::string& path, const std::string& var) {
  std::vector<Evidence> out;
  const StatementTable* lines = index->Lines(path);
  if (lines == nullptr) return out;
  std::set<int> units;  // the defs that name var (-1: the top level)
  for (std::size_t o : index->Occurrences(path, var)) {
    int k = lines->IndexAt(o);
    if (k >= 0 && lines->InCode(o)) units.insert(index->OutermostUnit(path, k));
  }
  std::string_view src = lines->src();
  for (const char* word : kWholeLocalsWords) {
    for (std::size_t o : index->Occurrences(path, word)) {
      int k = lines->IndexAt(o);
      // An f-string's fields are code (`f'{locals()}'`).
      if (k < 0 || (!lines->InCode(o) && !InFString(*lines, o)) || !LineRuns(index, path, k)) {
        continue;
      }
      if (units.count(index->OutermostUnit(path, k)) == 0) continue;
      std::size_t a = o + std::strlen(word);
      while (a < src.size() && src[a] == ' ') ++a;
      if (std::string_view(word) == "vars" && src.substr(a, 2) != "()") continue;  // vars(obj)
      Evidence e = index->At(path, k);
      e.what = std::string(word) + " may read every local of the function, " + var +
               " included: " + e.what;
      out.push_back(e);
    }
  }
  if (auto frame = FrameLocalsRead(index, [&](const std::string& q) { return reach.Reached(q); })) {
    Evidence e = *frame;
    e.what = "a frame's locals read whole, which may be the locals holding " + var + ": " + e.what;
    out.push_back(e);
  }
  return out;
}

// How deep the names bound to a read's value are followed (`a = v; b = a`).
constexpr int kAliasDepth = 4;

// Where the reads of one file send the value they read (value_use.h).
class ReadUses {
 public:
  ReadUses(TreeIndex* index, const std::string& path, const StatementTable& lines)
      : index_(index), path_(path), lines_(lines), parses_(lines) {}

  // The read of the key whose string literal (quotes included) is at
  // [begin, end): nullopt when its value reaches a call as it is, is
  // tested or dropped, on every use; else where it is changed.
  std::optional<ChangedRead> OfKeyAt(std::size_t begin, std::size_t end) {
    auto found = parses_.PathAt(begin, end - begin);
    if (!found || found->tree == nullptr) return At(begin, "a read in code that does not parse");
    std::vector<TSNode>& path = found->path;
    // `x['KEY']` (the subscript) or `x.get('KEY', ...)` (the call).
    bool ok = path.size() >= 3 && Is(path.back(), "string");
    if (ok && Is(path[path.size() - 2], "subscript") &&
        FieldIs(path[path.size() - 2], "subscript", path.back())) {
      path.pop_back();
      // `x['KEY'] //= 2`: a transform of the value itself, which the value
      // gate follows (later_transforms.h).
      if (path.size() >= 2 && Is(path[path.size() - 2], "augmented_assignment") &&
          FieldIs(path[path.size() - 2], "left", path.back())) {
        return std::nullopt;
      }
    } else if (ok && Is(path[path.size() - 2], "argument_list") &&
               Is(path[path.size() - 3], "call")) {
      path.resize(path.size() - 2);
    } else {
      return At(begin, "a read of a form muhpatch does not follow");
    }
    return Follow(*found->tree, found->begin, path, false, 0);
  }

 private:
  std::optional<ChangedRead> Follow(const SyntaxTree& tree, std::size_t base,
                                    const std::vector<TSNode>& path, bool changed, int depth) {
    ValueUse u = UseOfValue(tree, path, changed);
    TSNode at = ts_node_is_null(u.at) ? path.back() : u.at;
    std::size_t offset = base + ts_node_start_byte(at);
    switch (u.kind) {
      case ValueUseKind::kPassed:
      case ValueUseKind::kDerived:
      case ValueUseKind::kTested:
      case ValueUseKind::kDiscarded:
        return std::nullopt;
      case ValueUseKind::kChanged:
        if (accept_carried_ && u.carried) return std::nullopt;
        return At(offset, std::string(TextOf(tree, at)));
      case ValueUseKind::kAliased:
        break;
    }
    TSNode left = Field(u.at, "left");
    std::string name(TextOf(tree, left));
    std::size_t bound = base + ts_node_start_byte(left);
    if (depth >= kAliasDepth) return At(offset, std::string(TextOf(tree, at)));
    if (Enclosing(bound) < 0) {
      // Bound to a module's or a class's name, read as an attribute
      // anywhere: handed on whole, for a name site (kCarriedAssumption).
      if (accept_carried_ && !u.changed) return std::nullopt;
      return At(offset,
                std::string(TextOf(tree, at)) + ", a module-level name other modules may read");
    }
    return InScope(name, bound, u.changed, depth + 1, /*rebinding_ends=*/false);
  }

 public:
  // The reads of `name`, bound at `bound` (the target's first byte): in
  // the def that binds it, or the whole file for a module-level name.
  // `rebinding_ends`: another binding of the name gives it another value,
  // whose reads are no concern (the reads are taken flow-insensitively, so
  // they are a superset of those of this value); else a binding is itself
  // a change (an alias a caller follows must hold the value throughout).
  std::optional<ChangedRead> InScope(const std::string& name, std::size_t bound, bool changed,
                                     int depth, bool rebinding_ends) {
    const std::vector<LogicalLine>& ls = lines_.lines();
    int j = Enclosing(bound);
    std::size_t from = 0;
    std::size_t to = lines_.src().size();
    if (j >= 0) {
      int end = index_->BlockEnd(path_, j);
      from = ls[static_cast<std::size_t>(j)].begin;
      if (end < static_cast<int>(ls.size())) to = ls[static_cast<std::size_t>(end)].begin;
    }
    // Copied: PathAt may ask for other names' occurrences meanwhile.
    std::vector<std::size_t> occ = index_->Occurrences(path_, name);
    // `global NAME` (or `nonlocal`) in the def: the name is an outer
    // scope's, read anywhere in the file.
    for (std::size_t o : occ) {
      if (j < 0 || o < from || o >= to || !lines_.InCode(o)) continue;
      auto found = parses_.PathAt(o, name.size());
      if (found && found->tree != nullptr && UseOf(found->path) == NameUse::kDeclare &&
          Enclosing(o) == j) {
        from = 0;
        to = lines_.src().size();
        break;
      }
    }
    for (std::size_t o : occ) {
      if (o < from || o >= to || o == bound || !lines_.InCode(o)) continue;
      auto found = parses_.PathAt(o, name.size());
      if (!found || found->tree == nullptr) return At(o, "a read in code that does not parse");
      NameUse use = UseOf(found->path);
      if (use == NameUse::kNotAName) continue;
      if (use != NameUse::kRead) {
        if (rebinding_ends) continue;
        return At(o, name + " bound again: " + index_->At(path_, lines_.IndexAt(o)).what);
      }
      if (auto c = Follow(*found->tree, found->begin, found->path, changed, depth)) return c;
    }
    return std::nullopt;
  }

 private:
  // The def whose body holds byte `offset` (its line), or -1 at the top level.
  int Enclosing(std::size_t offset) const {
    int j = lines_.IndexAt(offset);
    while (j >= 0 && lines_.Keyword(j) != "def" && lines_.Keyword(j) != "async") {
      j = lines_.lines()[static_cast<std::size_t>(j)].parent;
    }
    return j;
  }

  ChangedRead At(std::size_t offset, std::string expression) {
    ChangedRead c;
    c.at = index_->At(path_, lines_.IndexAt(offset));
    c.at.line = lines_.LineOf(offset);  // the physical line: a call spans several
    std::string_view src = lines_.src();
    std::size_t line_start = offset == 0 ? 0 : src.rfind('\n', offset - 1);
    line_start = line_start == std::string_view::npos || offset == 0 ? 0 : line_start + 1;
    c.column = static_cast<int>(offset - line_start) + 1;
    c.expression = std::move(expression);
    return c;
  }

  TreeIndex* index_;
  const std::string& path_;
  const StatementTable& lines_;
  TopStatements parses_;

 public:
  // A value handed on whole (returned, put in a container) counts as
  // reaching its consumer as it is (kCarriedAssumption), not as changed.
  bool accept_carried_ = false;
};

}  // namespace

std::vector<ChangedRead> ChangedReadsOfName(TreeIndex* index, const std::string& path,
                                            const std::string& name, std::size_t bound) {
  const StatementTable* lines = index->Lines(path);
  if (lines == nullptr) return {};
  ReadUses uses(index, path, *lines);
  uses.accept_carried_ = true;
  std::optional<ChangedRead> c = uses.InScope(name, bound, false, 0, /*rebinding_ends=*/true);
  if (!c) return {};
  return {std::move(*c)};
}

KeyReadResult ReadsOfKey(TreeIndex* index, const Reachability& reach, const std::string& path,
                         const std::string& var, const std::string& key) {
  KeyReadResult out;
  // The key read as a literal anywhere that runs.
  std::vector<Evidence> literal_reads;
  std::vector<Evidence> literal_doubts;
  for (const std::string& q : index->paths()) {
    // A read in a module that may run, reached or not shown unreached,
    // may clamp the value; only reached ones say that the key is read.
    bool reached = reach.Reached(q);
    if (!reached && reach.entry_found() && reach.Doubted(q) == nullptr) continue;
    const std::vector<std::size_t>& occ = index->Occurrences(q, key);
    if (occ.empty()) continue;
    const StatementTable* lines = index->Lines(q);
    if (lines == nullptr) continue;
    std::string_view src = lines->src();
    std::optional<ReadUses> uses;
    int changed_line = -1;
    for (std::size_t o : occ) {
      int k = lines->IndexAt(o);
      if (k < 0 || !lines->InString(o) || !LineRuns(index, q, k)) continue;
      // In a string: the forms below read or write the key; a docstring or
      // a message does neither; any other string may name it (a list of
      // keys, getattr): a doubt.
      auto doubt = [&]() {
        if (!reached || InProse(*lines, o)) return;
        Evidence e = index->At(q, k);
        e.what = "'" + key +
                 "' in a string that is none of the forms the analysis models (x['KEY'], "
                 "x.get/pop/setdefault('KEY'), 'KEY' in x, {'KEY': v}, a docstring or message): " +
                 e.what;
        literal_doubts.push_back(e);
      };
      if (o < 1 || o + key.size() + 1 > src.size()) {
        doubt();
        continue;
      }
      char quote = src[o - 1];
      if ((quote != '\'' && quote != '"') || src[o + key.size()] != quote) {
        doubt();
        continue;
      }
      std::size_t b = lines->CodeBefore(o - 1);
      std::size_t a = lines->CodeAfter(o + key.size() + 1);
      bool subscript = b > 0 && src[b - 1] == '[' && a < src.size() && src[a] == ']';
      if (subscript) {
        std::size_t after = a + 1;
        while (after < src.size() && src[after] == ' ') ++after;
        bool store = after < src.size() && src[after] == '=' &&
                     (after + 1 >= src.size() || src[after + 1] != '=');
        if (store) continue;
      }
      bool get = (b >= 5 && src.substr(b - 5, 5) == ".get(") ||
                 (b >= 5 && src.substr(b - 5, 5) == ".pop(") ||
                 (b >= 12 && src.substr(b - 12, 12) == ".setdefault(");
      bool in = src.substr(a, 3) == "in ";
      bool dict_key =
          b > 0 && (src[b - 1] == '{' || src[b - 1] == ',') && a < src.size() && src[a] == ':';
      // In a `case` pattern, `{'KEY': v}` reads the key of the subject.
      bool pattern = lines->Keyword(k) == "case";
      if (dict_key && !pattern) continue;  // a write: `{'KEY': v}`
      if (!subscript && !get && !in && !pattern) {
        doubt();
        continue;
      }
      if (reached) {
        Evidence e = index->At(q, k);
        e.what = "reads '" + key + "': " + e.what;
        literal_reads.push_back(e);
      }
      if ((subscript || get) && k != changed_line) {
        if (!uses) uses.emplace(index, q, *lines);
        if (auto c = uses->OfKeyAt(o - 1, o + key.size() + 1)) {
          out.changed.push_back(std::move(*c));
          changed_line = k;
        }
      }
    }
  }
  DictFlow flow = FollowDict(index, reach, path, var, key);
  if (!literal_reads.empty() || !flow.reads.empty()) {
    out.read = Tri::kTrue;
    out.why = "key '" + key + "' is read";
    out.evidence = literal_reads;
    out.evidence.insert(out.evidence.end(), flow.reads.begin(), flow.reads.end());
    if (out.evidence.size() > 6) out.evidence.resize(6);
    return out;
  }
  if (!literal_doubts.empty()) {
    out.read = Tri::kUnknown;
    out.why = "key '" + key + "' is written in a string the analysis cannot account for";
    out.evidence = literal_doubts;
    if (out.evidence.size() > 6) out.evidence.resize(6);
    return out;
  }
  std::vector<Evidence> whole = WholeLocals(index, reach, path, var);
  if (!whole.empty()) {
    out.read = Tri::kUnknown;
    out.why = "the locals that hold " + var + " are read as a whole";
    out.evidence = whole;
    if (out.evidence.size() > 6) out.evidence.resize(6);
    return out;
  }
  if (flow.unknown) {
    out.read = Tri::kUnknown;
    out.why = "the dict in " + var + " reaches code the analysis cannot see into";
    out.evidence = flow.doubts;
    if (out.evidence.size() > 6) out.evidence.resize(6);
    return out;
  }
  out.read = Tri::kFalse;
  out.why = "no reached code reads key '" + key + "'";
  out.evidence = flow.facts_used;
  return out;
}

}  // namespace muh
