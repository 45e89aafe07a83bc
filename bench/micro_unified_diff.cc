// The unified diff layer (engine/patch/unified_diff.h: UnifiedDiff), on the shapes
// muhpatch produces: a few one-line edits in a file of N lines, an insertion
// of a block (autotune entries), an identical file, and a dense worst case.
#include <benchmark/benchmark.h>

#include <string>

#include "engine/patch/unified_diff.h"
#include "micro_common.h"

namespace {

// N lines that look like Python source, all distinct.
std::string Lines(int n) {
  std::string s;
  for (int i = 0; i < n; ++i) {
    s += "    value_" + std::to_string(i) + " = compute(block_" + std::to_string(i % 97) +
         ", stride=" + std::to_string(i * 7 % 1024) + ")\n";
  }
  return s;
}

// Replaces line `i` (0-based) of `text`.
std::string EditLine(const std::string& text, int i, const std::string& line) {
  std::size_t b = 0;
  for (int k = 0; k < i; ++k) b = text.find('\n', b) + 1;
  std::size_t e = text.find('\n', b) + 1;
  return text.substr(0, b) + line + "\n" + text.substr(e);
}

void BM_OneEdit(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const std::string old_text = Lines(n);
  const std::string new_text = EditLine(old_text, n / 2, "    NUM_WARPS = 4");
  for (auto _ : state) {
    std::string d = muh::UnifiedDiff("vllm/x.py", old_text, new_text);
    benchmark::DoNotOptimize(d.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * old_text.size()));
}
BENCHMARK(BM_OneEdit)->Arg(200)->Arg(1000)->Arg(5000)->Arg(20000);

void BM_EveryFiftiethLine(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const std::string old_text = Lines(n);
  std::string new_text = old_text;
  for (int i = 25; i < n; i += 50)
    new_text = EditLine(new_text, i, "    changed = " + std::to_string(i));
  for (auto _ : state) {
    std::string d = muh::UnifiedDiff("vllm/x.py", old_text, new_text);
    benchmark::DoNotOptimize(d.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * old_text.size()));
}
BENCHMARK(BM_EveryFiftiethLine)->Arg(1000)->Arg(5000);

// Insert 80 lines in the middle (what append-to does with 8 autotune entries).
void BM_InsertBlock(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const std::string old_text = Lines(n);
  std::size_t mid = 0;
  for (int k = 0; k < n / 2; ++k) mid = old_text.find('\n', mid) + 1;
  std::string block;
  for (int i = 0; i < 80; ++i)
    block += "        triton.Config({\"BLOCK_M\": " + std::to_string(i) + "}),\n";
  const std::string new_text = old_text.substr(0, mid) + block + old_text.substr(mid);
  for (auto _ : state) {
    std::string d = muh::UnifiedDiff("vllm/x.py", old_text, new_text);
    benchmark::DoNotOptimize(d.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * old_text.size()));
}
BENCHMARK(BM_InsertBlock)->Arg(820)->Arg(5000);

void BM_Identical(benchmark::State& state) {
  const std::string text = Lines(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    std::string d = muh::UnifiedDiff("vllm/x.py", text, text);
    benchmark::DoNotOptimize(d.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_Identical)->Arg(5000);

// Every line differs: the edit script's worst case for its size.
void BM_AllLinesChanged(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const std::string old_text = Lines(n);
  std::string new_text;
  for (int i = 0; i < n; ++i) new_text += "    other_" + std::to_string(i) + " = 0\n";
  for (auto _ : state) {
    std::string d = muh::UnifiedDiff("vllm/x.py", old_text, new_text);
    benchmark::DoNotOptimize(d.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * old_text.size()));
}
BENCHMARK(BM_AllLinesChanged)->Arg(1000)->Arg(5000);

// The fixture's prefix_prefill.py with the two edits bi100 makes there.
void BM_FixturePrefixPrefill(benchmark::State& state) {
  const std::string old_text =
      muhbench::ReadSource("fixtures/enginex-vllm/vllm/attention/ops/prefix_prefill.py");
  std::string new_text = old_text;
  auto swap = [&](const std::string& from, const std::string& to) {
    std::size_t at = new_text.find(from);
    if (at != std::string::npos) new_text.replace(at, from.size(), to);
  };
  swap("else 64\n", "else 32\n");
  swap("NUM_WARPS = 8\n", "NUM_WARPS = 8 if current_platform.has_device_capability(80) else 4\n");
  if (new_text == old_text) state.SkipWithError("fixture changed: the edits found nothing");
  for (auto _ : state) {
    std::string d = muh::UnifiedDiff("vllm/attention/ops/prefix_prefill.py", old_text, new_text);
    benchmark::DoNotOptimize(d.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * old_text.size()));
}
BENCHMARK(BM_FixturePrefixPrefill);

}  // namespace

BENCHMARK_MAIN();
