// The record a patch keeps of the sites it leaves alone: dead code, values
// already at the rule's, values kept by hand, bounds a tier chain reads. The
// patch's hunks say nothing of them, so without it a hand edit there after
// the patch was made (a dead site's value, the shared-memory limit the model
// reads as a fact) would pass verify. On its rule's status line:
//
//   muhpatch: rule ID: STATE; left: INDEX@PATH:LINE=FINGERPRINT, ...
//
// INDEX is the site's position among the rule's sites (file order, from 0),
// PATH:LINE where it stood (for the reader), FINGERPRINT the value's text
// (ValueFingerprint). verify compares each record with the site at INDEX.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/plan/plan_result.h"

namespace muh {

struct LeftRecord {
  std::string rule_id;
  int index = 0;
  std::string path;
  int line = 0;
  std::string fingerprint;
  bool operator==(const LeftRecord& o) const {
    return rule_id == o.rule_id && index == o.index && path == o.path && line == o.line &&
           fingerprint == o.fingerprint;
  }
};

// Eight hex digits of FNV-1a (64 bits) over the tokens of `value`: its
// comments dropped, its blanks (line endings and backslash continuations
// included) dropped but for one space between two word characters, its
// string literals as written. A file converted to CRLF, a list re-wrapped
// or commented keeps its fingerprint; any other change of the code changes
// it.
std::string ValueFingerprint(std::string_view value);

// Every site of every rule that did not fail or retire (a skipped rule's
// too) whose bytes none of the plan's edits touches, in rule order.
std::vector<LeftRecord> LeftSites(const PlanResult& plan);

// "; left: INDEX@PATH:LINE=FINGERPRINT, ..." for `rule_id`'s records; ""
// when it has none.
std::string LeftSuffix(const std::vector<LeftRecord>& records, const std::string& rule_id);

// The records one status line's `; left: ` part holds; entries that do not
// read as INDEX@PATH:LINE=FINGERPRINT are ignored.
std::vector<LeftRecord> ReadLeftRecords(const std::string& rule_id, std::string_view entries);

}  // namespace muh
