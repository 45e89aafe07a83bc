#include "engine/model/json_rows.h"

namespace muh {

namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::size_t SkipSpace(std::string_view t, std::size_t i) {
  while (i < t.size() && IsSpace(t[i])) ++i;
  return i;
}

// `i` at a string's opening quote; returns the offset past its closing one.
std::size_t SkipString(std::string_view t, std::size_t i) {
  for (++i; i < t.size(); ++i) {
    if (t[i] == '\\') {
      ++i;
    } else if (t[i] == '"') {
      return i + 1;
    }
  }
  return t.size();
}

// `i` at a value's first byte; returns the offset past its last one.
std::size_t SkipValue(std::string_view t, std::size_t i) {
  if (i >= t.size()) return i;
  if (t[i] == '"') return SkipString(t, i);
  if (t[i] != '[' && t[i] != '{') {
    while (i < t.size() && t[i] != ',' && t[i] != ']' && t[i] != '}' && !IsSpace(t[i])) ++i;
    return i;
  }
  int depth = 0;
  while (i < t.size()) {
    char c = t[i];
    if (c == '"') {
      i = SkipString(t, i);
      continue;
    }
    if (c == '[' || c == '{') ++depth;
    if (c == ']' || c == '}') --depth;
    ++i;
    if (depth == 0) return i;
  }
  return i;
}

}  // namespace

std::vector<std::size_t> ArrayElementOffsets(std::string_view text, std::string_view key) {
  std::vector<std::size_t> out;
  std::size_t i = SkipSpace(text, 0);
  if (i >= text.size() || text[i] != '{') return out;
  i = SkipSpace(text, i + 1);
  while (i < text.size() && text[i] == '"') {
    std::size_t end = SkipString(text, i);
    std::string_view name = text.substr(i + 1, end - i - 2);
    i = SkipSpace(text, end);
    if (i >= text.size() || text[i] != ':') return out;
    i = SkipSpace(text, i + 1);
    if (name == key && i < text.size() && text[i] == '[') {
      i = SkipSpace(text, i + 1);
      while (i < text.size() && text[i] != ']') {
        out.push_back(i);
        i = SkipSpace(text, SkipValue(text, i));
        if (i < text.size() && text[i] == ',') i = SkipSpace(text, i + 1);
      }
      return out;
    }
    i = SkipSpace(text, SkipValue(text, i));
    if (i < text.size() && text[i] == ',') i = SkipSpace(text, i + 1);
  }
  return out;
}

}  // namespace muh
