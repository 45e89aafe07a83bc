#include "engine/python/assigned_values.h"

#include <doctest/doctest.h>

#include <string>

namespace muh {

namespace {

std::string InputsOf(const std::string& code, const std::string& value) {
  PythonParser parser;
  SyntaxTree tree = parser.Parse(code);
  std::size_t at = code.rfind(value);
  std::optional<RunTimeValue> v = RunTimeInputs(tree, at, at + value.size());
  if (!v) return "constant";
  std::string out = v->assigned_to + " <-";
  for (const ValueInput& in : v->inputs) {
    out += " " + in.name + (in.assigned ? "@" + std::to_string(in.assigned_at) : "");
  }
  return out;
}

}  // namespace

TEST_CASE("a value computed at run time names what it reads") {
  std::string code =
      "def f(head):\n"
      "    smem_limit = probe()\n"
      "    BLOCK = 64 if smem_limit >= 64 * 1024 else 32\n"
      "    WARPS = min(8, smem_limit // head)\n"
      "    SIZE = 32 * 1024\n"
      "    TILE = DEFAULT_TILE\n"
      "    KIND = cfg.kind\n";
  CHECK(InputsOf(code, "64 if smem_limit >= 64 * 1024 else 32") == "BLOCK <- smem_limit@17");
  CHECK(InputsOf(code, "min(8, smem_limit // head)") == "WARPS <- smem_limit@17 head");
  CHECK(InputsOf(code, "32 * 1024") == "constant");
  CHECK(InputsOf(code, "DEFAULT_TILE") == "constant");
  CHECK(InputsOf(code, "cfg.kind") == "constant");
}

TEST_CASE("every assignment to a name") {
  PythonParser parser;
  std::string code = "use_v1 = a <= 1\ndef f():\n    use_v1: bool = (n == 1)\nuse_v2 = 3\n";
  SyntaxTree tree = parser.Parse(code);
  std::vector<AssignmentTo> all = AssignmentsTo(tree, "use_v1");
  REQUIRE(all.size() == 2);
  CHECK(all[0].value == "a <= 1");
  CHECK(all[1].begin == 29);
  CHECK(all[1].value == "(n == 1)");
}

TEST_CASE("the targets a value is assigned to, a chain's included") {
  auto targets = [](const std::string& code, const std::string& value) {
    PythonParser parser;
    SyntaxTree tree = parser.Parse(code);
    std::size_t at = code.rfind(value);
    std::string out;
    for (const std::string& t : AssignedTargets(tree, at, at + value.size())) out += t + ";";
    return out;
  };
  CHECK(targets("NUM_WARPS = 8\n", "8") == "NUM_WARPS;");
  CHECK(targets("NUM_WARPS = WARPS_FWD = 8\n", "8") == "WARPS_FWD;NUM_WARPS;");
  CHECK(targets("a = b = c = (8)\n", "(8)") == "c;b;a;");
  CHECK(targets("f(8)\n", "8").empty());
  CHECK(targets("x = 8 if c else 4\n", "8").empty());  // part of the value only
  CHECK(targets("cfg['K'] = 8\n", "8") == "cfg['K'];");
}

}  // namespace muh
