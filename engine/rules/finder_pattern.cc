// The kind of site `pattern:` (code_pattern.h), with `inside:` and
// `where:`: the pattern, or a list of alternatives, compiled once to the
// nodes the rule's QueryFinder matches (pattern_query.h); with `tiers:` (tier_rule.h), a tier
// family's statement, found by a TiersFinder (finder_tiers.h). Errors are located in the rule file:
// inside the pattern at the character at fault, at the `where:` entry for
// a bad constraint.
#include <fmt/format.h>
#include <re2/re2.h>

#include <optional>

#include "engine/base/edit_distance.h"
#include "engine/pattern/code_pattern.h"
#include "engine/rules/finder_kind.h"
#include "engine/rules/finder_query.h"
#include "engine/rules/finder_tiers.h"
#include "engine/rules/pattern_query.h"
#include "engine/rules/raw_rule_file.h"

namespace muh {

namespace {

// One `where:` entry: a metavariable and what its text must be.
struct RawWhere {
  std::string name;  // without '$'
  YAML::Mark mark;   // of the key
  enum class Kind { kEquals, kRegex, kRange, kAnyOf } kind = Kind::kEquals;
  RawScalar value;                // kEquals, kRegex
  std::vector<RawScalar> values;  // kAnyOf; kRange: the two bounds
};

struct RawPattern : RawFinderKeys {
  // `pattern:` a code pattern, or a list of alternatives (the first is
  // also in `pattern`, whose marks locate the key).
  RawScalar pattern;
  std::vector<RawScalar> patterns;
  RawScalar inside;
  std::vector<RawWhere> where;
  RawTiers tiers;  // `tiers:` (tier_rule.h): the pattern is a tier family's statement
};

// `where:` maps metavariables to a scalar (the text it must be) or to one
// of `regex: RE`, `range: [LO, HI]`, `any-of: [A, B, ...]`.
void ReadWhere(YamlReader* l, const YAML::Node& node, std::vector<RawWhere>* out) {
  if (!node.IsMap()) {
    l->Error(node.Mark(), "'where' must map metavariables to what they must be");
    return;
  }
  for (const auto& kv : node) {
    RawWhere w;
    w.name = kv.first.as<std::string>();
    if (!w.name.empty() && w.name[0] == '$') w.name.erase(0, 1);
    w.mark = kv.first.Mark();
    const YAML::Node& v = kv.second;
    if (v.IsScalar()) {
      l->Scalar(kv.first, v, &w.value);
      out->push_back(std::move(w));
      continue;
    }
    if (!v.IsMap() || v.size() != 1) {
      l->Error(v.Mark(),
               "a 'where' entry is a literal, or one of 'regex: RE', 'range: [LO, HI]', "
               "'any-of: [A, B]'");
      continue;
    }
    const auto& only = *v.begin();
    std::string kind = only.first.as<std::string>();
    if (kind == "regex") {
      w.kind = RawWhere::Kind::kRegex;
      l->Scalar(only.first, only.second, &w.value);
    } else if (kind == "range" || kind == "any-of") {
      w.kind = kind == "range" ? RawWhere::Kind::kRange : RawWhere::Kind::kAnyOf;
      l->ScalarList(only.first, only.second, &w.values);
      if (kind == "range" && w.values.size() != 2 && !w.values.empty()) {
        l->Error(only.second.Mark(), "'range' is a list of two numbers, [LO, HI]");
      }
    } else {
      l->Error(only.first.Mark(),
               fmt::format("unknown 'where' test '{}'{} (known: regex, range, any-of)", kind,
                           DidYouMean(kind, {"regex", "range", "any-of"})));
      continue;
    }
    out->push_back(std::move(w));
  }
}

std::shared_ptr<RawFinderKeys> Read(YamlReader* l, const YAML::Node& key, const YAML::Node& value,
                                    std::shared_ptr<RawFinderKeys> into) {
  std::shared_ptr<RawPattern> out =
      into ? std::static_pointer_cast<RawPattern>(into) : std::make_shared<RawPattern>();
  std::string k = key.as<std::string>();
  if (k == "pattern") {
    l->ScalarList(key, value, &out->patterns);
    out->pattern.present = true;
    out->pattern.key_mark = key.Mark();
    out->pattern.mark = value.Mark();
    if (!out->patterns.empty()) out->pattern = out->patterns.front();
  } else if (k == "inside") {
    l->Scalar(key, value, &out->inside);
  } else if (k == "where") {
    ReadWhere(l, value, &out->where);
  } else if (k == "tiers") {
    ReadTiers(l, key, value, &out->tiers);
  }
  return out;
}

bool ParseBound(const RawScalar& s, std::uint64_t* out) {
  const std::string& v = s.value;
  if (v.empty() || v.size() > 18 || v.find_first_not_of("0123456789") != std::string::npos)
    return false;
  *out = std::stoull(v);
  return true;
}

// The compiled pattern, or nullopt with errors reported through the
// check's reader.
std::optional<CompiledPattern> CompilePattern(const RawPattern& r, const FinderCheck& check) {
  YamlReader* reader = check.reader;
  auto error = [&](const YAML::Mark& m, const std::string& msg) { reader->Error(m, msg); };
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
  // Alternatives: a match of any is a site.
  std::vector<std::string> alternatives;
  for (const RawScalar& a : r.patterns) alternatives.push_back(a.value);
  CompiledPattern compiled;
  CodePatternError e;
  std::size_t failing = 0;
  // A tier family's statement, in any clause of a chain (tier_rule.h),
  // which `inside:` then holds.
  PatternWrap wrap;
  if (r.tiers.key.present) {
    const std::string variable = r.tiers.variable.value;
    wrap = [variable](PatternNode statement) { return TierNode(variable, statement); };
  }
  if (CompileCodePatterns(alternatives, p, &compiled, &e, &failing, check.target, wrap)) {
    if (r.tiers.key.present) {
      for (PatternTree& t : compiled.trees) {
        t.constraints.push_back(TierConstraint(r.tiers.variable.value));
        FinishPatternTree(&t);
      }
    }
    return compiled;
  }
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

std::shared_ptr<const Finder> Check(const RawFinderKeys& raw, FinderCheck* check) {
  const auto& r = static_cast<const RawPattern&>(raw);
  std::shared_ptr<const TierSpec> tiers;
  if (r.tiers.key.present) {
    if (!check->replaces || check->upstream) {
      check->reader->Error(r.tiers.key.key_mark,
                           "'tiers' goes with a 'pattern' (the statement in each tier), 'replace' "
                           "and 'with'; upstream values go in 'tiers: upstream:'");
    }
    tiers = CheckTiers(r.tiers, check->reader, *check->values);
  }
  std::optional<CompiledPattern> compiled = CompilePattern(r, *check);
  if (!compiled || (r.tiers.key.present && !tiers)) return nullptr;
  check->knob = compiled->knob;
  check->knob_shape = compiled->shape;
  auto q = std::make_shared<const PatternQuery>(std::move(compiled->trees));
  if (tiers) {
    check->tiers = tiers;
    return std::make_shared<TiersFinder>(std::move(q), check->target, std::move(tiers));
  }
  return std::make_shared<QueryFinder>(std::move(q), check->target);
}

}  // namespace

FinderKind PatternKind() {
  return {"pattern", {"inside", "where", "tiers"}, "", false, Read, Check};
}

const RawTiers* RawTiersOf(const RawRule& r) {
  auto it = r.finder_keys.find("pattern");
  if (it == r.finder_keys.end()) return nullptr;
  const RawTiers& tiers = static_cast<const RawPattern&>(*it->second).tiers;
  return tiers.key.present ? &tiers : nullptr;
}

}  // namespace muh
