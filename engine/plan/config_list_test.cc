#include "engine/plan/config_list.h"

#include <doctest/doctest.h>

namespace muh {

namespace {
const char* kList =
    "@autotune(\n"
    "    configs=[\n"
    "        triton.Config(\n"
    "            {\n"
    "                \"BLOCK_M\": 128,\n"
    "                \"PRE_LOAD_V\": False,\n"
    "            },\n"
    "            num_warps=4,\n"
    "        ),\n"
    "        # triton.Config({\"BLOCK_M\": 16}, num_warps=1),\n"
    "    ],\n"
    "    key=[],\n"
    ")\n"
    "def f(): pass\n";

ConfigEntry Entry(std::string m, std::string pre, std::string w) {
  return ConfigEntry{{{"BLOCK_M", m}, {"PRE_LOAD_V", pre}, {"num_warps", w}}};
}

std::string Run(const std::string& src, const std::vector<ConfigEntry>& entries, ConfigAppend* r,
                std::string* err) {
  SourceText file("t.py", src);
  std::size_t b = src.find('[');
  std::size_t e = src.find("],") + 1;
  std::size_t off = 0;
  PythonParser parser;
  SyntaxTree tree = parser.Parse(file.bytes());
  if (!PlanConfigAppend(file, tree, b, e, entries, "tune", r, err, &off)) return "ERROR";
  return ApplyEdits(src, r->edits);
}
}  // namespace

TEST_CASE("new entries copy the last entry's layout") {
  ConfigAppend r;
  std::string err;
  std::string out = Run(kList, {Entry("64", "True", "8")}, &r, &err);
  CHECK(r.existing == 1);
  CHECK(r.appended == 1);
  std::string want = kList;
  want.insert(want.find("        # triton"),
              "        triton.Config(\n"
              "            {\n"
              "                \"BLOCK_M\": 64,\n"
              "                \"PRE_LOAD_V\": True,\n"
              "            },\n"
              "            num_warps=8,\n"
              "        ),\n");
  CHECK(out == want);
}

TEST_CASE("duplicates by value are dropped, so a second run adds nothing") {
  ConfigAppend r;
  std::string err;
  std::string out =
      Run(kList, {Entry("128", "False", "4"), Entry("2 ** 7", "False", "4")}, &r, &err);
  CHECK(out == kList);
  CHECK(r.duplicates == std::vector<int>{0, 1});
  ConfigAppend r2;
  std::string once = Run(kList, {Entry("64", "True", "8")}, &r2, &err);
  ConfigAppend r3;
  CHECK(Run(once, {Entry("64", "True", "8")}, &r3, &err) == once);
  CHECK(r3.existing == 2);
}

TEST_CASE("fields the backend ignores are folded before duplicates are dropped") {
  // The file has BLOCK_M 128, PRE_LOAD_V False, num_warps 4; a request that
  // differs only in an ignored field repeats it.
  ConfigEntry same_but_ignored = Entry("128", "True", "4");
  same_but_ignored.ignored = {"PRE_LOAD_V"};
  ConfigEntry other = Entry("64", "True", "4");
  other.ignored = {"PRE_LOAD_V"};
  ConfigEntry other_again = Entry("64", "False", "4");
  other_again.ignored = {"PRE_LOAD_V"};
  ConfigAppend r;
  std::string err;
  std::string out = Run(kList, {same_but_ignored, other, other_again}, &r, &err);
  CHECK(r.duplicates == std::vector<int>{0, 2});
  CHECK(r.appended == 1);
  // Without the fold the same request is new.
  ConfigAppend r2;
  Run(kList, {Entry("128", "True", "4")}, &r2, &err);
  CHECK(r2.appended == 1);
}

TEST_CASE("CRLF files get CRLF entries") {
  std::string crlf;
  for (char c : std::string(kList)) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  ConfigAppend r;
  std::string err;
  std::string out = Run(crlf, {Entry("64", "True", "8")}, &r, &err);
  CHECK(out.find("\"BLOCK_M\": 64,\r\n") != std::string::npos);
  CHECK(out.find("        ),\r\n        ),\r\n") == std::string::npos);
  std::size_t lf_only = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i] == '\n' && (i == 0 || out[i - 1] != '\r')) ++lf_only;
  }
  CHECK(lf_only == 0);
}

TEST_CASE("fields must match the file's entries") {
  ConfigAppend r;
  std::string err;
  CHECK(Run(kList, {ConfigEntry{{{"BLOCK_M", "64"}}}}, &r, &err) == "ERROR");
  CHECK(err ==
        "rule 'tune': entry 1 has fields [BLOCK_M] but the list's entries have "
        "[BLOCK_M, PRE_LOAD_V, num_warps]");
}

}  // namespace muh
