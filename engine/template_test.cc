#include "engine/template.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("templates expand values and captures") {
  Template t;
  std::string err;
  std::size_t off = 0;
  REQUIRE(Template::Parse("{{@keep}} if {{ @cond }} else {{warps}}", &t, &err, &off));
  CHECK(t.References(TemplatePart::Kind::kValue).size() == 1);
  CHECK(t.References(TemplatePart::Kind::kCapture).size() == 2);
  TableValues values;
  values.Set("warps", Value{"4", false, {}, ""});
  QueryMatch m;
  m.captures.push_back(Capture{"keep", 0, 1, "8", "integer"});
  m.captures.push_back(Capture{"cond", 0, 1, "cap(80)", "call"});
  CHECK(t.Expand(m, values) == "8 if cap(80) else 4");
}

TEST_CASE("template errors carry an offset") {
  Template t;
  std::string err;
  std::size_t off = 0;
  CHECK_FALSE(Template::Parse("x {{ y", &t, &err, &off));
  CHECK(err == "unterminated '{{' in template");
  CHECK(off == 2);
  CHECK_FALSE(Template::Parse("ab{{a b}}", &t, &err, &off));
  CHECK(err == "expected a value name or @capture inside '{{ }}', got 'a b'");
  CHECK(off == 2);
}

}  // namespace muh
