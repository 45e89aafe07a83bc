#include "engine/plan/config_list.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

#include "engine/base/one_line.h"
#include "engine/python/name_use.h"
#include "engine/python/py_literal.h"
#include "engine/python/syntax_tree.h"
#include "engine/python/ts_nodes.h"

namespace muh {

namespace {

// One field of a live entry: its name and the byte range of its value.
struct Field {
  std::string key;
  std::size_t value_begin = 0;
  std::size_t value_end = 0;
};

struct Entry {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::vector<Field> fields;
};

std::string_view Text(const std::string& bytes, TSNode n) {
  return std::string_view(bytes).substr(ts_node_start_byte(n),
                                        ts_node_end_byte(n) - ts_node_start_byte(n));
}

TSNode ChildField(TSNode n, const char* name) {
  return ts_node_child_by_field_name(n, name, static_cast<uint32_t>(std::string_view(name).size()));
}

std::string StringContent(const std::string& bytes, TSNode str) {
  std::string out;
  for (uint32_t i = 0; i < ts_node_named_child_count(str); ++i) {
    TSNode c = ts_node_named_child(str, i);
    if (std::string_view(ts_node_type(c)) == "string_content") out += Text(bytes, c);
  }
  return out;
}

// Adds field `name` with `value` to `e`; false, with `why`, when `e` has it
// already: the last one counts, and a rewrite of the first would not reach
// the kernel.
bool AddField(Entry* e, std::string name, TSNode value, std::string* why) {
  for (const Field& f : e->fields) {
    if (f.key != name) continue;
    *why = "'" + name + "' is given twice, and only the last counts";
    return false;
  }
  e->fields.push_back({std::move(name), ts_node_start_byte(value), ts_node_end_byte(value)});
  return true;
}

// Reads `triton.Config({"K": v, ...}, k=v, ...)`; nullopt if not that shape,
// with `why` set where a part of it says more.
std::optional<Entry> ReadEntry(const std::string& bytes, TSNode call, std::string* why) {
  if (std::string_view(ts_node_type(call)) != "call") return std::nullopt;
  TSNode args = ChildField(call, "arguments");
  if (ts_node_is_null(args)) return std::nullopt;
  Entry e{ts_node_start_byte(call), ts_node_end_byte(call), {}};
  for (uint32_t i = 0; i < ts_node_named_child_count(args); ++i) {
    TSNode a = ts_node_named_child(args, i);
    std::string_view type = ts_node_type(a);
    if (type == "dictionary") {
      for (uint32_t j = 0; j < ts_node_named_child_count(a); ++j) {
        TSNode pair = ts_node_named_child(a, j);
        std::string_view kind = ts_node_type(pair);
        if (kind == "comment") continue;
        // A splat (`**_OVR`) may set any field after the ones written: the
        // entry's values are not the ones read here (a helper probe of
        // d751784: every appended BLOCK_N was the splat's 64).
        if (kind != "pair") {
          *why = "its dict holds '" + std::string(Text(bytes, pair)) +
                 "', which may set any field after those written";
          return std::nullopt;
        }
        TSNode key = ChildField(pair, "key");
        TSNode value = ChildField(pair, "value");
        if (std::string_view(ts_node_type(key)) != "string") return std::nullopt;
        for (uint32_t c = 0; c < ts_node_named_child_count(key); ++c) {
          std::string_view part = ts_node_type(ts_node_named_child(key, c));
          if (part != "string_start" && part != "string_content" && part != "string_end") {
            *why = "the key " + std::string(Text(bytes, key)) + " is no plain string";
            return std::nullopt;  // an escape or an interpolation: not the key's plain text
          }
        }
        if (!AddField(&e, StringContent(bytes, key), value, why)) return std::nullopt;
      }
    } else if (type == "keyword_argument") {
      TSNode value = ChildField(a, "value");
      if (!AddField(&e, std::string(Text(bytes, ChildField(a, "name"))), value, why)) {
        return std::nullopt;
      }
    } else if (type != "comment") {
      return std::nullopt;
    }
  }
  return e;
}

// Canonical key -> value map of an entry, for equality by value.
std::map<std::string, std::string> Canon(
    const std::vector<std::pair<std::string, std::string>>& kv) {
  std::map<std::string, std::string> out;
  for (const auto& [k, v] : kv) out[k] = CanonicalLiteral(v).value_or(v);
  return out;
}

// `canon` without the fields in `ignored`.
std::map<std::string, std::string> Fold(std::map<std::string, std::string> canon,
                                        const std::vector<std::string>& ignored) {
  for (const std::string& k : ignored) canon.erase(k);
  return canon;
}

std::string KeyList(const std::vector<std::string>& keys) {
  std::string out;
  for (const std::string& k : keys) out += (out.empty() ? "" : ", ") + k;
  return out;
}

// The arguments of triton.autotune that leave every entry of its list in
// the benchmark (Triton 2 and 3). Any other (`prune_configs_by`, whose
// early_config_prune or perf_model may drop the appended entries unrun; a
// third positional argument, which is that; a splat) is no proof that an
// appended entry is ever tried: the offset of the first such, or npos.
std::size_t PrunesOrUnknown(const SyntaxTree& tree, TSNode list) {
  TSNode arg = ts_node_parent(list);
  TSNode args = Is(arg, "keyword_argument") ? ts_node_parent(arg) : arg;
  // A list the call does not take directly (`configs = [...]`, then
  // `autotune(configs=configs, ...)`): its call's arguments are not seen.
  if (!Is(args, "argument_list")) return ts_node_start_byte(list);
  static constexpr std::string_view kKept[] = {
      "configs", "key", "reset_to_zero",  "restore_value", "pre_hook",     "post_hook",
      "warmup",  "rep", "use_cuda_graph", "do_bench",      "cache_results"};
  int positional = 0;
  for (TSNode a : NamedChildren(args)) {
    if (Is(a, "comment")) continue;
    if (Is(a, "keyword_argument")) {
      std::string_view name = TextOf(tree, ts_node_child_by_field_name(a, "name", 4));
      if (std::find(std::begin(kKept), std::end(kKept), name) != std::end(kKept)) continue;
    } else if (!Is(a, "list_splat") && !Is(a, "dictionary_splat") && ++positional <= 2) {
      continue;
    }
    return ts_node_start_byte(a);
  }
  return std::string_view::npos;
}

// The autotuned kernel's name used otherwise than to launch it
// (`NAME[grid](...)`): Triton's Autotuner benchmarks the `configs` it holds
// at launch, and `NAME.configs = ...`, `del NAME.configs[9:]`, a re-wrapped
// `NAME = triton.autotune(...)(NAME.fn)`, an alias or passing it on may
// leave the appended entries out (a helper probe of d751784: 9 configs
// benchmarked before and after, exit 0). The offset of the first such use
// in this file, or npos; npos too when the list is no decorator's.
// The name node of the def whose decorator holds `list`; null when none.
TSNode DecoratedName(TSNode list) {
  TSNode call = list;
  while (!ts_node_is_null(call) && !Is(call, "decorator")) call = ts_node_parent(call);
  if (ts_node_is_null(call)) return TSNode{};
  TSNode decorated = ts_node_parent(call);
  TSNode def =
      Is(decorated, "decorated_definition") ? ChildField(decorated, "definition") : TSNode{};
  return Is(def, "function_definition") ? ChildField(def, "name") : TSNode{};
}

std::size_t KernelUsedOtherwise(const SyntaxTree& tree, TSNode list) {
  TSNode own = DecoratedName(list);
  if (ts_node_is_null(own)) return std::string_view::npos;
  std::string_view name = TextOf(tree, own);
  std::size_t found = std::string_view::npos;
  ForEachNamedPath(tree.Root(), [&](const std::vector<TSNode>& path) {
    TSNode n = path.back();
    if (found != std::string_view::npos || !Is(n, "identifier") || TextOf(tree, n) != name ||
        ts_node_eq(n, own) || path.size() < 2) {
      return;
    }
    TSNode p = path[path.size() - 2];
    if (Is(p, "attribute") && FieldIs(p, "attribute", n)) return;  // another object's attribute
    if (Is(p, "keyword_argument") && FieldIs(p, "name", n)) return;
    TSNode g = path.size() >= 3 ? path[path.size() - 3] : TSNode{};
    bool launch =
        Is(p, "subscript") && FieldIs(p, "value", n) && Is(g, "call") && FieldIs(g, "function", p);
    if (!launch) found = ts_node_start_byte(n);
  });
  return found;
}

std::string_view FirstLine(std::string_view text) {
  return text.substr(0, text.find_first_of("\r\n"));
}

// A decorator of the autotuned kernel other than the autotune call and
// `triton.jit`: one between them (`@triton.heuristics({"BLOCK_N": ...})`)
// sets a key after the Autotuner chose an entry, so that the appended
// entries' values never reach the kernel (a helper probe of 2893764); one
// above may wrap or replace the Autotuner. Closed world: its offset, or
// npos.
std::size_t OtherDecorator(const SyntaxTree& tree, TSNode list) {
  TSNode own = list;
  while (!ts_node_is_null(own) && !Is(own, "decorator")) own = ts_node_parent(own);
  if (ts_node_is_null(own)) return std::string_view::npos;
  TSNode decorated = ts_node_parent(own);
  if (!Is(decorated, "decorated_definition")) return std::string_view::npos;
  for (TSNode d : NamedChildren(decorated)) {
    if (!Is(d, "decorator") || ts_node_eq(d, own)) continue;
    // The decorator's expression; of a call, its function
    // (`@triton.jit(do_not_specialize=["n"])` is triton.jit).
    TSNode expr{};
    for (TSNode c : NamedChildren(d)) {
      if (!Is(c, "comment")) {
        expr = c;
        break;
      }
    }
    if (!ts_node_is_null(expr) && Is(expr, "call"))
      expr = ts_node_child_by_field_name(expr, "function", 8);
    std::string_view text = ts_node_is_null(expr) ? std::string_view{} : TextOf(tree, expr);
    if (text == "triton.jit" || text == "jit") continue;
    return ts_node_start_byte(d);
  }
  return std::string_view::npos;
}

}  // namespace

bool PlanConfigAppend(const SourceText& file, const SyntaxTree& tree, std::size_t list_begin,
                      std::size_t list_end, const std::vector<ConfigEntry>& entries,
                      const std::string& rule_id, ConfigAppend* out, std::string* error,
                      std::size_t* error_offset) {
  const std::string& bytes = file.bytes();
  TSNode list = ts_node_descendant_for_byte_range(tree.Root(), static_cast<uint32_t>(list_begin),
                                                  static_cast<uint32_t>(list_end));
  while (!ts_node_is_null(list) &&
         !(std::string_view(ts_node_type(list)) == "list" &&
           ts_node_start_byte(list) == list_begin && ts_node_end_byte(list) == list_end)) {
    list = ts_node_parent(list);
  }
  *error_offset = list_begin;
  if (ts_node_is_null(list)) {
    *error = "the 'append-to' capture is not a list literal";
    return false;
  }
  if (std::size_t at = PrunesOrUnknown(tree, list); at != std::string_view::npos) {
    *error_offset = at;
    if (at == list_begin) {
      *error = fmt::format(
          "rule '{}': the list is not an argument of the call that takes it, so that call's "
          "other arguments (a prune_configs_by may drop appended entries unrun) are not seen: "
          "no rewrite",
          rule_id);
      return false;
    }
    std::string_view arg = std::string_view(bytes).substr(at, 40);
    arg = arg.substr(0, arg.find_first_of("=\r\n"));
    *error = fmt::format(
        "rule '{}': the autotune call's `{}` may drop appended entries before they are "
        "benchmarked (only configs, key, reset_to_zero, restore_value, pre_hook, post_hook, "
        "warmup, rep, use_cuda_graph, do_bench and cache_results keep every entry in the run): "
        "no rewrite",
        rule_id, arg);
    return false;
  }
  if (std::size_t at = KernelUsedOtherwise(tree, list); at != std::string_view::npos) {
    *error_offset = at;
    *error = fmt::format(
        "rule '{}': the autotuned kernel is used here otherwise than launched (`NAME[grid](...)`): "
        "its configs may be replaced, cut or re-wrapped before a launch benchmarks them, and "
        "the appended entries may never run: no rewrite",
        rule_id);
    return false;
  }

  if (std::size_t at = OtherDecorator(tree, list); at != std::string_view::npos) {
    *error_offset = at;
    *error = fmt::format(
        "rule '{}': the autotuned kernel has a decorator besides the autotune call and "
        "triton.jit (`{}`), which may set or override the entries' values after the Autotuner "
        "chose one (a triton.heuristics does): the appended entries may never reach the kernel "
        "as written: no rewrite",
        rule_id, OneLine(FirstLine(std::string_view(bytes).substr(at)), 60));
    return false;
  }

  std::vector<Entry> live;
  for (uint32_t i = 0; i < ts_node_named_child_count(list); ++i) {
    TSNode child = ts_node_named_child(list, i);
    if (std::string_view(ts_node_type(child)) == "comment") continue;
    std::string why;
    std::optional<Entry> e = ReadEntry(bytes, child, &why);
    if (!e) {
      *error = "list element is not a triton.Config({...}, key=value, ...) call";
      if (!why.empty()) *error += ": " + why;
      *error_offset = ts_node_start_byte(child);
      return false;
    }
    live.push_back(*e);
  }
  if (live.empty()) {
    *error = "the list has no live entry to take the style from";
    return false;
  }
  out->existing = static_cast<int>(live.size());
  const Entry& style = live.back();
  std::vector<std::string> style_keys;
  for (const auto& f : style.fields) style_keys.push_back(f.key);

  std::vector<std::map<std::string, std::string>> seen;
  for (const Entry& e : live) {
    std::vector<std::pair<std::string, std::string>> kv;
    for (const auto& f : e.fields) {
      kv.emplace_back(f.key, bytes.substr(f.value_begin, f.value_end - f.value_begin));
    }
    seen.push_back(Canon(kv));
  }

  // Where new entries go: the start of the line after the last entry and its
  // comma, when the rest of that line is blank; else right after the comma.
  std::size_t pos = style.end;
  bool had_comma = false;
  std::size_t p = pos;
  while (p < bytes.size() && (bytes[p] == ' ' || bytes[p] == '\t')) ++p;
  if (p < bytes.size() && bytes[p] == ',') {
    had_comma = true;
    pos = p + 1;
  }
  std::size_t q = pos;
  while (q < bytes.size() && (bytes[q] == ' ' || bytes[q] == '\t')) ++q;
  bool own_lines = q < bytes.size() && (bytes[q] == '\n' || bytes[q] == '\r');
  std::size_t line = file.LineIndexOf(style.begin);
  std::string indent(bytes.substr(file.LineStart(line), style.begin - file.LineStart(line)));
  bool indent_is_blank = indent.find_first_not_of(" \t") == std::string::npos;
  std::string eol(file.Eol());
  std::string inserted;
  std::string sep = own_lines && indent_is_blank ? "" : " ";

  int index = -1;
  for (const ConfigEntry& want : entries) {
    ++index;
    std::vector<std::string> want_keys;
    for (const auto& f : want.fields) want_keys.push_back(f.first);
    std::vector<std::string> a = want_keys, b = style_keys;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    if (a != b) {
      *error = fmt::format("rule '{}': entry {} has fields [{}] but the list's entries have [{}]",
                           rule_id, index + 1, KeyList(want_keys), KeyList(style_keys));
      return false;
    }
    // Fields the backend ignores are folded first: an entry that differs
    // from one already there only in those repeats it.
    auto canon = Canon(want.fields);
    auto folded = Fold(canon, want.ignored);
    if (std::any_of(seen.begin(), seen.end(), [&](const std::map<std::string, std::string>& s) {
          return Fold(s, want.ignored) == folded;
        })) {
      out->duplicates.push_back(index);
      continue;
    }
    seen.push_back(canon);
    // Render: the style entry's text with each value range replaced.
    std::string text;
    std::size_t at = style.begin;
    for (const auto& f : style.fields) {
      text += bytes.substr(at, f.value_begin - at);
      text += *want.Get(f.key);
      at = f.value_end;
    }
    text += bytes.substr(at, style.end - at);
    if (own_lines && indent_is_blank) {
      inserted += indent + text + "," + eol;
    } else {
      inserted += sep + text + ",";
    }
    ++out->appended;
  }
  if (out->appended == 0) return true;
  std::size_t insert_at = pos;
  if (own_lines && indent_is_blank) {
    insert_at = bytes.find('\n', q) + 1;
    if (!had_comma) {
      *error = "the last entry has no trailing comma; cannot append in the file's style";
      *error_offset = style.end;
      return false;
    }
  } else if (!had_comma) {
    inserted = "," + inserted.substr(0, inserted.size() - 1);
  }
  out->edits.push_back(Edit{file.path(), insert_at, 0, inserted, rule_id, ""});
  return true;
}

std::string AutotunedKernelName(const SyntaxTree& tree, std::size_t list_begin,
                                std::size_t list_end) {
  TSNode list = ts_node_descendant_for_byte_range(tree.Root(), static_cast<uint32_t>(list_begin),
                                                  static_cast<uint32_t>(list_end));
  while (!ts_node_is_null(list) && !Is(list, "list")) list = ts_node_parent(list);
  if (ts_node_is_null(list)) return "";
  TSNode name = DecoratedName(list);
  return ts_node_is_null(name) ? "" : std::string(TextOf(tree, name));
}

}  // namespace muh
