#include "engine/patch/unified_diff.h"

#include <algorithm>
#include <vector>

#include "engine/patch/git_path.h"
#include "engine/patch/line_diff.h"

namespace muh {

namespace {

// Appends one hunk line: `prefix`, the line's bytes, and the no-newline marker
// when the line is a last line without '\n'.
void AppendLine(char prefix, std::string_view line, std::string* out) {
  out->push_back(prefix);
  out->append(line);
  if (line.empty() || line.back() != '\n') out->append("\n\\ No newline at end of file\n");
}

// Appends git's `S,C` for the 0-based `start` and `count`: S is 1-based, or
// the line before when C == 0; `,C` is left out when C == 1.
void AppendRange(std::size_t start, std::size_t count, std::string* out) {
  out->append(std::to_string(count == 0 ? start : start + 1));
  if (count != 1) {
    out->push_back(',');
    out->append(std::to_string(count));
  }
}

// The function context git prints after a hunk's `@@` with its defaults
// (no .gitattributes, so the default rule of xdiff's def_ff): the nearest
// line above the hunk that starts with a letter, '_' or '$', cut to 80
// bytes, trailing blanks (a CR included) removed; "" when there is none.
std::string FunctionContext(const std::vector<std::string_view>& old_lines, std::size_t start) {
  for (std::size_t i = start; i-- > 0;) {
    std::string_view line = old_lines[i];
    if (line.empty()) continue;
    unsigned char c = static_cast<unsigned char>(line[0]);
    bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (!alpha && c != '_' && c != '$') continue;
    line = line.substr(0, std::min<std::size_t>(line.size(), 80));
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\n' ||
                             line.back() == '\r' || line.back() == '\v' || line.back() == '\f')) {
      line.remove_suffix(1);
    }
    return std::string(line);
  }
  return "";
}

// Appends the hunk covering `changes[first, last]` with its context.
void AppendHunk(const std::vector<std::string_view>& old_lines,
                const std::vector<std::string_view>& new_lines,
                const std::vector<LineChange>& changes, std::size_t first, std::size_t last,
                std::string* out) {
  const LineChange& head = changes[first];
  const LineChange& tail = changes[last];
  // Lines before the first change and after the last one are unchanged in
  // both files, so the context is the same length on both sides.
  const std::size_t leading = std::min(kContextLines, head.old_begin);
  const std::size_t old_start = head.old_begin - leading;
  const std::size_t new_start = head.new_begin - leading;
  const std::size_t old_tail_end = tail.old_begin + tail.old_count;
  const std::size_t trailing = std::min(kContextLines, old_lines.size() - old_tail_end);
  const std::size_t old_end = old_tail_end + trailing;
  const std::size_t new_end = tail.new_begin + tail.new_count + trailing;

  out->append("@@ -");
  AppendRange(old_start, old_end - old_start, out);
  out->append(" +");
  AppendRange(new_start, new_end - new_start, out);
  out->append(" @@");
  std::string function = FunctionContext(old_lines, old_start);
  if (!function.empty()) out->append(" ").append(function);
  out->append("\n");

  std::size_t i = old_start;
  for (std::size_t c = first; c <= last; ++c) {
    const LineChange& change = changes[c];
    for (; i < change.old_begin; ++i) AppendLine(' ', old_lines[i], out);
    for (std::size_t k = 0; k < change.old_count; ++k) {
      AppendLine('-', old_lines[change.old_begin + k], out);
    }
    for (std::size_t k = 0; k < change.new_count; ++k) {
      AppendLine('+', new_lines[change.new_begin + k], out);
    }
    i = change.old_begin + change.old_count;
  }
  for (; i < old_end; ++i) AppendLine(' ', old_lines[i], out);
}

}  // namespace

std::string UnifiedDiff(std::string_view path, std::string_view old_text,
                        std::string_view new_text) {
  if (old_text == new_text) return "";
  const std::vector<std::string_view> old_lines = SplitLines(old_text);
  const std::vector<std::string_view> new_lines = SplitLines(new_text);
  const std::vector<LineChange> changes = DiffLines(old_lines, new_lines);
  if (changes.empty()) return "";

  std::string out;
  const std::string a = QuoteGitPath("a/" + std::string(path));
  const std::string b = QuoteGitPath("b/" + std::string(path));
  out.append("diff --git ").append(a).append(" ").append(b).append("\n");
  // As git does: a name holding a space ends in a tab on these two lines,
  // so that patch(1) knows where it stops.
  const char* tab = path.find(' ') != std::string_view::npos ? "\t" : "";
  out.append("--- ").append(a).append(tab).append("\n");
  out.append("+++ ").append(b).append(tab).append("\n");
  std::size_t first = 0;
  while (first < changes.size()) {
    std::size_t last = first;
    while (last + 1 < changes.size() &&
           changes[last + 1].old_begin - (changes[last].old_begin + changes[last].old_count) <=
               2 * kContextLines) {
      ++last;
    }
    AppendHunk(old_lines, new_lines, changes, first, last, &out);
    first = last + 1;
  }
  return out;
}

}  // namespace muh
