#include "engine/liveness/key_reads.h"

#include <cctype>
#include <set>
#include <tuple>

namespace muh {

namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool IsWordChar(char c) {
  unsigned char u = static_cast<unsigned char>(c);
  return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '_' ||
         u >= 0x80;
}

// Whether the line runs: its branch is taken and no return precedes it.
bool Runs(TreeIndex* index, const std::string& path, int k) {
  return index->Guard(path, k).value != Tri::kFalse && !index->AfterExit(path, k);
}

class Flow {
 public:
  Flow(TreeIndex* index, const std::string& key) : index_(index), key_(key) {}

  // Follows `var` through the lines [begin, end) of `path`.
  void Follow(const std::string& path, const std::string& var, int begin, int end) {
    if (!seen_.insert(std::make_tuple(path, var, begin)).second) return;
    const PyLines* lines = index_->Lines(path);
    if (lines == nullptr) {
      Unknown(Evidence{path, 0, "the file could not be read or lexed"}, "");
      return;
    }
    std::string_view src = lines->src();
    for (std::size_t o : index_->Occurrences(path, var)) {
      if (!lines->InCode(o)) continue;
      int k = lines->IndexAt(o);
      if (k < begin || k >= end || k < 0 || !Runs(index_, path, k)) continue;
      if (o >= 2 && src.substr(o - 2, 2) == "**") {
        Read(index_->At(path, k), "**" + var + " passes every key");
        continue;
      }
      // A bare argument: `(var,` `, var)` or `name=var`.
      std::size_t b = o;
      while (b > 0 && (src[b - 1] == ' ' || src[b - 1] == '\n' || src[b - 1] == '\r')) --b;
      std::size_t a = o + var.size();
      while (a < src.size() && std::isspace(static_cast<unsigned char>(src[a]))) ++a;
      if (b == 0 || a >= src.size() || (src[a] != ',' && src[a] != ')')) continue;
      std::string keyword;
      if (src[b - 1] == '=' && b >= 2 && IsWordChar(src[b - 2])) {
        std::size_t kb = b - 1;
        while (kb > 0 && IsWordChar(src[kb - 1])) --kb;
        keyword = std::string(src.substr(kb, b - 1 - kb));
        b = kb;
        while (b > 0 && std::isspace(static_cast<unsigned char>(src[b - 1]))) --b;
      }
      if (b == 0 || (src[b - 1] != '(' && src[b - 1] != ',')) continue;
      Call(path, *lines, k, o, keyword);
    }
  }

  bool unknown = false;
  std::vector<Evidence> reads;
  std::vector<Evidence> doubts;
  std::string why;

 private:
  void Read(const Evidence& at, const std::string& what) {
    Evidence e = at;
    e.what = what + ": " + e.what;
    reads.push_back(e);
  }
  void Unknown(const Evidence& at, const std::string& what) {
    unknown = true;
    Evidence e = at;
    if (!what.empty()) e.what = what + ": " + e.what;
    doubts.push_back(e);
  }

  // The call whose argument list holds offset `o` (the variable).
  void Call(const std::string& path, const PyLines& lines, int k, std::size_t o,
            const std::string& keyword) {
    std::string_view src = lines.src();
    // Back to the unmatched '(' before `o`, counting the arguments before it.
    int depth = 0;
    int position = 0;
    std::size_t i = o;
    std::size_t line_code = lines.lines()[static_cast<std::size_t>(k)].code;
    for (; i > line_code; --i) {
      char c = src[i - 1];
      if (!lines.InCode(i - 1)) continue;
      if (c == ')' || c == ']' || c == '}') ++depth;
      if (c == '(' || c == '[' || c == '{') {
        if (depth == 0) break;
        --depth;
      }
      if (c == ',' && depth == 0) ++position;
    }
    if (i <= line_code || src[i - 1] != '(') return;
    std::size_t callee_end = i - 1;
    std::size_t callee_begin = callee_end;
    while (callee_begin > line_code &&
           (IsWordChar(src[callee_begin - 1]) || src[callee_begin - 1] == '.')) {
      --callee_begin;
    }
    std::string callee(src.substr(callee_begin, callee_end - callee_begin));
    Evidence at = index_->At(path, k);
    if (callee.empty()) {
      Unknown(at, "passed to a call the analysis cannot name");
      return;
    }
    std::size_t dot = callee.rfind('.');
    std::string fn = dot == std::string::npos ? callee : callee.substr(dot + 1);
    std::string qualifier = dot == std::string::npos ? "" : callee.substr(0, dot);
    // The module the callee lives in: this file, or the one its qualifier names.
    std::string target_path = path;
    std::string module_name;
    if (!qualifier.empty()) {
      module_name = ImportedModule(path, lines, qualifier);
      const std::string* p = module_name.empty() ? nullptr : index_->modules().PathOf(module_name);
      target_path = p == nullptr ? "" : *p;
    }
    for (const DeclaredFact& f : index_->facts().declared) {
      if (f.kind != DeclaredFact::Kind::kReadsKeys) continue;
      bool match = f.path.empty() ? (!module_name.empty() && f.callee == module_name + "." + fn)
                                  : (f.path == target_path && f.callee == fn);
      if (!match) continue;
      for (const std::string& rk : f.reads_keys) {
        if (rk == key_) Read(at, "declared to read '" + key_ + "' (" + f.source + ")");
      }
      Evidence e = at;
      e.what = "declared: " + callee + " reads only " + Join(f.reads_keys) + " (" + f.source +
               "): " + e.what;
      facts_used.push_back(e);
      return;
    }
    if (target_path.empty()) {
      Unknown(at, "passed to " + callee + ", outside the tree");
      return;
    }
    int def = FindDef(target_path, fn);
    if (def < 0) {
      Unknown(at, "passed to " + callee + ", which the analysis cannot find");
      return;
    }
    std::string param = Parameter(target_path, def, position, keyword);
    if (param.empty()) {
      Unknown(at, "passed to " + callee + " through *args or **kwargs");
      return;
    }
    Follow(target_path, param, def, index_->BlockEnd(target_path, def));
  }

 public:
  std::vector<Evidence> facts_used;

 private:
  static std::string Join(const std::vector<std::string>& v) {
    std::string out;
    for (const std::string& s : v) out += (out.empty() ? "" : ", ") + s;
    return out;
  }

  // The module an alias names in `path`: `import a.b as q`, `from a import b as q`.
  std::string ImportedModule(const std::string& path, const PyLines& lines,
                             const std::string& qualifier) {
    if (qualifier.find('.') != std::string::npos) {
      return index_->modules().PathOf(qualifier) != nullptr ? qualifier : "";
    }
    for (std::size_t o : index_->Occurrences(path, qualifier)) {
      int k = lines.IndexAt(o);
      if (k < 0 || (lines.Keyword(k) != "import" && lines.Keyword(k) != "from")) continue;
      auto stmt = ParseImport(lines.Code(k));
      if (!stmt) continue;
      for (const ImportedName& n : stmt->names) {
        std::string bound = n.alias.empty() ? n.name : n.alias;
        if (bound != qualifier) continue;
        if (!stmt->is_from) return n.name;
        const std::string* me = index_->modules().ModuleOf(path);
        auto base = me ? ResolveRelative(*me, IsPackageInit(path), stmt->level, stmt->from_module)
                       : std::optional<std::string>(stmt->from_module);
        if (!base) return "";
        return *base + "." + n.name;
      }
    }
    return "";
  }

  int FindDef(const std::string& path, const std::string& fn) {
    const PyLines* lines = index_->Lines(path);
    if (lines == nullptr) return -1;
    for (std::size_t o : index_->Occurrences(path, fn)) {
      int k = lines->IndexAt(o);
      if (k >= 0 && lines->lines()[static_cast<std::size_t>(k)].parent == -1 &&
          index_->DefinedName(path, k) == fn && lines->Keyword(k) != "class") {
        return k;
      }
    }
    return -1;
  }

  // The name of parameter `position` (or `keyword`) of the def on line `k`.
  std::string Parameter(const std::string& path, int k, int position, const std::string& keyword) {
    const PyLines* lines = index_->Lines(path);
    std::string_view code = lines->Code(k);
    std::size_t open = code.find('(');
    if (open == std::string_view::npos) return "";
    std::vector<std::string> names;
    int depth = 0;
    std::size_t start = open + 1;
    std::size_t base = lines->lines()[static_cast<std::size_t>(k)].code;
    for (std::size_t i = open + 1; i < code.size(); ++i) {
      if (!lines->InCode(base + i)) continue;
      char c = code[i];
      if (c == '(' || c == '[' || c == '{') ++depth;
      if ((c == ')' || c == ']' || c == '}') && depth-- == 0) {
        names.emplace_back(Trim(code.substr(start, i - start)));
        break;
      }
      if (c == ',' && depth == 0) {
        names.emplace_back(Trim(code.substr(start, i - start)));
        start = i + 1;
      }
    }
    for (std::string& n : names) {
      std::size_t e = 0;
      while (e < n.size() && (IsWordChar(n[e]) || n[e] == '*')) ++e;
      n = n.substr(0, e);
    }
    if (!keyword.empty()) {
      for (const std::string& n : names) {
        if (n == keyword) return n;
      }
      return "";
    }
    if (position < 0 || position >= static_cast<int>(names.size())) return "";
    const std::string& n = names[static_cast<std::size_t>(position)];
    return n.empty() || n[0] == '*' ? "" : n;
  }

  TreeIndex* index_;
  const std::string& key_;
  std::set<std::tuple<std::string, std::string, int>> seen_;
};

}  // namespace

KeyReadResult ReadsOfKey(TreeIndex* index, const Reachability& reach, const std::string& path,
                         const std::string& var, const std::string& key) {
  KeyReadResult out;
  // The key read as a literal anywhere that runs.
  std::vector<Evidence> literal_reads;
  for (const std::string& q : index->paths()) {
    if (!reach.Reached(q)) continue;
    const std::vector<std::size_t>& occ = index->Occurrences(q, key);
    if (occ.empty()) continue;
    const PyLines* lines = index->Lines(q);
    if (lines == nullptr) continue;
    std::string_view src = lines->src();
    for (std::size_t o : occ) {
      if (o < 2 || o + key.size() + 1 >= src.size()) continue;
      char quote = src[o - 1];
      if ((quote != '\'' && quote != '"') || src[o + key.size()] != quote) continue;
      std::size_t b = o - 1;
      while (b > 0 && std::isspace(static_cast<unsigned char>(src[b - 1]))) --b;
      std::size_t a = o + key.size() + 1;
      while (a < src.size() && std::isspace(static_cast<unsigned char>(src[a]))) ++a;
      bool subscript = b > 0 && src[b - 1] == '[' && a < src.size() && src[a] == ']';
      if (subscript) {
        std::size_t after = a + 1;
        while (after < src.size() && src[after] == ' ') ++after;
        bool store = after < src.size() && src[after] == '=' &&
                     (after + 1 >= src.size() || src[after + 1] != '=');
        if (store) continue;
      }
      bool get = b >= 5 && src.substr(b - 5, 5) == ".get(";
      bool in = src.substr(a, 3) == "in ";
      if (!subscript && !get && !in) continue;
      int k = lines->IndexAt(o);
      if (k < 0 || !Runs(index, q, k)) continue;
      Evidence e = index->At(q, k);
      e.what = "reads '" + key + "': " + e.what;
      literal_reads.push_back(e);
    }
  }
  Flow flow(index, key);
  const PyLines* lines = index->Lines(path);
  if (lines != nullptr) flow.Follow(path, var, 0, static_cast<int>(lines->lines().size()));
  if (!literal_reads.empty() || !flow.reads.empty()) {
    out.read = Tri::kTrue;
    out.why = "key '" + key + "' is read";
    out.evidence = literal_reads;
    out.evidence.insert(out.evidence.end(), flow.reads.begin(), flow.reads.end());
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
