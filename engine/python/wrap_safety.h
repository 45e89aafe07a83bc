// Whether a value shared by both paths may be wrapped into a conditional
// expression on the rule's condition (`8 if C else 4`, reaching_values.h's
// OnThisPath): the wrap tests C where the value is assigned, not where the
// function tests it, so C must read the same names there. It does not when
// the function binds a name C reads in between: an assignment of any form,
// a `for`, `with ... as` or `except ... as` target, `:=`, an import, a
// `def` or `class`, `global`/`nonlocal`, `del`, a `match` capture. What
// code in between changes (a call, a store through an attribute or a
// subscript) the syntax does not show: where such code runs, the wrap is
// safe only when every name C reads is fixed for the run (UnfixedRead).
// Pure: a tree in, a name and a byte offset out.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "engine/python/syntax_tree.h"

namespace muh {

// The names `condition` reads, in order, each once: its identifiers, less
// attribute names after a dot, keyword arguments' names and the names it
// binds itself (comprehension variables, lambda parameters, `:=` targets).
std::vector<std::string> NamesRead(const SyntaxTree& tree, TSNode condition);

// The simple statement of `function` that holds byte `at` (the statement
// that assigns a value found there); `function` itself when there is none.
TSNode StatementAround(TSNode function, std::size_t at);

// A binding of a name the condition reads.
struct Rebinding {
  std::string name;
  std::size_t at = 0;  // byte offset of the bound name
  int line = 0;        // 1-based
};

// The first binding, in source order, by `function` (not by a function,
// class or lambda nested in it) of a name `condition` reads, at or after
// byte `from` and before byte `to`; nullopt when there is none.
std::optional<Rebinding> FirstRebinding(const SyntaxTree& tree, TSNode function, std::size_t from,
                                        std::size_t to, TSNode condition);

// The names whose value is fixed for a run of `function`, as far as a wrap
// is concerned: a name the file binds only by importing it from a `vllm`
// module (the platform API, whose answers the served device fixes) and
// that the function does not bind itself, and a local of the function
// bound only by plain assignments of values computed from such names
// (`ok = current_platform.has_device_capability(80)`), named by no
// parameter, `global` or `nonlocal` (in it or a scope nested in it).
// Computed once, in one walk of the file and one of the function.
class FixedNames {
 public:
  FixedNames(const SyntaxTree& tree, TSNode function);
  bool Has(std::string_view name) const;

 private:
  std::unordered_set<std::string> names_;
};

// The first name `condition` reads that is not fixed, and where; nullopt
// when there is none.
std::optional<Rebinding> UnfixedRead(const SyntaxTree& tree, const FixedNames& fixed,
                                     TSNode condition);

// The first node in [from, to) of `function` (not inside the body of a def
// or lambda nested in it, which defining does not run) that runs code the
// analysis does not follow: a call (other than of a fixed name, the
// platform API), an await or yield, an import, a `with`, a loop over an
// iterator, a decorator, or a store or del through an attribute or a
// subscript. Null when there is none.
TSNode FirstCodeRunner(const SyntaxTree& tree, const FixedNames& fixed, TSNode function,
                       std::size_t from, std::size_t to);
// The same, under any node.
TSNode FirstRunnerUnder(const SyntaxTree& tree, const FixedNames& fixed, TSNode root,
                        std::size_t from, std::size_t to);

// The names `function`'s parameters bind (not the names a default or an
// annotation reads).
std::vector<std::string> ParameterNames(const SyntaxTree& tree, TSNode function);

// Every binding of one of `names` by `function` itself (not by a def,
// lambda or class nested in it), in source order.
std::vector<Rebinding> BindingsOf(const SyntaxTree& tree, TSNode function,
                                  const std::vector<std::string>& names);

// Why the shared value at byte `value_at` of `function` cannot be wrapped
// in `condition`, one test of it in the function (the caller checks every
// test): a name the condition reads is bound between the value's statement
// (itself included: `cap = V = 8`) and the test, or, where the test comes
// first, between the test and the statement; or the test sits in a def,
// lambda or class nested in `function` that binds such a name itself (a
// parameter, an import in a helper). nullopt when the wrap reads what the
// test reads. Where nothing rebinds them but the condition reads a name
// that is not fixed (UnfixedRead) and code runs in between
// (FirstCodeRunner), `state` says so: the code may change its value.
// Code between the value and the test that may change what the test reads:
// the condition reads `read` (line `read_line`), a name whose object or
// value is not fixed for the run, and `by` (line `by_line`) runs code there.
struct StateHazard {
  std::string read;
  int read_line = 0;
  std::string by;
  int by_line = 0;
};

struct WrapHazard {
  Rebinding rebinding;
  // Set instead of `rebinding`: nothing rebinds a name, but code may change
  // what one denotes.
  std::optional<StateHazard> state;
  // Set instead: the condition itself runs code (`by`, a call other than
  // of the platform API, a `:=`, an await or yield), which the wrap would
  // run once more.
  std::optional<StateHazard> effect;
  // Set instead: the test and the value's statement are not in the same
  // `try` and `with` bodies. Where the test raises and the exception is
  // caught or suppressed, code may run on to the value's statement, and
  // the wrap would raise there (or where the wrap raises first, it would
  // escape a handler the test had): `guard` is the innermost such `try`
  // or `with` (its keyword, line).
  std::string guard;
  int guard_line = 0;
  bool guard_holds_test = true;  // else it holds the value's statement
  bool before_test = true;       // the statement comes before the test
  int test_line = 0;
  // The test is in a def, lambda or class nested in the function, which
  // binds the name itself (its name here): the function may not bind it.
  std::string nested_in;
};
std::optional<WrapHazard> WrapHazardOf(const SyntaxTree& tree, TSNode function,
                                       std::size_t value_at, TSNode condition);
// The same, with `function`'s fixed names computed once by the caller.
std::optional<WrapHazard> WrapHazardOf(const SyntaxTree& tree, TSNode function,
                                       std::size_t value_at, TSNode condition,
                                       const FixedNames& fixed);

}  // namespace muh
