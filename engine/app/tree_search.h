// The whole-tree search behind `verify`: every rule's query run over every
// Python file outside the rule's own files, so that a knob that moved or was
// copied elsewhere is caught and its new location named. Files are read,
// parsed and queried in parallel, one worker per core, and only after a
// literal prefilter: a file lacking the strings a query requires through
// #eq?/#any-of? is never parsed. Results come back in path order, so the
// output never depends on timing. At most one file per worker is in memory.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "engine/rules/rule.h"

namespace muh {

struct ForeignMatch {
  std::string rule_id;
  std::string path;
  int line = 0;
  int column = 0;
};

struct SearchStats {
  std::size_t files = 0;    // files considered
  std::size_t read = 0;     // files read
  std::size_t parsed = 0;   // files that passed the prefilter and were parsed
  std::size_t partial = 0;  // of those, parsed only in the statements holding the literals
  std::size_t parsed_bytes = 0;
};

// Reads a tree file; false when it cannot (the file is then skipped).
using ReadFn = std::function<bool(const std::string& path, std::string* bytes)>;

// Matches of each rule's query in `tree_paths` outside the rule's `files`
// and `also_matches`, sorted by rule order, then path, then position.
// `threads` = 0 means one per core.
std::vector<ForeignMatch> SearchOutsideScope(const RuleSet& rules,
                                             const std::vector<std::string>& tree_paths,
                                             const ReadFn& read, unsigned threads,
                                             SearchStats* stats);

}  // namespace muh
