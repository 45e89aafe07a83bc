// The rule for a name written inside a string literal. A liveness proof
// rests on names (a function, a module, a dict key, a flag), and a string
// can hold a name that code uses (`getattr(m, "f")`, a registry, an
// `import_module` argument, `setattr(m, "FLAG", True)`). So an occurrence
// in a string counts as a use unless the string is prose:
//   - a docstring or any other string that is a statement by itself;
//   - the message of a log or print call (`logger.info(...)`, `.debug`,
//     `.warning`, `.warning_once`, `.error`, `.exception`, `.critical`,
//     `print`, `warnings.warn`), of a `raise`d exception or of an `assert`.
//   - an entry of an `__all__` list: it names the module's binding for a
//     star import, which binds the same name where the word search sees it.
// An f-string is never prose: its `{...}` parts are code. Occurrences in
// comments never count.
#pragma once

#include <cstddef>

#include "engine/python/statement_table.h"

namespace muh {

// Whether the string literal holding `offset` is prose by the rule above
// (false when `offset` is not in a string).
bool InProse(const StatementTable& lines, std::size_t offset);

// Whether `offset` is inside an f-string, whose `{...}` parts are code.
bool InFString(const StatementTable& lines, std::size_t offset);

}  // namespace muh
