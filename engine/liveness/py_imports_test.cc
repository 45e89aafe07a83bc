#include "engine/liveness/py_imports.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("import lines are read without a parse") {
  auto a = ParseImport("import a.b as c, d");
  REQUIRE(a.has_value());
  CHECK_FALSE(a->is_from);
  REQUIRE(a->names.size() == 2);
  CHECK(a->names[0].name == "a.b");
  CHECK(a->names[0].alias == "c");
  CHECK(a->names[1].name == "d");
  auto b = ParseImport("from ..pkg.mod import (x as y,  # why\n    z,)");
  REQUIRE(b.has_value());
  CHECK(b->level == 2);
  CHECK(b->from_module == "pkg.mod");
  REQUIRE(b->names.size() == 2);
  CHECK(b->names[0].alias == "y");
  CHECK(b->names[1].name == "z");
  auto c = ParseImport("from . import sibling");
  REQUIRE(c.has_value());
  CHECK(c->level == 1);
  CHECK(c->from_module.empty());
  CHECK(ParseImport("from m import *")->names[0].name == "*");
  CHECK_FALSE(ParseImport("import").has_value());
  CHECK_FALSE(ParseImport("from m imports x").has_value());
  CHECK_FALSE(ParseImport("x = 1").has_value());
}

TEST_CASE("dynamic import arguments are classified") {
  using Kind = DynamicImportArgument::Kind;
  CHECK(ClassifyImportArgument("'pkg.mod'").kind == Kind::kLiteral);
  CHECK(ClassifyImportArgument("\"pkg.mod\", package=None").value == "pkg.mod");
  auto f = ClassifyImportArgument("f\"pkg.models.{name}\"");
  CHECK(f.kind == Kind::kPrefix);
  CHECK(f.value == "pkg.models.");
  CHECK(ClassifyImportArgument("'pkg.' + name").value == "pkg.");
  auto n = ClassifyImportArgument("self.worker_module");
  CHECK(n.kind == Kind::kName);
  CHECK(n.value == "worker_module");
  CHECK(ClassifyImportArgument("os.environ['X']").kind == Kind::kOpaque);
  CHECK(ClassifyImportArgument("f'{x}.y'").kind == Kind::kOpaque);
}

}  // namespace muh
