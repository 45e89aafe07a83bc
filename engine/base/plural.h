// Counts with their noun, in the right number: "1 file", "2 files".
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace muh {

// "N NOUN" for n == 1, else "N PLURAL"; PLURAL defaults to NOUN + "s".
std::string Counted(std::size_t n, std::string_view noun, std::string_view plural = {});

}  // namespace muh
