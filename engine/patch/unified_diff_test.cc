#include "engine/patch/unified_diff.h"

#include <doctest/doctest.h>
#include <stdlib.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "engine/patch/line_diff.h"
#include "engine/patch/patch_apply.h"

namespace muh {

namespace {

// "1\n2\n...\nn\n".
std::string Numbered(int n) {
  std::string text;
  for (int i = 1; i <= n; ++i) text += std::to_string(i) + "\n";
  return text;
}

// `Numbered(n)` with line `line` replaced by `replacement`.
std::string NumberedWith(int n, int line, const std::string& replacement) {
  std::string text;
  for (int i = 1; i <= n; ++i) text += (i == line ? replacement : std::to_string(i)) + "\n";
  return text;
}

std::string Header(const std::string& path) {
  return "diff --git a/" + path + " b/" + path + "\n--- a/" + path + "\n+++ b/" + path + "\n";
}

// Parses git's `S[,C]` starting at `*pos` in `line`.
void ParseRange(std::string_view line, std::size_t* pos, std::size_t* start, std::size_t* count) {
  *start = 0;
  while (*pos < line.size() && line[*pos] >= '0' && line[*pos] <= '9') {
    *start = *start * 10 + static_cast<std::size_t>(line[(*pos)++] - '0');
  }
  *count = 1;
  if (*pos < line.size() && line[*pos] == ',') {
    ++*pos;
    *count = 0;
    while (*pos < line.size() && line[*pos] >= '0' && line[*pos] <= '9') {
      *count = *count * 10 + static_cast<std::size_t>(line[(*pos)++] - '0');
    }
  }
}

// Test-only applier: applies the unified diff `diff` for `path` to
// `old_text`, requiring every context and deleted line to match exactly.
std::string ApplyDiff(std::string_view path, std::string_view old_text, std::string_view diff) {
  REQUIRE(!diff.empty());
  REQUIRE(diff.back() == '\n');
  std::vector<std::string_view> patch;
  for (std::string_view line : SplitLines(diff)) patch.push_back(line.substr(0, line.size() - 1));
  REQUIRE(patch.size() >= 4);
  const std::string path_string(path);
  REQUIRE(patch[0] == "diff --git a/" + path_string + " b/" + path_string);
  REQUIRE(patch[1] == "--- a/" + path_string);
  REQUIRE(patch[2] == "+++ b/" + path_string);

  const std::vector<std::string_view> old_lines = SplitLines(old_text);
  std::string out;
  std::size_t new_line_count = 0;
  std::size_t next_old = 0;
  std::size_t p = 3;
  while (p < patch.size()) {
    const std::string_view header = patch[p++];
    REQUIRE(header.substr(0, 4) == "@@ -");
    std::size_t pos = 4;
    std::size_t old_start = 0, old_count = 0, new_start = 0, new_count = 0;
    ParseRange(header, &pos, &old_start, &old_count);
    REQUIRE(header.substr(pos, 2) == " +");
    pos += 2;
    ParseRange(header, &pos, &new_start, &new_count);
    // " @@", then git's function context when a line above has one.
    REQUIRE(header.substr(pos, 3) == " @@");
    REQUIRE((header.size() == pos + 3 || header[pos + 3] == ' '));
    const std::size_t old_begin = old_count == 0 ? old_start : old_start - 1;
    const std::size_t new_begin = new_count == 0 ? new_start : new_start - 1;
    REQUIRE(old_begin >= next_old);
    REQUIRE(old_begin + old_count <= old_lines.size());
    for (; next_old < old_begin; ++next_old, ++new_line_count) out += old_lines[next_old];
    REQUIRE(new_line_count == new_begin);
    std::size_t old_seen = 0;
    std::size_t new_seen = 0;
    while (old_seen < old_count || new_seen < new_count) {
      REQUIRE(p < patch.size());
      const std::string_view line = patch[p++];
      REQUIRE(!line.empty());
      std::string text = std::string(line.substr(1)) + "\n";
      if (p < patch.size() && patch[p] == "\\ No newline at end of file") {
        text.pop_back();
        ++p;
      }
      if (line[0] == ' ' || line[0] == '-') {
        REQUIRE(old_seen < old_count);
        REQUIRE(old_lines[next_old++] == text);
        ++old_seen;
      }
      if (line[0] == ' ' || line[0] == '+') {
        REQUIRE(new_seen < new_count);
        out += text;
        ++new_seen;
        ++new_line_count;
      }
      REQUIRE((line[0] == ' ' || line[0] == '-' || line[0] == '+'));
    }
  }
  for (; next_old < old_lines.size(); ++next_old) out += old_lines[next_old];
  return out;
}

// Deterministic 64-bit LCG (Knuth's MMIX constants).
class Lcg {
 public:
  explicit Lcg(std::uint64_t seed) : state_(seed) {}
  std::uint32_t Next(std::uint32_t bound) {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::uint32_t>((state_ >> 33) % bound);
  }

 private:
  std::uint64_t state_;
};

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void WriteFile(const std::filesystem::path& path, std::string_view text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

bool HaveTool(const std::string& command) {
  return std::system((command + " >/dev/null 2>&1 </dev/null").c_str()) == 0;
}

}  // namespace

TEST_CASE("UnifiedDiff of identical texts is empty") {
  CHECK(UnifiedDiff("a.py", "", "") == "");
  CHECK(UnifiedDiff("a.py", "x\ny", "x\ny") == "");
}

TEST_CASE("UnifiedDiff single-line change in the middle") {
  CHECK(UnifiedDiff("src/a.py", Numbered(10), NumberedWith(10, 5, "five")) ==
        Header("src/a.py") +
            "@@ -2,7 +2,7 @@\n"
            " 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n");
}

TEST_CASE("UnifiedDiff change at the first and at the last line") {
  CHECK(UnifiedDiff("a", Numbered(10), NumberedWith(10, 1, "one")) ==
        Header("a") + "@@ -1,4 +1,4 @@\n-1\n+one\n 2\n 3\n 4\n");
  CHECK(UnifiedDiff("a", Numbered(10), NumberedWith(10, 10, "ten")) ==
        Header("a") + "@@ -7,4 +7,4 @@\n 7\n 8\n 9\n-10\n+ten\n");
}

TEST_CASE("UnifiedDiff single-line ranges omit the count") {
  CHECK(UnifiedDiff("a", "x\n", "y\n") == Header("a") + "@@ -1 +1 @@\n-x\n+y\n");
}

TEST_CASE("UnifiedDiff merges changes at most six unchanged lines apart") {
  // Lines 5 and 12: six unchanged lines between them, one hunk.
  std::string changed = NumberedWith(20, 5, "five");
  changed.replace(changed.find("\n12\n") + 1, 2, "twelve");
  CHECK(UnifiedDiff("a", Numbered(20), changed) ==
        Header("a") +
            "@@ -2,14 +2,14 @@\n"
            " 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n 9\n 10\n 11\n-12\n+twelve\n 13\n 14\n 15\n");
  // Lines 5 and 13: seven unchanged lines between them, two hunks.
  changed = NumberedWith(20, 5, "five");
  changed.replace(changed.find("\n13\n") + 1, 2, "thirteen");
  CHECK(UnifiedDiff("a", Numbered(20), changed) ==
        Header("a") +
            "@@ -2,7 +2,7 @@\n"
            " 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"
            "@@ -10,7 +10,7 @@\n"
            " 10\n 11\n 12\n-13\n+thirteen\n 14\n 15\n 16\n");
}

TEST_CASE("UnifiedDiff pure insertion and pure deletion") {
  const std::string inserted = NumberedWith(10, 5, "5\nnew");
  CHECK(UnifiedDiff("a", Numbered(10), inserted) ==
        Header("a") + "@@ -3,6 +3,7 @@\n 3\n 4\n 5\n+new\n 6\n 7\n 8\n");
  CHECK(UnifiedDiff("a", inserted, Numbered(10)) ==
        Header("a") + "@@ -3,7 +3,6 @@\n 3\n 4\n 5\n-new\n 6\n 7\n 8\n");
  CHECK(UnifiedDiff("a", Numbered(10), "1\n2\n3\n4\n7\n8\n9\n10\n") ==
        Header("a") + "@@ -2,8 +2,6 @@\n 2\n 3\n 4\n-5\n-6\n 7\n 8\n 9\n");
}

TEST_CASE("UnifiedDiff lists a change's deletions before its insertions") {
  CHECK(UnifiedDiff("a", "a\nb\nc\nd\n", "a\nB\nC\nd\n") ==
        Header("a") + "@@ -1,4 +1,4 @@\n a\n-b\n-c\n+B\n+C\n d\n");
}

TEST_CASE("UnifiedDiff keeps CRLF and other bytes intact") {
  CHECK(UnifiedDiff("w.txt", "a\r\nb\r\nc\r\n", "a\r\nB\r\nc\r\n") ==
        Header("w.txt") + "@@ -1,3 +1,3 @@\n a\r\n-b\r\n+B\r\n c\r\n");
  // A change of line ending only is a change.
  CHECK(UnifiedDiff("w.txt", "a\nb\n", "a\r\nb\n") ==
        Header("w.txt") + "@@ -1,2 +1,2 @@\n-a\n+a\r\n b\n");
  // A BOM is part of line 1.
  CHECK(UnifiedDiff("w.txt", "\xEF\xBB\xBFx\ny\n", "x\ny\n") ==
        Header("w.txt") + "@@ -1,2 +1,2 @@\n-\xEF\xBB\xBFx\n+x\n y\n");
}

TEST_CASE("UnifiedDiff marks a last line without newline") {
  const std::string kMarker = "\\ No newline at end of file\n";
  SUBCASE("old lacks it") {
    CHECK(UnifiedDiff("a", "x\ny", "x\nz\n") ==
          Header("a") + "@@ -1,2 +1,2 @@\n x\n-y\n" + kMarker + "+z\n");
  }
  SUBCASE("new lacks it") {
    CHECK(UnifiedDiff("a", "x\ny\n", "x\nz") ==
          Header("a") + "@@ -1,2 +1,2 @@\n x\n-y\n+z\n" + kMarker);
  }
  SUBCASE("both lack it and the last line changes") {
    CHECK(UnifiedDiff("a", "x\ny", "x\nz") ==
          Header("a") + "@@ -1,2 +1,2 @@\n x\n-y\n" + kMarker + "+z\n" + kMarker);
  }
  SUBCASE("both lack it and the last line is context") {
    CHECK(UnifiedDiff("a", "x\ny\nz", "X\ny\nz") ==
          Header("a") + "@@ -1,3 +1,3 @@\n-x\n+X\n y\n z\n" + kMarker);
  }
  SUBCASE("both lack it and a line is appended") {
    CHECK(UnifiedDiff("a", "x\ny", "x\ny\nz") ==
          Header("a") + "@@ -1,2 +1,3 @@\n x\n-y\n" + kMarker + "+y\n+z\n" + kMarker);
  }
  SUBCASE("adding the final newline") {
    CHECK(UnifiedDiff("a", "1\n2\n3\n4\n5", "1\n2\n3\n4\n5\n") ==
          Header("a") + "@@ -2,4 +2,4 @@\n 2\n 3\n 4\n-5\n" + kMarker + "+5\n");
  }
  SUBCASE("removing the final newline") {
    CHECK(UnifiedDiff("a", "1\n2\n3\n4\n5\n", "1\n2\n3\n4\n5") ==
          Header("a") + "@@ -2,4 +2,4 @@\n 2\n 3\n 4\n-5\n+5\n" + kMarker);
  }
}

TEST_CASE("UnifiedDiff of an empty side") {
  CHECK(UnifiedDiff("e", "", "a\nb\n") == Header("e") + "@@ -0,0 +1,2 @@\n+a\n+b\n");
  CHECK(UnifiedDiff("e", "", "a") ==
        Header("e") + "@@ -0,0 +1 @@\n+a\n\\ No newline at end of file\n");
  CHECK(UnifiedDiff("e", "a\nb\n", "") == Header("e") + "@@ -1,2 +0,0 @@\n-a\n-b\n");
}

TEST_CASE("UnifiedDiff round-trips through a hunk applier") {
  static const char* const kWords[] = {"alpha", "beta",      "gamma", "delta",  "}",
                                       "",      "    x = 1", "\t",    "return", "{"};
  Lcg rng(20240601);
  for (int iteration = 0; iteration < 500; ++iteration) {
    const std::uint32_t vocabulary = 2 + rng.Next(9);
    const bool crlf = rng.Next(4) == 0;
    auto random_line = [&]() {
      std::string line = kWords[rng.Next(vocabulary)];
      if (rng.Next(8) == 0) line += std::to_string(rng.Next(100));
      return line + (crlf || rng.Next(16) == 0 ? "\r\n" : "\n");
    };
    std::vector<std::string> old_lines;
    const std::uint32_t size = rng.Next(iteration % 10 == 0 ? 200 : 40);
    for (std::uint32_t i = 0; i < size; ++i) old_lines.push_back(random_line());
    std::vector<std::string> new_lines = old_lines;
    const std::uint32_t edits = rng.Next(6);
    for (std::uint32_t e = 0; e < edits; ++e) {
      const std::uint32_t at = rng.Next(static_cast<std::uint32_t>(new_lines.size() + 1));
      const auto where = new_lines.begin() + static_cast<std::ptrdiff_t>(at);
      switch (rng.Next(3)) {
        case 0:
          if (at < new_lines.size()) new_lines.erase(where);
          break;
        case 1:
          if (at < new_lines.size()) *where = random_line();
          break;
        default:
          new_lines.insert(where, rng.Next(3) + 1, random_line());
      }
    }
    std::string old_text, new_text;
    for (const std::string& line : old_lines) old_text += line;
    for (const std::string& line : new_lines) new_text += line;
    // Drop the final newline (or "\r\n") of either side now and then.
    if (rng.Next(4) == 0 && !old_text.empty()) old_text.pop_back();
    if (rng.Next(4) == 0 && !new_text.empty()) new_text.pop_back();

    CAPTURE(iteration);
    CAPTURE(old_text);
    CAPTURE(new_text);
    const std::string diff = UnifiedDiff("dir/file.txt", old_text, new_text);
    if (old_text == new_text) {
      REQUIRE(diff.empty());
    } else {
      REQUIRE(ApplyDiff("dir/file.txt", old_text, diff) == new_text);
      REQUIRE(UnifiedDiff("dir/file.txt", old_text, new_text) == diff);
    }
  }
}

TEST_CASE("UnifiedDiff round-trips a 10 MB file with a few changes") {
  std::string old_text;
  old_text.reserve(10'500'000);
  for (int i = 0; old_text.size() < 10'000'000; ++i) {
    old_text +=
        "    value_" + std::to_string(i % 1000) + " = compute(" + std::to_string(i) + ");\n";
  }
  std::string new_text = old_text;
  new_text.replace(0, 4, "\t");
  new_text.insert(new_text.size() / 2, "// inserted\n");
  new_text.erase(new_text.size() * 3 / 4, 40);
  new_text.pop_back();

  // Speed is measured in bench/, never asserted here.
  const std::string diff = UnifiedDiff("big.cc", old_text, new_text);
  CHECK(ApplyDiff("big.cc", old_text, diff) == new_text);
}

TEST_CASE("git apply and patch -p1 accept the diffs") {
  if (!HaveTool("git --version") || !HaveTool("patch --version")) {
    MESSAGE("git or patch is not installed; skipping");
    return;
  }
  struct Case {
    const char* name;
    std::string old_text;
    std::string new_text;
  };
  std::string two_hunks = NumberedWith(20, 5, "five");
  two_hunks.replace(two_hunks.find("\n13\n") + 1, 2, "thirteen");
  const std::vector<Case> cases = {
      {"middle change", Numbered(10), NumberedWith(10, 5, "five")},
      {"two hunks", Numbered(20), two_hunks},
      {"insertion at the top", Numbered(5), "0\n" + Numbered(5)},
      {"crlf", "a\r\nb\r\nc\r\nd\r\n", "a\r\nB\r\nc\r\nd\r\ne\r\n"},
      {"crlf to lf", "a\r\nb\r\nc\r\n", "a\nb\r\nc\r\n"},
      {"old lacks final newline", "1\n2\n3", "1\n2\nthree\n"},
      {"new lacks final newline", "1\n2\n3\n", "1\n2\nthree"},
      {"both lack final newline", "1\n2\n3\n4", "one\n2\n3\n4"},
      {"adding final newline", "1\n2\n3", "1\n2\n3\n"},
      {"removing final newline", "1\n2\n3\n", "1\n2\n3"},
      {"empty old", "", "a\nb\n"},
      {"empty new", "a\nb\n", ""},
  };
  char dir_template[] = "/tmp/muh_unified_diff_XXXXXX";
  REQUIRE(mkdtemp(dir_template) != nullptr);
  const std::filesystem::path dir(dir_template);
  const std::filesystem::path file = dir / "src" / "file.txt";
  std::filesystem::create_directories(file.parent_path());
  const std::string cd = "cd '" + dir.string() + "' && ";
  // Its own repository, so that paths resolve against `dir` whatever encloses
  // it; config that could rewrite line endings or reject whitespace is off.
  REQUIRE(std::system((cd + "git init -q").c_str()) == 0);
  const std::string git_apply =
      cd + "git -c core.autocrlf=false -c core.safecrlf=false -c apply.whitespace=nowarn apply ";
  const std::string patch = cd + "patch -p1 -s -f -i change.patch </dev/null";
  for (const Case& c : cases) {
    CAPTURE(c.name);
    const std::string diff = UnifiedDiff("src/file.txt", c.old_text, c.new_text);
    REQUIRE(!diff.empty());
    WriteFile(dir / "change.patch", diff);
    WriteFile(file, c.old_text);
    CHECK(std::system((git_apply + "--check change.patch").c_str()) == 0);
    CHECK(std::system((patch + " --dry-run").c_str()) == 0);
    CHECK(std::system((git_apply + "change.patch").c_str()) == 0);
    CHECK(ReadFile(file) == c.new_text);
    WriteFile(file, c.old_text);
    CHECK(std::system(patch.c_str()) == 0);
    CHECK(ReadFile(file) == c.new_text);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("git apply, patch -p1 and ParsePatch read the paths muhpatch writes") {
  if (!HaveTool("git --version") || !HaveTool("patch --version")) {
    MESSAGE("git or patch is not installed; skipping");
    return;
  }
  char dir_template[] = "/tmp/muh_diff_paths_XXXXXX";
  REQUIRE(mkdtemp(dir_template) != nullptr);
  const std::filesystem::path dir(dir_template);
  const std::string cd = "cd '" + dir.string() + "' && ";
  REQUIRE(std::system((cd + "git init -q").c_str()) == 0);
  // A space before "b/", a tab, a newline, a quote and a backslash.
  for (const std::string& path : std::vector<std::string>{"x b/c.py", "t\tab.py", "n\nl.py",
                                                          "q\"uote.py", "back\\slash.py"}) {
    std::string real = path;
    for (auto [from, to] : std::vector<std::pair<std::string, std::string>>{
             {"\\t", "\t"}, {"\\n", "\n"}, {"\\\"", "\""}, {"\\\\", "\\"}}) {
      for (std::size_t at = real.find(from); at != std::string::npos;
           at = real.find(from, at + 1)) {
        real.replace(at, from.size(), to);
      }
    }
    CAPTURE(real);
    const std::string diff = UnifiedDiff(real, "a = 1\n", "a = 2\n");
    std::vector<FilePatch> parsed;
    std::vector<Diagnostic> errors;
    REQUIRE(ParsePatch("p.diff", diff, &parsed, &errors));
    REQUIRE(parsed.size() == 1);
    CHECK(parsed[0].path == real);
    std::filesystem::create_directories((dir / real).parent_path());
    WriteFile(dir / "change.patch", diff);
    WriteFile(dir / real, "a = 1\n");
    CHECK(std::system((cd + "git apply --check change.patch").c_str()) == 0);
    CHECK(std::system((cd + "patch -p1 -s -f --dry-run -i change.patch </dev/null").c_str()) == 0);
    CHECK(std::system((cd + "git apply change.patch").c_str()) == 0);
    CHECK(ReadFile(dir / real) == "a = 2\n");
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("hunk headers carry git's default function context") {
  std::string old_text = "import os\n\ndef f(x):\n    a = 1\n    b = 2\n    c = 3\n    d = 4\n";
  std::string new_text = "import os\n\ndef f(x):\n    a = 1\n    b = 2\n    c = 3\n    d = 5\n";
  std::string diff = UnifiedDiff("m.py", old_text, new_text);
  CHECK(diff.find("@@ -4,4 +4,4 @@ def f(x):\n") != std::string::npos);
  // No line above the hunk starts with a letter, '_' or '$': no context.
  CHECK(UnifiedDiff("m.py", "  x\n", "  y\n").find("@@ -1 +1 @@\n") != std::string::npos);
  // Cut to 80 bytes, trailing blanks (a CR included) dropped.
  std::string long_line = "class " + std::string(100, 'A') + ":  \r\n";
  std::string before = long_line + "1\r\n2\r\n3\r\n4\r\n";
  std::string after = long_line + "1\r\n2\r\n3\r\n5\r\n";
  std::string header = "@@ -2,4 +2,4 @@ class " + std::string(74, 'A') + "\n";
  CHECK(UnifiedDiff("m.py", before, after).find(header) != std::string::npos);
}

}  // namespace muh
