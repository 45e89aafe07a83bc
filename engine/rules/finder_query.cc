#include "engine/rules/finder_query.h"

#include <fmt/format.h>

#include "engine/rules/finder_kind.h"

namespace muh {

namespace {

struct RawQuery : RawFinderKeys {
  RawScalar query;
};

std::shared_ptr<RawFinderKeys> Read(YamlReader* l, const YAML::Node& key, const YAML::Node& value,
                                    std::shared_ptr<RawFinderKeys>) {
  auto out = std::make_shared<RawQuery>();
  out->key_mark = key.Mark();
  l->Scalar(key, value, &out->query);
  return out;
}

std::shared_ptr<const Finder> Check(const RawFinderKeys& raw, FinderCheck* check) {
  YamlReader* reader = check->reader;
  QueryCache* queries = check->queries;
  const std::string& target = check->target;
  const RawScalar& s = static_cast<const RawQuery&>(raw).query;
  QueryError qe;
  std::shared_ptr<const Query> q = queries->Get(s.value, &qe);
  if (!q) {
    RuleLoc at = reader->OffsetLoc(s.mark, qe.offset);
    reader->errors_->push_back(
        MakeError(reader->path_, at.line, at.column,
                  fmt::format("{} at query offset {}", qe.message, qe.offset)));
    return nullptr;
  }
  return std::make_shared<QueryFinder>(std::move(q), target);
}

std::vector<std::string> Texts(const RawFinderKeys& raw, const FinderCheck&) {
  return {static_cast<const RawQuery&>(raw).query.value};
}

}  // namespace

FinderKind QueryKind() { return {"query", {}, "", false, Read, Check, Texts}; }

FoundSites QueryFinder::Find(const SyntaxTree& tree) const {
  FoundSites out;
  for (QueryMatch& m : query()->Run(tree)) {
    SiteMatch& site = out.sites.emplace_back();
    site.at = m.Begin();
    site.match = std::move(m);
    site.target = target_;
  }
  return out;
}

}  // namespace muh
