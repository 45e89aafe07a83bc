// The floor that issue #5 measures verify against: read every .py byte of a
// tree once, and parse the knob files once. Single-threaded, no queries, no
// output; bench/run.sh times it side by side with muhpatch.
//
//   bench_floor TREE KNOB_FILE...   (knob files relative to TREE)
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/python/syntax_tree.h"

namespace {

bool ReadAll(const std::string& path, std::string* out) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  out->clear();
  char buf[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n <= 0) {
      ::close(fd);
      return n == 0;
    }
    out->append(buf, static_cast<std::size_t>(n));
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s TREE KNOB_FILE...\n", argv[0]);
    return 2;
  }
  namespace fs = std::filesystem;
  std::size_t bytes = 0;
  std::string text;
  for (const auto& e : fs::recursive_directory_iterator(argv[1])) {
    if (e.is_regular_file() && e.path().extension() == ".py" && ReadAll(e.path(), &text)) {
      bytes += text.size();
    }
  }
  muh::PythonParser parser;
  std::size_t nodes = 0;
  for (int i = 2; i < argc; ++i) {
    if (!ReadAll(std::string(argv[1]) + "/" + argv[i], &text)) {
      std::fprintf(stderr, "cannot read %s\n", argv[i]);
      return 1;
    }
    muh::SyntaxTree tree = parser.Parse(text);
    nodes += ts_node_child_count(tree.Root());
  }
  return bytes > 0 && nodes > 0 ? 0 : 1;
}
