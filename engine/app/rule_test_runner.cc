#include "engine/app/rule_test_runner.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>

#include "engine/base/edit_distance.h"
#include "engine/base/glob.h"
#include "engine/patch/unified_diff.h"
#include "engine/plan/planner.h"

namespace muh {

namespace {

struct Case {
  std::string where;  // tests.yaml:LINE
  std::string code;
  bool has_fixed = false;
  std::string fixed;
  std::map<std::string, std::string> extra_files;
};

// The first literal path of the rule, where snippets are placed.
std::string SnippetPath(const Rule& rule) {
  for (const std::string& f : rule.files) {
    if (!IsGlob(f)) return f;
  }
  return "snippet.py";
}

enum class Want { kMatch, kNoMatch, kSkipped };

std::string RunCase(const RuleSet& all, const Rule& rule, const Case& c, Want want) {
  RuleSet one;
  one.path = all.path;
  one.table = all.table;
  one.values = all.values;
  one.rules.push_back(rule);
  // A snippet tests what the rule writes at a site, whatever value the
  // snippet holds there: it is never the maintainers' hand-tuned value.
  one.rules.back().retune = true;
  std::string path = SnippetPath(rule);
  std::map<std::string, SourceText> files;
  files.emplace(path, SourceText(path, c.code));
  for (const auto& [p, text] : c.extra_files) files.emplace(p, SourceText(p, text));
  std::vector<std::string> paths;
  for (const auto& [p, f] : files) paths.push_back(p);
  PlanResult plan = Plan(one, files, paths);
  std::string diags;
  for (const Diagnostic& d : plan.diagnostics) diags += "\n    " + d.Format();
  bool skipped = !plan.outcomes.empty() && plan.outcomes[0].status == RuleStatus::kSkipped;
  if (want == Want::kSkipped) {
    return skipped && plan.new_contents.empty()
               ? ""
               : fmt::format("{}: expected the rule to be skipped by a precondition{}", c.where,
                             diags);
  }
  if (want == Want::kNoMatch) {
    bool found_none = !plan.ok() && plan.outcomes[0].sites == 0;
    return found_none ? ""
                      : fmt::format("{}: expected no site, but the rule matched{}", c.where, diags);
  }
  if (!plan.ok() || skipped) return fmt::format("{}: expected a match{}", c.where, diags);
  auto it = plan.new_contents.find(path);
  std::string got = it == plan.new_contents.end() ? c.code : it->second;
  std::string expected = c.has_fixed ? c.fixed : c.code;
  if (got == expected) return "";
  return fmt::format("{}: the rewrite differs from 'fixed':\n{}", c.where,
                     UnifiedDiff(path, expected, got));
}

const std::vector<std::string> kTopKeys = {"tests"};
const std::vector<std::string> kTestKeys = {"rule", "match", "no-match", "skipped"};
const std::vector<std::string> kCaseKeys = {"code", "fixed", "files"};

// Located errors about the test file.
class TestFileErrors {
 public:
  TestFileErrors(const std::string& path, std::vector<Diagnostic>* out) : path_(path), out_(out) {}
  void At(const YAML::Mark& m, std::string msg) {
    out_->push_back(MakeError(path_, m.line + 1, m.column + 1, std::move(msg)));
  }
  // A case with a key the runner does not know would be dropped or half
  // read; it is an error instead.
  bool KnownKeys(const YAML::Node& map, const std::vector<std::string>& allowed,
                 const char* where) {
    bool ok = true;
    for (const auto& kv : map) {
      std::string k = kv.first.as<std::string>();
      if (std::find(allowed.begin(), allowed.end(), k) != allowed.end()) continue;
      At(kv.first.Mark(),
         fmt::format("unknown key '{}' in {}{}", k, where, DidYouMean(k, allowed)));
      ok = false;
    }
    return ok;
  }
  const std::string& path() const { return path_; }

 private:
  const std::string& path_;
  std::vector<Diagnostic>* out_;
};

std::string ScalarText(const YAML::Node& n, const char* key, TestFileErrors* errors, bool* ok) {
  if (n.IsScalar()) return n.as<std::string>();
  errors->At(n.Mark(), fmt::format("'{}' must be a string", key));
  *ok = false;
  return "";
}

void ReadCases(const YAML::Node& list, std::vector<Case>* out, TestFileErrors* errors) {
  if (!list) return;
  if (!list.IsSequence()) {
    errors->At(list.Mark(), "a list of cases is expected");
    return;
  }
  for (const YAML::Node& n : list) {
    Case c;
    c.where = fmt::format("{}:{}", errors->path(), n.Mark().line + 1);
    if (!n.IsMap()) {
      errors->At(n.Mark(), "a case must be a mapping with 'code'");
      continue;
    }
    bool ok = errors->KnownKeys(n, kCaseKeys, "test case");
    if (!n["code"]) {
      errors->At(n.Mark(), "a case needs 'code'");
      continue;
    }
    c.code = ScalarText(n["code"], "code", errors, &ok);
    if (n["fixed"]) {
      c.has_fixed = true;
      c.fixed = ScalarText(n["fixed"], "fixed", errors, &ok);
    }
    if (YAML::Node f = n["files"]) {
      if (!f.IsMap()) {
        errors->At(f.Mark(), "'files' must map paths to file contents");
        ok = false;
      } else {
        for (const auto& kv : f) {
          c.extra_files[kv.first.as<std::string>()] = ScalarText(kv.second, "files", errors, &ok);
        }
      }
    }
    if (ok) out->push_back(std::move(c));
  }
}

void RunAll(const RuleSet& rules, const std::string& tests_path, const std::string& tests_text,
            RuleTestReport* out) {
  RuleTestReport& report = *out;
  TestFileErrors errors(tests_path, &report.load_errors);
  YAML::Node root;
  try {
    root = YAML::Load(tests_text);
  } catch (const YAML::ParserException& e) {
    errors.At(e.mark, "malformed YAML: " + e.msg);
    return;
  }
  if (!root.IsMap() || !root["tests"] || !root["tests"].IsSequence()) {
    errors.At(root.Mark(), "a rule test file must be a mapping with a list 'tests'");
    return;
  }
  // Top-level keys starting with `x-` hold shared YAML anchors (files that
  // several cases reuse); any other unknown key is an error.
  for (const auto& kv : root) {
    std::string k = kv.first.as<std::string>();
    if (k == "tests" || k.rfind("x-", 0) == 0) continue;
    errors.At(kv.first.Mark(), fmt::format("unknown key '{}' in rule test file{} (shared anchors "
                                           "go under keys starting with 'x-')",
                                           k, DidYouMean(k, kTopKeys)));
  }
  std::vector<std::string> covered;
  std::vector<std::string> ids;
  for (const Rule& r : rules.rules) ids.push_back(r.id);
  for (const YAML::Node& t : root["tests"]) {
    if (!t.IsMap()) {
      errors.At(t.Mark(), "a test must be a mapping with 'rule'");
      continue;
    }
    errors.KnownKeys(t, kTestKeys, "test");
    std::string id = t["rule"] && t["rule"].IsScalar() ? t["rule"].as<std::string>() : "";
    auto rule = std::find_if(rules.rules.begin(), rules.rules.end(),
                             [&](const Rule& r) { return r.id == id; });
    if (rule == rules.rules.end()) {
      errors.At(t["rule"] ? t["rule"].Mark() : t.Mark(),
                fmt::format("no rule '{}' in {}{}", id, rules.path, DidYouMean(id, ids)));
      continue;
    }
    covered.push_back(id);
    std::vector<Case> match, no_match, skipped;
    ReadCases(t["match"], &match, &errors);
    ReadCases(t["no-match"], &no_match, &errors);
    ReadCases(t["skipped"], &skipped, &errors);
    for (const auto& [cases, want] :
         {std::pair{&match, Want::kMatch}, std::pair{&no_match, Want::kNoMatch},
          std::pair{&skipped, Want::kSkipped}}) {
      for (const Case& c : *cases) {
        std::string failure = RunCase(rules, *rule, c, want);
        if (failure.empty()) {
          ++report.passed;
        } else {
          ++report.failed;
          report.failures.push_back(failure);
        }
      }
    }
  }
  for (const Rule& r : rules.rules) {
    if (std::find(covered.begin(), covered.end(), r.id) == covered.end()) {
      report.untested.push_back(r.id);
    }
  }
}

}  // namespace

RuleTestReport RunRuleTests(const RuleSet& rules, const std::string& tests_path,
                            const std::string& tests_text) {
  RuleTestReport report;
  try {
    RunAll(rules, tests_path, tests_text, &report);
  } catch (const YAML::Exception& e) {
    report.load_errors.push_back(MakeError(tests_path, e.mark.line + 1, e.mark.column + 1,
                                           "unexpected YAML structure: " + e.msg));
  }
  return report;
}

}  // namespace muh
