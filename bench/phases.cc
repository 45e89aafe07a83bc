// verify's phases, each timed alone on one thread: where verify's time goes.
//
//   bench_phases RULES TREE [REPS]   (default 15 repetitions; prints each
//                                     phase's median wall and CPU time)
//
// The phases are the calls verify makes (engine/app/verify.cc), in order:
// open (load the rules, run the model, list the tree, read the files in
// scope), plan (parse those files, match, plan, reparse the rewrites),
// liveness (the liveness analysis over the whole tree), search (the
// whole-tree search for moved knobs, here on one thread; plan parses the
// files in scope on its own workers, as in verify). plan includes the
// idempotence re-plan of the rewritten files. The last row is what verify
// adds on a tree that already holds the patch (liveness and plan again over
// the tree with the patch undone; timed here over the same files, which
// costs the same); on a pristine tree, the case run.sh times, verify does
// not run it. verify runs plan, liveness and search on three threads, so its
// wall time is less than their sum. CPU time is the process's
// (CLOCK_PROCESS_CPUTIME_ID): less sensitive than wall time to a loaded
// machine.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include "engine/app/commands.h"
#include "engine/app/site_liveness.h"
#include "engine/app/workspace_search.h"
#include "engine/base/logging.h"
#include "engine/plan/planner.h"

namespace {

struct Time {
  double wall_ms, cpu_ms;
};

double CpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

Time Ms(const std::function<void()>& f) {
  double c0 = CpuMs();
  auto t0 = std::chrono::steady_clock::now();
  f();
  double wall =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return {wall, CpuMs() - c0};
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s RULES TREE [REPS]\n", argv[0]);
    return 2;
  }
  int reps = argc > 3 ? std::atoi(argv[3]) : 15;
  // Quiet: the search's info line would come once per repetition.
  muh::logging::SetUp(0, true, [](std::string_view, bool) {});
  muh::CommandOptions opts;
  opts.inputs.rules_path = argv[1];
  opts.tree_path = argv[2];
  const char* names[] = {
      "open (rules, model, list and read the tree)", "plan (parse in-scope files, match, reparse)",
      "liveness analysis (whole tree)", "whole-tree search (1 thread; rules no precondition gates)",
      "re-plan, patched tree only: liveness + plan"};
  std::vector<std::vector<Time>> t(5);
  for (int r = 0; r < reps; ++r) {
    muh::OpenedRun run;
    int code = 0;
    // OpenRun reads the tree ahead on a thread of its own; the phase ends
    // when every file is in memory, so that the next ones read nothing.
    t[0].push_back(Ms([&] {
      code = muh::OpenRun(opts, muh::TreeAccess::kRead, &run);
      if (code != 0) return;
      for (const std::string& path : run.workspace.tree_paths) {
        muh::Diagnostic err;
        std::string scratch;
        run.workspace.sources->Get(path, &err, &scratch);
      }
    }));
    if (code != 0) {
      std::fprintf(stderr, "cannot open the run (exit %d)\n", code);
      return 1;
    }
    const muh::Workspace& w = run.workspace;
    std::size_t sink = 0;
    t[1].push_back(
        Ms([&] { sink += muh::Plan(run.inputs.rules, w.files, w.tree_paths).outcomes.size(); }));
    t[2].push_back(Ms([&] {
      muh::LivenessAnalysis a = muh::AnalyseTree(run.inputs, w);
      (void)a;
    }));
    // As verify searches first: the rules no precondition gates (the
    // others only once the plan says they run; on the real tree they skip).
    muh::RuleMask ungated = muh::UngatedRules(run.inputs.rules);
    t[3].push_back(Ms([&] {
      muh::TreeSearchScope scope = muh::ScopeTreeSearch(run.inputs.rules, w);
      sink += muh::SearchInScope(run.inputs.rules, w, scope, 1, ungated).matches.size();
    }));
    t[4].push_back(Ms([&] {
      muh::LivenessAnalysis a = muh::AnalyseTree(run.inputs, w, &w.files);
      sink += muh::PlanLive(run, w.files, a, false).outcomes.size();
    }));
    if (sink == static_cast<std::size_t>(-1)) std::puts("");
  }
  std::printf("| phase (median of %d) | wall | CPU |\n|---|---:|---:|\n", reps);
  for (int i = 0; i < 5; ++i) {
    std::vector<double> wall, cpu;
    for (const Time& x : t[i]) {
      wall.push_back(x.wall_ms);
      cpu.push_back(x.cpu_ms);
    }
    std::printf("| %s | %.1f ms | %.1f ms |\n", names[i], Median(wall), Median(cpu));
  }
  return 0;
}
