// Microbenchmarks of the stored-item encoding (partstore/stored_item.h) against the request tree
// (Item): what a reader pays to take an item (deep copy vs. one reference), to read one attribute,
// to build a tree back, and what a writer pays to encode. Counters report bytes per item: the
// encoding's footprint against DynamoDB's size.
#include <benchmark/benchmark.h>

#include <string>

#include "partstore/item.h"
#include "partstore/stored_item.h"
#include "tools/protocol/attribute_value_json.h"

namespace partstore::stored_item_benchmark {
namespace {

// The seed e-commerce user profile: 6 attributes, ~160 bytes of DynamoDB size.
Item UserItem() {
  return {{"PK", "USER#alice@example.com"},
          {"SK", "PROFILE#alice@example.com"},
          {"name", "Alice Example"},
          {"email", "alice@example.com"},
          {"address", "1 Main Street, Springfield, 12345"},
          {"created", "2024-01-20T12:00:00Z"}};
}

// A nested order item: maps, lists, sets, numbers (~1 KB).
Item OrderItem() {
  return {{"PK", "ORDER#ORD001"},
          {"SK", "PRODUCT#ABC123"},
          {"quantity", 3},
          {"unitPrice", Number::Parse("199.99").value()},
          {"tags", StringSet{"audio", "wireless", "premium"}},
          {"shipping", Value::Map({{"street", "1 Main St"},
                                   {"city", "Springfield"},
                                   {"zip", "12345"},
                                   {"express", true}})},
          {"history", Value::List({"created", "paid", "packed", "shipped"})},
          {"notes", std::string(700, 'n')}};
}

Item Shape(int64_t which) { return which == 0 ? UserItem() : OrderItem(); }

void SetLabels(benchmark::State& state, const Item& item) {
  const StoredItem stored = StoredItem::Encode(item);
  state.SetLabel(state.range(0) == 0 ? "user (6 attrs)" : "order (nested)");
  state.counters["item_size"] = static_cast<double>(ItemSize(item));
  state.counters["footprint"] = static_cast<double>(stored.footprint());
}

void BM_StoredItem_CopyTree(benchmark::State& state) {
  const Item item = Shape(state.range(0));
  for (auto _ : state) {
    Item copy = item;
    benchmark::DoNotOptimize(copy);
  }
  SetLabels(state, item);
}
BENCHMARK(BM_StoredItem_CopyTree)->Arg(0)->Arg(1);

void BM_StoredItem_CopyHandle(benchmark::State& state) {
  const StoredItem stored = StoredItem::Encode(Shape(state.range(0)));
  for (auto _ : state) {
    StoredItem copy = stored;
    benchmark::DoNotOptimize(copy);
  }
  SetLabels(state, Shape(state.range(0)));
}
BENCHMARK(BM_StoredItem_CopyHandle)->Arg(0)->Arg(1);

void BM_StoredItem_Encode(benchmark::State& state) {
  const Item item = Shape(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(StoredItem::Encode(item));
  SetLabels(state, item);
}
BENCHMARK(BM_StoredItem_Encode)->Arg(0)->Arg(1);

void BM_StoredItem_ToItem(benchmark::State& state) {
  const StoredItem stored = StoredItem::Encode(Shape(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(stored.ToItem());
  SetLabels(state, Shape(state.range(0)));
}
BENCHMARK(BM_StoredItem_ToItem)->Arg(0)->Arg(1);

void BM_StoredItem_FindInTree(benchmark::State& state) {
  const Item item = Shape(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(item.find(std::string_view("SK")));
  SetLabels(state, item);
}
BENCHMARK(BM_StoredItem_FindInTree)->Arg(0)->Arg(1);

void BM_StoredItem_FindInEncoding(benchmark::State& state) {
  const StoredItem stored = StoredItem::Encode(Shape(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(stored.Find("SK"));
  SetLabels(state, Shape(state.range(0)));
}
BENCHMARK(BM_StoredItem_FindInEncoding)->Arg(0)->Arg(1);

// What a reader of a Query's result does with each item: every attribute, its name and its value
// (the bytes of a string), as `partstore bench`'s in-process client counts them.
void BM_StoredItem_IterateTree(benchmark::State& state) {
  const Item item = Shape(state.range(0));
  for (auto _ : state) {
    size_t bytes = 0;
    for (const auto& [name, value] : item) {
      bytes += name.size() + (value.is(Type::kS) ? value.as_string().size() : 0);
    }
    benchmark::DoNotOptimize(bytes);
  }
  SetLabels(state, item);
}
BENCHMARK(BM_StoredItem_IterateTree)->Arg(0)->Arg(1);

void BM_StoredItem_IterateEncoding(benchmark::State& state) {
  const StoredItem stored = StoredItem::Encode(Shape(state.range(0)));
  for (auto _ : state) {
    size_t bytes = 0;
    for (const MapEntry& entry : stored.attributes()) {
      bytes += entry.name.size() + (entry.value.is(Type::kS) ? entry.value.as_string().size() : 0);
    }
    benchmark::DoNotOptimize(bytes);
  }
  SetLabels(state, Shape(state.range(0)));
}
BENCHMARK(BM_StoredItem_IterateEncoding)->Arg(0)->Arg(1);

void BM_StoredItem_Decode(benchmark::State& state) {
  const StoredItem stored = StoredItem::Encode(Shape(state.range(0)));
  const std::string bytes = stored.PortableEncoding();  // what files hold
  for (auto _ : state) benchmark::DoNotOptimize(StoredItem::Decode(bytes));
  SetLabels(state, Shape(state.range(0)));
}
BENCHMARK(BM_StoredItem_Decode)->Arg(0)->Arg(1);

// A GetItem response's item today: a copy of the tree taken under the lock, then JSON. Against
// JSON written from a handle to the encoding.
void BM_StoredItem_JsonFromTreeCopy(benchmark::State& state) {
  const Item item = Shape(state.range(0));
  for (auto _ : state) {
    Item copy = item;
    benchmark::DoNotOptimize(protocol::ItemToJson(copy));
  }
  SetLabels(state, item);
}
BENCHMARK(BM_StoredItem_JsonFromTreeCopy)->Arg(0)->Arg(1);

void BM_StoredItem_JsonFromEncoding(benchmark::State& state) {
  const StoredItem stored = StoredItem::Encode(Shape(state.range(0)));
  for (auto _ : state) {
    StoredItem handle = stored;
    benchmark::DoNotOptimize(protocol::ItemToJson(handle));
  }
  SetLabels(state, Shape(state.range(0)));
}
BENCHMARK(BM_StoredItem_JsonFromEncoding)->Arg(0)->Arg(1);

}  // namespace
}  // namespace partstore::stored_item_benchmark
