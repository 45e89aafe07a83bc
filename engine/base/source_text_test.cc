#include "engine/base/source_text.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("positions are 1-based lines and byte columns") {
  SourceText s("a.py", "ab\ncd\r\nef");
  CHECK(s.LineCount() == 3);
  CHECK(s.PositionOf(0).line == 1);
  CHECK(s.PositionOf(4).line == 2);
  CHECK(s.PositionOf(4).column == 2);
  CHECK(s.PositionOf(8).line == 3);
  CHECK(s.PositionOf(8).column == 2);
  CHECK(s.PositionOf(100).column == 3);
  CHECK(s.LineText(1) == "cd");
  CHECK(s.LineText(2) == "ef");
}

TEST_CASE("a lone CR ends a line for positions, not for the LF line index") {
  // Python's lines: "ab", "cd", "", "ef" (LF), "gh", and the empty last one.
  SourceText s("a.py", "ab\rcd\r\ref\ngh\r");
  CHECK(s.PositionOf(0).line == 1);
  CHECK(s.PositionOf(3).line == 2);
  CHECK(s.PositionOf(4).line == 2);
  CHECK(s.PositionOf(4).column == 2);
  CHECK(s.PositionOf(6).line == 3);
  CHECK(s.PositionOf(7).line == 4);
  CHECK(s.PositionOf(8).column == 2);
  CHECK(s.PositionOf(10).line == 5);
  CHECK(s.PositionOf(11).column == 2);
  CHECK(s.PositionOf(14).line == 6);  // clamped to the end, after the final CR
  CHECK(s.PositionOf(14).column == 1);
  // git's lines, which the unified diff counts: two.
  CHECK(s.LineCount() == 2);
  CHECK(s.LineIndexOf(10) == 1);
}

TEST_CASE("bytes are kept exactly") {
  std::string raw = "\xEF\xBB\xBFx = 1\r\ny = 2";
  SourceText s("b.py", raw);
  CHECK(s.bytes() == raw);
  CHECK(s.HasBom());
  CHECK(s.Eol() == "\r\n");
  CHECK(SourceText("c.py", "x\n").Eol() == "\n");
  CHECK(SourceText("d.py", "").LineCount() == 1);
}

TEST_CASE("invalid UTF-8 is located") {
  CHECK_FALSE(FindInvalidUtf8("plain \xC3\xA9 \xE4\xB8\xAD \xF0\x9F\x98\x80").has_value());
  CHECK(FindInvalidUtf8("ab\xFF"
                        "cd") == 2u);
  CHECK(FindInvalidUtf8("ab\xC3") == 2u);
  CHECK(FindInvalidUtf8("\xC0\x80") == 0u);
  CHECK(FindInvalidUtf8("x\xED\xA0\x80") == 1u);
}

}  // namespace muh

namespace muh {

TEST_CASE("invalid UTF-8 is escaped for text formats, valid text is kept") {
  CHECK(EscapeInvalidUtf8("plain") == "plain");
  CHECK(EscapeInvalidUtf8("caf\xC3\xA9") == "caf\xC3\xA9");
  CHECK(EscapeInvalidUtf8("a\xFF"
                          "b\xC3") == "a\\xFFb\\xC3");
}

}  // namespace muh
