#include "engine/liveness/py_imports.h"

#include <cctype>

#include "engine/base/text.h"

namespace muh {

namespace {

// Whether std::isspace holds in the "C" locale (the one muhpatch runs in),
// without a call per byte.
bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

// Tokens of an import line: words, dots, and single punctuation.
std::vector<std::string_view> Tokens(std::string_view code) {
  std::vector<std::string_view> out;
  out.reserve(16);  // most import lines: one allocation, not five regrowths
  std::size_t i = 0;
  while (i < code.size()) {
    char c = code[i];
    if (c == '#') {
      while (i < code.size() && code[i] != '\n') ++i;
      continue;
    }
    if (IsSpace(c) || c == '\\') {
      ++i;
      continue;
    }
    if (IsWordChar(c)) {
      std::size_t b = i;
      while (i < code.size() && IsWordChar(code[i])) ++i;
      out.push_back(code.substr(b, i - b));
      continue;
    }
    out.push_back(code.substr(i, 1));
    ++i;
  }
  return out;
}

bool IsWord(std::string_view t) { return !t.empty() && IsWordChar(t[0]); }

// A dotted name starting at tokens[*i]; empty when there is none.
std::string DottedName(const std::vector<std::string_view>& t, std::size_t* i) {
  std::string out;
  while (*i < t.size() && IsWord(t[*i]) && t[*i] != "as" && t[*i] != "import") {
    out += t[*i];
    ++*i;
    if (*i < t.size() && t[*i] == ".") {
      out += '.';
      ++*i;
    } else {
      break;
    }
  }
  return out;
}

// `name [as alias]` items separated by commas, up to the end.
bool ImportedNames(const std::vector<std::string_view>& t, std::size_t i, bool dotted,
                   std::vector<ImportedName>* out) {
  bool paren = i < t.size() && t[i] == "(";
  if (paren) ++i;
  while (i < t.size()) {
    if (t[i] == ")" && paren) return i + 1 == t.size() && !out->empty();
    ImportedName n;
    if (t[i] == "*") {
      n.name = "*";
      ++i;
    } else if (dotted) {
      n.name = DottedName(t, &i);
    } else if (IsWord(t[i])) {
      n.name = std::string(t[i++]);
    }
    if (n.name.empty() || n.name.back() == '.') return false;
    if (i < t.size() && t[i] == "as") {
      if (i + 1 >= t.size() || !IsWord(t[i + 1])) return false;
      n.alias = std::string(t[i + 1]);
      i += 2;
    }
    out->push_back(std::move(n));
    if (i < t.size() && t[i] == ",")
      ++i;
    else if (i < t.size() && !(paren && t[i] == ")"))
      return false;
  }
  return !paren && !out->empty();
}

}  // namespace

std::optional<ImportStatement> ParseImport(std::string_view code) {
  std::vector<std::string_view> t = Tokens(code);
  if (t.empty()) return std::nullopt;
  ImportStatement s;
  if (t[0] == "import") {
    if (!ImportedNames(t, 1, true, &s.names)) return std::nullopt;
    return s;
  }
  if (t[0] != "from") return std::nullopt;
  s.is_from = true;
  std::size_t i = 1;
  while (i < t.size() && t[i] == ".") ++s.level, ++i;
  s.from_module = DottedName(t, &i);
  if (s.level == 0 && s.from_module.empty()) return std::nullopt;
  if (i >= t.size() || t[i] != "import") return std::nullopt;
  if (!ImportedNames(t, i + 1, false, &s.names)) return std::nullopt;
  return s;
}

std::optional<std::string> StringLiteralValue(std::string_view text, bool prefix) {
  std::size_t i = 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  bool f = false;
  if (i < text.size() && (text[i] == 'f' || text[i] == 'F')) {
    if (!prefix) return std::nullopt;
    f = true;
    ++i;
  }
  if (i >= text.size() || (text[i] != '"' && text[i] != '\'')) return std::nullopt;
  char q = text[i];
  std::size_t b = i + 1;
  std::size_t e = b;
  while (e < text.size() && text[e] != q && text[e] != '\\' && text[e] != '\n' &&
         !(f && text[e] == '{')) {
    ++e;
  }
  if (e >= text.size() || text[e] == '\\' || text[e] == '\n') return std::nullopt;
  std::string value(text.substr(b, e - b));
  if (f && text[e] == '{') return value;
  // Closed: the whole text must be the literal, or (with `prefix`) be
  // followed by `+` or `.format(`.
  std::string_view rest = text.substr(e + 1);
  while (!rest.empty() && std::isspace(static_cast<unsigned char>(rest.front()))) {
    rest.remove_prefix(1);
  }
  if (rest.empty()) return value;
  if (prefix && (rest.front() == '+' || rest.substr(0, 8) == ".format(" || f)) {
    std::size_t brace = value.find('{');
    return brace == std::string::npos ? value : value.substr(0, brace);
  }
  return std::nullopt;
}

DynamicImportArgument ClassifyImportArgument(std::string_view arg) {
  // Only the first argument: up to a comma outside brackets and strings.
  int depth = 0;
  char quote = 0;
  std::size_t end = arg.size();
  for (std::size_t i = 0; i < arg.size(); ++i) {
    char c = arg[i];
    if (quote) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (c == ',' && depth == 0) {
      end = i;
      break;
    }
  }
  std::string_view first = arg.substr(0, end);
  std::string package;
  if (end < arg.size()) {
    std::string_view rest = arg.substr(end + 1);
    // The second argument, or a `package=` keyword anywhere after the first.
    std::size_t kw = rest.find("package");
    std::string_view second = rest;
    if (kw != std::string_view::npos) {
      std::size_t eq = rest.find('=', kw);
      if (eq != std::string_view::npos) second = rest.substr(eq + 1);
    }
    std::size_t comma = second.find(',');
    if (comma != std::string_view::npos) second = second.substr(0, comma);
    while (!second.empty() && std::isspace(static_cast<unsigned char>(second.back()))) {
      second.remove_suffix(1);
    }
    while (!second.empty() && std::isspace(static_cast<unsigned char>(second.front()))) {
      second.remove_prefix(1);
    }
    if (auto v = StringLiteralValue(second)) {
      package = *v;
    } else if (second == "__name__" || second == "__package__") {
      package = std::string(second);
    } else if (!second.empty() && second != "None") {
      package = "?";
    }
  }
  while (!first.empty() && std::isspace(static_cast<unsigned char>(first.back()))) {
    first.remove_suffix(1);
  }
  while (!first.empty() && std::isspace(static_cast<unsigned char>(first.front()))) {
    first.remove_prefix(1);
  }
  DynamicImportArgument out;
  out.package = package;
  if (auto v = StringLiteralValue(first)) {
    out.kind = DynamicImportArgument::Kind::kLiteral;
    out.value = *v;
    return out;
  }
  if (auto p = StringLiteralValue(first, true)) {
    out.kind =
        p->empty() ? DynamicImportArgument::Kind::kOpaque : DynamicImportArgument::Kind::kPrefix;
    out.value = *p;
    return out;
  }
  bool dotted = !first.empty() && !std::isdigit(static_cast<unsigned char>(first[0]));
  for (char c : first) dotted = dotted && (IsWordChar(c) || c == '.');
  if (dotted) {
    std::size_t dot = first.rfind('.');
    out.kind = DynamicImportArgument::Kind::kName;
    out.value = std::string(dot == std::string_view::npos ? first : first.substr(dot + 1));
  }
  return out;
}

}  // namespace muh
