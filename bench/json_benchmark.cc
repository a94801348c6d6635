// Microbenchmarks for the AttributeValue JSON codec (tools/protocol/attribute_value_json.h):
// decoding a request's item text into an Item (parse + shape check + validation + build) and
// encoding an Item to canonical JSON, on a realistic ~1 KB e-commerce order item and a ~100 KB
// order with many lines. Bytes processed are the JSON text size, so the report shows MB/s.
//
//   BM_Json_ParseRequest/<size>     a PutItem request body of that item parsed into a
//                                   rapidjson::Document (protocol::ParseJson: strings copied),
//                                   nothing decoded
//   BM_Json_ParseRequestInPlace/<size>  the same body parsed as the server parses every body
//                                   (protocol::InsituJson)
//   BM_Json_DispatchPutItem/<size>  the whole request as the server runs it (protocol::Dispatch):
//                                   parse, the item encoded straight from its JSON
//                                   (EncodeItemJson), the engine's PutStoredItem (an overwrite),
//                                   response
//   BM_Json_DispatchPutItem/<size>_tree  the same through the tree path: the item decoded into an
//                                   Item and encoded again by PutItem (what Dispatch does for a
//                                   store that is not the engine, and did for every PutItem before)
#include <benchmark/benchmark.h>

#include <string>

#include "partstore/database.h"
#include "partstore/item.h"
#include "tools/protocol/attribute_value_json.h"
#include "tools/protocol/dispatch.h"

namespace partstore::json_benchmark {
namespace {

Number N(std::string_view text) { return *Number::Parse(text); }

// One order line: a map as a single-table design stores it inside an order item.
Value OrderLine(int i) {
  return Value::Map({
      {"sku", "SKU-" + std::to_string(100000 + i * 7)},
      {"name", "Organic cotton T-shirt, size M, colour " + std::to_string(i % 12)},
      {"quantity", N(std::to_string(1 + i % 4))},
      {"unitPrice", N(std::to_string(9 + i % 90) + ".99")},
      {"discount", N("0.15")},
      {"giftWrap", Value(i % 5 == 0)},
      {"attributes", Value(StringSet{"cotton", "organic", "summer"})},
  });
}

// ~1 KB: strings, numbers, a nested map, a list, a string set, BOOL, NULL, a small binary.
Item SmallOrder() {
  return Item{
      {"PK", "USER#12345"},
      {"SK", "ORDER#2024-05-17#8f3a9c"},
      {"GSI1PK", "ORDER#8f3a9c"},
      {"GSI1SK", "2024-05-17T10:22:31Z"},
      {"entityType", "Order"},
      {"status", "SHIPPED"},
      {"customerName", "John Doe"},
      {"email", "john.doe@example.com"},
      {"total", N("127.45")},
      {"currency", "EUR"},
      {"itemCount", N("3")},
      {"createdAt", N("1715941351")},
      {"expedited", Value(true)},
      {"couponCode", Value::Nil()},
      {"tags", Value(StringSet{"first-order", "newsletter", "eu", "promo-may"})},
      {"thumbnail", Value::Binary(std::string(48, '\x7f'))},
      {"shippingAddress",
       Value::Map({{"street", "Hauptstrasse 12"},
                   {"city", "Berlin"},
                   {"zip", "10115"},
                   {"country", "DE"},
                   {"geo", Value::Map({{"lat", N("52.5321")}, {"lon", N("13.3849")}})}})},
      {"lines", Value::List({OrderLine(0), OrderLine(1), OrderLine(2)})},
  };
}

// ~100 KB: the same order with many lines and a long note.
Item LargeOrder() {
  Item item = SmallOrder();
  ValueList lines;
  for (int i = 0; i < 400; ++i) lines.push_back(OrderLine(i));
  item["lines"] = Value::List(std::move(lines));
  item["note"] = std::string(4000, 'n');
  return item;
}

const std::string& OrderJson(int size) {
  static const std::string small = protocol::ItemToJson(SmallOrder());
  static const std::string large = protocol::ItemToJson(LargeOrder());
  return size == 0 ? small : large;
}

void BM_Json_DecodeItem(benchmark::State& state, int size) {
  const std::string& json = OrderJson(size);
  for (auto _ : state) {
    Result<Item> item = protocol::ParseItemJson(json);
    benchmark::DoNotOptimize(item);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * json.size()));
  state.SetLabel(std::to_string(json.size()) + " B");
}
BENCHMARK_CAPTURE(BM_Json_DecodeItem, 1KB, 0);
BENCHMARK_CAPTURE(BM_Json_DecodeItem, 100KB, 1);

void BM_Json_EncodeItem(benchmark::State& state, int size) {
  const Item item = size == 0 ? SmallOrder() : LargeOrder();
  const size_t bytes = OrderJson(size).size();
  for (auto _ : state) {
    std::string json = protocol::ItemToJson(item);
    benchmark::DoNotOptimize(json);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
  state.SetLabel(std::to_string(bytes) + " B");
}
BENCHMARK_CAPTURE(BM_Json_EncodeItem, 1KB, 0);
BENCHMARK_CAPTURE(BM_Json_EncodeItem, 100KB, 1);

// Encoding into a reused writer buffer, as a server writing many items into one response does.
void BM_Json_EncodeItemReusedBuffer(benchmark::State& state, int size) {
  const Item item = size == 0 ? SmallOrder() : LargeOrder();
  rapidjson::StringBuffer buffer;
  for (auto _ : state) {
    buffer.Clear();
    protocol::JsonWriter writer(buffer);
    protocol::WriteItem(item, writer);
    benchmark::DoNotOptimize(buffer.GetString());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * buffer.GetSize()));
}
BENCHMARK_CAPTURE(BM_Json_EncodeItemReusedBuffer, 1KB, 0);
BENCHMARK_CAPTURE(BM_Json_EncodeItemReusedBuffer, 100KB, 1);

// {"TableName":"Orders","Item":<the order, with its keys>}
std::string PutItemBody(int size) {
  Item item = size == 0 ? SmallOrder() : LargeOrder();
  item["PK"] = Value(std::string("CUSTOMER#0001"));
  item["SK"] = Value(std::string("ORDER#2026-12-01#0001"));
  return R"({"TableName":"Orders","Item":)" + protocol::ItemToJson(item) + "}";
}

void BM_Json_ParseRequest(benchmark::State& state, int size) {
  const std::string body = PutItemBody(size);
  for (auto _ : state) {
    rapidjson::Document document;
    Status parsed = protocol::ParseJson(body, &document);
    benchmark::DoNotOptimize(parsed);
    benchmark::DoNotOptimize(document);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * body.size()));
  state.SetLabel(std::to_string(body.size()) + " B");
}
BENCHMARK_CAPTURE(BM_Json_ParseRequest, 1KB, 0);
BENCHMARK_CAPTURE(BM_Json_ParseRequest, 100KB, 1);

void BM_Json_ParseRequestInPlace(benchmark::State& state, int size) {
  const std::string body = PutItemBody(size);
  for (auto _ : state) {
    protocol::InsituJson json;
    Status parsed = json.Parse(body);
    benchmark::DoNotOptimize(parsed);
    benchmark::DoNotOptimize(json.root());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * body.size()));
  state.SetLabel(std::to_string(body.size()) + " B");
}
BENCHMARK_CAPTURE(BM_Json_ParseRequestInPlace, 1KB, 0);
BENCHMARK_CAPTURE(BM_Json_ParseRequestInPlace, 100KB, 1);

void BM_Json_DispatchPutItem(benchmark::State& state, int size, bool tree) {
  Database db;
  if (!db.CreateTable(SimpleTable("Orders", KeySchema{KeyAttribute{"PK", KeyType::kString},
                                                      KeyAttribute{"SK", KeyType::kString}}))
           .ok()) {
    state.SkipWithError("CreateTable failed");
    return;
  }
  const std::string body = PutItemBody(size);
  // Without the engine in the Backend, Dispatch's PutItem takes the tree path.
  const protocol::Backend backend{.store = db, .engine = tree ? nullptr : &db};
  for (auto _ : state) {
    protocol::Response response = protocol::Dispatch(backend, "PutItem", body);
    if (response.http_status != 200) {
      state.SkipWithError(response.body.c_str());
      break;
    }
    benchmark::DoNotOptimize(response);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * body.size()));
  state.SetLabel(std::to_string(body.size()) + " B");
}
BENCHMARK_CAPTURE(BM_Json_DispatchPutItem, 1KB, 0, false);
BENCHMARK_CAPTURE(BM_Json_DispatchPutItem, 1KB_tree, 0, true);
BENCHMARK_CAPTURE(BM_Json_DispatchPutItem, 100KB, 1, false);
BENCHMARK_CAPTURE(BM_Json_DispatchPutItem, 100KB_tree, 1, true);

}  // namespace
}  // namespace partstore::json_benchmark
