#include "engine/query/tree_sitter_query.h"

#include <doctest/doctest.h>

#include <thread>
#include <vector>

#include "engine/query/query.h"

namespace muh {

TEST_CASE("TreeSitterQuery compiles once, on first use, from any thread") {
  TreeSitterQuery q(tree_sitter_python(), "(assignment left: (identifier) @n right: (_) @v)");
  CHECK(q.source() == "(assignment left: (identifier) @n right: (_) @v)");
  std::vector<const TSQuery*> got(8, nullptr);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < got.size(); ++i) {
    threads.emplace_back([&, i] { got[i] = q.Get(); });
  }
  for (std::thread& t : threads) t.join();
  REQUIRE(got[0] != nullptr);
  for (const TSQuery* g : got) CHECK(g == got[0]);
  CHECK(q.Get() == got[0]);
  CHECK(q.error().message.empty());
  CHECK(CaptureNames(got[0]) == std::vector<std::string>{"n", "v"});
}

TEST_CASE("TreeSitterQuery reports libtree-sitter's error with its offset") {
  TreeSitterQuery unknown(tree_sitter_python(), "(assignmnt) @a");
  CHECK(unknown.Get() == nullptr);
  CHECK(unknown.error().offset == 1);
  CHECK(unknown.error().message == "query unknown node type 'assignmnt'");
  TreeSitterQuery impossible(tree_sitter_python(), "(module \"else\")");
  CHECK(impossible.Get() == nullptr);
  CHECK(impossible.error().message == "query impossible pattern structure");
}

TEST_CASE("a query on our matcher has libtree-sitter's verdict only when asked") {
  QueryError err;
  auto ours = Query::Compile("(module \"else\" @e)", &err);
  REQUIRE_MESSAGE(ours, err.message);
  CHECK_FALSE(ours->UsesTreeSitterMatcher());
  std::optional<QueryError> problem = ours->StructureProblem();
  REQUIRE(problem);
  CHECK(problem->message == "query impossible pattern structure");
  auto theirs = Query::Compile("(block (expression_statement)* @s)", &err);
  REQUIRE_MESSAGE(theirs, err.message);
  CHECK(theirs->UsesTreeSitterMatcher());
  CHECK_FALSE(theirs->StructureProblem());
}

}  // namespace muh
