// Metavariables of a code pattern (code_pattern.h): `$NAME` stands for one
// node, `$_` for one node that is not captured, `$$$NAME` and `$$$` for a
// run of zero or more siblings. Python has no `$`, so each is replaced by a
// placeholder identifier before the snippet is parsed as Python; an offset
// map takes every byte of the parsed text back to the pattern as written,
// for messages that point into it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace muh {

struct Metavariable {
  std::string name;  // without '$'; "_" for `$_`, "" for an unnamed `$$$`
  bool sequence = false;
  std::size_t offset = 0;  // of the '$' in the pattern as written
  std::size_t length = 0;  // of `$NAME` as written
};

// The pattern with placeholders in place of its metavariables.
struct Substituted {
  std::string text;
  std::vector<Metavariable> metavariables;  // in order of appearance
  // Where byte `offset` of `text` was in the pattern as written; inside a
  // placeholder, where its metavariable starts.
  std::size_t Original(std::size_t offset) const;
  // The metavariable a placeholder stands for, or nullptr for other text.
  const Metavariable* Find(std::string_view placeholder) const;
  // Whether `text` holds a placeholder, or part of one.
  static bool MentionsPlaceholder(std::string_view text);

  struct Piece {
    std::size_t begin = 0;  // in `text`
    std::size_t original = 0;
    std::size_t length = 0;  // of the placeholder; 0 for copied text
  };
  std::vector<Piece> pieces;
};

// Replaces the metavariables of `pattern`. False, with the offset of the bad
// `$` and a message, for a `$` that starts no metavariable or a name that
// starts with '_' (reserved for captures the compiler adds).
bool SubstituteMetavariables(std::string_view pattern, Substituted* out, std::size_t* error_offset,
                             std::string* error);

}  // namespace muh
