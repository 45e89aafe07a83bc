#include "engine/patch/git_path.h"

namespace muh {

namespace {

bool NeedsQuotes(unsigned char c) { return c == '"' || c == '\\' || c < 0x20 || c == 0x7f; }

}  // namespace

std::string QuoteGitPath(std::string_view path) {
  bool plain = true;
  for (char c : path) plain = plain && !NeedsQuotes(static_cast<unsigned char>(c));
  if (plain) return std::string(path);
  std::string out = "\"";
  for (char ch : path) {
    unsigned char c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\a':
        out += "\\a";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\v':
        out += "\\v";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (NeedsQuotes(c)) {
          out += '\\';
          out += static_cast<char>('0' + ((c >> 6) & 7));
          out += static_cast<char>('0' + ((c >> 3) & 7));
          out += static_cast<char>('0' + (c & 7));
        } else {
          out += ch;
        }
    }
  }
  return out + "\"";
}

std::optional<std::string> UnquoteGitPath(std::string_view text, std::size_t* used) {
  if (text.empty() || text[0] != '"') return std::nullopt;
  std::string out;
  for (std::size_t i = 1; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"') {
      *used = i + 1;
      return out;
    }
    if (c != '\\') {
      out += c;
      continue;
    }
    if (++i >= text.size()) return std::nullopt;
    char e = text[i];
    switch (e) {
      case '"':
        out += '"';
        break;
      case '\\':
        out += '\\';
        break;
      case 'a':
        out += '\a';
        break;
      case 'b':
        out += '\b';
        break;
      case 't':
        out += '\t';
        break;
      case 'n':
        out += '\n';
        break;
      case 'v':
        out += '\v';
        break;
      case 'f':
        out += '\f';
        break;
      case 'r':
        out += '\r';
        break;
      default: {
        if (e < '0' || e > '3' || i + 2 >= text.size()) return std::nullopt;
        int v = 0;
        for (int k = 0; k < 3; ++k) {
          char d = text[i + static_cast<std::size_t>(k)];
          if (d < '0' || d > '7') return std::nullopt;
          v = v * 8 + (d - '0');
        }
        out += static_cast<char>(v);
        i += 2;
      }
    }
  }
  return std::nullopt;
}

}  // namespace muh
