// The kind of site `argument-of:` (muhpatch-rules(5)): the value of the
// keyword argument `name` at each call of the function `call`, also when
// the call is a Triton launch `call[grid](...)`; with `in:`, only the calls
// inside that function (at any depth):
//
//   argument-of:
//     call: _fwd_kernel
//     name: num_stages
//     in: context_attention_fwd
//
// Each value is a site with the one capture `@value`, which the rule
// replaces with its `with:`. Its query finds every such keyword argument of
// every such call; the whole-tree search looks where its literals are.
#include <fmt/format.h>

#include "engine/python/ts_nodes.h"
#include "engine/rules/finder_kind.h"

namespace muh {

namespace {

constexpr const char* kTarget = "value";

const std::vector<std::string> kArgumentOfKeys = {"call", "name", "in"};

struct RawArgumentOf : RawFinderKeys {
  YAML::Mark mark;  // of its mapping
  RawScalar call, name, in;
};

std::shared_ptr<RawFinderKeys> Read(YamlReader* l, const YAML::Node& key, const YAML::Node& node,
                                    std::shared_ptr<RawFinderKeys>) {
  auto out = std::make_shared<RawArgumentOf>();
  out->key_mark = key.Mark();
  out->mark = node.Mark();
  if (!node.IsMap()) {
    l->Error(node.Mark(), "'argument-of' must be a mapping: {call: FUNCTION, name: KEYWORD}");
    return out;
  }
  l->CheckKeys(node, kArgumentOfKeys, "argument-of");
  for (const auto& kv : node) {
    std::string k = kv.first.as<std::string>();
    RawScalar* into = k == "call"   ? &out->call
                      : k == "name" ? &out->name
                      : k == "in"   ? &out->in
                                    : nullptr;
    if (into != nullptr) l->Scalar(kv.first, kv.second, into);
  }
  return out;
}

class ArgumentOfFinder : public Finder {
 public:
  ArgumentOfFinder(std::shared_ptr<const Query> query, std::string in)
      : Finder(std::move(query)), in_(std::move(in)) {}

  FoundSites Find(const SyntaxTree& tree) const override {
    FoundSites out;
    for (QueryMatch& m : query()->Run(tree)) {
      const Capture* value = m.Find(kTarget);
      if (value == nullptr || (!in_.empty() && !Inside(tree, value->begin, value->end))) continue;
      SiteMatch& site = out.sites.emplace_back();
      site.at = value->begin;
      site.target = kTarget;
      site.match = std::move(m);  // every capture the rule's templates may name
    }
    return out;
  }

 private:
  // Whether bytes [begin, end) lie in a function named `in_`.
  bool Inside(const SyntaxTree& tree, std::size_t begin, std::size_t end) const {
    TSNode n = ts_node_descendant_for_byte_range(tree.Root(), static_cast<uint32_t>(begin),
                                                 static_cast<uint32_t>(end));
    for (; !ts_node_is_null(n); n = ts_node_parent(n)) {
      if (Is(n, "function_definition") && TextOf(tree, Field(n, "name")) == in_) return true;
    }
    return false;
  }

  std::string in_;
};

std::shared_ptr<const Finder> Check(const RawFinderKeys& raw, FinderCheck* check) {
  YamlReader* reader = check->reader;
  QueryCache* queries = check->queries;
  const auto& a = static_cast<const RawArgumentOf&>(raw);
  std::size_t errors_before = reader->errors_->size();
  PythonNameKey(reader, a.call, "argument-of", a.mark, "call",
                "the function whose calls pass the argument");
  PythonNameKey(reader, a.name, "argument-of", a.mark, "name",
                "the keyword argument whose value the rule rewrites");
  if (a.in.present) {
    PythonNameKey(reader, a.in, "argument-of", a.mark, "in", "the function the calls are in");
  }
  if (reader->errors_->size() != errors_before) return nullptr;
  // `F(..., K=V)` and `F[grid](..., K=V)`.
  std::string text;
  for (const char* callee : {"(identifier) @_call", "(subscript value: (identifier) @_call)"}) {
    text += fmt::format(
        "((call function: {} arguments: (argument_list (keyword_argument name: (identifier) "
        "@_name value: (_) @{})))\n (#eq? @_call \"{}\") (#eq? @_name \"{}\"))\n",
        callee, kTarget, a.call.value, a.name.value);
  }
  QueryError qe;
  std::shared_ptr<const Query> query = queries->Get(text, &qe);
  if (!query) {
    reader->Error(a.key_mark, "'argument-of' compiles to no query: " + qe.message);
    return nullptr;
  }
  return std::make_shared<ArgumentOfFinder>(std::move(query), a.in.value);
}

}  // namespace

FinderKind ArgumentOfKind() { return {"argument-of", {}, kTarget, true, Read, Check}; }

}  // namespace muh
