#include "engine/rules/raw_preconditions.h"

#include <fmt/format.h>

#include <set>

namespace muh {

namespace {

const std::vector<std::string> kPreconditionKeys = {"name", "files", "present", "absent",
                                                    "required"};

RawPrecondition ReadEntry(YamlReader* l, const YAML::Node& node) {
  RawPrecondition p;
  p.mark = node.Mark();
  l->CheckKeys(node, kPreconditionKeys, "precondition");
  for (const auto& kv : node) {
    std::string k = kv.first.as<std::string>();
    if (k == "name")
      l->Scalar(kv.first, kv.second, &p.name);
    else if (k == "present")
      l->Scalar(kv.first, kv.second, &p.present);
    else if (k == "absent")
      l->Scalar(kv.first, kv.second, &p.absent);
    else if (k == "required")
      l->Scalar(kv.first, kv.second, &p.required);
    else if (k == "files")
      l->ScalarList(kv.first, kv.second, &p.files);
  }
  return p;
}

}  // namespace

void ReadRulePreconditions(YamlReader* l, const YAML::Node& node,
                           std::vector<RawPrecondition>* out) {
  if (!node.IsSequence()) {
    l->Error(node.Mark(), "'preconditions' must be a list");
    return;
  }
  for (const YAML::Node& item : node) {
    if (item.IsMap()) {
      out->push_back(ReadEntry(l, item));
    } else if (item.IsScalar()) {
      RawPrecondition p;
      p.mark = item.Mark();
      p.ref.present = true;
      p.ref.mark = item.Mark();
      p.ref.key_mark = item.Mark();
      p.ref.value = item.as<std::string>();
      out->push_back(std::move(p));
    } else {
      l->Error(item.Mark(),
               "a precondition must be a mapping, or the name of a list of the file's "
               "'preconditions:'");
    }
  }
}

void ReadNamedPreconditions(YamlReader* l, const YAML::Node& node,
                            std::vector<NamedPreconditions>* out) {
  if (!node.IsMap()) {
    l->Error(node.Mark(), "'preconditions' must be a mapping of names to lists of preconditions");
    return;
  }
  std::set<std::string> seen;
  for (const auto& kv : node) {
    NamedPreconditions n;
    if (!kv.first.IsScalar()) {
      l->Error(kv.first.Mark(), "a precondition list's name must be a scalar");
      continue;
    }
    n.name.present = true;
    n.name.value = kv.first.as<std::string>();
    n.name.mark = kv.first.Mark();
    n.name.key_mark = kv.first.Mark();
    if (!seen.insert(n.name.value).second) {
      l->Error(kv.first.Mark(),
               fmt::format("precondition list '{}' is declared twice", n.name.value));
      continue;
    }
    if (!kv.second.IsSequence() || kv.second.size() == 0) {
      l->Error(kv.second.Mark(),
               fmt::format("precondition list '{}' must be a non-empty list of preconditions",
                           n.name.value));
      continue;
    }
    for (const YAML::Node& item : kv.second) {
      if (!item.IsMap()) {
        l->Error(item.Mark(),
                 fmt::format("an entry of precondition list '{}' must be a mapping (a list "
                             "names other lists only in a rule's 'preconditions')",
                             n.name.value));
        continue;
      }
      n.entries.push_back(ReadEntry(l, item));
    }
    out->push_back(std::move(n));
  }
}

void PreconditionQueryTexts(const std::vector<RawPrecondition>& entries,
                            std::vector<std::string>* out) {
  for (const RawPrecondition& p : entries) {
    for (const RawScalar* q : {&p.present, &p.absent}) {
      if (q->present) out->push_back(q->value);
    }
  }
}

}  // namespace muh
