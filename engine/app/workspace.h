// The source tree a command works on, opened once: its root, the lock the
// command holds on it, its listing of Python files and the files the rules
// read (in scope, or named by preconditions). This is where the disk module
// (tree_io) meets the pure core; nothing else in app/ reads the tree, except
// verify's whole-tree search, through `tree`.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/base/diagnostic.h"
#include "engine/base/source_text.h"
#include "engine/io/file_cache.h"
#include "engine/io/tree_io.h"
#include "engine/liveness/statement_cache.h"
#include "engine/rules/rule.h"
#include "engine/search/word_filter_cache.h"

namespace muh {

enum class TreeAccess {
  kRead,   // diff, verify: the shared lock; waits for a running apply
  kWrite,  // apply: the exclusive lock; fails at once when another run holds it
};

struct Workspace {
  std::string rules_path;  // diagnostics about the rule file keep its name
  TreeIo tree;
  TreeIo::Lock lock;
  std::vector<std::string> tree_paths;      // every .py file, sorted
  ListingSkips skipped;                     // what the listing left out
  std::map<std::string, SourceText> files;  // what the rules read
  // Every listed .py file (and every unlisted one, whose read then says
  // why not), read once for all who need it: verify's whole-tree search
  // and the liveness analysis. Borrows `tree`: a Workspace is not moved.
  std::unique_ptr<FileCache> sources;
  // How many bytes of files the readers that pass over the whole tree (the
  // search, the liveness analysis) let `sources` keep: past it they read a
  // file at a time. 8 MiB: more than the real tree's 6.3 MB, an eighth of
  // the 64 MiB that verify's peak memory is to stay under (the liveness
  // analysis with its variants, liveness.h, takes more of it).
  static constexpr std::size_t kSourcesKeep = std::size_t{8} << 20;
  // The word filters of the same files, built once for the search and the
  // liveness analysis together (of the bytes `sources` gives).
  std::unique_ptr<WordFilterCache> words;
  // The statement tables of the same files, each parsed once for every
  // liveness analysis of the run (statement_cache.h).
  std::shared_ptr<StatementCache> statements = std::make_shared<StatementCache>();

  // `d` with a tree-relative file shown under the tree root as the user gave it.
  Diagnostic Shown(const Diagnostic& d) const;
  // Prints diagnostics on stderr, shown as above.
  void Report(const Diagnostic& d) const;
  void ReportAll(const std::vector<Diagnostic>& ds) const;
};

// Opens `tree_path`, locks it as `access` says and lists it, giving the
// workspace its FileCache; under kWrite, an apply that was interrupted is
// first rolled forward or back from its journal (tree_io.h). Needs no
// rules, so a reader can open the tree while it loads them. Returns
// kExitClean, or the exit code of the cause (exit_codes.h) with the reasons
// in `errors`: kExitBusy when kWrite finds the lock held, kExitBadInput when
// the tree cannot be opened or listed.
int OpenTree(const std::string& tree_path, TreeAccess access, Workspace* out,
             std::vector<Diagnostic>* errors);
// Then reads every file `rules` needs into `w->files`: kExitBadInput, with
// the reasons in `errors`, when one cannot be read or is not UTF-8.
int ReadRuleFiles(const RuleSet& rules, Workspace* w, std::vector<Diagnostic>* errors);

}  // namespace muh
