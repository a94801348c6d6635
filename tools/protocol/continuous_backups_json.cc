// UpdateContinuousBackups, DescribeContinuousBackups and RestoreTableToPointInTime JSON (see
// operations_json.h and partstore/continuous_backups.h).
#include <rapidjson/stringbuffer.h>

#include <array>

#include "tools/protocol/client_control_json.h"
#include "tools/protocol/operations_json.h"
#include "tools/protocol/request_json.h"

namespace partstore::protocol {
namespace {

enum UpdateBackupsMember {
  kUpdateBackupsTableName,
  kUpdateBackupsSpecification,
  kUpdateBackupsMemberCount
};
constexpr MemberSpec kUpdateBackupsMembers[kUpdateBackupsMemberCount] = {
    {"TableName", Shape::kString},
    {"PointInTimeRecoverySpecification", Shape::kStructure},
};
enum SpecificationMember { kEnabled, kRecoveryPeriod, kSpecificationMemberCount };
constexpr MemberSpec kSpecificationMembers[kSpecificationMemberCount] = {
    {"PointInTimeRecoveryEnabled", Shape::kBoolean},
    {"RecoveryPeriodInDays", Shape::kInteger},
};
constexpr MemberSpec kDescribeBackupsMembers[1] = {{"TableName", Shape::kString}};

// ContinuousBackupsStatus and PointInTimeRecoveryStatus spellings, as the encoder writes them.
std::string_view EnabledName(bool enabled) { return enabled ? "ENABLED" : "DISABLED"; }
std::string_view RecoveryStatusName(PointInTimeRecoveryStatus status) {
  return EnabledName(status == PointInTimeRecoveryStatus::kEnabled);
}

Result<ContinuousBackupsResult> DecodeContinuousBackups(const JsonValue& body,
                                                        std::string_view operation) {
  return ReadBody<ContinuousBackupsResult>(
      body, operation, [](const ResponseObject& o, ContinuousBackupsResult& out) {
        o.Object("ContinuousBackupsDescription", [&](const ResponseObject& d) {
          ContinuousBackupsDescription& description = out.continuous_backups_description;
          const JsonValue* status = d.Find("ContinuousBackupsStatus");
          if (status != nullptr) {
            if (!status->IsString()) return d.Fail("ContinuousBackupsStatus", "a string");
            const std::string_view text(status->GetString(), status->GetStringLength());
            if (text != "ENABLED" && text != "DISABLED") {
              return d.Fail("ContinuousBackupsStatus", "ENABLED or DISABLED");
            }
            description.continuous_backups_enabled = text == "ENABLED";
          }
          d.Object("PointInTimeRecoveryDescription", [&](const ResponseObject& p) {
            PointInTimeRecoveryDescription& pitr = description.point_in_time_recovery_description;
            p.Enum("PointInTimeRecoveryStatus", RecoveryStatusName, 2,
                   &pitr.point_in_time_recovery_status);
            p.Int64("RecoveryPeriodInDays", &pitr.recovery_period_in_days);
            p.Double("EarliestRestorableDateTime", &pitr.earliest_restorable_date_time);
            p.Double("LatestRestorableDateTime", &pitr.latest_restorable_date_time);
          });
        });
      });
}

}  // namespace

Result<UpdateContinuousBackupsRequest> DecodeUpdateContinuousBackupsRequest(const JsonValue& body) {
  std::array<const JsonValue*, kUpdateBackupsMemberCount> m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "UpdateContinuousBackups", kUpdateBackupsMembers, m));
  std::array<const JsonValue*, kSpecificationMemberCount> spec{};
  if (m[kUpdateBackupsSpecification] != nullptr) {
    PARTSTORE_RETURN_IF_ERROR(ReadMembers(*m[kUpdateBackupsSpecification],
                                          "PointInTimeRecoverySpecification", kSpecificationMembers,
                                          spec));
  }
  Constraints c;
  c.Required(m[kUpdateBackupsTableName], "tableName");
  c.TableName(m[kUpdateBackupsTableName]);
  c.Required(m[kUpdateBackupsSpecification], "pointInTimeRecoverySpecification");
  if (m[kUpdateBackupsSpecification] != nullptr) {
    c.Required(spec[kEnabled], "pointInTimeRecoverySpecification.pointInTimeRecoveryEnabled");
    c.Range(spec[kRecoveryPeriod], 1, 35, "pointInTimeRecoverySpecification.recoveryPeriodInDays");
  }
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());
  UpdateContinuousBackupsRequest request;
  request.table_name = std::string(StringOf(*m[kUpdateBackupsTableName]));
  request.point_in_time_recovery_enabled = BooleanOf(*spec[kEnabled]);
  if (spec[kRecoveryPeriod] != nullptr) {
    request.recovery_period_in_days = IntegerOf(*spec[kRecoveryPeriod]);
  }
  return request;
}

std::string EncodeUpdateContinuousBackupsRequest(const UpdateContinuousBackupsRequest& request) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  w.Key("TableName");
  String(w, request.table_name);
  w.Key("PointInTimeRecoverySpecification");
  w.StartObject();
  w.Key("PointInTimeRecoveryEnabled");
  w.Bool(request.point_in_time_recovery_enabled);
  if (request.recovery_period_in_days) {
    w.Key("RecoveryPeriodInDays");
    w.Int64(*request.recovery_period_in_days);
  }
  w.EndObject();
  w.EndObject();
  return Finish(buffer);
}

Result<DescribeContinuousBackupsRequest> DecodeDescribeContinuousBackupsRequest(
    const JsonValue& body) {
  std::array<const JsonValue*, 1> m;
  PARTSTORE_RETURN_IF_ERROR(
      ReadMembers(body, "DescribeContinuousBackups", kDescribeBackupsMembers, m));
  Constraints c;
  c.Required(m[0], "tableName");
  c.TableName(m[0]);
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());
  return DescribeContinuousBackupsRequest{.table_name = std::string(StringOf(*m[0]))};
}

std::string EncodeDescribeContinuousBackupsRequest(
    const DescribeContinuousBackupsRequest& request) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  w.Key("TableName");
  String(w, request.table_name);
  w.EndObject();
  return Finish(buffer);
}

Result<RestoreTableToPointInTimeRequest> DecodeRestoreTableToPointInTimeRequest(
    const JsonValue& body) {
  enum {
    kSourceArn,
    kSourceName,
    kTarget,
    kLatest,
    kTime,
    kBilling,
    kGsi,
    kLsi,
    kThroughput,
    kOnDemand,
    kSse,
    kCount
  };
  constexpr MemberSpec kMembers[kCount] = {
      {"SourceTableArn", Shape::kString},
      {"SourceTableName", Shape::kString},
      {"TargetTableName", Shape::kString},
      {"UseLatestRestorableTime", Shape::kBoolean},
      {"RestoreDateTime", Shape::kDouble},
      {"BillingModeOverride", Shape::kString},
      {"GlobalSecondaryIndexOverride", Shape::kGlobalSecondaryIndexes},
      {"LocalSecondaryIndexOverride", Shape::kLocalSecondaryIndexes},
      {"ProvisionedThroughputOverride", Shape::kProvisionedThroughput},
      {"OnDemandThroughputOverride", Shape::kStructure},
      {"SSESpecificationOverride", Shape::kStructure}};
  std::array<const JsonValue*, kCount> m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "RestoreTableToPointInTime", kMembers, m));
  const TableOverrideMembers overrides{m[kBilling], m[kThroughput], m[kLsi], m[kGsi]};
  Constraints c;
  c.Required(m[kTarget], "targetTableName");
  c.Name(m[kTarget], "targetTableName");
  c.Name(m[kSourceName], "sourceTableName");
  TableOverrideConstraints(c, overrides);
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());
  RestoreTableToPointInTimeRequest request;
  if (m[kSourceArn] != nullptr) request.source_table_arn = std::string(StringOf(*m[kSourceArn]));
  if (m[kSourceName] != nullptr) request.source_table_name = std::string(StringOf(*m[kSourceName]));
  request.target_table_name = std::string(StringOf(*m[kTarget]));
  request.use_latest_restorable_time = m[kLatest] != nullptr && BooleanOf(*m[kLatest]);
  if (m[kTime] != nullptr) request.restore_date_time = DoubleOf(*m[kTime]);
  DecodeTableOverrides(overrides, &request);
  request.on_demand_throughput_override = m[kOnDemand] != nullptr;
  request.sse_specification_override = m[kSse] != nullptr;
  return request;
}

std::string EncodeRestoreTableToPointInTimeRequest(
    const RestoreTableToPointInTimeRequest& request) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  if (request.source_table_arn) {
    w.Key("SourceTableArn");
    String(w, *request.source_table_arn);
  }
  if (request.source_table_name) {
    w.Key("SourceTableName");
    String(w, *request.source_table_name);
  }
  w.Key("TargetTableName");
  String(w, request.target_table_name);
  if (request.use_latest_restorable_time) {
    w.Key("UseLatestRestorableTime");
    w.Bool(true);
  }
  if (request.restore_date_time) {
    w.Key("RestoreDateTime");
    w.Double(*request.restore_date_time);
  }
  client_control::WriteTableOverrideMembers(request, w);
  client_control::WriteGivenOverrideMembers(request.on_demand_throughput_override,
                                            request.sse_specification_override, w);
  w.EndObject();
  return Finish(buffer);
}

std::string EncodeRestoreTableToPointInTimeResult(const RestoreTableToPointInTimeResult& result) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  w.Key("TableDescription");
  WriteTableDescription(result.table_description, w);
  w.EndObject();
  return {buffer.GetString(), buffer.GetSize()};
}

Result<RestoreTableToPointInTimeResult> DecodeRestoreTableToPointInTimeResult(
    const JsonValue& body) {
  return ReadBody<RestoreTableToPointInTimeResult>(
      body, "RestoreTableToPointInTime",
      [](const ResponseObject& o, RestoreTableToPointInTimeResult& out) {
        client_control::ReadTableDescription(o, "TableDescription", &out.table_description);
      });
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
  String(w, EnabledName(d.continuous_backups_enabled));
  w.Key("PointInTimeRecoveryDescription");
  w.StartObject();
  w.Key("PointInTimeRecoveryStatus");
  String(w, RecoveryStatusName(pitr.point_in_time_recovery_status));
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

Result<ContinuousBackupsResult> DecodeUpdateContinuousBackupsResult(const JsonValue& body) {
  return DecodeContinuousBackups(body, "UpdateContinuousBackups");
}

Result<ContinuousBackupsResult> DecodeDescribeContinuousBackupsResult(const JsonValue& body) {
  return DecodeContinuousBackups(body, "DescribeContinuousBackups");
}

}  // namespace partstore::protocol
