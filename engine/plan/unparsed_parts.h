// The other half of a partial parse. The planner parses a file in part when
// its rules can only match inside the statements holding their literals
// (PlanResult::parsed_in_part); a file it rewrites must still parse whole,
// as every file muhpatch writes must. The parts it did not parse are
// parsed here, once the plan knows which files it rewrites: the whole file
// is then parsed once, in two parts (the headers of the compound statements
// the choice entered, in both), and a file that is not rewritten is never
// parsed beyond its rules' statements.
#pragma once

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "engine/base/source_text.h"
#include "engine/plan/plan_result.h"
#include "engine/python/syntax_tree.h"

namespace muh {

class UnparsedParts {
 public:
  // The rest of every file `plan` would rewrite (new_contents) that it
  // parsed in part. Parses nothing yet.
  UnparsedParts(const PlanResult& plan, const std::map<std::string, SourceText>& files);

  // Parses those rests on this thread, smallest first, until `*stop` is
  // nonzero (another thread sets it; a parse in progress then gives up):
  // work done while the caller waits for a filter that may leave some of
  // the files unchanged.
  void ParseUntil(const std::size_t* stop);

  // The files `plan` still rewrites whose rest does not parse (a syntax
  // error there, or bytes the statement lexer cut wrongly): each must be
  // planned again, parsed whole. Parses, on the workers, the rests of those
  // files that ParseWhile did not reach.
  std::set<std::string> Broken(const PlanResult& plan);

 private:
  struct Rest {
    const std::string* path;  // a key of files_
    std::vector<TSRange> ranges;
    enum class State { kTodo, kParses, kBroken } state = State::kTodo;
  };
  void ParseOne(PythonParser& parser, Rest* rest) const;

  const std::map<std::string, SourceText>& files_;
  std::vector<Rest> rests_;
};

// UnparsedParts(plan, files).Broken(plan): every rest parsed now.
std::set<std::string> UnparsableRewrites(const PlanResult& plan,
                                         const std::map<std::string, SourceText>& files);

}  // namespace muh
