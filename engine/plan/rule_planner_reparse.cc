// Planner::ApplyAndReparse: the kept edits applied to each file and the
// result reparsed, refusing a rewrite that breaks the syntax (see
// rule_planner.h).
#include <fmt/format.h>

#include <memory>
#include <optional>
#include <string_view>

#include "engine/base/parallel.h"
#include "engine/plan/rule_planner.h"

namespace muh {
namespace plan {

void Planner::ApplyAndReparse() {
  // Each rewritten file is applied and reparsed on a worker (incrementally:
  // only the edited statements are parsed again); messages follow in path
  // order. A problem the incremental parse reports is confirmed by a fresh
  // parse, which the message describes. The rule to blame fails and loses
  // all its edits, and the files are applied again without them, so that
  // one bad rewrite never hides the others.
  struct Done {
    const std::string* path;
    const EditSet* set;
    std::string rewritten;
    std::optional<SyntaxProblem> problem;
    std::unique_ptr<SyntaxTree> tree;  // of `rewritten`, when it parses
  };
  std::vector<Done> done;
  for (;;) {
    done.clear();
    for (auto& [path, set] : edit_sets_) {
      if (!set.empty()) done.push_back({&path, &set, "", std::nullopt, nullptr});
    }
    ParallelFor<PythonParser>(done.size(), 0, [&](PythonParser& parser, std::size_t i) {
      Done& d = done[i];
      d.rewritten = ApplyEdits(files_.at(*d.path).bytes(), d.set->edits());
      std::vector<ByteEdit> byte_edits;
      for (const Edit& e : d.set->edits()) byte_edits.push_back({e.offset, e.length, e.text});
      d.tree = std::make_unique<SyntaxTree>(
          parser.Reparse(*syntax_trees_.at(*d.path), d.rewritten, byte_edits));
      d.problem = d.tree->FirstProblem();
      if (d.problem) {
        d.tree.reset();
        d.problem = parser.Parse(d.rewritten).FirstProblem();
      }
    });
    std::vector<std::string> blamed_rules;
    for (Done& d : done) {
      auto& problem = d.problem;
      if (!problem) continue;
      const std::string& path = *d.path;
      const SourceText& file = files_.at(path);
      // Blame the last edit that starts at or before the problem, and point
      // at it in the file as it is on disk.
      const Edit* blamed = &d.set->edits().front();
      long long shift = 0;
      for (const Edit& e : d.set->edits()) {
        if (static_cast<long long>(e.offset) + shift > static_cast<long long>(problem->offset))
          break;
        blamed = &e;
        shift += static_cast<long long>(e.text.size()) - static_cast<long long>(e.length);
      }
      std::string_view old_text(file.bytes().data() + blamed->offset, blamed->length);
      out_->diagnostics.push_back(
          At(path, blamed->offset, Severity::kError,
             fmt::format("rewrite by rule '{}' ('{}' -> '{}') would introduce a {}; refused",
                         blamed->rule_id, old_text, blamed->text, problem->what)));
      out_->diagnostics.back().rule_id = blamed->rule_id;
      blamed_rules.push_back(blamed->rule_id);
    }
    if (blamed_rules.empty()) break;
    for (const std::string& id : blamed_rules) Fail(id);
  }
  for (Done& d : done) {
    const std::string& path = *d.path;
    if (d.rewritten == files_.at(path).bytes()) continue;  // "only files that change"
    out_->edits[path] = d.set->edits();
    std::string& kept = out_->new_contents[path] = std::move(d.rewritten);
    if (d.tree) {
      d.tree->Rebind(kept);
      rewritten_trees_[path] = std::move(d.tree);
    }
  }
}

}  // namespace plan
}  // namespace muh
