#include "engine/app/sarif.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "engine/base/exit_codes.h"

namespace muh {

TEST_CASE("sarif: paths become URI references") {
  CHECK(SarifUri("tree/vllm/_custom_ops.py") == "tree/vllm/_custom_ops.py");
  CHECK(SarifUri("my tree/a%b#c.py") == "my%20tree/a%25b%23c.py");
  CHECK(SarifUri("/abs/x:y.py") == "file:///abs/x%3Ay.py");
  CHECK(SarifUri("t/\xc3\xa9.py") == "t/%C3%A9.py");
}

TEST_CASE("sarif: one result per finding, one descriptor per kind") {
  std::vector<Finding> findings = {
      {"site",
       Diagnostic{"tree/a b.py", 3, 5, Severity::kError, "drift: rule 'r' finds '1'"},
       {"  x = 2"},
       "r"},
      {"plan", MakeNote("tree/a.py", 7, 0, "rule 'q' skipped"), {}, "q"},
      {"stale", MakeError("p.diff", 0, 0, "drift: p.diff is stale"), {}, ""},
      {"liveness", MakeError("/abs/c.py", 1, 1, "dead"), {}, ""},
  };
  auto log = nlohmann::json::parse(FormatSarif(findings, "1.2.3", kExitDrift));
  CHECK(log["version"] == "2.1.0");
  const auto& run = log["runs"][0];
  CHECK(run["tool"]["driver"]["name"] == "muhpatch");
  CHECK(run["tool"]["driver"]["version"] == "1.2.3");
  const auto& rules = run["tool"]["driver"]["rules"];
  CHECK(rules.size() == 13);  // the twelve kinds verify knows, then "liveness"
  CHECK(rules.back()["id"] == "liveness");
  const auto& results = run["results"];
  REQUIRE(results.size() == 4);
  CHECK(results[0]["ruleId"] == "site");
  CHECK(rules[results[0]["ruleIndex"].get<std::size_t>()]["id"] == "site");
  CHECK(results[0]["level"] == "error");
  CHECK(results[0]["message"]["text"] == "drift: rule 'r' finds '1'");  // one line
  auto explained = nlohmann::json::parse(FormatSarif(findings, "1.2.3", kExitDrift, true));
  CHECK(explained["runs"][0]["results"][0]["message"]["text"] ==
        "drift: rule 'r' finds '1'\n  x = 2");  // --explain: with its derivation
  CHECK(results[0]["properties"]["muhpatch-rule"] == "r");
  const auto& loc = results[0]["locations"][0]["physicalLocation"];
  CHECK(loc["artifactLocation"]["uri"] == "tree/a%20b.py");
  CHECK(loc["artifactLocation"]["uriBaseId"] == "%SRCROOT%");
  CHECK(loc["region"]["startLine"] == 3);
  CHECK(loc["region"]["startColumn"] == 5);
  CHECK(results[1]["level"] == "note");
  CHECK_FALSE(results[1]["locations"][0]["physicalLocation"]["region"].contains("startColumn"));
  CHECK_FALSE(results[2]["locations"][0]["physicalLocation"].contains("region"));
  CHECK(results[3]["ruleIndex"] == 12);
  CHECK_FALSE(
      results[3]["locations"][0]["physicalLocation"]["artifactLocation"].contains("uriBaseId"));
  CHECK(run["invocations"][0]["executionSuccessful"] == true);
  CHECK(run["invocations"][0]["exitCode"] == 1);
}

TEST_CASE("sarif: a clean run has no results") {
  auto log = nlohmann::json::parse(FormatSarif({}, "0.1.0", kExitClean));
  CHECK(log["runs"][0]["results"].empty());
}

}  // namespace muh
