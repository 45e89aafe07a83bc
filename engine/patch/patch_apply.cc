#include "engine/patch/patch_apply.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string_view>

#include "engine/patch/line_diff.h"

namespace muh {

namespace {

std::string_view Chomp(std::string_view s) {
  if (!s.empty() && s.back() == '\n') s.remove_suffix(1);
  if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
  return s;
}

}  // namespace

bool ApplyFilePatch(const std::string& display_path, const FilePatch& patch,
                    const std::string& content, bool reverse, std::string* out, Diagnostic* error) {
  std::vector<std::string_view> lines = SplitLines(content);
  char drop = reverse ? '+' : '-';
  char add = reverse ? '-' : '+';
  std::string result;
  std::size_t next = 0;  // next unconsumed line of `content`
  for (std::size_t k = 0; k < patch.hunks.size(); ++k) {
    const PatchHunk& h = patch.hunks[k];
    std::size_t start = reverse ? h.new_start : h.old_start;
    std::size_t count = reverse ? h.new_count : h.old_count;
    std::size_t at = count == 0 ? start : start - 1;  // 0-based first line of the hunk
    auto mismatch = [&](std::size_t file_line) {
      *error =
          MakeError(display_path, h.line, 1,
                    fmt::format("hunk {} of {} does not apply{}: {}:{} differs", k + 1, patch.path,
                                reverse ? " in reverse" : "", patch.path, file_line + 1));
      return false;
    };
    if (at < next || at > lines.size()) return mismatch(std::min(at, lines.size()));
    for (; next < at; ++next) result += lines[next];
    for (const auto& [kind, text] : h.body) {
      if (kind == add) {
        result += text;
        continue;
      }
      if (next >= lines.size() || lines[next] != text) return mismatch(next);
      if (kind != drop) result += text;
      ++next;
    }
  }
  for (; next < lines.size(); ++next) result += lines[next];
  *out = std::move(result);
  return true;
}

bool SameChange(const std::vector<FilePatch>& a, const std::vector<FilePatch>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t f = 0; f < a.size(); ++f) {
    if (a[f].path != b[f].path || a[f].hunks.size() != b[f].hunks.size()) return false;
    for (std::size_t h = 0; h < a[f].hunks.size(); ++h) {
      const PatchHunk& x = a[f].hunks[h];
      const PatchHunk& y = b[f].hunks[h];
      if (x.old_start != y.old_start || x.old_count != y.old_count || x.new_start != y.new_start ||
          x.new_count != y.new_count || x.body != y.body) {
        return false;
      }
    }
  }
  return true;
}

namespace {

// One side of a hunk: its lines as the file must hold them (old) or will
// (new), the context lines before its first change and after its last.
struct Side {
  std::vector<std::string_view> old_lines, new_lines;
  std::size_t trailing = 0;
  std::vector<bool> is_context;  // per old line
  std::vector<int> context_of;   // per new line: the old line it is as context, or -1
};

Side Sides(const PatchHunk& h, bool reverse) {
  char drop = reverse ? '+' : '-';
  char add = reverse ? '-' : '+';
  Side s;
  for (const auto& [kind, text] : h.body) {
    if (kind != add) {
      s.old_lines.push_back(text);
      s.is_context.push_back(kind != drop);
    }
    if (kind != drop) {
      s.new_lines.push_back(text);
      s.context_of.push_back(kind != add ? static_cast<int>(s.old_lines.size()) - 1 : -1);
    }
    s.trailing = kind == ' ' ? s.trailing + 1 : 0;
  }
  return s;
}

bool MatchesAt(const std::vector<std::string_view>& image,
               const std::vector<std::string_view>& want, std::size_t at) {
  if (at + want.size() > image.size()) return false;
  for (std::size_t k = 0; k < want.size(); ++k) {
    if (image[at + k] != want[k]) return false;
  }
  return true;
}

// The lines a hunk changes may differ in their value alone where `loose`
// names the line (by its origin in the content as given).
struct Looseness {
  const std::vector<LooseSpan>& spans;
  const std::vector<std::size_t>& origin;
  bool Matches(const std::vector<std::string_view>& image, const Side& s, std::size_t at) const {
    if (at + s.old_lines.size() > image.size()) return false;
    for (std::size_t k = 0; k < s.old_lines.size(); ++k) {
      if (image[at + k] == s.old_lines[k]) continue;
      if (!Loose(origin[at + k], image[at + k], s.old_lines[k], s.is_context[k])) return false;
    }
    return true;
  }
  bool Loose(std::size_t line, std::string_view has, std::string_view wanted, bool context) const {
    for (const LooseSpan& l : spans) {
      if (l.context_only && !context) continue;
      if (l.line == line && LooseMatch(has, wanted, l.begin, l.end)) return true;
    }
    return false;
  }
};

// git's search: the named line, then one after, one before, two after...
// A hunk anchored at the start or the end is tried there only.
std::optional<std::size_t> FindAsGit(const std::vector<std::string_view>& image, const Side& s,
                                     std::size_t hint, bool at_start, bool at_end,
                                     const Looseness& loose) {
  const std::size_t n = image.size(), m = s.old_lines.size();
  if (m > n) return std::nullopt;
  auto matches = [&](std::size_t at) { return loose.Matches(image, s, at); };
  if (at_start) return matches(0) && (!at_end || m == n) ? 0 : std::optional<std::size_t>();
  if (at_end) return matches(n - m) ? n - m : std::optional<std::size_t>();
  hint = std::min(hint, n);
  for (std::size_t d = 0; d <= n; ++d) {
    if (hint + d <= n && matches(hint + d)) return hint + d;
    if (d > 0 && d <= hint && matches(hint - d)) return hint - d;
  }
  return std::nullopt;
}

// Describes why `s` is found nowhere git would take it: where most of its
// old lines are (nearest `hint` on a tie) and the first that differs.
// `origin` maps image lines to the lines of the file as given (1-based).
HunkMiss Describe(const std::vector<std::string_view>& image,
                  const std::vector<std::size_t>& origin, const Side& s, std::size_t hint) {
  HunkMiss miss;
  const std::size_t n = image.size(), m = s.old_lines.size();
  hint = std::min(hint, n);
  // A place scores the lines that match there, and again those of its
  // unbroken run from the hunk's first line: where the hunk begins wins
  // over a place that matches as many lines further down (a line inserted
  // inside the hunk shifts the rest).
  std::size_t best = 0, best_count = 0, best_score = 0, best_distance = 0;
  for (std::size_t at = 0; m <= n && at + m <= n; ++at) {
    std::size_t count = 0, run = 0;
    for (std::size_t k = 0; k < m; ++k) {
      bool same = image[at + k] == s.old_lines[k];
      count += same;
      run += same && run == k;
    }
    std::size_t score = count + run;
    std::size_t distance = at > hint ? at - hint : hint - at;
    if (score > best_score || (score == best_score && score > 0 && distance < best_distance)) {
      best = at;
      best_count = count;
      best_score = score;
      best_distance = distance;
    }
  }
  // The lines there whole but for their line ends (a CRLF patch, an LF file).
  auto loose_at = [&](std::size_t at) {
    if (m == 0 || at + m > n) return false;
    bool loose = true;
    for (std::size_t k = 0; k < m && loose; ++k) {
      loose = Chomp(image[at + k]) == Chomp(s.old_lines[k]);
    }
    return loose && !MatchesAt(image, s.old_lines, at);
  };
  for (std::size_t d = 0; m <= n && d <= n; ++d) {
    std::optional<std::size_t> at;
    if (loose_at(hint + d)) {
      at = hint + d;
    } else if (d > 0 && d <= hint && loose_at(hint - d)) {
      at = hint - d;
    }
    if (!at) continue;
    std::size_t k = 0;
    while (image[*at + k] == s.old_lines[k]) ++k;
    miss.line_ends = true;
    miss.differs_at = origin[*at + k];
    miss.has = std::string(image[*at + k]);
    miss.wanted = std::string(s.old_lines[k]);
    miss.now_at = origin[*at];
    miss.span = origin[*at + m - 1] - origin[*at] + 1;
    return miss;
  }
  if (best_count == 0) return miss;
  miss.now_at = origin[best];
  miss.span = origin[best + m - 1] - origin[best] + 1;
  if (best_count == m) {
    miss.anchored = true;
    return miss;
  }
  for (std::size_t k = 0; k < m; ++k) {
    if (image[best + k] == s.old_lines[k]) continue;
    miss.differs_at = origin[best + k];
    miss.has = std::string(Chomp(image[best + k]));
    miss.wanted = std::string(Chomp(s.old_lines[k]));
    miss.context = s.is_context[k];
    break;
  }
  return miss;
}

}  // namespace

bool LooseMatch(std::string_view has, std::string_view wanted, std::size_t begin, std::size_t end) {
  if (begin > end || end > has.size()) return false;
  const std::size_t tail = has.size() - end;
  return wanted.size() >= begin + tail && wanted.substr(0, begin) == has.substr(0, begin) &&
         wanted.substr(wanted.size() - tail) == has.substr(end);
}

std::string ApplyAsGit(const FilePatch& patch, const std::string& content, bool reverse,
                       std::vector<HunkMiss>* misses, const std::vector<LooseSpan>& loose) {
  std::vector<std::string_view> image = SplitLines(content);
  // The line of the file as given that each image line was (a line a hunk
  // added: the one it replaced, or the line after).
  std::vector<std::size_t> origin(image.size());
  for (std::size_t k = 0; k < origin.size(); ++k) origin[k] = k + 1;
  const Looseness looseness{loose, origin};
  for (std::size_t k = 0; k < patch.hunks.size(); ++k) {
    const PatchHunk& h = patch.hunks[k];
    const std::size_t old_start = reverse ? h.new_start : h.old_start;
    const std::size_t new_start = reverse ? h.old_start : h.new_start;
    Side s = Sides(h, reverse);
    const bool at_start = old_start <= 1;
    const bool at_end = s.trailing == 0;
    const std::size_t hint = new_start == 0 ? 0 : new_start - 1;
    std::optional<std::size_t> at = FindAsGit(image, s, hint, at_start, at_end, looseness);
    if (!at) {
      HunkMiss miss = Describe(image, origin, s, hint);
      miss.hunk = k;
      miss.patch_line = h.line;
      miss.expected = old_start == 0 ? 1 : old_start;
      misses->push_back(std::move(miss));
      continue;
    }
    // The new lines take the origins of the old ones they replace, and any
    // more that of the line after them.
    const auto from = static_cast<std::ptrdiff_t>(*at);
    const auto to = static_cast<std::ptrdiff_t>(*at + s.old_lines.size());
    std::size_t after = static_cast<std::size_t>(to) < origin.size()
                            ? origin[static_cast<std::size_t>(to)]
                            : (origin.empty() ? 1 : origin.back() + 1);
    std::vector<std::size_t> added(s.new_lines.size(), after);
    for (std::size_t j = 0; j < added.size() && j < s.old_lines.size(); ++j) {
      added[j] = origin[*at + j];
    }
    // A context line stays as the content has it (it may differ loosely).
    std::vector<std::string_view> lines = s.new_lines;
    for (std::size_t j = 0; j < lines.size(); ++j) {
      if (s.context_of[j] >= 0) lines[j] = image[*at + static_cast<std::size_t>(s.context_of[j])];
    }
    image.erase(image.begin() + from, image.begin() + to);
    image.insert(image.begin() + from, lines.begin(), lines.end());
    origin.erase(origin.begin() + from, origin.begin() + to);
    origin.insert(origin.begin() + from, added.begin(), added.end());
  }
  std::string out;
  for (std::string_view l : image) out += l;
  return out;
}

}  // namespace muh
