// Checks on a query's text made before libtree-sitter sees it, and the
// places its errors point at (internal to engine/query: Query::Compile).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "engine/query/query_error.h"

namespace muh {

// Offset of the `nth` (0-based) occurrence of predicate `name` at or after
// `from` in the source, for error messages.
std::size_t FindPredicate(std::string_view source, std::size_t from, const std::string& name,
                          int nth);

// libtree-sitter's "unknown capture 'x'" (a predicate naming a capture the
// pattern lacks) with a suggestion from the captures the source does define:
// every `@name` outside strings and comments but the unknown one.
void SuggestCapture(std::string_view source, QueryError* error);

// Offset of a quantifier that directly follows another one, with only
// blanks, comments, captures and `)` between (`(x)??`, `(x)? @c *`,
// `((x)?)?`), or npos. libtree-sitter 0.20.7 crashes or loops on these
// instead of reporting an error; we refuse them first. Conservative: it
// also refuses the harmless `(a (b)?)?`.
// The offset of the first `(` or `[` nested deeper than `limit` (outside
// strings and comments), or npos: the parsers of queries recurse by level.
std::size_t TooDeep(std::string_view s, int limit);

std::size_t StackedQuantifier(std::string_view s);

// Offset of a field name put in front of a predicate (`key: (#eq? @k "x")`,
// `key: ((#eq? ...))`), or npos. libtree-sitter 0.20.7 then writes past the
// end of its step array (a heap overflow); we refuse such queries first.
std::size_t FieldOnPredicate(std::string_view s);

}  // namespace muh
