#include "engine/python/syntax_tree.h"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <vector>

namespace muh {

PythonParser::PythonParser() : parser_(ts_parser_new()) {
  if (!ts_parser_set_language(parser_.get(), tree_sitter_python())) {
    throw std::runtime_error("tree-sitter-python's ABI is not supported by this libtree-sitter");
  }
}

SyntaxTree PythonParser::Parse(std::string_view bytes) {
  TSTree* tree = ts_parser_parse_string(parser_.get(), nullptr, bytes.data(),
                                        static_cast<uint32_t>(bytes.size()));
  return SyntaxTree(TsTreePtr(tree), bytes);
}

namespace {

// Row and byte column of `offset` in `bytes`, as libtree-sitter counts them.
TSPoint PointAt(std::string_view bytes, std::size_t offset) {
  std::string_view before = bytes.substr(0, offset);
  std::size_t nl = before.rfind('\n');
  uint32_t row = static_cast<uint32_t>(std::count(before.begin(), before.end(), '\n'));
  uint32_t column = static_cast<uint32_t>(nl == std::string_view::npos ? offset : offset - nl - 1);
  return TSPoint{row, column};
}

TSPoint Advance(TSPoint p, std::string_view text) {
  for (char c : text) {
    if (c == '\n') {
      ++p.row;
      p.column = 0;
    } else {
      ++p.column;
    }
  }
  return p;
}

}  // namespace

SyntaxTree PythonParser::Reparse(const SyntaxTree& old, std::string_view bytes,
                                 const std::vector<ByteEdit>& edits) {
  TsTreePtr edited(ts_tree_copy(old.raw()));
  // From the last edit back, so that each one's offsets are still those of
  // the old bytes.
  for (auto e = edits.rbegin(); e != edits.rend(); ++e) {
    TSInputEdit in;
    in.start_byte = static_cast<uint32_t>(e->offset);
    in.old_end_byte = static_cast<uint32_t>(e->offset + e->length);
    in.new_end_byte = static_cast<uint32_t>(e->offset + e->text.size());
    in.start_point = PointAt(old.bytes(), e->offset);
    in.old_end_point = PointAt(old.bytes(), e->offset + e->length);
    in.new_end_point = Advance(in.start_point, e->text);
    ts_tree_edit(edited.get(), &in);
  }
  TSTree* tree = ts_parser_parse_string(parser_.get(), edited.get(), bytes.data(),
                                        static_cast<uint32_t>(bytes.size()));
  return SyntaxTree(TsTreePtr(tree), bytes);
}

SyntaxTree PythonParser::ParseRanges(std::string_view bytes, const std::vector<TSRange>& ranges) {
  ts_parser_set_included_ranges(parser_.get(), ranges.data(), static_cast<uint32_t>(ranges.size()));
  TSTree* tree = ts_parser_parse_string(parser_.get(), nullptr, bytes.data(),
                                        static_cast<uint32_t>(bytes.size()));
  ts_parser_set_included_ranges(parser_.get(), nullptr, 0);
  return SyntaxTree(TsTreePtr(tree), bytes);
}

SyntaxTree::~SyntaxTree() = default;

const SyntaxTree::Index& SyntaxTree::NodeIndex() const {
  if (index_) return *index_;
  auto index = std::make_unique<Index>();
  index->by_symbol.resize(ts_language_symbol_count(tree_sitter_python()));
  TSTreeCursor walk = ts_tree_cursor_new(Root());
  for (;;) {
    TSNode node = ts_tree_cursor_current_node(&walk);
    TSSymbol sym = ts_node_symbol(node);
    if (sym < index->by_symbol.size()) {
      index->by_symbol[sym].push_back(static_cast<uint32_t>(index->nodes.size()));
    }
    index->nodes.push_back(node);
    if (ts_tree_cursor_goto_first_child(&walk)) continue;
    bool more = false;
    do {
      if (ts_tree_cursor_goto_next_sibling(&walk)) {
        more = true;
        break;
      }
    } while (ts_tree_cursor_goto_parent(&walk));
    if (!more) break;
  }
  ts_tree_cursor_delete(&walk);
  index_ = std::move(index);
  return *index_;
}

std::optional<SyntaxProblem> SyntaxTree::FirstProblem() const {
  if (!HasError()) return std::nullopt;
  // Iterative pre-order walk; deep nesting must not overflow the stack.
  std::vector<TSNode> stack{Root()};
  while (!stack.empty()) {
    TSNode node = stack.back();
    stack.pop_back();
    if (ts_node_is_missing(node)) {
      return SyntaxProblem{ts_node_start_byte(node),
                           std::string("missing '") + ts_node_type(node) + "'"};
    }
    if (ts_node_is_null(node) || !ts_node_has_error(node)) continue;
    if (std::string_view(ts_node_type(node)) == "ERROR") {
      return SyntaxProblem{ts_node_start_byte(node), "syntax error"};
    }
    uint32_t n = ts_node_child_count(node);
    for (uint32_t i = n; i > 0; --i) stack.push_back(ts_node_child(node, i - 1));
  }
  return SyntaxProblem{0, "syntax error"};
}

}  // namespace muh
