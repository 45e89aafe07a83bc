#include "engine/model/tier_bound.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "engine/model/constraint.h"

namespace muh {

namespace {

constexpr int kMaxDepth = 8;

bool WholeNumber(std::string_view s) {
  return !s.empty() && s.find_first_not_of("0123456789_") == std::string_view::npos &&
         s.front() != '_';
}

bool HasCompare(const ConstraintExpr& e) {
  using Op = ConstraintExpr::Op;
  if (e.op == Op::kCompare || e.op == Op::kAnd || e.op == Op::kOr || e.op == Op::kNot) return true;
  return std::any_of(e.kids.begin(), e.kids.end(), HasCompare);
}

// `memo` holds each constant's value once evaluated: constants built from
// constants are evaluated once each, not once per use (no blow-up on
// `A1 = A0 + A0 + ...`).
TierBoundValue Evaluate(std::string_view text, const std::map<std::string, std::string>& constants,
                        int depth, std::vector<std::string>* names,
                        std::map<std::string, TierBoundValue>* memo) {
  TierBoundValue out;
  if (depth > kMaxDepth) {
    out.error = fmt::format("constants nest deeper than {}", kMaxDepth);
    return out;
  }
  ConstraintParse parsed = ParseConstraint(text);
  if (!parsed.constraint) {
    out.error =
        fmt::format("`{}` is not integer arithmetic over module constants: {}", text, parsed.error);
    return out;
  }
  if (HasCompare(parsed.constraint->expr)) {
    out.error = fmt::format("`{}` compares; a bound is a number", text);
    return out;
  }
  std::string inner;
  NameValue lookup = [&](std::string_view name) -> std::optional<int64_t> {
    auto it = constants.find(std::string(name));
    if (it == constants.end()) {
      if (inner.empty()) {
        inner = fmt::format("'{}' is no constant assigned once at the module's top level", name);
      }
      return std::nullopt;
    }
    if (std::find(names->begin(), names->end(), it->first) == names->end()) {
      names->push_back(it->first);
    }
    auto known = memo->find(it->first);
    if (known == memo->end()) {
      known =
          memo->emplace(it->first, Evaluate(it->second, constants, depth + 1, names, memo)).first;
    }
    const TierBoundValue& v = known->second;
    if (!v.error.empty()) {
      if (inner.empty()) inner = fmt::format("{} = {}: {}", it->first, it->second, v.error);
      return std::nullopt;
    }
    return v.value;
  };
  IntegerValue v = EvaluateInteger(*parsed.constraint, lookup);
  if (!v.error.empty()) {
    out.error = inner.empty() ? v.error : inner;
    return out;
  }
  out.value = v.value;
  return out;
}

}  // namespace

TierBoundValue EvaluateTierBound(std::string_view text,
                                 const std::map<std::string, std::string>& constants) {
  std::vector<std::string> names;
  std::map<std::string, TierBoundValue> memo;
  TierBoundValue out = Evaluate(text, constants, 0, &names, &memo);
  out.literal = WholeNumber(text);
  out.names = std::move(names);
  return out;
}

}  // namespace muh
