#include "engine/liveness/module_names.h"

#include <algorithm>

namespace muh {

namespace {

// std::isalnum in the "C" locale (the one muhpatch runs in), without a call.
bool IsAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

bool IsIdentifier(std::string_view s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  for (char c : s) {
    if (!IsAlnum(c) && c != '_') return false;
  }
  return true;
}

}  // namespace

bool IsPackageInit(std::string_view path) {
  return path == "__init__.py" ||
         (path.size() > 12 && path.substr(path.size() - 12) == "/__init__.py");
}

std::optional<std::string> ModuleOfPath(std::string_view path) {
  if (path.size() < 4 || path.substr(path.size() - 3) != ".py") return std::nullopt;
  std::string_view stem = path.substr(0, path.size() - 3);
  if (IsPackageInit(path)) {
    if (path == "__init__.py") return std::nullopt;
    stem = path.substr(0, path.size() - 12);
  }
  std::string out;
  std::size_t at = 0;
  for (;;) {
    std::size_t slash = stem.find('/', at);
    std::string_view seg = stem.substr(at, slash == std::string_view::npos ? slash : slash - at);
    if (!IsIdentifier(seg)) return std::nullopt;
    if (!out.empty()) out += '.';
    out += seg;
    if (slash == std::string_view::npos) break;
    at = slash + 1;
  }
  return out;
}

std::vector<std::string> ParentPackages(std::string_view module) {
  std::vector<std::string> out;
  for (std::size_t dot = module.find('.'); dot != std::string_view::npos;
       dot = module.find('.', dot + 1)) {
    out.emplace_back(module.substr(0, dot));
  }
  return out;
}

std::optional<std::string> ResolveRelative(std::string_view importer, bool is_package, int level,
                                           std::string_view rest) {
  if (level == 0) return std::string(rest);
  // A module's package is its name less the last segment; a package is its
  // own. Each dot past the first climbs one package.
  std::string base(importer);
  int drop = is_package ? level - 1 : level;
  for (int i = 0; i < drop; ++i) {
    if (base.empty()) return std::nullopt;
    std::size_t dot = base.rfind('.');
    base.resize(dot == std::string::npos ? 0 : dot);
  }
  if (base.empty()) return std::nullopt;
  if (rest.empty()) return base;
  return base + "." + std::string(rest);
}

ModuleMap::ModuleMap(const std::vector<std::string>& paths) {
  module_of_.reserve(paths.size());  // never regrows: module_by_path_ views it
  for (std::size_t i = 0; i < paths.size(); ++i) {
    if (auto m = ModuleOfPath(paths[i])) {
      // Of `x.py` and `x/__init__.py`, CPython's path finder imports the
      // package (a helper probe of d751784: a package left beside the old
      // module was read as the module); of two otherwise, the first listed.
      auto [it, added] = path_of_.emplace(*m, paths[i]);
      if (!added && IsPackageInit(paths[i]) && !IsPackageInit(it->second)) {
        it->second = paths[i];
        added = true;
      }
      if (added) path_by_module_[it->first] = Found{&it->second, static_cast<int>(i)};
      module_of_.emplace_back(paths[i], *m);
    }
  }
  for (const auto& [module, path] : path_of_) {
    std::string top = module.substr(0, module.find('.'));
    // Sorted names put each first segment's modules next to each other.
    if (tops_.empty() || tops_.back() != top) tops_.push_back(top);
  }
  for (const auto& [path, module] : module_of_) module_by_path_.emplace(path, &module);
}

const ModuleMap::Found* ModuleMap::Find(std::string_view module) const {
  std::string_view top = module.substr(0, module.find('.'));
  if (std::find(tops_.begin(), tops_.end(), top) == tops_.end()) return nullptr;
  auto it = path_by_module_.find(module);
  return it == path_by_module_.end() ? nullptr : &it->second;
}

const std::string* ModuleMap::PathOf(std::string_view module) const {
  const Found* found = Find(module);
  return found == nullptr ? nullptr : found->path;
}

int ModuleMap::PositionOf(std::string_view module) const {
  const Found* found = Find(module);
  return found == nullptr ? -1 : found->position;
}

const std::string* ModuleMap::ModuleOf(std::string_view path) const {
  auto it = module_by_path_.find(path);
  return it == module_by_path_.end() ? nullptr : it->second;
}

std::vector<std::string> ModuleMap::WithPrefix(std::string_view prefix) const {
  std::vector<std::string> out;
  for (auto it = path_of_.lower_bound(prefix);
       it != path_of_.end() && std::string_view(it->first).substr(0, prefix.size()) == prefix;
       ++it) {
    out.push_back(it->first);
  }
  return out;
}

}  // namespace muh
