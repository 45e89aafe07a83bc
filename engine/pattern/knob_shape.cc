#include "engine/pattern/knob_shape.h"

#include <optional>
#include <vector>

namespace muh {

namespace {

// The pattern's text as a user reads it: the target metavariable as N,
// `$_` as `...`, others by name.
std::string Readable(const Substituted& sub, std::string_view text, const std::string& target) {
  std::string out(text);
  for (const Metavariable& m : sub.metavariables) {
    std::string placeholder =
        std::string(m.sequence ? "_muh_seq_" : "_muh_mv_") + (m.name == "_" ? "" : m.name) + "_";
    std::string shown = m.name == target ? "N" : m.sequence || m.name == "_" ? "..." : m.name;
    for (std::size_t at; (at = out.find(placeholder)) != std::string::npos;)
      out.replace(at, placeholder.size(), shown);
  }
  return out;
}

}  // namespace

std::string_view SnippetText(const Substituted& sub, TSNode n) {
  return std::string_view(sub.text).substr(ts_node_start_byte(n),
                                           ts_node_end_byte(n) - ts_node_start_byte(n));
}

std::string KnobOf(const Substituted& sub, TSNode root, const std::string& target) {
  std::optional<TSNode> at;
  for (bool want_run : {false, true}) {
    std::vector<TSNode> stack{root};
    while (!stack.empty() && !at) {
      TSNode n = stack.back();
      stack.pop_back();
      const Metavariable* m = sub.Find(SnippetText(sub, n));
      if (m != nullptr && (want_run ? m->sequence : m->name == target)) at = n;
      for (uint32_t i = ts_node_named_child_count(n); i > 0; --i)
        stack.push_back(ts_node_named_child(n, i - 1));
    }
  }
  for (TSNode n = at ? *at : root; !ts_node_is_null(n); n = ts_node_parent(n)) {
    if (std::string_view(ts_node_type(n)) != "assignment") continue;
    TSNode left = ts_node_child_by_field_name(n, "left", 4);
    if (ts_node_is_null(left) || std::string_view(ts_node_type(left)) != "identifier") continue;
    std::string name(SnippetText(sub, left));
    return Substituted::MentionsPlaceholder(name) ? "" : name;
  }
  return "";
}

std::string ShapeOf(const Substituted& sub, TSNode root, const std::string& target) {
  if (std::string_view(ts_node_type(root)) == "assignment") {
    TSNode right = ts_node_child_by_field_name(root, "right", 5);
    if (!ts_node_is_null(right)) return Readable(sub, SnippetText(sub, right), target);
  }
  return Readable(sub, SnippetText(sub, root), target);
}

}  // namespace muh
