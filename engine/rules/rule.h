// Checked rules: what the loader hands the planner. Every query is compiled,
// every capture and value name the rule mentions is known to exist.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/liveness/liveness_types.h"
#include "engine/model/value_source.h"
#include "engine/query/query.h"
#include "engine/rules/template.h"
#include "engine/rules/tier_spec.h"

namespace muh {

class Finder;  // finder.h

// A place in the rule file, for messages about the rule itself.
struct RuleLoc {
  int line = 0;
  int column = 0;
};

// A query that must (`present:`) or must not (`absent:`) match before the
// rule may rewrite. Unmet, the rule is skipped with a note, or, when
// `required`, the run fails.
struct Precondition {
  std::string name;
  std::vector<std::string> files;
  bool want_present = true;
  std::shared_ptr<const Query> query;
  bool required = false;
  RuleLoc loc;
};

enum class ActionKind {
  kReplace,        // replace the target capture with the `with:` template
  kDeleteLines,    // delete the whole lines the target capture spans
  kAppendEntries,  // append autotune entries to the target list capture
};

struct Rule {
  std::string id;
  std::string description;
  RuleLoc loc;
  std::vector<std::string> files;  // tree-relative paths or globs
  std::vector<RuleLoc> file_locs;  // parallel to `files`
  // Paths or globs outside `files` where the query is known to match and
  // must be left alone (ipex_attn.py's own _PARTITION_SIZE); verify's
  // whole-tree search ignores them.
  std::vector<std::string> also_matches;
  RuleLoc files_loc;
  // Where the rule's sites are (finder.h), with the query they come from.
  std::shared_ptr<const Finder> finder;
  // From a code pattern (code_pattern.h): the variable the knob is assigned
  // to and the code it sits in (`use_v1`, `max_seq_len <= N`); empty when
  // the pattern does not say, or for a raw query. A rule that finds no site
  // then says what the variable holds now.
  std::string knob;
  std::string knob_shape;
  ActionKind action = ActionKind::kReplace;
  std::string target;   // capture name, without '@'
  Template with;        // kReplace
  std::string entries;  // kAppendEntries: name of a list value
  int expect = 1;       // matches expected in each file in scope
  int expect_max = 1;   // `expect: LO..HI`: at most this many (a family of sites)
  // Optional: a query that matches `expect` times once the rule has been
  // applied, for rewrites after which `query` no longer matches (deletions).
  std::shared_ptr<const Query> done_when;
  // `upstream:` the value the site holds in the unpatched upstream code, as
  // source text. A site holding neither this nor the rule's value (nor one
  // that muhpatch wrote, per --patch) was tuned by hand: it is kept and
  // reported, unless `retune`.
  std::optional<std::string> upstream;
  // `retune: true` (or --retune for every rule): hand-tuned values are
  // overwritten, with a warning.
  bool retune = false;
  // `pin: {value: V, reason: "..."}`: the rule writes V (Python source text)
  // whatever the model derives; the reason is shown wherever the value is.
  // `unchecked: REASON` writes a value outside the knob's domain anyway;
  // without it such a pin fails the rule.
  struct Pin {
    std::string value;
    std::string reason;
    RuleLoc loc;
    std::string unchecked;
  };
  std::optional<Pin> pin;
  // On a `tiers:` rule, `pin:` as a list: one entry per tier of the chain,
  // by position; nullopt where the model decides. Empty otherwise.
  std::vector<std::optional<Pin>> tier_pins;
  RuleLoc tier_pins_loc;  // of the `pin` key
  // `retired: {reason: "...", replaced-by: "..."}`: the knob is gone
  // upstream. A rule that finds none of its sites is a note, not an error
  // (its files may be gone too); one that finds a site fails: the knob is
  // back.
  struct Retired {
    std::string reason;
    std::string replaced_by;  // may be empty
    RuleLoc loc;
  };
  std::optional<Retired> retired;
  std::vector<Precondition> preconditions;
  // `tiers:` one rule for every tier of a chain (tier_spec.h); null otherwise.
  std::shared_ptr<const TierSpec> tiers;
};

struct RuleSet {
  std::string path;  // the rule file as the user named it
  std::vector<Rule> rules;
  // The `values:` table, when the rule file has one.
  std::shared_ptr<TableValues> table;
  // `liveness:`: the serving entry point, the platform and the facts
  // declared for what lies behind binaries. The compute capability comes
  // from the hardware profile.
  LivenessFacts liveness;
  // Where rule names resolve: the model, the table, or both (set by CheckRules).
  std::shared_ptr<const ValueSource> values;
  // `exclude:` tree-relative globs the whole-tree search for moved or copied
  // knobs leaves out (with .gitignore'd files); rules' own `files` may
  // still name such paths.
  std::vector<std::string> exclude;
};

}  // namespace muh
