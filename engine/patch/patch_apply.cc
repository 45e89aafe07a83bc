#include "engine/patch/patch_apply.h"

#include <fmt/format.h>

#include <cstdio>
#include <optional>

#include "engine/patch/git_path.h"
#include "engine/patch/line_diff.h"

namespace muh {

namespace {

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::string_view Chomp(std::string_view s) {
  if (!s.empty() && s.back() == '\n') s.remove_suffix(1);
  return s;
}

bool ParseRange(std::string_view s, std::size_t* start, std::size_t* count) {
  std::size_t comma = s.find(',');
  try {
    *start = std::stoul(std::string(s.substr(0, comma)));
    *count = comma == std::string_view::npos ? 1 : std::stoul(std::string(s.substr(comma + 1)));
  } catch (...) {
    return false;
  }
  return true;
}

// The path of `a/PATH b/PATH` (both the same, as muhpatch writes them),
// quoted or not; nullopt when the two differ or the header is malformed.
std::optional<std::string> HeaderPath(std::string_view rest) {
  if (!rest.empty() && rest[0] == '"') {
    std::size_t used = 0;
    std::optional<std::string> a = UnquoteGitPath(rest, &used);
    if (!a || used >= rest.size() || rest[used] != ' ') return std::nullopt;
    std::size_t used_b = 0;
    std::optional<std::string> b = UnquoteGitPath(rest.substr(used + 1), &used_b);
    if (!b || used + 1 + used_b != rest.size()) return std::nullopt;
    if (a->rfind("a/", 0) != 0 || b->rfind("b/", 0) != 0 || a->substr(2) != b->substr(2)) {
      return std::nullopt;
    }
    return a->substr(2);
  }
  // Unquoted: "a/" P " b/" P, so P is as long as the rest of it (P may hold " b/").
  if (rest.size() < 5 || (rest.size() - 5) % 2 != 0) return std::nullopt;
  std::size_t n = (rest.size() - 5) / 2;
  std::string_view p = rest.substr(2, n);
  if (rest.substr(0, 2) != "a/" || rest.substr(2 + n, 3) != " b/" || rest.substr(5 + n) != p) {
    return std::nullopt;
  }
  return std::string(p);
}

}  // namespace

bool ParsePatch(const std::string& display_path, const std::string& text,
                std::vector<FilePatch>* out, std::vector<Diagnostic>* errors,
                std::vector<std::string>* preamble) {
  std::vector<std::string_view> lines = SplitLines(text);
  // A missing final newline of the patch itself (not of a file it changes,
  // which "\ No newline at end of file" marks) is an editor's doing.
  std::string last_line;
  if (!lines.empty() && lines.back().back() != '\n') {
    last_line = std::string(lines.back()) + "\n";
    lines.back() = last_line;
  }
  // Blank lines after the last hunk are dropped, as git apply does.
  while (!lines.empty() && (lines.back() == "\n" || lines.back() == "\r\n")) lines.pop_back();
  auto fail = [&](std::size_t i, const std::string& msg) {
    errors->push_back(
        MakeError(display_path, static_cast<int>(i + 1), 1, "malformed patch: " + msg));
    return false;
  };
  std::size_t i = 0;
  for (; i < lines.size() && !StartsWith(lines[i], "diff --git "); ++i) {
    if (preamble != nullptr) preamble->emplace_back(Chomp(lines[i]));
  }
  // Text alone, with no file in it, is not a patch (git apply: "No valid
  // patches in input").
  if (i == lines.size() && !lines.empty()) return fail(0, "expected 'diff --git a/PATH b/PATH'");
  while (i < lines.size()) {
    std::string_view l = Chomp(lines[i]);
    if (!StartsWith(l, "diff --git ")) return fail(i, "expected 'diff --git a/PATH b/PATH'");
    FilePatch fp;
    fp.line = static_cast<int>(i + 1);
    std::optional<std::string> path = HeaderPath(l.substr(11));
    if (!path) return fail(i, "expected 'diff --git a/PATH b/PATH'");
    fp.path = *path;
    // A name holding a space ends in a tab on the ---/+++ lines (git's way).
    const char* tab = fp.path.find(' ') != std::string::npos ? "\t" : "";
    const std::string old_name = QuoteGitPath("a/" + fp.path) + tab;
    const std::string new_name = QuoteGitPath("b/" + fp.path) + tab;
    if (i + 2 >= lines.size() || Chomp(lines[i + 1]) != "--- " + old_name ||
        Chomp(lines[i + 2]) != "+++ " + new_name) {
      return fail(i + 1, "expected '--- " + old_name + "' and '+++ " + new_name + "'");
    }
    i += 3;
    while (i < lines.size() && StartsWith(lines[i], "@@ -")) {
      PatchHunk h;
      h.line = static_cast<int>(i + 1);
      std::string_view hl = Chomp(lines[i]);
      std::size_t plus = hl.find(" +");
      std::size_t end = hl.find(" @@", plus == std::string_view::npos ? 0 : plus);
      if (plus == std::string_view::npos || end == std::string_view::npos ||
          !ParseRange(hl.substr(4, plus - 4), &h.old_start, &h.old_count) ||
          !ParseRange(hl.substr(plus + 2, end - plus - 2), &h.new_start, &h.new_count)) {
        return fail(i, "bad hunk header");
      }
      ++i;
      std::size_t olds = 0, news = 0;
      while (i < lines.size() && (olds < h.old_count || news < h.new_count)) {
        std::string_view b = lines[i];
        // A blank context line whose leading space an editor stripped.
        bool bare_blank = b == "\n" || b == "\r\n";
        char kind = bare_blank ? ' ' : b[0];
        if (kind != ' ' && kind != '-' && kind != '+') return fail(i, "bad hunk line");
        std::string body(bare_blank ? b : b.substr(1));
        if (i + 1 < lines.size() && StartsWith(lines[i + 1], "\\ No newline at end of file")) {
          if (!body.empty() && body.back() == '\n') body.pop_back();
          ++i;
        }
        h.body.emplace_back(kind, std::move(body));
        olds += kind != '+';
        news += kind != '-';
        ++i;
      }
      if (olds != h.old_count || news != h.new_count)
        return fail(i, "hunk is shorter than its header says");
      fp.hunks.push_back(std::move(h));
    }
    if (fp.hunks.empty()) return fail(i, "file '" + fp.path + "' has no hunks");
    out->push_back(std::move(fp));
  }
  return true;
}

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

// 0-based index of the first place where `want` occurs whole in `lines`
// at or after `from`, nearest to `near` first; npos when nowhere.
std::size_t FindNearest(const std::vector<std::string_view>& lines,
                        const std::vector<std::string_view>& want, std::size_t near) {
  if (want.empty() || want.size() > lines.size()) return std::string::npos;
  std::size_t best = std::string::npos;
  std::size_t best_distance = 0;
  for (std::size_t at = 0; at + want.size() <= lines.size(); ++at) {
    bool ok = true;
    for (std::size_t k = 0; k < want.size() && ok; ++k) ok = lines[at + k] == want[k];
    if (!ok) continue;
    std::size_t distance = at > near ? at - near : near - at;
    if (best == std::string::npos || distance < best_distance) {
      best = at;
      best_distance = distance;
    }
  }
  return best;
}

}  // namespace

std::vector<HunkFailure> FailingHunks(const FilePatch& patch, const std::string& content,
                                      bool reverse) {
  std::vector<std::string_view> lines = SplitLines(content);
  char add = reverse ? '-' : '+';
  char drop = reverse ? '+' : '-';
  std::vector<HunkFailure> out;
  for (std::size_t k = 0; k < patch.hunks.size(); ++k) {
    const PatchHunk& h = patch.hunks[k];
    std::size_t start = reverse ? h.new_start : h.old_start;
    std::size_t count = reverse ? h.new_count : h.old_count;
    std::size_t at = count == 0 ? start : start - 1;
    std::vector<std::string_view> old_side;
    std::vector<std::string_view> changed;
    for (const auto& [kind, text] : h.body) {
      if (kind == add) continue;
      old_side.push_back(text);
      if (kind == drop) changed.push_back(text);
    }
    HunkFailure f;
    f.hunk = k;
    f.patch_line = h.line;
    f.expected = at + 1;
    std::size_t j = 0;
    for (; j < old_side.size(); ++j) {
      if (at + j >= lines.size() || lines[at + j] != old_side[j]) break;
    }
    if (j == old_side.size() && at <= lines.size()) continue;  // applies where it says
    f.differs_at = at + j < lines.size() ? at + j + 1 : 0;
    if (j < old_side.size()) f.wanted = std::string(Chomp(old_side[j]));
    std::size_t whole = FindNearest(lines, old_side, at);
    if (whole != std::string::npos) f.now_at = whole + 1;
    std::size_t part =
        changed.empty() ? std::string::npos : FindNearest(lines, {changed.front()}, at);
    if (part != std::string::npos) f.changed_lines_at = part + 1;
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace muh
