// Owning handles for the tree-sitter C API. Every `ts_*_new` result lives in
// one of these so that it is deleted exactly once. Declare members in
// creation order (parser -> tree -> query -> cursor) so they die in reverse.
#pragma once

#include <tree_sitter/api.h>

#include <memory>

extern "C" const TSLanguage* tree_sitter_python(void);

namespace muh {

struct TsParserDeleter {
  void operator()(TSParser* p) const { ts_parser_delete(p); }
};
struct TsTreeDeleter {
  void operator()(TSTree* t) const { ts_tree_delete(t); }
};
struct TsQueryDeleter {
  void operator()(TSQuery* q) const { ts_query_delete(q); }
};
struct TsQueryCursorDeleter {
  void operator()(TSQueryCursor* c) const { ts_query_cursor_delete(c); }
};

using TsParserPtr = std::unique_ptr<TSParser, TsParserDeleter>;
using TsTreePtr = std::unique_ptr<TSTree, TsTreeDeleter>;
using TsQueryPtr = std::unique_ptr<TSQuery, TsQueryDeleter>;
using TsQueryCursorPtr = std::unique_ptr<TSQueryCursor, TsQueryCursorDeleter>;

}  // namespace muh
