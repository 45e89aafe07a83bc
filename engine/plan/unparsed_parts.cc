#include "engine/plan/unparsed_parts.h"

#include <algorithm>
#include <cstddef>
#include <optional>
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

UnparsedParts::UnparsedParts(const PlanResult& plan, const std::map<std::string, SourceText>& files)
    : files_(files) {
  for (const auto& [path, text] : plan.new_contents) {
    auto it = plan.parsed_in_part.find(path);
    if (it == plan.parsed_in_part.end()) continue;
    // The key of `files`, which outlives this; `then` may erase `path`.
    std::vector<TSRange> rest = Complement(files.at(path).bytes(), it->second);
    if (!rest.empty()) rests_.push_back(Rest{&files.find(path)->first, std::move(rest)});
  }
  auto size = [](const Rest& r) {
    std::size_t n = 0;
    for (const TSRange& t : r.ranges) n += t.end_byte - t.start_byte;
    return n;
  };
  std::stable_sort(rests_.begin(), rests_.end(),
                   [&](const Rest& a, const Rest& b) { return size(a) < size(b); });
}

void UnparsedParts::ParseOne(PythonParser& parser, Rest* rest) const {
  bool broken = parser.ParseRanges(files_.at(*rest->path).bytes(), rest->ranges).HasError();
  rest->state = broken ? Rest::State::kBroken : Rest::State::kParses;
}

void UnparsedParts::ParseUntil(const std::size_t* stop) {
  std::optional<PythonParser> parser;
  for (Rest& rest : rests_) {
    if (__atomic_load_n(stop, __ATOMIC_ACQUIRE) != 0) return;
    if (rest.state != Rest::State::kTodo) continue;
    if (!parser) parser.emplace();
    std::optional<SyntaxTree> tree =
        parser->ParseRangesUnless(files_.at(*rest.path).bytes(), rest.ranges, stop);
    if (!tree) return;  // stopped: Broken parses it if it must
    rest.state = tree->HasError() ? Rest::State::kBroken : Rest::State::kParses;
  }
}

std::set<std::string> UnparsedParts::Broken(const PlanResult& plan) {
  std::vector<Rest*> todo;
  for (Rest& rest : rests_) {
    if (rest.state == Rest::State::kTodo && plan.new_contents.count(*rest.path) != 0) {
      todo.push_back(&rest);
    }
  }
  ParallelFor<PythonParser>(
      todo.size(), 0, [&](PythonParser& parser, std::size_t i) { ParseOne(parser, todo[i]); });
  std::set<std::string> out;
  for (const Rest& rest : rests_) {
    if (rest.state == Rest::State::kBroken && plan.new_contents.count(*rest.path) != 0) {
      out.insert(*rest.path);
    }
  }
  return out;
}

std::set<std::string> UnparsableRewrites(const PlanResult& plan,
                                         const std::map<std::string, SourceText>& files) {
  return UnparsedParts(plan, files).Broken(plan);
}

}  // namespace muh
