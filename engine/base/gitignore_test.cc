#include "engine/base/gitignore.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("WildMatch: stars stay in a segment, ** spans segments") {
  CHECK(WildMatch("*.py", "a.py"));
  CHECK_FALSE(WildMatch("*.py", "d/a.py"));
  CHECK(WildMatch("**/a.py", "a.py"));
  CHECK(WildMatch("**/a.py", "x/y/a.py"));
  CHECK(WildMatch("a/**/b", "a/b"));
  CHECK(WildMatch("a/**/b", "a/x/y/b"));
  CHECK_FALSE(WildMatch("a/**/b", "ab"));
  CHECK(WildMatch("a/**", "a/x/y"));
  CHECK_FALSE(WildMatch("a/**", "a"));
  CHECK(WildMatch("?.py", "x.py"));
  CHECK_FALSE(WildMatch("?x", "/x"));
  CHECK(WildMatch("[a-c]x", "bx"));
  CHECK_FALSE(WildMatch("[!a-c]x", "bx"));
  CHECK(WildMatch("[^a-c]x", "dx"));
  CHECK(WildMatch("[]]", "]"));
  CHECK(WildMatch("[x", "[x"));  // never closes: a literal '['
  CHECK(WildMatch("\\*", "*"));
  CHECK_FALSE(WildMatch("\\*", "a"));
  // Many stars: memoised, so no exponential backtracking.
  CHECK_FALSE(WildMatch("*a*a*a*a*a*a*a*a*a*a*b", std::string(200, 'a')));
}

TEST_CASE("GitIgnore reads patterns as git does") {
  GitIgnore g;
  g.AddFile("",
            "# comment\n"
            "\n"
            "build/\n"
            "/top.py\n"
            "*.gen.py\n"
            "!keep.gen.py\n"
            "docs/*.py\n"
            "trailing.py   \n"
            "space\\ \n"
            "\\!bang.py\r\n");
  CHECK(g.Ignores("build", true));
  CHECK_FALSE(g.Ignores("build", false));  // dir/ names directories only
  CHECK(g.Ignores("a/build", true));       // unanchored: at any depth
  CHECK(g.Ignores("top.py", false));
  CHECK_FALSE(g.Ignores("a/top.py", false));  // anchored by the leading '/'
  CHECK(g.Ignores("x/y.gen.py", false));
  CHECK_FALSE(g.Ignores("x/keep.gen.py", false));  // negated
  CHECK(g.Ignores("docs/a.py", false));
  CHECK_FALSE(g.Ignores("x/docs/a.py", false));  // a middle '/' anchors too
  CHECK_FALSE(g.Ignores("docs/x/a.py", false));
  CHECK(g.Ignores("trailing.py", false));
  CHECK(g.Ignores("space ", false));
  CHECK(g.Ignores("!bang.py", false));

  CHECK(g.IgnoredPart("build/lib/vllm/x.py") == std::optional<std::string>("build"));
  CHECK(g.IgnoredPart("a/build/x.py") == std::optional<std::string>("a/build"));
  CHECK(g.IgnoredPart("vllm/x.gen.py") == std::optional<std::string>("vllm/x.gen.py"));
  CHECK_FALSE(g.IgnoredPart("vllm/x.py"));
}

TEST_CASE("GitIgnore: deeper files override, ignored directories stay ignored") {
  GitIgnore g;
  g.AddFile("vllm", "!special.gen.py\nlocal.py\n");
  g.AddFile("", "*.gen.py\nout/\n!out/keep.py\n");
  CHECK(g.Ignores("a.gen.py", false));
  CHECK_FALSE(g.Ignores("vllm/special.gen.py", false));
  CHECK(g.Ignores("vllm/local.py", false));
  CHECK_FALSE(g.Ignores("local.py", false));  // vllm/'s patterns stay in vllm/
  // A file in an ignored directory cannot be re-included.
  CHECK(g.IgnoredPart("out/keep.py") == std::optional<std::string>("out"));
  GitIgnore none;
  CHECK_FALSE(none.IgnoredPart("a.py"));
}

}  // namespace muh
