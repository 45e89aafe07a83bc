// Generated patterns: what a pattern's text holds inside a string literal
// or a comment, and what its metavariables are named, change nothing but
// the literal itself and the captures' names. (When patterns compiled to
// query text, parentheses, quotes and names like `identifier` were one
// more language that could get them wrong.)
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/pattern/code_pattern.h"
#include "engine/pattern/pattern_matcher.h"

namespace muh {

namespace {

// "NAME=text ..." per match of `pattern` in `code`, matches joined by " | ".
std::string Matches(const std::string& pattern, const std::string& code) {
  CompiledPattern c;
  CodePatternError e;
  REQUIRE_MESSAGE(CompileCodePattern({pattern, "", {}}, &c, &e), (pattern + ": " + e.message));
  PythonParser parser;
  SyntaxTree tree = parser.Parse(code);
  std::vector<PatternTreeMatch> found;
  std::size_t budget = 0;
  REQUIRE(MatchPatternTrees(c.trees, tree, &found, &budget));
  std::string out;
  for (const PatternTreeMatch& m : found) {
    if (!out.empty()) out += " | ";
    std::string one;
    for (const PatternBinding& b : m.captures) {
      const std::string& name = c.trees[m.tree].captures[b.capture];
      if (name[0] == '_') continue;
      uint32_t at = ts_node_start_byte(b.node);
      one += (one.empty() ? "" : " ") + name + "=" +
             std::string(tree.bytes().substr(at, ts_node_end_byte(b.node) - at));
    }
    out += one.empty() ? "-" : one;
  }
  return out;
}

// Texts that query text would have read as syntax.
const std::vector<std::string> kTricky = {"(",
                                          ")",
                                          "()",
                                          "(_)",
                                          "((identifier) @x)",
                                          "\"",
                                          "'",
                                          "@value",
                                          "(#eq? @_p0 \"x\")",
                                          "[a b]",
                                          ". (",
                                          "; comment",
                                          "_p0",
                                          "#match? \")"};

// Names of node kinds and of the query language's parts.
const std::vector<std::string> kNames = {"identifier", "string", "string_content", "integer",
                                         "block",      "module", "ERROR",          "MISSING",
                                         "eq",         "match",  "value",          "p0"};

}  // namespace

TEST_CASE("parentheses and quotes in a string literal match that literal, nothing else") {
  for (const std::string& t : kTricky) {
    // Python strings holding `t`, quoted either way.
    std::string single, dbl;
    for (char ch : t) {
      single += ch == '\'' ? std::string("\\'") : std::string(1, ch);
      dbl += ch == '"' ? std::string("\\\"") : std::string(1, ch);
    }
    std::string code = "x = f('" + single + "', 1)\nx = f('plain', 2)\nx = f(\"" + dbl + "\", 3)\n";
    bool same = single == dbl;  // the quotes aside, the literal reads alike
    INFO(t);
    CHECK(Matches("x = f('" + single + "', $V)", code) == (same ? "V=1 | V=3" : "V=1"));
    CHECK(Matches("x = f(\"" + dbl + "\", $V)", code) == (same ? "V=1 | V=3" : "V=3"));
    CHECK(Matches("x = f('plain', $V)", code) == "V=2");
  }
}

TEST_CASE("parentheses and quotes in a comment change nothing") {
  std::string code = "y = g(1)\ny = g(2, 3)\nz = g(4)\n";
  std::string plain = Matches("y = g($V)", code);
  CHECK(plain == "V=1");
  for (const std::string& t : kTricky) {
    INFO(t);
    CHECK(Matches("y = g($V)  # " + t, code) == plain);
    CHECK(Matches("# " + t + "\ny = g($V)", code) == plain);
  }
}

TEST_CASE("a metavariable named like a node kind is a metavariable") {
  std::string code = "w = h(1, 'a')\nw = h(x, 'b')\nw = h(2)\n";
  for (const std::string& n : kNames) {
    INFO(n);
    CHECK(Matches("w = h($" + n + ", $S)", code) == n + "=1 S='a' | " + n + "=x S='b'");
    CHECK(Matches("w = h($" + n + ", '$S')", code) == n + "=1 S=a | " + n + "=x S=b");
    CHECK(Matches("$" + n + " = h($" + n + ")", "w = h(w)\nw = h(v)\n") == n + "=w");
  }
}

}  // namespace muh
