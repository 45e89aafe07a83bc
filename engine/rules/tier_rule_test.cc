#include "engine/rules/tier_rule.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("a tier statement's query matches it in the if, any elif and the else") {
  // Any condition that names the variable: the planner reads the chain and
  // says which clause is not `numel <= BOUND`.
  std::string q = TierQuery("numel",
                            "((assignment left: (identifier) @_p0 right: (_) @value)\n"
                            "  (#eq? @_p0 \"x\"))\n"
                            "(pass_statement) @value");
  std::string set =
      "(expression_statement . (assignment left: (identifier) @_p0 right: (_) "
      "@value) .)";
  CHECK(q ==
        "((if_statement\n"
        "   condition: (_) @_pcond\n"
        "   [(block " +
            set +
            ")\n"
            "    (elif_clause consequence: (block " +
            set +
            "))\n"
            "    (else_clause body: (block " +
            set +
            "))])\n"
            "  (#match? @_pcond \"\\\\bnumel\\\\b\")\n  (#eq? @_p0 \"x\"))\n"
            "((if_statement\n"
            "   condition: (_) @_pcond\n"
            "   [(block (pass_statement) @value)\n"
            "    (elif_clause consequence: (block (pass_statement) @value))\n"
            "    (else_clause body: (block (pass_statement) @value))])\n"
            "  (#match? @_pcond \"\\\\bnumel\\\\b\"))\n");
}

}  // namespace muh
