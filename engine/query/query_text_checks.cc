#include "engine/query/query_text_checks.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "engine/base/edit_distance.h"

namespace muh {

std::size_t FindPredicate(std::string_view source, std::size_t from, const std::string& name,
                          int nth) {
  std::size_t at = from;
  for (;;) {
    at = source.find("#" + name, at);
    if (at == std::string_view::npos) return from;
    std::size_t end = at + 1 + name.size();
    bool whole = end >= source.size() || std::isspace(static_cast<unsigned char>(source[end])) ||
                 source[end] == ')';
    if (whole && nth-- == 0) return at;
    at = end;
  }
}

void SuggestCapture(std::string_view source, QueryError* error) {
  std::string head = "query unknown capture '";
  if (error->message.rfind(head, 0) != 0 || error->message.back() != '\'') return;
  std::string unknown = error->message.substr(head.size(), error->message.size() - head.size() - 1);
  std::vector<std::string> names;
  for (std::size_t i = 0; i < source.size(); ++i) {
    if (source[i] == '"') {  // a string: skip to its closing quote
      for (++i; i < source.size() && source[i] != '"'; ++i) i += source[i] == '\\';
    } else if (source[i] == ';') {  // a comment
      while (i < source.size() && source[i] != '\n') ++i;
    } else if (source[i] == '@') {
      std::size_t b = i + 1;
      while (i + 1 < source.size() &&
             (std::isalnum(static_cast<unsigned char>(source[i + 1])) ||
              std::string_view("_-.").find(source[i + 1]) != std::string_view::npos)) {
        ++i;
      }
      std::string name(source.substr(b, i + 1 - b));
      if (name != unknown && std::find(names.begin(), names.end(), name) == names.end()) {
        names.push_back(name);
      }
    }
  }
  std::string meant = ClosestMatch(unknown, names);
  if (!meant.empty()) error->message += " (did you mean '@" + meant + "'?)";
}

std::size_t StackedQuantifier(std::string_view s) {
  bool after_quantifier = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '"') {  // a string: skip to its closing quote
      for (++i; i < s.size() && s[i] != '"'; ++i) {
        if (s[i] == '\\') ++i;
      }
      after_quantifier = false;
    } else if (c == ';') {  // a comment: skip to the end of the line
      while (i < s.size() && s[i] != '\n') ++i;
    } else if (c == '@') {  // a capture keeps the state; names may hold `?` and `!`
      while (i + 1 < s.size() &&
             (std::isalnum(static_cast<unsigned char>(s[i + 1])) || s[i + 1] == '_' ||
              s[i + 1] == '.' || s[i + 1] == '-' || s[i + 1] == '?' || s[i + 1] == '!')) {
        ++i;
      }
    } else if (c == '?' || c == '*' || c == '+') {
      if (after_quantifier) return i;
      after_quantifier = true;
    } else if (c != ')' && !std::isspace(static_cast<unsigned char>(c))) {
      after_quantifier = false;
    }
  }
  return std::string_view::npos;
}

std::size_t TooDeep(std::string_view s, int limit) {
  int depth = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '"') {
      for (++i; i < s.size() && s[i] != '"'; ++i) {
        if (s[i] == '\\') ++i;
      }
    } else if (c == ';') {
      while (i < s.size() && s[i] != '\n') ++i;
    } else if (c == '(' || c == '[') {
      if (++depth > limit) return i;
    } else if (c == ')' || c == ']') {
      --depth;
    }
  }
  return std::string_view::npos;
}

std::size_t FieldOnPredicate(std::string_view s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '"') {
      for (++i; i < s.size() && s[i] != '"'; ++i) {
        if (s[i] == '\\') ++i;
      }
      continue;
    }
    if (c == ';') {
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    if (c != ':') continue;
    std::size_t j = i + 1;
    while (j < s.size()) {
      if (std::isspace(static_cast<unsigned char>(s[j])) || s[j] == '(') {
        ++j;
      } else if (s[j] == ';') {
        while (j < s.size() && s[j] != '\n') ++j;
      } else {
        break;
      }
    }
    if (j < s.size() && (s[j] == '#' || s[j] == '.')) return i;
    // libtree-sitter also reads a bare `eq?` or `set!` as a predicate.
    std::size_t k = j;
    // (libtree-sitter's names also hold '.' after their first character)
    while (k < s.size() && (std::isalnum(static_cast<unsigned char>(s[k])) || s[k] == '_' ||
                            s[k] == '-' || s[k] == '?' || s[k] == '!' || (k > j && s[k] == '.'))) {
      ++k;
    }
    if (k > j && (s[k - 1] == '?' || s[k - 1] == '!')) return i;
  }
  return std::string_view::npos;
}

}  // namespace muh
