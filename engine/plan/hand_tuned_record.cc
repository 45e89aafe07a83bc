#include "engine/plan/hand_tuned_record.h"

#include <string_view>

namespace muh {

namespace {

constexpr std::string_view kHead = "muhpatch: rule ";
constexpr std::string_view kMark = "; hand-tuned: ";

}  // namespace

std::string HandTunedSuffix(const std::vector<HandTunedRecord>& records,
                            const std::string& rule_id) {
  std::string out;
  for (const HandTunedRecord& r : records) {
    if (r.rule_id != rule_id) continue;
    out += (out.empty() ? std::string(kMark) : ", ") + r.path + ":" + std::to_string(r.line);
  }
  return out;
}

std::string StatusWithoutRecord(const std::string& status) {
  return status.substr(0, status.find(kMark));
}

PatchPreamble ReadPreamble(const std::vector<std::string>& preamble) {
  PatchPreamble out;
  for (std::string line : preamble) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.rfind(kHead, 0) != 0) continue;
    std::size_t colon = line.find(": ", kHead.size());
    if (colon == std::string::npos) continue;
    std::string rule_id = line.substr(kHead.size(), colon - kHead.size());
    out.statuses[rule_id] = StatusWithoutRecord(line.substr(colon + 2));
    std::size_t mark = line.find(kMark);
    if (mark == std::string::npos || mark < colon) continue;
    std::string_view rest = std::string_view(line).substr(mark + kMark.size());
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
      if (digits && number > 0) {
        out.hand_tuned.push_back({rule_id, std::string(entry.substr(0, at)), number});
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
