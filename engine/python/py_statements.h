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
#include <utility>
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

// A logical line holding code: its first physical line begins outside any
// string, bracket or continuation, and is neither blank nor a comment.
struct CodeLine {
  std::size_t begin = 0;  // first byte of its first physical line
  uint32_t row = 0;
  uint32_t indent = 0;  // bytes of blanks before the code
  bool tabbed = false;  // a tab or form feed among them
  bool decorator = false;
  bool clause = false;  // `else`, `elif`, `except` or `finally`
};

struct CodeLines {
  std::vector<CodeLine> lines;
  uint32_t rows = 0;         // newlines in the file
  uint32_t last_column = 0;  // bytes after the last newline
};

// The code lines of a file, found by the lexer described above; nullopt
// when it loses its way (an unterminated string, unbalanced brackets, a
// final backslash). A CR that no LF follows ends a line, as in Python.
std::optional<CodeLines> LexCodeLines(std::string_view src);

// The statements in order; each runs to the next one's start, so blank and
// comment lines between them belong to the one before (those before the
// first, to none). nullopt when the lexer loses its way (an unterminated
// string, unbalanced brackets, a final backslash): parse it all then. A CR
// that no LF follows ends a line, as in Python.
std::optional<std::vector<StatementSpan>> TopLevelStatements(std::string_view src);

// A literal that a statement kept must hold; with `whole_word`, only where
// no ASCII letter, digit or underscore touches it (an identifier's text,
// which Python's lexer never splits).
struct StatementLiteral {
  std::string_view text;
  bool whole_word = false;
};

// The top-level statements of `src` holding one of `literals`, as ranges to
// parse (adjacent statements joined, points set); nullopt when the lexer
// gives up, empty when no statement holds one.
std::optional<std::vector<TSRange>> StatementsHolding(
    std::string_view src, const std::vector<StatementLiteral>& literals);

// The whole-tree search's partial parse: the tree of only those statements.
// nullopt, to parse the whole file instead, when the lexer gives up or that
// parse meets a syntax error (its statements may have been cut wrongly);
// nullopt with `*none_hold` set when no statement holds a literal.
std::optional<SyntaxTree> ParseStatementsHolding(PythonParser& parser, std::string_view src,
                                                 const std::vector<StatementLiteral>& literals,
                                                 bool* none_hold);

}  // namespace muh
