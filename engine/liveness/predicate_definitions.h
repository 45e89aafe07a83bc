// Whether the tree's own definitions of a platform predicate answer as the
// condition evaluator reads the predicate (condition.h): `is_hip()` True
// exactly on ROCm, `current_platform.is_rocm()` likewise, and so on. The
// evaluator decides a call by the predicate's name; a tree that redefines
// it (`def is_hip(): return True`, a subclass's `def is_rocm(self): ...`)
// makes that no proof. Closed world: every `def` of the name in the tree
// must have a body of the shape vLLM gives it (a docstring, then one
// `return` of the platform's test), else the predicate decides nothing.
// `has_device_capability` is answered from the declared compute capability
// (muhpatch-rules(5), liveness), unless the tree answers otherwise
// (CapabilityPinned).
#pragma once

#include <optional>
#include <string>

#include "engine/liveness/tree_index.h"

namespace muh {

// The first `def name` of the tree whose body is not the shape vLLM gives
// the predicate `name`; nullopt when there is none, or `name` is not one
// of the predicates checked.
std::optional<Evidence> PredicateRedefined(TreeIndex* index, const std::string& name);

// The body (its logical lines' code, blanks removed, a leading docstring
// dropped, joined by ';') that vLLM gives the predicate `name`, one per
// accepted spelling; empty for a name that is not checked.
std::vector<std::string> AcceptedBodies(const std::string& name);

// The first `def` of the tree, of a function the platform's capability
// answer goes through (`has_device_capability`, `get_device_capability`,
// `get_physical_device_capability`), that answers otherwise than the
// device: its whole body returns a constant (`return [9, 0]`,
// `return DeviceCapability(major=7, minor=0)`, `return False`) other than
// the declared capability `have` (x10), or it computes its answer from
// anything but the device queries (capability_body.h: a constant bound to
// a name, a class attribute). The code then answers a capability test
// itself, or in a way muhpatch does not read, and the declared capability
// decides nothing. nullopt when there is none.
std::optional<Evidence> CapabilityPinned(TreeIndex* index, int have);

}  // namespace muh
