#include "engine/patch/patch_reader.h"

#include <doctest/doctest.h>

#include "engine/patch/unified_diff.h"

namespace muh {

namespace {

// The lines of `p`'s first hunk, as "K|text" (text chomped).
std::string Body(const FilePatch& p, std::size_t hunk = 0) {
  std::string out;
  for (const auto& [kind, text] : p.hunks.at(hunk).body) {
    std::string t = text;
    if (!t.empty() && t.back() == '\n') t.pop_back();
    out += std::string(1, kind) + "|" + t + "\n";
  }
  return out;
}

std::vector<FilePatch> Read(const std::string& text, int strip = kDefaultStrip,
                            std::vector<std::string>* preamble = nullptr) {
  std::vector<FilePatch> out;
  std::vector<Diagnostic> errors;
  bool ok = ReadPatch("p.diff", text, strip, &out, &errors, preamble);
  std::string first_error = errors.empty() ? std::string() : errors[0].Format();
  INFO(first_error);
  REQUIRE(ok);
  return out;
}

std::string Error(const std::string& text, int strip = kDefaultStrip) {
  std::vector<FilePatch> out;
  std::vector<Diagnostic> errors;
  CHECK_FALSE(ReadPatch("p.diff", text, strip, &out, &errors));
  return errors.empty() ? "" : errors[0].Format();
}

const char* kHunk = "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n";
const char* kBody = " |a\n-|b\n+|B\n |c\n";

}  // namespace

TEST_CASE("ReadPatch reads git's headers: index, mode and similarity lines") {
  std::vector<FilePatch> p = Read(std::string("diff --git a/x.py b/x.py\nindex 3f2a..9c1e 100644\n"
                                              "--- a/x.py\n+++ b/x.py\n") +
                                  kHunk);
  REQUIRE(p.size() == 1);
  CHECK(p[0].path == "x.py");
  CHECK(p[0].old_path == "x.py");
  CHECK(p[0].line == 1);
  CHECK(p[0].old_mode == "100644");
  CHECK(p[0].OtherChange().empty());
  CHECK(Body(p[0]) == kBody);
  CHECK(p[0].hunks[0].line == 5);

  p = Read(std::string("diff --git a/x.py b/x.py\nold mode 100644\nnew mode 100755\n"
                       "--- a/x.py\n+++ b/x.py\n") +
           kHunk);
  CHECK(p[0].OtherChange() == "changes its mode from 100644 to 100755");

  p = Read(std::string("diff --git a/x.py b/y.py\nsimilarity index 90%\nrename from x.py\n"
                       "rename to y.py\n--- a/x.py\n+++ b/y.py\n") +
           kHunk);
  CHECK(p[0].path == "y.py");
  CHECK(p[0].OtherChange() == "renames x.py to it");

  // A mode change alone has no hunk.
  p = Read("diff --git a/x.py b/x.py\nold mode 100644\nnew mode 100755\n");
  CHECK(p[0].hunks.empty());
  CHECK(p[0].path == "x.py");

  p = Read(
      "diff --git a/n.py b/n.py\nnew file mode 100644\n--- /dev/null\n+++ b/n.py\n"
      "@@ -0,0 +1 @@\n+x\n");
  CHECK(p[0].OtherChange() == "creates it");
}

TEST_CASE("ReadPatch reads plain diff -u and diff -ru output, timestamps and all") {
  std::vector<std::string> preamble;
  std::vector<FilePatch> p =
      Read(std::string("diff -ru old/vllm/x.py new/vllm/x.py\n"
                       "--- old/vllm/x.py\t2024-05-01 10:00:00.123456789 +0000\n"
                       "+++ new/vllm/x.py\t2024-05-01 10:00:01.000000000 +0000\n") +
               kHunk + "Only in new: z.py\n" + "diff -ru old/y.py new/y.py\n" +
               "--- old/y.py 2024-05-01 10:00:00 +0200\n+++ new/y.py 2024-05-01 10:00:00\n" + kHunk,
           kDefaultStrip, &preamble);
  REQUIRE(p.size() == 2);
  CHECK(p[0].path == "vllm/x.py");
  CHECK(p[1].path == "y.py");
  CHECK(Body(p[1]) == kBody);
  CHECK(preamble == std::vector<std::string>{"diff -ru old/vllm/x.py new/vllm/x.py"});
  // A name with a space, the timestamp after a tab.
  p = Read(std::string("--- a/my file.py\t2024-05-01 10:00:00\n+++ b/my file.py\t2024\n") + kHunk);
  CHECK(p[0].path == "my file.py");
  // Names without a directory ask for -p 0, as git guesses.
  p = Read(std::string("--- x.py.orig\n+++ x.py\n") + kHunk);
  CHECK(p[0].path == "x.py");
}

TEST_CASE("ReadPatch strips -p N components as git apply does") {
  std::string q = std::string("diff --git a/q/x.py b/q/x.py\n--- a/q/x.py\n+++ b/q/x.py\n") + kHunk;
  CHECK(Read(q)[0].path == "q/x.py");
  CHECK(Read(q, 2)[0].path == "x.py");
  // With -p 0 the names differ: git reads a/q/x.py and writes b/q/x.py.
  std::vector<FilePatch> p0 = Read(q, 0);
  CHECK(p0[0].old_path == "a/q/x.py");
  CHECK(p0[0].path == "b/q/x.py");
  CHECK(p0[0].OtherChange() == "renames a/q/x.py to it");
  CHECK(Read(std::string("diff --git x/q.py y/q.py\n--- x/q.py\n+++ y/q.py\n") + kHunk)[0].path ==
        "q.py");
  CHECK(Error(std::string("diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n") + kHunk, 2) ==
        "p.diff:2:1: error: malformed patch: no old file name with -p 2");
  // Quoted names.
  CHECK(Read(std::string("diff --git \"a/t\\tx.py\" \"b/t\\tx.py\"\n--- \"a/t\\tx.py\"\n"
                         "+++ \"b/t\\tx.py\"\n") +
             kHunk)[0]
            .path == "t\tx.py");
}

TEST_CASE("ReadPatch leaves text around the patch alone, as git does") {
  std::vector<std::string> preamble;
  std::string mail = std::string(
                         "From 1234 Mon Sep 17 00:00:00 2001\nSubject: [PATCH] x\n\n---\n"
                         " x.py | 2 +-\n\ndiff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n") +
                     kHunk + "-- \n2.39.5\n\n";
  std::vector<FilePatch> p = Read(mail, kDefaultStrip, &preamble);
  REQUIRE(p.size() == 1);
  CHECK(Body(p[0]) == kBody);
  CHECK(preamble.size() == 6);
  CHECK(preamble[1] == "Subject: [PATCH] x");
  // Text right after a hunk, even one starting with '-' or '+'.
  p = Read(std::string("diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n") + kHunk +
           "- a note\n+ another\n");
  CHECK(Body(p[0]) == kBody);
}

TEST_CASE("ReadPatch takes a blank context line without its space, and CRLF headers") {
  std::vector<FilePatch> p =
      Read("diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1,3 +1,3 @@\n\n-b\n+B\n c\n");
  CHECK(Body(p[0]) == " |\n-|b\n+|B\n |c\n");
  p = Read(
      "diff --git a/x.py b/x.py\r\n--- a/x.py\r\n+++ b/x.py\r\n@@ -1,2 +1,2 @@\r\n-b\r\n+B\r\n "
      "c\r\n");
  CHECK(p[0].path == "x.py");
  CHECK(p[0].hunks[0].body[0].second == "b\r\n");
  // git calls a bare "\r\n" in a hunk corrupt.
  CHECK(
      Error(
          "diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1,3 +1,3 @@\n\r\n-b\n+B\n c\n") ==
      "p.diff:5:1: error: malformed patch: a hunk line is neither context (' '), removed ('-') "
      "nor added ('+')");
}

TEST_CASE("ReadPatch reads files and hunks in any order, and no-newline markers") {
  std::string twenty;
  for (int i = 1; i <= 20; ++i) twenty += std::to_string(i) + "\n";
  std::string changed = twenty;
  changed.replace(changed.find("\n2\n"), 3, "\nX\n");
  changed.replace(changed.find("\n18\n"), 4, "\nY\n");
  std::string two = UnifiedDiff("b.py", twenty, changed);
  std::vector<FilePatch> p = Read(two + UnifiedDiff("a.py", "p\nq", "p\nr"));
  REQUIRE(p.size() == 2);
  CHECK(p[0].path == "b.py");
  CHECK(p[1].path == "a.py");
  CHECK(p[1].hunks[0].body.back().second == "r");
  CHECK(p[0].hunks.size() == 2);
}

TEST_CASE("ReadPatch refuses what git calls corrupt, located") {
  std::string head = "diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n";
  CHECK(Error("hello\n") ==
        "p.diff:1:1: error: malformed patch: no file in it (neither 'diff --git' nor a '---'/'+++' "
        "pair before '@@')");
  // An empty patch is one without files (what diff prints for no change).
  CHECK(Read("").empty());
  CHECK(Read("\n").empty());
  CHECK(Error(std::string(kHunk)) ==
        "p.diff:1:1: error: malformed patch: a hunk without a file header before it");
  CHECK(Error(head + "@@ -1,2 +1,2 @@\n-a\n+b\n") ==
        "p.diff:7:1: error: malformed patch: the hunk ends before its header's counts");
  CHECK(Error(head + "@@ -a,1 +1 @@\n-a\n+b\n") ==
        "p.diff:4:1: error: malformed patch: bad hunk header");
  CHECK(Error(head + "@@ -1,2 +1,2 @@\n a\n-b\n+B") ==
        "p.diff:7:1: error: malformed patch: the line does not end in a newline");
  CHECK(Error(head + "@@ -1,2 +1,2 @@\n a\n b\n") ==
        "p.diff:4:1: error: malformed patch: a hunk that changes nothing");
  // A blank line between two hunks ends the file: the second has no header.
  CHECK(Error(head + kHunk + "\n" + kHunk) ==
        "p.diff:10:1: error: malformed patch: a hunk without a file header before it");
  CHECK(Error("diff --git a/x.py b/x.py\nindex 1..2 100644\n") ==
        "p.diff:1:1: error: malformed patch: no hunk for 'x.py' after its header");
}

}  // namespace muh
