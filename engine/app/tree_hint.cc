#include "engine/app/tree_hint.h"

namespace muh {

namespace {

std::string WithoutTrailingSlashes(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

std::string LastComponent(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::string ParentOf(const std::string& tree) {
  const std::string path = WithoutTrailingSlashes(tree);
  const std::string last = LastComponent(path);
  if (path == "/") return "/";
  if (last == "." || last == "..") return path == "." ? ".." : path + "/..";
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::optional<std::string> TreeRootHint(const std::string& tree, bool has_vllm_dir,
                                        bool has_custom_ops) {
  if (has_vllm_dir) return std::nullopt;
  if (LastComponent(WithoutTrailingSlashes(tree)) != "vllm" && !has_custom_ops) return std::nullopt;
  return "TREE is the folder that holds vllm/; did you mean '" + ParentOf(tree) + "'?";
}

}  // namespace muh
