#include "engine/plan/unparsed_parts.h"

#include <cstddef>
#include <utility>
#include <vector>

#include "engine/base/parallel.h"
#include "engine/python/syntax_tree.h"

namespace muh {

namespace {

// The bytes of [0, size) that `parsed` (ascending, not overlapping) leaves
// out, as ranges with their points.
std::vector<TSRange> Complement(std::string_view bytes,
                                const std::vector<std::pair<std::size_t, std::size_t>>& parsed) {
  std::vector<TSRange> out;
  std::size_t at = 0;
  auto add = [&](std::size_t begin, std::size_t end) {
    if (end <= begin) return;
    TSRange r{};
    r.start_byte = static_cast<uint32_t>(begin);
    r.end_byte = static_cast<uint32_t>(end);
    out.push_back(r);
  };
  for (const auto& [begin, end] : parsed) {
    add(at, begin);
    at = end;
  }
  add(at, bytes.size());
  SetPoints(bytes, &out);
  return out;
}

}  // namespace

std::set<std::string> UnparsableRewrites(const PlanResult& plan,
                                         const std::map<std::string, SourceText>& files) {
  std::vector<std::pair<const std::string*, std::vector<TSRange>>> todo;
  for (const auto& [path, text] : plan.new_contents) {
    auto it = plan.parsed_in_part.find(path);
    if (it == plan.parsed_in_part.end()) continue;
    std::vector<TSRange> rest = Complement(files.at(path).bytes(), it->second);
    if (!rest.empty()) todo.emplace_back(&path, std::move(rest));
  }
  std::vector<char> broken(todo.size(), 0);
  ParallelFor<PythonParser>(todo.size(), 0, [&](PythonParser& parser, std::size_t i) {
    const std::string& path = *todo[i].first;
    broken[i] = parser.ParseRanges(files.at(path).bytes(), todo[i].second).HasError();
  });
  std::set<std::string> out;
  for (std::size_t i = 0; i < todo.size(); ++i) {
    if (broken[i]) out.insert(*todo[i].first);
  }
  return out;
}

}  // namespace muh
