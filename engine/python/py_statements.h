// The top-level statements of a Python file, found by a small lexer (strings,
// comments, brackets, line continuations) without parsing.
//
// verify's whole-tree search uses them to parse, in a file that passed the
// literal prefilter, only the statements holding a required literal: a
// match of a statement-local query lies inside one top-level statement, and
// that statement holds the literal its predicate requires. A statement
// starts on a line that begins in column 0 outside any string, bracket or
// continuation, unless the line continues a compound statement (`else`,
// `elif`, `except`, `finally`) or follows a decorator. Doubtful lines join
// the statement before them: a span too large costs time, never a match.
#pragma once

#include <tree_sitter/api.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "engine/python/syntax_tree.h"

namespace muh {

struct StatementSpan {
  std::size_t begin = 0;  // first byte of its first line
  std::size_t end = 0;    // first byte of the next statement, or the file's end
  uint32_t begin_row = 0;
  uint32_t end_row = 0;
  uint32_t end_column = 0;  // bytes after the last newline (0 unless at the end)
};

// The statements in order; each runs to the next one's start, so blank and
// comment lines between them belong to the one before (those before the
// first, to none). nullopt when the lexer loses its way (an unterminated
// string, unbalanced brackets, a final backslash): parse it all then. A CR
// that no LF follows ends a line, as in Python.
std::optional<std::vector<StatementSpan>> TopLevelStatements(std::string_view src);

// The statements of `spans` holding an occurrence of one of `literals`,
// adjacent ones merged, as ranges for PythonParser::ParseRanges.
std::vector<TSRange> RangesHolding(std::string_view src, const std::vector<StatementSpan>& spans,
                                   const std::vector<std::string_view>& literals);

// The partial parse the search and the plan share: the tree of only the
// statements of `src` holding one of `literals`. nullopt, to parse the whole
// file instead, when the lexer gives up or that parse meets a syntax error
// (its statements may have been cut wrongly); nullopt with `*none_hold` set
// when no statement holds a literal.
std::optional<SyntaxTree> ParseStatementsHolding(PythonParser& parser, std::string_view src,
                                                 const std::vector<std::string_view>& literals,
                                                 bool* none_hold);

}  // namespace muh
