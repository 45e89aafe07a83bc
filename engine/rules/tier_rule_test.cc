#include "engine/rules/tier_rule.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("a tier statement's query matches it in the if, any elif and the else") {
  std::string q = TierQuery("numel",
                            "((assignment left: (identifier) @_p0 right: (_) @value)\n"
                            "  (#eq? @_p0 \"x\"))\n"
                            "(pass_statement) @value");
  std::string set =
      "(expression_statement . (assignment left: (identifier) @_p0 right: (_) "
      "@value) .)";
  CHECK(q ==
        "((if_statement\n"
        "   condition: (comparison_operator . (identifier) @_pvar \"<=\" . (_) .)\n"
        "   [(block " +
            set +
            ")\n"
            "    (elif_clause consequence: (block " +
            set +
            "))\n"
            "    (else_clause body: (block " +
            set +
            "))])\n"
            "  (#eq? @_pvar \"numel\")\n  (#eq? @_p0 \"x\"))\n"
            "((if_statement\n"
            "   condition: (comparison_operator . (identifier) @_pvar \"<=\" . (_) .)\n"
            "   [(block (pass_statement) @value)\n"
            "    (elif_clause consequence: (block (pass_statement) @value))\n"
            "    (else_clause body: (block (pass_statement) @value))])\n"
            "  (#eq? @_pvar \"numel\"))\n");
}

}  // namespace muh
