// libtree-sitter's compile of one query text, made once, on first use.
//
// Why lazy: ts_query_new analyses the query against the grammar's whole
// parse table, 2 to 11 ms a query over Python (about 100 ms of CPU for
// rules/bi100.yaml). A query our own matcher handles (query_ast.h) needs
// libtree-sitter's compile only for a tree it hands off (hand_off.h) or to
// explain a rule that matched nothing (Query::StructureProblem), so most
// queries never pay for it. This is the only lazily built state of a Query;
// everything else is built by Query::Compile.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/base/run_once.h"
#include "engine/python/ts_handles.h"
#include "engine/query/query_error.h"

namespace muh {

class TreeSitterQuery {
 public:
  TreeSitterQuery(const TSLanguage* language, std::string_view source);
  TreeSitterQuery(const TreeSitterQuery&) = delete;
  TreeSitterQuery& operator=(const TreeSitterQuery&) = delete;

  // The compiled query, or nullptr when libtree-sitter refuses the text
  // (error() says why). Compiles on the first call; safe to call from
  // several threads at once.
  const TSQuery* Get() const;

  // Why Get() is nullptr: libtree-sitter's offset, and "query " and its kind
  // of error ("query unknown node type 'x'"). Compiles like Get().
  const QueryError& error() const;

  const std::string& source() const { return source_; }

 private:
  void CompileOnce() const;

  const TSLanguage* language_;
  std::string source_;
  mutable RunOnce once_;      // not std::call_once: see run_once.h
  mutable TsQueryPtr query_;  // both set once, under once_
  mutable QueryError error_;
};

// The capture names of `query`, by capture id.
std::vector<std::string> CaptureNames(const TSQuery* query);

}  // namespace muh
