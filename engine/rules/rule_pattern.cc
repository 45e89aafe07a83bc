#include "engine/rules/rule_pattern.h"

#include <fmt/format.h>
#include <re2/re2.h>

#include "engine/pattern/code_pattern.h"

namespace muh {

namespace {

bool ParseBound(const RawScalar& s, std::uint64_t* out) {
  const std::string& v = s.value;
  if (v.empty() || v.size() > 18 || v.find_first_not_of("0123456789") != std::string::npos)
    return false;
  *out = std::stoull(v);
  return true;
}

}  // namespace

std::optional<RulePatternText> RulePatternQuery(const RawRule& r, YamlReader* reader) {
  auto error = [&](const YAML::Mark& m, const std::string& msg) {
    if (reader != nullptr) reader->Error(m, msg);
  };
  CodePattern p;
  p.pattern = r.pattern.value;
  if (r.inside.present) p.inside = r.inside.value;
  bool ok = true;
  for (const RawWhere& w : r.where) {
    WhereConstraint c;
    c.metavariable = w.name;
    switch (w.kind) {
      case RawWhere::Kind::kEquals:
        c.kind = WhereConstraint::Kind::kEquals;
        c.texts = {w.value.value};
        break;
      case RawWhere::Kind::kRegex: {
        c.kind = WhereConstraint::Kind::kRegex;
        c.texts = {w.value.value};
        re2::RE2::Options options;
        options.set_log_errors(false);
        re2::RE2 re(w.value.value, options);
        if (!re.ok()) {
          error(w.value.mark,
                fmt::format("invalid regular expression '{}': {}", w.value.value, re.error()));
          ok = false;
        }
        break;
      }
      case RawWhere::Kind::kAnyOf:
        c.kind = WhereConstraint::Kind::kAnyOf;
        for (const RawScalar& v : w.values) c.texts.push_back(v.value);
        break;
      case RawWhere::Kind::kRange:
        c.kind = WhereConstraint::Kind::kRange;
        if (w.values.size() != 2) {
          ok = false;
          break;
        }
        for (int k = 0; k < 2; ++k) {
          if (!ParseBound(w.values[k], k == 0 ? &c.lo : &c.hi)) {
            error(w.values[k].mark, fmt::format("a range bound is a whole number of at least 0, "
                                                "got '{}'",
                                                w.values[k].value));
            ok = false;
          }
        }
        if (ok && c.lo > c.hi) {
          error(w.values[0].mark, fmt::format("the range [{}, {}] is empty", c.lo, c.hi));
          ok = false;
        }
        break;
    }
    p.where.push_back(std::move(c));
  }
  if (!ok || r.patterns.empty()) return std::nullopt;
  // Alternatives are patterns of one query: a match of any is a site.
  std::string target = r.replace.present ? r.replace.value
                       : r.del.present   ? r.del.value
                                         : r.append_to.value;
  if (!target.empty() && target[0] == '@') target.erase(0, 1);
  RulePatternText out;
  std::vector<std::string> alternatives;
  for (const RawScalar& a : r.patterns) alternatives.push_back(a.value);
  CompiledPattern compiled;
  CodePatternError e;
  std::size_t failing = 0;
  if (CompileCodePatterns(alternatives, p, &compiled, &e, &failing, target)) {
    // A tier family's statement, in any clause of a chain (tier_rule.h).
    out.query =
        r.tiers.key.present ? TierQuery(r.tiers.variable.value, compiled.query) : compiled.query;
    out.knob = compiled.knob;
    out.shape = compiled.shape;
    return out;
  }
  if (reader == nullptr) return std::nullopt;
  if (e.part == CodePatternError::Part::kWhere) {
    reader->Error(r.where[e.where_index].mark, e.message);
  } else {
    const RawScalar& s =
        e.part == CodePatternError::Part::kPattern ? r.patterns[failing] : r.inside;
    RuleLoc at = reader->OffsetLoc(s.mark, e.offset);
    std::string key = e.part == CodePatternError::Part::kPattern ? "pattern" : "inside";
    reader->errors_->push_back(
        MakeError(reader->path_, at.line, at.column, fmt::format("'{}': {}", key, e.message)));
  }
  return std::nullopt;
}

}  // namespace muh
