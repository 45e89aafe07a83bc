#include "engine/rules/template.h"

#include <doctest/doctest.h>

#include "engine/model/model_values.h"

namespace muh {

TEST_CASE("templates expand values and captures") {
  Template t;
  std::string err;
  std::size_t off = 0;
  REQUIRE(Template::Parse("{{@keep}} if {{ @cond }} else {{warps}}", &t, &err, &off));
  CHECK(t.References(TemplatePart::Kind::kValue).size() == 1);
  CHECK(t.References(TemplatePart::Kind::kCapture).size() == 2);
  TableValues values;
  Value warps;
  warps.text = "4";
  values.Set("warps", warps);
  QueryMatch m;
  m.captures.push_back(Capture{"keep", 0, 1, "8", "integer"});
  m.captures.push_back(Capture{"cond", 0, 1, "cap(80)", "call"});
  std::string out;
  REQUIRE(t.Expand(m, values, &out, &err));
  CHECK(out == "8 if cap(80) else 4");
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

namespace {
class Doubler : public TableValues {
 public:
  std::optional<Value> Call(std::string_view name,
                            const std::vector<std::string>& args) const override {
    if (name != "twice") return std::nullopt;
    Value v;
    v.text = std::to_string(2 * std::stoi(args[0]));
    return v;
  }
};
}  // namespace

TEST_CASE("function calls take captures") {
  Template t;
  std::string err;
  std::size_t off = 0;
  REQUIRE(Template::Parse("{{twice(@n)}}", &t, &err, &off));
  REQUIRE(t.References(TemplatePart::Kind::kCall).size() == 1);
  CHECK(t.parts()[0].args == std::vector<std::string>{"n"});
  QueryMatch m;
  m.captures.push_back(Capture{"n", 0, 1, "21", "integer"});
  std::string out;
  REQUIRE(t.Expand(m, Doubler(), &out, &err));
  CHECK(out == "42");
  CHECK_FALSE(Template::Parse("{{twice(n)}}", &t, &err, &off));
  CHECK(err == "function arguments must be @captures, got 'n'");
}

TEST_CASE("what a template makes of an input must stay in the input's domain") {
  Workload w = Workload::Defaults();
  std::string err;
  REQUIRE(w.Set("max_num_seqs", "4", &err));
  ModelValues model(Profile::BiV100(), w, {});
  QueryMatch m;
  auto expand = [&](const char* source, std::string* out) {
    Template t;
    std::size_t off = 0;
    REQUIRE(Template::Parse(source, &t, &err, &off));
    err.clear();
    return t.Expand(m, model, out, &err);
  };
  std::string out;
  CHECK(expand("{{workload.max_num_seqs}} // 8 + 1", &out));
  CHECK(out == "4 // 8 + 1");
  CHECK(expand("{{fact.smem_per_block}}", &out));
  CHECK(out == "32768");
  // 4 // 8 is 0, which no max_num_seqs is: no value is offered.
  CHECK_FALSE(expand("{{workload.max_num_seqs}} // 8", &out));
  CHECK(err ==
        "value 'workload.max_num_seqs': the template makes '4 // 8' of it: 0 is no workload's "
        "max_num_seqs: it must be a whole number from 1 to 1073741824");
  CHECK_FALSE(expand("{{fact.smem_per_block}} // 3", &out));
  CHECK(err.find("no card's smem_per_block") != std::string::npos);
  // A model quantity's value is its derivation's; the gate checks it.
  CHECK(expand("{{smem_limit_kib}} * 3", &out));
}

}  // namespace muh
