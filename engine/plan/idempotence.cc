#include "engine/plan/idempotence.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/plan/plan_steps.h"

namespace muh {
namespace plan {

namespace {

// Where byte `offset` of a file lies once `edits` (sorted, none spanning
// it) are applied.
std::size_t Shifted(const std::vector<Edit>& edits, std::size_t offset) {
  long long shift = 0;
  for (const Edit& e : edits) {
    if (e.End() > offset) break;
    shift += static_cast<long long>(e.text.size()) - static_cast<long long>(e.length);
  }
  return static_cast<std::size_t>(static_cast<long long>(offset) + shift);
}

// By path, the byte ranges, as the first run leaves the file, of the dead
// sites it left alone (no edit there): a second run plans them again, and
// that is no change of the first run's edits.
std::map<std::string, std::vector<std::pair<std::size_t, std::size_t>>> LeftAlone(
    const PlanResult& first) {
  std::map<std::string, std::vector<std::pair<std::size_t, std::size_t>>> out;
  static const std::vector<Edit> kNone;
  for (const RuleOutcome& o : first.outcomes) {
    for (const Site& s : o.found) {
      if (!s.Is(Liveness::kDead)) continue;
      auto it = first.edits.find(s.path);
      const std::vector<Edit>& edits = it == first.edits.end() ? kNone : it->second;
      bool edited = false;
      for (const Edit& e : edits) edited = edited || (e.offset >= s.begin && e.offset <= s.end);
      if (edited) continue;
      std::size_t begin = Shifted(edits, s.begin);
      out[s.path].emplace_back(begin, begin + (s.end - s.begin));
    }
  }
  return out;
}

}  // namespace

std::map<std::string, Diagnostic> NotIdempotent(const RuleSet& rules, const PlanResult& first,
                                                const std::map<std::string, SourceText>& files,
                                                const std::vector<std::string>& tree_paths,
                                                Trees trees) {
  std::map<std::string, Diagnostic> refused;
  if (first.new_contents.empty()) {
    FreeTrees(&trees);
    return refused;
  }
  RuleSet editing = rules;
  editing.rules.clear();
  for (const Rule& r : rules.rules) {
    const RuleOutcome* o = first.Find(r.id);
    if (o != nullptr && o->edits > 0) editing.rules.push_back(r);
  }
  std::map<std::string, SourceText> next = files;
  for (const auto& [path, text] : first.new_contents) next[path] = SourceText(path, text);
  PlanContext second(editing, next, tree_paths, NothingWritten());  // parses what the rules ask for
  for (auto& [path, tree] : trees) tree->Rebind(next.at(path).bytes());
  second.UseTrees(std::move(trees));
  // No verdicts: every edit it would make counts.
  PlanResult again = Finish(second, PlanRules(second), {}, {}, nullptr);
  const auto left_alone = LeftAlone(first);
  auto at_dead_site = [&](const std::string& path, const Edit& e) {
    auto it = left_alone.find(path);
    if (it == left_alone.end()) return false;
    for (const auto& [b, end] : it->second) {
      if (e.offset >= b && e.offset <= end) return true;
    }
    return false;
  };
  for (const auto& [path, edits] : again.edits) {
    for (const Edit& e : edits) {
      if (refused.count(e.rule_id) != 0 || at_dead_site(path, e)) continue;
      // Located at the rule's first site as the file is now.
      const RuleOutcome* o = first.Find(e.rule_id);
      const SourceText& now = files.at(path);
      Position p = now.PositionOf(o != nullptr && !o->found.empty() ? o->found.front().begin : 0);
      auto shown = [](std::string_view text) {
        std::string out;
        for (char c : text.substr(0, std::min<std::size_t>(text.size(), 57))) {
          out += c == '\n'   ? std::string("\\n")
                 : c == '\r' ? std::string("\\r")
                             : std::string(1, c);
        }
        return text.size() > 57 ? out + "..." : out;
      };
      std::string_view was(next.at(path).bytes().data() + e.offset, e.length);
      refused[e.rule_id] = Diagnostic{
          path, p.line, p.column, Severity::kError,
          fmt::format("rule '{}' is not idempotent: a second run would change '{}' to '{}' "
                      "(its template writes text its query does not match again)",
                      e.rule_id, shown(was), shown(e.text))};
    }
  }
  return refused;
}

}  // namespace plan
}  // namespace muh
