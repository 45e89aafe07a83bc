#include "engine/search/tree_search.h"

#include <fmt/format.h>
#include <string.h>

#include <algorithm>
#include <map>
#include <optional>

#include "engine/base/glob.h"
#include "engine/base/logging.h"
#include "engine/base/parallel.h"
#include "engine/base/source_text.h"
#include "engine/python/syntax_tree.h"
#include "engine/rules/finder.h"
#include "engine/search/statement_excerpt.h"

namespace muh {

namespace {

bool InScope(const Rule& r, const std::string& path) {
  for (const std::string& p : r.files) {
    if (GlobMatch(p, path)) return true;
  }
  for (const std::string& p : r.also_matches) {
    if (GlobMatch(p, path)) return true;
  }
  return false;
}

// Matches in rule order (RuleSet::rules), keeping each rule's own order.
void SortByRuleOrder(const RuleSet& rules, std::vector<ForeignMatch>* matches) {
  std::map<std::string, std::size_t> order;
  for (std::size_t r = 0; r < rules.rules.size(); ++r) order[rules.rules[r].id] = r;
  std::stable_sort(matches->begin(), matches->end(),
                   [&](const ForeignMatch& a, const ForeignMatch& b) {
                     return order[a.rule_id] < order[b.rule_id];
                   });
}

struct FileResult {
  std::vector<ForeignMatch> matches;
  std::optional<Diagnostic> unreadable;
  std::vector<Diagnostic> over_budget;
  bool read = false;
  bool parsed = false;
  bool excerpt = false;            // only the statements holding the literals parsed
  std::size_t bytes = 0;           // parsed
  std::vector<std::size_t> rules;  // whose prefilter the file passed
};

}  // namespace

SearchResult SearchOutsideScope(const RuleSet& rules, const std::vector<std::string>& tree_paths,
                                const SearchReadFn& read, unsigned threads, const RuleMask& run,
                                const WordFilterFn& words) {
  // Per rule: its prefilter groups, as indexes into the distinct literals
  // of all rules, so each literal is looked for once per file. A rule whose
  // query requires no literal has no groups and is searched in every file.
  // A literal an identifier must equal is a whole word of the file: where
  // `words` gives the file's word filter, that answers for it.
  std::vector<std::pair<std::string, bool>> literals;  // text, whole word
  std::vector<std::vector<std::vector<std::size_t>>> groups;
  for (const Rule& r : rules.rules) {
    std::vector<std::vector<std::size_t>> rule_groups;
    for (const Query::LiteralGroup& group : r.finder->query()->RequiredLiteralGroups()) {
      std::vector<std::size_t> ids;
      for (const std::string& text : group.texts) {
        std::pair<std::string, bool> lit{text, group.identifier};
        auto it = std::find(literals.begin(), literals.end(), lit);
        ids.push_back(static_cast<std::size_t>(it - literals.begin()));
        if (it == literals.end()) literals.push_back(std::move(lit));
      }
      rule_groups.push_back(std::move(ids));
    }
    groups.push_back(std::move(rule_groups));
  }

  std::vector<FileResult> results(tree_paths.size());
  // One parser per worker, reused for every file it parses.
  ParallelFor<PythonParser>(tree_paths.size(), threads, [&](PythonParser& parser, std::size_t i) {
    const std::string& path = tree_paths[i];
    std::vector<std::size_t> candidates;
    for (std::size_t r = 0; r < rules.rules.size(); ++r) {
      if (!InScope(rules.rules[r], path)) candidates.push_back(r);
    }
    if (candidates.empty()) return;
    std::string scratch;
    Diagnostic err;
    const std::optional<std::string_view> read_bytes = read(path, &err, &scratch);
    if (!read_bytes) {
      results[i].unreadable = err;
      return;
    }
    const std::string_view bytes = *read_bytes;
    results[i].read = true;
    // 0: not looked for yet, 1: absent, 2: present.
    std::vector<char> seen(literals.size(), 0);
    const WordFilter* filter = nullptr;
    bool filter_asked = false;
    auto present = [&](std::size_t id) {
      if (seen[id] == 0) {
        const auto& [text, word] = literals[id];
        if (word && words && !filter_asked) {
          filter = words(path, bytes);
          filter_asked = true;
        }
        bool maybe = word && filter != nullptr ? filter->MayHold(text)
                                               : ::memmem(bytes.data(), bytes.size(), text.data(),
                                                          text.size()) != nullptr;
        seen[id] = maybe ? 2 : 1;
      }
      return seen[id] == 2;
    };
    std::vector<std::size_t> hits;
    for (std::size_t r : candidates) {
      if (!run.empty() && !run[r]) continue;
      bool pass = std::all_of(groups[r].begin(), groups[r].end(), [&](const auto& group) {
        return std::any_of(group.begin(), group.end(), present);
      });
      if (pass) hits.push_back(r);
    }
    if (hits.empty()) return;
    // Where every rule to run matches inside one top-level statement and
    // the file's parse has a syntax error, the statements holding its
    // literals are parsed alone, and trusted where that parse is clean (the
    // error lies elsewhere).
    std::optional<Excerpt> excerpt;  // declared first: a tree of it borrows its text
    std::optional<SyntaxTree> tree(parser.Parse(bytes));
    results[i].bytes = bytes.size();
    const bool local = std::all_of(hits.begin(), hits.end(), [&](std::size_t r) {
      return rules.rules[r].finder->query()->InsideOneStatement();
    });
    if (local && tree->HasError()) {
      std::vector<LiteralNeed> needs;
      for (std::size_t r : hits) {
        LiteralNeed& need = needs.emplace_back();
        for (const auto& group : groups[r]) {
          auto& texts = need.emplace_back();
          for (std::size_t id : group) texts.push_back(literals[id].first);
        }
      }
      excerpt = ExcerptHolding(*tree, needs);
      if (excerpt && excerpt->kept == 0) return;  // the literals lie outside every statement
      if (excerpt) {
        SyntaxTree part = parser.Parse(excerpt->text);
        if (!part.HasError()) {
          tree.emplace(std::move(part));
          results[i].excerpt = true;
          results[i].bytes += excerpt->kept;
        }
      }
    }
    results[i].parsed = true;
    results[i].rules = hits;
    SourceText text(path, "");
    for (std::size_t r : hits) {
      FoundSites found;
      try {
        found = rules.rules[r].finder->Find(*tree);
      } catch (const QueryBudgetExceeded& e) {
        results[i].over_budget.push_back(MakeError(
            path, 0, 0,
            fmt::format("rule '{}': {}; the whole-tree search cannot say whether the knob is "
                        "copied here",
                        rules.rules[r].id, e.what())));
        continue;
      }
      for (const SiteMatch& m : found.sites) {
        if (!m.counted) continue;  // a tier's bound, a message about the chain
        if (text.bytes().empty()) text = SourceText(path, std::string(bytes));
        Position p = text.PositionOf(m.at);
        results[i].matches.push_back({rules.rules[r].id, path, p.line, p.column});
      }
    }
  });

  SearchResult out;
  SearchStats* stats = &out.stats;
  std::vector<ForeignMatch>& all = out.matches;
  for (std::size_t i = 0; i < results.size(); ++i) {
    FileResult& fr = results[i];
    if (fr.parsed && logging::Enabled(logging::Level::kTrace)) {
      std::string ids;
      for (std::size_t r : fr.rules) ids += (ids.empty() ? "" : ", ") + rules.rules[r].id;
      logging::Trace("search parsed {} ({} bytes{}) for {}", tree_paths[i], fr.bytes,
                     fr.excerpt ? ", the statements holding the literals" : "", ids);
    }
    stats->read += fr.read;
    stats->parsed += fr.parsed;
    stats->excerpts += fr.excerpt;
    stats->parsed_bytes += fr.bytes;
    for (ForeignMatch& m : fr.matches) all.push_back(std::move(m));
    if (fr.unreadable) out.unreadable.push_back(std::move(*fr.unreadable));
    for (Diagnostic& d : fr.over_budget) out.over_budget.push_back(std::move(d));
  }
  stats->files = tree_paths.size();
  SortByRuleOrder(rules, &all);
  return out;
}

RuleMask UngatedRules(const RuleSet& rules) {
  RuleMask run;
  for (const Rule& r : rules.rules) run.push_back(r.preconditions.empty());
  return run;
}

void MergeLaterSearch(const RuleSet& rules, SearchResult later, SearchResult* into) {
  for (ForeignMatch& m : later.matches) into->matches.push_back(std::move(m));
  SortByRuleOrder(rules, &into->matches);
  for (Diagnostic& d : later.over_budget) into->over_budget.push_back(std::move(d));
  std::stable_sort(into->over_budget.begin(), into->over_budget.end(),
                   [](const Diagnostic& a, const Diagnostic& b) { return a.file < b.file; });
  into->stats.parsed += later.stats.parsed;
  into->stats.excerpts += later.stats.excerpts;
  into->stats.parsed_bytes += later.stats.parsed_bytes;
}

namespace {

// The topmost part of `path` (one of its directories, or itself) that an
// `exclude` glob names, if any.
std::optional<std::string> ExcludedPart(const std::string& path,
                                        const std::vector<std::string>& exclude) {
  if (exclude.empty()) return std::nullopt;
  auto named = [&](const std::string& part) {
    return std::any_of(exclude.begin(), exclude.end(),
                       [&](const std::string& g) { return GlobMatch(g, part); });
  };
  for (std::size_t slash = path.find('/'); slash != std::string::npos;
       slash = path.find('/', slash + 1)) {
    std::string dir = path.substr(0, slash);
    if (named(dir)) return dir;
  }
  if (named(path)) return path;
  return std::nullopt;
}

void AddOnce(std::vector<std::string>* parts, const std::string& part) {
  if (parts->empty() || parts->back() != part) parts->push_back(part);
}

}  // namespace

SearchScope ScopeOfSearch(const std::vector<std::string>& listed, const GitIgnore& ignore,
                          const std::vector<std::string>& exclude,
                          const std::vector<std::string>* tracked) {
  SearchScope scope;
  for (const std::string& path : listed) {
    if (auto part = ExcludedPart(path, exclude)) {
      AddOnce(&scope.excluded, *part);
    } else if (auto ignored = ignore.IgnoredPart(path)) {
      if (tracked != nullptr && std::binary_search(tracked->begin(), tracked->end(), path)) {
        scope.tracked_ignored.push_back(path);
        scope.paths.push_back(path);
      } else {
        AddOnce(&scope.ignored, *ignored);
      }
    } else {
      scope.paths.push_back(path);
    }
  }
  return scope;
}

}  // namespace muh
