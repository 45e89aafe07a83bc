#include "engine/python/syntax_tree.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("valid Python parses without problems") {
  PythonParser parser;
  std::string src = "x = 1\nif x:\n    y = (x +\n         2)\n";
  SyntaxTree tree = parser.Parse(src);
  CHECK_FALSE(tree.HasError());
  CHECK_FALSE(tree.FirstProblem().has_value());
  CHECK(std::string(ts_node_type(tree.Root())) == "module");
}

TEST_CASE("the first problem is located") {
  PythonParser parser;
  std::string src = "x = 1\ny = (2\nz = 3\n";
  SyntaxTree tree = parser.Parse(src);
  REQUIRE(tree.HasError());
  auto problem = tree.FirstProblem();
  REQUIRE(problem.has_value());
  CHECK(problem->offset >= 6);
}

}  // namespace muh

namespace muh {

namespace {
std::string Sexp(const SyntaxTree& t) {
  char* s = ts_node_string(t.Root());
  std::string out(s);
  free(s);  // NOLINT: libtree-sitter allocates with malloc
  return out;
}

// The bytes of `src` with `edits` (ascending) applied.
std::string Edited(const std::string& src, const std::vector<ByteEdit>& edits) {
  std::string out;
  std::size_t at = 0;
  for (const ByteEdit& e : edits) {
    out.append(src, at, e.offset - at);
    out.append(e.text);
    at = e.offset + e.length;
  }
  out.append(src, at, std::string::npos);
  return out;
}
}  // namespace

TEST_CASE("an incremental reparse gives the tree a full parse gives") {
  PythonParser parser;
  std::string old_src = "A = 1\nif x:\n    B = 64\nelse:\n    B = 128\nC = [1,\n     2]\n";
  SyntaxTree old_tree = parser.Parse(old_src);
  // Offsets into old_src: "1" at 4, "64" at 20, "128" at 37, "C" at 41, "2" at 54.
  REQUIRE(old_src.substr(37, 3) == "128");
  REQUIRE(old_src.substr(54, 1) == "2");
  const std::vector<std::vector<ByteEdit>> cases = {
      {{4, 1, "4096"}},
      {{20, 2, "32"}, {37, 3, "32 if y else 16"}},
      {{4, 1, "(\n  2)"}, {54, 1, "2, 3,\n     4"}},
      {{20, 2, "(1"}},  // breaks the syntax
      {{0, 0, "# head\n"}, {41, 0, "D = 0\n"}},
  };
  for (const auto& edits : cases) {
    const std::string new_src = Edited(old_src, edits);
    CAPTURE(new_src);
    SyntaxTree full = parser.Parse(new_src);
    SyntaxTree inc = parser.Reparse(old_tree, new_src, edits);
    CHECK(Sexp(inc) == Sexp(full));
    CHECK(inc.HasError() == full.HasError());
  }
}

TEST_CASE("CR-only line ends parse as LF, and the tree keeps the real bytes") {
  CHECK_FALSE(LoneCrAsLf("a = 1\r\nb = 2\n"));
  CHECK(LoneCrAsLf("a = 1\rb = 2\r\nc\r") == std::optional<std::string>("a = 1\nb = 2\r\nc\n"));
  const std::string src = "def f():\r    return 1\rKNOB = 512\r";
  PythonParser parser;
  SyntaxTree tree = parser.Parse(src);
  CHECK_FALSE(tree.HasError());
  CHECK(tree.bytes().data() == src.data());
  CHECK(ts_node_named_child_count(tree.Root()) == 2);
  // An incremental reparse after an edit on a CR-only line, and a partial parse.
  const std::string edited = "def f():\r    return 1\rKNOB = 1024\r";
  SyntaxTree again = parser.Reparse(tree, edited, {ByteEdit{29, 3, "1024"}});
  CHECK_FALSE(again.HasError());
  uint32_t at = static_cast<uint32_t>(src.find("KNOB"));
  TSRange r{TSPoint{2, 0}, TSPoint{3, 0}, at, static_cast<uint32_t>(src.size())};
  CHECK_FALSE(parser.ParseRanges(src, {r}).HasError());
}

}  // namespace muh

namespace muh {

TEST_CASE("a top-level statement's index is the whole tree's index over its span") {
  PythonParser parser;
  std::string src = "import os\n# a comment\ndef f(a):\n    return a + 1\n\nx = [f(2), 3]\n";
  SyntaxTree tree = parser.Parse(src);
  const std::vector<SyntaxTree::Span>& spans = tree.StatementSpans();
  REQUIRE(spans.size() == 4);
  CHECK(src.substr(spans[0].first, spans[0].second - spans[0].first) == "import os");
  CHECK(src.substr(spans[1].first, spans[1].second - spans[1].first) == "# a comment");
  CHECK(src.substr(spans[3].first, spans[3].second - spans[3].first) == "x = [f(2), 3]");
  const SyntaxTree::Index& whole = tree.NodeIndex();
  std::size_t from = 1;  // nodes[0] is the module
  for (std::size_t k = 0; k < spans.size(); ++k) {
    CAPTURE(k);
    const SyntaxTree::Index& part = tree.StatementIndex(k);
    REQUIRE(from + part.nodes.size() <= whole.nodes.size());
    for (std::size_t i = 0; i < part.nodes.size(); ++i) {
      CHECK(ts_node_eq(part.nodes[i], whole.nodes[from + i]));
    }
    for (std::size_t sym = 0; sym < part.by_symbol.size(); ++sym) {
      for (uint32_t at : part.by_symbol[sym]) CHECK(ts_node_symbol(part.nodes[at]) == sym);
    }
    from += part.nodes.size();
    CHECK(&tree.StatementIndex(k) == &part);  // built once
  }
  CHECK(from == whole.nodes.size());
}

TEST_CASE("an empty module has no statements") {
  PythonParser parser;
  std::string src;
  SyntaxTree tree = parser.Parse(src);
  CHECK(tree.StatementSpans().empty());
}

}  // namespace muh

namespace muh {

namespace {
TSRange Range(uint32_t begin, uint32_t end) {
  TSRange r{};
  r.start_byte = begin;
  r.end_byte = end;
  return r;
}
}  // namespace

TEST_CASE("ranges move with the edits inside them, and points follow the new bytes") {
  // Three statements; the first and the last are the parsed ranges.
  const std::string src = "A = 1\nB = 2\nC = [1,\r\n     2]\n";
  std::vector<TSRange> ranges = {Range(0, 6), Range(12, 29)};
  SetPoints(src, &ranges);
  CHECK(ranges[1].start_point.row == 2);
  CHECK(ranges[1].end_point.row == 4);
  const std::vector<ByteEdit> edits = {{4, 1, "(\n 10)"}, {17, 1, "8, 9"}};
  const std::string now = Edited(src, edits);
  std::vector<TSRange> moved = MovedRanges(ranges, now, edits);
  REQUIRE(moved.size() == 2);
  CHECK(now.substr(moved[0].start_byte, moved[0].end_byte - moved[0].start_byte) ==
        "A = (\n 10)\n");
  CHECK(now.substr(moved[1].start_byte, moved[1].end_byte - moved[1].start_byte) ==
        "C = [8, 9,\r\n     2]\n");
  CHECK(moved[1].start_point.row == 3);
  CHECK(moved[1].start_point.column == 0);
  CHECK(moved[1].end_point.row == 5);
  // An edit outside every range (in B), or across a range's end: none.
  CHECK(MovedRanges(ranges, now, {{10, 1, "3"}}).empty());
  CHECK(MovedRanges(ranges, now, {{4, 4, "9"}}).empty());
}

TEST_CASE("a partial tree reparses to the tree of its moved ranges") {
  PythonParser parser;
  const std::string src = "A = 1\ndef f(:\n    pass\nC = [1,\n     2]\n";
  std::vector<TSRange> ranges = {Range(0, 6), Range(23, 39)};
  SetPoints(src, &ranges);
  SyntaxTree part = parser.ParseRanges(src, ranges);
  REQUIRE(part.Partial());
  REQUIRE(src.substr(23, 16) == "C = [1,\n     2]\n");
  CHECK_FALSE(part.HasError());  // the broken `def` lies outside both ranges
  const std::vector<std::vector<ByteEdit>> cases = {
      {{4, 1, "4096"}},
      {{4, 1, "(\n  2)"}, {36, 1, "2, 3,\n     4"}},
      {{28, 0, "(1"}},  // breaks the syntax inside a range
  };
  for (const auto& edits : cases) {
    const std::string now = Edited(src, edits);
    CAPTURE(now);
    SyntaxTree inc = parser.Reparse(part, now, edits);
    SyntaxTree fresh = parser.ParseRanges(now, MovedRanges(part.ranges(), now, edits));
    CHECK(inc.Partial());
    CHECK(Sexp(inc) == Sexp(fresh));
    CHECK(inc.HasError() == fresh.HasError());
    CHECK(inc.HasError() == (edits.front().text == "(1"));
  }
  // An edit outside the ranges: the whole file, and its syntax error.
  const std::vector<ByteEdit> outside = {{10, 1, "g"}};
  SyntaxTree whole = parser.Reparse(part, Edited(src, outside), outside);
  CHECK_FALSE(whole.Partial());
  CHECK(whole.HasError());
}

}  // namespace muh
