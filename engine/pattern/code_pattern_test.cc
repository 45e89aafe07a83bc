#include "engine/pattern/code_pattern.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/rules/pattern_query.h"

namespace muh {

namespace {

CompiledPattern Compile(CodePattern p) {
  CompiledPattern out;
  CodePatternError err;
  REQUIRE_MESSAGE(CompileCodePattern(p, &out, &err), err.message);
  return out;
}

std::string ErrorOf(CodePattern p) {
  CompiledPattern out;
  CodePatternError err;
  REQUIRE_FALSE(CompileCodePattern(p, &out, &err));
  const char* part = err.part == CodePatternError::Part::kPattern  ? "pattern"
                     : err.part == CodePatternError::Part::kInside ? "inside"
                                                                   : "where";
  return std::string(part) + "@" + std::to_string(err.offset) + ": " + err.message;
}

// "NAME=text" for each named capture of each match, matches joined by " | ".
std::string MatchesOf(CodePattern p, const std::string& code) {
  PatternQuery q(Compile(p).trees);
  PythonParser parser;
  SyntaxTree tree = parser.Parse(code);
  std::string s;
  for (const QueryMatch& m : q.Run(tree)) {
    if (!s.empty()) s += " | ";
    std::string one;
    for (const Capture& c : m.captures) {
      if (c.name[0] == '_') continue;
      one += (one.empty() ? "" : " ") + c.name + "=" + c.text;
    }
    s += one;
  }
  return s;
}

}  // namespace

TEST_CASE("a pattern compiles to nodes with its literals pinned") {
  CompiledPattern c = Compile({"numel <= $B", "", {}});
  REQUIRE(c.trees.size() == 1);
  const PatternTree& t = c.trees[0];
  CHECK(t.root.type == "comparison_operator");
  CHECK(t.root.ordered);
  REQUIRE(t.root.children.size() == 3);
  CHECK(t.root.children[0].kind == PatternNode::Kind::kNode);
  CHECK(t.root.children[0].capture == "_p0");
  CHECK(t.root.children[1].kind == PatternNode::Kind::kToken);
  CHECK(t.root.children[1].type == "<=");
  CHECK(t.root.children[2].kind == PatternNode::Kind::kMetavariable);
  CHECK(t.captures == std::vector<std::string>{"_p0", "B"});
  REQUIRE(t.constraints.size() == 1);
  CHECK(t.constraints[0].texts == std::vector<std::string>{"numel"});
  CHECK(c.metavariables == std::vector<std::string>{"B"});
}

TEST_CASE("metavariables: one node, a run, the same text twice") {
  CHECK(MatchesOf({"f($A, $$$REST)", "", {}}, "f(1)\nf(2, 3, 4)\ng(5)\nf()\n") == "A=1 | A=2");
  CHECK(MatchesOf({"f($A)", "", {}}, "f(1)\nf(2, 3)\n") == "A=1");
  CHECK(MatchesOf({"f($$$, $LAST)", "", {}}, "f(1)\nf(2, 3)\n") == "LAST=1 | LAST=3");
  CHECK(MatchesOf({"$X = $X + 1", "", {}}, "a = a + 1\nb = c + 1\n") == "X=a");
  CHECK(MatchesOf({"$_ = 4", "", {}}, "a = 4\nb = 5\n") == "");
}

TEST_CASE("quotes, comments and the spacing of the code do not matter") {
  CHECK(MatchesOf({"d = {\"K\": $V}  # the dict", "", {}},
                  "d = {'J': 1, 'K': 2}\nd = {'K':3}\nd = {'L': 4}\n") == "V=2 | V=3");
}

TEST_CASE("inside: the pattern anywhere in the body of a function") {
  CodePattern p{"BLOCK = $V", "def kernel($$$):\n    $$$", {}};
  std::string code =
      "BLOCK = 1\n"
      "def kernel(x):\n"
      "    BLOCK = 2\n"
      "    if x:\n"
      "        BLOCK = 3\n"
      "    else:\n"
      "        for i in x:\n"
      "            BLOCK = 4\n"
      "def other():\n"
      "    BLOCK = 5\n";
  CHECK(MatchesOf(p, code) == "V=2 | V=3 | V=4");
}

TEST_CASE("inside: the pattern anywhere below the `$$$` of an expression") {
  CodePattern p{"max_seq_len <= $value", "use_v1 = $$$", {}};
  CHECK(MatchesOf(p,
                  "use_v1 = max_seq_len <= 1\n"
                  "use_v1 = (n == 1 or s > 2) and max_seq_len <= 3\n"
                  "use_v1: bool = (max_seq_len <= 4)\n"
                  "other = max_seq_len <= 5\n") == "value=1 | value=3 | value=4");
}

TEST_CASE("the knob a pattern names, and the code it sits in") {
  auto knob = [](CodePattern p, const std::string& target) {
    CompiledPattern out;
    CodePatternError err;
    REQUIRE_MESSAGE(CompileCodePattern(p, &out, &err, target), err.message);
    return out.knob + ": " + out.shape;
  };
  CHECK(knob({"max_seq_len <= $value", "use_v1 = $$$", {}}, "value") == "use_v1: max_seq_len <= N");
  CHECK(knob({"BLOCK = $_ if f(80) else $value", "def g($$$):\n    $$$", {}}, "value") ==
        "BLOCK: ... if f(80) else N");
  CHECK(knob({"if f(80):\n    $$$\nelse:\n    BLOCK = $value", "", {}}, "value") ==
        "BLOCK: if f(80):\n    ...\nelse:\n    BLOCK = N");
  CHECK(knob({"num_seqs * num_heads > $value", "", {}}, "value") == ": num_seqs * num_heads > N");
}

TEST_CASE("where: a literal, a regex, a number range, a list") {
  std::string code = "x = 16\nx = 64\nx = 65\ny = 64\nz = 'a'\n";
  CodePattern p{"$N = $V", "", {}};
  p.where = {{"N", WhereConstraint::Kind::kEquals, {"x"}}};
  CHECK(MatchesOf(p, code) == "N=x V=16 | N=x V=64 | N=x V=65");
  p.where.push_back({"V", WhereConstraint::Kind::kRange, {}, 20, 64});
  CHECK(MatchesOf(p, code) == "N=x V=64");
  p.where = {{"N", WhereConstraint::Kind::kRegex, {"^[xz]$"}}};
  CHECK(MatchesOf(p, code) == "N=x V=16 | N=x V=64 | N=x V=65 | N=z V='a'");
  p.where = {{"V", WhereConstraint::Kind::kAnyOf, {"16", "65"}}};
  CHECK(MatchesOf(p, code) == "N=x V=16 | N=x V=65");
}

TEST_CASE("a metavariable in a string stands for its content") {
  CHECK(MatchesOf({"config[$K] = 1", "", {}}, "config['A'] = 1\n") == "K='A'");
  CHECK(MatchesOf({"config['$K'] = 1", "", {}}, "config['A'] = 1\n") == "K=A");
}

TEST_CASE("errors point into the pattern") {
  CHECK(ErrorOf({"if $C\n    y = 1", "", {}}) ==
        "pattern@5: syntax error in the pattern (is it Python?)");
  CHECK(ErrorOf({"f(x y)", "", {}}) == "pattern@4: syntax error in the pattern (is it Python?)");
  CHECK(ErrorOf({"BLOCK = $_ if $C else", "", {}}) ==
        "pattern@21: syntax error in the pattern (is it Python?)");
  CHECK(ErrorOf({"x = $", "", {}}) ==
        "pattern@4: '$' starts no metavariable: write $NAME for one node, $$$ for a run of them");
  CHECK(ErrorOf({"x = $_Y", "", {}}) ==
        "pattern@4: a metavariable's name starts with a letter ('$_' alone is a node left "
        "uncaptured)");
  CHECK(ErrorOf({"x = 1\ny = 2", "", {}}) ==
        "pattern@6: a pattern is one statement or expression; a second one starts here "
        "(`inside:` gives the code around it)");
  CHECK(ErrorOf({"$X", "", {}}) ==
        "pattern@0: a pattern of only a metavariable matches every node; say what it is");
  CHECK(ErrorOf({"f(a$X)", "", {}}) ==
        "pattern@3: a metavariable stands for a whole node; here it is part of `a$X`");
  CHECK(ErrorOf({"x = $$$", "", {}}) ==
        "pattern@4: '$$$' stands for a run of siblings (arguments, statements, entries), not for "
        "one node; write $NAME here");
  CHECK(ErrorOf({"x = 1", "f(1)", {}}) ==
        "inside@0: an `inside:` pattern needs a body (`def f($$$):\\n    $$$`) or a `$$$` "
        "(`use_v1 = $$$`) to look in");
  CHECK(ErrorOf({"x = 1", "def f(:\n    $$$", {}}).rfind("inside@", 0) == 0);
  CHECK(ErrorOf({"x = $V", "", {{"W", WhereConstraint::Kind::kEquals, {"1"}}}}) ==
        "where@0: 'where' names no metavariable of the pattern: 'W' (it has $V)");
}

}  // namespace muh
