#include "engine/rules/raw_search_spaces.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "engine/base/edit_distance.h"
#include "engine/model/constraint.h"

namespace muh {

namespace {

// Largest cross product of a search space's dimensions (bi100's has 1,536).
constexpr long kMaxSearchCandidates = 100000;

const std::vector<std::string> kSpaceKeys = {"kernel", "dims", "ignore", "max_new", "constraints"};

// Where `word` first stands as a whole word in `text`.
std::size_t WordOffset(const std::string& text, const std::string& word) {
  auto name_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    bool starts = at == 0 || !name_char(text[at - 1]);
    bool ends = at + word.size() == text.size() || !name_char(text[at + word.size()]);
    if (starts && ends) return at;
  }
  return 0;
}

// `constraints:` is a list; each item is the expression, or a mapping of
// `require:` (the expression) and `because:` (why the kernel needs it).
void ReadConstraints(YamlReader* l, const YAML::Node& node, SearchSpace* space) {
  if (!node.IsSequence()) {
    l->Error(node.Mark(), "'constraints' must be a list of expressions");
    return;
  }
  std::vector<std::string> names = Workload::Defaults().Names();
  for (const auto& dim : space->dims) names.push_back(dim.first);
  for (const YAML::Node& item : node) {
    std::string because;
    if (item.IsMap()) {
      l->CheckKeys(item, {"require", "because"}, "constraint");
      if (YAML::Node b = item["because"]; b && b.IsScalar()) because = b.as<std::string>();
      if (!item["require"]) {
        l->Error(item.Mark(), "a constraint needs 'require': the expression that must hold");
        continue;
      }
    }
    // yaml-cpp's Node assignment writes through, so the expression's node is
    // bound once, never reassigned.
    const YAML::Node expr = item.IsMap() ? item["require"] : item;
    if (!expr.IsScalar()) {
      l->Error(expr.Mark(), "a constraint must be an expression such as 'BLOCK_M % BLOCK_N == 0'");
      continue;
    }
    std::string text = expr.as<std::string>();
    ConstraintParse parsed = ParseConstraint(text, because);
    if (!parsed.error.empty()) {
      RuleLoc at = l->OffsetLoc(expr.Mark(), parsed.offset);
      l->errors_->push_back(MakeError(l->path_, at.line, at.column, parsed.error));
      continue;
    }
    bool known_names = true;
    for (const std::string& name : ConstraintNames(*parsed.constraint)) {
      if (std::find(names.begin(), names.end(), name) != names.end()) continue;
      RuleLoc at = l->OffsetLoc(expr.Mark(), WordOffset(text, name));
      l->errors_->push_back(MakeError(
          l->path_, at.line, at.column,
          fmt::format("constraint names '{}', which is neither a dimension of '{}' nor a workload "
                      "quantity{}",
                      name, space->name, DidYouMean(name, names))));
      known_names = false;
    }
    if (known_names) space->constraints.push_back(std::move(*parsed.constraint));
  }
}

}  // namespace

void ReadSearchSpaces(YamlReader* l, const YAML::Node& node, std::vector<SearchSpace>* spaces,
                      std::vector<RuleLoc>* locs) {
  if (!node.IsMap()) {
    l->Error(node.Mark(), "'search_spaces' must be a mapping of names to spaces");
    return;
  }
  for (const auto& kv : node) {
    SearchSpace space;
    space.name = kv.first.as<std::string>();
    const YAML::Node& body = kv.second;
    if (!body.IsMap()) {
      l->Error(body.Mark(), "a search space must be a mapping");
      continue;
    }
    l->CheckKeys(body, kSpaceKeys, "search space");
    space.kernel =
        body["kernel"] && body["kernel"].IsScalar() ? body["kernel"].as<std::string>() : "";
    std::string kernel_problem = SearchSpaceKernelProblem(space.kernel);
    if (!kernel_problem.empty()) {
      l->Error(body["kernel"] ? body["kernel"].Mark() : body.Mark(), kernel_problem);
    }
    if (YAML::Node m = body["max_new"]) {
      try {
        space.max_new = m.as<int>();
        if (space.max_new < 1) throw YAML::Exception(m.Mark(), "");
      } catch (const YAML::Exception&) {
        l->Error(m.Mark(), "'max_new' must be a whole number of at least 1");
      }
    }
    YAML::Node dims = body["dims"];
    if (!dims || !dims.IsMap() || dims.size() == 0) {
      l->Error(dims ? dims.Mark() : body.Mark(), "'dims' must map field names to lists of values");
      continue;
    }
    for (const auto& dim : dims) {
      std::vector<std::string> values;
      if (!dim.second.IsSequence() || dim.second.size() == 0) {
        l->Error(dim.second.Mark(), "a dimension must be a non-empty list of values");
        continue;
      }
      for (const YAML::Node& v : dim.second) {
        if (!v.IsScalar()) {
          l->Error(v.Mark(), "dimension values must be scalars");
          continue;
        }
        values.push_back(PythonLiteral(v.as<std::string>()));
      }
      space.dims.emplace_back(dim.first.as<std::string>(), std::move(values));
    }
    // The model walks the whole cross product; YAML aliases make a huge one
    // cheap to write (a fuzzer found 8 x 8 values taking seconds).
    double candidates = 1;
    for (const auto& d : space.dims) candidates *= static_cast<double>(d.second.size());
    if (candidates > kMaxSearchCandidates) {
      l->Error(dims.Mark(), fmt::format("search space '{}' has {:.0f} candidates, more than the "
                                        "{} the model enumerates; narrow its dimensions",
                                        space.name, candidates, kMaxSearchCandidates));
    }
    if (kernel_problem.empty()) {
      for (const auto& dim : dims) {
        for (const YAML::Node& v : dim.second) {
          std::string problem = SearchSpaceValueProblem(space.kernel, dim.first.as<std::string>(),
                                                        v.IsScalar() ? v.as<std::string>() : "");
          if (!problem.empty()) l->Error(v.Mark(), problem);
        }
      }
    }
    if (YAML::Node ign = body["ignore"]) {
      if (!ign.IsSequence()) {
        l->Error(ign.Mark(), "'ignore' must be a list of dimension names");
      } else {
        for (const YAML::Node& i : ign) {
          std::string name = i.as<std::string>();
          bool known = false;
          for (const auto& dim : space.dims) known = known || dim.first == name;
          if (!known) l->Error(i.Mark(), fmt::format("'ignore' names no dimension: '{}'", name));
          space.ignored.push_back(name);
        }
      }
    }
    if (YAML::Node cons = body["constraints"]) ReadConstraints(l, cons, &space);
    spaces->push_back(std::move(space));
    locs->push_back({kv.first.Mark().line + 1, kv.first.Mark().column + 1});
  }
}

}  // namespace muh
