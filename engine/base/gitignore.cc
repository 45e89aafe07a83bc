#include "engine/base/gitignore.h"

#include <algorithm>
#include <cstdint>

namespace muh {

namespace {

// Memoised matcher: state (i, j) is "glob[i..] matches path[j..]".
class Wild {
 public:
  Wild(std::string_view glob, std::string_view path)
      : g_(glob), p_(path), memo_((glob.size() + 1) * (path.size() + 1), 0) {}

  bool Match(std::size_t i, std::size_t j) {
    uint8_t& m = memo_[i * (p_.size() + 1) + j];
    if (m == 0) m = Compute(i, j) ? 2 : 1;
    return m == 2;
  }

 private:
  bool Compute(std::size_t i, std::size_t j) {
    if (i == g_.size()) return j == p_.size();
    const bool at_segment_start = i == 0 || g_[i - 1] == '/';
    if (at_segment_start && g_.compare(i, 2, "**") == 0) {
      if (i + 2 == g_.size()) return true;  // trailing `**`: everything below
      if (g_[i + 2] == '/') {               // `**/`: zero or more whole segments
        if (Match(i + 3, j)) return true;
        for (std::size_t k = j; k < p_.size(); ++k) {
          if (p_[k] == '/' && Match(i + 3, k + 1)) return true;
        }
        return false;
      }
    }
    const char c = g_[i];
    if (c == '*') {
      return Match(i + 1, j) || (j < p_.size() && p_[j] != '/' && Match(i, j + 1));
    }
    if (j == p_.size()) return false;
    if (c == '?') return p_[j] != '/' && Match(i + 1, j + 1);
    if (c == '[') {
      std::size_t next = 0;
      bool hit = false;
      if (Class(i, p_[j], &next, &hit)) return hit && p_[j] != '/' && Match(next, j + 1);
      return p_[j] == '[' && Match(i + 1, j + 1);  // no closing ']': a literal
    }
    if (c == '\\' && i + 1 < g_.size()) return p_[j] == g_[i + 1] && Match(i + 2, j + 1);
    return p_[j] == c && Match(i + 1, j + 1);
  }

  // Parses the class opening at g_[i]; false when it never closes.
  bool Class(std::size_t i, char ch, std::size_t* next, bool* hit) const {
    std::size_t k = i + 1;
    bool negate = k < g_.size() && (g_[k] == '!' || g_[k] == '^');
    if (negate) ++k;
    bool found = false;
    bool first = true;
    while (k < g_.size() && (first || g_[k] != ']')) {
      first = false;
      char lo = g_[k];
      if (lo == '\\' && k + 1 < g_.size()) lo = g_[++k];
      char hi = lo;
      if (k + 2 < g_.size() && g_[k + 1] == '-' && g_[k + 2] != ']') {
        hi = g_[k + 2];
        if (hi == '\\' && k + 3 < g_.size()) hi = g_[++k + 2];
        k += 2;
      }
      if (lo <= ch && ch <= hi) found = true;
      ++k;
    }
    if (k >= g_.size()) return false;
    *next = k + 1;
    *hit = found != negate;
    return true;
  }

  std::string_view g_;
  std::string_view p_;
  std::vector<uint8_t> memo_;  // 0: unknown, 1: no, 2: yes
};

int Depth(const std::string& dir) {
  return dir.empty() ? 0 : 1 + static_cast<int>(std::count(dir.begin(), dir.end(), '/'));
}

}  // namespace

bool WildMatch(std::string_view glob, std::string_view path) {
  return Wild(glob, path).Match(0, 0);
}

void GitIgnore::AddFile(const std::string& dir, std::string_view text) {
  std::vector<Pattern> added;
  std::size_t at = 0;
  while (at <= text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string line(text.substr(at, end - at));
    at = end + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    // Trailing spaces go unless escaped with a backslash.
    while (!line.empty() && line.back() == ' ' &&
           !(line.size() >= 2 && line[line.size() - 2] == '\\')) {
      line.pop_back();
    }
    Pattern p;
    p.dir = dir;
    if (line[0] == '!') {
      p.negated = true;
      line.erase(0, 1);
    }
    while (!line.empty() && line.back() == '/') {
      p.dir_only = true;
      line.pop_back();
    }
    if (line.empty()) continue;
    const bool anchored = line.find('/') != std::string::npos;
    if (line[0] == '/') line.erase(0, 1);
    if (line.empty()) continue;
    p.glob = anchored ? line : "**/" + line;
    added.push_back(std::move(p));
  }
  // Shallow files first, so that a deeper file's patterns are looked at first.
  const int depth = Depth(dir);
  auto pos = std::find_if(patterns_.begin(), patterns_.end(),
                          [&](const Pattern& p) { return Depth(p.dir) > depth; });
  patterns_.insert(pos, added.begin(), added.end());
}

bool GitIgnore::Ignores(const std::string& path, bool is_dir) const {
  for (auto it = patterns_.rbegin(); it != patterns_.rend(); ++it) {
    const Pattern& p = *it;
    if (p.dir_only && !is_dir) continue;
    std::string_view rel = path;
    if (!p.dir.empty()) {
      if (path.size() <= p.dir.size() || path.compare(0, p.dir.size(), p.dir) != 0 ||
          path[p.dir.size()] != '/') {
        continue;
      }
      rel.remove_prefix(p.dir.size() + 1);
    }
    if (WildMatch(p.glob, rel)) return !p.negated;
  }
  return false;
}

std::optional<std::string> GitIgnore::IgnoredPart(const std::string& path) const {
  if (patterns_.empty()) return std::nullopt;
  for (std::size_t slash = path.find('/'); slash != std::string::npos;
       slash = path.find('/', slash + 1)) {
    std::string dir = path.substr(0, slash);
    if (Ignores(dir, true)) return dir;
  }
  if (Ignores(path, false)) return path;
  return std::nullopt;
}

}  // namespace muh
