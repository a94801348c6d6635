// Microbenchmarks of expression stages 2 and 3: binding a request's placeholders (once per
// request), evaluating a condition (once per item a Query / Scan filter reads, so the hot one),
// and projecting an item (once per returned item).
#include <benchmark/benchmark.h>

#include <string>

#include "core/expr/evaluate.h"
#include "core/expr/parser.h"
#include "core/expr/projection.h"
#include "core/expr/resolve.h"
#include "partstore/item.h"

namespace partstore::expr::evaluate_benchmark {
namespace {

Number N(std::string_view text) { return Number::Parse(text).value(); }

// A 10-attribute order item.
Item OrderItem() {
  Item item = {{"PK", "ORDER#ORD001"},
               {"SK", "PRODUCT#ABC123"},
               {"status", "ACTIVE"},
               {"sku", "ABC-123-XL"},
               {"quantity", 3},
               {"price", N("199.99")},
               {"tags", StringSet{"audio", "wireless", "premium"}},
               {"shipping", Value::Map({{"street", "1 Main St"},
                                        {"city", "Springfield"},
                                        {"zip", "12345"},
                                        {"express", true}})},
               {"history", Value::List({"created", "paid", "packed", "shipped"})},
               {"notes", std::string(200, 'n')}};
  return item;
}

struct Request {
  NameMap names = {{"#s", "status"}};
  AttributeMap values;
  Request() {
    values.insert_or_assign(":active", Value("ACTIVE"));
    values.insert_or_assign(":lo", Value(N("100")));
    values.insert_or_assign(":hi", Value(N("500")));
    values.insert_or_assign(":tag", Value("wireless"));
  }
};

constexpr std::string_view kThreeClauses =
    "#s = :active AND price BETWEEN :lo AND :hi AND contains(tags, :tag)";

void BM_Expr_EvaluateThreeClause(benchmark::State& state) {
  const Item item = OrderItem();
  Request request;
  Result<Condition> parsed = ParseCondition(kThreeClauses, ExpressionKind::kFilter);
  if (!parsed.ok()) return state.SkipWithError(std::string(parsed.status().message()).c_str());
  Resolver resolver(&request.names, &request.values);
  Result<Condition> condition = resolver.Resolve(*parsed, ExpressionKind::kFilter);
  if (!condition.ok())
    return state.SkipWithError(std::string(condition.status().message()).c_str());
  for (auto _ : state) {
    bool matched = Evaluate(*condition, &item);
    benchmark::DoNotOptimize(matched);
  }
}
BENCHMARK(BM_Expr_EvaluateThreeClause);

void BM_Expr_ResolveCondition(benchmark::State& state) {
  Request request;
  Result<Condition> parsed = ParseCondition(kThreeClauses, ExpressionKind::kFilter);
  if (!parsed.ok()) return state.SkipWithError(std::string(parsed.status().message()).c_str());
  for (auto _ : state) {
    Resolver resolver(&request.names, &request.values);
    Result<Condition> condition = resolver.Resolve(*parsed, ExpressionKind::kFilter);
    Status used = resolver.CheckAllUsed();
    benchmark::DoNotOptimize(condition);
    benchmark::DoNotOptimize(used);
  }
}
BENCHMARK(BM_Expr_ResolveCondition);

void BM_Expr_Project(benchmark::State& state) {
  const Item item = OrderItem();
  NameMap names = {{"#s", "status"}};
  Result<ProjectionExpression> parsed =
      ParseProjection("PK, SK, #s, price, shipping.city, history[1]");
  if (!parsed.ok()) return state.SkipWithError(std::string(parsed.status().message()).c_str());
  Resolver resolver(&names, nullptr);
  Result<ProjectionExpression> projection = resolver.Resolve(*parsed);
  if (!projection.ok()) {
    return state.SkipWithError(std::string(projection.status().message()).c_str());
  }
  for (auto _ : state) {
    Item out = Project(*projection, item);
    benchmark::DoNotOptimize(out);
  }
}
BENCHMARK(BM_Expr_Project);

}  // namespace
}  // namespace partstore::expr::evaluate_benchmark
