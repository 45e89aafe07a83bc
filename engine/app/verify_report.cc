#include "engine/app/verify_report.h"

#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "engine/app/annotations.h"
#include "engine/app/diag_output.h"
#include "engine/app/sarif.h"
#include "engine/base/colour.h"
#include "engine/base/exit_codes.h"
#include "engine/base/logging.h"
#include "engine/base/plural.h"
#include "engine/base/source_text.h"

namespace muh {

namespace {

// Whether `f` says why verify could not run: the rules, the tree or the
// patch would not load, or the whole-tree search could not read a file.
bool CouldNotRun(const Finding& f) {
  return f.where.severity == Severity::kError &&
         (f.kind == "load" || f.kind == "input" || f.kind == "unreadable" ||
          f.kind == "over-budget");
}

// In a machine format the report goes to stdout, which a CI log may not
// show: why verify could not run is said on stderr too, each reason as
// `file:line:col: error: message`, then the verdict.
void ReportErrorsOnStderr(const std::vector<Finding>& findings, const std::string& verdict) {
  for (const Finding& f : findings) {
    if (CouldNotRun(f)) logging::Diag(f.where.Format(), true);
  }
  logging::Diag(verdict, true);
}

// The plan's counts as JSON: rules by outcome, sites by liveness.
nlohmann::ordered_json CountsJson(const PlanCounts& c) {
  nlohmann::ordered_json rules;
  rules["total"] = c.rules;
  rules["rewrites"] = c.rewrite;
  rules["at value"] = c.at_value;
  rules["skipped"] = c.skipped;
  rules["no value"] = c.no_value;
  rules["dead"] = c.dead;
  rules["hand-tuned"] = c.hand_tuned;
  rules["retired"] = c.retired;
  rules["failed"] = c.failed;
  nlohmann::ordered_json sites;
  sites["total"] = c.sites;
  sites["live"] = c.live_sites;
  sites["dead"] = c.dead_sites;
  sites["unknown"] = c.unknown_sites;
  sites["hand-tuned kept"] = c.kept_sites;
  return {{"rules", rules}, {"sites", sites}};
}

}  // namespace

int PrintVerifyReport(const std::vector<Finding>& findings, const std::string& format, int code,
                      const std::string& status, const std::string& patch_diff,
                      const std::string& rules_summary, const PlanCounts* counts) {
  const char* verdict = code == kExitClean ? "clean" : code == kExitDrift ? "drift" : "error";
  std::string last = fmt::format("verify: {}: {}", verdict, status);
  if (format != "text" && code != kExitClean && code != kExitDrift) {
    ReportErrorsOnStderr(findings, last);
  }
  if (format == "json") {
    nlohmann::ordered_json j;
    j["status"] = verdict;
    j["exit_code"] = code;
    j["message"] = status;
    j["findings"] = nlohmann::json::array();
    for (const Finding& f : findings) {
      std::vector<std::string> details;
      for (const std::string& d : f.details) details.push_back(EscapeInvalidUtf8(d));
      // File names and messages may hold any bytes; JSON holds UTF-8.
      j["findings"].push_back({{"kind", f.kind},
                               {"rule", f.rule_id},
                               {"severity", SeverityName(f.where.severity)},
                               {"file", EscapeInvalidUtf8(f.where.file)},
                               {"line", f.where.line},
                               {"column", f.where.column},
                               {"message", EscapeInvalidUtf8(f.where.message)},
                               {"details", details}});
      if (!f.assumptions.empty()) j["findings"].back()["assumptions"] = f.assumptions;
    }
    if (!patch_diff.empty()) j["patch_diff"] = EscapeInvalidUtf8(patch_diff);
    if (counts != nullptr) j["summary"] = CountsJson(*counts);
    j["message"] = EscapeInvalidUtf8(status);
    std::cout << j.dump(2) << "\n";
    return code;
  }
  if (format == "sarif")
    std::cout << FormatSarif(findings, MUHPATCH_VERSION, code, ExplainDerivations());
  // Quiet by default: the rules left alone are counted in one line, and
  // their notes wait for -v.
  const bool summarise = (code == kExitClean || code == kExitDrift) && !rules_summary.empty();
  if (format == "github") {
    int left_out = 0;
    std::cout << FormatGithubAnnotations(findings, Verbosity() > 0, &left_out);
    if (summarise) {
      logging::Diag(fmt::format("muhpatch: {}", rules_summary));
    } else if (left_out > 0) {
      logging::Diag(
          fmt::format("verify: {} not annotated (-v annotates them)", Counted(left_out, "note")));
    }
  }
  for (const Finding& f : findings) {
    if (format != "text") break;
    // In text, the verdict line says what the patch's own stale finding would.
    if (f.kind == "stale" && f.rule_id.empty()) continue;
    if (f.where.severity == Severity::kNote && f.kind == "plan" && Verbosity() == 0) continue;
    logging::Diag(f.where.Format());
    // The derivation, only when asked for; a stale line's two versions always.
    if (!ExplainDerivations() && f.kind != "stale") continue;
    for (const std::string& d : f.details) logging::Diag(fmt::format("    {}", d));
  }
  if (format == "text" && summarise) logging::Diag(fmt::format("muhpatch: {}", rules_summary));
  if (format == "text" && !patch_diff.empty() && Verbosity() > 0) {
    std::cout << (ColourStdout() ? ColourUnifiedDiff(patch_diff) : patch_diff);
  }
  if (code == kExitBadInput && format == "text") return code;  // the errors say it all
  if (format != "text" && code != kExitClean && code != kExitDrift) return code;  // said above
  // The verdict goes to stderr, after the findings; -q keeps it unless clean.
  if (code == kExitClean) {
    logging::Diag(last);
  } else {
    logging::Diag(last, true);
  }
  return code;
}

}  // namespace muh
