#include "engine/search/statement_excerpt.h"

#include <string.h>

#include <algorithm>

#include "engine/python/ts_nodes.h"

namespace muh {

std::vector<StatementSpan> TopLevelSpans(const SyntaxTree& tree) {
  std::vector<StatementSpan> spans;
  TSTreeCursor c = ts_tree_cursor_new(tree.Root());
  if (ts_tree_cursor_goto_first_child(&c)) {
    do {
      TSNode n = ts_tree_cursor_current_node(&c);
      if (!ts_node_is_named(n) || Is(n, "comment") || Is(n, "line_continuation")) continue;
      // From the start of its first line: a statement after `;` on the
      // same line (or a node error recovery started mid-line) joins the
      // span before it.
      const std::uint32_t begin = ts_node_start_byte(n) - ts_node_start_point(n).column;
      if (spans.empty()) {
        spans.push_back({0, 0});  // what stands before the first statement joins it
      } else if (begin > spans.back().begin) {
        spans.back().end = begin;
        spans.push_back({begin, 0});
      }
    } while (ts_tree_cursor_goto_next_sibling(&c));
  }
  ts_tree_cursor_delete(&c);
  const auto size = static_cast<std::uint32_t>(tree.bytes().size());
  if (spans.empty()) return {{0, size}};
  spans.back().end = size;
  return spans;
}

namespace {

bool IsBracketOrQuote(std::string_view type) {
  for (std::string_view t : {"(", "[", "{", ")", "]", "}", "string_start", "string_end"}) {
    if (type == t) return true;
  }
  return false;
}

// Whether error recovery may have cut the statements wrongly: a child of
// the module is an ERROR node, an ERROR node holds a bracket or a string's
// quote (an unterminated string, unbalanced brackets: where a statement
// ends is then a guess), or a bracket or closing quote is MISSING. Other
// errors (`x = = 1`) leave every statement boundary where Python has it.
bool MayCutWrongly(const SyntaxTree& tree) {
  TSTreeCursor c = ts_tree_cursor_new(tree.Root());
  bool suspect = false;
  int depth = 0;
  while (!suspect) {
    TSNode n = ts_tree_cursor_current_node(&c);
    const std::string_view type = ts_node_type(n);
    const bool error = type == "ERROR";
    if ((error && depth == 1) || (ts_node_is_missing(n) && IsBracketOrQuote(type))) suspect = true;
    if (error) {
      uint32_t count = ts_node_child_count(n);
      for (uint32_t i = 0; i < count && !suspect; ++i) {
        suspect = IsBracketOrQuote(ts_node_type(ts_node_child(n, i)));
      }
    }
    // Only subtrees with an error hold one.
    if (ts_node_has_error(n) && ts_tree_cursor_goto_first_child(&c)) {
      ++depth;
      continue;
    }
    bool more = false;
    do {
      if (ts_tree_cursor_goto_next_sibling(&c)) {
        more = true;
        break;
      }
      --depth;
    } while (ts_tree_cursor_goto_parent(&c));
    if (!more) break;
  }
  ts_tree_cursor_delete(&c);
  return suspect;
}

}  // namespace

std::optional<Excerpt> ExcerptHolding(const SyntaxTree& tree,
                                      const std::vector<LiteralNeed>& needs) {
  if (MayCutWrongly(tree)) return std::nullopt;
  const std::string_view src = tree.bytes();
  const std::vector<StatementSpan> spans = TopLevelSpans(tree);
  auto span_of = [&](std::size_t offset) {
    auto it = std::upper_bound(spans.begin(), spans.end(), offset,
                               [](std::size_t o, const StatementSpan& s) {
                                 return o < static_cast<std::size_t>(s.begin);
                               });
    return static_cast<std::size_t>(it - spans.begin()) - 1;
  };
  // Which spans hold `text`, one flag per span.
  auto holding = [&](std::string_view text) {
    std::vector<bool> in(spans.size(), false);
    if (text.empty()) return std::vector<bool>(spans.size(), true);
    const char* p = src.data();
    const char* end = src.data() + src.size();
    while (const void* hit =
               ::memmem(p, static_cast<std::size_t>(end - p), text.data(), text.size())) {
      const char* at = static_cast<const char*>(hit);
      in[span_of(static_cast<std::size_t>(at - src.data()))] = true;
      p = at + 1;
    }
    return in;
  };
  std::vector<bool> keep(spans.size(), false);
  for (const LiteralNeed& need : needs) {
    std::vector<bool> meets(spans.size(), true);
    for (const auto& group : need) {
      std::vector<bool> any(spans.size(), false);
      for (std::string_view text : group) {
        std::vector<bool> in = holding(text);
        for (std::size_t s = 0; s < spans.size(); ++s) any[s] = any[s] || in[s];
      }
      for (std::size_t s = 0; s < spans.size(); ++s) meets[s] = meets[s] && any[s];
    }
    for (std::size_t s = 0; s < spans.size(); ++s) keep[s] = keep[s] || meets[s];
  }
  if (std::all_of(keep.begin(), keep.end(), [](bool k) { return k; })) return std::nullopt;
  Excerpt out;
  out.text.assign(src);
  for (std::size_t s = 0; s < spans.size(); ++s) {
    if (keep[s]) {
      out.kept += spans[s].end - spans[s].begin;
      ++out.spans;
      continue;
    }
    for (std::size_t j = spans[s].begin; j < spans[s].end; ++j) {
      if (out.text[j] != '\n' && out.text[j] != '\r') out.text[j] = ' ';
    }
  }
  return out;
}

}  // namespace muh
