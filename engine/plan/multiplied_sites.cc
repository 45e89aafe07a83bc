#include "engine/plan/multiplied_sites.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>

#include "engine/base/text.h"
#include "engine/liveness/overwrite.h"
#include "engine/plan/rewritten_sites.h"
#include "engine/python/statement_table.h"

namespace muh {

namespace {

// Whether logical line `k` assigns the knob `knob` writes: the same
// variable whole, or the same key of it.
bool WritesKnob(const StatementTable& lines, int k, const WriteSite& knob) {
  const LogicalLine& l = lines.lines()[static_cast<std::size_t>(k)];
  if (l.code_end <= l.code) return false;
  std::optional<WriteSite> other = WriteSiteAt(lines, l.code_end - 1);
  return other && other->var == knob.var && (other->key.empty() || other->key == knob.key);
}

// Whether some rule found a site in [begin, end) of `path`.
bool HoldsASite(const PlanResult& plan, const std::string& path, std::size_t begin,
                std::size_t end) {
  for (const RuleOutcome& o : plan.outcomes) {
    for (const Site& s : o.found) {
      if (s.path == path && s.begin >= begin && s.begin < end) return true;
    }
  }
  return false;
}

// The first write of `site`'s knob, after the site, that overwrites it and
// holds no rule's site: its logical line in `lines`, or -1.
int UnmanagedOverwrite(const LivenessAnalysis& analysis, const StatementTable& lines,
                       const PlanResult& plan, const Site& site) {
  std::optional<WriteSite> knob = WriteSiteAt(lines, site.begin);
  if (!knob) return -1;
  // The state and its evidence: the assumptions it rests on are not needed.
  SiteLiveness l = analysis.At(site.path, site.begin, false);
  if (l.state != Liveness::kDead) return -1;
  for (const Evidence& e : l.evidence) {
    if (e.path != site.path || e.line <= 0) continue;
    const std::vector<LogicalLine>& all = lines.lines();
    auto at = std::find_if(all.begin(), all.end(),
                           [&](const LogicalLine& ll) { return ll.line == e.line; });
    if (at == all.end()) continue;
    int k = static_cast<int>(at - all.begin());
    if (k == knob->line || !WritesKnob(lines, k, *knob)) continue;
    if (HoldsASite(plan, site.path, at->begin, at->end)) continue;
    return k;
  }
  return -1;
}

// The header of the nearest def around line `k`, or -1.
int EnclosingDef(const StatementTable& lines, int k) {
  const std::vector<LogicalLine>& all = lines.lines();
  for (int p = all[static_cast<std::size_t>(k)].parent; p >= 0;
       p = all[static_cast<std::size_t>(p)].parent) {
    if (lines.Keyword(p) == "def" || lines.Keyword(p) == "async") return p;
  }
  return -1;
}

// Whether line `k` lies in the block of header `h` (at any depth), and
// whether a `finally` header encloses it on the way.
bool Within(const StatementTable& lines, int k, int h, bool* in_finally = nullptr) {
  const std::vector<LogicalLine>& all = lines.lines();
  for (int p = all[static_cast<std::size_t>(k)].parent; p >= 0;
       p = all[static_cast<std::size_t>(p)].parent) {
    if (p == h) return true;
    if (in_finally != nullptr && lines.Keyword(p) == "finally") *in_finally = true;
  }
  return false;
}

// The first line after header `h`'s block: lines are in source order, a
// block's lines follow its header, and each has a parent at `h` or after
// it; the first line past the block has one before it (or none).
int BlockEnd(const StatementTable& lines, int h) {
  const std::vector<LogicalLine>& all = lines.lines();
  const int n = static_cast<int>(all.size());
  int x = h + 1;
  while (x < n && all[static_cast<std::size_t>(x)].parent >= h) ++x;
  return x;
}

// The line ranges [begin, end) of the later clauses of every if/elif/else
// chain (or match) whose earlier clause holds line `k`: code there never
// runs with `k`'s. One pass over the chains around `k`.
std::vector<std::pair<int, int>> ExclusiveRanges(const StatementTable& lines, int k) {
  const std::vector<LogicalLine>& all = lines.lines();
  const int n = static_cast<int>(all.size());
  auto parent = [&](int x) { return all[static_cast<std::size_t>(x)].parent; };
  std::vector<std::pair<int, int>> out;
  for (int a = parent(k); a >= 0; a = parent(a)) {
    std::string_view kw = lines.Keyword(a);
    bool if_clause = kw == "if" || kw == "elif";
    if (!if_clause && kw != "case") continue;
    for (int c = BlockEnd(lines, a); c < n && parent(c) == parent(a);) {
      std::string_view ck = lines.Keyword(c);
      if (if_clause ? (ck != "elif" && ck != "else") : ck != "case") break;
      int end = BlockEnd(lines, c);
      out.emplace_back(c, end);
      c = end;
    }
  }
  return out;
}

// Whether line `k` lies in a def or class body (at any depth).
bool InUnit(const StatementTable& lines, int k) {
  const std::vector<LogicalLine>& all = lines.lines();
  for (int p = all[static_cast<std::size_t>(k)].parent; p >= 0;
       p = all[static_cast<std::size_t>(p)].parent) {
    std::string_view kw = lines.Keyword(p);
    if (kw == "def" || kw == "async" || kw == "class") return true;
  }
  return false;
}

}  // namespace

std::optional<std::string> ReturnedFunctionName(const StatementTable& lines, const Site& site) {
  int k = lines.IndexAt(site.begin);
  if (k < 0 || lines.Keyword(k) != "return") return std::nullopt;
  int def = EnclosingDef(lines, k);
  if (def < 0) return std::nullopt;
  std::string_view header = Trim(lines.Code(def));
  header = Trim(header.substr(header.find("def") + 3));
  return std::string(header.substr(0, header.find_first_of("( \t:")));
}

std::optional<std::pair<int, std::string>> ReturnedValueProblem(const StatementTable& lines,
                                                                const Site& site) {
  int k = lines.IndexAt(site.begin);
  if (k < 0 || lines.Keyword(k) != "return") return std::nullopt;
  const std::vector<LogicalLine>& all = lines.lines();
  int def = EnclosingDef(lines, k);
  if (def < 0) return std::nullopt;
  if (lines.Keyword(def) == "async") {
    return std::make_pair(def, std::string("the function is `async`: its callers get a "
                                           "coroutine, not the value"));
  }
  std::string_view header = Trim(lines.Code(def).substr(3));
  std::string name(header.substr(0, header.find_first_of("( \t:")));
  // Its decorators: the logical lines just above it, each `@...`.
  for (int d = def - 1; d >= 0 && all[static_cast<std::size_t>(d)].parent ==
                                      all[static_cast<std::size_t>(def)].parent;
       --d) {
    std::string_view code = Trim(lines.Code(d));
    if (code.empty() || code[0] != '@') break;
    std::string_view what = Trim(code.substr(1));
    what = what.substr(0, what.find('('));
    if (what == "functools.lru_cache" || what == "lru_cache" || what == "functools.cache" ||
        what == "cache" || what == "staticmethod" || what == "classmethod") {
      continue;  // returns what the function returned
    }
    return std::make_pair(d, "a decorator wraps the function (`" + std::string(code) +
                                 "`), and what its callers get is the wrapper's");
  }
  const int end = BlockEnd(lines, def);
  for (int j = def + 1; j < end; ++j) {
    if (EnclosingDef(lines, j) != def) continue;  // a nested def's own
    std::string_view code = lines.Code(j);
    for (std::size_t at = code.find("yield"); at != std::string_view::npos;
         at = code.find("yield", at + 5)) {
      std::size_t offset = static_cast<std::size_t>(code.data() - lines.src().data()) + at;
      bool word = (at == 0 || !IsWordChar(code[at - 1])) &&
                  (at + 5 >= code.size() || !IsWordChar(code[at + 5]));
      if (word && lines.InCode(offset)) {
        return std::make_pair(j, std::string("the function yields: its callers get a "
                                             "generator, not the value"));
      }
    }
  }
  // A module-level function: its name bound again at the module's top
  // level after it (an assignment, another def, an import, a star import),
  // or declared global anywhere, replaces the function its callers get (a
  // helper probe of 2893764: `NAME = lambda device: 16 * 1024` after the
  // def). Closed world: any later top-level mention.
  // At the module's level inside a compound statement (`try:` / `except
  // ImportError:` around it, an `if`): the def binds the name only where
  // that block runs, and what binds it elsewhere (the import the `try`
  // makes) may be what callers get (a helper probe of 5726a3b).
  for (int up = all[static_cast<std::size_t>(def)].parent; up >= 0;
       up = all[static_cast<std::size_t>(up)].parent) {
    std::string_view kw = lines.Keyword(up);
    if (kw == "def" || kw == "async" || kw == "class") return std::nullopt;  // not the module's
    if (all[static_cast<std::size_t>(up)].parent < 0) {
      return std::make_pair(up, "the def stands in a block (`" + std::string(Trim(lines.Code(up))) +
                                    "`) that binds " + name +
                                    " only where it runs; what callers get elsewhere is another "
                                    "binding's");
    }
  }
  for (int j = 0; j < static_cast<int>(all.size()); ++j) {
    if (lines.Keyword(j) == "global" && HasWord(lines.Code(j), name)) {
      return std::make_pair(j, "`global " + name + "` lets a function bind it again");
    }
  }
  for (int j = end; j < static_cast<int>(all.size()); ++j) {
    if (InUnit(lines, j)) continue;
    std::string_view code = lines.Code(j);
    bool star = (lines.Keyword(j) == "from" && code.find("import *") != std::string_view::npos);
    // A call of it (`SMEM = NAME(0)`) or `__all__` naming it binds nothing;
    // any other mention may (closed world).
    bool only_calls = lines.Keyword(j) == "__all__";
    if (!only_calls && HasWord(code, name)) {
      only_calls = true;
      for (std::size_t at = code.find(name); at != std::string_view::npos;
           at = code.find(name, at + name.size())) {
        std::size_t after = at + name.size();
        bool word = (at == 0 || !IsWordChar(code[at - 1])) &&
                    (after >= code.size() || !IsWordChar(code[after]));
        if (!word) continue;
        while (after < code.size() && code[after] == ' ') ++after;
        if (after >= code.size() || code[after] != '(') only_calls = false;
      }
    }
    if ((HasWord(code, name) && !only_calls) || star) {
      return std::make_pair(j, "the module may bind " + name +
                                   " again here, after its def: its callers may get another "
                                   "function");
    }
  }
  return std::nullopt;
}

std::optional<LaterWrite> WriteAfterSite(const StatementTable& lines, const PlanResult& plan,
                                         const Site& site) {
  std::optional<WriteSite> knob = WriteSiteAt(lines, site.begin);
  if (!knob) return std::nullopt;
  int def = EnclosingDef(lines, knob->line);
  if (def < 0) return std::nullopt;  // a module's constant: rebound_constants.h
  const std::vector<LogicalLine>& all = lines.lines();
  // A loop around the site comes round: its whole body runs after it.
  int from = knob->line + 1;
  for (int p = all[static_cast<std::size_t>(knob->line)].parent; p > def;
       p = all[static_cast<std::size_t>(p)].parent) {
    if (lines.Keyword(p) == "for" || lines.Keyword(p) == "while") from = p + 1;
  }
  const int def_end = BlockEnd(lines, def);
  const std::vector<std::pair<int, int>> exclusive = ExclusiveRanges(lines, knob->line);
  auto skipped = [&](int j) {
    const LogicalLine& l = all[static_cast<std::size_t>(j)];
    return j == knob->line || HoldsASite(plan, site.path, l.begin, l.end) ||
           std::any_of(exclusive.begin(), exclusive.end(),
                       [j](const std::pair<int, int>& r) { return r.first <= j && j < r.second; });
  };
  // A `return` in a `finally` after the site replaces whatever the
  // function returned, the site's value too.
  for (int j = knob->line + 1; j < def_end; ++j) {
    std::string_view kw = lines.Keyword(j);
    // `finally: return {...}` on one line returns from the finally too.
    bool inline_finally =
        kw == "finally" && lines.HasSeveralStatements(j) && HasWord(lines.Code(j), "return");
    if ((kw != "return" && !inline_finally) || skipped(j)) continue;
    bool in_finally = inline_finally;
    Within(lines, j, def, &in_finally);
    if (in_finally) return LaterWrite{j, true};
  }
  // The first later statement that mentions the knob: a read (the gate
  // follows it), or a write that replaces the site's value before any read.
  std::string_view src = lines.src();
  for (int j = from; j < def_end; ++j) {
    if (!HasWord(lines.Code(j), knob->var) || skipped(j)) continue;
    // A line of several statements (`if M > 64: num_warps = 2`, `x = 1;
    // num_warps = 2`) may write it: not read apart here, so it counts as a
    // write (closed world; a review of 1f23222).
    if (lines.HasSeveralStatements(j)) return LaterWrite{j, false};
    const LogicalLine& l = all[static_cast<std::size_t>(j)];
    std::optional<std::size_t> eq = AssignmentEquals(lines, j);
    if (!eq || *eq < l.code) return std::nullopt;  // a read
    std::string_view target = Trim(src.substr(l.code, *eq - l.code));
    std::string_view value = src.substr(*eq + 1, l.code_end - *eq - 1);
    // A value computed from the knob is a transform the gate follows.
    if (HasWord(value, knob->var)) return std::nullopt;
    if (target == knob->var) return LaterWrite{j, false};
    std::optional<WriteSite> keyed = WriteSiteAt(lines, l.code_end - 1);
    if (!keyed || keyed->var != knob->var || keyed->key.empty()) return std::nullopt;
    if (!knob->key.empty() && keyed->key == knob->key) return LaterWrite{j, false};
    // Another key's write: neither reads nor replaces this one.
  }
  return std::nullopt;
}

std::set<std::string> FailMultipliedSites(const LivenessAnalysis& analysis,
                                          const std::map<std::string, SourceText>& files,
                                          PlanResult* plan) {
  // A rule that failed recorded no sites: in a file with an error, the
  // writes no site holds may be its own, and the check waits for that
  // error to be fixed.
  std::set<std::string> with_errors;
  for (const Diagnostic& d : plan->diagnostics) {
    if (d.severity == Severity::kError) with_errors.insert(d.file);
  }
  std::map<std::string, std::optional<StatementTable>> lexed;
  std::set<std::string> failed;
  for (RuleOutcome& o : plan->outcomes) {
    if (o.status == RuleStatus::kFailed || ManagesNothing(o.status)) continue;
    for (const Site& site : o.found) {
      auto file = files.find(site.path);
      if (file == files.end() || with_errors.count(site.path) != 0) continue;
      auto lines = lexed.find(site.path);
      if (lines == lexed.end()) {
        lines = lexed.emplace(site.path, StatementTable::Build(file->second.bytes())).first;
      }
      if (!lines->second) continue;
      int k = UnmanagedOverwrite(analysis, *lines->second, *plan, site);
      if (k < 0 && Rewritten(site) && !site.Is(Liveness::kDead)) {
        // Not proved to overwrite, yet it may: in a `try`, an `if True:`, a
        // `finally`, a loop (a helper probe of e2916b3: the tiers written
        // 16/16/128 while a `try:` after them set 64 on every path). A
        // rewrite must reach the kernel; this one is not proved to.
        if (std::optional<LaterWrite> w = WriteAfterSite(*lines->second, *plan, site)) {
          const LogicalLine& again = lines->second->lines()[static_cast<std::size_t>(w->line)];
          Position p = file->second.PositionOf(again.code);
          plan->diagnostics.push_back(Diagnostic{
              site.path, p.line, p.column, Severity::kError,
              w->finally_return
                  ? fmt::format("rule '{}': line {} returns from a `finally` after the rule's "
                                "site at line {}: that return replaces the function's result, "
                                "and the value the rule writes may not reach the kernel",
                                o.rule_id, p.line, site.line)
                  : fmt::format("rule '{}': line {} writes the knob again after the rule's site "
                                "at line {}, and may run: the value the rule writes may not be "
                                "the one the kernel gets (no rule's query matches line {}; make "
                                "a query match it, or remove it)",
                                o.rule_id, p.line, site.line, p.line),
              o.rule_id});
          o.status = RuleStatus::kFailed;
          failed.insert(o.rule_id);
          break;
        }
      }
      if (k < 0 && Rewritten(site) && !site.Is(Liveness::kDead)) {
        if (auto bad = ReturnedValueProblem(*lines->second, site)) {
          const LogicalLine& at = lines->second->lines()[static_cast<std::size_t>(bad->first)];
          Position p = file->second.PositionOf(at.code);
          plan->diagnostics.push_back(Diagnostic{
              site.path, p.line, p.column, Severity::kError,
              fmt::format("rule '{}': its site at line {} is a function's return value, and {}: "
                          "the value the rule writes may not be what the function's callers "
                          "get",
                          o.rule_id, site.line, bad->second),
              o.rule_id});
          o.status = RuleStatus::kFailed;
          failed.insert(o.rule_id);
          break;
        }
        std::optional<std::string> fn = ReturnedFunctionName(*lines->second, site);
        if (std::optional<Evidence> by =
                fn ? analysis.StoredElsewhere(site.path, *fn) : std::nullopt) {
          plan->diagnostics.push_back(Diagnostic{
              by->path, by->line, 1, Severity::kError,
              fmt::format("rule '{}': its site ({}:{}) is the return value of {}(), and this "
                          "statement of another module may replace that function ({}): the "
                          "value the rule writes may not be what callers get",
                          o.rule_id, site.path, site.line, *fn, by->what),
              o.rule_id});
          o.status = RuleStatus::kFailed;
          failed.insert(o.rule_id);
          break;
        }
      }
      if (k < 0) continue;
      const LogicalLine& again = lines->second->lines()[static_cast<std::size_t>(k)];
      Position p = file->second.PositionOf(again.code);
      plan->diagnostics.push_back(Diagnostic{
          site.path, p.line, p.column, Severity::kError,
          fmt::format("rule '{}': its knob is written again at line {}, which no rule's query "
                      "matches, and that write overwrites the rule's site at line {} before "
                      "anything reads it: the site multiplied (make the query match the write "
                      "that runs, or remove the other)",
                      o.rule_id, p.line, site.line),
          o.rule_id});
      o.status = RuleStatus::kFailed;
      failed.insert(o.rule_id);
      break;
    }
  }
  return failed;
}

}  // namespace muh
