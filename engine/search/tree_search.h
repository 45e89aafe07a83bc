// The whole-tree search behind `verify`: every rule's finder (finder.h)
// asked of every Python file outside the rule's own files, so that a knob
// that moved or was copied elsewhere is caught and its new location named:
// the sites the planner would find there. Files are read,
// parsed and queried in parallel, one worker per core, and only after a
// literal prefilter: a file lacking the strings a query requires through
// #eq?/#any-of? is never parsed, and where a file's parse has a syntax error
// and every rule's query matches inside one top-level statement, the
// statements holding the literals are parsed alone (statement_excerpt.h). Results come back in path
// order, so the output never depends on timing. Pure: the bytes come through a read function (the
// app's FileCache, so each file is read once for the search and the liveness analysis together;
// app/workspace_search.h).
//
// What it covers (ScopeOfSearch): every .py file of the tree except those in
// hidden directories, those the tree's .gitignore files ignore (build
// outputs such as build/lib/vllm/ are not the fork's source) unless git
// tracks them (a committed file is the fork's source), and those the
// rule file's `exclude:` globs name. A rule's own `files:` are not
// affected. A file it covers but cannot read (permission, not a regular
// file, over TreeIo's size limit) is never skipped silently: it comes back
// as a located error, and verify, which then cannot vouch for the tree,
// fails with exit 2 (app/verify.h).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/diagnostic.h"
#include "engine/base/gitignore.h"
#include "engine/base/word_filter.h"
#include "engine/rules/rule.h"

namespace muh {

struct ForeignMatch {
  std::string rule_id;
  std::string path;
  int line = 0;
  int column = 0;
};

struct SearchStats {
  std::size_t files = 0;     // files considered
  std::size_t read = 0;      // files read
  std::size_t parsed = 0;    // files that passed the prefilter and were parsed
  std::size_t excerpts = 0;  // of those, searched only in the statements holding the literals
  std::size_t parsed_bytes = 0;
};

// A tree file's bytes; nullopt, with *err located at the file, when it
// cannot be read. The bytes may be kept elsewhere (a FileCache) or read into
// `scratch`; they stay valid while the search runs.
using SearchReadFn = std::function<std::optional<std::string_view>(
    const std::string& path, Diagnostic* err, std::string* scratch)>;

struct SearchResult {
  // Sorted by rule order, then path, then position.
  std::vector<ForeignMatch> matches;
  // Errors located at the files the search had to search but could not
  // read (SearchReadFn's reason), or whose directory it could not list; in path
  // order. The search says nothing about them.
  std::vector<Diagnostic> unreadable;
  // Errors located at a file where a rule's query exceeded the matcher's
  // budget (QueryBudgetExceeded); one per file and rule, in path order.
  std::vector<Diagnostic> over_budget;
  SearchStats stats;
};

// Which rules' queries a search runs, by position in RuleSet::rules; empty
// means all of them.
using RuleMask = std::vector<bool>;

// The sites each rule's finder finds in `tree_paths` outside the rule's
// `files` and `also_matches`, one per match its `expect:` would count. `threads` = 0 means one per
// core. A path no rule needs searched is never read. Only the rules `run` names are queried, but
// the files read (and so those reported unreadable) are the same for every
// mask: two searches of one tree with different masks report the same
// unreadable files. `words`, when given, supplies a file's word filter
// (shared with the liveness analysis): a literal that an identifier must
// equal is then looked for as a whole word, which in valid Python no other
// identifier character touches; the others still by `memmem`.
SearchResult SearchOutsideScope(const RuleSet& rules, const std::vector<std::string>& tree_paths,
                                const SearchReadFn& read, unsigned threads,
                                const RuleMask& run = {}, const WordFilterFn& words = {});

// What the whole-tree search covers, and what it leaves out.
struct SearchScope {
  std::vector<std::string> paths;     // to search, sorted
  std::vector<std::string> hidden;    // hidden directories, not descended into
  std::vector<std::string> ignored;   // topmost parts a .gitignore ignores
  std::vector<std::string> excluded;  // topmost parts an `exclude:` glob names
  // Files a .gitignore matches that are searched all the same: git tracks
  // them (a committed file is the fork's source). Sorted.
  std::vector<std::string> tracked_ignored;
};

// Pure: `listed` (sorted .py paths) less what `ignore` ignores and what
// `exclude` globs (rule.h: RuleSet::exclude) name, as a file or as one of
// its directories. With `tracked` (the sorted paths git tracks in the
// tree), a tracked file is never left out for .gitignore; `exclude:` still
// applies to it. Without it, .gitignore decides for every file.
SearchScope ScopeOfSearch(const std::vector<std::string>& listed, const GitIgnore& ignore,
                          const std::vector<std::string>& exclude,
                          const std::vector<std::string>* tracked = nullptr);

// The rules no precondition gates: those verify searches for at once. A
// rule a precondition skips manages nothing, so the others wait for the
// plan to say whether they run.
RuleMask UngatedRules(const RuleSet& rules);

// Adds a later search of the same scope, for other rules, to `into`: its
// matches (all kept in rule order), its over-budget files, its parse
// stats. Its unreadable files are dropped: a search of the same scope
// reported them already (SearchOutsideScope).
void MergeLaterSearch(const RuleSet& rules, SearchResult later, SearchResult* into);

}  // namespace muh
