#include <benchmark/benchmark.h>
#include <string>
#include <vector>

static void BM_Fill(benchmark::State& state) {
  std::vector<int> v;
  for (auto _ : state) {
    v.assign(state.range(0), 7);
    benchmark::DoNotOptimize(v.data());
  }
  state.SetBytesProcessed(state.iterations() * state.range(0) * sizeof(int));
  state.counters["elems"] = state.range(0);
}
BENCHMARK(BM_Fill)->Arg(64)->Arg(512);

static void BM_Concat(benchmark::State& state) {
  for (auto _ : state) {
    std::string s = std::string("abc") + std::to_string(state.iterations());
    benchmark::DoNotOptimize(s);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Concat);

static void BM_Fails(benchmark::State& state) {
  for (auto _ : state) {
    state.SkipWithError("no input");
    break;
  }
}
BENCHMARK(BM_Fails);
BENCHMARK_MAIN();
