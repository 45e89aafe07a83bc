#include "engine/search/statement_excerpt.h"

#include <string.h>

#include <algorithm>

namespace muh {

namespace {

// A top-level line that continues the statement before it.
bool ContinuesStatement(std::string_view keyword) {
  return keyword == "elif" || keyword == "else" || keyword == "except" || keyword == "finally";
}

}  // namespace

std::vector<StatementSpan> TopLevelSpans(const PyLines& lines) {
  std::vector<StatementSpan> spans;
  bool after_decorator = false;
  const auto& all = lines.lines();
  for (std::size_t k = 0; k < all.size(); ++k) {
    const LogicalLine& line = all[k];
    if (line.indent != 0) continue;  // in the body of the statement before
    const int i = static_cast<int>(k);
    const std::string_view code = lines.Code(i);
    const bool starts = !after_decorator && !ContinuesStatement(lines.Keyword(i));
    after_decorator = !code.empty() && code.front() == '@';
    if (!starts) continue;
    if (spans.empty()) {
      spans.push_back({0, 0});  // what stands before the first statement joins it
    } else {
      spans.back().end = line.begin;
      spans.push_back({line.begin, 0});
    }
  }
  const auto size = static_cast<std::uint32_t>(lines.src().size());
  if (spans.empty()) return {{0, size}};
  spans.back().end = size;
  return spans;
}

std::optional<Excerpt> ExcerptHolding(std::string_view src, const std::vector<LiteralNeed>& needs) {
  std::optional<PyLines> lines = PyLines::Lex(src);
  if (!lines) return std::nullopt;
  const std::vector<StatementSpan> spans = TopLevelSpans(*lines);
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
