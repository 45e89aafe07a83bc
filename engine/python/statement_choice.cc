#include "engine/python/statement_choice.h"

#include <algorithm>
#include <optional>

#include "engine/python/py_statements.h"
#include "engine/python/syntax_tree.h"

namespace muh {

namespace {

using Span = std::pair<std::size_t, std::size_t>;

bool AsciiWordByte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Where the literals occur, as [begin, end) sorted by begin.
std::vector<Span> Occurrences(std::string_view src, const std::vector<ChoiceLiteral>& literals) {
  std::vector<Span> out;
  for (const ChoiceLiteral& lit : literals) {
    if (lit.text.empty()) continue;
    for (std::size_t at = src.find(lit.text); at != std::string_view::npos;
         at = src.find(lit.text, at + 1)) {
      std::size_t end = at + lit.text.size();
      if (lit.whole_word && ((at > 0 && AsciiWordByte(src[at - 1])) ||
                             (end < src.size() && AsciiWordByte(src[end])))) {
        continue;
      }
      out.emplace_back(at, end);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Whether an occurrence lies wholly inside [begin, end).
bool HoldsOne(const std::vector<Span>& occurrences, std::size_t begin, std::size_t end) {
  auto it = std::lower_bound(occurrences.begin(), occurrences.end(), Span{begin, 0});
  for (; it != occurrences.end() && it->first < end; ++it) {
    if (it->second <= end) return true;
  }
  return false;
}

// Whether a header line starts with a keyword of a one-clause compound
// statement. libtree-sitter is laxer than Python about what follows a
// suite (a column-0 `(B):` after `if a:` joins the `if`), so only a
// statement the lexer and the parser surely agree on is entered.
bool OpensSuite(std::string_view line) {
  for (std::string_view kw : {"def", "class", "if", "for", "while", "with", "async"}) {
    if (line.substr(0, kw.size()) == kw &&
        (line.size() == kw.size() || !AsciiWordByte(line[kw.size()]))) {
      return true;
    }
  }
  return false;
}

// A statement: its code lines [first, last) and its bytes [begin, end).
struct Statement {
  std::size_t first, last;
  std::size_t begin, end;
};

class Chooser {
 public:
  Chooser(std::string_view src, const CodeLines& code, const StatementChoice& choice)
      : src_(src), lines_(code.lines), choice_(choice), any_(Occurrences(src, choice.any)) {}

  // The statements of the block made of lines [first, last), whose bytes
  // end at `end`; nullopt when a line there belongs to none.
  std::optional<std::vector<Statement>> Split(std::size_t first, std::size_t last,
                                              std::size_t end) const {
    std::vector<Statement> out;
    if (first >= last) return out;
    const uint32_t indent = lines_[first].indent;
    bool decorator = false;  // the statement so far is decorators
    for (std::size_t k = first; k < last; ++k) {
      const CodeLine& line = lines_[k];
      if (line.indent < indent) return std::nullopt;
      if (line.indent > indent) continue;
      if (!line.clause && !decorator) {
        if (!out.empty()) out.back().last = k, out.back().end = line.begin;
        out.push_back(Statement{k, last, line.begin, end});
      } else if (out.empty()) {
        return std::nullopt;
      }
      decorator = line.decorator;
    }
    return out;
  }

  // Keeps `s`, or its header and part of its suite. True when it entered.
  bool Choose(const Statement& s) {
    std::optional<std::size_t> suite = Suite(s);
    std::optional<std::vector<Statement>> kids;
    if (suite) kids = Split(*suite, s.last, s.end);
    if (!kids || kids->empty()) {
      Keep(s.begin, s.end, true);
      return false;
    }
    Keep(s.begin, (*kids)[0].begin, false);
    std::size_t from = kids->size(), to = 0;  // the run of holders
    for (std::size_t k = 0; k < kids->size(); ++k) {
      if (HoldsOne(any_, (*kids)[k].begin, (*kids)[k].end)) from = std::min(from, k), to = k + 1;
    }
    if (from == kids->size()) from = 0, to = 1;  // none holds one: the first, for the syntax
    // The rest parses this suite from the statements left out and from the
    // headers of those entered; it needs one of either.
    std::size_t in_rest = kids->size() - (to - from);
    std::vector<std::size_t> leaves;  // indexes into own_
    for (std::size_t k = from; k < to; ++k) {
      const Statement& kid = (*kids)[k];
      if (HoldsOne(any_, kid.begin, kid.end) && Choose(kid)) {
        ++in_rest;
        continue;
      }
      if (!HoldsOne(any_, kid.begin, kid.end)) Keep(kid.begin, kid.end, true);
      leaves.push_back(own_.size() - 1);
    }
    if (in_rest == 0 && !leaves.empty()) {
      auto size = [&](std::size_t i) { return own_[i].second - own_[i].first; };
      std::size_t smallest =
          *std::min_element(leaves.begin(), leaves.end(),
                            [&](std::size_t a, std::size_t b) { return size(a) < size(b); });
      own_.erase(own_.begin() + static_cast<std::ptrdiff_t>(smallest));
    }
    return true;
  }

  ChosenParts Finish() {
    ChosenParts out;
    for (const Span& p : parse_) {
      if (!out.ranges.empty() && out.ranges.back().end_byte == p.first) {
        out.ranges.back().end_byte = static_cast<uint32_t>(p.second);
        continue;
      }
      TSRange r{};
      r.start_byte = static_cast<uint32_t>(p.first);
      r.end_byte = static_cast<uint32_t>(p.second);
      out.ranges.push_back(r);
    }
    SetPoints(src_, &out.ranges);
    for (const Span& p : own_) {
      if (!out.own.empty() && out.own.back().second == p.first) {
        out.own.back().second = p.second;
      } else {
        out.own.push_back(p);
      }
    }
    return out;
  }

 private:
  // The first line of the suite of `s` when the choice may enter it: one
  // clause, a suite on lines of its own indented further, no tabs.
  std::optional<std::size_t> Suite(const Statement& s) const {
    if (!choice_.nested) return std::nullopt;
    const uint32_t indent = lines_[s.first].indent;
    std::size_t head = s.first;
    while (head < s.last && lines_[head].decorator && lines_[head].indent == indent) ++head;
    if (head + 1 >= s.last || !OpensSuite(src_.substr(lines_[head].begin + indent))) {
      return std::nullopt;
    }
    for (std::size_t k = s.first; k < s.last; ++k) {
      if (lines_[k].tabbed) return std::nullopt;
      if (k > head && lines_[k].indent <= indent) return std::nullopt;
    }
    return head + 1;
  }

  void Keep(std::size_t begin, std::size_t end, bool own) {
    if (end <= begin) return;
    parse_.emplace_back(begin, end);
    if (own) own_.emplace_back(begin, end);
  }

  std::string_view src_;
  const std::vector<CodeLine>& lines_;
  const StatementChoice& choice_;
  std::vector<Span> any_;
  std::vector<Span> parse_;
  std::vector<Span> own_;
};

}  // namespace

std::optional<ChosenParts> ChooseParts(std::string_view src, const StatementChoice& choice) {
  std::optional<CodeLines> code = LexCodeLines(src);
  if (!code) return std::nullopt;
  Chooser chooser(src, *code, choice);
  std::optional<std::vector<Statement>> top = chooser.Split(0, code->lines.size(), src.size());
  // Indented code first: libtree-sitter parses a file whose code is all
  // indented, so column 0 proves nothing there.
  if (!top || (!code->lines.empty() && code->lines[0].indent != 0)) return std::nullopt;
  const std::vector<Span> first = Occurrences(src, choice.first);
  for (const Statement& s : *top) {
    if (HoldsOne(first, s.begin, s.end)) chooser.Choose(s);
  }
  return chooser.Finish();
}

}  // namespace muh
