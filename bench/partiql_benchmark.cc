// PartiQL (issue 28): what a statement costs over the operation it compiles to, on a table of
// 10k items (PK "u0".."u9999", SK "p"), one thread, eventually consistent reads.
//
//   BM_PartiQL_GetItem          Database::GetItem by the full key (the floor)
//   BM_PartiQL_Query            Database::Query "PK = :p AND SK = :s" (what the SELECT becomes)
//   BM_PartiQL_SelectByKey      ExecuteStatement SELECT * ... WHERE PK = ? AND SK = 'p'
//   BM_PartiQL_Parse            partiql::ParseStatement of that statement alone
//   BM_PartiQL_Update           ExecuteStatement UPDATE ... SET n = n + 1 WHERE <key>
//   BM_PartiQL_UpdateItem       the UpdateItem it compiles to
//
// Run: --benchmark_filter=PartiQL. Figures and the profile: bench/README.md, "PartiQL".
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "core/partiql/parser.h"
#include "partstore/database.h"

namespace partstore::partiql_benchmark {
namespace {

constexpr int kItems = 10000;
constexpr std::string_view kSelect = R"(SELECT * FROM "PqBench" WHERE PK = ? AND SK = 'p')";

Database& Bench() {
  static Database* db = [] {
    auto* d = new Database;
    KeySchema key{{"PK", KeyType::kString}, KeyAttribute{"SK", KeyType::kString}};
    if (!d->CreateTable(SimpleTable("PqBench", key)).ok()) std::abort();
    for (int i = 0; i < kItems; ++i) {
      if (!d->PutItem({.table_name = "PqBench",
                       .item = {{"PK", "u" + std::to_string(i)}, {"SK", "p"}, {"n", i}}})
               .ok()) {
        std::abort();
      }
    }
    return d;
  }();
  return *db;
}

std::string KeyOf(int64_t i) { return "u" + std::to_string(i % kItems); }

void BM_PartiQL_GetItem(benchmark::State& state) {
  Database& db = Bench();
  int64_t i = 0;
  for (auto _ : state) {
    auto r = db.GetItem({.table_name = "PqBench", .key = {{"PK", KeyOf(i++)}, {"SK", "p"}}});
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_PartiQL_GetItem);

void BM_PartiQL_Query(benchmark::State& state) {
  Database& db = Bench();
  int64_t i = 0;
  for (auto _ : state) {
    auto r = db.Query({.table_name = "PqBench",
                       .key_condition_expression = "PK = :p AND SK = :s",
                       .expression_attribute_values =
                           AttributeMap{{":p", Value(KeyOf(i++))}, {":s", Value("p")}}});
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_PartiQL_Query);

void BM_PartiQL_SelectByKey(benchmark::State& state) {
  Database& db = Bench();
  int64_t i = 0;
  for (auto _ : state) {
    auto r = db.ExecuteStatement(
        {.statement = std::string(kSelect), .parameters = std::vector<Value>{Value(KeyOf(i++))}});
    if (!r.ok() || r->items.size() != 1) state.SkipWithError("SELECT failed");
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_PartiQL_SelectByKey);

void BM_PartiQL_Parse(benchmark::State& state) {
  for (auto _ : state) {
    auto statement = partiql::ParseStatement(kSelect);
    benchmark::DoNotOptimize(statement);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_PartiQL_Parse);

void BM_PartiQL_Update(benchmark::State& state) {
  Database& db = Bench();
  int64_t i = 0;
  for (auto _ : state) {
    auto r = db.ExecuteStatement(
        {.statement = R"(UPDATE "PqBench" SET n = n + 1 WHERE PK = ? AND SK = 'p')",
         .parameters = std::vector<Value>{Value(KeyOf(i++))}});
    if (!r.ok()) state.SkipWithError("UPDATE failed");
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_PartiQL_Update);

void BM_PartiQL_UpdateItem(benchmark::State& state) {
  Database& db = Bench();
  int64_t i = 0;
  for (auto _ : state) {
    auto r = db.UpdateItem({.table_name = "PqBench",
                            .key = {{"PK", KeyOf(i++)}, {"SK", "p"}},
                            .update_expression = "SET n = n + :one",
                            .condition_expression = "attribute_exists(PK)",
                            .expression_attribute_values = AttributeMap{{":one", Value(1)}}});
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_PartiQL_UpdateItem);

}  // namespace
}  // namespace partstore::partiql_benchmark
