#include "engine/rules/finder_value_of.h"

#include <fmt/format.h>

#include "engine/pattern/code_pattern.h"
#include "engine/rules/pattern_query.h"

namespace muh {

namespace {

// The capture a `value-of` rule's sites have: the value it rewrites.
constexpr const char* kTarget = "value";

const std::vector<std::string> kValueOfKeys = {"name", "key", "in", "when-false", "when-true"};

struct RawValueOf : RawFinderKeys {
  YAML::Mark mark;  // of its mapping
  RawScalar name, key, in, when_false, when_true;
};

std::shared_ptr<RawFinderKeys> Read(YamlReader* l, const YAML::Node& key, const YAML::Node& node,
                                    std::shared_ptr<RawFinderKeys>) {
  auto out = std::make_shared<RawValueOf>();
  out->key_mark = key.Mark();
  out->mark = node.Mark();
  if (!node.IsMap()) {
    l->Error(node.Mark(),
             "'value-of' must be a mapping: {name: VARIABLE, in: FUNCTION, when-false: CONDITION}");
    return out;
  }
  l->CheckKeys(node, kValueOfKeys, "value-of");
  for (const auto& kv : node) {
    std::string k = kv.first.as<std::string>();
    RawScalar* into = k == "name"         ? &out->name
                      : k == "key"        ? &out->key
                      : k == "in"         ? &out->in
                      : k == "when-false" ? &out->when_false
                      : k == "when-true"  ? &out->when_true
                                          : nullptr;
    if (into != nullptr) l->Scalar(kv.first, kv.second, into);
  }
  return out;
}

std::shared_ptr<const Finder> Check(const RawFinderKeys& raw, FinderCheck* check) {
  YamlReader* reader = check->reader;
  const auto& v = static_cast<const RawValueOf&>(raw);
  std::size_t errors_before = reader->errors_->size();
  ValueQuestion question;
  if (PythonNameKey(reader, v.name, "value-of", v.mark, "name",
                    "the variable whose value the rule rewrites")) {
    question.variable = v.name.value;
  }
  if (PythonNameKey(reader, v.in, "value-of", v.mark, "in", "the function that reads it")) {
    question.function = v.in.value;
  }
  if (v.key.present) {
    if (v.key.value.empty() || v.key.value.find_first_of("'\"\\\n") != std::string::npos)
      reader->Error(v.key.mark, "'key' is a dict key as its string holds it, without quotes");
    else
      question.key = v.key.value;
  }
  if (v.when_false.present == v.when_true.present) {
    reader->Error(v.when_true.present ? v.when_true.key_mark : v.mark,
                  "'value-of' needs one of 'when-false' or 'when-true': the condition whose path "
                  "the rule rewrites");
  } else {
    const RawScalar& c = v.when_false.present ? v.when_false : v.when_true;
    std::size_t at = 0;
    std::string error;
    std::optional<BranchCondition> parsed = ParseBranchCondition(c.value, &at, &error);
    if (!parsed) {
      RuleLoc loc = reader->OffsetLoc(c.mark, at);
      reader->errors_->push_back(MakeError(
          reader->path_, loc.line, loc.column,
          fmt::format("'{}': {}", v.when_false.present ? "when-false" : "when-true", error)));
    } else {
      question.condition = *parsed;
      question.condition_as_written = c.value;
      question.holds = v.when_true.present;
    }
  }
  if (reader->errors_->size() != errors_before) return nullptr;
  // Every assignment of the knob in the function, whatever the path.
  const std::string& var = question.variable;
  const std::string& key = question.key;
  std::string target = std::string("$") + kTarget;
  std::vector<std::string> alternatives = {var + " = " + target};
  if (!key.empty()) {
    alternatives = {var + " = {'" + key + "': " + target + "}",
                    var + "['" + key + "'] = " + target};
  }
  CodePattern p;
  p.inside = "def " + question.function + "($$$):\n    $$$";
  CompiledPattern compiled;
  CodePatternError e;
  std::size_t failing = 0;
  if (!CompileCodePatterns(alternatives, p, &compiled, &e, &failing, kTarget)) {
    reader->Error(v.key_mark, "'value-of' compiles to no pattern: " + e.message);
    return nullptr;
  }
  auto query = std::make_shared<const PatternQuery>(std::move(compiled.trees));
  return std::make_shared<ValueOfFinder>(std::move(query), std::move(question));
}

}  // namespace

FinderKind ValueOfKind() { return {"value-of", {}, kTarget, true, Read, Check}; }

FoundSites ValueOfFinder::Find(const SyntaxTree& tree) const {
  FoundSites out;
  ReachingValues found = FindReachingValues(tree, question_);
  if (!found.problem.empty()) {
    out.lost = ": " + found.problem;
    out.lost_at = found.problem_at;
    return out;
  }
  for (const ReachingValue& v : found.values) {
    SiteMatch& site = out.sites.emplace_back();
    site.match.captures.push_back(Capture{kTarget, v.begin, v.end, v.text, ""});
    site.target = kTarget;
    site.at = v.begin;
    site.path_only = true;
    if (v.shared) {
      site.path_condition = found.condition_text;
      site.path_condition_true = found.condition_true;
      site.path_operand = v.operand;
      for (const std::string& name : found.condition_names) {
        site.bound_constants.push_back(BoundConstant{name, v.begin, true});
      }
    }
  }
  return out;
}

}  // namespace muh
