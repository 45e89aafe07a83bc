// Test-only helpers: the fixture tree's Python files and the queries of
// rules/bi100.yaml, for tests that compare two ways of doing one thing over
// real inputs. Header-only, so the library never links it.
#pragma once

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace muh::testing {

inline std::string Slurp(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
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

inline void CollectQueries(const YAML::Node& n, std::vector<std::string>* out) {
  if (n.IsMap()) {
    for (const auto& kv : n) {
      std::string key = kv.first.as<std::string>();
      if ((key == "query" || key == "present" || key == "absent" || key == "done-when") &&
          kv.second.IsScalar()) {
        out->push_back(kv.second.as<std::string>());
      } else {
        CollectQueries(kv.second, out);
      }
    }
  } else if (n.IsSequence()) {
    for (const auto& x : n) CollectQueries(x, out);
  }
}

// The query texts of rules/bi100.yaml (queries and preconditions).
inline std::vector<std::string> Bi100Queries() {
  std::vector<std::string> out;
  CollectQueries(YAML::LoadFile(std::string(MUHPATCH_SOURCE_DIR) + "/rules/bi100.yaml"), &out);
  return out;
}

}  // namespace muh::testing
