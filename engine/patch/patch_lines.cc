#include "engine/patch/patch_lines.h"

#include <algorithm>
#include <string_view>

namespace muh {

namespace {

// Each line of `text` as [begin, end), its terminator included.
std::vector<std::pair<std::size_t, std::size_t>> Lines(const std::string& text) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t nl = text.find('\n', at);
    std::size_t end = nl == std::string::npos ? text.size() : nl + 1;
    out.emplace_back(at, end);
    at = end;
  }
  return out;
}

}  // namespace

std::vector<std::pair<std::size_t, std::size_t>> AddedLineRanges(const FilePatch& patch,
                                                                 const std::string& content,
                                                                 const std::vector<int>& except) {
  std::vector<std::pair<std::size_t, std::size_t>> lines = Lines(content);
  auto line = [&](std::size_t i) {
    return std::string_view(content).substr(lines[i].first, lines[i].second - lines[i].first);
  };
  std::vector<std::pair<std::size_t, std::size_t>> out;
  long offset = 0;  // lines the hunks before sat below where they said
  for (const PatchHunk& h : patch.hunks) {
    std::vector<const std::string*> new_side;
    for (const auto& [kind, bytes] : h.body) {
      if (kind != '-') new_side.push_back(&bytes);
    }
    long said = (h.new_start == 0 ? 0 : static_cast<long>(h.new_start) - 1) + offset;
    auto fits = [&](long at) {
      if (at < 0 || at + static_cast<long>(new_side.size()) > static_cast<long>(lines.size())) {
        return false;
      }
      for (std::size_t k = 0; k < new_side.size(); ++k) {
        if (line(at + k) != *new_side[k]) return false;
      }
      return true;
    };
    long place = said;
    for (long d = 0; d <= static_cast<long>(lines.size()); ++d) {
      if (fits(said - d)) {
        place = said - d;
        break;
      }
      if (fits(said + d)) {
        place = said + d;
        break;
      }
    }
    offset += place - said;
    long at = place;
    int new_line = static_cast<int>(h.new_start);  // as the patch numbers its new side
    for (const auto& [kind, bytes] : h.body) {
      if (kind == '-') continue;
      bool excepted = std::find(except.begin(), except.end(), new_line) != except.end();
      if (kind == '+' && !excepted && at >= 0 && at < static_cast<long>(lines.size()) &&
          line(at) == bytes) {
        out.push_back(lines[at]);
      }
      ++at;
      ++new_line;
    }
  }
  return out;
}

}  // namespace muh
