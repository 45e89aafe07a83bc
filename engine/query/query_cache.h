// Compiles a rule file's queries once each. Compiling is a fixed cost of
// every run (libtree-sitter 0.20's ts_query_new takes a few milliseconds a
// query over the Python grammar, our matcher's parse microseconds), and
// rules often share query texts (one precondition guards several rules).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/query/query.h"

namespace muh {

class QueryCache {
 public:
  // Compiles every distinct text of `texts`: those our matcher takes on
  // this thread, those needing libtree-sitter's compiler on one worker per
  // core (at most `threads` when non-zero). Results do not depend on the
  // worker count.
  void CompileAll(const std::vector<std::string>& texts, unsigned threads = 0);

  // The query compiled from `text` (compiled now if CompileAll missed it),
  // or nullptr with `error` set.
  std::shared_ptr<const Query> Get(const std::string& text, QueryError* error);

 private:
  struct Entry {
    std::shared_ptr<const Query> query;
    QueryError error;
  };
  std::map<std::string, Entry> entries_;
};

}  // namespace muh
