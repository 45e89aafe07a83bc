#include "engine/patch/line_diff.h"

#include <unordered_map>

#include "engine/patch/change_compact.h"
#include "engine/patch/myers_split.h"

namespace muh {

namespace {

// git's cap on how many matches in the other file make a line "common".
constexpr std::size_t kMaxEqualLimit = 1024;
// How far git looks around a common line for lines without a match.
constexpr std::size_t kScanWindow = 100;
// A common line among unmatched ones is dropped when fewer than one in
// kKeepRun of the lines around it are common ones.
constexpr std::size_t kKeepRun = 4;

// How a line of the middle range takes part in the Myers search.
enum class Match : char { kNone = 0, kFew = 1, kMany = 2 };

// git's xdl_clean_mmatch: whether the line at `i`, which has many matches,
// sits in a run of unmatched and many-matched lines, with unmatched lines on
// both sides, where most lines have no match. Such a line is left out.
bool DropCommonLine(const std::vector<Match>& kind, std::size_t i, std::size_t s, std::size_t e) {
  if (i - s > kScanWindow) s = i - kScanWindow;
  if (e - i > kScanWindow) e = i + kScanWindow;
  std::size_t none_before = 0, many_before = 1;
  for (std::size_t r = 1; r <= i && i - r >= s; ++r) {
    if (kind[i - r] == Match::kNone) {
      ++none_before;
    } else if (kind[i - r] == Match::kMany) {
      ++many_before;
    } else {
      break;
    }
  }
  if (none_before == 0) return false;
  std::size_t none_after = 0, many_after = 1;
  for (std::size_t r = 1; i + r <= e; ++r) {
    if (kind[i + r] == Match::kNone) {
      ++none_after;
    } else if (kind[i + r] == Match::kMany) {
      ++many_after;
    } else {
      break;
    }
  }
  if (none_after == 0) return false;
  const std::size_t none = none_before + none_after;
  const std::size_t many = many_before + many_after;
  return many * kKeepRun < many + none;
}

// One file's middle range [begin, end) prepared for the search: the ids of
// the lines that take part and where each sits in the file. The others are
// marked changed in `changed`.
struct Searched {
  std::vector<int> ids;
  std::vector<std::size_t> line;
};

Searched Prepare(const std::vector<int>& ids, std::size_t file_size, std::size_t begin,
                 const std::vector<std::size_t>& count_in_other, std::vector<char>* changed) {
  std::size_t limit = RoughSqrt(file_size);
  if (limit > kMaxEqualLimit) limit = kMaxEqualLimit;
  std::vector<Match> kind(ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const std::size_t count = count_in_other[static_cast<std::size_t>(ids[i])];
    kind[i] = count == 0 ? Match::kNone : count >= limit ? Match::kMany : Match::kFew;
  }
  Searched searched;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (kind[i] == Match::kFew ||
        (kind[i] == Match::kMany && !DropCommonLine(kind, i, 0, ids.size() - 1))) {
      searched.ids.push_back(ids[i]);
      searched.line.push_back(begin + i);
    } else {
      (*changed)[begin + i] = 1;
    }
  }
  return searched;
}

}  // namespace

std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t newline = text.find('\n', start);
    const std::size_t end = newline == std::string_view::npos ? text.size() : newline + 1;
    lines.push_back(text.substr(start, end - start));
    start = end;
  }
  return lines;
}

std::vector<LineChange> DiffLines(const std::vector<std::string_view>& old_lines,
                                  const std::vector<std::string_view>& new_lines) {
  const std::size_t n = old_lines.size();
  const std::size_t m = new_lines.size();
  std::size_t prefix = 0;
  while (prefix < n && prefix < m && old_lines[prefix] == new_lines[prefix]) ++prefix;
  std::size_t suffix = 0;
  while (suffix < n - prefix && suffix < m - prefix &&
         old_lines[n - 1 - suffix] == new_lines[m - 1 - suffix]) {
    ++suffix;
  }

  // Intern the middle lines (hash, then bytes on collision) and count each
  // line's occurrences in either whole file, as git does.
  std::unordered_map<std::string_view, int> ids;
  const auto intern = [&ids](std::string_view line) {
    return ids.emplace(line, static_cast<int>(ids.size())).first->second;
  };
  std::vector<int> old_ids;
  std::vector<int> new_ids;
  for (std::size_t i = prefix; i < n - suffix; ++i) old_ids.push_back(intern(old_lines[i]));
  for (std::size_t j = prefix; j < m - suffix; ++j) new_ids.push_back(intern(new_lines[j]));
  std::vector<std::size_t> in_old(ids.size(), 0);
  std::vector<std::size_t> in_new(ids.size(), 0);
  const auto count = [&ids](std::string_view line, std::vector<std::size_t>* counts) {
    const auto it = ids.find(line);
    if (it != ids.end()) ++(*counts)[static_cast<std::size_t>(it->second)];
  };
  for (std::string_view line : old_lines) count(line, &in_old);
  for (std::string_view line : new_lines) count(line, &in_new);

  // As git: a line without a match in the other file, or a very common one
  // among such lines, is changed and kept out of the search.
  std::vector<char> old_changed(n, 0);
  std::vector<char> new_changed(m, 0);
  const Searched a = Prepare(old_ids, n, prefix, in_new, &old_changed);
  const Searched b = Prepare(new_ids, m, prefix, in_old, &new_changed);
  std::vector<char> a_changed(a.ids.size(), 0);
  std::vector<char> b_changed(b.ids.size(), 0);
  MarkChanges(a.ids, b.ids, &a_changed, &b_changed);
  for (std::size_t i = 0; i < a.ids.size(); ++i) old_changed[a.line[i]] = a_changed[i];
  for (std::size_t j = 0; j < b.ids.size(); ++j) new_changed[b.line[j]] = b_changed[j];

  CompactChanges({old_lines, old_changed}, {new_lines, new_changed});
  CompactChanges({new_lines, new_changed}, {old_lines, old_changed});

  std::vector<LineChange> changes;
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && !old_changed[i] && !new_changed[j]) {
      ++i, ++j;
      continue;
    }
    LineChange change;
    change.old_begin = i;
    change.new_begin = j;
    while (i < n && old_changed[i]) ++i;
    while (j < m && new_changed[j]) ++j;
    change.old_count = i - change.old_begin;
    change.new_count = j - change.new_begin;
    changes.push_back(change);
  }
  return changes;
}

}  // namespace muh
