// The model's inputs as template values: every hardware fact of the profile
// as `fact.NAME` (`{{fact.smem_per_block}}`, `{{fact.warp_size}}`) and every
// workload entry as `workload.NAME` (`{{workload.max_model_len}}`), written
// as `muhpatch model` prints them. A fact's value is the one the
// derivations use (built-in, the tree's, --hw or --set); a workload entry's
// is the rule file's, config.json's or the serving command line's, a model
// total as declared (not divided by tensor_parallel_size). Pure.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/model/facts.h"
#include "engine/model/value_source.h"
#include "engine/model/workload.h"

namespace muh {

inline constexpr std::string_view kFactPrefix = "fact.";
inline constexpr std::string_view kWorkloadPrefix = "workload.";

// Whether `name` names an input (`fact.` or `workload.` and a name).
bool IsInputName(std::string_view name);

// Every input of `profile` and `workload` by its template name, each with
// its explanation (the fact's source and confidence, the entry's origin).
std::map<std::string, Value, std::less<>> InputValues(const Profile& profile,
                                                      const Workload& workload);

// Why `value`, a site's value where a template names the input `name`, is
// outside what that input may be ("" when inside, or when the value is not
// a literal): a fact's domain (fact_domain.h), or a workload entry's range
// (a whole number from 1 to 2^30; dtype_bytes 2 or 4).
std::string InputDomainProblem(std::string_view name, const std::string& value);

}  // namespace muh
