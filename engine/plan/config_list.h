// Appending Triton autotune entries to a list literal in the file's own
// style. The last live `triton.Config({...}, k=v, ...)` entry of the list is
// the template: a new entry is that entry's exact text with each field's
// value replaced, so indentation, quoting, one-key-per-line layout, trailing
// commas and line endings all carry over. Pure: strings in, edits out.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "engine/base/source_text.h"
#include "engine/model/value_source.h"
#include "engine/plan/edit.h"
#include "engine/python/syntax_tree.h"

namespace muh {

struct ConfigAppend {
  std::vector<Edit> edits;      // zero or one insertion
  int existing = 0;             // live entries already in the list
  std::vector<int> duplicates;  // indexes of requested entries already present
  int appended = 0;
};

// Plans the insertion of `entries` into the list literal spanning
// [list_begin, list_end) of `file`, whose parse is `tree`. Entries equal (by value) to one already
// in the list, or to an earlier requested one, are dropped, so a second run
// adds nothing; fields an entry names in `ignored` do not count in that
// comparison. On failure returns false with `error` and `error_offset`.
bool PlanConfigAppend(const SourceText& file, const SyntaxTree& tree, std::size_t list_begin,
                      std::size_t list_end, const std::vector<ConfigEntry>& entries,
                      const std::string& rule_id, ConfigAppend* out, std::string* error,
                      std::size_t* error_offset);

// The name of the kernel whose `@triton.autotune(configs=[...])` decorator
// holds the list at [list_begin, list_end); "" when the list is no
// decorator's.
std::string AutotunedKernelName(const SyntaxTree& tree, std::size_t list_begin,
                                std::size_t list_end);

}  // namespace muh
