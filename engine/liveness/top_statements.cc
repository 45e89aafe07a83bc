#include "engine/liveness/top_statements.h"

#include <string_view>

namespace muh {

std::pair<std::size_t, std::size_t> TopStatement(const StatementTable& lines, int k) {
  const std::vector<LogicalLine>& ls = lines.lines();
  auto top = [&](int j) {
    while (ls[static_cast<std::size_t>(j)].parent != -1) j = ls[static_cast<std::size_t>(j)].parent;
    return j;
  };
  auto continues = [&](int j) {  // a clause that continues the statement before it
    std::string_view kw = lines.Keyword(j);
    return kw == "elif" || kw == "else" || kw == "except" || kw == "finally";
  };
  int first = top(k);
  while (first > 0 && (continues(first) || lines.Code(top(first - 1)).substr(0, 1) == "@")) {
    first = top(first - 1);
  }
  int n = static_cast<int>(ls.size());
  int last = top(k);
  for (;;) {
    int next = last + 1;
    while (next < n && ls[static_cast<std::size_t>(next)].parent != -1) ++next;
    if (next < n && (continues(next) || lines.Code(last).substr(0, 1) == "@")) {
      last = next;
      continue;
    }
    std::size_t end = next < n ? ls[static_cast<std::size_t>(next)].begin : lines.src().size();
    return {ls[static_cast<std::size_t>(first)].begin, end};
  }
}

std::optional<TopStatements::Found> TopStatements::PathAt(std::size_t offset, std::size_t length) {
  int k = lines_.IndexAt(offset);
  if (k < 0) return Found{};
  const Parsed* p = Of(k);
  if (p == nullptr) return std::nullopt;
  std::size_t rel = offset - p->begin;
  return Found{
      &p->tree,
      p->paths.PathTo(static_cast<std::uint32_t>(rel), static_cast<std::uint32_t>(rel + length)),
      p->begin};
}

const TopStatements::Parsed* TopStatements::Of(int k) {
  int top = k;
  const std::vector<LogicalLine>& ls = lines_.lines();
  while (ls[static_cast<std::size_t>(top)].parent != -1)
    top = ls[static_cast<std::size_t>(top)].parent;
  auto known = by_top_.find(top);
  if (known != by_top_.end()) return known->second;
  const Parsed* found = Cut(k);
  by_top_.emplace(top, found);
  return found;
}

const TopStatements::Parsed* TopStatements::Cut(int k) {
  std::string_view src = lines_.src();
  auto [begin, end] = TopStatement(lines_, k);
  auto at = by_begin_.find(begin);
  if (at != by_begin_.end()) return at->second;
  const Parsed& p = parsed_.emplace_back(begin, &parser_, src.substr(begin, end - begin));
  if (!p.tree.HasError()) return by_begin_[begin] = &p;
  parsed_.pop_back();
  // Cut where the table's lines do not say (a lone clause): the whole.
  if (!whole_tried_) {
    whole_tried_ = true;
    const Parsed& w = parsed_.emplace_back(0, &parser_, src);
    if (!w.tree.HasError()) {
      whole_ = &w;
    } else {
      parsed_.pop_back();
    }
  }
  return whole_;
}

}  // namespace muh
