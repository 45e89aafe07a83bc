#include "engine/python/py_lines.h"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "engine/base/byte_scan.h"
#include "engine/base/text.h"

namespace muh {

namespace {

// The bytes the lexer must look at, in code and in strings; it skips all
// others.
using Specials = ByteCursor<'#', '\\', '(', ')', '[', ']', '{', '}', '"', '\'', '\n'>;

bool InRanges(const std::vector<PyLines::Range>& ranges, std::size_t at) {
  auto it =
      std::upper_bound(ranges.begin(), ranges.end(), at,
                       [](std::size_t off, const PyLines::Range& r) { return off < r.first; });
  if (it == ranges.begin()) return false;
  --it;
  return at < it->second;
}

}  // namespace

std::optional<PyLines> PyLines::Lex(std::string_view src) {
  if (src.size() > UINT32_MAX) return std::nullopt;
  PyLines out;
  out.src_ = src;
  // Room for what a file of this size usually holds (the real tree: a
  // logical line per 91 bytes, a string per 400, a comment per 530), so
  // that few vectors regrow.
  out.lines_.reserve(src.size() / 64 + 16);
  out.strings_.reserve(src.size() / 256 + 16);
  out.comments_.reserve(src.size() / 256 + 16);
  std::size_t i = 0;
  int line = 1;
  int depth = 0;
  bool continued = false;
  std::vector<int> open;  // indices of lines still open as headers, by indent
  LogicalLine* current = nullptr;
  const std::size_t n = src.size();
  Specials specials(src);
  while (i < n) {
    std::size_t line_begin = i;
    if (depth == 0 && !continued) {
      int indent = 0;
      std::size_t j = i;
      for (;;) {
        std::size_t spaces = LeadingSpaces(src.data() + j, src.data() + n);
        indent += static_cast<int>(spaces);
        j += spaces;
        if (j < n && src[j] == '\t') {
          indent = (indent / 8 + 1) * 8;
        } else if (j >= n || src[j] != '\f') {
          break;
        }
        ++j;
      }
      bool blank = j >= n || src[j] == '\n' || src[j] == '\r' || src[j] == '#';
      if (blank) {
        current = nullptr;
      } else {
        while (!open.empty() &&
               out.lines_[static_cast<std::size_t>(open.back())].indent >= indent) {
          open.pop_back();
        }
        LogicalLine l;
        l.begin = static_cast<std::uint32_t>(line_begin);
        l.code = static_cast<std::uint32_t>(j);
        l.indent = indent;
        l.line = line;
        l.parent = open.empty() ? -1 : open.back();
        out.lines_.push_back(l);
        open.push_back(static_cast<int>(out.lines_.size()) - 1);
        current = &out.lines_.back();
      }
      i = j;
    }
    continued = false;
    for (;;) {
      i = specials.Next(i);
      if (i >= n || src[i] == '\n') break;
      char c = src[i];
      if (c == '#') {
        const void* nl = std::memchr(src.data() + i, '\n', n - i);
        std::size_t stop =
            nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - src.data()) : n;
        out.comments_.emplace_back(static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(stop));
        i = stop;
        break;
      }
      if (c == '\\') {
        if (i + 1 < n && src[i + 1] == '\n') {
          continued = true;
          ++i;
          break;
        }
        if (i + 2 < n && src[i + 1] == '\r' && src[i + 2] == '\n') {
          continued = true;
          i += 2;
          break;
        }
        ++i;
        continue;
      }
      if (c == '(' || c == '[' || c == '{') {
        ++depth;
      } else if (c == ')' || c == ']' || c == '}') {
        if (--depth < 0) return std::nullopt;
      } else if (c == '"' || c == '\'') {
        std::size_t start = i;
        bool triple = i + 2 < n && src[i + 1] == c && src[i + 2] == c;
        i += triple ? 3 : 1;
        for (;;) {
          if (i >= n) return std::nullopt;
          i = specials.Next(i);
          if (i >= n) return std::nullopt;
          char s = src[i];
          if (s != c && s != '\\' && s != '\n') {
            ++i;  // a bracket, the other quote or `#`: text like any other
            continue;
          }
          if (s == '\\') {
            if (i + 1 < n && src[i + 1] == '\n') ++line;
            i += 2;
            continue;
          }
          if (s == '\n') {
            if (!triple) return std::nullopt;
            ++line;
          }
          if (s == c && (!triple || (i + 2 < n && src[i + 1] == c && src[i + 2] == c))) {
            i += triple ? 3 : 1;
            break;
          }
          ++i;
        }
        out.strings_.emplace_back(static_cast<std::uint32_t>(start), static_cast<std::uint32_t>(i));
        continue;
      }
      ++i;
    }
    if (current != nullptr) {
      std::size_t e = i;
      while (e > current->code && !out.comments_.empty() && out.comments_.back().second == e &&
             out.comments_.back().first >= current->code) {
        e = out.comments_.back().first;
      }
      while (e > current->code && (src[e - 1] == ' ' || src[e - 1] == '\t' || src[e - 1] == '\r' ||
                                   src[e - 1] == '\\')) {
        --e;
      }
      current->code_end = std::max(current->code_end, static_cast<std::uint32_t>(e));
    }
    if (i < n) {
      ++i;
      ++line;
    }
    if (current != nullptr) current->end = static_cast<std::uint32_t>(i);
  }
  if (depth != 0) return std::nullopt;
  return out;
}

int PyLines::IndexAt(std::size_t offset) const {
  auto it = std::upper_bound(lines_.begin(), lines_.end(), offset,
                             [](std::size_t off, const LogicalLine& l) { return off < l.begin; });
  if (it == lines_.begin()) return -1;
  --it;
  return offset < it->end ? static_cast<int>(it - lines_.begin()) : -1;
}

bool PyLines::InCode(std::size_t offset) const {
  return !InRanges(strings_, offset) && !InRanges(comments_, offset);
}

bool PyLines::InString(std::size_t offset) const { return InRanges(strings_, offset); }

std::optional<PyLines::Range> PyLines::StringAt(std::size_t offset) const {
  auto it =
      std::upper_bound(strings_.begin(), strings_.end(), offset,
                       [](std::size_t off, const PyLines::Range& r) { return off < r.first; });
  if (it == strings_.begin()) return std::nullopt;
  --it;
  if (offset >= it->second) return std::nullopt;
  return *it;
}

std::string_view PyLines::Code(int k) const {
  const LogicalLine& l = lines_[static_cast<std::size_t>(k)];
  return src_.substr(l.code, l.code_end > l.code ? l.code_end - l.code : 0);
}

std::string_view PyLines::Keyword(int k) const {
  std::string_view code = Code(k);
  std::size_t e = 0;
  while (e < code.size() && IsWordChar(code[e])) ++e;
  return code.substr(0, e);
}

std::string_view PyLines::HeaderCondition(int k) const {
  std::string_view code = Code(k);
  std::string_view kw = Keyword(k);
  if (kw.empty()) return {};
  // The colon that ends the header: the last one outside brackets and strings.
  std::size_t base = lines_[static_cast<std::size_t>(k)].code;
  int depth = 0;
  std::size_t colon = std::string_view::npos;
  for (std::size_t j = kw.size(); j < code.size(); ++j) {
    if (!InCode(base + j)) continue;
    char c = code[j];
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (c == ':' && depth == 0 && (j + 1 >= code.size() || code[j + 1] != '=')) {
      colon = j;
      break;
    }
  }
  if (colon == std::string_view::npos) return {};
  std::string_view cond = code.substr(kw.size(), colon - kw.size());
  while (!cond.empty() && std::isspace(static_cast<unsigned char>(cond.front()))) {
    cond.remove_prefix(1);
  }
  while (!cond.empty() && std::isspace(static_cast<unsigned char>(cond.back()))) {
    cond.remove_suffix(1);
  }
  return cond;
}

namespace {

// Whether a line starting with `kw` is a compound statement's header, whose
// first `:` outside brackets ends the header.
bool IsCompoundKeyword(std::string_view kw) {
  for (std::string_view c : {"if", "elif", "else", "try", "except", "finally", "for", "while",
                             "with", "def", "class", "async", "match", "case"}) {
    if (kw == c) return true;
  }
  return false;
}

}  // namespace

template <typename Visit>
void PyLines::StatementBoundaries(int k, const Visit& visit) const {
  const LogicalLine& l = lines_[static_cast<std::size_t>(k)];
  bool header = IsCompoundKeyword(Keyword(k));
  auto first_after = [](const std::vector<Range>& v, std::size_t from) {
    return std::lower_bound(v.begin(), v.end(), from,
                            [](const Range& r, std::size_t off) { return r.second <= off; });
  };
  auto str = first_after(strings_, l.code);
  auto com = first_after(comments_, l.code);
  int depth = 0;
  for (std::size_t j = l.code; j < l.code_end; ++j) {
    // Strings and comments are skipped by range.
    while (str != strings_.end() && str->second <= j) ++str;
    if (str != strings_.end() && j >= str->first) {
      j = str->second - 1;
      continue;
    }
    while (com != comments_.end() && com->second <= j) ++com;
    if (com != comments_.end() && j >= com->first) {
      j = com->second - 1;
      continue;
    }
    char c = src_[j];
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (depth != 0) continue;
    if (c == ';') {
      if (!visit(j)) return;
    } else if (c == ':' && header && (j + 1 >= src_.size() || src_[j + 1] != '=')) {
      header = false;  // only the header's own colon
      if (!visit(j)) return;
    }
  }
}

std::string_view PyLines::StatementAt(int k, std::size_t offset, std::size_t* begin) const {
  const LogicalLine& l = lines_[static_cast<std::size_t>(k)];
  std::size_t b = l.code;
  std::size_t e = l.code_end;
  StatementBoundaries(k, [&](std::size_t j) {
    if (j < offset) {
      b = j + 1;
      return true;
    }
    e = j;
    return false;
  });
  while (b < e && (src_[b] == ' ' || src_[b] == '\t')) ++b;
  while (e > b && (src_[e - 1] == ' ' || src_[e - 1] == '\t')) --e;
  if (begin != nullptr) *begin = b;
  return src_.substr(b, e - b);
}

bool PyLines::HasSeveralStatements(int k) const {
  const LogicalLine& l = lines_[static_cast<std::size_t>(k)];
  bool several = false;
  StatementBoundaries(k, [&](std::size_t j) {
    std::size_t n = j + 1;
    while (n < l.code_end && (src_[n] == ' ' || src_[n] == '\t')) ++n;
    several = src_[j] == ';' || n < l.code_end;
    return !several;
  });
  return several;
}

int PyLines::LineOf(std::size_t offset) const {
  // Every newline of a file that lexes is a line break, in strings too.
  std::string_view before = src_.substr(0, std::min(offset, src_.size()));
  return static_cast<int>(std::count(before.begin(), before.end(), '\n')) + 1;
}

}  // namespace muh
