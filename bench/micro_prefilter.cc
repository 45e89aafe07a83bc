// A literal prefilter: before parsing a file, check that its bytes contain
// the literals a rule's query requires (Query::RequiredLiterals(): groups of
// alternatives; a file lacking every alternative of some group cannot
// match). verify's whole-tree search prefilters each file this way
// (engine/search/tree_search.cc, memmem(3) once per distinct literal); this
// measures what that costs per byte, against memmem(3), to compare with
// parsing (micro_parse_query's BM_Parse) and with `cat`/`grep -F`.
//
//   BM_RequiredLiterals        the call itself
//   BM_Memmem/<file>           memmem(3) per alternative, on one file
//   BM_StringViewFind/<file>   std::string_view::find per alternative
//   BM_*_Tree                  the same over every .py file of a tree
//                              ($MUHBENCH_TREE, else the fixture), file by file
//   BM_*_AllRules              every bi100 rule's groups over that tree
#include <benchmark/benchmark.h>
#include <dirent.h>
#include <string.h>
#include <sys/stat.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/query/query.h"
#include "micro_common.h"

namespace {

using Groups = std::vector<std::vector<std::string>>;

Groups LiteralsOf(const std::string& rule_id) {
  muh::QueryError err;
  auto q = muh::Query::Compile(muhbench::QueryOf(rule_id), &err);
  if (!q) std::exit(2);
  return q->RequiredLiterals();
}

bool PassesMemmem(std::string_view bytes, const Groups& groups) {
  for (const auto& group : groups) {
    bool any = false;
    for (const std::string& lit : group) {
      if (memmem(bytes.data(), bytes.size(), lit.data(), lit.size()) != nullptr) {
        any = true;
        break;
      }
    }
    if (!any) return false;
  }
  return true;
}

bool PassesFind(std::string_view bytes, const Groups& groups) {
  for (const auto& group : groups) {
    bool any = false;
    for (const std::string& lit : group) {
      if (bytes.find(lit) != std::string_view::npos) {
        any = true;
        break;
      }
    }
    if (!any) return false;
  }
  return true;
}

void ListPy(const std::string& dir, std::vector<std::string>* out) {
  DIR* d = opendir(dir.c_str());
  if (!d) return;
  std::vector<std::string> names;
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] != '.') names.emplace_back(e->d_name);
  }
  closedir(d);
  for (const std::string& n : names) {
    std::string p = dir + "/" + n;
    struct stat st;
    if (stat(p.c_str(), &st) != 0) continue;
    if (S_ISDIR(st.st_mode))
      ListPy(p, out);
    else if (n.size() > 3 && n.compare(n.size() - 3, 3, ".py") == 0)
      out->push_back(p);
  }
}

// Every .py file of the tree named by $MUHBENCH_TREE (run.sh passes the
// generated enginex-sized tree), else of the fixture tree, read once.
const std::vector<std::string>& TreeFiles() {
  static const std::vector<std::string> files = [] {
    const char* env = std::getenv("MUHBENCH_TREE");
    std::string dir = env && *env ? env : muhbench::SourcePath("fixtures/enginex-vllm");
    std::vector<std::string> paths, bytes;
    ListPy(dir, &paths);
    for (const std::string& p : paths) bytes.push_back(muhbench::ReadFile(p));
    if (bytes.empty()) {
      std::fprintf(stderr, "micro_prefilter: no .py files under %s\n", dir.c_str());
      std::exit(2);
    }
    return bytes;
  }();
  return files;
}

std::size_t TreeBytes() {
  std::size_t n = 0;
  for (const std::string& f : TreeFiles()) n += f.size();
  return n;
}

const char kPrefix[] = "fixtures/enginex-vllm/vllm/attention/ops/prefix_prefill.py";

void BM_RequiredLiterals(benchmark::State& state) {
  muh::QueryError err;
  auto q = muh::Query::Compile(muhbench::QueryOf("fused-moe-tier-block-m"), &err);
  for (auto _ : state) {
    auto g = q->RequiredLiterals();
    benchmark::DoNotOptimize(g.data());
  }
}
BENCHMARK(BM_RequiredLiterals);

template <bool (*Passes)(std::string_view, const Groups&)>
void BM_OneFile(benchmark::State& state) {
  const std::string bytes = muhbench::ReadSource(kPrefix);
  const Groups groups = LiteralsOf("fused-moe-tier-block-m");
  bool pass = false;
  for (auto _ : state) {
    pass = Passes(bytes, groups);
    benchmark::DoNotOptimize(pass);
  }
  if (!pass) state.SkipWithError("prefix_prefill.py must pass its own rule's prefilter");
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes.size()));
}
BENCHMARK_TEMPLATE(BM_OneFile, PassesMemmem)->Name("BM_Memmem/prefix_prefill.py");
BENCHMARK_TEMPLATE(BM_OneFile, PassesFind)->Name("BM_StringViewFind/prefix_prefill.py");

template <bool (*Passes)(std::string_view, const Groups&)>
void BM_Tree(benchmark::State& state) {
  const Groups groups = LiteralsOf("fused-moe-tier-block-m");
  int passed = 0;
  for (auto _ : state) {
    passed = 0;
    for (const std::string& f : TreeFiles()) passed += Passes(f, groups);
    benchmark::DoNotOptimize(passed);
  }
  state.counters["files"] = static_cast<double>(TreeFiles().size());
  state.counters["passed"] = passed;
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * TreeBytes()));
}
BENCHMARK_TEMPLATE(BM_Tree, PassesMemmem)->Name("BM_Memmem_Tree");
BENCHMARK_TEMPLATE(BM_Tree, PassesFind)->Name("BM_StringViewFind_Tree");

template <bool (*Passes)(std::string_view, const Groups&)>
void BM_AllRules(benchmark::State& state) {
  std::vector<Groups> all;
  for (const auto& rq : muhbench::Bi100Queries()) {
    muh::QueryError err;
    auto q = muh::Query::Compile(rq.text, &err);
    if (q) all.push_back(q->RequiredLiterals());
  }
  int passed = 0;
  for (auto _ : state) {
    passed = 0;
    for (const std::string& f : TreeFiles()) {
      for (const Groups& g : all) passed += Passes(f, g);
    }
    benchmark::DoNotOptimize(passed);
  }
  state.counters["queries"] = static_cast<double>(all.size());
  state.counters["file_query_pairs_passed"] = passed;
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * TreeBytes()));
}
BENCHMARK_TEMPLATE(BM_AllRules, PassesMemmem)->Name("BM_Memmem_Tree_AllRules");
BENCHMARK_TEMPLATE(BM_AllRules, PassesFind)->Name("BM_StringViewFind_Tree_AllRules");

}  // namespace

BENCHMARK_MAIN();
