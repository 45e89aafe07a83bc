// Where a committed patch and the rules now disagree, rule by rule: each
// site whose line the patch leaves otherwise than the rules write it, with
// both versions of the line, so that a stale patch names its causes in the
// tree. Pure: contents in, values out.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "engine/base/source_text.h"
#include "engine/patch/patch_reader.h"
#include "engine/plan/plan_result.h"

namespace muh {

struct StaleEdit {
  std::string rule_id;
  std::string path;
  int line = 0;             // from 1, as a patch counts lines (LF only)
  std::string committed;    // the line as the committed patch leaves it (no terminator)
  std::string regenerated;  // the line as the rules write it
  bool deleted = false;     // the rules delete the line (a `delete:` rule's site)
};

// For each site `plan` found in `base` (the files the patch and the rules
// both start from), its line in `committed` (base with `patch` applied)
// and in `regenerated` (base with the plan's edits); path -> bytes, a file
// either lacks is `base`'s. A line moves by the lines the hunks (or edits)
// before it add or remove. One entry per rule and line that differ, in rule
// order, then file order.
std::vector<StaleEdit> StaleEdits(const PlanResult& plan,
                                  const std::map<std::string, SourceText>& base,
                                  const std::vector<FilePatch>& patch,
                                  const std::map<std::string, std::string>& committed,
                                  const std::map<std::string, std::string>& regenerated);

}  // namespace muh
