// ConsumedCapacity JSON (see operations_json.h). Units are written as JSON numbers with a
// fraction, as DynamoDB sends them ("CapacityUnits":1.0, 0.5, 4.0: the captures in
// scylladb/scylladb test/alternator/test_returnconsumedcapacity.py compare against such floats,
// and the AWS SDKs model the member as a Double); RapidJSON's Writer::Double writes exact halves
// that way.
//
// The readers (client_data_json.h) take what these writers write back, from an untrusted body.
#include <cmath>

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

std::string ResponsePath::ToString() const {
  if (parent_ == nullptr) return "the body";
  // The frames from the root down.
  std::vector<const ResponsePath*> frames;
  for (const ResponsePath* p = this; p->parent_ != nullptr; p = p->parent_) frames.push_back(p);
  std::string out;
  for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
    const ResponsePath& frame = **it;
    if (frame.index_ != kNoIndex) {
      out += "[" + std::to_string(frame.index_) + "]";
    } else {
      if (!out.empty()) out += '.';
      out += frame.name_;
    }
  }
  return out;
}

Status ResponsePath::Malformed(std::string_view what) const {
  return Status::Internal("malformed " + std::string(operation_) + " response: " + ToString() +
                          " is not " + std::string(what));
}

Status ResponsePath::Malformed(std::string_view what, const Status& cause) const {
  return Malformed(std::string(what) + ": " + std::string(cause.message()));
}

Result<ResponseObject> ResponseObject::Open(const rapidjson::Value& json,
                                            const ResponsePath& path) {
  if (!json.IsObject()) return path.Malformed("an object");
  return ResponseObject(json, path);
}

const rapidjson::Value* ResponseObject::Find(std::string_view name) const {
  const rapidjson::Value* found = nullptr;
  for (const auto& member : json_->GetObject()) {
    const std::string_view key(member.name.GetString(), member.name.GetStringLength());
    if (key == name) found = member.value.IsNull() ? nullptr : &member.value;
  }
  return found;
}

Status ResponseObject::String(std::string_view name, std::string* out) const {
  const rapidjson::Value* v = Find(name);
  if (v == nullptr) return Status::Ok();
  if (!v->IsString()) return path_->Member(name).Malformed("a string");
  out->assign(v->GetString(), v->GetStringLength());
  return Status::Ok();
}

Status ResponseObject::String(std::string_view name, std::optional<std::string>* out) const {
  const rapidjson::Value* v = Find(name);
  if (v == nullptr) return Status::Ok();
  if (!v->IsString()) return path_->Member(name).Malformed("a string");
  out->emplace(v->GetString(), v->GetStringLength());
  return Status::Ok();
}

Status ResponseObject::Int32(std::string_view name, int32_t* out) const {
  const rapidjson::Value* v = Find(name);
  if (v == nullptr) return Status::Ok();
  if (!v->IsInt()) return path_->Member(name).Malformed("a 32-bit integer");
  *out = v->GetInt();
  return Status::Ok();
}

Status ResponseObject::Item(std::string_view name, std::optional<partstore::Item>* out) const {
  const rapidjson::Value* v = Find(name);
  if (v == nullptr) return Status::Ok();
  PARTSTORE_ASSIGN_OR_RETURN(partstore::Item item, ReadResponseItem(*v, path_->Member(name)));
  *out = std::move(item);
  return Status::Ok();
}

Status ResponseObject::Items(std::string_view name, std::vector<partstore::Item>* out,
                             bool* present) const {
  const rapidjson::Value* v = Find(name);
  if (present != nullptr) *present = v != nullptr;
  if (v == nullptr) return Status::Ok();
  const ResponsePath list_path = path_->Member(name);
  if (!v->IsArray()) return list_path.Malformed("a list");
  out->clear();
  out->reserve(v->Size());
  for (rapidjson::SizeType i = 0; i < v->Size(); ++i) {
    PARTSTORE_ASSIGN_OR_RETURN(partstore::Item item, ReadResponseItem((*v)[i], list_path.Index(i)));
    out->push_back(std::move(item));
  }
  return Status::Ok();
}

Status ResponseObject::ConsumedCapacity(std::string_view name,
                                        std::optional<partstore::ConsumedCapacity>* out) const {
  const rapidjson::Value* v = Find(name);
  if (v == nullptr) return Status::Ok();
  PARTSTORE_ASSIGN_OR_RETURN(partstore::ConsumedCapacity capacity,
                             ReadConsumedCapacity(*v, path_->Member(name)));
  *out = std::move(capacity);
  return Status::Ok();
}

Status ResponseObject::ConsumedCapacityList(std::vector<partstore::ConsumedCapacity>* out) const {
  const rapidjson::Value* v = Find("ConsumedCapacity");
  if (v == nullptr) return Status::Ok();
  const ResponsePath list_path = path_->Member("ConsumedCapacity");
  if (!v->IsArray()) return list_path.Malformed("a list");
  out->clear();
  out->reserve(v->Size());
  for (rapidjson::SizeType i = 0; i < v->Size(); ++i) {
    PARTSTORE_ASSIGN_OR_RETURN(partstore::ConsumedCapacity capacity,
                               ReadConsumedCapacity((*v)[i], list_path.Index(i)));
    out->push_back(std::move(capacity));
  }
  return Status::Ok();
}

Status ResponseObject::ItemCollectionMetrics(
    std::optional<partstore::ItemCollectionMetrics>* out) const {
  const rapidjson::Value* v = Find("ItemCollectionMetrics");
  if (v == nullptr) return Status::Ok();
  PARTSTORE_ASSIGN_OR_RETURN(partstore::ItemCollectionMetrics metrics,
                             ReadItemCollectionMetrics(*v, path_->Member("ItemCollectionMetrics")));
  *out = std::move(metrics);
  return Status::Ok();
}

Status ResponseObject::ItemCollectionMetricsByTable(
    std::vector<std::pair<std::string, std::vector<partstore::ItemCollectionMetrics>>>* out) const {
  const rapidjson::Value* v = Find("ItemCollectionMetrics");
  if (v == nullptr) return Status::Ok();
  const ResponsePath map_path = path_->Member("ItemCollectionMetrics");
  if (!v->IsObject()) return map_path.Malformed("an object");
  out->clear();
  for (const auto& table : v->GetObject()) {
    if (table.value.IsNull()) continue;
    const std::string_view name(table.name.GetString(), table.name.GetStringLength());
    const ResponsePath table_path = map_path.Member(name);
    if (!table.value.IsArray()) return table_path.Malformed("a list");
    std::vector<partstore::ItemCollectionMetrics> metrics;
    metrics.reserve(table.value.Size());
    for (rapidjson::SizeType i = 0; i < table.value.Size(); ++i) {
      PARTSTORE_ASSIGN_OR_RETURN(partstore::ItemCollectionMetrics entry,
                                 ReadItemCollectionMetrics(table.value[i], table_path.Index(i)));
      metrics.push_back(std::move(entry));
    }
    out->emplace_back(std::string(name), std::move(metrics));
  }
  return Status::Ok();
}

Result<Item> ReadResponseItem(const rapidjson::Value& json, const ResponsePath& path) {
  if (!json.IsObject()) return path.Malformed("an item");
  Result<Item> item = DecodeItem(json);
  if (!item.ok()) return path.Malformed("a valid item", item.error());
  return item;
}

Status ReadItemResponses(const rapidjson::Value& json, const ResponsePath& path,
                         std::vector<std::optional<Item>>* out) {
  if (!json.IsArray()) return path.Malformed("a list");
  out->clear();
  out->reserve(json.Size());
  for (rapidjson::SizeType i = 0; i < json.Size(); ++i) {
    const ResponsePath entry_path = path.Index(i);
    std::optional<Item> item;
    if (!json[i].IsNull()) {
      PARTSTORE_ASSIGN_OR_RETURN(ResponseObject entry, ResponseObject::Open(json[i], entry_path));
      PARTSTORE_RETURN_IF_ERROR(entry.Item("Item", &item));
    }
    out->push_back(std::move(item));
  }
  return Status::Ok();
}

namespace {

// Half units fit an int64 with room; a larger value is no capacity DynamoDB reports.
constexpr double kMaxCapacityUnits = 1e15;

// {"CapacityUnits": x} at `path` (its other members ignored) into half units, rounded up.
Status ReadUnits(const ResponseObject& object, int64_t* half_units) {
  const rapidjson::Value* v = object.Find("CapacityUnits");
  if (v == nullptr) return Status::Ok();
  if (!v->IsNumber() || !(v->GetDouble() >= 0 && v->GetDouble() <= kMaxCapacityUnits)) {
    return object.path().Member("CapacityUnits").Malformed("a non-negative number");
  }
  *half_units = static_cast<int64_t>(std::ceil(v->GetDouble() * 2));
  return Status::Ok();
}

Status ReadIndexUnits(const ResponseObject& object, std::string_view member,
                      std::map<std::string, int64_t, std::less<>>* out) {
  const rapidjson::Value* v = object.Find(member);
  if (v == nullptr) return Status::Ok();
  const ResponsePath map_path = object.path().Member(member);
  if (!v->IsObject()) return map_path.Malformed("an object");
  for (const auto& index : v->GetObject()) {
    if (index.value.IsNull()) continue;
    const std::string_view name(index.name.GetString(), index.name.GetStringLength());
    const ResponsePath index_path = map_path.Member(name);
    PARTSTORE_ASSIGN_OR_RETURN(ResponseObject units, ResponseObject::Open(index.value, index_path));
    int64_t half_units = 0;
    PARTSTORE_RETURN_IF_ERROR(ReadUnits(units, &half_units));
    out->insert_or_assign(std::string(name), half_units);
  }
  return Status::Ok();
}

}  // namespace

Result<ConsumedCapacity> ReadConsumedCapacity(const rapidjson::Value& json,
                                              const ResponsePath& path) {
  PARTSTORE_ASSIGN_OR_RETURN(ResponseObject object, ResponseObject::Open(json, path));
  ConsumedCapacity out;
  PARTSTORE_RETURN_IF_ERROR(object.String("TableName", &out.table_name));
  PARTSTORE_RETURN_IF_ERROR(ReadUnits(object, &out.total_half_units));
  if (const rapidjson::Value* table = object.Find("Table")) {
    const ResponsePath table_path = path.Member("Table");
    PARTSTORE_ASSIGN_OR_RETURN(ResponseObject units, ResponseObject::Open(*table, table_path));
    int64_t half_units = 0;
    PARTSTORE_RETURN_IF_ERROR(ReadUnits(units, &half_units));
    out.table_half_units = half_units;
  }
  PARTSTORE_RETURN_IF_ERROR(
      ReadIndexUnits(object, "GlobalSecondaryIndexes", &out.global_secondary_indexes));
  PARTSTORE_RETURN_IF_ERROR(
      ReadIndexUnits(object, "LocalSecondaryIndexes", &out.local_secondary_indexes));
  return out;
}

Result<ItemCollectionMetrics> ReadItemCollectionMetrics(const rapidjson::Value& json,
                                                        const ResponsePath& path) {
  PARTSTORE_ASSIGN_OR_RETURN(ResponseObject object, ResponseObject::Open(json, path));
  ItemCollectionMetrics out;
  std::optional<Item> key;
  PARTSTORE_RETURN_IF_ERROR(object.Item("ItemCollectionKey", &key));
  if (key) out.item_collection_key = std::move(*key);
  if (const rapidjson::Value* range = object.Find("SizeEstimateRangeGB")) {
    if (!range->IsArray() || range->Size() != 2 || !(*range)[0].IsNumber() ||
        !(*range)[1].IsNumber()) {
      return path.Member("SizeEstimateRangeGB").Malformed("a list of two numbers");
    }
    out.size_estimate_range_gb[0] = (*range)[0].GetDouble();
    out.size_estimate_range_gb[1] = (*range)[1].GetDouble();
  }
  return out;
}

}  // namespace partstore::protocol
