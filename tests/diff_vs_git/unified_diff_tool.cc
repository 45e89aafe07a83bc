// Test driver for tests/diff_vs_git/diff_vs_git.py: for each pair of files
// OLD NEW on the command line, prints "=== N\n" and then muhpatch's unified
// diff of the two (UnifiedDiff with path "f"), so that one process renders
// every generated case. Exits 2 on a file it cannot read.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

#include "engine/patch/unified_diff.h"

namespace {

bool ReadAll(const char* path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string old_text;
    std::string new_text;
    if (!ReadAll(argv[i], &old_text) || !ReadAll(argv[i + 1], &new_text)) {
      std::cerr << "unified_diff_tool: cannot read " << argv[i] << " or " << argv[i + 1] << "\n";
      return 2;
    }
    std::cout << "=== " << (i - 1) / 2 << "\n" << muh::UnifiedDiff("f", old_text, new_text);
  }
  return 0;
}
