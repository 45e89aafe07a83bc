#include "engine/plan/hand_tuned_record.h"

#include <algorithm>
#include <string_view>

#include "engine/plan/plan_result.h"
#include "engine/plan/record_path.h"

namespace muh {

namespace {

constexpr std::string_view kHead = "muhpatch: rule ";
constexpr std::string_view kMark = "; hand-tuned: ";
constexpr std::string_view kLeft = "; left: ";

// Where the records of a status text begin: its first `; `.
std::size_t RecordsAt(std::string_view status) {
  std::size_t a = status.find(kMark);
  std::size_t b = status.find(kLeft);
  return a < b ? a : b;
}

// The entries of the record `mark` starts in `records` (up to the next
// record); "" when it has none.
std::string_view Entries(std::string_view records, std::string_view mark) {
  std::size_t at = records.find(mark);
  if (at == std::string_view::npos) return {};
  std::string_view rest = records.substr(at + mark.size());
  std::size_t next = std::min(rest.find(kMark), rest.find(kLeft));
  return rest.substr(0, next);
}

}  // namespace

std::string HandTunedSuffix(const std::vector<HandTunedRecord>& records,
                            const std::string& rule_id) {
  std::string out;
  for (const HandTunedRecord& r : records) {
    if (r.rule_id != rule_id) continue;
    out += (out.empty() ? std::string(kMark) : ", ") + RecordPath(r.path) + ":" +
           std::to_string(r.line);
  }
  return out;
}

std::string StatusWithoutRecord(const std::string& status) {
  return status.substr(0, RecordsAt(status));
}

PatchPreamble ReadPreamble(const std::vector<std::string>& preamble) {
  PatchPreamble out;
  bool first = true;
  int line_number = 0;
  for (std::string line : preamble) {
    ++line_number;
    // A BOM an editor put before the first line, and blanks it left at a
    // line's end, are no part of the record (a helper probe of 2893764).
    if (first && line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);
    first = false;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) {
      line.pop_back();
    }
    if (line == kIncludeDeadLine) out.include_dead = true;
    if (line.rfind(kHead, 0) != 0) continue;
    std::size_t colon = line.find(": ", kHead.size());
    if (colon == std::string::npos) continue;
    std::string rule_id = line.substr(kHead.size(), colon - kHead.size());
    std::string_view status = std::string_view(line).substr(colon + 2);
    std::size_t records_at = RecordsAt(status);
    std::string name(status.substr(0, records_at));
    auto [first_line, fresh] = out.status_lines.emplace(rule_id, line_number);
    if (!fresh) {
      out.problems.push_back(
          {rule_id, line_number,
           "a second status line for rule '" + rule_id + "' (the first is line " +
               std::to_string(first_line->second) +
               "): muhpatch writes one line a rule, so this one was added by hand, and the "
               "state the patch records for the rule is not trusted"});
      continue;
    }
    if (!IsRuleStatusName(name)) {
      out.problems.push_back({rule_id, line_number,
                              "the status line for rule '" + rule_id + "' records '" + name +
                                  "', which is no status muhpatch writes (" + RuleStatusNames() +
                                  "): it was edited by hand"});
    }
    out.statuses[rule_id] = name;
    if (records_at == std::string_view::npos) continue;
    std::string_view records = status.substr(records_at);
    for (LeftRecord& r : ReadLeftRecords(rule_id, Entries(records, kLeft))) {
      out.left.push_back(std::move(r));
    }
    std::string_view rest = Entries(records, kMark);
    while (!rest.empty()) {
      std::size_t comma = rest.find(", ");
      std::string_view entry = rest.substr(0, comma);
      rest = comma == std::string_view::npos ? "" : rest.substr(comma + 2);
      std::size_t at = entry.rfind(':');
      if (at == std::string_view::npos || at + 1 == entry.size()) continue;
      int number = 0;
      bool digits = true;
      for (char c : entry.substr(at + 1)) {
        digits = digits && c >= '0' && c <= '9';
        number = number * 10 + (c - '0');
      }
      std::optional<std::string> path = ReadRecordPath(entry.substr(0, at));
      if (digits && number > 0 && path) {
        out.hand_tuned.push_back({rule_id, std::move(*path), number});
      }
    }
  }
  return out;
}

std::vector<HandTunedRecord> PreambleHandTuned(const std::vector<std::string>& preamble) {
  return ReadPreamble(preamble).hand_tuned;
}

std::vector<int> RecordedLines(const std::vector<HandTunedRecord>& records,
                               const std::string& path) {
  std::vector<int> out;
  for (const HandTunedRecord& r : records) {
    if (r.path == path) out.push_back(r.line);
  }
  return out;
}

}  // namespace muh
