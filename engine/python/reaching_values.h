// What a rule's `value-of:` names (muhpatch-rules(5)): the values a variable
// (or one key of a dict) may hold where a function first reads it, on the path where a condition
// is false (or true). Every assignment that reaches that read on that path
// counts, whatever the syntax: `V = A if C else B`, `if C:`/`else:` blocks,
// `elif` chains, `if not C:`, nested blocks. Branches on other conditions
// are all possible; a conditional expression on another condition is one
// value, decided at run time. Pure: a tree in, byte ranges out.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "engine/python/branch_condition.h"
#include "engine/python/syntax_tree.h"

namespace muh {

struct ValueQuestion {
  std::string function;  // the `def` to look in, by name (every one of that name)
  std::string variable;
  // Non-empty: the value of this key of the dict `variable` holds, from
  // `variable = {'KEY': VALUE, ...}` or `variable['KEY'] = VALUE`.
  std::string key;
  BranchCondition condition;
  std::string condition_as_written;  // for messages
  bool holds = false;                // the path where `condition`, as written, is true
};

struct ReachingValue {
  std::size_t begin = 0;  // the value's expression
  std::size_t end = 0;
  std::string text;
  // It also reaches the read where the condition goes the other way: it
  // changes on this path only through a conditional expression (OnThisPath).
  // Only where that expression reads the condition's names as the test
  // does (wrap_safety.h); otherwise there are no values and `problem` says so.
  bool shared = false;
  // It is an operand of a larger expression (`A if C and X else B`): a
  // conditional expression written in its place needs brackets.
  bool operand = false;
};

struct ReachingValues {
  std::vector<ReachingValue> values;  // in file order
  // The condition as the function writes it, without its outer `not`s, and
  // which way it goes on this path.
  std::string condition_text;
  bool condition_true = false;
  // The names and attribute names the condition reads (`current_platform`,
  // `has_device_capability`): a wrap tests them again where the value is,
  // which proves nothing where another module may rebind one.
  std::vector<std::string> condition_names;
  // Why there are no values ("BLOCK is assigned nowhere on ..."), at byte
  // `problem_at`; empty when there are.
  std::string problem;
  std::size_t problem_at = 0;
};

ReachingValues FindReachingValues(const SyntaxTree& tree, const ValueQuestion& q);

// The code that gives `value` on this path and keeps `kept`, a shared
// value, on the other: `kept if C else value` (or `value if C else kept`).
std::string OnThisPath(const std::string& condition_text, bool condition_true,
                       const std::string& kept, const std::string& value);

}  // namespace muh
