#include "engine/plan/idempotence.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include "engine/plan/rule_planner.h"

namespace muh {
namespace plan {

std::map<std::string, Diagnostic> NotIdempotent(
    const RuleSet& rules, const PlanResult& first, const std::map<std::string, SourceText>& files,
    const std::vector<std::string>& tree_paths,
    std::map<std::string, std::unique_ptr<SyntaxTree>> trees) {
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
  PlanResult again;
  Planner second(editing, *rules.values, next, tree_paths, &again);
  second.ParseLazily();
  for (auto& [path, tree] : trees) tree->Rebind(next.at(path).bytes());
  second.UseTrees(std::move(trees));
  second.Run();
  for (const auto& [path, edits] : again.edits) {
    for (const Edit& e : edits) {
      if (refused.count(e.rule_id) != 0) continue;
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
