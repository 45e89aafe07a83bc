// Hardware facts as data. Every fact carries its value, where the value came
// from and how far to trust it, so that any number the model derives can say
// which assumptions it rests on. Users replace facts with measurements via a
// profile file (`--hw`) or `--set FACT=VALUE`.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace muh {

enum class Confidence {
  kVendor,       // stated by the vendor or its software
  kMeasured,     // measured on a card (by us, a user or a third party)
  kClaimed,      // claimed by someone, not confirmed
  kConflicting,  // sources disagree; see `alternative`
  kAssumed,      // a model assumption, no source for this card
};

std::string_view ConfidenceName(Confidence c);
// True for facts a derived value should warn about.
bool IsShaky(Confidence c);

struct Fact {
  std::string name;  // e.g. "smem_per_block"
  double value = 0;
  std::string unit;  // "bytes", "MHz", "" ...
  std::string source;
  Confidence confidence = Confidence::kAssumed;
  std::string alternative;  // the competing value and its source, if any
  // Set by Override: the value came from a profile file or --set, not from
  // the built-in table. Some knobs (the reported shared-memory limit) are
  // rewritten only from such a fact.
  bool user_given = false;
  // Set by SetFromTree: the value is the tree's own (the function that
  // reports the fact returns it), below --hw and --set.
  bool from_tree = false;
  // The values and sources this one replaced, oldest first: every
  // explanation lists what it passed over.
  std::vector<std::string> passed_over = {};
};

// A fact's value as the tree holds it: the site a rule finds for the code
// that reports the fact (`get_max_shared_memory_per_block_device_attribute`'s
// return), as the engine parsed it.
struct TreeFact {
  std::string fact;   // "smem_per_block"
  double value = 0;   // 49152
  std::string where;  // "vllm/_custom_ops.py:892"
  std::string text;   // "return 48 * 1024", or the pin that holds it
};

// An ordered set of facts (order is the order `model` prints them in).
class Profile {
 public:
  // The built-in BI-V100 profile, from SPEC's table of facts. Where sources
  // conflict it takes the value that cannot break a kernel and records the
  // other as the alternative.
  static Profile BiV100();

  // The name reports print: "bi100", or what a profile file calls itself.
  const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }
  const std::vector<Fact>& facts() const { return facts_; }
  const Fact* Find(std::string_view name) const;
  // The fact's value; 0 when the profile has no fact of that name.
  double Get(std::string_view name) const;
  std::vector<std::string> Names() const;

  // Replaces one fact's value; the source says who set it. False (with
  // `error`) for an unknown name or a value outside the fact's sane range.
  bool Override(std::string_view name, double value, const std::string& source,
                Confidence confidence, std::string* error);
  // Sets a fact from the tree's value; below a profile file and --set, so
  // apply it before them. False (with `error`) as Override.
  bool SetFromTree(const TreeFact& t, std::string* error);
  // Parses `NAME=VALUE` from the command line.
  bool ApplySet(std::string_view assignment, std::string* error);

 private:
  std::string name_;
  std::vector<Fact> facts_;
};

}  // namespace muh
