// Liveness of knob sites: whether the code at a byte of a tree file runs
// on the served platform (live), never runs or never matters (dead), or
// cannot be decided (unknown, never a guess), with the reason and the
// file:line of the evidence. Pure: the caller passes the tree's .py paths
// and a read callback; nothing here touches the disk.
//
// What decides, in order (the first that says dead wins; a local reason
// holds even where reachability is open):
//   1. unreachable: after an unconditional return/raise in an enclosing block;
//   2. branch: an enclosing if/elif/else decided by a constant module flag,
//      the platform, or has_device_capability(N); or the other side of an
//      `A if COND else B`;
//   3. overwritten: reassigned on every path before any read (overwrite.h);
//   4. imports: the module is not reached from facts.entry_module
//      (reachability.h);
//   5. references: the enclosing def or class is used by nothing that runs
//      (references.h);
//   6. unread keys: a dict value whose key no code that runs reads (key_reads.h).
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/liveness/assumptions.h"
#include "engine/liveness/liveness_types.h"
#include "engine/liveness/tree_index.h"

namespace muh {

class Reachability;

class LivenessAnalysis {
 public:
  // Reads what it needs through `read`, which must stay callable while the
  // analysis is used (At reads files that Run did not need). `py_paths` are
  // tree-relative and sorted.
  // `words` and `forget` as for TreeIndex. The variants At compares with
  // (made once each) read and forget through the same two: a path may be
  // read by several before one forgets it, and must stay until each has
  // (count them; never replace the bytes of a path still held).
  // `tables`, when given, are shared with the run's other analyses.
  static LivenessAnalysis Run(const std::vector<std::string>& py_paths, const ReadFn& read,
                              const LivenessFacts& facts, WordFilterFn words = {},
                              ForgetFn forget = {}, std::shared_ptr<StatementCache> tables = {});
  LivenessAnalysis(LivenessAnalysis&&) noexcept;
  LivenessAnalysis& operator=(LivenessAnalysis&&) noexcept;
  ~LivenessAnalysis();

  // The liveness of the code at `byte_offset` of `path`. A dead verdict
  // that a plugin could overturn (a module not imported, a function not
  // referenced, a key not read, a flag's branch) where reached code loads
  // entry points (vLLM's load_general_plugins()) rests on none being
  // installed, vLLM's default: its reason says so and names the loader;
  // with plugins declared, it is unknown. A verdict that another value of
  // a variable the analysis read would change (a dead one that would not
  // be, or one that would be dead) names the value it rests on; each such
  // assumption is in `assumptions`.
  // Without `name_assumptions`, the verdict and its reason without the
  // comparisons that name them (no variant is made): the same state.
  SiteLiveness At(const std::string& path, std::size_t byte_offset,
                  bool name_assumptions = true) const;

  // The assumptions in force (assumptions.h): the platform, the
  // environment (as declared, else vLLM's default for each variable the
  // analysis reads) and the plugins.
  std::vector<Assumption> Assumptions() const;

  // The imports that reach `path` from the entry, entry side first; empty
  // when it is not reached (or is the entry).
  std::vector<Evidence> ImportChain(const std::string& path) const;

  // The `dynamic-imports:` entries that name no import_module/__import__
  // call of reached code (a typo, or code that moved), as "FILE:FUNCTION".
  std::vector<std::string> UnusedDynamicImports() const;

  // The first statement of another file of the tree that may rebind the
  // module-level `name` of `path` (`m.NAME = 4096`, `setattr(m, "NAME",
  // ...)`, `del m.NAME`), run or not; nullopt when none may.
  std::optional<Evidence> RebindingElsewhere(const std::string& path,
                                             const std::string& name) const;

  // The first statement of another file of the tree that may store to the
  // name `name` of `path` as an attribute (`ops.NAME = other`, `setattr(m,
  // "NAME", f)`, `del m.NAME`), run or not: RebindingElsewhere without the
  // module's object escaping. nullopt when none may.
  std::optional<Evidence> StoredElsewhere(const std::string& path, const std::string& name) const;

  // The first statement of another file of the tree whose code (not a
  // comment or string) holds `word` as a whole word, run or not; nullopt
  // when none does. A file that cannot be read or parsed is one.
  std::optional<Evidence> MentionedElsewhere(const std::string& path,
                                             const std::string& word) const;

  // For a site that writes a dict's key (`config['BLOCK_SIZE_M'] = 32`,
  // a value of `{'BLOCK_SIZE_M': 32}`): the reads of the key in code that
  // may run that change the value before a call takes it (key_reads.h,
  // value_use.h), the first of each line. For a site that binds a name
  // (`BLOCK = 64`): the first such read of the name where it is bound
  // (ChangedReadsOfName). Empty for any other site.
  // `end`: where the site ends, when known; a name's site that is only a
  // part of the value the name takes (an operand, an element) is no
  // value of the name (IsBoundValue), and gets nothing.
  std::vector<ChangedRead> ChangedReads(const std::string& path, std::size_t byte_offset,
                                        std::size_t end = std::string::npos) const;

  // A definition in the tree that answers the platform's capability test
  // with a constant other than the declared compute capability
  // (CapabilityPinned, predicate_definitions.h); nullopt when none does,
  // or no capability is declared.
  std::optional<Evidence> CapabilityAnsweredByTree() const;

  // How many modules the entry reaches.
  std::size_t modules_reached() const;

 private:
  struct State;
  // The verdict of one analysis: Proved, and the plugins' part.
  static SiteLiveness Single(State* state, const std::string& path, std::size_t byte_offset);
  static SiteLiveness Proved(State* state, const std::string& path, std::size_t byte_offset);
  // The first entry-point loader in reached code (entry_points(),
  // iter_entry_points()); an empty path when there is none.
  static const Evidence& PluginLoader(State* state);
  // The analysis with variable `env` at any value, or at vLLM's default,
  // made once.
  State* Variant(const std::string& env, bool to_default) const;
  explicit LivenessAnalysis(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace muh
