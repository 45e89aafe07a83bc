#include "engine/app/verify_report.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "engine/base/exit_codes.h"
#include "engine/base/source_text.h"

namespace muh {

int PrintVerifyReport(const std::vector<Finding>& findings, const std::string& format, int code,
                      const std::string& status, const std::string& patch_diff) {
  const char* verdict = code == kExitClean ? "clean" : code == kExitDrift ? "drift" : "error";
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
    }
    if (!patch_diff.empty()) j["patch_diff"] = EscapeInvalidUtf8(patch_diff);
    j["message"] = EscapeInvalidUtf8(status);
    std::cout << j.dump(2) << "\n";
    return code;
  }
  auto diag = spdlog::get("diag");
  for (const Finding& f : findings) {
    if (format == "github") {
      const char* level = f.where.severity == Severity::kError ? "error" : "notice";
      std::string props = "file=" + f.where.file;
      if (f.where.line > 0) props += fmt::format(",line={}", f.where.line);
      if (f.where.column > 0) props += fmt::format(",col={}", f.where.column);
      // Workflow commands end at a newline; %0A carries the details.
      std::string msg = f.where.message;
      for (const std::string& d : f.details) msg += "%0A" + d;
      std::cout << fmt::format("::{} {}::{}\n", level, props, msg);
      continue;
    }
    // In text, the verdict line says what a stale finding would.
    if (f.kind == "stale") continue;
    diag->info(f.where.Format());
    for (const std::string& d : f.details) diag->info("    {}", d);
  }
  if (format != "github" && !patch_diff.empty()) std::cout << patch_diff;
  std::string last = fmt::format("verify: {}: {}", verdict, status);
  if (code == kExitBadInput && format == "text") return code;  // the errors say it all
  if (code == kExitClean) {
    std::cout << last << "\n";
  } else {
    diag->info(last);
  }
  return code;
}

}  // namespace muh
