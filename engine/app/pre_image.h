// The pre-image of a tree that carries a patch muhpatch wrote: the tree with
// the patch undone hunk by hunk, each `+` line giving back its `-` line even
// where a knob's value on it was retuned since (patch_apply.h's LooseSpan).
// `diff --base-patch` regenerates the patch from it, and verify uses it to
// tell whether the tree holds its committed patch applied.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "engine/app/workspace.h"
#include "engine/patch/patch_apply.h"
#include "engine/plan/plan_result.h"

namespace muh {

// The sites `plan` found in `file`, as spans of the lines that hold them
// (lines counted as a patch counts them, LF only); a site over several lines
// gives none. Only a value tuned by hand may stand where the patch wrote
// another: a site holding upstream's value on a `+` line is a tree that does
// not carry the patch. Any other site may differ on a context line alone
// (LooseSpan::context_only): a value the patch left alone, edited since.
std::vector<LooseSpan> SiteSpans(const PlanResult& plan, const SourceText& file);

// A hunk that cannot be undone even so.
struct UndoMiss {
  const FilePatch* file = nullptr;
  HunkMiss miss;
};

struct PreImage {
  // The tree's files as the rules read them (and any other the patch
  // names), with the patch undone; the tree's own when it is pristine.
  std::map<std::string, SourceText> files;
  bool pristine = false;  // the patch applies forwards whole: the tree does not carry it
  std::vector<UndoMiss> misses;
  std::vector<std::string> missing;  // files the patch names that the tree lacks
  // The patch changes more than lines (a mode, a rename: OtherChange),
  // which muhpatch never does and does not undo; nothing else is tried.
  bool other_change = false;
  bool ok() const { return misses.empty() && missing.empty() && !other_change; }
};

// The pre-image of the workspace's tree under `patch`; `now` is the plan of
// the tree as it is, whose sites may hold retuned values.
PreImage PreImageOf(const Workspace& w, const std::vector<FilePatch>& patch, const PlanResult& now);

}  // namespace muh
