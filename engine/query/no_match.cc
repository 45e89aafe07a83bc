#include "engine/query/no_match.h"

#include <algorithm>
#include <cctype>

#include "engine/base/one_line.h"

namespace muh {

namespace {

// A parenthesised item of the query text: a node pattern or a predicate.
struct Item {
  std::size_t begin = 0;  // at '('
  std::size_t end = 0;    // past ')' and any captures that follow
  bool predicate = false;
  int parent = -1;                    // enclosing node pattern
  std::vector<std::string> captures;  // captures inside (for predicates: named by it)
};

bool IsNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ||
         c == '?' || c == '!';
}

// Scans `s` into items; false when the text is not balanced.
bool Scan(std::string_view s, std::vector<Item>* items) {
  std::vector<int> open;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == ';') {  // a comment, to the end of the line
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    if (c == '"') {
      for (++i; i < s.size() && s[i] != '"'; ++i) {
        if (s[i] == '\\') ++i;
      }
      continue;
    }
    if (c == '@') {
      std::size_t j = i + 1;
      while (j < s.size() && IsNameChar(s[j])) ++j;
      std::string name(s.substr(i + 1, j - i - 1));
      if (!open.empty() && (*items)[static_cast<std::size_t>(open.back())].predicate) {
        // An operand: the predicate names it, no node binds it.
        (*items)[static_cast<std::size_t>(open.back())].captures.push_back(name);
      } else {
        for (int k : open) (*items)[static_cast<std::size_t>(k)].captures.push_back(name);
      }
      i = j - 1;
      continue;
    }
    if (c == '(') {
      Item it;
      it.begin = i;
      std::size_t j = i + 1;
      while (j < s.size() && std::isspace(static_cast<unsigned char>(s[j]))) ++j;
      it.predicate = j < s.size() && s[j] == '#';
      for (auto k = open.rbegin(); k != open.rend(); ++k) {
        if (!(*items)[static_cast<std::size_t>(*k)].predicate) {
          it.parent = *k;
          break;
        }
      }
      open.push_back(static_cast<int>(items->size()));
      items->push_back(it);
      continue;
    }
    if (c == ')') {
      if (open.empty()) return false;
      Item& it = (*items)[static_cast<std::size_t>(open.back())];
      open.pop_back();
      std::size_t j = i + 1;
      // Captures right after a node pattern belong to it.
      for (;;) {
        std::size_t k = j;
        while (k < s.size() && (s[k] == ' ' || s[k] == '\t')) ++k;
        if (k >= s.size() || s[k] != '@') break;
        std::size_t e = k + 1;
        while (e < s.size() && IsNameChar(s[e])) ++e;
        if (!it.predicate) it.captures.push_back(std::string(s.substr(k + 1, e - k - 1)));
        for (int o : open) {
          (*items)[static_cast<std::size_t>(o)].captures.push_back(
              std::string(s.substr(k + 1, e - k - 1)));
        }
        j = e;
      }
      it.end = j;
      i = j - 1;
    }
  }
  return open.empty();
}

}  // namespace

std::vector<QueryPart> QueryParts(std::string_view source) {
  std::vector<Item> items;
  if (!Scan(source, &items)) return {};
  // A group `((pattern) (#pred ...))` is a node pattern whose first child
  // is the real root: skip such wrappers.
  std::vector<std::size_t> nodes;
  for (std::size_t k = 0; k < items.size(); ++k) {
    if (!items[k].predicate) nodes.push_back(k);
  }
  std::vector<QueryPart> parts;
  std::vector<int> part_of(items.size(), -1);
  for (std::size_t k : nodes) {
    const Item& it = items[k];
    std::string_view body = source.substr(it.begin + 1);
    std::size_t first = body.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && body[first] == '(') continue;  // a group wrapper
    QueryPart part;
    std::string node_text(source.substr(it.begin, it.end - it.begin));
    std::string preds;
    for (const Item& p : items) {
      if (!p.predicate) continue;
      bool all_bound = !p.captures.empty();
      for (const std::string& c : p.captures) {
        all_bound =
            all_bound && std::find(it.captures.begin(), it.captures.end(), c) != it.captures.end();
      }
      if (all_bound) preds += " " + std::string(source.substr(p.begin, p.end - p.begin));
    }
    part.text = preds.empty() ? node_text : "(" + node_text + preds + ")";
    part.shown = OneLine(preds.empty() ? node_text : node_text + preds, 96);
    std::string_view type = source.substr(it.begin + 1, it.end - it.begin - 1);
    type.remove_prefix(std::min(type.size(), type.find_first_not_of(" \t\r\n")));
    part.anchored = !preds.empty();
    part.wildcard = preds.empty() && !type.empty() && type[0] == '_' &&
                    (type.size() == 1 || !IsNameChar(type[1]));
    part_of[k] = static_cast<int>(parts.size());
    parts.push_back(std::move(part));
  }
  for (std::size_t k : nodes) {
    if (part_of[k] < 0) continue;
    int parent = items[k].parent;
    while (parent >= 0 && part_of[static_cast<std::size_t>(parent)] < 0) {
      parent = items[static_cast<std::size_t>(parent)].parent;
    }
    if (parent >= 0) {
      parts[static_cast<std::size_t>(part_of[static_cast<std::size_t>(parent)])].children.push_back(
          static_cast<std::size_t>(part_of[k]));
    }
  }
  return parts;
}

namespace {

// Offsets of the matches of `text` in `tree`; nullopt when it does not compile.
std::optional<std::vector<std::size_t>> MatchesOf(const std::string& text, const SyntaxTree& tree) {
  QueryError err;
  std::unique_ptr<Query> q = Query::Compile(text, &err);
  if (!q) return std::nullopt;
  std::vector<std::size_t> at;
  for (const QueryMatch& m : q->Run(tree)) at.push_back(m.Begin());
  return at;
}

}  // namespace

namespace {

using MatchesFn = std::function<std::optional<std::vector<std::size_t>>(std::size_t)>;

std::optional<NoMatchReason> Descend(const std::vector<NoMatchPart>& parts, std::size_t k,
                                     const MatchesFn& matches_of, bool* anchored) {
  const NoMatchPart& part = parts[k];
  std::optional<std::size_t> local;  // the sub-part to show as matching here
  std::vector<std::size_t> local_at;
  std::optional<std::size_t> failing;
  for (std::size_t c : part.children) {
    // `(_)` matches nearly everywhere: it says nothing about the knob.
    if (parts[c].wildcard) continue;
    auto at = matches_of(c);
    if (!at) continue;
    if (at->empty()) {
      if (!failing) failing = c;
      continue;
    }
    if (!local || (parts[c].anchored && !parts[*local].anchored)) {
      local = c;
      at->erase(std::unique(at->begin(), at->end()), at->end());
      local_at = std::move(*at);
    }
  }
  std::optional<NoMatchReason> here;
  if (local) here = NoMatchReason{part.shown, parts[*local].shown, local_at};
  bool here_anchored = local && parts[*local].anchored;
  if (failing) {
    bool deeper_anchored = false;
    std::optional<NoMatchReason> deeper = Descend(parts, *failing, matches_of, &deeper_anchored);
    bool deeper_shows_match = deeper && !deeper->matching_part.empty();
    if (deeper_shows_match && (deeper_anchored || !here_anchored)) {
      *anchored = deeper_anchored;
      return deeper;
    }
    if (!here) {
      *anchored = deeper_anchored;
      return deeper;
    }
  }
  *anchored = here_anchored;
  if (here) return here;
  return NoMatchReason{part.shown, "", {}};
}

}  // namespace

std::optional<NoMatchReason> DescendParts(const std::vector<NoMatchPart>& parts, std::size_t k,
                                          const MatchesFn& matches_of) {
  bool anchored = false;
  return Descend(parts, k, matches_of, &anchored);
}

std::optional<NoMatchReason> ExplainQueryNoMatch(const Query& query, const SyntaxTree& tree) {
  std::vector<QueryPart> parts = QueryParts(query.source());
  if (parts.empty()) return std::nullopt;
  std::vector<NoMatchPart> plain(parts.begin(), parts.end());
  return DescendParts(plain, 0, [&](std::size_t c) { return MatchesOf(parts[c].text, tree); });
}

}  // namespace muh
