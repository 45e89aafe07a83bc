// A kernel's requirement on an autotune candidate, declared in its search
// space: an integer expression over the space's dimensions and the workload's
// quantities, written as Python writes it (`BLOCK_M % BLOCK_N == 0`,
// `BLOCK_M >= BLOCK_N and BLOCK_N >= 16`). A candidate for which it is false
// is never emitted, and the model's derivation names the constraint.
//
// The language: whole numbers, True/False (1/0), names, parentheses; unary
// `-` and `not`; `*`, `//`, `%` (floored, as Python's), `+`, `-`; the
// comparisons `==`, `!=`, `<`, `<=`, `>`, `>=` (chained as in Python:
// `16 <= BLOCK_N <= BLOCK_M`); `and`, `or`. Nothing else.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace muh {

struct ConstraintExpr {
  enum class Op {
    kNumber,
    kName,
    kNeg,
    kNot,
    kMul,
    kFloorDiv,
    kMod,
    kAdd,
    kSub,
    kCompare,
    kAnd,
    kOr
  };
  Op op = Op::kNumber;
  int64_t number = 0;
  std::string name;                   // kName
  std::vector<std::string> compares;  // kCompare: the operators between kids
  std::vector<ConstraintExpr> kids;
};

struct Constraint {
  std::string text;    // as written in the rule file
  std::string reason;  // why the kernel needs it ("" when not given)
  ConstraintExpr expr;
};

struct ConstraintParse {
  std::optional<Constraint> constraint;
  std::string error;       // "" when it parsed
  std::size_t offset = 0;  // byte of `text` the error is at
};

ConstraintParse ParseConstraint(std::string_view text, std::string reason = "");

// Every name the expression reads, in order of first appearance.
std::vector<std::string> ConstraintNames(const Constraint& c);

// The value of a name, or nullopt when it has none.
using NameValue = std::function<std::optional<int64_t>(std::string_view)>;

struct ConstraintValue {
  bool holds = false;
  std::string error;  // "" when evaluated: a name without a value, a division by zero
};

ConstraintValue EvaluateConstraint(const Constraint& c, const NameValue& value);

// The expression's integer value (a comparison is 1 or 0), for integer
// expressions outside constraints (a tier bound `_MAX_BLOCKS * 64`).
struct IntegerValue {
  int64_t value = 0;
  std::string error;  // "" when evaluated
};
IntegerValue EvaluateInteger(const Constraint& c, const NameValue& value);

}  // namespace muh
