#include "engine/liveness/key_reads.h"

#include <cctype>
#include <cstring>
#include <set>

#include "engine/liveness/key_flow.h"
#include "engine/liveness/overwrite.h"
#include "engine/liveness/prose.h"

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

}  // namespace

KeyReadResult ReadsOfKey(TreeIndex* index, const Reachability& reach, const std::string& path,
                         const std::string& var, const std::string& key) {
  KeyReadResult out;
  // The key read as a literal anywhere that runs.
  std::vector<Evidence> literal_reads;
  std::vector<Evidence> literal_doubts;
  for (const std::string& q : index->paths()) {
    if (!reach.Reached(q)) continue;
    const std::vector<std::size_t>& occ = index->Occurrences(q, key);
    if (occ.empty()) continue;
    const StatementTable* lines = index->Lines(q);
    if (lines == nullptr) continue;
    std::string_view src = lines->src();
    for (std::size_t o : occ) {
      int k = lines->IndexAt(o);
      if (k < 0 || !lines->InString(o) || !LineRuns(index, q, k)) continue;
      // In a string: the forms below read or write the key; a docstring or
      // a message does neither; any other string may name it (a list of
      // keys, getattr): a doubt.
      auto doubt = [&]() {
        if (InProse(*lines, o)) return;
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
      Evidence e = index->At(q, k);
      e.what = "reads '" + key + "': " + e.what;
      literal_reads.push_back(e);
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
