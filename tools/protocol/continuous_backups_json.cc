// UpdateContinuousBackups and DescribeContinuousBackups JSON (see operations_json.h and
// partstore/continuous_backups.h).
#include <rapidjson/stringbuffer.h>

#include <array>

#include "tools/protocol/operations_json.h"
#include "tools/protocol/request_json.h"

namespace partstore::protocol {
namespace {

enum UpdateMember { kTableName, kSpecification, kUpdateMemberCount };
constexpr MemberSpec kUpdateMembers[kUpdateMemberCount] = {
    {"TableName", Shape::kString},
    {"PointInTimeRecoverySpecification", Shape::kStructure},
};
enum SpecificationMember { kEnabled, kRecoveryPeriod, kSpecificationMemberCount };
constexpr MemberSpec kSpecificationMembers[kSpecificationMemberCount] = {
    {"PointInTimeRecoveryEnabled", Shape::kBoolean},
    {"RecoveryPeriodInDays", Shape::kInteger},
};
constexpr MemberSpec kDescribeMembers[1] = {{"TableName", Shape::kString}};

}  // namespace

Result<UpdateContinuousBackupsRequest> DecodeUpdateContinuousBackupsRequest(const JsonValue& body) {
  std::array<const JsonValue*, kUpdateMemberCount> m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "UpdateContinuousBackups", kUpdateMembers, m));
  std::array<const JsonValue*, kSpecificationMemberCount> spec{};
  if (m[kSpecification] != nullptr) {
    PARTSTORE_RETURN_IF_ERROR(ReadMembers(*m[kSpecification], "PointInTimeRecoverySpecification",
                                          kSpecificationMembers, spec));
  }
  Constraints c;
  c.Required(m[kTableName], "tableName");
  c.Name(m[kTableName], "tableName");
  c.Required(m[kSpecification], "pointInTimeRecoverySpecification");
  if (m[kSpecification] != nullptr) {
    c.Required(spec[kEnabled], "pointInTimeRecoverySpecification.pointInTimeRecoveryEnabled");
    c.Range(spec[kRecoveryPeriod], 1, 35, "pointInTimeRecoverySpecification.recoveryPeriodInDays");
  }
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());
  UpdateContinuousBackupsRequest request;
  request.table_name = std::string(StringOf(*m[kTableName]));
  request.point_in_time_recovery_enabled = BooleanOf(*spec[kEnabled]);
  if (spec[kRecoveryPeriod] != nullptr) {
    request.recovery_period_in_days = IntegerOf(*spec[kRecoveryPeriod]);
  }
  return request;
}

Result<DescribeContinuousBackupsRequest> DecodeDescribeContinuousBackupsRequest(
    const JsonValue& body) {
  std::array<const JsonValue*, 1> m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "DescribeContinuousBackups", kDescribeMembers, m));
  Constraints c;
  c.Required(m[0], "tableName");
  c.Name(m[0], "tableName");
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());
  return DescribeContinuousBackupsRequest{.table_name = std::string(StringOf(*m[0]))};
}

std::string EncodeContinuousBackupsResult(const ContinuousBackupsResult& result) {
  const ContinuousBackupsDescription& d = result.continuous_backups_description;
  const PointInTimeRecoveryDescription& pitr = d.point_in_time_recovery_description;
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  w.Key("ContinuousBackupsDescription");
  w.StartObject();
  w.Key("ContinuousBackupsStatus");
  w.String(d.continuous_backups_enabled ? "ENABLED" : "DISABLED");
  w.Key("PointInTimeRecoveryDescription");
  w.StartObject();
  w.Key("PointInTimeRecoveryStatus");
  w.String(pitr.point_in_time_recovery_status == PointInTimeRecoveryStatus::kEnabled ? "ENABLED"
                                                                                     : "DISABLED");
  if (pitr.recovery_period_in_days) {
    w.Key("RecoveryPeriodInDays");
    w.Int64(*pitr.recovery_period_in_days);
  }
  if (pitr.earliest_restorable_date_time) {
    w.Key("EarliestRestorableDateTime");
    w.Double(*pitr.earliest_restorable_date_time);
  }
  if (pitr.latest_restorable_date_time) {
    w.Key("LatestRestorableDateTime");
    w.Double(*pitr.latest_restorable_date_time);
  }
  w.EndObject();
  w.EndObject();
  w.EndObject();
  return {buffer.GetString(), buffer.GetSize()};
}

}  // namespace partstore::protocol
