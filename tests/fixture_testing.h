// Test-only helpers: the fixture tree's Python files and the queries of
// rules/bi100.yaml, for tests that compare two ways of doing one thing over
// real inputs. Header-only, so the library never links it.
#pragma once

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "engine/rules/rule_checker.h"
#include "engine/rules/rule_loader.h"

namespace muh::testing {

inline std::string Slurp(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// The real enginex tree (../shared/targets/enginex-vllm beside the
// checkout), or nullopt when it is absent. Then it prints the marker that
// CTest reads as "skipped" (SKIP_REGULAR_EXPRESSION, CMakeLists.txt), so a
// test that needs the tree is reported as skipped, never as passed.
inline std::filesystem::path RealTreePath() {
  return std::filesystem::path(MUHPATCH_SOURCE_DIR) / ".." / "shared/targets/enginex-vllm";
}

inline std::optional<std::filesystem::path> RealTreeOrSkip() {
  namespace fs = std::filesystem;
  fs::path root = RealTreePath();
  if (fs::exists(root / "vllm")) return root;
  std::cout << "muhpatch-test-skipped: " << root.string() << " is absent\n";
  return std::nullopt;
}

// Every .py file under fixtures/, sorted.
inline std::vector<std::filesystem::path> FixturePython() {
  namespace fs = std::filesystem;
  std::vector<fs::path> out;
  for (const auto& e :
       fs::recursive_directory_iterator(fs::path(MUHPATCH_SOURCE_DIR) / "fixtures")) {
    if (e.is_regular_file() && e.path().extension() == ".py") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The query texts of rules/bi100.yaml (queries, done-when and
// preconditions; code patterns compile to nodes, not text), in file order.
inline std::vector<std::string> Bi100Queries() {
  std::string path = std::string(MUHPATCH_SOURCE_DIR) + "/rules/bi100.yaml";
  RawRuleFile raw;
  std::vector<Diagnostic> errors;
  std::vector<std::string> out;
  if (!ReadRules(path, Slurp(path), &raw, &errors)) return out;
  for (const NamedPreconditions& n : raw.preconditions) PreconditionQueryTexts(n.entries, &out);
  for (const RawRule& r : raw.rules) {
    for (const std::string& t : KindQueryTexts(r)) out.push_back(t);
    if (r.done_when.present) out.push_back(r.done_when.value);
    PreconditionQueryTexts(r.preconditions, &out);
  }
  return out;
}

}  // namespace muh::testing
