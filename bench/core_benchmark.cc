// Microbenchmarks of the data model's hot paths: key encoding (every request encodes its keys),
// item size (every write and every read's capacity charge), validation, value equality.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "core/key_encoding.h"
#include "partstore/item.h"
#include "partstore/number.h"

namespace partstore::core_benchmark {
namespace {

Number N(std::string_view text) { return Number::Parse(text).value(); }

// A ~1 KB order item in the shape of the seed article's e-commerce model.
Item OrderItem() {
  Item item = {{"PK", "ORDER#ORD001"},
               {"SK", "PRODUCT#ABC123"},
               {"Type", "OrderItem"},
               {"orderId", "ORD001"},
               {"productId", "ABC123"},
               {"quantity", 3},
               {"unitPrice", N("199.99")},
               {"totalPrice", N("599.97")},
               {"GSI1PK", "PRODUCT#ABC123"},
               {"GSI1SK", "ORDER#2024-01-20T12:00:00Z"},
               {"tags", StringSet{"audio", "wireless", "premium"}},
               {"shipping", Value::Map({{"street", "1 Main St"},
                                        {"city", "Springfield"},
                                        {"zip", "12345"},
                                        {"express", true}})},
               {"history", Value::List({"created", "paid", "packed", "shipped"})},
               {"notes", std::string(700, 'n')}};
  return item;
}

void BM_KeyEncoding_String(benchmark::State& state) {
  const Value key("USER#1234567890#ORDER#2024-01-20T12:00:00Z");
  std::string out;
  for (auto _ : state) {
    out.clear();
    AppendKeyEncoding(key, &out);
    benchmark::DoNotOptimize(out.data());
  }
}
BENCHMARK(BM_KeyEncoding_String);

void BM_KeyEncoding_NumberShort(benchmark::State& state) {
  const Value key(N("1700000000"));
  std::string out;
  for (auto _ : state) {
    out.clear();
    AppendKeyEncoding(key, &out);
    benchmark::DoNotOptimize(out.data());
  }
}
BENCHMARK(BM_KeyEncoding_NumberShort);

void BM_KeyEncoding_Number38Digits(benchmark::State& state) {
  const Value key(N("-1.2345678901234567890123456789012345678E-20"));
  std::string out;
  for (auto _ : state) {
    out.clear();
    AppendKeyEncoding(key, &out);
    benchmark::DoNotOptimize(out.data());
  }
}
BENCHMARK(BM_KeyEncoding_Number38Digits);

void BM_KeyEncoding_CompareEncoded(benchmark::State& state) {
  const std::string a = EncodeKey(Value(N("1700000000.25"))),
                    b = EncodeKey(Value(N("1700000000.5")));
  for (auto _ : state) benchmark::DoNotOptimize(a.compare(b));
}
BENCHMARK(BM_KeyEncoding_CompareEncoded);

void BM_Item_Size(benchmark::State& state) {
  const Item item = OrderItem();
  for (auto _ : state) benchmark::DoNotOptimize(ItemSize(item));
  state.counters["item_bytes"] = static_cast<double>(ItemSize(item));
}
BENCHMARK(BM_Item_Size);

void BM_Item_Validate(benchmark::State& state) {
  const Item item = OrderItem();
  for (auto _ : state) benchmark::DoNotOptimize(ValidateItem(item).ok());
}
BENCHMARK(BM_Item_Validate);

void BM_Item_Equality(benchmark::State& state) {
  const Item a = OrderItem(), b = OrderItem();
  for (auto _ : state) benchmark::DoNotOptimize(a == b);
}
BENCHMARK(BM_Item_Equality);

void BM_Item_Copy(benchmark::State& state) {
  const Item item = OrderItem();
  for (auto _ : state) {
    Item copy = item;
    benchmark::DoNotOptimize(copy.size());
  }
}
BENCHMARK(BM_Item_Copy);

}  // namespace
}  // namespace partstore::core_benchmark
