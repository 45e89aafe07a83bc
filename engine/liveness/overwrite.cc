#include "engine/liveness/overwrite.h"

#include <cctype>

#include "engine/base/text.h"

namespace muh {

namespace {

bool IsIdentifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

// `'k'` or `"k"`: k.
std::optional<std::string> Quoted(std::string_view s) {
  s = Trim(s);
  if (s.size() < 2 || (s[0] != '\'' && s[0] != '"') || s.back() != s[0]) return std::nullopt;
  std::string_view inner = s.substr(1, s.size() - 2);
  if (inner.find(s[0]) != std::string_view::npos) return std::nullopt;
  return std::string(inner);
}

enum class Flow { kRead, kKilled, kFallsThrough };

class Scanner {
 public:
  Scanner(TreeIndex* index, const std::string& path, const WriteSite& site)
      : index_(index), path_(path), site_(site), lines_(*index->Lines(path)) {}

  // From the line after `x` to the end of the function.
  Flow After(int x) {
    for (;;) {
      Flow f = Siblings(x);
      if (f != Flow::kFallsThrough) return f;
      int parent = Line(x).parent;
      if (parent < 0) return Flow::kRead;  // module level: a global
      std::string_view kw = lines_.Keyword(parent);
      if (kw == "def" || kw == "async") return Flow::kKilled;  // a local dies here
      if (kw == "if" || kw == "elif" || kw == "else" || kw == "try" || kw == "except" ||
          kw == "finally" || kw == "with") {
        int end = ChainEnd(parent);
        // Out of a try block or handler, the later handlers and the
        // `finally` may run and read the variable.
        bool try_chain = kw == "try" || kw == "except" || kw == "finally";
        for (int h = index_->BlockEnd(path_, parent); h <= end; h = index_->BlockEnd(path_, h)) {
          std::string_view hk = lines_.Keyword(h);
          try_chain = try_chain || hk == "except" || hk == "finally";
        }
        if (try_chain) {
          for (int h = index_->BlockEnd(path_, parent); h <= end; h = index_->BlockEnd(path_, h)) {
            if (BlockMentions(h)) return Flow::kRead;
          }
        }
        x = end;
        continue;
      }
      return Flow::kRead;  // loops come round; anything else is a doubt
    }
  }

  std::vector<Evidence> kills;

 private:
  const LogicalLine& Line(int k) const { return lines_.lines()[static_cast<std::size_t>(k)]; }
  int Count() const { return static_cast<int>(lines_.lines().size()); }

  bool Mentions(int k) const { return HasWord(lines_.Code(k), site_.var); }
  bool BlockMentions(int h) {
    int end = index_->BlockEnd(path_, h);
    for (int j = h; j < end; ++j) {
      if (Mentions(j)) return true;
    }
    return false;
  }

  // The last header of the if/elif/else or try/except chain headed at `h`.
  int ChainEnd(int h) {
    int last = h;
    for (int j = index_->BlockEnd(path_, h); j < Count() && Line(j).parent == Line(h).parent;
         j = index_->BlockEnd(path_, j)) {
      std::string_view kw = lines_.Keyword(j);
      if (kw != "elif" && kw != "else" && kw != "except" && kw != "finally") break;
      last = j;
    }
    return last;
  }

  // The statements after `x` in its block.
  Flow Siblings(int x) {
    int parent = Line(x).parent;
    for (int j = index_->BlockEnd(path_, x); j < Count() && Line(j).parent == parent;) {
      Flow f = Statement(j, &j);
      if (f != Flow::kFallsThrough) return f;
    }
    return Flow::kFallsThrough;
  }

  // The children of header `h`, in order.
  Flow Body(int h) {
    int first = h + 1;
    if (first >= Count() || Line(first).parent != h) return Flow::kFallsThrough;
    for (int j = first; j < Count() && Line(j).parent == h;) {
      Flow f = Statement(j, &j);
      if (f != Flow::kFallsThrough) return f;
    }
    return Flow::kFallsThrough;
  }

  // Statement `j`; sets `*next` to the line after it (and after its chain).
  Flow Statement(int j, int* next) {
    std::string_view kw = lines_.Keyword(j);
    // Several statements on one line (`;`, a one-line `if c: return v`):
    // a mention anywhere on it reads.
    if (lines_.HasSeveralStatements(j) && Mentions(j)) {
      *next = index_->BlockEnd(path_, kw == "if" || kw == "try" ? ChainEnd(j) : j);
      return Flow::kRead;
    }
    if (kw == "if") {
      int end = ChainEnd(j);
      *next = index_->BlockEnd(path_, end);
      bool all_killed = true;
      bool has_else = false;
      for (int h = j; h <= end; h = index_->BlockEnd(path_, h)) {
        std::string_view hk = lines_.Keyword(h);
        has_else = has_else || hk == "else";
        if (Mentions(h)) return Flow::kRead;  // its condition, or a one-line body
        Flow f = Body(h);
        if (f == Flow::kRead) return f;
        all_killed = all_killed && f == Flow::kKilled;
      }
      return has_else && all_killed ? Flow::kKilled : Flow::kFallsThrough;
    }
    bool compound = kw == "for" || kw == "while" || kw == "with" || kw == "try" || kw == "def" ||
                    kw == "class" || kw == "async" || kw == "match";
    if (compound) {
      int end = kw == "try" ? ChainEnd(j) : j;
      *next = index_->BlockEnd(path_, end);
      for (int h = j; h < *next; h = index_->BlockEnd(path_, h)) {
        if (BlockMentions(h)) return Flow::kRead;
      }
      return Flow::kFallsThrough;
    }
    *next = index_->BlockEnd(path_, j);
    if (kw == "return" || kw == "raise") {
      return Mentions(j) ? Flow::kRead : Flow::kKilled;
    }
    // Out of the loop, or round it again: what runs next is not the
    // statement after this one, and may read the value.
    if (kw == "break" || kw == "continue") return Flow::kRead;
    if (!Mentions(j)) return Flow::kFallsThrough;
    auto eq = AssignmentEquals(lines_, j);
    if (!eq) return Flow::kRead;
    std::string_view src = lines_.src();
    std::string_view target = Trim(src.substr(Line(j).code, *eq - Line(j).code));
    std::string_view value = src.substr(*eq + 1, Line(j).code_end - *eq - 1);
    if (*eq > 0 && src[*eq - 1] != ' ' && !std::isalnum(static_cast<unsigned char>(src[*eq - 1])) &&
        src[*eq - 1] != '_' && src[*eq - 1] != ']') {
      return Flow::kRead;  // `+=` and friends read first
    }
    if (HasWord(value, site_.var)) return Flow::kRead;
    if (target == site_.var) {
      kills.push_back(index_->At(path_, j));
      return Flow::kKilled;
    }
    std::string prefix = site_.var + "[";
    if (target.substr(0, prefix.size()) == prefix && target.back() == ']') {
      auto key = Quoted(target.substr(prefix.size(), target.size() - prefix.size() - 1));
      if (!key) return Flow::kRead;
      if (!site_.key.empty() && *key == site_.key) {
        kills.push_back(index_->At(path_, j));
        return Flow::kKilled;
      }
      return Flow::kFallsThrough;  // another key's write
    }
    return Flow::kRead;
  }

  TreeIndex* index_;
  const std::string& path_;
  const WriteSite& site_;
  const StatementTable& lines_;
};

}  // namespace

std::optional<WriteSite> WriteSiteAt(const StatementTable& lines, std::size_t offset) {
  int k = lines.IndexAt(offset);
  if (k < 0) return std::nullopt;
  auto eq = AssignmentEquals(lines, k);
  if (!eq || offset <= *eq) return std::nullopt;
  std::string_view src = lines.src();
  const LogicalLine& l = lines.lines()[static_cast<std::size_t>(k)];
  std::string_view target = Trim(src.substr(l.code, *eq - l.code));
  if (*eq > 0 && (src[*eq - 1] == '+' || src[*eq - 1] == '-' || src[*eq - 1] == '*' ||
                  src[*eq - 1] == '/' || src[*eq - 1] == '%' || src[*eq - 1] == '|' ||
                  src[*eq - 1] == '&' || src[*eq - 1] == '^' || src[*eq - 1] == '@')) {
    return std::nullopt;
  }
  WriteSite site;
  site.line = k;
  if (IsIdentifier(target)) {
    site.var = std::string(target);
    std::string_view value = Trim(src.substr(*eq + 1, l.code_end - *eq - 1));
    if (!value.empty() && value.front() == '{') {
      // The key of the pair whose value starts at `offset`: `'KEY': <site>`.
      std::size_t i = offset;
      while (i > *eq && std::isspace(static_cast<unsigned char>(src[i - 1]))) --i;
      if (i > *eq && src[i - 1] == ':') {
        --i;
        while (i > *eq && std::isspace(static_cast<unsigned char>(src[i - 1]))) --i;
        if (i > *eq && (src[i - 1] == '\'' || src[i - 1] == '"')) {
          char q = src[i - 1];
          std::size_t open = src.rfind(q, i - 2);
          if (open != std::string_view::npos && open > *eq) {
            site.key = std::string(src.substr(open + 1, i - 2 - open));
          }
        }
      }
    }
    return site;
  }
  std::size_t bracket = target.find('[');
  if (bracket == std::string_view::npos || target.back() != ']') return std::nullopt;
  std::string_view var = Trim(target.substr(0, bracket));
  auto key = Quoted(target.substr(bracket + 1, target.size() - bracket - 2));
  if (!IsIdentifier(var) || !key) return std::nullopt;
  site.var = std::string(var);
  site.key = *key;
  return site;
}

std::optional<Evidence> FrameLocalsRead(TreeIndex* index,
                                        const std::function<bool(const std::string&)>& counts) {
  for (const std::string& q : index->paths()) {
    for (const char* word : kFrameLocalsWords) {
      const std::vector<std::size_t>& occ = index->Occurrences(q, word);
      if (occ.empty() || !counts(q)) continue;
      const StatementTable* lines = index->Lines(q);
      if (lines == nullptr) return Evidence{q, 0, "the file could not be read or parsed"};
      std::string_view src = lines->src();
      const bool subscript_reads_one = std::string_view(word) == "f_locals";
      for (std::size_t o : occ) {
        int k = lines->IndexAt(o);
        if (k < 0 || !lines->InCode(o)) continue;
        std::size_t a = o + std::string_view(word).size();
        while (a < src.size() && src[a] == ' ') ++a;
        if (subscript_reads_one && a + 1 < src.size() && src[a] == '[' &&
            (src[a + 1] == '"' || src[a + 1] == '\'')) {
          continue;
        }
        return index->At(q, k);
      }
    }
  }
  return std::nullopt;
}

OverwriteResult Overwritten(TreeIndex* index, const std::string& path, const WriteSite& site) {
  OverwriteResult out;
  const StatementTable* lines = index->Lines(path);
  if (lines == nullptr) return out;
  bool in_function = false;
  index->OutermostUnit(path, site.line, &in_function);
  if (!in_function) return out;
  // The site's own line holds more statements (`v = {...}; return v`): no
  // verdict.
  if (lines->HasSeveralStatements(site.line)) return out;
  // The nearest def around it: a nested def, class or lambda that mentions
  // the variable reads it whenever it is called (a closure), and locals(),
  // vars(), eval or exec read every local.
  int def = lines->lines()[static_cast<std::size_t>(site.line)].parent;
  while (def >= 0 && lines->Keyword(def) != "def" && lines->Keyword(def) != "async") {
    def = lines->lines()[static_cast<std::size_t>(def)].parent;
  }
  if (def < 0) return out;
  int def_end = index->BlockEnd(path, def);
  for (int j = def + 1; j < def_end; ++j) {
    std::string_view code = lines->Code(j);
    std::string_view kw = lines->Keyword(j);
    bool nested = kw == "def" || kw == "class" || kw == "async" || HasWord(code, "lambda");
    if (nested && HasWord(code, site.var)) return out;
    if (nested && (kw == "def" || kw == "class" || kw == "async")) {
      int e = index->BlockEnd(path, j);
      for (int i = j + 1; i < e; ++i) {
        if (HasWord(lines->Code(i), site.var)) return out;
      }
    }
    for (const char* w : kWholeLocalsWords) {
      if (HasWord(code, w)) return out;
    }
  }
  if (FrameLocalsRead(index, [](const std::string&) { return true; })) return out;
  // A `global` or `nonlocal` declaration makes the variable outlive the function.
  for (std::size_t o : index->Occurrences(path, site.var)) {
    int k = lines->IndexAt(o);
    if (k >= 0 && (lines->Keyword(k) == "global" || lines->Keyword(k) == "nonlocal")) return out;
  }
  Scanner scan(index, path, site);
  if (scan.After(site.line) != Flow::kKilled) return out;
  out.dead = true;
  std::string what = site.key.empty() ? site.var : site.var + "['" + site.key + "']";
  out.why = "overwritten: every path reassigns " + what + " before anything reads it";
  out.evidence = scan.kills;
  if (out.evidence.empty()) {
    out.why = "never read: every path leaves the function before anything reads " + what;
  }
  return out;
}

}  // namespace muh
