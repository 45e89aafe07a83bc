#include "engine/query/tree_sitter_query.h"

#include <fmt/format.h>

#include <cctype>
#include <cstdint>
#include <optional>
#include <vector>

namespace muh {

namespace {

const char* ErrorKindName(TSQueryError e) {
  switch (e) {
    case TSQueryErrorSyntax:
      return "syntax error";
    case TSQueryErrorNodeType:
      return "unknown node type";
    case TSQueryErrorField:
      return "unknown field";
    case TSQueryErrorCapture:
      return "unknown capture";
    case TSQueryErrorStructure:
      return "impossible pattern structure";
    case TSQueryErrorLanguage:
      return "language mismatch";
    default:
      return "error";
  }
}

// The offset of the first `(` or `[` of `source` that is never closed
// (strings and `;` comments skipped), or nullopt.
std::optional<std::size_t> UnclosedBracket(std::string_view source) {
  std::vector<std::size_t> open;
  for (std::size_t i = 0; i < source.size(); ++i) {
    char c = source[i];
    if (c == '"') {
      for (++i; i < source.size() && source[i] != '"'; ++i) {
        if (source[i] == '\\') ++i;
      }
    } else if (c == ';') {
      while (i < source.size() && source[i] != '\n') ++i;
    } else if (c == '(' || c == '[') {
      open.push_back(i);
    } else if ((c == ')' || c == ']') && !open.empty()) {
      open.pop_back();
    }
  }
  if (open.empty()) return std::nullopt;
  return open.front();
}

}  // namespace

TreeSitterQuery::TreeSitterQuery(const TSLanguage* language, std::string_view source)
    : language_(language), source_(source) {}

const TSQuery* TreeSitterQuery::Get() const {
  once_([this] { CompileOnce(); });
  return query_.get();
}

const QueryError& TreeSitterQuery::error() const {
  Get();
  return error_;
}

void TreeSitterQuery::CompileOnce() const {
  uint32_t error_offset = 0;
  TSQueryError error_type = TSQueryErrorNone;
  query_.reset(ts_query_new(language_, source_.data(), static_cast<uint32_t>(source_.size()),
                            &error_offset, &error_type));
  if (query_) return;
  error_.offset = error_offset;
  error_.message = fmt::format("query {}", ErrorKindName(error_type));
  // The text ended inside a bracket: libtree-sitter reports its end (past
  // the query, a line below it in a rule file); the bracket left open is
  // where to look (a helper probe of e2916b3).
  std::size_t last = source_.find_last_not_of(" \t\r\n");
  if (error_type == TSQueryErrorSyntax && (last == std::string::npos || error_offset > last)) {
    if (std::optional<std::size_t> at = UnclosedBracket(source_)) {
      error_.offset = *at;
      error_.message += fmt::format(": this '{}' is never closed", source_[*at]);
      return;
    }
  }
  if (error_type == TSQueryErrorNodeType || error_type == TSQueryErrorField ||
      error_type == TSQueryErrorCapture) {
    std::size_t end = error_offset;
    while (end < source_.size() && (std::isalnum(static_cast<unsigned char>(source_[end])) ||
                                    source_[end] == '_' || source_[end] == '.')) {
      ++end;
    }
    error_.message += fmt::format(" '{}'", source_.substr(error_offset, end - error_offset));
  }
}

std::vector<std::string> CaptureNames(const TSQuery* query) {
  std::vector<std::string> names;
  uint32_t count = ts_query_capture_count(query);
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t len = 0;
    const char* name = ts_query_capture_name_for_id(query, i, &len);
    names.emplace_back(name, len);
  }
  return names;
}

}  // namespace muh
