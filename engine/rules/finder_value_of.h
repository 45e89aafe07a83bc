// The kind of site `value-of:` (muhpatch-rules(5)): the values a variable
// (or one key of a dict) may hold where a function reads it, on the path
// where a condition is false (or true), whatever the syntax that assigns
// them (reaching_values.h):
//
//   value-of:
//     name: BLOCK
//     in: context_attention_fwd
//     when-false: current_platform.has_device_capability(80)
//
// `key: K` names one key of the dict `name` instead. Each value is a site
// with the one capture `@value`, which the rule replaces with its `with:`;
// a value the other path shares is changed on the rule's path only. Its
// query finds every assignment of the variable in the function: the files
// that hold its literals are those the whole-tree search asks.
#pragma once

#include <memory>

#include "engine/python/reaching_values.h"
#include "engine/rules/finder_kind.h"

namespace muh {

class ValueOfFinder : public Finder {
 public:
  ValueOfFinder(std::shared_ptr<const SiteQuery> query, ValueQuestion question)
      : Finder(std::move(query)), question_(std::move(question)) {}
  const ValueQuestion& question() const { return question_; }
  FoundSites Find(const SyntaxTree& tree) const override;

 private:
  ValueQuestion question_;
};

}  // namespace muh
