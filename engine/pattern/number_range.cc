#include "engine/pattern/number_range.h"

#include <string>
#include <vector>

namespace muh {

namespace {

std::string Digits(char from, char to) {
  if (from == to) return std::string(1, from);
  return std::string("[") + from + "-" + to + "]";
}

// Alternatives matching every string of digits from `a` to `b`, which have
// the same length.
std::vector<std::string> SameLength(const std::string& a, const std::string& b) {
  if (a.empty()) return {""};
  if (a[0] == b[0]) {
    std::vector<std::string> out;
    for (const std::string& rest : SameLength(a.substr(1), b.substr(1))) out.push_back(a[0] + rest);
    return out;
  }
  std::size_t n = a.size() - 1;
  std::string nines(n, '9');
  std::string zeros(n, '0');
  std::string any = n == 0 ? "" : n == 1 ? "[0-9]" : "[0-9]{" + std::to_string(n) + "}";
  std::vector<std::string> out;
  char low = a[0];
  char high = b[0];
  if (a.substr(1) != zeros) {
    for (const std::string& rest : SameLength(a.substr(1), nines)) out.push_back(low + rest);
    ++low;
  }
  bool high_whole = b.substr(1) == nines;
  char middle_top = high_whole ? high : static_cast<char>(high - 1);
  if (low <= middle_top) out.push_back(Digits(low, middle_top) + any);
  if (!high_whole) {
    for (const std::string& rest : SameLength(zeros, b.substr(1))) out.push_back(high + rest);
  }
  return out;
}

}  // namespace

std::string DecimalRangeRegex(std::uint64_t lo, std::uint64_t hi) {
  std::vector<std::string> alternatives;
  std::uint64_t first = 0;  // smallest number of the current length
  std::uint64_t last = 9;
  for (int length = 1; length <= 20 && first <= hi; ++length) {
    if (last >= lo) {
      std::uint64_t from = lo > first ? lo : first;
      std::uint64_t to = hi < last ? hi : last;
      for (std::string& alt : SameLength(std::to_string(from), std::to_string(to)))
        alternatives.push_back(std::move(alt));
    }
    if (last > UINT64_MAX / 10) break;
    first = last + 1;
    last = last * 10 + 9;
  }
  std::string out = "^(?:";
  for (std::size_t i = 0; i < alternatives.size(); ++i) out += (i ? "|" : "") + alternatives[i];
  return out + ")$";
}

}  // namespace muh
