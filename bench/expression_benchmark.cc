// Microbenchmarks of the expression parse stage (core/expr/parser.h) and its cache
// (core/expr/cache.h). "Cold" parses the text every time, as a cache miss does; "CacheHit" is the
// steady state of a service whose requests reuse a few expression texts.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "core/expr/cache.h"
#include "core/expr/parser.h"

namespace partstore::expr::expression_benchmark {
namespace {

constexpr std::string_view kCondition = "attribute_not_exists(PK) AND #s = :s OR size(tags) > :n";
constexpr std::string_view kUpdate =
    "SET #count = if_not_exists(#count, :zero) + :one, updatedAt = :now, tags = "
    "list_append(tags, :t) REMOVE draft ADD visits :one";
constexpr std::string_view kProjection = "PK, SK, #s, address.city, items[0].price";

void BM_Expr_ParseConditionCold(benchmark::State& state) {
  for (auto _ : state) {
    Result<Condition> parsed = ParseCondition(kCondition, ExpressionKind::kCondition);
    benchmark::DoNotOptimize(parsed);
  }
}
BENCHMARK(BM_Expr_ParseConditionCold);

void BM_Expr_ParseUpdateCold(benchmark::State& state) {
  for (auto _ : state) {
    Result<UpdateExpression> parsed = ParseUpdate(kUpdate);
    benchmark::DoNotOptimize(parsed);
  }
}
BENCHMARK(BM_Expr_ParseUpdateCold);

void BM_Expr_ParseProjectionCold(benchmark::State& state) {
  for (auto _ : state) {
    Result<ProjectionExpression> parsed = ParseProjection(kProjection);
    benchmark::DoNotOptimize(parsed);
  }
}
BENCHMARK(BM_Expr_ParseProjectionCold);

// A syntax error costs about what a parse does: the message is built once, at the error.
void BM_Expr_ParseConditionSyntaxError(benchmark::State& state) {
  for (auto _ : state) {
    Result<Condition> parsed =
        ParseCondition("attribute_not_exists(PK) AND #s = :s OR", ExpressionKind::kCondition);
    benchmark::DoNotOptimize(parsed);
  }
}
BENCHMARK(BM_Expr_ParseConditionSyntaxError);

// The largest valid shape: 4 KB with close to 300 operators.
void BM_Expr_ParseCondition4KB(benchmark::State& state) {
  std::string text = "a<b";
  for (int i = 0; i < 149; ++i) text += " or attr" + std::to_string(i) + " < :v";
  for (auto _ : state) {
    Result<Condition> parsed = ParseCondition(text, ExpressionKind::kCondition);
    benchmark::DoNotOptimize(parsed);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(text.size()));
}
BENCHMARK(BM_Expr_ParseCondition4KB);

// One cache shared by the benchmark threads; each thread cycles through a working set that fits.
ExpressionCache& SharedCache() {
  static ExpressionCache* cache = new ExpressionCache(1024);
  return *cache;
}

void BM_Expr_CacheHit(benchmark::State& state) {
  std::vector<std::string> texts;
  for (int i = 0; i < 64; ++i) {
    texts.push_back("attribute_not_exists(PK) AND #s = :s OR size(tags" + std::to_string(i) +
                    ") > :n");
  }
  ExpressionCache& cache = SharedCache();
  for (const std::string& text : texts) (void)cache.GetCondition(text, ExpressionKind::kCondition);
  size_t i = state.thread_index();
  for (auto _ : state) {
    auto parsed = cache.GetCondition(texts[i++ % texts.size()], ExpressionKind::kCondition);
    benchmark::DoNotOptimize(parsed);
  }
}
BENCHMARK(BM_Expr_CacheHit);
BENCHMARK(BM_Expr_CacheHit)->Threads(2)->UseRealTime();

}  // namespace
}  // namespace partstore::expr::expression_benchmark
