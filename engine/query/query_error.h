// Why a query text does not compile: where and what.
#pragma once

#include <cstddef>
#include <string>

namespace muh {

struct QueryError {
  std::size_t offset = 0;  // byte offset into the query source
  std::string message;
};

}  // namespace muh
