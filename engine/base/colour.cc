#include "engine/base/colour.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <string>

namespace muh {

namespace {

constexpr std::string_view kReset = "\x1b[m";
constexpr std::string_view kBold = "\x1b[1m";
constexpr std::string_view kRed = "\x1b[31m";
constexpr std::string_view kGreen = "\x1b[32m";
constexpr std::string_view kCyan = "\x1b[36m";
constexpr std::string_view kBoldRed = "\x1b[1;31m";
constexpr std::string_view kBoldMagenta = "\x1b[1;35m";
constexpr std::string_view kBoldCyan = "\x1b[1;36m";

bool colour_stdout = false;
bool colour_stderr = false;

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// The colour of one diff line (without its line break), or "" for none.
std::string_view DiffLineColour(std::string_view line, bool in_header) {
  if (StartsWith(line, "diff --git ")) return kBold;
  if (in_header &&
      (StartsWith(line, "--- ") || StartsWith(line, "+++ ") || StartsWith(line, "index ") ||
       StartsWith(line, "new file") || StartsWith(line, "deleted file"))) {
    return kBold;
  }
  if (StartsWith(line, "@@ ")) return kCyan;
  if (in_header) return "";
  if (StartsWith(line, "-")) return kRed;
  if (StartsWith(line, "+")) return kGreen;
  return "";
}

}  // namespace

bool ParseColourMode(std::string_view word, ColourMode* out) {
  if (word == "auto") {
    *out = ColourMode::kAuto;
  } else if (word == "always") {
    *out = ColourMode::kAlways;
  } else if (word == "never") {
    *out = ColourMode::kNever;
  } else {
    return false;
  }
  return true;
}

bool WantColour(ColourMode mode, bool is_terminal, const char* no_color, const char* term) {
  if (mode != ColourMode::kAuto) return mode == ColourMode::kAlways;
  if (no_color != nullptr && no_color[0] != '\0') return false;
  if (term != nullptr && std::string_view(term) == "dumb") return false;
  return is_terminal;
}

void SetColourMode(ColourMode mode) {
  const char* no_color = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  colour_stdout = WantColour(mode, ::isatty(1) == 1, no_color, term);
  colour_stderr = WantColour(mode, ::isatty(2) == 1, no_color, term);
}

bool ColourStdout() { return colour_stdout; }
bool ColourStderr() { return colour_stderr; }

std::string ColourUnifiedDiff(std::string_view diff) {
  std::string out;
  out.reserve(diff.size() + diff.size() / 8);
  bool in_header = false;  // between `diff --git` and the first `@@`
  while (!diff.empty()) {
    std::size_t nl = diff.find('\n');
    std::size_t end = nl == std::string_view::npos ? diff.size() : nl;
    std::string_view line = diff.substr(0, end);
    std::string_view brk = diff.substr(end, nl == std::string_view::npos ? 0 : 1);
    if (!line.empty() && line.back() == '\r') {
      line.remove_suffix(1);
      brk = diff.substr(end - 1, brk.size() + 1);
    }
    if (StartsWith(line, "diff --git ")) in_header = true;
    std::string_view colour = DiffLineColour(line, in_header);
    if (StartsWith(line, "@@ ")) in_header = false;
    if (colour.empty() || line.empty()) {
      out += line;
    } else {
      out += colour;
      out += line;
      out += kReset;
    }
    out += brk;
    diff.remove_prefix(std::min(diff.size(), end + (nl == std::string_view::npos ? 0 : 1)));
  }
  return out;
}

std::string ColourDiagnosticLine(std::string_view line) {
  struct Word {
    std::string_view text;
    std::string_view colour;
  };
  static constexpr Word kWords[] = {
      {": error: ", kBoldRed}, {": warning: ", kBoldMagenta}, {": note: ", kBoldCyan}};
  std::size_t best = std::string_view::npos;
  const Word* word = nullptr;
  for (const Word& w : kWords) {
    std::size_t at = line.find(w.text);
    if (at < best) {
      best = at;
      word = &w;
    }
  }
  if (word == nullptr || best == 0) return std::string(line);
  std::string_view severity = word->text.substr(2, word->text.size() - 4);
  std::string out;
  out += kBold;
  out += line.substr(0, best + 1);  // the location and its ':'
  out += kReset;
  out += ' ';
  out += word->colour;
  out += severity;
  out += ':';
  out += kReset;
  out += line.substr(best + word->text.size() - 1);  // the space and the message
  return out;
}

}  // namespace muh
