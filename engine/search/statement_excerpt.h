// The whole-tree search's partial parse, in one place.
//
// A file that passes the literal prefilter holds a rule's literals
// somewhere; when the rule's query matches inside one top-level statement
// (Query::InsideOneStatement), only the top-level statements that hold the
// literals themselves can hold a match. Where the file's parse has a syntax
// error, the search then parses an excerpt of the file: the file with every
// other top-level statement blanked (each byte but CR and LF becomes a
// space), so that offsets, lines and columns are the file's own and a match
// needs no translation; a clean excerpt is trusted. The top-level
// statements are the module's children in that parse, unless its errors
// may have moved their boundaries.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/python/syntax_tree.h"

namespace muh {

// A top-level statement and what follows it up to the next one (comments
// and blank lines), as bytes [begin, end). The spans cover the file in
// order, the first from byte 0. A decorator belongs to what it decorates,
// and an `elif`, `else`, `except` or `finally` clause to its statement.
struct StatementSpan {
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
};
// A span begins at the line of each named child of the module but the first
// (comments and continuations are none; a child on a line already begun
// joins the span before it).
std::vector<StatementSpan> TopLevelSpans(const SyntaxTree& tree);

// What a rule needs a statement to hold: one text or more of every group.
// A rule without groups needs nothing, so every statement meets it.
using LiteralNeed = std::vector<std::vector<std::string_view>>;

struct Excerpt {
  std::string text;       // the file, with the statements no rule needs blanked
  std::size_t kept = 0;   // bytes of the statements kept
  std::size_t spans = 0;  // statements kept
};

// The excerpt of `tree`'s bytes that keeps each top-level statement meeting
// one of `needs` or more. kept == 0: no statement does, and no match can be
// in the file. nullopt when every statement is kept, or when error recovery
// may have cut the statements wrongly (an ERROR node at the top level or
// holding a bracket or a quote, a bracket or closing quote MISSING: an
// unterminated string, unbalanced brackets).
std::optional<Excerpt> ExcerptHolding(const SyntaxTree& tree,
                                      const std::vector<LiteralNeed>& needs);

}  // namespace muh
