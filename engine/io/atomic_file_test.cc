#include "engine/io/atomic_file.h"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>

#include "engine/io/test_tree.h"
#include "engine/io/tree_io.h"

namespace muh {

TEST_CASE("WriteFileAtomically replaces a file whole and keeps its mode") {
  testing::TempDir dir;
  const std::string path = dir.str() + "/p.diff";
  std::string err, bytes;
  REQUIRE(WriteFileAtomically(path, "first\n", &err));
  REQUIRE(ReadWholeFile(path, &bytes, &err));
  CHECK(bytes == "first\n");
  REQUIRE(::chmod(path.c_str(), 0640) == 0);
  REQUIRE(WriteFileAtomically(path, "", &err));
  REQUIRE(ReadWholeFile(path, &bytes, &err));
  CHECK(bytes.empty());
  struct stat st;
  REQUIRE(::stat(path.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0640);
  // Nothing is left beside it.
  int entries = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) entries += e.exists();
  CHECK(entries == 1);
}

TEST_CASE("WriteFileAtomically fails without touching anything when it cannot write there") {
  testing::TempDir dir;
  std::string err;
  CHECK_FALSE(WriteFileAtomically(dir.str() + "/missing/p.diff", "x", &err));
  CHECK(err.find("cannot create a temporary file beside it (No such file or directory)") == 0);
}

}  // namespace muh
