// A prefix that ends at a cut and parses without an error holds the whole
// file's first statements, as the whole file's parse reads them.
#include "engine/python/prefix_cut.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/python/statement_table.h"
#include "tests/fixture_testing.h"

namespace muh {

namespace {

std::vector<std::size_t> Cuts(std::string_view src) {
  std::vector<std::size_t> out;
  for (std::size_t c = PrefixCutAfter(src, 0); c < src.size(); c = PrefixCutAfter(src, c)) {
    out.push_back(c);
  }
  return out;
}

// Checks every cut of `src` (or `limit` of them, spread over the file) and
// returns how many prefixes parsed.
int CheckPrefixes(const std::string& name, const std::string& src, std::size_t limit = 0) {
  std::optional<StatementTable> whole = StatementTable::Build(src);
  if (!whole) return 0;
  std::vector<std::size_t> cuts = Cuts(src);
  std::size_t step = limit == 0 || cuts.size() <= limit ? 1 : cuts.size() / limit;
  int clean = 0;
  for (std::size_t i = 0; i < cuts.size(); i += step) {
    std::size_t cut = cuts[i];
    std::optional<StatementTable> head =
        StatementTable::Build(std::string_view(src).substr(0, cut));
    if (!head) continue;
    ++clean;
    const auto& hl = head->lines();
    const auto& wl = whole->lines();
    REQUIRE_MESSAGE(hl.size() <= wl.size(), name << " cut at " << cut);
    for (std::size_t k = 0; k < hl.size(); ++k) {
      INFO(name << " cut at " << cut << ", line " << wl[k].line);
      CHECK(hl[k].begin == wl[k].begin);
      CHECK(hl[k].code == wl[k].code);
      CHECK(hl[k].code_end == wl[k].code_end);
      CHECK(hl[k].end == wl[k].end);
      CHECK(hl[k].indent == wl[k].indent);
      CHECK(hl[k].line == wl[k].line);
      CHECK(hl[k].parent == wl[k].parent);
    }
    if (hl.size() < wl.size()) CHECK_MESSAGE(wl[hl.size()].code >= cut, name << " cut at " << cut);
    for (std::size_t o = 0; o < cut; o += 5) {
      REQUIRE_MESSAGE(head->InCode(o) == whole->InCode(o),
                      name << " cut at " << cut << ", byte " << o);
      REQUIRE_MESSAGE(head->InString(o) == whole->InString(o),
                      name << " cut at " << cut << ", byte " << o);
    }
  }
  return clean;
}

}  // namespace

TEST_CASE("prefix cuts: where a top-level line may begin") {
  std::string src =
      "import a\n"
      "if x:\n"
      "    y = 1\n"
      "else:\n"
      "    y = 2\n"
      "# a comment\n"
      "\n"
      "@dec\n"
      "# between\n"
      "def f():\n"
      "    pass\n"
      "z = 1 + \\\n"
      "2\n"
      "w = (\n"
      ")\n"
      "s = '''\n"
      "text\n"
      "'''\n";
  std::vector<std::size_t> cuts = Cuts(src);
  std::vector<std::string> starts;
  for (std::size_t c : cuts) starts.push_back(src.substr(c, src.find('\n', c) - c));
  CHECK(starts ==
        std::vector<std::string>{"if x:", "@dec", "z = 1 + \\", "w = (", "s = '''", "text", "'''"});
  // The cuts inside the string leave it unterminated: their prefixes do not parse.
  CHECK_FALSE(StatementTable::Build(std::string_view(src).substr(0, cuts[5])));
  CHECK_FALSE(StatementTable::Build(std::string_view(src).substr(0, cuts[6])));
  CHECK(StatementTable::Build(std::string_view(src).substr(0, cuts[4])));
  CHECK(CheckPrefixes("inline", src) == 5);
  CHECK(PrefixCutAfter("x = 1", 0) == 5);
  CHECK(PrefixCutAfter("x = 1\n", 0) == 6);
}

TEST_CASE("prefix cuts: every clean prefix of a fixture file is the whole file's start") {
  int files = 0;
  int clean = 0;
  for (const auto& p : testing::FixturePython()) {
    ++files;
    clean += CheckPrefixes(p.string(), testing::Slurp(p));
  }
  CHECK(files > 100);
  CHECK(clean > 100);
}

TEST_CASE("prefix cuts: clean prefixes of the real tree's files are the whole files' starts" *
          doctest::test_suite("slow")) {
  auto root = testing::RealTreeOrSkip();
  if (!root) return;
  int clean = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(*root / "vllm")) {
    if (!e.is_regular_file() || e.path().extension() != ".py") continue;
    clean += CheckPrefixes(e.path().string(), testing::Slurp(e.path()), 6);
  }
  CHECK(clean > 1000);
}

}  // namespace muh
