#include "engine/query/tree_sitter_query.h"

#include <fmt/format.h>

#include <cctype>
#include <cstdint>

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
