#include "engine/app/rule_test_runner.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>

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

bool ReadCases(const YAML::Node& list, const std::string& path, std::vector<Case>* out,
               std::vector<std::string>* errors) {
  if (!list) return true;
  if (!list.IsSequence()) {
    errors->push_back(
        fmt::format("{}:{}: a list of cases is expected", path, list.Mark().line + 1));
    return false;
  }
  for (const YAML::Node& n : list) {
    Case c;
    c.where = fmt::format("{}:{}", path, n.Mark().line + 1);
    if (!n.IsMap() || !n["code"]) {
      errors->push_back(c.where + ": a case needs 'code'");
      continue;
    }
    c.code = n["code"].as<std::string>();
    if (n["fixed"]) {
      c.has_fixed = true;
      c.fixed = n["fixed"].as<std::string>();
    }
    if (YAML::Node f = n["files"]) {
      for (const auto& kv : f)
        c.extra_files[kv.first.as<std::string>()] = kv.second.as<std::string>();
    }
    out->push_back(std::move(c));
  }
  return true;
}

}  // namespace

RuleTestReport RunRuleTests(const RuleSet& rules, const std::string& tests_path,
                            const std::string& tests_text) {
  RuleTestReport report;
  YAML::Node root;
  try {
    root = YAML::Load(tests_text);
  } catch (const YAML::ParserException& e) {
    report.load_errors.push_back(fmt::format("{}:{}:{}: malformed YAML: {}", tests_path,
                                             e.mark.line + 1, e.mark.column + 1, e.msg));
    return report;
  }
  std::vector<std::string> covered;
  for (const YAML::Node& t : root["tests"]) {
    std::string id = t["rule"] ? t["rule"].as<std::string>() : "";
    auto rule = std::find_if(rules.rules.begin(), rules.rules.end(),
                             [&](const Rule& r) { return r.id == id; });
    if (rule == rules.rules.end()) {
      report.load_errors.push_back(
          fmt::format("{}:{}: no rule '{}' in {}", tests_path, t.Mark().line + 1, id, rules.path));
      continue;
    }
    covered.push_back(id);
    std::vector<Case> match, no_match, skipped;
    ReadCases(t["match"], tests_path, &match, &report.load_errors);
    ReadCases(t["no-match"], tests_path, &no_match, &report.load_errors);
    ReadCases(t["skipped"], tests_path, &skipped, &report.load_errors);
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
  return report;
}

}  // namespace muh
