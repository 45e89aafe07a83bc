#include "engine/app/session.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <thread>

#include "engine/base/edit_distance.h"
#include "engine/base/glob.h"
#include "engine/model/profile_yaml.h"
#include "engine/rules/rule_loader.h"
#include "engine/rules/scope.h"

namespace muh {

Diagnostic Session::Shown(const Diagnostic& d) const {
  Diagnostic shown = d;
  if (d.file != rules.path && !tree.root().empty() && d.file != tree.root()) {
    std::string root = tree.root();
    while (root.size() > 1 && root.back() == '/') root.pop_back();
    shown.file = root + "/" + d.file;
  }
  return shown;
}

void Session::Report(const Diagnostic& d) const { spdlog::get("diag")->info(Shown(d).Format()); }

void Session::ReportAll(const std::vector<Diagnostic>& ds) const {
  for (const Diagnostic& d : ds) Report(d);
}

bool SelectRules(const std::vector<std::string>& ids, RuleSet* rules,
                 std::vector<Diagnostic>* errors) {
  if (ids.empty()) return true;
  std::vector<std::string> known;
  for (const Rule& r : rules->rules) known.push_back(r.id);
  bool ok = true;
  for (const std::string& id : ids) {
    if (std::find(known.begin(), known.end(), id) == known.end()) {
      errors->push_back(
          MakeError(rules->path, 0, 0,
                    fmt::format("--rule '{}': no such rule{}", id, DidYouMean(id, known))));
      ok = false;
    }
  }
  rules->rules.erase(std::remove_if(rules->rules.begin(), rules->rules.end(),
                                    [&](const Rule& r) {
                                      return std::find(ids.begin(), ids.end(), r.id) == ids.end();
                                    }),
                     rules->rules.end());
  return ok;
}

bool BuildProfile(const SessionOptions& opts, Profile* out, std::vector<Diagnostic>* errors) {
  *out = Profile::BiV100();
  if (!opts.hw_path.empty()) {
    std::string text, err;
    if (!ReadWholeFile(opts.hw_path, &text, &err)) {
      errors->push_back(MakeError(opts.hw_path, 0, 0, err));
      return false;
    }
    if (!ApplyProfileYaml(opts.hw_path, text, out, errors)) return false;
  }
  for (const std::string& set : opts.sets) {
    std::string err;
    if (!out->ApplySet(set, &err)) {
      errors->push_back(MakeError("--set", 0, 0, err));
      return false;
    }
  }
  return true;
}

std::shared_ptr<ModelValues> BuildModel(const Profile& profile, const RuleSet& rules,
                                        std::vector<Diagnostic>* errors) {
  Workload workload = Workload::Defaults();
  for (const WorkloadSetting& w : rules.workload) {
    std::string err;
    if (!workload.Set(w.name, w.value, &err)) {
      errors->push_back(MakeError(rules.path, w.loc.line, w.loc.column, err));
    }
  }
  return std::make_shared<ModelValues>(profile, workload, rules.search_spaces);
}

void OpenSession(const SessionOptions& opts, Session* s, const AlongsidePlan& alongside) {
  std::string text;
  std::string err;
  s->rules.path = opts.rules_path;
  Profile profile;
  if (!BuildProfile(opts, &profile, &s->load_errors)) return;
  if (!ReadWholeFile(opts.rules_path, &text, &err)) {
    s->load_errors.push_back(MakeError(opts.rules_path, 0, 0, err));
    return;
  }
  auto factory = [&](const RuleSet& rules, std::vector<Diagnostic>* errors) {
    std::shared_ptr<ModelValues> model = BuildModel(profile, rules, errors);
    s->model = model;
    return std::shared_ptr<const ValueSource>(model);
  };
  auto t0 = std::chrono::steady_clock::now();
  auto ms = [&t0]() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  };
  if (!LoadRules(opts.rules_path, text, factory, &s->rules, &s->load_errors)) return;
  spdlog::debug("rules loaded and queries compiled: {:.1f} ms", ms());
  if (!SelectRules(opts.only_rules, &s->rules, &s->load_errors)) return;
  Diagnostic derr;
  if (!TreeIo::Open(opts.tree_path, &s->tree, &derr)) {
    s->load_errors.push_back(derr);
    return;
  }
  if (opts.lock_shared && !s->tree.AcquireLock(false, &s->lock, &derr)) {
    s->load_errors.push_back(derr);
    return;
  }
  if (!s->tree.ListFiles(".py", &s->tree_paths, &derr)) {
    s->load_errors.push_back(derr);
    return;
  }
  spdlog::debug("{} .py files under {}", s->tree_paths.size(), opts.tree_path);
  // A literal path the listing left out may still exist (a symlink that
  // leaves the tree, a non-regular file): report why it cannot be read.
  for (const Rule& r : s->rules.rules) {
    for (const std::string& f : r.files) {
      if (IsGlob(f) || std::binary_search(s->tree_paths.begin(), s->tree_paths.end(), f)) continue;
      std::string ignored;
      if (s->tree.Exists(f) && !s->tree.Read(f, &ignored, &derr)) {
        s->load_errors.push_back(derr);
        return;
      }
    }
  }
  std::vector<std::string> needed = FilesNeeded(s->rules, s->tree_paths, &s->load_errors);
  for (const std::string& path : needed) {
    std::string bytes;
    if (!s->tree.Read(path, &bytes, &derr)) {
      s->load_errors.push_back(derr);
      continue;
    }
    SourceText file(path, std::move(bytes));
    if (auto bad = FindInvalidUtf8(file.bytes())) {
      Position p = file.PositionOf(*bad);
      s->load_errors.push_back(
          MakeError(path, p.line, p.column,
                    fmt::format("invalid UTF-8 (byte 0x{:02X}); Python sources must be UTF-8",
                                static_cast<unsigned char>(file.bytes()[*bad]))));
      continue;
    }
    s->files.emplace(path, std::move(file));
  }
  if (!s->load_errors.empty()) return;
  spdlog::debug("{} files in scope of {} rules", s->files.size(), s->rules.rules.size());
  spdlog::debug("tree listed and files in scope read: {:.1f} ms", ms());
  std::exception_ptr side_error;
  std::thread side;
  struct Joiner {  // joins even when planning throws
    std::thread& t;
    ~Joiner() {
      if (t.joinable()) t.join();
    }
  } joiner{side};
  if (alongside) {
    side = std::thread([&] {
      try {
        alongside(*s);
      } catch (...) {
        side_error = std::current_exception();
      }
    });
  }
  s->plan = Plan(s->rules, *s->rules.values, s->files, s->tree_paths);
  spdlog::debug("planned: {:.1f} ms", ms());
  if (side.joinable()) side.join();
  if (side_error) std::rethrow_exception(side_error);
  s->loaded = true;
}

}  // namespace muh
