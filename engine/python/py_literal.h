// Python literal values compared by value, not by spelling: `32 * 1024`
// equals `32768`, `'x'` equals `"x"`, `(8)` equals `8`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace muh {

// A canonical spelling of the value of `text` when it is a constant we can
// evaluate: integers with + - * // % ** and parentheses, True/False/None, or a
// plain string literal. nullopt for anything else.
std::optional<std::string> CanonicalLiteral(std::string_view text);

// A Python integer literal at `*at` in `s`: decimal (no leading zero but in
// `0`, `00`), `0x`, `0o` or `0b` with their digits, `_` only between digits,
// as CPython reads it. On success `*at` is past it; nullopt for no literal
// (`032`, `0x2g`, `8e3`, `1__0`) or one past int64.
std::optional<int64_t> ReadIntegerLiteral(std::string_view s, std::size_t* at);

// True when both texts denote the same constant, or are the same text.
bool SameValue(std::string_view a, std::string_view b);

// `A if COND else B` with A and B constants of the same value becomes A (a
// template such as `{{@keep}} if {{@cond}} else {{model_value}}` when the
// model agrees with the kept branch); any other text is returned unchanged.
std::string DropEqualBranches(std::string_view text);

}  // namespace muh
