#include "engine/rules/tier_rule.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <re2/re2.h>

#include <algorithm>
#include <cctype>
#include <cstring>

#include "engine/python/ts_handles.h"

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

PatternNode TierNode(const std::string& variable, const PatternNode& statement) {
  using Kind = PatternNode::Kind;
  auto node = [](const std::string& type, std::vector<PatternNode> children) {
    PatternNode n;
    n.type = type;
    n.symbols = SymbolsNamed(type, true);
    n.children = std::move(children);
    return n;
  };
  PatternNode set = statement;
  // An expression (`config['BLOCK_SIZE_M'] = 16`) is a statement of its own.
  auto ends = [&](const std::string& suffix) {
    const std::string& t = set.type;
    return t.size() >= suffix.size() &&
           t.compare(t.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  if (!ends("_statement") && !ends("_definition")) {
    set = node("expression_statement", {std::move(set)});
    set.ordered = true;
  }
  const TSLanguage* python = tree_sitter_python();
  auto field = [&](PatternNode n, const char* name) {
    n.field = ts_language_field_id_for_name(python, name, static_cast<uint32_t>(strlen(name)));
    return n;
  };
  set.source = statement.source;
  PatternNode block = node("block", {set});
  block.source = set.source;
  PatternNode clauses;
  clauses.kind = Kind::kEither;
  clauses.children = {block, node("elif_clause", {field(block, "consequence")}),
                      node("else_clause", {field(block, "body")})};
  for (PatternNode& c : clauses.children) c.source = set.source;
  PatternNode condition;
  condition.kind = Kind::kMetavariable;
  condition.capture = "_pcond";
  condition.source = variable;
  PatternNode out = node("if_statement", {field(condition, "condition"), std::move(clauses)});
  out.source = statement.source;
  return out;
}

PatternConstraint TierConstraint(const std::string& variable) {
  PatternConstraint names;
  names.kind = PatternConstraint::Kind::kRegex;
  names.capture = "_pcond";
  names.texts = {"\\b" + variable + "\\b"};
  re2::RE2::Options options;
  options.set_log_errors(false);
  names.regex = std::make_shared<const re2::RE2>(names.texts[0], options);
  return names;
}

PatternTree TierPattern(const std::string& variable, const PatternTree& statement) {
  PatternTree out;
  out.source = statement.source;
  out.root = TierNode(variable, statement.root);
  out.constraints.push_back(TierConstraint(variable));
  for (const PatternConstraint& c : statement.constraints) out.constraints.push_back(c);
  FinishPatternTree(&out);
  return out;
}

}  // namespace muh
