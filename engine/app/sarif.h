// verify's findings as a SARIF 2.1.0 log (`verify --format sarif`), for
// GitHub code scanning and other SARIF viewers. Pure: findings in, JSON out.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/app/verify_report.h"

namespace muh {

// `path` as a URI reference: every byte but unreserved ones (A-Z a-z 0-9
// - . _ ~) and '/' percent-encoded. An absolute path becomes a file:// URI.
std::string SarifUri(std::string_view path);

// One run of tool "muhpatch" `version`: a reportingDescriptor per finding
// kind (every kind verify knows, in a fixed order, then any other kind the
// findings use), and a result per finding with its kind as ruleId, its level
// (error, warning, note), its message (one line; with `with_details`, the
// derivation's lines after it, as --explain asks), the rule it
// concerns (properties.muhpatch-rule) and its location. A location is
// written as the finding shows it, relative to the directory muhpatch ran in
// (uriBaseId %SRCROOT%, which is how code scanning resolves it against the
// checkout), or as a file:// URI when absolute. `exit_code` goes to the
// invocation. Bytes that are not UTF-8 are escaped as \xHH.
std::string FormatSarif(const std::vector<Finding>& findings, std::string_view version,
                        int exit_code, bool with_details = false);

}  // namespace muh
