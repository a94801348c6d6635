// Transactions of 2, 10 and 100 items against the same work done item by item.
//   BM_Tx_Write/items:N        TransactWriteItems of N Updates (SET n = n + :one, condition
//                              attribute_exists) on N existing items of ~200 bytes
//   BM_Tx_WriteSingly/items:N  the same N updates as N UpdateItem calls
//   BM_Tx_Get/items:N          TransactGetItems of the N items
//   BM_Tx_GetSingly/items:N    N GetItem calls (strongly consistent)
// Items are spread over the table's 64 stripes (keys "acct<k>"); each iteration touches a
// different window of 100,000 items, so stripes and items vary. Capacity simulation off.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "partstore/database.h"

namespace partstore::transaction_benchmark {
namespace {

constexpr int kItems = 100'000;

Database& Db() {
  static Database* db = [] {
    auto* d = new Database();
    KeySchema key;
    key.partition = {"PK", KeyType::kString};
    if (!d->CreateTable(SimpleTable("Accounts", key)).ok()) std::abort();
    for (int i = 0; i < kItems; ++i) {
      PutItemRequest put{
          .table_name = "Accounts",
          .item = {
              {"PK", "acct" + std::to_string(i)}, {"n", 0}, {"payload", std::string(180, 'x')}}};
      if (!d->PutItem(put).ok()) std::abort();
    }
    return d;
  }();
  return *db;
}

UpdateItemRequest Increment(int account) {
  return UpdateItemRequest{.table_name = "Accounts",
                           .key = {{"PK", "acct" + std::to_string(account)}},
                           .update_expression = "SET n = n + :one",
                           .condition_expression = "attribute_exists(PK)",
                           .expression_attribute_values = AttributeMap{{":one", 1}}};
}

void BM_Tx_Write(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  Database& db = Db();
  int base = 0;
  for (auto _ : state) {
    state.PauseTiming();
    TransactWriteItemsRequest request;
    for (int i = 0; i < n; ++i) {
      TransactWriteItem item;
      item.update = Increment((base + i * 997) % kItems);
      request.transact_items.push_back(std::move(item));
    }
    base = (base + 7919) % kItems;
    state.ResumeTiming();
    if (!db.TransactWriteItems(request).ok()) state.SkipWithError("transaction failed");
  }
  state.SetItemsProcessed(state.iterations() * n);
}

void BM_Tx_WriteSingly(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  Database& db = Db();
  int base = 0;
  for (auto _ : state) {
    state.PauseTiming();
    std::vector<UpdateItemRequest> requests;
    for (int i = 0; i < n; ++i) requests.push_back(Increment((base + i * 997) % kItems));
    base = (base + 7919) % kItems;
    state.ResumeTiming();
    for (const UpdateItemRequest& request : requests) {
      if (!db.UpdateItem(request).ok()) state.SkipWithError("update failed");
    }
  }
  state.SetItemsProcessed(state.iterations() * n);
}

void BM_Tx_Get(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  Database& db = Db();
  int base = 0;
  for (auto _ : state) {
    state.PauseTiming();
    TransactGetItemsRequest request;
    for (int i = 0; i < n; ++i) {
      request.transact_items.push_back(
          {GetItemRequest{.table_name = "Accounts",
                          .key = {{"PK", "acct" + std::to_string((base + i * 997) % kItems)}}}});
    }
    base = (base + 7919) % kItems;
    state.ResumeTiming();
    auto read = db.TransactGetItems(request);
    if (!read.ok()) state.SkipWithError("transaction failed");
    benchmark::DoNotOptimize(read);
  }
  state.SetItemsProcessed(state.iterations() * n);
}

void BM_Tx_GetSingly(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  Database& db = Db();
  int base = 0;
  for (auto _ : state) {
    state.PauseTiming();
    std::vector<GetItemRequest> requests;
    for (int i = 0; i < n; ++i) {
      requests.push_back(
          GetItemRequest{.table_name = "Accounts",
                         .key = {{"PK", "acct" + std::to_string((base + i * 997) % kItems)}},
                         .consistent_read = true});
    }
    base = (base + 7919) % kItems;
    state.ResumeTiming();
    for (const GetItemRequest& request : requests) {
      auto read = db.GetItem(request);
      benchmark::DoNotOptimize(read);
    }
  }
  state.SetItemsProcessed(state.iterations() * n);
}

BENCHMARK(BM_Tx_Write)->ArgName("items")->Arg(2)->Arg(10)->Arg(100);
BENCHMARK(BM_Tx_WriteSingly)->ArgName("items")->Arg(2)->Arg(10)->Arg(100);
BENCHMARK(BM_Tx_Get)->ArgName("items")->Arg(2)->Arg(10)->Arg(100);
BENCHMARK(BM_Tx_GetSingly)->ArgName("items")->Arg(2)->Arg(10)->Arg(100);

}  // namespace
}  // namespace partstore::transaction_benchmark
