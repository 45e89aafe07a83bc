#include "engine/model/measurements.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "engine/base/source_text.h"
#include "engine/model/json_rows.h"

namespace muh {

namespace {

using nlohmann::json;

// A knobs row that is malformed: the exception carries its row's number.
struct RowError : std::runtime_error {
  RowError(int n, const std::string& what)
      : std::runtime_error(fmt::format("knobs row {}: {}", n, what)), row(n) {}
  int row;
};

// The faster of `us` and `us_rep`, each a positive number when present.
double RowTime(const json& row, const std::map<std::string, std::size_t>& col, int n) {
  const json& us = row.at(col.at("us"));
  const json& rep = row.at(col.at("us_rep"));
  if (!us.is_number() || us.get<double>() <= 0) {
    throw RowError(n, fmt::format("an 'ok' row needs a positive time in 'us', got {}", us.dump()));
  }
  double t = us.get<double>();
  if (rep.is_null() || &rep == &us) return t;
  if (!rep.is_number() || rep.get<double>() <= 0) {
    throw RowError(n, fmt::format("'us_rep' must be a positive time or null, got {}", rep.dump()));
  }
  return std::min(t, rep.get<double>());
}

// Column name -> index, from the document's `columns` section.
std::map<std::string, std::size_t> Columns(const json& names) {
  std::map<std::string, std::size_t> out;
  for (std::size_t i = 0; i < names.size(); ++i) out[names[i].get<std::string>()] = i;
  return out;
}

double Time(const json& row, const std::map<std::string, std::size_t>& col) {
  const json& us = row.at(col.at("us"));
  const json& rep = row.at(col.at("us_rep"));
  if (!us.is_number()) return 0;
  double t = us.get<double>();
  // The runs agree to 0.64% (median) but differ by up to 5% at the 99th
  // percentile: the faster of the two is the tile's time.
  if (rep.is_number()) t = std::min(t, rep.get<double>());
  return t;
}

int64_t Int(const json& row, const std::map<std::string, std::size_t>& col, const char* name) {
  const json& v = row.at(col.at(name));
  return v.is_number() ? v.get<int64_t>() : 0;
}

// A cell as Python source text: a number as written, a string as it is.
std::string Text(const json& cell, const char* what, int row) {
  if (cell.is_string()) return cell.get<std::string>();
  if (cell.is_number_integer()) return std::to_string(cell.get<int64_t>());
  if (cell.is_number()) return cell.dump();
  if (cell.is_boolean()) return cell.get<bool>() ? "True" : "False";
  throw RowError(row, fmt::format("'{}' must be a number or a string, got {}", what, cell.dump()));
}

void ParseKnobs(const json& doc, const std::string& text, Measurements* out) {
  auto kc = Columns(doc.at("columns").at("knobs"));
  for (const char* need : {"knob", "point", "value", "status", "us"}) {
    if (kc.count(need) == 0) {
      throw std::runtime_error(fmt::format("columns.knobs has no '{}' column", need));
    }
  }
  if (kc.count("us_rep") == 0) kc["us_rep"] = kc.at("us");
  std::size_t cells = 0;
  for (const auto& [name, at] : kc) cells = std::max(cells, at + 1);
  int n = 0;
  for (const json& row : doc.at("knobs")) {
    ++n;
    if (!row.is_array() || row.size() < cells) {
      throw RowError(n, fmt::format("not a list of {} cells", cells));
    }
    KnobMeasurement m;
    m.row = n;
    if (!row.at(kc.at("knob")).is_string()) throw RowError(n, "'knob' must be a string");
    m.knob = row.at(kc.at("knob")).get<std::string>();
    const json& point = row.at(kc.at("point"));
    if (!point.is_object()) throw RowError(n, "'point' must be an object of workload entries");
    for (const auto& [k, v] : point.items()) m.point.emplace_back(k, Text(v, k.c_str(), n));
    std::sort(m.point.begin(), m.point.end());
    m.value = Text(row.at(kc.at("value")), "value", n);
    if (!row.at(kc.at("status")).is_string()) throw RowError(n, "'status' must be a string");
    m.status = row.at(kc.at("status")).get<std::string>();
    m.us = m.status == "ok" ? RowTime(row, kc, n) : 0;
    out->knobs.push_back(std::move(m));
  }
  // Where each row starts, for the messages that name a row.
  std::vector<std::size_t> at = ArrayElementOffsets(text, "knobs");
  SourceText source("", text);
  for (KnobMeasurement& m : out->knobs) {
    if (static_cast<std::size_t>(m.row) > at.size()) break;
    Position p = source.PositionOf(at[m.row - 1]);
    m.line = p.line;
    m.column = p.column;
  }
}

}  // namespace

std::optional<MeasuredChoice> ChooseMeasured(const Measurements& m, std::string_view knob,
                                             const PointMatcher& matches,
                                             const CandidateFilter& usable) {
  const std::vector<std::pair<std::string, std::string>>* best = nullptr;
  for (const KnobMeasurement& k : m.knobs) {
    if (k.knob != knob) continue;
    bool fits = true;
    for (const auto& [entry, value] : k.point) fits = fits && matches(entry, value);
    if (fits && (best == nullptr || k.point.size() > best->size())) best = &k.point;
  }
  if (best == nullptr) return std::nullopt;
  MeasuredChoice out;
  for (const KnobMeasurement& k : m.knobs) {
    if (k.knob != knob || k.point != *best) continue;
    out.candidates.push_back(&k);
    if (k.status != "ok" || (usable && !usable(k))) continue;
    if (out.fastest == nullptr || k.us < out.fastest->us) out.fastest = &k;
  }
  if (out.fastest == nullptr) return std::nullopt;
  for (const auto& [entry, value] : *best) {
    out.point += (out.point.empty() ? "" : ", ") + entry + "=" + value;
  }
  if (out.point.empty()) out.point = "any workload";
  return out;
}

bool ParseMeasurements(const std::string& text, Measurements* out, MeasurementsError* error) {
  *error = MeasurementsError{};
  try {
    json doc = json::parse(text);
    if (doc.value("format", "") != "muhpatch-probe/1") {
      error->message = "not a muhpatch-probe/1 document";
      return false;
    }
    out->device = doc.value("device", "");
    if (doc.contains("knobs")) ParseKnobs(doc, text, out);
    if (!doc.contains("attention") && !doc.contains("moe")) {
      if (!doc.contains("knobs")) {
        error->message = "the document has no 'attention', 'moe' or 'knobs' rows";
        return false;
      }
      return true;
    }
    const json& attn = doc.at("setup").at("attention");
    out->num_q_heads = attn.at("num_q_heads").get<int64_t>();
    out->num_kv_heads = attn.at("num_kv_heads").get<int64_t>();
    out->tokens_per_group = attn.at("tokens_per_group").get<int64_t>();
    const json& moe = doc.at("setup").at("moe");
    out->moe_experts = moe.at("E").get<int64_t>();
    out->moe_topk = moe.at("topk").get<int64_t>();
    auto ac = Columns(doc.at("columns").at("attention"));
    for (const json& row : doc.at("attention")) {
      AttentionMeasurement m;
      m.head_dim = Int(row, ac, "D");
      m.seq_len = Int(row, ac, "L");
      m.block_m = Int(row, ac, "BM");
      m.block_n = Int(row, ac, "BN");
      m.warps = Int(row, ac, "w");
      m.stages = Int(row, ac, "s");
      m.pre_load_v = row.at(ac.at("plv")).get<bool>();
      m.status = row.at(ac.at("status")).get<std::string>();
      m.shared = Int(row, ac, "shared");
      m.regs = Int(row, ac, "regs");
      m.spills = Int(row, ac, "spills");
      m.us = m.status == "ok" ? Time(row, ac) : 0;
      out->attention.push_back(m);
    }
    auto mc = Columns(doc.at("columns").at("moe"));
    for (const json& row : doc.at("moe")) {
      MoeMeasurement m;
      m.gemm = row.at(mc.at("gemm")).get<std::string>();
      m.tokens = Int(row, mc, "M");
      m.block_m = Int(row, mc, "BM");
      m.block_n = Int(row, mc, "BN");
      m.block_k = Int(row, mc, "BK");
      m.warps = Int(row, mc, "w");
      m.stages = Int(row, mc, "s");
      m.status = row.at(mc.at("status")).get<std::string>();
      m.us = m.status == "ok" ? Time(row, mc) : 0;
      out->moe.push_back(m);
    }
  } catch (const RowError& e) {
    error->message = e.what();
    std::vector<std::size_t> at = ArrayElementOffsets(text, "knobs");
    if (e.row >= 1 && static_cast<std::size_t>(e.row) <= at.size()) {
      Position p = SourceText("", text).PositionOf(at[e.row - 1]);
      error->line = p.line;
      error->column = p.column;
    }
    return false;
  } catch (const std::exception& e) {
    error->message = e.what();
    return false;
  }
  return true;
}

}  // namespace muh
