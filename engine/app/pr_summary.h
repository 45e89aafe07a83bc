// `diff --format markdown`: the plan as a pull-request comment. One table row
// per edit, grouped by the hunk of the patch it lands in: the rule, the old
// and the new text, the derivation in one line (each value's name = value
// and the constraint that decided it), and the confidence of the hardware
// facts it rests on (shaky ones first). Then the rules that did not rewrite
// and why: a skipped rule with its reason, a failed one with its first error
// and where, a dead one with its first site and why it does not run. Pure:
// the files and the plan in, Markdown out.
#pragma once

#include <map>
#include <string>

#include "engine/base/source_text.h"
#include "engine/plan/planner.h"

namespace muh {

std::string FormatPrSummary(const std::map<std::string, SourceText>& files, const PlanResult& plan);

}  // namespace muh
