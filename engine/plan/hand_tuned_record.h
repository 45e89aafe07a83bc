// The record a patch keeps of the values it holds that someone tuned by
// hand: on its rule's status line in the preamble,
//
//   muhpatch: rule ID: STATE; hand-tuned: PATH:LINE, PATH:LINE
//
// where each LINE is a `+` line of the patch (numbered as its new side) whose
// value muhpatch kept rather than wrote. A later `diff --base-patch` or
// `verify` reads it so that such a `+` line is not taken for muhpatch's own.
// ReadPreamble reads the status lines back, statuses and records at once.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/plan/left_record.h"

namespace muh {

struct HandTunedRecord {
  std::string rule_id;
  std::string path;
  int line = 0;  // in the patched file, from 1
  bool operator==(const HandTunedRecord& o) const {
    return rule_id == o.rule_id && path == o.path && line == o.line;
  }
};

// "; hand-tuned: PATH:LINE, ..." for the records of `rule_id`, in the order
// given; "" when it has none.
std::string HandTunedSuffix(const std::vector<HandTunedRecord>& records,
                            const std::string& rule_id);

// The status a preamble line records, without its records (hand-tuned,
// left alone).
std::string StatusWithoutRecord(const std::string& status);

// The preamble's first line when the patch was made with --include-dead
// (PlanResult::include_dead): its dead sites' hunks are the rules', and a
// refresh keeps the flag.
inline constexpr std::string_view kIncludeDeadLine = "muhpatch: made with --include-dead";

// What the status lines of a patch's preamble record.
struct PatchPreamble {
  // The preamble holds kIncludeDeadLine.
  bool include_dead = false;
  // Rule id -> the status name its line records, without a hand-tuned record.
  std::map<std::string, std::string> statuses;
  // Every hand-tuned record the lines hold, in their order.
  std::vector<HandTunedRecord> hand_tuned;
  // Every site the patch left alone, with its value's fingerprint
  // (left_record.h).
  std::vector<LeftRecord> left;
  // Rule id -> the patch line (from 1) of its status line: the first, when
  // there are several.
  std::map<std::string, int> status_lines;
  // Status lines muhpatch never writes: a second line for one rule (its
  // state is then not trusted: `statuses` keeps the first), or a status
  // that is no rule status's name. Each with its patch line.
  struct Problem {
    std::string rule_id;
    int line = 0;
    std::string what;
  };
  std::vector<Problem> problems;
};

// The preamble's status lines (the patch's first lines), each read once;
// lines that are not status lines, and record entries without a line
// number, are ignored; a second line for a rule and an unknown status are
// problems.
PatchPreamble ReadPreamble(const std::vector<std::string>& preamble);

// ReadPreamble's records alone.
std::vector<HandTunedRecord> PreambleHandTuned(const std::vector<std::string>& preamble);

// The lines `records` hold for `path`.
std::vector<int> RecordedLines(const std::vector<HandTunedRecord>& records,
                               const std::string& path);

}  // namespace muh
