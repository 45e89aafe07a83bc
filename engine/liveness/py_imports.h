// Import statements and dynamic imports, read lexically from one logical
// line's code (statement_table.h), not from its syntax tree.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace muh {

struct ImportedName {
  std::string name;   // `a.b` in `import a.b`, `x` in `from m import x`, or "*"
  std::string alias;  // the `as` name; empty when none
};

struct ImportStatement {
  bool is_from = false;
  int level = 0;            // leading dots of a from-import
  std::string from_module;  // the module after the dots; may be empty
  std::vector<ImportedName> names;
};

// `import a.b as c, d` or `from ..m import (x as y, z)`; nullopt for any
// other line (comments and backslash continuations inside are skipped).
std::optional<ImportStatement> ParseImport(std::string_view code);

// The argument of an `import_module(...)` / `__import__(...)` call.
struct DynamicImportArgument {
  enum class Kind {
    kLiteral,  // a string: `value` is the module
    kPrefix,   // an f-string or `"p." + x`: `value` is the literal prefix
    kName,     // a name or attribute: `value` is its last component
    kOpaque,   // anything else
  };
  Kind kind = Kind::kOpaque;
  std::string value;
  // The `package` argument (second, or `package=`): a literal's value,
  // `__name__` or `__package__` as written, "?" for any other expression,
  // empty when there is none.
  std::string package;
};

// The argument text's kind (the first argument only).
DynamicImportArgument ClassifyImportArgument(std::string_view arg);

// The string value of a plain literal (`'x'`, `"x"`, no prefix, no
// escapes); nullopt otherwise. With `prefix`, an f-string or a literal
// followed by `+` also gives its leading literal text.
std::optional<std::string> StringLiteralValue(std::string_view text, bool prefix = false);

}  // namespace muh
