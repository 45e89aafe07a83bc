#include "engine/model/constraint.h"

#include <doctest/doctest.h>

#include <limits>
#include <map>

namespace muh {

namespace {

ConstraintValue Eval(const char* text, const std::map<std::string, int64_t>& names) {
  ConstraintParse p = ParseConstraint(text);
  REQUIRE_MESSAGE(p.error.empty(), p.error);
  return EvaluateConstraint(*p.constraint, [&](std::string_view n) -> std::optional<int64_t> {
    auto it = names.find(std::string(n));
    if (it == names.end()) return std::nullopt;
    return it->second;
  });
}

bool Holds(const char* text, const std::map<std::string, int64_t>& names) {
  ConstraintValue v = Eval(text, names);
  REQUIRE_MESSAGE(v.error.empty(), v.error);
  return v.holds;
}

}  // namespace

TEST_CASE("the causal key-block constraints of attn_fwd") {
  const char* whole = "BLOCK_M >= BLOCK_N and BLOCK_M % BLOCK_N == 0";
  CHECK(Holds(whole, {{"BLOCK_M", 128}, {"BLOCK_N", 64}}));
  CHECK(Holds(whole, {{"BLOCK_M", 64}, {"BLOCK_N", 64}}));
  CHECK_FALSE(Holds(whole, {{"BLOCK_M", 64}, {"BLOCK_N", 128}}));
  CHECK_FALSE(Holds(whole, {{"BLOCK_M", 96}, {"BLOCK_N", 64}}));
}

TEST_CASE("arithmetic follows Python: floored // and %, precedence, chains") {
  CHECK(Holds("-7 // 2 == -4", {}));
  CHECK(Holds("-7 % 2 == 1", {}));
  CHECK(Holds("7 % -2 == -1", {}));
  CHECK(Holds("1 + 2 * 3 == 7", {}));
  CHECK(Holds("(1 + 2) * 3 == 9", {}));
  CHECK(Holds("16 <= N <= M", {{"N", 16}, {"M", 32}}));
  CHECK_FALSE(Holds("16 <= N <= M", {{"N", 64}, {"M", 32}}));
  CHECK(Holds("not PRE_LOAD_V or num_stages > 1", {{"PRE_LOAD_V", 0}, {"num_stages", 1}}));
  CHECK_FALSE(Holds("not PRE_LOAD_V or num_stages > 1", {{"PRE_LOAD_V", 1}, {"num_stages", 1}}));
  CHECK(Holds("True and not False", {}));
  CHECK(Holds("1_024 == 1024", {}));
  CHECK(Holds("a or b", {{"a", 0}, {"b", 3}}));
}

TEST_CASE("names are listed once, in order") {
  ConstraintParse p = ParseConstraint("BLOCK_M % BLOCK_N == 0 and BLOCK_M >= head_dim // 8");
  REQUIRE(p.error.empty());
  CHECK(ConstraintNames(*p.constraint) ==
        std::vector<std::string>{"BLOCK_M", "BLOCK_N", "head_dim"});
}

TEST_CASE("numbers are Python's integer literals") {
  CHECK(Holds("0x40 + 1_024 + 0o10 + 0b11 == 1099", {}));
  CHECK(Holds("0X_40 == 64", {}));
}

TEST_CASE("parse errors say what and where") {
  auto err = [](const char* text) {
    ConstraintParse p = ParseConstraint(text);
    CHECK_FALSE(p.constraint.has_value());
    return std::to_string(p.offset) + ": " + p.error;
  };
  CHECK(err("BLOCK_M >= ") == "11: the constraint ends where a value was expected");
  CHECK(err("BLOCK_M => BLOCK_N") == "8: '=' does not compare; write '==' (or '<=', '>=')");
  CHECK(err("BLOCK_M = BLOCK_N") == "8: '=' does not compare; write '==' (or '<=', '>=')");
  CHECK(err("(BLOCK_M > 1") == "0: '(' is not closed");
  CHECK(err("BLOCK_M / 2") ==
        "8: '/' is not part of the constraint language (numbers, names, + - * // %, "
        "comparisons, and/or/not, parentheses)");
  CHECK(err("BLOCK_M > 2 BLOCK_N") == "12: unexpected 'BLOCK_N'");
  CHECK(err("12ab > 1") == "0: `12ab` is no integer literal");
  CHECK(err("032 > 1") == "0: `032` is no integer literal");
  CHECK(err("0x2g > 1") == "0: `0x2g` is no integer literal");
  CHECK(err("99999999999999999999 > 1") == "0: the number is too large");
  CHECK(err("and") == "0: unexpected 'and'");
  CHECK(err(std::string(200, '(').c_str()).find("nests too deeply") != std::string::npos);
}

TEST_CASE("evaluation errors: a name without a value, division by zero, overflow") {
  CHECK(Eval("X > 1", {}).error == "'X' has no whole-number value");
  CHECK(Eval("4 % N == 0", {{"N", 0}}).error == "division by zero");
  CHECK(Eval("N * N > 0", {{"N", int64_t{1} << 40}}).error == "overflow");
  CHECK(Eval("0 - N < 0", {{"N", std::numeric_limits<int64_t>::min()}}).error == "overflow");
  CHECK(Eval("N // -1 < 0", {{"N", std::numeric_limits<int64_t>::min()}}).error == "overflow");
}

}  // namespace muh
