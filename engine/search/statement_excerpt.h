// The whole-tree search's partial parse, in one place.
//
// A file that passes the literal prefilter holds a rule's literals
// somewhere; when the rule's query matches inside one top-level statement
// (Query::InsideOneStatement), only the top-level statements that hold the
// literals themselves can hold a match. The search then parses an excerpt
// of the file: the file with every other top-level statement blanked (each
// byte but CR and LF becomes a space), so that offsets, lines and columns
// are the file's own and a match needs no translation. A statement is
// found by the Python lexer (py_lines.h), not by parsing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/python/py_lines.h"

namespace muh {

// A top-level statement and what follows it up to the next one (comments
// and blank lines), as bytes [begin, end). The spans cover the file in
// order, the first from byte 0. A decorator belongs to what it decorates,
// and an `elif`, `else`, `except` or `finally` clause to its statement.
struct StatementSpan {
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
};
std::vector<StatementSpan> TopLevelSpans(const PyLines& lines);

// What a rule needs a statement to hold: one text or more of every group.
// A rule without groups needs nothing, so every statement meets it.
using LiteralNeed = std::vector<std::vector<std::string_view>>;

struct Excerpt {
  std::string text;       // the file, with the statements no rule needs blanked
  std::size_t kept = 0;   // bytes of the statements kept
  std::size_t spans = 0;  // statements kept
};

// The excerpt of `src` that keeps each top-level statement meeting one of
// `needs` or more. kept == 0: no statement does, and no match can be in
// the file. nullopt when the whole file is to be parsed: the lexer gave up
// (an unterminated string, unbalanced brackets), or every statement is kept.
std::optional<Excerpt> ExcerptHolding(std::string_view src, const std::vector<LiteralNeed>& needs);

}  // namespace muh
