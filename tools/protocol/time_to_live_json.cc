// UpdateTimeToLive and DescribeTimeToLive JSON (see operations_json.h). What only JSON can break
// is checked here (null members, their shapes); the attribute name's length and the table name's
// form are the engine's rules (Database::UpdateTimeToLive), applied here too so that a request's
// violations are reported together, as DynamoDB reports them (shard/constraints.h).
#include <rapidjson/stringbuffer.h>

#include <array>

#include "tools/protocol/client_control_json.h"
#include "tools/protocol/operations_json.h"
#include "tools/protocol/request_json.h"

namespace partstore::protocol {
namespace {

enum TtlUpdateMember { kTtlTableName, kTtlSpecification, kTtlUpdateMemberCount };
constexpr MemberSpec kTtlUpdateMembers[kTtlUpdateMemberCount] = {
    {"TableName", Shape::kString},
    {"TimeToLiveSpecification", Shape::kTimeToLiveSpecification},
};
constexpr MemberSpec kTtlDescribeMembers[1] = {{"TableName", Shape::kString}};

// The first occurrence of a member of an object, null when absent or JSON null.
const JsonValue* FirstMemberOf(const JsonValue& object, const char* name) {
  auto it = object.FindMember(name);
  return it == object.MemberEnd() || it->value.IsNull() ? nullptr : &it->value;
}

constexpr std::string_view kStatusNames[] = {"ENABLING", "DISABLING", "ENABLED", "DISABLED"};

std::string_view StatusName(TimeToLiveStatus status) {
  return kStatusNames[static_cast<size_t>(status)];
}

}  // namespace

Result<UpdateTimeToLiveRequest> DecodeUpdateTimeToLiveRequest(const JsonValue& body) {
  std::array<const JsonValue*, kTtlUpdateMemberCount> m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "UpdateTimeToLive", kTtlUpdateMembers, m));
  const JsonValue* spec = m[kTtlSpecification];
  const JsonValue* attribute = spec != nullptr ? FirstMemberOf(*spec, "AttributeName") : nullptr;
  const JsonValue* enabled = spec != nullptr ? FirstMemberOf(*spec, "Enabled") : nullptr;
  Constraints c;
  c.Required(m[kTtlTableName], "tableName");
  c.TableName(m[kTtlTableName]);
  c.Required(spec, "timeToLiveSpecification");
  if (spec != nullptr) {
    c.Required(attribute, "timeToLiveSpecification.attributeName");
    if (attribute != nullptr && !c.full()) {
      c.violations().Length(StringOf(*attribute), 1, 255, "timeToLiveSpecification.attributeName");
    }
    c.Required(enabled, "timeToLiveSpecification.enabled");
  }
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());
  UpdateTimeToLiveRequest request;
  request.table_name = std::string(StringOf(*m[kTtlTableName]));
  request.time_to_live_specification.attribute_name = std::string(StringOf(*attribute));
  request.time_to_live_specification.enabled = BooleanOf(*enabled);
  return request;
}

std::string EncodeUpdateTimeToLiveRequest(const UpdateTimeToLiveRequest& request) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  w.Key("TableName");
  String(w, request.table_name);
  w.Key("TimeToLiveSpecification");
  w.StartObject();
  w.Key("Enabled");
  w.Bool(request.time_to_live_specification.enabled);
  w.Key("AttributeName");
  String(w, request.time_to_live_specification.attribute_name);
  w.EndObject();
  w.EndObject();
  return Finish(buffer);
}

Result<DescribeTimeToLiveRequest> DecodeDescribeTimeToLiveRequest(const JsonValue& body) {
  std::array<const JsonValue*, 1> m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "DescribeTimeToLive", kTtlDescribeMembers, m));
  Constraints c;
  c.Required(m[0], "tableName");
  c.TableName(m[0]);
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());
  return DescribeTimeToLiveRequest{.table_name = std::string(StringOf(*m[0]))};
}

std::string EncodeDescribeTimeToLiveRequest(const DescribeTimeToLiveRequest& request) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  w.Key("TableName");
  String(w, request.table_name);
  w.EndObject();
  return Finish(buffer);
}

std::string EncodeUpdateTimeToLiveResult(const UpdateTimeToLiveResult& result) {
  const TimeToLiveSpecification& spec = result.time_to_live_specification;
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  w.Key("TimeToLiveSpecification");
  w.StartObject();
  w.Key("AttributeName");
  w.String(spec.attribute_name.data(),
           static_cast<rapidjson::SizeType>(spec.attribute_name.size()));
  w.Key("Enabled");
  w.Bool(spec.enabled);
  w.EndObject();
  w.EndObject();
  return {buffer.GetString(), buffer.GetSize()};
}

Result<UpdateTimeToLiveResult> DecodeUpdateTimeToLiveResult(const JsonValue& body) {
  return ReadBody<UpdateTimeToLiveResult>(
      body, "UpdateTimeToLive", [](const ResponseObject& o, UpdateTimeToLiveResult& out) {
        o.Object("TimeToLiveSpecification", [&](const ResponseObject& spec) {
          spec.String("AttributeName", &out.time_to_live_specification.attribute_name);
          spec.Bool("Enabled", &out.time_to_live_specification.enabled);
        });
      });
}

std::string EncodeDescribeTimeToLiveResult(const DescribeTimeToLiveResult& result) {
  const TimeToLiveDescription& description = result.time_to_live_description;
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  w.Key("TimeToLiveDescription");
  w.StartObject();
  const std::string_view status =
      kStatusNames[static_cast<size_t>(description.time_to_live_status)];
  w.Key("TimeToLiveStatus");
  w.String(status.data(), static_cast<rapidjson::SizeType>(status.size()));
  if (description.attribute_name) {
    w.Key("AttributeName");
    w.String(description.attribute_name->data(),
             static_cast<rapidjson::SizeType>(description.attribute_name->size()));
  }
  w.EndObject();
  w.EndObject();
  return {buffer.GetString(), buffer.GetSize()};
}

Result<DescribeTimeToLiveResult> DecodeDescribeTimeToLiveResult(const JsonValue& body) {
  return ReadBody<DescribeTimeToLiveResult>(
      body, "DescribeTimeToLive", [](const ResponseObject& o, DescribeTimeToLiveResult& out) {
        o.Object("TimeToLiveDescription", [&](const ResponseObject& d) {
          TimeToLiveDescription& description = out.time_to_live_description;
          d.Enum("TimeToLiveStatus", StatusName, 4, &description.time_to_live_status);
          d.String("AttributeName", &description.attribute_name);
        });
      });
}

}  // namespace partstore::protocol
