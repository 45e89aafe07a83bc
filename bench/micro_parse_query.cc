// Parse + query: the per-file work of every rule.
//
//   BM_Parse                  parse fixtures/.../prefix_prefill.py
//   BM_QueryRun/E             run the compiled fused-moe-tier-block-m query on that tree
//   BM_ParseAndQuery/E        both, as the planner does for one file and one rule
//   BM_QueryCompile/E         compile that one query
//   BM_QueryCompileAllRules/E compile every query of rules/bi100.yaml, one Query each,
//                             as the rule loader does
//   BM_QueryCompileAllAsOne   the same patterns compiled as ONE multi-pattern query
//                             with libtree-sitter (what batching would cost there)
//
// E = 0: muhpatch's own query parser and matcher (QueryEngine::kAuto, which
// takes it for every bi100 query); E = 1: libtree-sitter's ts_query_new and
// query cursor (QueryEngine::kTreeSitter).
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "engine/python/syntax_tree.h"
#include "engine/query/query.h"
#include "micro_common.h"

namespace {

const char kFile[] = "fixtures/enginex-vllm/vllm/attention/ops/prefix_prefill.py";
const char kRule[] = "fused-moe-tier-block-m";

muh::QueryEngine EngineOf(const benchmark::State& state) {
  return state.range(0) == 0 ? muh::QueryEngine::kAuto : muh::QueryEngine::kTreeSitter;
}

std::unique_ptr<muh::Query> MustCompile(const std::string& text,
                                        muh::QueryEngine engine = muh::QueryEngine::kAuto) {
  muh::QueryError err;
  std::unique_ptr<muh::Query> q = muh::Query::Compile(text, &err, engine);
  if (!q) {
    std::fprintf(stderr, "query does not compile at %zu: %s\n", err.offset, err.message.c_str());
    std::exit(2);
  }
  return q;
}

void BM_Parse(benchmark::State& state) {
  const std::string bytes = muhbench::ReadSource(kFile);
  muh::PythonParser parser;
  for (auto _ : state) {
    muh::SyntaxTree tree = parser.Parse(bytes);
    benchmark::DoNotOptimize(tree.Root());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes.size()));
}
BENCHMARK(BM_Parse);

void BM_QueryRun(benchmark::State& state) {
  const std::string bytes = muhbench::ReadSource(kFile);
  muh::PythonParser parser;
  muh::SyntaxTree tree = parser.Parse(bytes);
  std::unique_ptr<muh::Query> q = MustCompile(muhbench::QueryOf(kRule), EngineOf(state));
  std::size_t matches = 0;
  for (auto _ : state) {
    auto m = q->Run(tree);
    matches = m.size();
    benchmark::DoNotOptimize(m.data());
  }
  if (matches != 1) state.SkipWithError("expected exactly one match");
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes.size()));
}
BENCHMARK(BM_QueryRun)->Arg(0)->Arg(1);

void BM_ParseAndQuery(benchmark::State& state) {
  const std::string bytes = muhbench::ReadSource(kFile);
  muh::PythonParser parser;
  std::unique_ptr<muh::Query> q = MustCompile(muhbench::QueryOf(kRule), EngineOf(state));
  for (auto _ : state) {
    muh::SyntaxTree tree = parser.Parse(bytes);
    auto m = q->Run(tree);
    benchmark::DoNotOptimize(m.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes.size()));
}
BENCHMARK(BM_ParseAndQuery)->Arg(0)->Arg(1);

void BM_QueryCompile(benchmark::State& state) {
  const std::string text = muhbench::QueryOf(kRule);
  for (auto _ : state) {
    auto q = MustCompile(text, EngineOf(state));
    benchmark::DoNotOptimize(q.get());
  }
}
BENCHMARK(BM_QueryCompile)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

void BM_QueryCompileAllRules(benchmark::State& state) {
  const auto queries = muhbench::Bi100Queries();
  for (auto _ : state) {
    for (const auto& rq : queries) {
      auto q = MustCompile(rq.text, EngineOf(state));
      benchmark::DoNotOptimize(q.get());
    }
  }
  state.counters["queries"] = static_cast<double>(queries.size());
}
BENCHMARK(BM_QueryCompileAllRules)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

void BM_QueryCompileAllAsOne(benchmark::State& state) {
  const auto queries = muhbench::Bi100Queries();
  std::string all;
  for (const auto& rq : queries) all += rq.text + "\n";
  for (auto _ : state) {
    auto q = MustCompile(all, muh::QueryEngine::kTreeSitter);
    benchmark::DoNotOptimize(q.get());
  }
  state.counters["queries"] = static_cast<double>(queries.size());
}
BENCHMARK(BM_QueryCompileAllAsOne)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
