// The query text code patterns compiled to before they compiled to nodes
// (pattern_node.h), kept only while code_pattern_diff_test compares the two
// compilations' matches; deleted with the text path.
#pragma once

#include <string>
#include <vector>

#include "engine/pattern/code_pattern.h"

namespace muh {

struct TextCompiled {
  std::string query;
  std::vector<std::string> metavariables;
  std::string knob;
  std::string shape;
};

bool CompileCodePatternsToText(const std::vector<std::string>& alternatives, const CodePattern& p,
                               TextCompiled* out, CodePatternError* error, std::size_t* failing,
                               const std::string& target = "");

// tier_rule.cc's TierQuery as it was.
std::string TierQueryText(const std::string& variable, const std::string& statement_query);

}  // namespace muh
