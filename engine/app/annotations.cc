#include "engine/app/annotations.h"

#include <fmt/format.h>

namespace muh {

namespace {

std::string Escape(std::string_view s, bool property) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == '%') {
      out += "%25";
    } else if (c == '\r') {
      out += "%0D";
    } else if (c == '\n') {
      out += "%0A";
    } else if (property && c == ':') {
      out += "%3A";
    } else if (property && c == ',') {
      out += "%2C";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string EscapeAnnotationProperty(std::string_view value) { return Escape(value, true); }

std::string EscapeAnnotationMessage(std::string_view message) { return Escape(message, false); }

std::string FormatGithubAnnotations(const std::vector<Finding>& findings, bool annotate_notes,
                                    int* left_out) {
  std::string out;
  *left_out = 0;
  for (const Finding& f : findings) {
    const char* command = f.where.severity == Severity::kError     ? "error"
                          : f.where.severity == Severity::kWarning ? "warning"
                                                                   : "notice";
    if (f.where.severity == Severity::kNote && !annotate_notes) {
      ++*left_out;
      continue;
    }
    std::vector<std::string> props;
    if (!f.where.file.empty()) props.push_back("file=" + EscapeAnnotationProperty(f.where.file));
    if (f.where.line > 0) props.push_back(fmt::format("line={}", f.where.line));
    if (f.where.line > 0 && f.where.column > 0)
      props.push_back(fmt::format("col={}", f.where.column));
    std::string title = "muhpatch " + f.kind;
    if (!f.rule_id.empty()) title += ": rule " + f.rule_id;
    props.push_back("title=" + EscapeAnnotationProperty(title));
    // One line: the derivation stays in the text and JSON reports.
    out += fmt::format("::{} {}::{}\n", command, fmt::join(props, ","),
                       EscapeAnnotationMessage(f.where.message));
  }
  return out;
}

}  // namespace muh
