#include "engine/rules/raw_preconditions.h"

#include <doctest/doctest.h>

#include "engine/rules/rule_loader.h"

namespace muh {

namespace {

const std::string kPath = "p.yaml";  // the reader keeps references

std::string Errors(const std::vector<Diagnostic>& errors) {
  std::string out;
  for (const Diagnostic& d : errors) out += d.Format() + "\n";
  return out;
}

// What loading `text` says.
std::string Errors(const std::string& text) {
  RuleSet set;
  std::vector<Diagnostic> errors;
  LoadRules("r.yaml", text, {}, &set, &errors);
  return Errors(errors);
}

const char* kGood = R"(version: 1
rules:
  - id: part
    files: vllm/a.py
    query: "(integer) @value"
    delete: value
)";

}  // namespace

TEST_CASE("a rule's preconditions mix names and entries") {
  std::string text =
      "- v2\n"
      "- { name: n, absent: \"(identifier)\" }\n"
      "- more\n";
  std::vector<Diagnostic> errors;
  YamlReader reader(kPath, text, &errors);
  std::vector<RawPrecondition> out;
  ReadRulePreconditions(&reader, YAML::Load(text), &out);
  CHECK(Errors(errors) == "");
  REQUIRE(out.size() == 3);
  CHECK(out[0].ref.present);
  CHECK(out[0].ref.value == "v2");
  CHECK(out[0].ref.mark.line == 0);
  CHECK(out[0].ref.mark.column == 2);
  CHECK_FALSE(out[1].ref.present);
  CHECK(out[1].name.value == "n");
  CHECK(out[2].ref.value == "more");
  std::vector<std::string> texts;
  PreconditionQueryTexts(out, &texts);
  CHECK(texts == std::vector<std::string>{"(identifier)"});
}

TEST_CASE("a rule's preconditions must be a list of mappings and names") {
  std::string text = "a: { name: n }\nb: [[x]]\n";
  std::vector<Diagnostic> errors;
  YamlReader reader(kPath, text, &errors);
  YAML::Node root = YAML::Load(text);
  std::vector<RawPrecondition> out;
  ReadRulePreconditions(&reader, root["a"], &out);
  ReadRulePreconditions(&reader, root["b"], &out);
  CHECK(Errors(errors) ==
        "p.yaml:1:4: error: 'preconditions' must be a list\n"
        "p.yaml:2:5: error: a precondition must be a mapping, or the name of a list of the "
        "file's 'preconditions:'\n");
  CHECK(out.empty());
}

TEST_CASE("the top-level map names lists of entries") {
  std::string text =
      "v2:\n"
      "  - name: one\n"
      "    files: a.py\n"
      "    absent: \"(raise_statement)\"\n"
      "  - name: two\n"
      "    present: \"(identifier)\"\n"
      "other:\n"
      "  - { name: three, present: \"(integer)\" }\n";
  std::vector<Diagnostic> errors;
  YamlReader reader(kPath, text, &errors);
  std::vector<NamedPreconditions> out;
  ReadNamedPreconditions(&reader, YAML::Load(text), &out);
  CHECK(Errors(errors) == "");
  REQUIRE(out.size() == 2);
  CHECK(out[0].name.value == "v2");
  REQUIRE(out[0].entries.size() == 2);
  CHECK(out[0].entries[0].files[0].value == "a.py");
  CHECK(out[0].entries[1].present.value == "(identifier)");
  CHECK(out[1].name.value == "other");
}

TEST_CASE("a named list's shape errors are located") {
  std::string text =
      "v2: []\n"
      "refs:\n"
      "  - v2\n"
      "  - { name: n, absnt: \"(x)\" }\n"
      "v2: [{ name: again, present: \"(x)\" }]\n";
  std::vector<Diagnostic> errors;
  YamlReader reader(kPath, text, &errors);
  std::vector<NamedPreconditions> out;
  ReadNamedPreconditions(&reader, YAML::Load(text), &out);
  CHECK(Errors(errors) ==
        "p.yaml:1:5: error: precondition list 'v2' must be a non-empty list of preconditions\n"
        "p.yaml:3:5: error: an entry of precondition list 'refs' must be a mapping (a list names "
        "other lists only in a rule's 'preconditions')\n"
        "p.yaml:4:16: error: unknown key 'absnt' in precondition (did you mean 'absent'?)\n"
        "p.yaml:5:1: error: precondition list 'v2' is declared twice\n");
  std::vector<Diagnostic> more;
  YamlReader map_reader(kPath, text, &more);
  ReadNamedPreconditions(&map_reader, YAML::Load("[a]"), &out);
  CHECK(Errors(more) ==
        "p.yaml:1:1: error: 'preconditions' must be a mapping of names to lists of "
        "preconditions\n");
}

namespace {
// Named lists, and a rule that names one and adds an entry of its own.
const char* kNamed = R"yaml(version: 1
values:
  size: 1024
preconditions:
  v2-implemented:
    - name: v2 has a body
      files: vllm/ops.py
      absent: "(raise_statement)"
    - name: the knob is there
      present: "(identifier)"
rules:
  - id: part
    files: vllm/a.py
    query: |
      ((assignment left: (identifier) @name right: (integer) @value)
       (#eq? @name "_P"))
    replace: value
    with: "{{size}}"
    preconditions:
      - v2-implemented
      - name: own
        absent: "(integer)"
)yaml";
}  // namespace

TEST_CASE("a rule lists named precondition lists and its own entries") {
  RuleSet set;
  std::vector<Diagnostic> errs;
  REQUIRE(LoadRules("r.yaml", kNamed, {}, &set, &errs));
  REQUIRE(set.rules.size() == 1);
  const std::vector<Precondition>& pre = set.rules[0].preconditions;
  REQUIRE(pre.size() == 3);
  CHECK(pre[0].name == "v2 has a body");
  CHECK(pre[0].files == std::vector<std::string>{"vllm/ops.py"});
  CHECK_FALSE(pre[0].want_present);
  CHECK(pre[0].loc.line == 6);
  CHECK(pre[0].loc.column == 7);
  // An entry of a named list without `files:` reads the files of the rule
  // that names it.
  CHECK(pre[1].name == "the knob is there");
  CHECK(pre[1].files == std::vector<std::string>{"vllm/a.py"});
  CHECK(pre[1].want_present);
  CHECK(pre[2].name == "own");
  CHECK(pre[2].loc.line == 21);
}

TEST_CASE("an unknown precondition list is an error at its name") {
  std::string text = kNamed;
  std::string ref = "      - v2-implemented";
  text.replace(text.find(ref), ref.size(), "      - v2-implemnted");
  CHECK(Errors(text) ==
        "r.yaml:20:9: error: unknown precondition list 'v2-implemnted' (did you mean "
        "'v2-implemented'?) (the file's 'preconditions:' names: v2-implemented)\n");
  std::string none = kGood;
  none += "    preconditions: [v2]\n";
  CHECK(Errors(none) ==
        "r.yaml:7:21: error: unknown precondition list 'v2' (the file's 'preconditions:' "
        "names: none)\n");
}

TEST_CASE("a named list is checked once, where it is declared") {
  std::string text = kNamed;
  std::string absent = "      absent: \"(raise_statement)\"\n";
  text.erase(text.find(absent), absent.size());
  text +=
      "  - id: second\n    files: vllm/b.py\n    query: \"(integer) @value\"\n"
      "    delete: value\n    preconditions: [v2-implemented]\n";
  CHECK(Errors(text) ==
        "r.yaml:6:7: error: a precondition needs exactly one of 'present' or 'absent'\n");
}

}  // namespace muh
