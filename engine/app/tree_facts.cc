#include "engine/app/tree_facts.h"

#include <fmt/format.h>

#include "engine/base/text.h"
#include "engine/model/knobs.h"
#include "engine/plan/multiplied_sites.h"
#include "engine/plan/planner.h"
#include "engine/python/py_literal.h"

namespace muh {

namespace {

// The fact every value the rule writes reports; "" when it writes anything else.
std::string FactOf(const Rule& rule) {
  std::string fact;
  for (const TemplatePart& part : rule.with.parts()) {
    if (part.kind == TemplatePart::Kind::kCapture || part.kind == TemplatePart::Kind::kCall) {
      return "";
    }
    if (part.kind != TemplatePart::Kind::kValue) continue;
    std::string f = ReportedFact(part.text);
    if (f.empty() || (!fact.empty() && f != fact)) return "";
    fact = f;
  }
  return fact;
}

// A whole number of at most 15 digits: the constant `text` denotes.
bool Number(const std::string& text, double* out) {
  std::optional<std::string> v = CanonicalLiteral(text);
  if (!v || v->empty() || v->size() > 15 ||
      v->find_first_not_of("0123456789") != std::string::npos) {
    return false;
  }
  *out = static_cast<double>(std::stoll(*v));
  return true;
}

}  // namespace

std::vector<TreeFact> ReadTreeFacts(const RuleSet& rules,
                                    const std::map<std::string, SourceText>& files,
                                    const std::vector<std::string>& tree_paths,
                                    std::vector<Diagnostic>* notes,
                                    const StoredElsewhereFn& stored) {
  std::vector<TreeFact> out;
  RuleSet stating = rules;
  stating.rules.clear();
  std::map<std::string, std::string> fact_of;
  for (const Rule& r : rules.rules) {
    std::string fact = FactOf(r);
    if (fact.empty()) continue;
    stating.rules.push_back(r);
    fact_of[r.id] = fact;
  }
  if (stating.rules.empty()) return out;
  PlanResult plan = Plan(stating, files, tree_paths);
  for (const Rule& r : stating.rules) {
    const RuleOutcome* o = plan.Find(r.id);
    // No site, or several: the rule's own outcome says so; no fact is read.
    if (o == nullptr || o->found.size() != 1) continue;
    const Site& site = o->found[0];
    TreeFact t;
    t.fact = fact_of[r.id];
    if (r.pin) {
      t.where = fmt::format("{}:{}", rules.path, r.pin->loc.line);
      t.text = fmt::format("pin: {} ({})", r.pin->value, r.pin->reason);
      if (!Number(r.pin->value, &t.value)) continue;
    } else {
      t.where = fmt::format("{}:{}", site.path, site.line);
      auto file = files.find(site.path);
      t.text = file == files.end()
                   ? site.current
                   : std::string(Trim(file->second.LineText(file->second.LineIndexOf(site.begin))));
      // A value the plan cannot read as a constant fails the rule itself.
      if (!Number(site.current, &t.value)) continue;
      // The site is what the function returns, but its callers may get
      // something else: the fact is not the tree's.
      if (file != files.end()) {
        std::optional<StatementTable> lines = StatementTable::Build(file->second.bytes());
        if (!lines) continue;
        if (auto bad = ReturnedValueProblem(*lines, site)) {
          if (notes != nullptr) {
            const LogicalLine& at = lines->lines()[static_cast<std::size_t>(bad->first)];
            Position p = file->second.PositionOf(at.code);
            notes->push_back(Diagnostic{
                site.path, p.line, p.column, Severity::kNote,
                fmt::format("{} is not read from line {} (`{}`): it is a function's return "
                            "value, and {}; the model keeps its own value",
                            t.fact, site.line, t.text, bad->second)});
          }
          continue;
        }
        std::optional<std::string> fn = stored ? ReturnedFunctionName(*lines, site) : std::nullopt;
        if (std::optional<Evidence> by = fn ? stored(site.path, *fn) : std::nullopt) {
          if (notes != nullptr) {
            notes->push_back(Diagnostic{
                by->path, by->line, 1, Severity::kNote,
                fmt::format("{} is not read from {}:{} (`{}`): it is the return value of {}(), "
                            "and this statement of another module may replace that function "
                            "({}); the model keeps its own value",
                            t.fact, site.path, site.line, t.text, *fn, by->what)});
          }
          continue;
        }
      }
    }
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace muh
