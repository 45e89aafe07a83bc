// The statement table of every fixture .py, and of every .py of the real
// tree when present, against the digests in tests/statement_table_expected.txt
// (statement_digest.h): those the lexer it replaced gave, where the two
// agreed on every file.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "engine/python/statement_table.h"
#include "tests/fixture_testing.h"
#include "tests/statement_digest.h"

namespace muh {

namespace {

namespace fs = std::filesystem;

struct Expectation {
  std::string content;  // the file's hash: a file since changed is not compared
  std::string digest;
};

std::map<std::string, Expectation> Expected() {
  std::map<std::string, Expectation> out;
  std::ifstream in(fs::path(MUHPATCH_SOURCE_DIR) / "tests/statement_table_expected.txt");
  std::string path;
  Expectation e;
  while (in >> path >> e.content >> e.digest) out[path] = e;
  return out;
}

// Checks `file` against `e`; false when it changed since.
bool Check(const fs::path& file, const std::string& name, const Expectation& e) {
  std::string src = testing::Slurp(file);
  if (testing::ContentHash(src) != e.content) return false;
  std::optional<StatementTable> t = StatementTable::Build(src);
  CHECK_MESSAGE(testing::StatementDigest(t ? &*t : nullptr, src) == e.digest, name);
  return true;
}

}  // namespace

TEST_CASE("every fixture's statement table is the one expected") {
  std::map<std::string, Expectation> expected = Expected();
  const fs::path root(MUHPATCH_SOURCE_DIR);
  int checked = 0;
  for (const fs::path& p : testing::FixturePython()) {
    std::string name = fs::relative(p, root).generic_string();
    auto it = expected.find(name);
    if (it == expected.end()) continue;  // a fixture added since: statement_table_test's cases
    CHECK_MESSAGE(Check(p, name, it->second), name << " changed: its digest is stale");
    ++checked;
  }
  CHECK(checked > 100);
}

TEST_CASE("every real-tree file's statement table is the one expected") {
  std::optional<fs::path> real = testing::RealTreeOrSkip();
  if (!real) return;
  int checked = 0;
  for (const auto& [name, e] : Expected()) {
    if (name.rfind("real/", 0) != 0) continue;
    fs::path p = *real / name.substr(5);
    // A tree of another state: only the files it shares are compared.
    if (fs::exists(p) && Check(p, name, e)) ++checked;
  }
  CHECK(checked > 400);
}

}  // namespace muh
