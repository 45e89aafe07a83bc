#include "engine/rules/rule_value_of.h"

#include <fmt/format.h>

#include <cctype>

#include "engine/pattern/code_pattern.h"

namespace muh {

namespace {

bool IsName(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

}  // namespace

std::optional<RuleValueOf> CheckValueOf(const RawValueOf& v, YamlReader* reader) {
  if (!v.present) return std::nullopt;
  std::size_t errors_before = reader->errors_->size();
  RuleValueOf out;
  auto name = [&](const RawScalar& s, const char* key, const char* what, std::string* into) {
    if (!s.present) {
      reader->Error(v.mark, fmt::format("'value-of' needs '{}': {}", key, what));
    } else if (!IsName(s.value)) {
      reader->Error(s.mark, fmt::format("'{}' is a Python name, got '{}'", key, s.value));
    } else {
      *into = s.value;
    }
  };
  name(v.name, "name", "the variable whose value the rule rewrites", &out.question.variable);
  name(v.in, "in", "the function that reads it", &out.question.function);
  if (v.key.present) {
    if (v.key.value.empty() || v.key.value.find_first_of("'\"\\\n") != std::string::npos)
      reader->Error(v.key.mark, "'key' is a dict key as its string holds it, without quotes");
    else
      out.question.key = v.key.value;
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
      out.question.condition = *parsed;
      out.question.condition_as_written = c.value;
      out.question.holds = v.when_true.present;
    }
  }
  if (reader->errors_->size() != errors_before) return std::nullopt;
  // Every assignment of the knob in the function, whatever the path.
  const std::string& var = out.question.variable;
  const std::string& key = out.question.key;
  std::string target = std::string("$") + kValueOfTarget;
  std::vector<std::string> alternatives = {var + " = " + target};
  if (!key.empty()) {
    alternatives = {var + " = {'" + key + "': " + target + "}",
                    var + "['" + key + "'] = " + target};
  }
  CodePattern p;
  p.inside = "def " + out.question.function + "($$$):\n    $$$";
  CompiledPattern compiled;
  CodePatternError e;
  std::size_t failing = 0;
  if (!CompileCodePatterns(alternatives, p, &compiled, &e, &failing, kValueOfTarget)) {
    reader->Error(v.key_mark, "'value-of' compiles to no query: " + e.message);
    return std::nullopt;
  }
  out.query = compiled.query;
  return out;
}

}  // namespace muh
