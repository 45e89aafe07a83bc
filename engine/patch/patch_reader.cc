#include "engine/patch/patch_reader.h"

#include <fmt/format.h>

#include <optional>
#include <string_view>

#include "engine/patch/git_path.h"
#include "engine/patch/line_diff.h"

namespace muh {

namespace {

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// A header line without its terminator: "\n", and a "\r" before it (git
// ends a name at any white space, so a CRLF patch's names read the same).
std::string_view HeaderText(std::string_view s) {
  if (!s.empty() && s.back() == '\n') s.remove_suffix(1);
  if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
  return s;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Whether `s[at, at + n)` is all digits.
bool Digits(std::string_view s, std::size_t at, std::size_t n) {
  if (at + n > s.size()) return false;
  for (std::size_t k = at; k < at + n; ++k) {
    if (!IsDigit(s[k])) return false;
  }
  return true;
}

// The length of a timestamp that `diff -u` writes after a name, with the
// white space before it: "\t2024-05-01 10:00:00.123456789 +0000", the
// fraction and the zone optional (POSIX and GNU). 0 when `s` ends in none.
std::size_t TimestampLength(std::string_view s) {
  std::size_t end = s.size();
  // Zone: " +0000" or " +00:00".
  if (end >= 6 && s[end - 6] == ' ' && (s[end - 5] == '+' || s[end - 5] == '-') &&
      Digits(s, end - 4, 4)) {
    end -= 6;
  } else if (end >= 7 && s[end - 7] == ' ' && (s[end - 6] == '+' || s[end - 6] == '-') &&
             Digits(s, end - 5, 2) && s[end - 3] == ':' && Digits(s, end - 2, 2)) {
    end -= 7;
  }
  // Fraction.
  std::size_t digits = 0;
  while (digits < end && IsDigit(s[end - 1 - digits])) ++digits;
  if (digits > 0 && digits < end && s[end - 1 - digits] == '.') end -= digits + 1;
  // Time "HH:MM:SS", then the date "YYYY-MM-DD " before it.
  if (end < 19 || !Digits(s, end - 8, 2) || s[end - 6] != ':' || !Digits(s, end - 5, 2) ||
      s[end - 3] != ':' || !Digits(s, end - 2, 2)) {
    return 0;
  }
  end -= 8;
  if (s[end - 1] != ' ' || !Digits(s, end - 11, 4) || s[end - 7] != '-' || !Digits(s, end - 6, 2) ||
      s[end - 4] != '-' || !Digits(s, end - 3, 2)) {
    return 0;
  }
  end -= 11;
  if (end == 0) return 0;
  if (s[end - 1] == '\t') return s.size() - end + 1;
  if (s[end - 1] != ' ') return 0;
  while (end > 0 && s[end - 1] == ' ') --end;
  return s.size() - end;
}

// `name` less its first `strip` components; nullopt when it has fewer.
std::optional<std::string> Strip(std::string name, int strip) {
  for (int k = 0; k < strip; ++k) {
    std::size_t slash = name.find('/');
    if (slash == std::string::npos) return std::nullopt;
    name.erase(0, slash + 1);
  }
  if (name.empty()) return std::nullopt;
  return name;
}

// A name on a `---`/`+++` line (or after `rename from` and the like, with
// `strip` 0): quoted as git quotes it, or up to a tab; a plain diff's
// timestamp ends it too (`traditional`).
std::optional<std::string> LineName(std::string_view text, int strip, bool traditional) {
  if (!text.empty() && text[0] == '"') {
    std::size_t used = 0;
    std::optional<std::string> name = UnquoteGitPath(text, &used);
    if (name) return Strip(*name, strip);
  }
  std::size_t stamp = traditional ? TimestampLength(text) : 0;
  std::string_view name =
      stamp != 0 ? text.substr(0, text.size() - stamp) : text.substr(0, text.find('\t'));
  return Strip(std::string(name), strip);
}

// The name of `diff --git A B` when A and B name the same file once
// stripped; nullopt otherwise (a rename says its names on other lines).
std::optional<std::string> GitHeaderName(std::string_view rest, int strip) {
  for (std::size_t sp = 0; sp < rest.size(); ++sp) {
    bool quoted_first = sp == 0 && rest[0] == '"';
    std::string first;
    std::size_t after = sp;
    if (quoted_first) {
      std::size_t used = 0;
      std::optional<std::string> a = UnquoteGitPath(rest, &used);
      if (!a) return std::nullopt;
      first = *a;
      after = used;
    } else {
      if (rest[sp] != ' ') continue;
      first = std::string(rest.substr(0, sp));
    }
    if (after >= rest.size() || rest[after] != ' ') {
      if (quoted_first) return std::nullopt;
      continue;
    }
    std::string_view tail = rest.substr(after + 1);
    std::string second;
    std::size_t used = 0;
    if (!tail.empty() && tail[0] == '"') {
      std::optional<std::string> b = UnquoteGitPath(tail, &used);
      if (!b || used != tail.size()) continue;
      second = *b;
    } else {
      second = std::string(tail);
    }
    std::optional<std::string> x = Strip(first, strip);
    std::optional<std::string> y = Strip(second, strip);
    if (x && y && *x == *y) return x;
    if (quoted_first) return std::nullopt;
  }
  return std::nullopt;
}

bool ParseRange(std::string_view s, std::size_t* start, std::size_t* count) {
  std::size_t comma = s.find(',');
  std::string_view a = s.substr(0, comma);
  std::string_view b = comma == std::string_view::npos ? "1" : s.substr(comma + 1);
  if (a.empty() || b.empty()) return false;
  for (char c : a) {
    if (!IsDigit(c)) return false;
  }
  for (char c : b) {
    if (!IsDigit(c)) return false;
  }
  try {
    *start = std::stoul(std::string(a));
    *count = std::stoul(std::string(b));
  } catch (...) {
    return false;
  }
  return true;
}

class Reader {
 public:
  Reader(const std::string& display_path, const std::string& text, int strip,
         std::vector<Diagnostic>* errors)
      : display_path_(display_path),
        lines_(SplitLines(text)),
        strip_(strip < 0 ? 1 : strip),
        strip_known_(strip >= 0),
        errors_(errors) {}

  bool Read(std::vector<FilePatch>* out, std::vector<std::string>* preamble) {
    bool any = false;
    while (i_ < lines_.size()) {
      std::string_view l = lines_[i_];
      if (StartsWith(l, "@@ -")) return Fail(i_, "a hunk without a file header before it");
      FilePatch fp;
      fp.line = static_cast<int>(i_ + 1);
      bool header = false;
      if (StartsWith(l, "diff --git ")) {
        if (!GitHeader(&fp)) return false;
        header = true;
      } else if (StartsWith(l, "--- ") && i_ + 2 < lines_.size() &&
                 StartsWith(lines_[i_ + 1], "+++ ") && StartsWith(lines_[i_ + 2], "@@ -")) {
        if (!PlainHeader(&fp)) return false;
        header = true;
      }
      if (!header) {  // text around the patch, as git skips it
        if (!any && preamble != nullptr) preamble->emplace_back(HeaderText(l));
        ++i_;
        continue;
      }
      while (i_ < lines_.size() && StartsWith(lines_[i_], "@@ -")) {
        if (!Hunk(&fp)) return false;
      }
      if (fp.hunks.empty()) {
        std::string_view next = i_ < lines_.size() ? HeaderText(lines_[i_]) : "";
        if (next == "GIT binary patch" || (StartsWith(next, "Binary files ") && next.size() >= 7 &&
                                           next.substr(next.size() - 7) == " differ")) {
          fp.is_binary = true;
        } else if (fp.OtherChange().empty()) {
          return Fail(static_cast<std::size_t>(fp.line - 1),
                      fmt::format("no hunk for '{}' after its header", fp.path));
        }
      }
      out->push_back(std::move(fp));
      any = true;
    }
    // An empty patch (what `diff` prints when nothing is to change) has no
    // file; text alone is not a patch (git apply: "No valid patches").
    bool blank = true;
    for (std::string_view l : lines_) blank = blank && HeaderText(l).empty();
    if (!any && !blank) {
      return Fail(0, "no file in it (neither 'diff --git' nor a '---'/'+++' pair before '@@')");
    }
    return true;
  }

 private:
  bool Fail(std::size_t i, const std::string& msg) {
    errors_->push_back(
        MakeError(display_path_, static_cast<int>(i + 1), 1, "malformed patch: " + msg));
    return false;
  }

  bool GitHeader(FilePatch* fp) {
    std::size_t head = i_;
    std::optional<std::string> def = GitHeaderName(HeaderText(lines_[i_]).substr(11), strip_);
    ++i_;
    std::optional<std::string> old_name, new_name;
    auto name = [&](std::string_view text, std::optional<std::string>* slot, bool* null,
                    const char* which) {
      if (text == "/dev/null") {
        *null = true;
        return true;
      }
      std::optional<std::string> n = LineName(text, strip_, false);
      if (!n) return Fail(i_, fmt::format("no {} file name with -p {}", which, strip_));
      if (*slot && **slot != *n) {
        return Fail(
            i_, fmt::format("the {} file name '{}' differs from '{}' above", which, *n, **slot));
      }
      *slot = n;
      return true;
    };
    for (; i_ < lines_.size(); ++i_) {
      std::string_view l = HeaderText(lines_[i_]);
      auto after = [&](std::string_view key) { return std::string(l.substr(key.size())); };
      bool null = false;
      if (StartsWith(l, "@@ -")) break;
      if (StartsWith(l, "--- ")) {
        if (!name(l.substr(4), &old_name, &null, "old")) return false;
        fp->is_new = fp->is_new || null;
      } else if (StartsWith(l, "+++ ")) {
        if (!name(l.substr(4), &new_name, &null, "new")) return false;
        fp->is_delete = fp->is_delete || null;
      } else if (StartsWith(l, "old mode ")) {
        fp->old_mode = after("old mode ");
      } else if (StartsWith(l, "new mode ")) {
        fp->new_mode = after("new mode ");
      } else if (StartsWith(l, "deleted file mode ")) {
        fp->is_delete = true;
        fp->old_mode = after("deleted file mode ");
      } else if (StartsWith(l, "new file mode ")) {
        fp->is_new = true;
        fp->new_mode = after("new file mode ");
      } else if (StartsWith(l, "rename from ") || StartsWith(l, "rename old ") ||
                 StartsWith(l, "copy from ")) {
        (StartsWith(l, "copy") ? fp->is_copy : fp->is_rename) = true;
        old_name = LineName(l.substr(l.find(' ', l.find(' ') + 1) + 1), 0, false);
      } else if (StartsWith(l, "rename to ") || StartsWith(l, "rename new ") ||
                 StartsWith(l, "copy to ")) {
        (StartsWith(l, "copy") ? fp->is_copy : fp->is_rename) = true;
        new_name = LineName(l.substr(l.find(' ', l.find(' ') + 1) + 1), 0, false);
      } else if (StartsWith(l, "index ")) {
        std::size_t sp = l.find(' ', 6);
        if (sp != std::string_view::npos && fp->old_mode.empty() && fp->new_mode.empty()) {
          fp->old_mode = fp->new_mode = std::string(l.substr(sp + 1));
        }
      } else if (!StartsWith(l, "similarity index ") && !StartsWith(l, "dissimilarity index ")) {
        break;  // the first line of no header ends the headers
      }
    }
    if (!old_name) old_name = new_name ? new_name : def;
    if (!new_name) new_name = old_name;
    if (!new_name) {
      return Fail(head, fmt::format("'diff --git' names no file once -p {} strips it", strip_));
    }
    fp->path = *new_name;
    fp->old_path = *old_name;
    return true;
  }

  bool PlainHeader(FilePatch* fp) {
    std::string_view first = HeaderText(lines_[i_]).substr(4);
    std::string_view second = HeaderText(lines_[i_ + 1]).substr(4);
    // A name without a '/' asks for -p 0 when -p was not given (git guesses so).
    if (!strip_known_) {
      auto guess = [](std::string_view text) {
        if (text == "/dev/null") return -1;
        std::optional<std::string> n = LineName(text, 0, true);
        return n && n->find('/') == std::string::npos ? 0 : -1;
      };
      int p = guess(first);
      int q = guess(second);
      if (p < 0) p = q;
      if (p == 0 && q == 0) {
        strip_ = 0;
        strip_known_ = true;
      }
    }
    std::optional<std::string> a =
        first == "/dev/null" ? std::nullopt : LineName(first, strip_, true);
    std::optional<std::string> b =
        second == "/dev/null" ? std::nullopt : LineName(second, strip_, true);
    fp->is_new = first == "/dev/null";
    fp->is_delete = second == "/dev/null";
    // Of two names, git takes the shorter when the longer extends it (a
    // "file.orig" beside "file").
    if (a && b && a->size() < b->size() && b->compare(0, a->size(), *a) == 0) b = a;
    std::optional<std::string> name = b ? b : a;
    if (!name || (!fp->is_new && !a) || (!fp->is_delete && !b)) {
      return Fail(i_, fmt::format("no file name on the '---'/'+++' lines with -p {}", strip_));
    }
    fp->path = fp->old_path = *name;
    i_ += 2;
    return true;
  }

  bool Hunk(FilePatch* fp) {
    PatchHunk h;
    h.line = static_cast<int>(i_ + 1);
    std::string_view hl = HeaderText(lines_[i_]);
    std::size_t plus = hl.find(" +");
    std::size_t end = hl.find(" @@", plus == std::string_view::npos ? 0 : plus);
    if (lines_[i_].back() != '\n' || plus == std::string_view::npos ||
        end == std::string_view::npos ||
        !ParseRange(hl.substr(4, plus - 4), &h.old_start, &h.old_count) ||
        !ParseRange(hl.substr(plus + 2, end - plus - 2), &h.new_start, &h.new_count)) {
      return Fail(i_, "bad hunk header");
    }
    ++i_;
    std::size_t olds = h.old_count, news = h.new_count;
    bool changes = false;
    while (olds > 0 || news > 0) {
      if (i_ >= lines_.size()) return Fail(i_, "the hunk ends before its header's counts");
      std::string_view b = lines_[i_];
      if (b.back() != '\n') return Fail(i_, "the line does not end in a newline");
      char kind = b[0] == '\n' ? ' ' : b[0];
      if (kind == '\\' && b.size() >= 12 && StartsWith(b, "\\ ") && !h.body.empty()) {
        std::string& last = h.body.back().second;
        if (!last.empty() && last.back() == '\n') last.pop_back();
        ++i_;
        continue;
      }
      if (kind != ' ' && kind != '-' && kind != '+') {
        return Fail(i_, "a hunk line is neither context (' '), removed ('-') nor added ('+')");
      }
      std::size_t& left = kind == '+' ? news : olds;
      if (left == 0 || (kind == ' ' && news == 0)) {
        return Fail(i_, "the hunk is longer than its header's counts");
      }
      if (kind != '+') --olds;
      if (kind != '-') --news;
      changes = changes || kind != ' ';
      h.body.emplace_back(kind, std::string(b[0] == '\n' ? b : b.substr(1)));
      ++i_;
    }
    // "\ No newline at end of file" after the hunk's last line.
    if (i_ < lines_.size() && lines_[i_].size() >= 12 && StartsWith(lines_[i_], "\\ ")) {
      std::string& last = h.body.back().second;
      if (!last.empty() && last.back() == '\n') last.pop_back();
      ++i_;
    }
    if (!changes) return Fail(static_cast<std::size_t>(h.line - 1), "a hunk that changes nothing");
    fp->hunks.push_back(std::move(h));
    return true;
  }

  const std::string& display_path_;
  std::vector<std::string_view> lines_;
  int strip_;
  bool strip_known_;
  std::vector<Diagnostic>* errors_;
  std::size_t i_ = 0;
};

}  // namespace

std::string FilePatch::OtherChange() const {
  if (is_binary) return "changes it as binary data";
  if (is_new) return "creates it";
  if (is_delete) return "deletes it";
  if (is_rename || (!is_copy && old_path != path)) {
    return fmt::format("renames {} to it", old_path);
  }
  if (is_copy) return fmt::format("copies it from {}", old_path);
  if (!old_mode.empty() && !new_mode.empty() && old_mode != new_mode) {
    return fmt::format("changes its mode from {} to {}", old_mode, new_mode);
  }
  return "";
}

bool ReadPatch(const std::string& display_path, const std::string& text, int strip,
               std::vector<FilePatch>* out, std::vector<Diagnostic>* errors,
               std::vector<std::string>* preamble) {
  return Reader(display_path, text, strip, errors).Read(out, preamble);
}

bool ParsePatch(const std::string& display_path, const std::string& text,
                std::vector<FilePatch>* out, std::vector<Diagnostic>* errors,
                std::vector<std::string>* preamble) {
  return ReadPatch(display_path, text, kDefaultStrip, out, errors, preamble);
}

}  // namespace muh
