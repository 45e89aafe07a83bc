#include "engine/base/diagnostic.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("diagnostic formats as file:line:col: severity: message") {
  CHECK(MakeError("rules.yaml", 3, 7, "unknown key 'qurey'").Format() ==
        "rules.yaml:3:7: error: unknown key 'qurey'");
  CHECK(MakeNote("a.py", 12, 0, "skipped").Format() == "a.py:12: note: skipped");
  CHECK(MakeError("tree", 0, 0, "missing").Format() == "tree: error: missing");
}

TEST_CASE("HasErrors ignores notes") {
  CHECK_FALSE(HasErrors({MakeNote("a", 1, 1, "n")}));
  CHECK(HasErrors({MakeNote("a", 1, 1, "n"), MakeError("b", 1, 1, "e")}));
}

TEST_CASE("a diagnostic is one line: control bytes in its file or message are escaped") {
  // A helper probe of 3cee5a3: a newline in a file name printed a line of
  // its own, a GitHub workflow command; an ESC in a rule file, a
  // terminal sequence.
  CHECK(MakeError("vllm/c\n::warning file=R::x\n.py", 1, 5, "m").Format() ==
        "vllm/c\\n::warning file=R::x\\n.py:1:5: error: m");
  CHECK(MakeNote("a.py", 2, 0, "holds '\x1b]0;pwn\x07' and\r\ttab").Format() ==
        "a.py:2: note: holds '\\x1b]0;pwn\\x07' and\\r\ttab");
  CHECK(EscapeControls("plain \xc3\xa9") == "plain \xc3\xa9");  // UTF-8 stays
}

}  // namespace muh
