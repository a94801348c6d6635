// ConsumedCapacity JSON (see operations_json.h). Units are written as JSON numbers with a
// fraction, as DynamoDB sends them ("CapacityUnits":1.0, 0.5, 4.0: the captures in
// scylladb/scylladb test/alternator/test_returnconsumedcapacity.py compare against such floats,
// and the AWS SDKs model the member as a Double); RapidJSON's Writer::Double writes exact halves
// that way.
//
// The readers (client_data_json.h) take what these writers write back, from an untrusted body.
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tools/protocol/client_data_json.h"
#include "tools/protocol/operations_json.h"

namespace partstore::protocol {
namespace {

void WriteUnits(int64_t half_units, JsonWriter& writer) {
  writer.StartObject();
  writer.Key("CapacityUnits");
  writer.Double(HalfUnitsToDouble(half_units));
  writer.EndObject();
}

void WriteIndexUnits(std::string_view key,
                     const std::map<std::string, int64_t, std::less<>>& indexes,
                     JsonWriter& writer) {
  if (indexes.empty()) return;
  writer.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
  writer.StartObject();
  for (const auto& [name, units] : indexes) {
    writer.Key(name.data(), static_cast<rapidjson::SizeType>(name.size()));
    WriteUnits(units, writer);
  }
  writer.EndObject();
}

}  // namespace

void WriteConsumedCapacity(const ConsumedCapacity& capacity, JsonWriter& writer) {
  writer.StartObject();
  writer.Key("TableName");
  writer.String(capacity.table_name.data(),
                static_cast<rapidjson::SizeType>(capacity.table_name.size()));
  writer.Key("CapacityUnits");
  writer.Double(capacity.CapacityUnits());
  if (capacity.table_half_units) {
    writer.Key("Table");
    WriteUnits(*capacity.table_half_units, writer);
  }
  WriteIndexUnits("GlobalSecondaryIndexes", capacity.global_secondary_indexes, writer);
  WriteIndexUnits("LocalSecondaryIndexes", capacity.local_secondary_indexes, writer);
  writer.EndObject();
}

void WriteConsumedCapacityList(const std::vector<ConsumedCapacity>& capacities,
                               JsonWriter& writer) {
  if (capacities.empty()) return;
  writer.Key("ConsumedCapacity");
  writer.StartArray();
  for (const ConsumedCapacity& capacity : capacities) WriteConsumedCapacity(capacity, writer);
  writer.EndArray();
}

void WriteItemCollectionMetrics(const ItemCollectionMetrics& metrics, JsonWriter& writer) {
  writer.StartObject();
  writer.Key("ItemCollectionKey");
  WriteItem(metrics.item_collection_key, writer);
  writer.Key("SizeEstimateRangeGB");
  writer.StartArray();
  writer.Double(metrics.size_estimate_range_gb[0]);
  writer.Double(metrics.size_estimate_range_gb[1]);
  writer.EndArray();
  writer.EndObject();
}

void WriteItemCollectionMetricsByTable(
    const std::vector<std::pair<std::string, std::vector<ItemCollectionMetrics>>>& tables,
    JsonWriter& writer) {
  if (tables.empty()) return;
  writer.Key("ItemCollectionMetrics");
  writer.StartObject();
  for (const auto& [table, metrics] : tables) {
    writer.Key(table.data(), static_cast<rapidjson::SizeType>(table.size()));
    writer.StartArray();
    for (const ItemCollectionMetrics& entry : metrics) WriteItemCollectionMetrics(entry, writer);
    writer.EndArray();
  }
  writer.EndObject();
}

// ---- Reading responses (client_data_json.h) -------------------------------------------------

namespace {

// Half units fit an int64 with room; a larger value is no capacity DynamoDB reports.
constexpr double kMaxCapacityUnits = 1e15;

// {"CapacityUnits": x} (its other members ignored) into half units, rounded up.
void ReadUnits(const ResponseObject& object, int64_t* half_units) {
  const rapidjson::Value* v = object.Find("CapacityUnits");
  if (v == nullptr) return;
  if (!v->IsNumber() || !(v->GetDouble() >= 0 && v->GetDouble() <= kMaxCapacityUnits)) {
    return object.Fail("CapacityUnits", "a non-negative number");
  }
  *half_units = static_cast<int64_t>(std::ceil(v->GetDouble() * 2));
}

void ReadIndexUnits(const ResponseObject& object, std::string_view member,
                    std::map<std::string, int64_t, std::less<>>* out) {
  object.Map(member, [&](std::string_view index, const ResponseObject& map) {
    map.Object(index, [&](const ResponseObject& units) {
      int64_t half_units = 0;
      ReadUnits(units, &half_units);
      out->insert_or_assign(std::string(index), half_units);
    });
  });
}

void ReadCapacity(const ResponseObject& object, ConsumedCapacity* out) {
  object.String("TableName", &out->table_name);
  ReadUnits(object, &out->total_half_units);
  object.Object("Table", [&](const ResponseObject& table) {
    int64_t half_units = 0;
    ReadUnits(table, &half_units);
    out->table_half_units = half_units;
  });
  ReadIndexUnits(object, "GlobalSecondaryIndexes", &out->global_secondary_indexes);
  ReadIndexUnits(object, "LocalSecondaryIndexes", &out->local_secondary_indexes);
}

void ReadMetrics(const ResponseObject& object, ItemCollectionMetrics* out) {
  object.Item("ItemCollectionKey", &out->item_collection_key);
  if (const rapidjson::Value* range = object.Find("SizeEstimateRangeGB")) {
    if (!range->IsArray() || range->Size() != 2 || !(*range)[0].IsNumber() ||
        !(*range)[1].IsNumber()) {
      return object.Fail("SizeEstimateRangeGB", "an array of two numbers");
    }
    out->size_estimate_range_gb[0] = (*range)[0].GetDouble();
    out->size_estimate_range_gb[1] = (*range)[1].GetDouble();
  }
}

}  // namespace

void ReadConsumedCapacity(const ResponseObject& object, std::string_view member,
                          std::optional<ConsumedCapacity>* out) {
  object.Object(member, [&](const ResponseObject& o) {
    ConsumedCapacity capacity;
    ReadCapacity(o, &capacity);
    if (!o.failed()) *out = std::move(capacity);
  });
}

void ReadConsumedCapacityList(const ResponseObject& object, std::vector<ConsumedCapacity>* out) {
  std::vector<ConsumedCapacity> list;
  object.Objects("ConsumedCapacity",
                 [&](const ResponseObject& o) { ReadCapacity(o, &list.emplace_back()); });
  if (!object.failed() && object.Find("ConsumedCapacity") != nullptr) *out = std::move(list);
}

void ReadItemCollectionMetrics(const ResponseObject& object,
                               std::optional<ItemCollectionMetrics>* out) {
  object.Object("ItemCollectionMetrics", [&](const ResponseObject& o) {
    ItemCollectionMetrics metrics;
    ReadMetrics(o, &metrics);
    if (!o.failed()) *out = std::move(metrics);
  });
}

void ReadItemCollectionMetricsByTable(
    const ResponseObject& object,
    std::vector<std::pair<std::string, std::vector<ItemCollectionMetrics>>>* out) {
  object.Map("ItemCollectionMetrics", [&](std::string_view table, const ResponseObject& map) {
    std::vector<ItemCollectionMetrics> metrics;
    map.Objects(table, [&](const ResponseObject& o) { ReadMetrics(o, &metrics.emplace_back()); });
    out->emplace_back(std::string(table), std::move(metrics));
  });
}

void ReadItemResponses(const ResponseObject& object, std::string_view member,
                       std::vector<std::optional<Item>>* out) {
  object.Elements(member, [&](const rapidjson::Value& element, const PathNode& at) {
    std::optional<Item>& item = out->emplace_back();
    if (element.IsNull()) return;
    if (std::optional<ResponseObject> entry = object.At(element, at)) entry->Item("Item", &item);
  });
}

}  // namespace partstore::protocol
