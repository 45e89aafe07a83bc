#include "engine/app/workspace.h"

#include <fmt/format.h>

#include <algorithm>

#include "engine/app/tree_hint.h"
#include "engine/base/exit_codes.h"
#include "engine/base/glob.h"
#include "engine/base/logging.h"
#include "engine/python/syntax_tree.h"
#include "engine/rules/scope.h"

namespace muh {

Diagnostic Workspace::Shown(const Diagnostic& d) const {
  Diagnostic shown = d;
  if (!d.file.empty() && d.file != rules_path && !tree.root().empty() && d.file != tree.root()) {
    std::string root = tree.root();
    while (root.size() > 1 && root.back() == '/') root.pop_back();
    shown.file = root + "/" + d.file;
  }
  return shown;
}

void Workspace::Report(const Diagnostic& d) const { logging::Diag(Shown(d).Format()); }

void Workspace::ReportAll(const std::vector<Diagnostic>& ds) const {
  for (const Diagnostic& d : ds) Report(d);
}

namespace {

// A literal path the listing left out may still exist (a symlink that
// leaves the tree, a non-regular file): report why it cannot be read.
bool CheckLiteralPaths(const RuleSet& rules, const Workspace& w, std::vector<Diagnostic>* errors) {
  for (const Rule& r : rules.rules) {
    for (const std::string& f : r.files) {
      if (IsGlob(f) || std::binary_search(w.tree_paths.begin(), w.tree_paths.end(), f)) continue;
      std::string ignored;
      Diagnostic derr;
      if (w.tree.Exists(f) && !w.tree.Read(f, &ignored, &derr)) {
        errors->push_back(derr);
        return false;
      }
    }
  }
  return true;
}

}  // namespace

int OpenTree(const std::string& tree_path, TreeAccess access, Workspace* w,
             std::vector<Diagnostic>* errors) {
  Diagnostic derr;
  if (!TreeIo::Open(tree_path, &w->tree, &derr)) {
    errors->push_back(derr);
    return kExitBadInput;
  }
  // apply locks before it reads: the plan must see the tree as the write
  // will find it.
  if (!w->tree.AcquireLock(access == TreeAccess::kWrite, &w->lock, &derr)) {
    errors->push_back(derr);
    return access == TreeAccess::kWrite ? kExitBusy : kExitBadInput;
  }
  if (access == TreeAccess::kWrite) {
    const WriteResult recovered = w->tree.RecoverInterruptedApply(errors);
    if (!recovered.ok()) return ExitCodeFor(recovered);
    for (const std::string& r : recovered.removed) {
      logging::Info("removed {}, left by an interrupted apply", r);
    }
  }
  if (!w->tree.ListFiles(".py", &w->tree_paths, &derr, &w->skipped)) {
    errors->push_back(derr);
    return kExitBadInput;
  }
  std::vector<std::string> sources = w->tree_paths;
  sources.insert(sources.end(), w->skipped.unlisted.begin(), w->skipped.unlisted.end());
  w->words = std::make_unique<WordFilterCache>(sources);
  w->sources = std::make_unique<FileCache>(w->tree, std::move(sources));
  logging::Debug("{} .py files under {}", w->tree_paths.size(), tree_path);
  return kExitClean;
}

int ReadRuleFiles(const RuleSet& rules, Workspace* w, std::vector<Diagnostic>* errors) {
  w->rules_path = rules.path;
  if (!CheckLiteralPaths(rules, *w, errors)) return kExitBadInput;
  Diagnostic derr;
  std::size_t errors_before = errors->size();
  const std::vector<std::string> needed = FilesNeeded(rules, w->tree_paths, errors);
  if (needed.empty() && errors->size() != errors_before) {
    // Not one file found: most likely TREE names vllm/ itself.
    if (auto hint = TreeRootHint(w->tree.root(), w->tree.Exists("vllm"),
                                 w->tree.Exists("_custom_ops.py"))) {
      errors->push_back(MakeNote(w->tree.root(), 0, 0, *hint));
    }
  }
  for (const std::string& path : needed) {
    std::string uncached;
    std::optional<std::string_view> bytes = w->sources->Get(path, &derr, &uncached);
    if (!bytes) {
      errors->push_back(derr);
      continue;
    }
    SourceText file(path, std::string(*bytes));
    // Bytes of another encoding the file declares (`# coding: latin-1`, a
    // helper probe of e2916b3) are Python too: such a file is read, and its
    // tree proves nothing (ForeignEncoding), as for every foreign encoding.
    std::optional<std::size_t> bad = FindInvalidUtf8(file.bytes());
    if (bad && ForeignEncoding(file.bytes())) {
      logging::Debug("{}: not UTF-8, in the encoding its coding line declares", path);
      bad.reset();
    }
    if (bad) {
      Position p = file.PositionOf(*bad);
      errors->push_back(
          MakeError(path, p.line, p.column,
                    fmt::format("invalid UTF-8 (byte 0x{:02X}); Python sources must be UTF-8",
                                static_cast<unsigned char>(file.bytes()[*bad]))));
      continue;
    }
    w->files.emplace(path, std::move(file));
  }
  if (errors->size() != errors_before) return kExitBadInput;
  logging::Debug("{} files in scope of {} rules", w->files.size(), rules.rules.size());
  return kExitClean;
}

}  // namespace muh
