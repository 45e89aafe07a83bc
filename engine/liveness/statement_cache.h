// The statement tables of one run's files (statement_table.h), shared by
// the liveness analyses of a run (verify's of the tree and of the tree with
// its patch) and the variants each compares with: each file's bytes are
// parsed at most once, however often an index drops and reads them again.
// A table is known by its path and a hash of its bytes: a file that an
// overlay replaces gets its own.
#pragma once

#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/python/statement_table.h"
#include "engine/python/syntax_tree.h"

namespace muh {

class StatementCache {
 public:
  // The table of `bytes`, the bytes of `path`, bound to `bytes`; nullopt
  // when their parse has an error.
  std::optional<StatementTable> Table(const std::string& path, std::string_view bytes);
  // How many files were parsed.
  std::size_t parsed() const { return parsed_; }

 private:
  struct Known {
    std::size_t hash = 0;
    std::size_t size = 0;
    std::optional<StatementTable> table;
  };
  std::mutex mu_;
  PythonParser parser_;
  std::unordered_map<std::string, std::vector<Known>> tables_;  // by path: its bytes, seldom two
  std::size_t parsed_ = 0;
};

}  // namespace muh
