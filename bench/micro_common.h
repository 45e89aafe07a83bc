// Shared helpers for the micro-benchmarks: read a file of the source tree,
// and pull the tree-sitter queries out of rules/bi100.yaml.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/rules/rule_checker.h"
#include "engine/rules/rule_loader.h"

namespace muhbench {

inline std::string SourcePath(const std::string& rel) {
  return std::string(MUHPATCH_SOURCE_DIR) + "/" + rel;
}

// The bytes of `path`; exits on failure (a benchmark without its input
// measures nothing).
inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "micro benchmark: cannot read %s\n", path.c_str());
    std::exit(2);
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The bytes of SOURCE_DIR/rel.
inline std::string ReadSource(const std::string& rel) { return ReadFile(SourcePath(rel)); }

struct RuleQuery {
  std::string id;    // rule id, or "id/precondition", "id/done-when"
  std::string text;  // the query source
};

// Every query of rules/bi100.yaml: each rule's `query`,
// its `done-when` and its preconditions' `present`/`absent`, in file order.
inline std::vector<RuleQuery> Bi100Queries() {
  YAML::Node root = YAML::LoadFile(SourcePath("rules/bi100.yaml"));
  std::vector<RuleQuery> out;
  for (const YAML::Node& r : root["rules"]) {
    std::string id = r["id"].as<std::string>();
    if (r["query"]) {
      out.push_back({id, r["query"].as<std::string>()});
    }  // a code pattern or `value-of` compiles to nodes (code_pattern.h), not a query
    if (r["done-when"]) out.push_back({id + "/done-when", r["done-when"].as<std::string>()});
    if (r["preconditions"]) {
      for (const YAML::Node& p : r["preconditions"]) {
        for (const char* k : {"present", "absent"}) {
          if (p[k]) out.push_back({id + "/precondition", p[k].as<std::string>()});
        }
      }
    }
  }
  return out;
}

inline std::string QueryOf(const std::string& rule_id) {
  for (const RuleQuery& q : Bi100Queries()) {
    if (q.id == rule_id) return q.text;
  }
  std::fprintf(stderr, "micro benchmark: no rule '%s' in rules/bi100.yaml\n", rule_id.c_str());
  std::exit(2);
}

}  // namespace muhbench
