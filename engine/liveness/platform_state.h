// What a platform predicate's answer rests on, rebound somewhere in the
// tree. The condition evaluator reads `current_platform.is_rocm()` as
// "the served platform is ROCm" and `is_hip()` likewise; that holds only
// while nothing replaces the predicate or the state it reads:
//   - a store to the predicate by attribute (`vllm.utils.is_hip = f`,
//     `CudaPlatform.is_rocm = g`, `current_platform.is_rocm = h`), by
//     `setattr` with its name, or `del` of it;
//   - a name store of it in a module that defines it (`is_hip = f` after
//     `def is_hip`);
//   - the platform's identity: `x._enum = ...`, a class body's `_enum`
//     that is not its own class's member (`CudaPlatform: _enum =
//     PlatformEnum.ROCM`), a PlatformEnum member that is not `auto()` (two
//     members of one value alias), `current_platform.__class__ = ...`, a
//     store to `current_platform` outside vllm/platforms/__init__.py
//     (which chooses it by the declared platform), or to `torch.version.hip`;
//   - `setattr` by a computed name, or a `__class__` store, on an object
//     whose text names the platform, vllm.utils, torch or sys.modules, or
//     in a file that names current_platform or vllm.platforms (an alias
//     of it); elsewhere (a config's `self`) it is taken not to reach them
//     (muhpatch-rules(5) states it).
// Closed world for these words: any such statement leaves the predicate
// undecided, naming it.
#pragma once

#include <optional>
#include <string>

#include "engine/liveness/tree_index.h"

namespace muh {

// The first statement of the tree that rebinds what the predicate `name`
// (is_hip, is_rocm, ..., has_device_capability) rests on; nullopt when none.
std::optional<Evidence> PlatformStateRebound(TreeIndex* index, const std::string& name);

}  // namespace muh
