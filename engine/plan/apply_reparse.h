// The merged edits applied to each file and the result reparsed (internal to
// engine/plan), refusing a rewrite that breaks the syntax.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "engine/base/diagnostic.h"
#include "engine/base/source_text.h"
#include "engine/plan/edit.h"
#include "engine/plan/plan_context.h"

namespace muh {
namespace plan {

struct Applied {
  std::map<std::string, std::vector<Edit>> edits;   // by path: only files that change
  std::map<std::string, std::string> new_contents;  // the same files, rewritten
  // A rewritten file's tree, reparsed incrementally from its tree in
  // `before` (borrowing `new_contents`' bytes: move the map, not a string).
  Trees trees;
  // The rules whose rewrite would break the syntax, in the order blamed,
  // each with the error that says so; none of their edits is applied.
  std::vector<std::string> failed;
  std::vector<Diagnostic> diagnostics;
};

// Applies `sets` to `files` and reparses each result, from its tree in
// `before` when there is one (incrementally), else from scratch. A problem
// the incremental parse reports is confirmed by a fresh parse, which the
// message describes. The rule to blame (the last edit that starts at or
// before the problem) fails and loses all its edits, and the files are
// applied again without them, so that one bad rewrite never hides the others.
Applied ApplyAndReparse(const std::map<std::string, SourceText>& files, const Trees& before,
                        std::map<std::string, EditSet> sets);

}  // namespace plan
}  // namespace muh
