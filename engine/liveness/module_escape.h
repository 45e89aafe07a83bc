// Whether a module's object is used as a value anywhere that runs. A def of
// module M that no reached code names can still be called by a name built
// at run time (`getattr(m, "f" + s)`, `vars(m)[key]`, a registry of
// modules) once M's object reaches such code. M's object enters reached
// code only through an import that binds it (`import a.M`, `import a.M as
// m`, `from a import M`, `from . import M`); every use of that binding must
// be an attribute access (`m.f`) for the object to stay put. Any other use
// (an argument, an assignment, a container, `m.__dict__`) lets it escape,
// as does M taking its own namespace (`globals()`, a bare `vars()`,
// `sys.modules[__name__]`), and "nothing refers to f" is then no proof. Found lexically, as
// references.h finds names.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "engine/liveness/tree_index.h"

namespace muh {

// The first place in a reached module where the object of the module at
// `path` is used other than by attribute access; nullopt when there is none.
std::optional<Evidence> ModuleEscape(TreeIndex* index,
                                     const std::function<bool(const std::string&)>& reached,
                                     const std::string& path);

}  // namespace muh
