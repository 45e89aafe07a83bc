// The values a hardware fact may take, whoever gives it: the built-in
// profile, a --hw file, the tree (the shared-memory function's return, or
// its rule's pin) or --set. A value outside is no card's, and every value
// derived from it would be sized for a machine that does not exist, so it
// is refused where it is given. Pure.
#pragma once

#include <string>
#include <string_view>

namespace muh {

// Why `value` is outside the domain of the fact `name` ("" when inside, or
// when the fact is unknown): "a multiple of 1024 from 16384 to 1048576 bytes".
std::string FactDomainProblem(std::string_view name, double value);

}  // namespace muh
