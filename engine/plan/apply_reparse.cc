#include "engine/plan/apply_reparse.h"

#include <fmt/format.h>

#include <memory>
#include <optional>
#include <string_view>

#include "engine/base/parallel.h"

namespace muh {
namespace plan {

Applied ApplyAndReparse(const std::map<std::string, SourceText>& files, const Trees& before,
                        std::map<std::string, EditSet> sets) {
  // Each rewritten file is applied and reparsed on a worker; messages follow
  // in path order.
  struct Done {
    const std::string* path;
    const EditSet* set;
    std::string rewritten;
    std::optional<SyntaxProblem> problem;
    std::unique_ptr<SyntaxTree> tree;  // of `rewritten`, when it parses
  };
  Applied out;
  std::vector<Done> done;
  for (;;) {
    done.clear();
    for (auto& [path, set] : sets) {
      if (!set.empty()) done.push_back({&path, &set, "", std::nullopt, nullptr});
    }
    ParallelFor<PythonParser>(done.size(), 0, [&](PythonParser& parser, std::size_t i) {
      Done& d = done[i];
      d.rewritten = ApplyEdits(files.at(*d.path).bytes(), d.set->edits());
      auto was = before.find(*d.path);
      if (was != before.end() && was->second) {
        std::vector<ByteEdit> byte_edits;
        for (const Edit& e : d.set->edits()) byte_edits.push_back({e.offset, e.length, e.text});
        d.tree =
            std::make_unique<SyntaxTree>(parser.Reparse(*was->second, d.rewritten, byte_edits));
      } else {
        d.tree = std::make_unique<SyntaxTree>(parser.Parse(d.rewritten));
      }
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
      const SourceText& file = files.at(path);
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
      Position p = file.PositionOf(blamed->offset);
      out.diagnostics.push_back(Diagnostic{
          path, p.line, p.column, Severity::kError,
          fmt::format("rewrite by rule '{}' ('{}' -> '{}') would introduce a {}; refused",
                      blamed->rule_id, old_text, blamed->text, problem->what),
          blamed->rule_id});
      blamed_rules.push_back(blamed->rule_id);
    }
    if (blamed_rules.empty()) break;
    for (const std::string& id : blamed_rules) {
      out.failed.push_back(id);
      for (auto& [path, set] : sets) {
        set.RemoveIf([&](const Edit& e) { return e.rule_id == id; });
      }
    }
  }
  for (Done& d : done) {
    const std::string& path = *d.path;
    if (d.rewritten == files.at(path).bytes()) continue;  // "only files that change"
    out.edits[path] = d.set->edits();
    std::string& kept = out.new_contents[path] = std::move(d.rewritten);
    if (d.tree) {
      d.tree->Rebind(kept);
      out.trees[path] = std::move(d.tree);
    }
  }
  return out;
}

}  // namespace plan
}  // namespace muh
