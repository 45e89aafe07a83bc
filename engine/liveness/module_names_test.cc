#include "engine/liveness/module_names.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("module names follow the file layout") {
  CHECK(ModuleOfPath("pkg/a/b.py") == std::optional<std::string>("pkg.a.b"));
  CHECK(ModuleOfPath("pkg/a/__init__.py") == std::optional<std::string>("pkg.a"));
  CHECK(ModuleOfPath("top.py") == std::optional<std::string>("top"));
  CHECK_FALSE(ModuleOfPath("pkg/a-b.py").has_value());
  CHECK_FALSE(ModuleOfPath("pkg/notes.txt").has_value());
  CHECK(IsPackageInit("pkg/__init__.py"));
  CHECK_FALSE(IsPackageInit("pkg/my__init__.py"));
  CHECK(ParentPackages("a.b.c") == std::vector<std::string>{"a", "a.b"});
}

TEST_CASE("relative imports resolve from the importer's package") {
  CHECK(ResolveRelative("pkg.sub.mod", false, 1, "other") ==
        std::optional<std::string>("pkg.sub.other"));
  CHECK(ResolveRelative("pkg.sub.mod", false, 2, "x.y") == std::optional<std::string>("pkg.x.y"));
  CHECK(ResolveRelative("pkg.sub", true, 1, "mod") == std::optional<std::string>("pkg.sub.mod"));
  CHECK(ResolveRelative("pkg.sub", true, 1, "") == std::optional<std::string>("pkg.sub"));
  CHECK(ResolveRelative("pkg.mod", false, 1, "") == std::optional<std::string>("pkg"));
  CHECK_FALSE(ResolveRelative("pkg.mod", false, 3, "x").has_value());
  CHECK(ResolveRelative("pkg.mod", false, 0, "abs.mod") == std::optional<std::string>("abs.mod"));
}

TEST_CASE("the module map finds paths, modules and prefixes") {
  ModuleMap map({"p/__init__.py", "p/a.py", "p/b/__init__.py", "p/b/c.py", "README.md"});
  REQUIRE(map.PathOf("p.b") != nullptr);
  CHECK(*map.PathOf("p.b") == "p/b/__init__.py");
  CHECK(*map.ModuleOf("p/b/c.py") == "p.b.c");
  CHECK(map.PathOf("p.z") == nullptr);
  CHECK(map.WithPrefix("p.b.") == std::vector<std::string>{"p.b.c"});
}

TEST_CASE("a package shadows the module of its name, as CPython's path finder imports it") {
  // Sorted, `x.py` comes before `x/__init__.py`; the package wins all the same.
  ModuleMap map({"v/t/importing.py", "v/t/importing/__init__.py", "v/a.py", "v/a.py"});
  REQUIRE(map.PathOf("v.t.importing") != nullptr);
  CHECK(*map.PathOf("v.t.importing") == "v/t/importing/__init__.py");
  CHECK(map.PositionOf("v.t.importing") == 1);
  ModuleMap reversed({"v/t/importing/__init__.py", "v/t/importing.py"});
  CHECK(*reversed.PathOf("v.t.importing") == "v/t/importing/__init__.py");
}

TEST_CASE("the module map answers for every top-level package, and nothing else") {
  // `q` has no __init__.py, `p_x` sorts between `p`'s modules' names.
  ModuleMap map({"p/__init__.py", "p/z.py", "p_x.py", "q/r.py", "top.py", "a.py", "a/__init__.py"});
  for (const char* m : {"p", "p.z", "p_x", "q.r", "top", "a"}) CHECK(map.PathOf(m) != nullptr);
  CHECK(*map.PathOf("a") == "a/__init__.py");  // the package, as CPython imports it
  CHECK(*map.ModuleOf("a/__init__.py") == "a");
  CHECK(map.PositionOf("a") == 6);
  CHECK(map.PositionOf("p.z") == 1);
  CHECK(map.PositionOf("torch") == -1);
  for (const char* m : {"q", "torch", "torch.nn", "p.y", "top.x", "", ".p", "p."}) {
    CHECK(map.PathOf(m) == nullptr);
  }
}

}  // namespace muh
