#include "engine/rules/yaml_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>

#include "engine/base/edit_distance.h"

namespace muh {

std::string PythonLiteral(const std::string& yaml_scalar) {
  if (yaml_scalar == "true" || yaml_scalar == "True") return "True";
  if (yaml_scalar == "false" || yaml_scalar == "False") return "False";
  bool numeric = !yaml_scalar.empty();
  for (std::size_t i = 0; i < yaml_scalar.size(); ++i) {
    char c = yaml_scalar[i];
    bool sign = i == 0 && c == '-';
    if (!sign && !std::isdigit(static_cast<unsigned char>(c)) && c != '.') numeric = false;
  }
  return numeric ? yaml_scalar : "\"" + yaml_scalar + "\"";
}

void YamlReader::Error(const YAML::Mark& m, const std::string& msg) {
  errors_->push_back(MakeError(path_, m.line + 1, m.column + 1, msg));
}

void YamlReader::NoDuplicateKeys(const YAML::Node& node) {
  // Iteratively: a deep document must not exhaust the stack (YAML aliases
  // are shared nodes, each walked once per reference: the parser bounds
  // nesting, and the loader its size).
  std::vector<YAML::Node> todo{node};
  std::size_t walked = 0;
  while (!todo.empty() && ++walked < 1000000) {
    YAML::Node n = todo.back();
    todo.pop_back();
    if (n.IsMap()) {
      std::map<std::string, int> seen;  // key -> its first line
      for (const auto& kv : n) {
        if (kv.first.IsScalar()) {
          std::string k = kv.first.Scalar();
          auto [it, fresh] = seen.emplace(k, kv.first.Mark().line + 1);
          if (!fresh) {
            Error(kv.first.Mark(),
                  fmt::format("duplicate key '{}' (first at line {})", k, it->second));
          }
        }
        todo.push_back(kv.second);
      }
    } else if (n.IsSequence()) {
      for (const auto& item : n) todo.push_back(item);
    }
  }
}

bool YamlReader::Scalar(const YAML::Node& key, const YAML::Node& value, RawScalar* out) {
  out->present = true;
  out->mark = value.Mark();
  out->key_mark = key.Mark();
  if (!value.IsScalar()) {
    Error(value.Mark(), fmt::format("'{}' must be a scalar", key.as<std::string>()));
    return false;
  }
  out->value = value.as<std::string>();
  return true;
}

void YamlReader::ScalarList(const YAML::Node& key, const YAML::Node& value,
                            std::vector<RawScalar>* out) {
  if (value.IsSequence()) {
    if (value.size() == 0) Error(value.Mark(), fmt::format("'{}' is empty", key.as<std::string>()));
    for (const YAML::Node& item : value) {
      RawScalar s;
      if (Scalar(key, item, &s)) out->push_back(s);
    }
    return;
  }
  RawScalar s;
  if (Scalar(key, value, &s)) out->push_back(s);
}

std::vector<std::string> YamlReader::CheckKeys(const YAML::Node& map,
                                               const std::vector<std::string>& allowed,
                                               const char* where) {
  std::vector<std::string> meant;
  for (const auto& kv : map) {
    std::string k = kv.first.as<std::string>();
    if (std::find(allowed.begin(), allowed.end(), k) == allowed.end()) {
      meant.push_back(ClosestMatch(k, allowed));
      Error(kv.first.Mark(),
            fmt::format("unknown key '{}' in {}{}", k, where, DidYouMean(k, allowed)));
    }
  }
  return meant;
}

RuleLoc YamlReader::OffsetLoc(const YAML::Mark& mark, std::size_t offset) const {
  std::size_t pos = static_cast<std::size_t>(mark.pos);
  char indicator = pos < text_.size() ? text_[pos] : ' ';
  if (indicator == '|' || indicator == '>') {
    // Block scalar: line k of the value is line k of the block, each at the
    // block's indent. The indent is explicit (`|2`: the parent's indent plus
    // 2) or that of the first non-blank line.
    std::size_t header_end = text_.find('\n', pos);
    if (header_end == std::string::npos) return {mark.line + 1, mark.column + 1};
    std::size_t explicit_indent = 0;
    for (std::size_t i = pos + 1; i < header_end && text_[i] != ' ' && text_[i] != '#'; ++i) {
      if (text_[i] >= '1' && text_[i] <= '9')
        explicit_indent = static_cast<std::size_t>(text_[i] - '0');
    }
    std::size_t line_start = header_end + 1;
    std::size_t indent = 0;
    if (explicit_indent != 0) {
      // The parent's indent: the key's column on the header line, past any
      // `- ` sequence entries.
      std::size_t begin = text_.rfind('\n', pos);
      begin = begin == std::string::npos ? 0 : begin + 1;
      std::size_t k = begin;
      while (k < pos &&
             (text_[k] == ' ' || ((text_[k] == '-') && k + 1 < pos && text_[k + 1] == ' ')))
        ++k;
      indent = (k - begin) + explicit_indent;
    } else {
      for (std::size_t at = line_start; at < text_.size();) {
        std::size_t n = 0;
        while (at + n < text_.size() && text_[at + n] == ' ') ++n;
        if (at + n < text_.size() && text_[at + n] != '\n') {
          indent = n;
          break;
        }
        std::size_t nl = text_.find('\n', at);
        if (nl == std::string::npos) break;
        at = nl + 1;
      }
    }
    int line = mark.line + 2;
    std::size_t col = 0;
    std::size_t walked = 0;
    std::size_t i = line_start + std::min(indent, LeadingSpaces(line_start));
    for (; i < text_.size() && walked < offset; ++i) {
      if (text_[i] == '\n') {
        ++line;
        col = 0;
        ++walked;
        i += std::min(indent, LeadingSpaces(i + 1));  // the next line's block indent
        continue;
      }
      ++col;
      ++walked;
    }
    return {line, static_cast<int>(indent + col + 1)};
  }
  if (indicator == '"' || indicator == '\'') {
    // Flow-quoted on one line: walk the source, decoding escapes (`\x`,
    // `\xHH`, `\uHHHH`, `\UHHHHHHHH` in double quotes, `''` in single ones),
    // until `offset` bytes of the value are behind.
    std::size_t i = pos + 1;
    std::size_t walked = 0;
    while (i < text_.size() && text_[i] != '\n' && walked < offset) {
      char c = text_[i];
      if (indicator == '"' && c == '\\' && i + 1 < text_.size()) {
        char e = text_[i + 1];
        std::size_t hex = e == 'x' ? 2 : e == 'u' ? 4 : e == 'U' ? 8 : 0;
        unsigned long cp = hex ? std::strtoul(text_.substr(i + 2, hex).c_str(), nullptr, 16) : 0;
        walked += hex == 0 ? 1 : cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
        i += 2 + hex;
      } else if (indicator == '\'' && c == '\'' && i + 1 < text_.size() && text_[i + 1] == '\'') {
        ++walked;
        i += 2;
      } else {
        ++walked;
        ++i;
      }
    }
    return {mark.line + 1, static_cast<int>(i - (pos - static_cast<std::size_t>(mark.column))) + 1};
  }
  return {mark.line + 1, mark.column + 1 + static_cast<int>(offset)};
}

std::size_t YamlReader::LeadingSpaces(std::size_t at) const {
  std::size_t n = 0;
  while (at + n < text_.size() && text_[at + n] == ' ') ++n;
  return n;
}

}  // namespace muh
