#include "engine/model/model_values.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>

#include "engine/model/fact_domain.h"
#include "engine/model/knobs.h"
#include "engine/model/moe_knobs.h"
#include "engine/python/py_literal.h"

namespace muh {

Value ValueOf(const Derivation& d) {
  Value v;
  v.text = d.value;
  v.why = FormatDerivation(d, 0);
  v.warnings = d.warnings;
  v.error = d.error;
  return v;
}

namespace {

// A quantity that depends on another that has no value: its error says so.
Derivation Dependent(const std::string& quantity, const Derivation& on) {
  Derivation d = NewDerivation(quantity, "");
  d.error = fmt::format("depends on {}, which has no value: {}", on.quantity, on.error);
  return d;
}

}  // namespace

ModelValues::ModelValues(Profile profile, Workload workload, std::vector<SearchSpace> spaces,
                         std::shared_ptr<const MeasuredKnobs> measured)
    : profile_(std::move(profile)), workload_(std::move(workload)), measured_(std::move(measured)) {
  const Profile& p = profile_;
  const Workload& w = workload_;
  inputs_ = InputValues(p, w);
  Add(DeriveSmemLimitBytes(p));
  Add(DeriveSmemLimitKib(p));
  Add(DeriveStageLimit(p));
  Add(DerivePartitionSize(p, w));
  Add(DeriveV1MaxContext(p, w));
  Add(DeriveV1MinWork(p, w));
  Derivation block = Measure(DerivePrefixBlock(p, w));
  Add(block);
  Add(block.error.empty() ? DerivePrefixNumWarps(p, w, std::stoll(block.value))
                          : Dependent("prefix_num_warps_below_sm80", block));
  int64_t experts = w.Get("num_experts");
  int64_t topk = w.Get("topk");
  int64_t max_pairs = MoeMaxPairs(w);
  Add(DeriveMoeBlockM(p, w, w.Get("moe_medium_tier_max"), max_pairs, "moe_block_m_large_tier",
                      "the final `else` tier: above moe_medium_tier_max, up to "
                      "max_batched_tokens * topk"));
  // The default dict serves more than E tokens; the M <= E dict at most E.
  Derivation def = Measure(DeriveMoeBlockM(p, w, experts * topk, max_pairs, "moe_default_block_m",
                                           "the default dict: more than num_experts tokens"));
  Add(def);
  Derivation small =
      Measure(DeriveMoeBlockM(p, w, topk - 1, std::min(experts, w.Get("max_batched_tokens")) * topk,
                              "moe_small_block_m", "the M <= E dict: 1 to num_experts tokens"));
  Add(small);
  for (char which : {'n', 'k'}) {
    std::string name = fmt::format("moe_default_block_{}", which);
    Add(def.error.empty() ? DeriveMoeBlockNK(p, w, std::stoll(def.value), experts + 1, name, which)
                          : Dependent(name, def));
  }
  for (char which : {'n', 'k'}) {
    std::string name = fmt::format("moe_small_block_{}", which);
    Add(small.error.empty() ? DeriveMoeBlockNK(p, w, std::stoll(small.value), 1, name, which)
                            : Dependent(name, small));
  }
  for (const SearchSpace& space : spaces) {
    AutotuneResult r = DeriveAutotune(p, w, space);
    Value v = ValueOf(r.derivation);
    v.is_list = true;
    v.text.clear();
    for (const AutotuneCandidate& c : r.selected) {
      v.entries.push_back(c.entry);
      v.entries.back().ignored = space.ignored;
    }
    values_[space.name] = std::move(v);
    autotune_.emplace(space.name, std::move(r));
  }
}

void ModelValues::Add(const Derivation& given) {
  Derivation d = Measure(given);
  derivations_.push_back(d);
  values_[d.quantity] = ValueOf(d);
}

Derivation ModelValues::Measure(Derivation d) const {
  if (!measured_ || !d.measured.empty()) return d;
  auto matches = [this](const std::string& entry, const std::string& value) {
    return PointMatches(entry, value);
  };
  auto usable = [this](const KnobMeasurement& k) { return DomainProblem(k.knob, k.value).empty(); };
  std::optional<MeasuredChoice> choice =
      ChooseMeasured(measured_->data, d.quantity, matches, usable);
  if (!choice) return d;
  const KnobMeasurement& best = *choice->fastest;
  std::string others;
  for (const KnobMeasurement* c : choice->candidates) {
    if (c == &best) continue;
    std::string outside = c->status == "ok" ? DomainProblem(c->knob, c->value) : "";
    others += fmt::format("; {}: {}{}", c->value,
                          c->status == "ok" ? FormatNumber(c->us) + " us" : c->status,
                          outside.empty() ? "" : " (refused: " + outside + ")");
  }
  d.model_value = d.error.empty() ? d.value : "(none: " + d.error + ")";
  d.measured = fmt::format(
      "{}, knobs row {}: {} ran in {} us at {}, the fastest of the {} "
      "candidates measured there{}",
      measured_->path, best.row, best.value, FormatNumber(best.us), choice->point,
      choice->candidates.size(), others);
  d.value = best.value;
  d.error.clear();
  d.warnings.clear();  // the value rests on the measurement, not on the facts
  return d;
}

bool ModelValues::PointMatches(const std::string& entry, const std::string& value) const {
  // `dtype` is written by name and kept in bytes.
  std::string key = entry == "dtype" ? "dtype_bytes" : entry;
  Workload w = workload_;
  std::string ignored;
  return w.Find(key) != nullptr && w.Set(entry, value, &ignored) &&
         w.Get(key) == workload_.Get(key);
}

bool ModelValues::TierVariable(const std::string& knob, const std::string& entry) {
  return knob == kMoeTierKnob && entry == "numel";
}

std::string ModelValues::MalformedRow(KnobMeasurement* row) {
  std::optional<std::string> v = CanonicalLiteral(row->value);
  std::string digits = v && !v->empty() && (*v)[0] == '-' ? v->substr(1) : v.value_or("");
  if (digits.empty() || digits.size() > 18 ||
      digits.find_first_not_of("0123456789") != std::string::npos) {
    return fmt::format("value '{}' does not parse as an integer, the type of {}", row->value,
                       row->knob);
  }
  row->value = *v;
  if (row->knob != kMoeTierKnob) return "";
  for (const auto& [entry, value] : row->point) {
    if (!TierVariable(row->knob, entry)) continue;
    if (!value.empty() && value.size() < 16 &&
        value.find_first_not_of("0123456789") == std::string::npos) {
      return "";
    }
    return fmt::format("point: 'numel' must be a whole number of token-expert pairs, got '{}'",
                       value);
  }
  return fmt::format("point: {} needs 'numel', the token-expert pairs its candidates were timed at",
                     row->knob);
}

namespace {

// "1-4, 7": row numbers, ascending, as ranges.
std::string RowRanges(const std::vector<int>& rows) {
  std::string out;
  for (std::size_t i = 0; i < rows.size();) {
    std::size_t j = i;
    while (j + 1 < rows.size() && rows[j + 1] == rows[j] + 1) ++j;
    out += (out.empty() ? "" : ", ") +
           (i == j ? std::to_string(rows[i]) : fmt::format("{}-{}", rows[i], rows[j]));
    i = j + 1;
  }
  return out;
}

}  // namespace

std::vector<Diagnostic> ModelValues::UnusedMeasurements() const {
  std::vector<Diagnostic> out;
  if (!measured_) return out;
  struct Group {
    std::string rows_side, deployment_side;
    std::vector<const KnobMeasurement*> rows;
    std::vector<std::string> knobs;
  };
  std::vector<Group> groups;
  std::set<std::string> fitting;  // knobs with a row whose point fits
  for (const KnobMeasurement& k : measured_->data.knobs) {
    std::string rows_side, deployment_side;
    for (const auto& [entry, value] : k.point) {
      if (TierVariable(k.knob, entry) || PointMatches(entry, value)) continue;
      std::string key = entry == "dtype" ? "dtype_bytes" : entry;
      const WorkloadItem* item = workload_.Find(key);
      std::string mine = item == nullptr ? "?" : std::to_string(item->value);
      if (entry == "dtype" && item != nullptr) {
        mine = item->value == 4 ? "float32" : "float16/bfloat16";
      }
      rows_side += fmt::format("{}{} {}", rows_side.empty() ? "" : ", ", entry, value);
      deployment_side += fmt::format("{}{} {}", deployment_side.empty() ? "" : ", ", entry, mine);
    }
    if (rows_side.empty()) {
      fitting.insert(k.knob);
      continue;
    }
    auto g = std::find_if(groups.begin(), groups.end(),
                          [&](const Group& x) { return x.rows_side == rows_side; });
    if (g == groups.end())
      g = groups.insert(groups.end(), Group{rows_side, deployment_side, {}, {}});
    g->rows.push_back(&k);
    if (std::find(g->knobs.begin(), g->knobs.end(), k.knob) == g->knobs.end()) {
      g->knobs.push_back(k.knob);
    }
  }
  for (const Group& g : groups) {
    std::vector<int> rows;
    std::vector<std::string> unfit;
    for (const KnobMeasurement* k : g.rows) rows.push_back(k->row);
    for (const std::string& knob : g.knobs) {
      if (fitting.count(knob) == 0) unfit.push_back(knob);
    }
    Diagnostic d{measured_->path, g.rows[0]->line, g.rows[0]->column,
                 unfit.empty() ? Severity::kNote : Severity::kWarning, ""};
    d.message = fmt::format(
        "knobs row{} {} ({}) {} for {}, the deployment for {}: not used{}",
        rows.size() == 1 ? "" : "s", RowRanges(rows), fmt::join(g.knobs, ", "),
        rows.size() == 1 ? "is" : "are", g.rows_side, g.deployment_side,
        unfit.empty() ? ""
                      : fmt::format("; no row fits the deployment, so the model decides {}",
                                    fmt::join(unfit, ", ")));
    out.push_back(std::move(d));
  }
  return out;
}

std::string ModelValues::DomainProblem(std::string_view knob, const std::string& value) const {
  if (IsInputName(knob)) return InputDomainProblem(knob, value);
  bool moe_m = knob == kMoeTierKnob || knob == "moe_default_block_m" ||
               knob == "moe_small_block_m" || knob == "moe_block_m_large_tier" ||
               knob.rfind("moe_block_m_for_numel", 0) == 0;
  bool smem = knob == "smem_limit_kib" || knob == "smem_limit_bytes";
  bool moe_nk = knob == "moe_default_block_n" || knob == "moe_default_block_k" ||
                knob == "moe_small_block_n" || knob == "moe_small_block_k";
  bool warps = knob == "prefix_num_warps_below_sm80";
  bool partition = knob == "partition_size";
  bool count = knob == "v1_max_context" || knob == "v1_min_work";
  if (!moe_m && !smem && !moe_nk && !warps && !partition && !count &&
      knob != "prefix_block_below_sm80") {
    return "";
  }
  std::optional<std::string> v = CanonicalLiteral(value);
  // Whoever chose it (a hand-tuned value kept, a pin), a value that reaches
  // the kernel is checked: one muhpatch cannot evaluate proves nothing.
  if (!v || v->empty()) {
    return fmt::format(
        "'{}' is no constant muhpatch can evaluate, so nothing shows the kernel "
        "takes it",
        value);
  }
  bool whole =
      !v->empty() && v->size() < 16 && v->find_first_not_of("0123456789") == std::string::npos;
  int64_t n = whole ? std::stoll(*v) : 0;
  auto power_of_two = [&](int64_t lo, int64_t hi) {
    return whole && n >= lo && n <= hi && (n & (n - 1)) == 0;
  };
  if (moe_nk) {
    if (power_of_two(kMinDotSize, 256)) return "";
    return fmt::format(
        "{} is not a power of two from {} to 256, the block sizes the fused-MoE "
        "kernel's tl.dot takes",
        value, kMinDotSize);
  }
  if (warps) {
    int64_t most = static_cast<int64_t>(profile_.Get("max_threads_per_block")) /
                   static_cast<int64_t>(profile_.Get("warp_size"));
    if (power_of_two(1, most)) return "";
    return fmt::format(
        "{} is not a power of two from 1 to {} (warp_size {} threads a warp, at "
        "most max_threads_per_block)",
        value, most, static_cast<int64_t>(profile_.Get("warp_size")));
  }
  if (partition) {
    int64_t prebuilt = static_cast<int64_t>(profile_.Get("prebuilt_partition_size"));
    if (prebuilt > 0 && whole && n == prebuilt) return "";
    if (prebuilt > 0) {
      return fmt::format(
          "the prebuilt paged_attention_v2_launcher takes {} tokens per partition "
          "(prebuilt_partition_size), not {}",
          prebuilt, value);
    }
    if (power_of_two(256, 8192)) return "";
    return fmt::format("{} is not a power of two from 256 to 8192 tokens", value);
  }
  if (count) {
    if (whole && n >= 1) return "";
    return fmt::format("{} is not a whole number of at least 1", value);
  }
  if (smem) {
    // The site's value: what the function returns, in bytes.
    std::string outside =
        whole ? FactDomainProblem("smem_per_block", static_cast<double>(std::stoll(*v)))
              : "it must be a whole number of bytes";
    if (outside.empty()) return "";
    return fmt::format("a shared-memory limit of {} bytes is no card's: {}", *v, outside);
  }
  if (moe_m) {
    if (n >= 16 && n <= 256 && (n & (n - 1)) == 0) return "";
    return fmt::format(
        "{} is not a power of two from 16 to 256, the BLOCK_SIZE_M values the fused-MoE kernel "
        "takes",
        value);
  }
  if (!whole) return fmt::format("{} is not a whole number", value);
  return PrefixBlockProblem(profile_, workload_, std::stoll(*v));
}

std::vector<std::string> ModelValues::AccountedTransforms(std::string_view knob) const {
  // PrefixBlockProblem checks the fp32 path's half-tile as well.
  if (knob == "prefix_block_below_sm80") return {"// 2"};
  return {};
}

std::vector<Diagnostic> ModelValues::RefusedMeasurements() const {
  std::vector<Diagnostic> out;
  if (!measured_) return out;
  for (const KnobMeasurement& k : measured_->data.knobs) {
    if (k.status != "ok") continue;
    bool fits = true;
    for (const auto& [entry, value] : k.point) {
      fits = fits && (TierVariable(k.knob, entry) || PointMatches(entry, value));
    }
    std::string why = fits ? DomainProblem(k.knob, k.value) : "";
    if (why.empty()) continue;
    out.push_back(Diagnostic{measured_->path, k.line, k.column, Severity::kNote,
                             fmt::format("knobs row {}: {} candidate {} is refused: {}; the "
                                         "fastest candidate the kernel takes counts instead",
                                         k.row, k.knob, k.value, why)});
  }
  return out;
}

MoeTierMeasurements ModelValues::TierPoints() const {
  MoeTierMeasurements out;
  if (!measured_) return out;
  out.path = measured_->path;
  std::map<int64_t, TierPoint> points;
  for (const KnobMeasurement& k : measured_->data.knobs) {
    if (k.knob != kMoeTierKnob || k.status != "ok" || !DomainProblem(k.knob, k.value).empty()) {
      continue;
    }
    std::optional<int64_t> at;
    bool holds = true;
    for (const auto& [entry, value] : k.point) {
      if (TierVariable(k.knob, entry)) {
        if (!value.empty() && value.size() < 16 &&
            value.find_first_not_of("0123456789") == std::string::npos) {
          at = std::stoll(value);
        }
      } else {
        holds = holds && PointMatches(entry, value);
      }
    }
    if (!at || !holds) continue;
    TierPoint& p = points[*at];
    p.at = *at;
    auto same =
        std::find_if(p.us.begin(), p.us.end(), [&](const auto& c) { return c.first == k.value; });
    if (same == p.us.end()) {
      p.us.emplace_back(k.value, k.us);
    } else {
      same->second = std::min(same->second, k.us);
    }
  }
  for (auto& [at, p] : points) out.points.push_back(std::move(p));
  return out;
}

void ModelValues::DeclareTierChain(const TierChainShape& chain) {
  MoeTierMeasurements m = TierPoints();
  MoeTierFamily f = DeriveMoeTiers(profile_, workload_, chain, measured_ ? &m : nullptr);
  for (const std::vector<Derivation>* part : {&f.values, &f.bounds}) {
    for (const Derivation& d : *part) {
      derivations_.push_back(d);
      values_[d.quantity] = ValueOf(d);
    }
  }
}

bool ModelValues::Measurable(const std::string& knob) const {
  if (knob == kMoeTierKnob) return true;
  if (values_.count(knob) != 0 && !values_.find(knob)->second.is_list) return true;
  for (const std::string& f : Functions()) {
    if (knob.rfind(f + "(", 0) == 0 && knob.back() == ')') return true;
  }
  return false;
}

const Value* ModelValues::Find(std::string_view name) const {
  auto it = values_.find(name);
  if (it != values_.end()) return &it->second;
  it = inputs_.find(name);
  return it == inputs_.end() ? nullptr : &it->second;
}

std::vector<std::string> ModelValues::InputNames() const {
  std::vector<std::string> names;
  for (const auto& [k, v] : inputs_) names.push_back(k);
  return names;
}

std::vector<std::string> ModelValues::Names() const {
  std::vector<std::string> names;
  for (const auto& [k, v] : values_) names.push_back(k);
  return names;
}

std::vector<std::string> ModelValues::Functions() const {
  return {"moe_block_m_for_numel", "moe_block_m_tier", "moe_tier_bound"};
}

std::optional<Value> ModelValues::Call(std::string_view name,
                                       const std::vector<std::string>& args) const {
  if (name == kMoeTierKnob || name == kMoeTierBoundKnob) return CallTier(name, args);
  if (name != "moe_block_m_for_numel") return std::nullopt;
  Value v;
  std::optional<std::string> bound = args.size() == 1 ? CanonicalLiteral(args[0]) : std::nullopt;
  if (!bound || bound->empty() || !std::isdigit(static_cast<unsigned char>((*bound)[0]))) {
    v.error = "moe_block_m_for_numel needs one captured integer (the tier's numel bound)";
    return v;
  }
  if (bound->size() > 12) {
    v.error = "moe_block_m_for_numel: the tier bound " + *bound + " is out of range";
    return v;
  }
  return ValueOf(Measure(DeriveMoeTierBlockM(profile_, workload_, std::stoll(*bound),
                                             "moe_block_m_for_numel(" + *bound + ")")));
}

std::optional<Value> ModelValues::CallTier(std::string_view name,
                                           const std::vector<std::string>& args) const {
  Value v;
  TierChainShape chain;
  std::string error;
  std::size_t index = 0;
  if (args.size() != 2 || args[0].empty() || args[0].size() > 3 ||
      args[0].find_first_not_of("0123456789") != std::string::npos) {
    v.error = fmt::format("{} needs @tier and @bounds, the captures a `tiers:` rule gives", name);
    return v;
  }
  index = std::stoul(args[0]);
  if (!ParseTierChain(args[1], &chain, &error)) {
    v.error = fmt::format("{}: {}", name, error);
    return v;
  }
  MoeTierMeasurements m = TierPoints();
  MoeTierFamily f = DeriveMoeTiers(profile_, workload_, chain, measured_ ? &m : nullptr);
  const std::vector<Derivation>& part = name == kMoeTierKnob ? f.values : f.bounds;
  if (index == 0 || index > part.size()) {
    v.error = fmt::format("{}: no tier {} in a chain of {}", name, index, part.size());
    return v;
  }
  return ValueOf(part[index - 1]);
}

}  // namespace muh
