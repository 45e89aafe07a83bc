#include "engine/rules/tier_rule.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>

namespace muh {

namespace {

const std::vector<std::string> kTierKeys = {"variable", "means", "bounds", "bound-with",
                                            "upstream"};

bool Identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

}  // namespace

void ReadTiers(YamlReader* l, const YAML::Node& key, const YAML::Node& value, RawTiers* out) {
  out->key.present = true;
  out->key.key_mark = key.Mark();
  out->key.mark = value.Mark();
  if (!value.IsMap()) {
    l->Error(value.Mark(),
             "'tiers' must be a mapping (variable, means, bounds, bound-with, upstream)");
    return;
  }
  l->CheckKeys(value, kTierKeys, "tiers");
  for (const auto& kv : value) {
    std::string k = kv.first.as<std::string>();
    if (k == "variable") {
      l->Scalar(kv.first, kv.second, &out->variable);
    } else if (k == "means") {
      l->Scalar(kv.first, kv.second, &out->means);
    } else if (k == "bound-with") {
      l->Scalar(kv.first, kv.second, &out->bound_with);
    } else if (k == "bounds" || k == "upstream") {
      RawScalar& at = k == "bounds" ? out->bounds_key : out->upstream_key;
      at.present = true;
      at.key_mark = kv.first.Mark();
      at.mark = kv.second.Mark();
      l->ScalarList(kv.first, kv.second, k == "bounds" ? &out->bounds : &out->upstream);
    }
  }
}

std::shared_ptr<const TierSpec> CheckTiers(const RawTiers& raw, YamlReader* l,
                                           const ValueSource& values) {
  auto spec = std::make_shared<TierSpec>();
  std::size_t errors_before = l->errors_->size();
  if (!raw.variable.present || !Identifier(raw.variable.value)) {
    l->Error(raw.variable.present ? raw.variable.mark : raw.key.key_mark,
             "'tiers' needs 'variable': the name the chain compares (`if numel <= 64:`)");
  }
  spec->variable = raw.variable.value;
  if (raw.means.present) {
    if (raw.means.value.find_first_not_of(" \t") == std::string::npos) {
      l->Error(raw.means.mark, "'means' is empty: what the variable counts (`M * topk`)");
    }
    spec->means = raw.means.value;
  }
  for (const RawScalar& b : raw.bounds) {
    const std::string& v = b.value;
    if (v.empty() || v.size() > 15 || v.find_first_not_of("0123456789") != std::string::npos) {
      l->Error(b.mark, fmt::format("a tier bound is a whole number, got '{}'", v));
      continue;
    }
    int64_t n = std::stoll(v);
    if (!spec->bounds.empty() && n <= spec->bounds.back()) {
      l->Error(b.mark, fmt::format("tier bounds must ascend: {} after {}", n, spec->bounds.back()));
      continue;
    }
    spec->bounds.push_back(n);
  }
  for (const RawScalar& u : raw.upstream) spec->upstream.push_back(u.value);
  if (raw.bound_with.present) {
    std::string err;
    std::size_t off = 0;
    if (!Template::Parse(raw.bound_with.value, &spec->bound_with, &err, &off)) {
      RuleLoc at = l->OffsetLoc(raw.bound_with.mark, off);
      l->errors_->push_back(MakeError(l->path_, at.line, at.column, "'bound-with': " + err));
    } else {
      spec->has_bound_with = true;
      std::vector<std::string> fns = values.Functions();
      for (const TemplatePart& p : spec->bound_with.parts()) {
        bool known = true;
        if (p.kind == TemplatePart::Kind::kCall) {
          known = std::find(fns.begin(), fns.end(), p.text) != fns.end();
          for (const std::string& a : p.args) known = known && IsTierCapture(a);
        } else if (p.kind == TemplatePart::Kind::kCapture) {
          known = IsTierCapture(p.text);
        } else if (p.kind == TemplatePart::Kind::kValue) {
          known = values.Find(p.text) != nullptr;
        }
        if (!known) {
          l->Error(raw.bound_with.mark,
                   fmt::format("'bound-with' names '{}': a bound's template calls a function "
                               "of the model with @tier and @bounds (known functions: {})",
                               p.text, fmt::join(fns, ", ")));
        }
      }
    }
  }
  if (l->errors_->size() != errors_before) return nullptr;
  return spec;
}

std::optional<TierChainShape> DeclaredTierChain(const RawTiers& raw) {
  TierChainShape out;
  out.has_else = true;
  std::string text;
  for (const RawScalar& b : raw.bounds) text += b.value + " ";
  std::string error;
  if (!raw.key.present || raw.bounds.empty() || !ParseTierChain(text + "else", &out, &error)) {
    return std::nullopt;
  }
  return out;
}

namespace {

// The end of the balanced group that opens at `at` (a '('), strings skipped.
std::size_t GroupEnd(const std::string& q, std::size_t at) {
  int depth = 0;
  for (std::size_t i = at; i < q.size(); ++i) {
    char c = q[i];
    if (c == '"') {
      for (++i; i < q.size() && q[i] != '"'; ++i) {
        if (q[i] == '\\') ++i;
      }
    } else if (c == '(') {
      ++depth;
    } else if (c == ')' && --depth == 0) {
      return i + 1;
    }
  }
  return q.size();
}

}  // namespace

std::string TierQuery(const std::string& variable, const std::string& statement_query) {
  std::string out;
  for (std::size_t at = statement_query.find('('); at != std::string::npos;
       at = statement_query.find('(', at)) {
    std::size_t end = GroupEnd(statement_query, at);
    // A bare `(NODE) @capture ...` takes its captures along.
    while (true) {
      std::size_t next = statement_query.find_first_not_of(" \t\n", end);
      if (next == std::string::npos || statement_query[next] != '@') break;
      end = statement_query.find_first_of(" \t\n()", next);
      if (end == std::string::npos) end = statement_query.size();
    }
    // `((NODE) (#PREDICATE ...) ...)`: the node, then its predicates.
    std::string group = statement_query.substr(at, end - at);
    std::string node = group, predicates;
    if (group.size() > 2 && group[1] == '(' && group.back() == ')') {
      std::size_t node_end = GroupEnd(group, 1);
      std::string rest = group.substr(node_end, group.size() - 1 - node_end);
      std::size_t first = rest.find_first_not_of(" \t\n");
      if (first == std::string::npos || rest.compare(first, 2, "(#") == 0) {
        node = group.substr(1, node_end - 1);
        predicates = rest;
      }
    }
    // An expression (`config['BLOCK_SIZE_M'] = 16`) is a statement of its own.
    std::string type = node.substr(1, node.find_first_of(" \t\n)", 1) - 1);
    auto ends = [&](const std::string& s) {
      return type.size() >= s.size() && type.compare(type.size() - s.size(), s.size(), s) == 0;
    };
    if (!ends("_statement") && !ends("_definition")) {
      node = "(expression_statement . " + node + " .)";
    }
    out += fmt::format(
        "((if_statement\n"
        "   condition: (_) @_pcond\n"
        "   [(block {0})\n"
        "    (elif_clause consequence: (block {0}))\n"
        "    (else_clause body: (block {0}))])\n"
        "  (#match? @_pcond \"\\\\b{1}\\\\b\"){2})\n",
        node, variable, predicates);
    at = end;
  }
  return out;
}

}  // namespace muh
