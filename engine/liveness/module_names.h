// Python module names of a tree's files: `vllm/a/b.py` is `vllm.a.b`,
// `vllm/a/__init__.py` is `vllm.a`. Pure: paths in, names out.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace muh {

// The module a tree-relative `.py` path defines; nullopt for a path that is
// not a module (no `.py` suffix, or a segment that is no identifier).
std::optional<std::string> ModuleOfPath(std::string_view path);

// Whether `path` is a package's `__init__.py`.
bool IsPackageInit(std::string_view path);

// `a`, `a.b` for `a.b.c`: the packages Python imports before a module.
std::vector<std::string> ParentPackages(std::string_view module);

// The absolute module a `from` clause names, seen from `importer` (a module
// name, `is_package` when it is a package's `__init__`): `level` leading
// dots, then `rest` (may be empty). nullopt when the dots climb above the top.
std::optional<std::string> ResolveRelative(std::string_view importer, bool is_package, int level,
                                           std::string_view rest);

// Module name -> tree path, for every module among `paths`.
class ModuleMap {
 public:
  explicit ModuleMap(const std::vector<std::string>& paths);
  // Not copyable: the hash indexes view the ordered maps' strings.
  ModuleMap(const ModuleMap&) = delete;
  ModuleMap& operator=(const ModuleMap&) = delete;
  ModuleMap(ModuleMap&&) = default;
  ModuleMap& operator=(ModuleMap&&) = default;

  // The path of `module`, or nullptr when the tree has no such module.
  const std::string* PathOf(std::string_view module) const;
  // The position of that path among the constructor's `paths`, or -1.
  int PositionOf(std::string_view module) const;
  // The module of `path`, or nullptr when it is not one of the tree's.
  const std::string* ModuleOf(std::string_view path) const;
  // The first segments of the tree's module names (`vllm`), in order.
  const std::vector<std::string>& tops() const { return tops_; }
  // Every module whose name starts with `prefix`, in name order.
  std::vector<std::string> WithPrefix(std::string_view prefix) const;

 private:
  std::map<std::string, std::string, std::less<>> path_of_;     // ordered, for WithPrefix
  std::vector<std::pair<std::string, std::string>> module_of_;  // path, module
  // Lookups go by hash: the analysis makes tens of thousands of them, of
  // names and paths that share long prefixes.
  struct Found {
    const std::string* path;
    int position;
  };
  const Found* Find(std::string_view module) const;
  std::unordered_map<std::string_view, Found> path_by_module_;
  std::unordered_map<std::string_view, const std::string*> module_by_path_;
  // The first segments of the modules (`vllm`): a name under no other
  // (`torch.nn`, `typing.List`) is answered without a lookup.
  std::vector<std::string> tops_;
};

}  // namespace muh
