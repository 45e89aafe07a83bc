// A compiled code pattern (pattern/code_pattern.h) as what a finder runs
// (query/site_query.h): the pattern matcher walks its nodes against the
// file's (pattern/pattern_matcher.h), and its matches come out like a
// query's, its metavariables and hidden literals as captures.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/pattern/pattern_node.h"
#include "engine/query/site_query.h"

namespace muh {

class PatternQuery : public SiteQuery {
 public:
  explicit PatternQuery(std::vector<PatternTree> trees);

  std::vector<QueryMatch> Run(const SyntaxTree& tree) const override;
  void IndexFor(const SyntaxTree& tree) const override;
  const std::vector<std::string>& capture_names() const override { return capture_names_; }
  // With one tree: its pinned texts and `where:` literals.
  std::vector<LiteralGroup> RequiredLiteralGroups() const override;
  // A pattern's root is a statement or an expression, never the module.
  bool InsideOneStatement() const override { return true; }
  // A pattern is read from Python the grammar parsed: never impossible.
  std::optional<QueryError> StructureProblem() const override { return std::nullopt; }
  // The search from the whole pattern down to the first node of it that
  // still matches somewhere, as no_match.h does for a query.
  std::optional<NoMatchReason> ExplainNoMatch(const SyntaxTree& tree) const override;

  const std::vector<PatternTree>& trees() const { return trees_; }

 private:
  std::vector<PatternTree> trees_;
  std::vector<std::string> capture_names_;
};

}  // namespace muh
