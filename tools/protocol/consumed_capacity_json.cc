// ConsumedCapacity JSON (see operations_json.h). Units are written as JSON numbers with a
// fraction, as DynamoDB sends them ("CapacityUnits":1.0, 0.5, 4.0: the captures in
// scylladb/scylladb test/alternator/test_returnconsumedcapacity.py compare against such floats,
// and the AWS SDKs model the member as a Double); RapidJSON's Writer::Double writes exact halves
// that way.
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

}  // namespace partstore::protocol
