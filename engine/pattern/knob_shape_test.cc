#include "engine/pattern/knob_shape.h"

#include <doctest/doctest.h>

#include "engine/python/syntax_tree.h"

namespace muh {

namespace {

struct Read {
  std::string knob;
  std::string shape;
};

Read Of(const std::string& pattern, const std::string& target) {
  Substituted sub;
  std::size_t offset = 0;
  std::string error;
  REQUIRE(SubstituteMetavariables(pattern, &sub, &offset, &error));
  PythonParser parser;
  SyntaxTree tree = parser.Parse(sub.text);
  // As the compiler roots a pattern: an expression statement's expression.
  TSNode root = ts_node_named_child(ts_node_named_child(tree.Root(), 0), 0);
  return {KnobOf(sub, root, target), ShapeOf(sub, root, target)};
}

}  // namespace

TEST_CASE("the knob is the variable the target is assigned to, and the shape shows it as N") {
  Read r = Of("use_v1 = max_seq_len <= $limit and $_", "limit");
  CHECK(r.knob == "use_v1");
  CHECK(r.shape == "max_seq_len <= N and ...");
}

TEST_CASE("a pattern that assigns to no plain name names no knob") {
  Read r = Of("config['BLOCK_SIZE_M'] = $m", "m");
  CHECK(r.knob == "");
  CHECK(r.shape == "N");
}

}  // namespace muh
