// The statement tables of one run's files (statement_table.h), shared by
// the liveness analysis and the variants it compares with: each file is
// parsed at most once, however often an index drops and reads it again.
#pragma once

#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "engine/python/statement_table.h"
#include "engine/python/syntax_tree.h"

namespace muh {

class StatementCache {
 public:
  // The table of `path`, whose bytes are `bytes` (the same on every call
  // for one path), bound to `bytes`; nullopt when its parse has an error.
  std::optional<StatementTable> Table(const std::string& path, std::string_view bytes);
  // How many files were parsed.
  std::size_t parsed() const { return tables_.size(); }

 private:
  std::mutex mu_;
  PythonParser parser_;
  std::unordered_map<std::string, std::optional<StatementTable>> tables_;
};

}  // namespace muh
