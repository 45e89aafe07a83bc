#include "engine/app/sarif.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "engine/base/exit_codes.h"
#include "engine/base/source_text.h"

namespace muh {

namespace {

struct KindInfo {
  const char* id;
  const char* description;
};

// The finding kinds of verify_report.h, as code scanning lists them.
constexpr KindInfo kKinds[] = {
    {"load", "The rules or the tree cannot be loaded."},
    {"input", "The committed patch cannot be read or is malformed."},
    {"plan",
     "A rule no longer applies: its site disappeared or multiplied, a file no longer "
     "parses, or a required precondition failed."},
    {"foreign", "A knob matches outside its rule's files: it moved or was copied."},
    {"site", "A knob the rules would still rewrite: the tree is not at the model's values."},
    {"hand-edited", "A knob holds neither upstream's value nor the model's: someone tuned it."},
    {"state", "A rule's status differs from the one recorded in the committed patch."},
    {"left-edited",
     "A site the committed patch left alone (dead, at its value, kept by hand) was edited "
     "since the patch was made."},
    {"stale", "The committed patch differs from what the rules produce now."},
    {"hunk", "A hunk of the committed patch no longer applies to the tree."},
    {"patch-file", "A file the committed patch names is not in the tree."},
    {"patch-change",
     "The committed patch renames a file, changes its mode, creates or deletes it: changes "
     "muhpatch never makes."},
};

const char* Level(Severity s) {
  return s == Severity::kError ? "error" : s == Severity::kWarning ? "warning" : "note";
}

bool Unreserved(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~';
}

}  // namespace

std::string SarifUri(std::string_view path) {
  std::string out = !path.empty() && path.front() == '/' ? "file://" : "";
  for (char ch : path) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (Unreserved(c) || c == '/') {
      out += ch;
    } else {
      out += fmt::format("%{:02X}", c);
    }
  }
  return out;
}

std::string FormatSarif(const std::vector<Finding>& findings, std::string_view version,
                        int exit_code, bool with_details) {
  using Json = nlohmann::ordered_json;
  std::vector<std::string> ids;
  Json rules = Json::array();
  auto add_rule = [&](const std::string& id, const std::string& text) {
    ids.push_back(id);
    rules.push_back({{"id", id}, {"shortDescription", {{"text", text}}}});
  };
  for (const KindInfo& k : kKinds) add_rule(k.id, k.description);
  Json results = Json::array();
  for (const Finding& f : findings) {
    std::size_t index = std::find(ids.begin(), ids.end(), f.kind) - ids.begin();
    if (index == ids.size()) add_rule(f.kind, "A finding of kind '" + f.kind + "'.");
    std::string text = f.where.message;
    if (with_details) {
      for (const std::string& d : f.details) text += "\n" + d;
    }
    Json result = {{"ruleId", f.kind},
                   {"ruleIndex", index},
                   {"level", Level(f.where.severity)},
                   {"message", {{"text", EscapeInvalidUtf8(text)}}}};
    if (!f.where.file.empty()) {
      std::string file = EscapeInvalidUtf8(f.where.file);
      Json artifact = {{"uri", SarifUri(file)}};
      if (file.front() != '/') artifact["uriBaseId"] = "%SRCROOT%";
      Json physical = {{"artifactLocation", artifact}};
      if (f.where.line > 0) {
        physical["region"] = {{"startLine", f.where.line}};
        if (f.where.column > 0) physical["region"]["startColumn"] = f.where.column;
      }
      result["locations"] = Json::array({{{"physicalLocation", physical}}});
    }
    if (!f.rule_id.empty()) result["properties"] = {{"muhpatch-rule", f.rule_id}};
    if (!f.assumptions.empty()) result["properties"]["muhpatch-assumptions"] = f.assumptions;
    results.push_back(std::move(result));
  }
  Json driver = {{"name", "muhpatch"},
                 {"version", std::string(version)},
                 {"semanticVersion", std::string(version)},
                 {"rules", rules}};
  Json run = {
      {"tool", {{"driver", driver}}},
      {"invocations",
       Json::array({{{"executionSuccessful", exit_code == kExitClean || exit_code == kExitDrift},
                     {"exitCode", exit_code}}})},
      {"results", results}};
  Json log = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
              {"version", "2.1.0"},
              {"runs", Json::array({run})}};
  return log.dump(2) + "\n";
}

}  // namespace muh
