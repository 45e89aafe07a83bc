#include "engine/liveness/liveness.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>

#include "engine/liveness/assumptions.h"
#include "engine/liveness/key_reads.h"
#include "engine/liveness/module_escape.h"
#include "engine/liveness/overwrite.h"
#include "engine/liveness/predicate_definitions.h"
#include "engine/liveness/prose.h"
#include "engine/liveness/reachability.h"
#include "engine/liveness/references.h"
#include "engine/python/value_use.h"

namespace muh {

const char* LivenessName(Liveness l) {
  switch (l) {
    case Liveness::kLive:
      return "live";
    case Liveness::kDead:
      return "dead";
    case Liveness::kUnknown:
      return "unknown";
  }
  return "unknown";
}

std::vector<PlatformMarker> VllmBackendMarkers() {
  // The selector returns a backend VLLM_ATTENTION_BACKEND names on any
  // platform: each backend's marker rests on the variable.
  std::vector<PlatformMarker> out;
  for (const auto& [backend, platform] : {std::pair<const char*, const char*>{"ROCM_FLASH", "rocm"},
                                          {"IPEX", "xpu"},
                                          {"TORCH_SDPA", "cpu"},
                                          {"PALLAS", "tpu"},
                                          {"OPENVINO", "openvino"}}) {
    out.push_back(
        {std::string("_Backend.") + backend, platform, "", kAttentionBackendEnv, backend});
  }
  for (const char* device : {"cuda", "rocm", "xpu", "cpu", "tpu", "hpu", "neuron", "openvino"}) {
    out.push_back({std::string("\"") + device + "\"", device, "device_type", "", ""});
    out.push_back({std::string("'") + device + "'", device, "device_type", "", ""});
  }
  return out;
}

struct LivenessAnalysis::State {
  State(const std::vector<std::string>& tree, ReadFn r, LivenessFacts f, WordFilterFn w, ForgetFn g,
        std::shared_ptr<StatementCache> t)
      : read(std::move(r)),
        facts(std::move(f)),
        words(w),
        forget(g),
        tables(t),
        index(tree, read, facts, w, g, t) {}
  ReadFn read;
  LivenessFacts facts;
  WordFilterFn words;
  ForgetFn forget;
  std::shared_ptr<StatementCache> tables;  // each file's, shared with the variants
  TreeIndex index;
  Reachability reach;
  // The analysis with a variable of the environment at another value
  // (any value; vLLM's default), made when a verdict first asks; and
  // vLLM's default of each.
  std::map<std::pair<std::string, bool>, std::unique_ptr<State>> variants;
  std::map<std::string, EnvValue> defaults;
  // Answers At() looked up for one site and reuses for the next: the MoE
  // sites share a function and two keys (the reach is settled by then).
  std::map<std::pair<std::string, int>, ReferenceResult> references;
  std::map<std::tuple<std::string, std::string, std::string>, KeyReadResult> key_reads;
  std::optional<Evidence> plugin_loader;  // PluginLoader's answer, once asked
  std::vector<std::string> paths;         // the tree's, for a variant
};

namespace {

// Import lines anywhere in the tree that load `path` (at most four).
std::vector<Evidence> Importers(TreeIndex* index, const Reachability& reach,
                                const std::string& path) {
  std::vector<Evidence> out;
  const std::string* module = index->modules().ModuleOf(path);
  if (module == nullptr) return out;
  std::string last = module->substr(module->rfind('.') + 1);
  for (const std::string& q : index->paths()) {
    if (q == path || out.size() >= 4) continue;
    if (index->Occurrences(q, last).empty()) continue;
    const StatementTable* lines = index->Lines(q);
    if (lines == nullptr) continue;
    for (std::size_t o : index->Occurrences(q, last)) {
      int k = lines->IndexAt(o);
      if (k < 0 || (lines->Keyword(k) != "import" && lines->Keyword(k) != "from")) continue;
      auto stmt = ParseImport(lines->Code(k));
      if (!stmt) continue;
      std::vector<std::string> targets = reach.Targets(q, *stmt);
      if (std::find(targets.begin(), targets.end(), *module) == targets.end()) continue;
      Evidence e = index->At(q, k);
      if (!reach.Reached(q)) e.what += "  [in " + q + ", which is not reached]";
      if (out.empty() || !(out.back() == e)) out.push_back(e);
      break;
    }
  }
  return out;
}

// A string in a reached module that holds `word` and is not prose
// (prose.h): it may name the module to something that loads it (exec, a
// table of plugins).
std::optional<Evidence> StringNaming(TreeIndex* index, const Reachability& reach,
                                     const std::string& word) {
  for (const std::string& q : index->paths()) {
    if (!reach.Reached(q)) continue;
    const std::vector<std::size_t>& occ = index->Occurrences(q, word);
    if (occ.empty()) continue;
    const StatementTable* lines = index->Lines(q);
    if (lines == nullptr) continue;
    for (std::size_t o : occ) {
      if (!lines->InString(o) || InProse(*lines, o)) continue;
      int k = lines->IndexAt(o);
      if (k < 0) continue;
      Evidence e = index->At(q, k);
      e.what = "'" + word +
               "' in a string that may name the module to a loader (exec, a plugin table); "
               "an import statement or import_module call would decide it, a docstring or "
               "message would not count: " +
               e.what;
      return e;
    }
  }
  return std::nullopt;
}

// What would decide the first opaque dynamic import: "; declaring what it
// loads would decide it (liveness: dynamic-imports: - at: FILE:FUNCTION,
// loads: [...])", or nothing when it is no import of a def's.
std::string Declare(const Reachability& reach) {
  for (const Evidence& e : reach.opaque()) {
    std::string at = reach.DeclarationFor(e);
    if (at.empty()) continue;
    return "; declaring what " + e.path + ":" + std::to_string(e.line) +
           " loads would decide it (liveness: dynamic-imports: - at: " + at +
           ", loads: [MODULE, ...])";
  }
  return "";
}

SiteLiveness Verdict(Liveness state, std::string reason, std::vector<Evidence> evidence) {
  SiteLiveness s;
  s.state = state;
  s.reason = std::move(reason);
  s.evidence = std::move(evidence);
  return s;
}

// A dead reason that a dynamic import the analysis cannot follow leaves
// open: unknown, with that import and what would decide it.
SiteLiveness Opened(const std::string& why, std::vector<Evidence> evidence,
                    const Reachability& reach) {
  const Evidence& first = reach.opaque().front();
  evidence.push_back(first);
  return Verdict(Liveness::kUnknown,
                 why + ", but what the analysis cannot follow at " + first.path + ":" +
                     std::to_string(first.line) + " may load code that does" + Declare(reach),
                 std::move(evidence));
}

}  // namespace

LivenessAnalysis::LivenessAnalysis(std::unique_ptr<State> state) : state_(std::move(state)) {}
LivenessAnalysis::LivenessAnalysis(LivenessAnalysis&&) noexcept = default;
LivenessAnalysis& LivenessAnalysis::operator=(LivenessAnalysis&&) noexcept = default;
LivenessAnalysis::~LivenessAnalysis() = default;

LivenessAnalysis LivenessAnalysis::Run(const std::vector<std::string>& py_paths, const ReadFn& read,
                                       const LivenessFacts& facts, WordFilterFn words,
                                       ForgetFn forget, std::shared_ptr<StatementCache> tables) {
  // vLLM's default for each variable a marker rests on: the tree's
  // vllm/envs.py says it; a tree without one has vLLM 0.6's (unset).
  std::map<std::string, EnvValue> defaults;
  for (const PlatformMarker& m : facts.markers) {
    if (m.env.empty() || defaults.count(m.env) != 0) continue;
    EnvValue d;
    d.source = "vLLM's default";
    d.is_default = true;
    if (std::binary_search(py_paths.begin(), py_paths.end(), std::string("vllm/envs.py"))) {
      std::optional<std::string_view> text = read("vllm/envs.py");
      d = text ? EnvDefault(*text, m.env)
               : EnvValue{false, std::nullopt, "vllm/envs.py unread", false, ""};
    }
    defaults[m.env] = d;
  }
  LivenessFacts with = facts;
  for (const auto& [name, d] : defaults) with.environment.emplace(name, d);
  if (!tables) tables = std::make_shared<StatementCache>();
  auto state = std::make_unique<State>(py_paths, read, std::move(with), std::move(words),
                                       std::move(forget), std::move(tables));
  state->defaults = std::move(defaults);
  state->paths = py_paths;
  state->reach = Reachability::Run(&state->index);
  return LivenessAnalysis(std::move(state));
}

std::vector<Assumption> LivenessAnalysis::Assumptions() const {
  return AssumptionsInForce(state_->facts);
}

LivenessAnalysis::State* LivenessAnalysis::Variant(const std::string& env, bool to_default) const {
  std::unique_ptr<State>& v = state_->variants[{env, to_default}];
  if (v) return v.get();
  LivenessFacts facts = WithAny(state_->facts, env);
  if (to_default) {
    auto d = state_->defaults.find(env);
    facts = WithEnv(state_->facts, env,
                    d != state_->defaults.end()
                        ? d->second
                        : EnvValue{true, std::nullopt, "vLLM's default", true, ""});
  }
  // Each forgets what it read (liveness.h).
  v = std::make_unique<State>(state_->paths, state_->read, std::move(facts), state_->words,
                              state_->forget, state_->tables);
  v->reach = Reachability::Run(&v->index);
  return v.get();
}

std::vector<Evidence> LivenessAnalysis::ImportChain(const std::string& path) const {
  std::vector<Evidence> chain;
  std::string at = path;
  for (const Evidence* via = state_->reach.Via(at);
       via != nullptr && !via->path.empty() && chain.size() < 64; via = state_->reach.Via(at)) {
    chain.insert(chain.begin(), *via);
    at = via->path;
  }
  return chain;
}

std::vector<std::string> LivenessAnalysis::UnusedDynamicImports() const {
  std::vector<std::string> out;
  for (const DeclaredDynamicImport& d : state_->facts.dynamic_imports) {
    if (!state_->reach.Used(d))
      out.push_back(d.function.empty() ? d.path : d.path + ":" + d.function);
  }
  return out;
}

std::optional<Evidence> LivenessAnalysis::StoredElsewhere(const std::string& path,
                                                          const std::string& name) const {
  return state_->index.ReboundElsewhere(path, name);
}

std::optional<Evidence> LivenessAnalysis::RebindingElsewhere(const std::string& path,
                                                             const std::string& name) const {
  if (auto by = state_->index.ReboundElsewhere(path, name)) return by;
  // Its module's object used as a value anywhere, run or not (`setattr(m,
  // "_" + k, v)`, `vars(m)`, a registry): a name built at run time may be
  // this one.
  return ModuleEscape(
      &state_->index, [](const std::string&) { return true; }, path);
}

std::optional<Evidence> LivenessAnalysis::CapabilityAnsweredByTree() const {
  double cc = state_->facts.compute_capability;
  if (cc <= 0) return std::nullopt;
  return CapabilityPinned(&state_->index, static_cast<int>(std::lround(cc * 10)));
}

std::vector<ChangedRead> LivenessAnalysis::ChangedReads(const std::string& path,
                                                        std::size_t byte_offset,
                                                        std::size_t end) const {
  State* state = state_.get();
  const StatementTable* lines = state->index.Lines(path);
  if (lines == nullptr) return {};
  std::optional<WriteSite> write = WriteSiteAt(*lines, byte_offset);
  if (!write) return {};
  if (write->key.empty()) {
    // `NAME = value`: the reads of NAME where it is bound, when the site is
    // what NAME holds.
    std::size_t bound = lines->lines()[static_cast<std::size_t>(write->line)].code;
    std::string_view src = lines->src();
    if (end != std::string::npos) {
      std::optional<std::size_t> eq = AssignmentEquals(*lines, write->line);
      const std::size_t rhs = eq ? *eq + 1 : 0;
      const std::size_t rhs_end = lines->lines()[static_cast<std::size_t>(write->line)].code_end;
      if (!eq || byte_offset < rhs || end > rhs_end ||
          !IsBoundValue(src.substr(rhs, rhs_end - rhs), byte_offset - rhs, end - rhs)) {
        return {};
      }
    }
    while (bound < src.size() && (src[bound] == ' ' || src[bound] == '\t')) ++bound;
    return ChangedReadsOfName(&state->index, path, write->var, bound);
  }
  auto key = std::make_tuple(path, write->var, write->key);
  auto it = state->key_reads.find(key);
  if (it == state->key_reads.end()) {
    it = state->key_reads
             .emplace(std::move(key),
                      ReadsOfKey(&state->index, state->reach, path, write->var, write->key))
             .first;
  }
  return it->second.changed;
}

std::optional<Evidence> LivenessAnalysis::MentionedElsewhere(const std::string& path,
                                                             const std::string& word) const {
  TreeIndex& index = state_->index;
  for (const std::string& q : index.paths()) {
    if (q == path) continue;
    const std::vector<std::size_t>& occ = index.Occurrences(q, word);
    if (occ.empty()) continue;
    const StatementTable* lines = index.Lines(q);
    if (lines == nullptr) return Evidence{q, 0, "the file could not be read or parsed"};
    for (std::size_t o : occ) {
      if (lines->InCode(o)) return index.At(q, lines->IndexAt(o));
    }
  }
  return std::nullopt;
}

std::size_t LivenessAnalysis::modules_reached() const { return state_->reach.reached_count(); }

const Evidence& LivenessAnalysis::PluginLoader(State* state) {
  if (state->plugin_loader) return *state->plugin_loader;
  Evidence found;
  for (const std::string& q : state->index.paths()) {
    if (!found.path.empty() || !state->reach.Reached(q)) continue;
    bool lexed = state->index.Lexed(q);
    for (const char* word : {"entry_points", "iter_entry_points"}) {
      const StatementTable* lines = nullptr;
      for (std::size_t o : state->index.Occurrences(q, word)) {
        if (lines == nullptr) lines = state->index.Lines(q);
        if (lines == nullptr || !lines->InCode(o) || !found.path.empty()) continue;
        int k = lines->IndexAt(o);
        if (k < 0 || lines->Keyword(k) == "import" || lines->Keyword(k) == "from") continue;
        found = state->index.At(q, k);
      }
    }
    if (!lexed) state->index.Drop(q);  // one file at a time over a large tree
  }
  state->plugin_loader = found;
  return *state->plugin_loader;
}

SiteLiveness LivenessAnalysis::At(const std::string& path, std::size_t offset,
                                  bool name_assumptions) const {
  SiteLiveness v = Single(state_.get(), path, offset);
  if (!name_assumptions) return v;
  // An assumption some condition rested on (a variable, or the platform
  // with its capability): a dead verdict rests on it when the analysis
  // with it at any value finds the site not dead; another verdict rests on
  // a variable's declared value when vLLM's default would make it dead.
  std::set<std::string> consulted = state_->index.consulted();
  std::vector<std::string> assumed;  // by this comparison
  bool variable_assumed = false;     // a variable of the environment among them
  for (const std::string& env : consulted) {
    auto declared = state_->facts.environment.find(env);
    bool is_default =
        env[0] == '@' || declared == state_->facts.environment.end() || declared->second.is_default;
    if (v.state != Liveness::kDead && is_default) continue;
    State* other = Variant(env, v.state != Liveness::kDead);
    SiteLiveness w = Single(other, path, offset);
    if ((v.state == Liveness::kDead) == (w.state == Liveness::kDead)) continue;
    std::string text = AssumptionText(state_->facts, env);
    v.assumptions.push_back(text);
    if (v.state == Liveness::kDead) {
      assumed.push_back(text);
      variable_assumed = variable_assumed || env[0] != '@';
    } else if (w.state == Liveness::kDead) {
      v.reason += "; " + text + " makes it so: with " + EnvText(other->facts, env) + " it is dead";
    }
  }
  // A variable's default holds only if what the tree writes into the
  // environment by its callers' keys (`for k, v in envs.items():
  // os.environ[k] = v`) copies the process's own (vLLM's executors pass
  // their own environment to their workers): stated, with where.
  const std::vector<Evidence>& copies = state_->index.caller_key_writes();
  if (variable_assumed && !copies.empty()) {
    std::string where;
    for (const Evidence& e : copies) {
      where += (where.empty() ? "" : ", ") + e.path + ":" + std::to_string(e.line);
    }
    std::string text = "the environment the tree writes by its callers' keys (" + where +
                       ") copies the serving process's own";
    v.assumptions.push_back(text);
    assumed.push_back(text);
  }
  for (std::size_t i = 0; i < assumed.size(); ++i) {
    v.reason += (i == 0 ? "; assuming " : i + 1 == assumed.size() ? " and " : ", ") + assumed[i];
  }
  return v;
}

SiteLiveness LivenessAnalysis::Single(State* state, const std::string& path, std::size_t offset) {
  SiteLiveness v = Proved(state, path, offset);
  if (v.state != Liveness::kDead) return v;
  // What a plugin cannot change: code after an unconditional exit, a value
  // its own function overwrites on every path, a branch the platform or the
  // capability decides. A plugin may import a module, call a function, read
  // a key or rebind a flag.
  auto starts = [&v](std::string_view p) { return v.reason.rfind(p, 0) == 0; };
  bool by_facts = starts("in a branch never taken: ") &&
                  (v.reason.find(" on " + state->facts.platform) != std::string::npos ||
                   v.reason.find("at compute capability") != std::string::npos);
  if (starts("unreachable:") || starts("overwritten") || by_facts) return v;
  const Evidence& loader = PluginLoader(state);
  if (loader.path.empty()) return v;
  std::string plugins = PluginsText(state->facts);
  v.assumptions.push_back(plugins);
  Evidence e = loader;
  if (!state->facts.plugins.empty()) {
    // An installed plugin runs any code: nothing it could overturn is dead.
    v.state = Liveness::kUnknown;
    v.reason += "; but with " + plugins + ", " + loader.path + ":" + std::to_string(loader.line) +
                " loads them, and a plugin may import, call or rebind anything";
    e.what = "declared: " + plugins + ": " + e.what;
    v.evidence.push_back(std::move(e));
    return v;
  }
  v.reason += "; assuming " + plugins + ", since " + loader.path + ":" +
              std::to_string(loader.line) + " loads every installed entry point";
  e.what = "assumed: no entry point installed for the loader: " + e.what;
  v.evidence.push_back(std::move(e));
  return v;
}

SiteLiveness LivenessAnalysis::Proved(State* state, const std::string& path, std::size_t offset) {
  TreeIndex* index = &state->index;
  const Reachability& reach = state->reach;
  const StatementTable* lines = index->Lines(path);
  if (lines == nullptr) {
    return Verdict(Liveness::kUnknown, "the file could not be read or lexed", {{path, 0, ""}});
  }
  int k = lines->IndexAt(offset);
  if (k < 0) return Verdict(Liveness::kUnknown, "no statement at this offset", {});
  Evidence here = index->At(path, k);

  // Local reasons.
  if (auto exit = index->AfterExit(path, k)) {
    return Verdict(Liveness::kDead,
                   "unreachable: it follows an unconditional " +
                       std::string(lines->Keyword(*exit)) + " in its block",
                   {index->At(path, *exit), here});
  }
  LineGuard guard = index->Guard(path, k);
  if (guard.value == Tri::kFalse) {
    return Verdict(Liveness::kDead, "in a branch never taken: " + guard.why, guard.evidence);
  }
  auto write = WriteSiteAt(*lines, offset);
  if (auto eq = AssignmentEquals(*lines, k); eq && offset > *eq) {
    const LogicalLine& l = lines->lines()[static_cast<std::size_t>(k)];
    ConditionContext ctx = index->ConditionsIn(path);
    std::string_view value = lines->src().substr(*eq + 1, l.code_end - *eq - 1);
    ConditionResult taken = BranchTaken(value, offset - *eq - 1, ctx);
    if (taken.value == Tri::kFalse) {
      std::vector<Evidence> ev{here};
      ev.insert(ev.end(), taken.evidence.begin(), taken.evidence.end());
      return Verdict(Liveness::kDead, "in a branch never taken: " + taken.why, ev);
    }
  }
  if (write) {
    OverwriteResult over = Overwritten(index, path, *write);
    if (over.dead) {
      std::vector<Evidence> ev{here};
      ev.insert(ev.end(), over.evidence.begin(), over.evidence.end());
      return Verdict(Liveness::kDead, over.why, ev);
    }
  }

  // Imports.
  if (!reach.entry_found()) {
    return Verdict(Liveness::kUnknown,
                   "the entry module " + state->facts.entry_module + " is not in the tree", {});
  }
  bool open = !reach.opaque().empty();
  if (!reach.Reached(path)) {
    if (const std::string* module = index->modules().ModuleOf(path)) {
      std::string last = module->substr(module->rfind('.') + 1);
      if (auto named = StringNaming(index, reach, last)) {
        return Verdict(Liveness::kUnknown,
                       "no import reaches it, but a string in a module that runs names it",
                       {*named});
      }
    }
    if (open) {
      return Verdict(Liveness::kUnknown,
                     "no import reaches it, but a dynamic import the analysis cannot follow may "
                     "load it" +
                         Declare(reach),
                     reach.opaque());
    }
    if (const std::vector<BlockedImport>* blocked = reach.Blocked(path)) {
      std::string why = "not imported when serving: " + blocked->front().why;
      std::vector<Evidence> ev;
      for (const BlockedImport& b : *blocked) {
        ev.insert(ev.end(), b.evidence.begin(), b.evidence.end());
      }
      if (blocked->size() > 1) why += " (and " + std::to_string(blocked->size() - 1) + " more)";
      if (ev.size() > 8) ev.resize(8);
      return Verdict(Liveness::kDead, why, ev);
    }
    std::vector<Evidence> ev{here};
    std::vector<Evidence> importers = Importers(index, reach, path);
    ev.insert(ev.end(), importers.begin(), importers.end());
    return Verdict(Liveness::kDead,
                   "not imported when serving: no module reached from " +
                       state->facts.entry_module + " imports it",
                   ev);
  }

  // References.
  bool in_function = false;
  int unit = index->OutermostUnit(path, k, &in_function);
  if (unit >= 0 && in_function) {
    auto it = state->references.find({path, unit});
    if (it == state->references.end()) {
      References refs(index, [&reach](const std::string& p) { return reach.Reached(p); });
      it = state->references.emplace(std::make_pair(path, unit), refs.Of(path, unit)).first;
    }
    const ReferenceResult& used = it->second;
    if (used.referenced == Tri::kFalse) {
      if (open) return Opened(used.why, used.evidence, reach);
      return Verdict(Liveness::kDead, used.why, used.evidence);
    }
    if (used.referenced == Tri::kUnknown) {
      return Verdict(Liveness::kUnknown, used.why, used.evidence);
    }
  }

  // Keys.
  if (write && !write->key.empty()) {
    auto key = std::make_tuple(path, write->var, write->key);
    auto it = state->key_reads.find(key);
    if (it == state->key_reads.end()) {
      it = state->key_reads
               .emplace(std::move(key), ReadsOfKey(index, reach, path, write->var, write->key))
               .first;
    }
    const KeyReadResult& keys = it->second;
    if (keys.read == Tri::kFalse) {
      std::vector<Evidence> ev{here};
      ev.insert(ev.end(), keys.evidence.begin(), keys.evidence.end());
      if (open) return Opened(keys.why, ev, reach);
      return Verdict(Liveness::kDead, keys.why, ev);
    }
    if (keys.read == Tri::kUnknown) return Verdict(Liveness::kUnknown, keys.why, keys.evidence);
  }

  std::vector<Evidence> ev{here};
  if (const ReachDoubt* doubt = reach.Doubted(path)) {
    ev.insert(ev.end(), doubt->evidence.begin(), doubt->evidence.end());
    return Verdict(
        Liveness::kUnknown,
        "reached from " + state->facts.entry_module + " only if its import runs: " + doubt->why,
        ev);
  }
  if (const Evidence* via = reach.Via(path); via != nullptr && !via->path.empty()) {
    ev.push_back(*via);
  }
  return Verdict(Liveness::kLive, "reached from " + state->facts.entry_module + ", and runs", ev);
}

}  // namespace muh
