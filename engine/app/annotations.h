// GitHub Actions workflow commands for verify's findings (`--format github`):
// `::error file=F,line=L,col=C,title=T::message`. Every drift finding
// (severity error) is an `::error`, a warning a `::warning`; notes are
// annotated (`::notice`) only when asked (-v), since a rule skipped by its
// precondition is not something to fix.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/app/verify_report.h"

namespace muh {

// A property value (file=, title=) as GitHub reads it back: '%', '\r', '\n',
// ':' and ',' become %25, %0D, %0A, %3A and %2C.
std::string EscapeAnnotationProperty(std::string_view value);

// A message: '%', '\r' and '\n' become %25, %0D and %0A (a command ends at
// a newline).
std::string EscapeAnnotationMessage(std::string_view message);

// One workflow command per finding, in order, each one line: the finding's
// message without its derivation (details). Notes are
// annotated only when `annotate_notes`; `*left_out` counts the notes left out.
std::string FormatGithubAnnotations(const std::vector<Finding>& findings, bool annotate_notes,
                                    int* left_out);

}  // namespace muh
