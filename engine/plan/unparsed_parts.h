// The other half of a partial parse. The planner parses a file in part when
// its rules can only match inside the statements holding their literals
// (PlanResult::parsed_in_part); a file it rewrites must still parse whole,
// as every file muhpatch writes must. The statements it did not parse are
// parsed here, once the plan knows which files it rewrites: the whole file
// is then parsed once, in two parts, and a file that is not rewritten is
// never parsed beyond its rules' statements.
#pragma once

#include <map>
#include <set>
#include <string>

#include "engine/base/source_text.h"
#include "engine/plan/plan_result.h"

namespace muh {

// The files `plan` rewrites (new_contents) that it parsed in part and whose
// other statements do not parse (a syntax error there, or bytes the
// statement lexer cut wrongly): each must be planned again, parsed whole.
std::set<std::string> UnparsableRewrites(const PlanResult& plan,
                                         const std::map<std::string, SourceText>& files);

}  // namespace muh
