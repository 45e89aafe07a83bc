// Which bytes of a Python file a partial parse needs: the top-level
// statements holding a literal and, where the caller's queries allow it
// (Query::SurvivesStatementPruning), only part of each.
//
// Descending into a compound statement keeps its header (decorators and the
// line that opens the suite) and, of its suite, the run of statements from
// the first to the last one holding a literal; those are chosen the same
// way in turn. A suite none of whose statements holds one keeps its first.
// Only a `def`, `class`, `if`, `for`, `while`, `with` or `async` statement
// of one clause, all of whose lines are indented with spaces, is entered:
// an `if` with an `else` stays whole. The statements
// kept are whole lines at their original indentation, so the parser sees
// valid Python wherever the file is, with the same tokens in each.
//
// The parts kept are returned twice: every range to parse, and the ranges
// the rest of the file (unparsed_parts.h) may leave out, its "own" ranges.
// The headers belong to both, so that the rest parses on its own; a suite
// all of whose statements would be left out of the rest keeps one there.
#pragma once

#include <tree_sitter/api.h>

#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace muh {

struct ChoiceLiteral {
  std::string_view text;
  // Found only where no ASCII letter, digit or underscore touches it: an
  // identifier's text, which Python's lexer never splits.
  bool whole_word = false;
};

struct StatementChoice {
  std::vector<ChoiceLiteral> first;  // a top-level statement kept holds one
  std::vector<ChoiceLiteral> any;    // a suite keeps the statements holding one
  bool nested = false;               // enter compound statements at all
};

struct ChosenParts {
  std::vector<TSRange> ranges;                           // to parse, with points
  std::vector<std::pair<std::size_t, std::size_t>> own;  // the rest may leave these out
};

// The parts of `src` that `choice` keeps; nullopt when the statement lexer
// gives up (parse the whole file then). Empty when no statement holds a
// literal of `choice.first`.
std::optional<ChosenParts> ChooseParts(std::string_view src, const StatementChoice& choice);

}  // namespace muh
