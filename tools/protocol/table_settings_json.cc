#include "tools/protocol/table_settings_json.h"

#include <rapidjson/stringbuffer.h>

#include <array>

namespace partstore::protocol {
namespace {

void Key(JsonWriter& w, std::string_view key) {
  w.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
}
void String(JsonWriter& w, std::string_view value) {
  w.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
}

const JsonValue* Field(const JsonValue& object, std::string_view name) {
  if (!object.IsObject()) return nullptr;
  const JsonValue* found = nullptr;
  for (const auto& member : object.GetObject()) {
    if (StringOf(member.name) == name) found = member.value.IsNull() ? nullptr : &member.value;
  }
  return found;
}

// An Integer / Long member ReadMembers found, or absent.
std::optional<int64_t> OptionalInteger(const JsonValue* value) {
  if (value == nullptr) return std::nullopt;
  return IntegerOf(*value);
}

// The members' shapes (SerializationException for a wrong JSON type, as elsewhere).
constexpr MemberSpec kSseMembers[] = {
    {"Enabled", Shape::kBoolean}, {"SSEType", Shape::kString}, {"KMSMasterKeyId", Shape::kString}};
constexpr MemberSpec kOnDemandMembers[] = {{"MaxReadRequestUnits", Shape::kLong},
                                           {"MaxWriteRequestUnits", Shape::kLong}};
constexpr MemberSpec kWarmMembers[] = {{"ReadUnitsPerSecond", Shape::kLong},
                                       {"WriteUnitsPerSecond", Shape::kLong}};

template <typename Request>
Status DecodeCommon(const SettingsMembers& m, Request* out) {
  std::array<const JsonValue*, 3> members;
  if (m.table_class) {
    std::optional<TableClass> table_class = TableClassNamed(StringOf(*m.table_class));
    if (!table_class) {
      return Status::Validation(
          "Invalid table-class parameter provided. Please try again with a valid table-class "
          "value: [STANDARD, STANDARD_INFREQUENT_ACCESS].");
    }
    out->table_class = table_class;
  }
  if (m.deletion_protection_enabled) {
    out->deletion_protection_enabled = BooleanOf(*m.deletion_protection_enabled);
  }
  if (m.sse_specification) {
    PARTSTORE_RETURN_IF_ERROR(
        ReadMembers(*m.sse_specification, "SSESpecification", kSseMembers, members));
    SseSpecification sse;
    if (members[0]) sse.enabled = BooleanOf(*members[0]);
    sse.sse_type = OptionalString(members[1]);
    sse.kms_master_key_id = OptionalString(members[2]);
    if (sse.sse_type && *sse.sse_type != "KMS" && *sse.sse_type != "AES256") {
      return Status::Validation(
          "1 validation error detected: Value '" + *sse.sse_type +
          "' at 'sSESpecification.sSEType' failed to satisfy constraint: Member must satisfy "
          "enum value set: [AES256, KMS]");
    }
    out->sse_specification = std::move(sse);
  }
  if (m.on_demand_throughput) {
    PARTSTORE_RETURN_IF_ERROR(ReadMembers(*m.on_demand_throughput, "OnDemandThroughput",
                                          kOnDemandMembers, std::span(members).first(2)));
    out->on_demand_throughput =
        OnDemandThroughput{OptionalInteger(members[0]), OptionalInteger(members[1])};
  }
  if (m.warm_throughput) {
    PARTSTORE_RETURN_IF_ERROR(ReadMembers(*m.warm_throughput, "WarmThroughput", kWarmMembers,
                                          std::span(members).first(2)));
    out->warm_throughput = WarmThroughput{OptionalInteger(members[0]), OptionalInteger(members[1])};
  }
  return Status::Ok();
}

// Tags as the request gives them; a missing Key or Value is DynamoDB's "... invalid, Key: null".
Result<std::vector<Tag>> DecodeTags(const JsonValue* list) {
  std::vector<Tag> tags;
  if (list == nullptr) return tags;
  for (const JsonValue& element : list->GetArray()) {
    const JsonValue* key = Field(element, "Key");
    const JsonValue* value = Field(element, "Value");
    if (key == nullptr) return Status::Validation("The Tag Key provided is invalid, Key: null");
    if (value == nullptr) {
      return Status::Validation("The Tag Value provided is invalid, Value: null");
    }
    tags.push_back(Tag{std::string(StringOf(*key)), std::string(StringOf(*value))});
  }
  return tags;
}

void WriteUnits(JsonWriter& w, std::string_view name, const std::optional<int64_t>& units) {
  Key(w, name);
  w.Int64(units.value_or(-1));
}

}  // namespace

Status DecodeSettings(const SettingsMembers& m, CreateTableRequest* out) {
  PARTSTORE_RETURN_IF_ERROR(DecodeCommon(m, out));
  PARTSTORE_ASSIGN_OR_RETURN(out->tags, DecodeTags(m.tags));
  return Status::Ok();
}

Status DecodeSettings(const SettingsMembers& m, UpdateTableRequest* out) {
  return DecodeCommon(m, out);
}

void WriteSettings(const TableDescription& table, JsonWriter& w) {
  Key(w, "DeletionProtectionEnabled");
  w.Bool(table.deletion_protection_enabled);
  if (table.table_class) {
    Key(w, "TableClassSummary");
    w.StartObject();
    Key(w, "TableClass");
    String(w, TableClassName(*table.table_class));
    if (table.table_class_last_update_date_time) {
      Key(w, "LastUpdateDateTime");
      w.Double(*table.table_class_last_update_date_time);
    }
    w.EndObject();
  }
  if (table.sse_description) {
    Key(w, "SSEDescription");
    w.StartObject();
    Key(w, "Status");
    String(w, table.sse_description->status);
    Key(w, "SSEType");
    String(w, table.sse_description->sse_type);
    Key(w, "KMSMasterKeyArn");
    String(w, table.sse_description->kms_master_key_arn);
    w.EndObject();
  }
  WriteThroughputSettings(table.on_demand_throughput, table.warm_throughput, w);
}

void WriteThroughputSettings(const std::optional<OnDemandThroughput>& on_demand,
                             const std::optional<WarmThroughput>& warm, JsonWriter& w) {
  if (on_demand) {
    Key(w, "OnDemandThroughput");
    w.StartObject();
    WriteUnits(w, "MaxReadRequestUnits", on_demand->max_read_request_units);
    WriteUnits(w, "MaxWriteRequestUnits", on_demand->max_write_request_units);
    w.EndObject();
  }
  if (warm) {
    Key(w, "WarmThroughput");
    w.StartObject();
    if (warm->read_units_per_second) {
      Key(w, "ReadUnitsPerSecond");
      w.Int64(*warm->read_units_per_second);
    }
    if (warm->write_units_per_second) {
      Key(w, "WriteUnitsPerSecond");
      w.Int64(*warm->write_units_per_second);
    }
    Key(w, "Status");
    String(w, "ACTIVE");
    w.EndObject();
  }
}

void DecodeIndexThroughputs(const JsonValue& index, std::optional<OnDemandThroughput>* on_demand,
                            std::optional<WarmThroughput>* warm) {
  if (const JsonValue* value = Field(index, "OnDemandThroughput")) {
    *on_demand = OnDemandThroughput{OptionalInteger(Field(*value, "MaxReadRequestUnits")),
                                    OptionalInteger(Field(*value, "MaxWriteRequestUnits"))};
  }
  if (const JsonValue* value = Field(index, "WarmThroughput")) {
    *warm = WarmThroughput{OptionalInteger(Field(*value, "ReadUnitsPerSecond")),
                           OptionalInteger(Field(*value, "WriteUnitsPerSecond"))};
  }
}

namespace {

enum TagMember { kTagArn, kTagTags, kTagMemberCount };
constexpr MemberSpec kTagMembers[kTagMemberCount] = {{"ResourceArn", Shape::kString},
                                                     {"Tags", Shape::kTags}};
enum UntagMember { kUntagArn, kUntagKeys, kUntagMemberCount };
constexpr MemberSpec kUntagMembers[kUntagMemberCount] = {{"ResourceArn", Shape::kString},
                                                         {"TagKeys", Shape::kStringList}};
enum ListTagsMember { kListArn, kListNextToken, kListMemberCount };
constexpr MemberSpec kListTagsMembers[kListMemberCount] = {{"ResourceArn", Shape::kString},
                                                           {"NextToken", Shape::kString}};

}  // namespace

Result<TagResourceRequest> DecodeTagResourceRequest(const JsonValue& body) {
  std::array<const JsonValue*, kTagMemberCount> m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "TagResource", kTagMembers, m));
  Constraints c;
  c.Required(m[kTagArn], "resourceArn");
  c.Required(m[kTagTags], "tags");
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());
  TagResourceRequest request;
  request.resource_arn = std::string(StringOf(*m[kTagArn]));
  PARTSTORE_ASSIGN_OR_RETURN(request.tags, DecodeTags(m[kTagTags]));
  return request;
}

Result<UntagResourceRequest> DecodeUntagResourceRequest(const JsonValue& body) {
  std::array<const JsonValue*, kUntagMemberCount> m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "UntagResource", kUntagMembers, m));
  Constraints c;
  c.Required(m[kUntagArn], "resourceArn");
  c.Required(m[kUntagKeys], "tagKeys");
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());
  UntagResourceRequest request;
  request.resource_arn = std::string(StringOf(*m[kUntagArn]));
  request.tag_keys = DecodeStringList(m[kUntagKeys]).value_or(std::vector<std::string>{});
  return request;
}

Result<ListTagsOfResourceRequest> DecodeListTagsOfResourceRequest(const JsonValue& body) {
  std::array<const JsonValue*, kListMemberCount> m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "ListTagsOfResource", kListTagsMembers, m));
  Constraints c;
  c.Required(m[kListArn], "resourceArn");
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());
  ListTagsOfResourceRequest request;
  request.resource_arn = std::string(StringOf(*m[kListArn]));
  if (m[kListNextToken]) request.next_token = std::string(StringOf(*m[kListNextToken]));
  return request;
}

std::string EncodeTagResourceResult(const TagResourceResult&) { return "{}"; }

std::string EncodeListTagsOfResourceResult(const ListTagsOfResourceResult& result) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  Key(w, "Tags");
  w.StartArray();
  for (const Tag& tag : result.tags) {
    w.StartObject();
    Key(w, "Key");
    String(w, tag.key);
    Key(w, "Value");
    String(w, tag.value);
    w.EndObject();
  }
  w.EndArray();
  if (result.next_token) {
    Key(w, "NextToken");
    String(w, *result.next_token);
  }
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace partstore::protocol
