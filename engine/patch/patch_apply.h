// Applying a read patch (patch_reader.h) to a file's content: as `git
// apply` applies it (offsets allowed, no fuzz), which `verify` uses to tell
// whether a committed patch still applies to a tree, forwards (pristine
// tree) or backwards (patched tree); or exactly where its hunks say, which
// the fuzzers use to check muhpatch's own diffs. Pure: strings in, strings
// out.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/diagnostic.h"
#include "engine/patch/patch_reader.h"

namespace muh {

// Whether two parsed patches make the same change: same files, hunk ranges
// and bodies (patch line numbers aside).
bool SameChange(const std::vector<FilePatch>& a, const std::vector<FilePatch>& b);

// A hunk `git apply` would refuse, and where its lines are now.
struct HunkMiss {
  std::size_t hunk = 0;      // 0-based index in the file's hunks
  int patch_line = 0;        // its `@@` line in the patch file
  std::size_t expected = 0;  // 1-based line where the hunk says its lines start
  // Where most of the hunk's old side (its context and removed lines) is
  // now, nearest `expected` first: its first line (1-based, in the file as
  // given) and the lines it spans; 0 when none of those lines is anywhere.
  std::size_t now_at = 0, span = 0;
  // The old side is there whole, but the hunk names line 1 (it must match
  // at the start of the file) or has no context after its change (it must
  // match at the end), and git takes it nowhere else.
  bool anchored = false;
  // The old side is there whole but for the line ends (one has "\r\n"
  // where the other has "\n"): `has` and `wanted` are the first such lines,
  // terminators kept.
  bool line_ends = false;
  // Otherwise the first line there that differs: its number, what the file
  // has (chomped), what the hunk wants, and whether the hunk has it as
  // context (else it is a line the hunk removes).
  std::size_t differs_at = 0;
  std::string has, wanted;
  bool context = false;
};

// A line of the content a patch is applied to that holds a value (a knob's)
// in bytes [begin, end): a line the hunk changes (never a context line) that
// differs from it only there still matches (LooseMatch). Undoing a patch on a
// tree where someone retuned a value on a `+` line takes the pre-image line
// from the `-` line all the same.
// A span marked `context_only` may differ on a context line alone: a value
// the patch left alone (left_record.h) edited since, inside a hunk's context;
// undoing the hunk keeps the line as the content has it.
struct LooseSpan {
  std::size_t line = 0;  // 1-based, in the content as given
  std::size_t begin = 0, end = 0;
  bool context_only = false;
};

// Whether `has` (a line holding a value in bytes [begin, end)) equals
// `wanted` but for that value: same bytes before it and after it.
bool LooseMatch(std::string_view has, std::string_view wanted, std::size_t begin, std::size_t end);

// `patch` applied to `content` (reverse: undone) as `git apply` applies it:
// hunk after hunk in the patch's order, each where its old side is found
// whole nearest the line it names (offsets allowed, no fuzz); a hunk naming
// line 1 (or 0) must match at the start, one without context after its last
// change at the end. A hunk that fails is left out, as `git apply --reject`
// leaves it, and described in `misses`. A line `loose` names may differ from
// a line the hunk changes in its value alone.
std::string ApplyAsGit(const FilePatch& patch, const std::string& content, bool reverse,
                       std::vector<HunkMiss>* misses, const std::vector<LooseSpan>& loose = {});

// Applies `patch` to `content` (reverse: undoes it). On a hunk that does not
// match exactly, returns false with an error located at the hunk header in
// `display_path` that names the file line where it failed.
bool ApplyFilePatch(const std::string& display_path, const FilePatch& patch,
                    const std::string& content, bool reverse, std::string* out, Diagnostic* error);

}  // namespace muh
