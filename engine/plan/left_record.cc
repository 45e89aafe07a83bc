#include "engine/plan/left_record.h"

#include <fmt/format.h>

#include <cstdint>

#include "engine/plan/record_path.h"

namespace muh {

namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

// Whether an edit of `path` in `plan` touches bytes [begin, end) (an
// insertion at either end counts: the append after an autotune list).
bool Touched(const PlanResult& plan, const Site& s) {
  auto it = plan.edits.find(s.path);
  if (it == plan.edits.end()) return false;
  for (const Edit& e : it->second) {
    if (e.offset <= s.end && e.End() >= s.begin) return true;
  }
  return false;
}

// A skipped rule's sites count too: their values are the tree's, and a
// later edit there is one (a helper probe of the record's first version).
bool ManagesSites(RuleStatus s) { return s != RuleStatus::kFailed && s != RuleStatus::kRetired; }

bool ReadNumber(std::string_view s, int* out) {
  if (s.empty() || s.size() > 9) return false;
  int n = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    n = n * 10 + (c - '0');
  }
  *out = n;
  return true;
}

}  // namespace

std::string ValueFingerprint(std::string_view value) {
  std::uint64_t h = 14695981039346656037ull;
  auto mix = [&h](char c) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  };
  auto word = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           static_cast<unsigned char>(c) >= 0x80;
  };
  char last = 0;       // the last character mixed in
  bool blank = false;  // blanks since it
  for (std::size_t i = 0; i < value.size(); ++i) {
    char c = value[i];
    if (IsSpace(c) || c == '\\') {  // a backslash outside a string continues the line
      blank = true;
      continue;
    }
    if (c == '#') {  // a comment, to the end of its line
      while (i + 1 < value.size() && value[i + 1] != '\n' && value[i + 1] != '\r') ++i;
      blank = true;
      continue;
    }
    if (blank && word(last) && word(c)) mix(' ');
    blank = false;
    if (c == '\'' || c == '"') {  // a string: as written, to its closing quote
      const std::string_view quote = c == '"' ? std::string_view("\"\"\"") : "'''";
      bool triple = value.substr(i, 3) == quote;
      std::size_t n = triple ? 3 : 1;
      for (std::size_t k = 0; k < n; ++k) mix(c);
      std::size_t j = i + n;
      while (j < value.size()) {
        if (value[j] == '\\' && j + 1 < value.size()) {
          mix(value[j]);
          mix(value[j + 1]);
          j += 2;
          continue;
        }
        if (value.substr(j, n) == quote.substr(0, n)) break;
        if (!triple && (value[j] == '\n' || value[j] == '\r')) break;  // unclosed: stop here
        mix(value[j]);
        ++j;
      }
      for (std::size_t k = 0; k < n && j < value.size(); ++k, ++j) mix(value[j]);
      i = j - 1;
      last = c;
      continue;
    }
    mix(c);
    last = c;
  }
  return fmt::format("{:08x}", static_cast<std::uint32_t>(h ^ (h >> 32)));
}

std::vector<LeftRecord> LeftSites(const PlanResult& plan) {
  std::vector<LeftRecord> out;
  for (const RuleOutcome& o : plan.outcomes) {
    if (!ManagesSites(o.status)) continue;
    for (std::size_t i = 0; i < o.found.size(); ++i) {
      const Site& s = o.found[i];
      if (Touched(plan, s)) continue;
      out.push_back({o.rule_id, static_cast<int>(i), s.path, s.line, ValueFingerprint(s.current)});
    }
  }
  return out;
}

std::string LeftSuffix(const std::vector<LeftRecord>& records, const std::string& rule_id) {
  std::string out;
  for (const LeftRecord& r : records) {
    if (r.rule_id != rule_id) continue;
    out += fmt::format("{}{}@{}:{}={}", out.empty() ? "; left: " : ", ", r.index,
                       RecordPath(r.path), r.line, r.fingerprint);
  }
  return out;
}

std::vector<LeftRecord> ReadLeftRecords(const std::string& rule_id, std::string_view entries) {
  std::vector<LeftRecord> out;
  while (!entries.empty()) {
    std::size_t comma = entries.find(", ");
    std::string_view entry = entries.substr(0, comma);
    entries = comma == std::string_view::npos ? "" : entries.substr(comma + 2);
    std::size_t at = entry.find('@');
    std::size_t eq = entry.rfind('=');
    if (at == std::string_view::npos || eq == std::string_view::npos || eq < at) continue;
    std::string_view place = entry.substr(at + 1, eq - at - 1);
    std::size_t colon = place.rfind(':');
    LeftRecord r;
    r.rule_id = rule_id;
    r.fingerprint = std::string(entry.substr(eq + 1));
    if (colon == std::string_view::npos || !ReadNumber(entry.substr(0, at), &r.index) ||
        !ReadNumber(place.substr(colon + 1), &r.line) || r.fingerprint.size() != 8) {
      continue;
    }
    std::optional<std::string> path = ReadRecordPath(place.substr(0, colon));
    if (!path) continue;
    r.path = std::move(*path);
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace muh
