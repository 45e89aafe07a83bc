// Whether any code that runs reads one key of a dict. Two searches, both
// lexical: the key as a string literal anywhere in the reached modules,
// read as `x['KEY']`, `x.get('KEY')` or `'KEY' in x` (whatever `x` is);
// and the dict's own flow, from the variable that holds it through the
// functions it is passed to by name (a call of a def in the same file or in
// a module imported by alias), where `**var` reads every key and a call of
// a function outside the tree may read any, unless a declared fact says
// which keys that function reads. Every occurrence of the dict's name in
// the flow must be a form the flow models (Flow::Follow lists them: copies
// and `return` are followed, `.pop('KEY')` reads), and every occurrence of
// the key in a string that runs must be a read, a write or prose
// (prose.h); any other gives unknown, naming it.
//
// Where each `x['KEY']`, `x.get('KEY')` read of code that may run (in a
// reached module, one not shown unreached, or any where the entry module
// is not in the tree) sends the
// value (value_use.h), through the names a function binds to it: a read
// whose value the code changes before a call takes it (a clamp, a
// product, a `return` the search does not follow) is in `changed`.
#pragma once

#include <string>
#include <vector>

#include "engine/liveness/reachability.h"
#include "engine/liveness/tree_index.h"

namespace muh {

struct KeyReadResult {
  Tri read = Tri::kUnknown;
  std::string why;
  std::vector<Evidence> evidence;
  std::vector<ChangedRead> changed;  // in file order, the first of each line
};

KeyReadResult ReadsOfKey(TreeIndex* index, const Reachability& reach, const std::string& path,
                         const std::string& var, const std::string& key);

// Where a read of `name`, bound by the assignment whose target starts at
// byte `bound` of `path`, sends its value before a call takes it, as
// ReadsOfKey's `changed`: the reads in the def that binds it (a
// module-level name: in its file; reads from other modules are not
// followed). A later binding of the name ends the value; its reads are
// taken flow-insensitively, a superset. A value handed on whole (a
// return, a container) rests on kCarriedAssumption (value_use.h). The first change
// found, or none.
std::vector<ChangedRead> ChangedReadsOfName(TreeIndex* index, const std::string& path,
                                            const std::string& name, std::size_t bound);

}  // namespace muh
