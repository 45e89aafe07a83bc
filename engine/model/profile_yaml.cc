#include "engine/model/profile_yaml.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <map>

#include "engine/base/edit_distance.h"

namespace muh {

namespace {

bool ParseConfidence(const std::string& s, Confidence* out) {
  if (s == "vendor")
    *out = Confidence::kVendor;
  else if (s == "measured")
    *out = Confidence::kMeasured;
  else if (s == "claimed")
    *out = Confidence::kClaimed;
  else if (s == "assumed")
    *out = Confidence::kAssumed;
  else
    return false;
  return true;
}

}  // namespace

namespace {

bool ApplyOrThrow(const std::string& display_path, const std::string& text, Profile* profile,
                  std::vector<Diagnostic>* errors) {
  std::size_t before = errors->size();
  auto error = [&](const YAML::Mark& m, const std::string& msg) {
    errors->push_back(MakeError(display_path, m.line + 1, m.column + 1, msg));
  };
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    error(e.mark, "malformed YAML: " + e.msg);
    return false;
  }
  if (!root.IsMap()) {
    error(root.Mark(), "a profile must be a mapping with 'facts'");
    return false;
  }
  // yaml-cpp keeps both entries of a repeated key, and the loops below would
  // silently let the last one win.
  auto no_duplicates = [&](const YAML::Node& map) {
    std::map<std::string, int> seen;  // key -> its first line
    for (const auto& kv : map) {
      std::string k = kv.first.as<std::string>();
      auto [it, fresh] = seen.emplace(k, kv.first.Mark().line + 1);
      if (!fresh)
        error(kv.first.Mark(), fmt::format("duplicate key '{}' (first at line {})", k, it->second));
    }
  };
  no_duplicates(root);
  const std::vector<std::string> top = {"profile", "facts"};
  for (const auto& kv : root) {
    std::string k = kv.first.as<std::string>();
    if (k != "profile" && k != "facts") {
      error(kv.first.Mark(), fmt::format("unknown key '{}' in profile{}", k, DidYouMean(k, top)));
    }
  }
  // The name reports print: the file's `profile:`, or the file itself.
  profile->set_name(display_path);
  if (YAML::Node name = root["profile"]) {
    if (!name.IsScalar() || name.as<std::string>().empty()) {
      error(name.Mark(), "'profile' must be a name");
    } else {
      profile->set_name(name.as<std::string>());
    }
  }
  YAML::Node facts = root["facts"];
  if (!facts || !facts.IsMap()) {
    error(facts ? facts.Mark() : root.Mark(), "'facts' must map fact names to values");
    return false;
  }
  no_duplicates(facts);
  for (const auto& kv : facts) {
    std::string name = kv.first.as<std::string>();
    YAML::Node value = kv.second;
    std::string source = display_path;
    Confidence confidence = Confidence::kMeasured;
    // yaml-cpp's Node assignment writes through to the node, so pick once.
    const YAML::Node number = value.IsMap() ? value["value"] : value;
    if (value.IsMap()) {
      no_duplicates(value);
      for (const auto& f : value) {
        std::string k = f.first.as<std::string>();
        if (k != "value" && k != "source" && k != "confidence") {
          error(f.first.Mark(), fmt::format("unknown key '{}' in fact{}", k,
                                            DidYouMean(k, {"value", "source", "confidence"})));
        }
      }
      if (value["source"]) source = value["source"].as<std::string>();
      if (YAML::Node c = value["confidence"]) {
        if (!ParseConfidence(c.as<std::string>(), &confidence)) {
          error(c.Mark(), "confidence must be vendor, measured, claimed or assumed");
          continue;
        }
      }
    }
    if (!number || !number.IsScalar()) {
      error(value.Mark(), fmt::format("fact '{}' needs a numeric value", name));
      continue;
    }
    double v = 0;
    try {
      v = number.as<double>();
    } catch (const YAML::Exception&) {
      error(number.Mark(),
            fmt::format("fact '{}': '{}' is not a number", name, number.as<std::string>()));
      continue;
    }
    std::string err;
    if (!profile->Override(name, v, source, confidence, &err)) error(kv.first.Mark(), err);
  }
  return errors->size() == before;
}

}  // namespace

bool ApplyProfileYaml(const std::string& display_path, const std::string& text, Profile* profile,
                      std::vector<Diagnostic>* errors) {
  try {
    return ApplyOrThrow(display_path, text, profile, errors);
  } catch (const YAML::Exception& e) {
    errors->push_back(MakeError(display_path, e.mark.line + 1, e.mark.column + 1,
                                "unexpected YAML structure: " + e.msg));
    return false;
  }
}

}  // namespace muh
