// CreateBackup, DescribeBackup, ListBackups, DeleteBackup and RestoreTableFromBackup JSON (see
// operations_json.h and partstore/backups.h). Times are epoch seconds (JSON numbers).
#include <rapidjson/stringbuffer.h>

#include <array>

#include "tools/protocol/client_control_json.h"
#include "tools/protocol/operations_json.h"
#include "tools/protocol/request_json.h"

namespace partstore::protocol {
namespace {

void WriteDetails(const BackupDetails& d, JsonWriter& w) {
  Key(w, "BackupArn", d.backup_arn);
  Key(w, "BackupName", d.backup_name);
  w.Key("BackupSizeBytes");
  w.Int64(d.backup_size_bytes);
  Key(w, "BackupStatus", BackupStatusName(d.backup_status));
  Key(w, "BackupType", d.backup_type);
  w.Key("BackupCreationDateTime");
  w.Double(d.backup_creation_date_time);
}

template <typename Index>
void WriteIndexes(const char* key, const std::vector<Index>& indexes, JsonWriter& w) {
  if (indexes.empty()) return;
  w.Key(key);
  w.StartArray();
  for (const Index& index : indexes) {
    w.StartObject();
    Key(w, "IndexName", index.index_name);
    w.Key("KeySchema");
    WriteKeySchema(index.key_schema, w);
    w.Key("Projection");
    w.StartObject();
    Key(w, "ProjectionType",
        kProjectionTypeNames[static_cast<size_t>(
            index.projection.projection_type.value_or(ProjectionType::kAll))]);
    if (index.projection.non_key_attributes && !index.projection.non_key_attributes->empty()) {
      w.Key("NonKeyAttributes");
      w.StartArray();
      for (const std::string& name : *index.projection.non_key_attributes) {
        w.String(name.data(), static_cast<rapidjson::SizeType>(name.size()));
      }
      w.EndArray();
    }
    w.EndObject();
    // GlobalSecondaryIndexInfo's ProvisionedThroughput and OnDemandThroughput (it has no
    // WarmThroughput).
    if constexpr (requires { index.provisioned_throughput; }) {
      if (index.provisioned_throughput) {
        w.Key("ProvisionedThroughput");
        w.StartObject();
        w.Key("ReadCapacityUnits");
        w.Int64(index.provisioned_throughput->read_capacity_units);
        w.Key("WriteCapacityUnits");
        w.Int64(index.provisioned_throughput->write_capacity_units);
        w.EndObject();
      }
      client_control::WriteIndexThroughputMembers(index.on_demand_throughput, std::nullopt, w);
    }
    w.EndObject();
  }
  w.EndArray();
}

void WriteDescription(const BackupDescription& d, JsonWriter& w) {
  w.Key("BackupDescription");
  w.StartObject();
  w.Key("BackupDetails");
  w.StartObject();
  WriteDetails(d.backup_details, w);
  w.EndObject();
  const SourceTableDetails& t = d.source_table_details;
  w.Key("SourceTableDetails");
  w.StartObject();
  Key(w, "TableName", t.table_name);
  Key(w, "TableId", t.table_id);
  Key(w, "TableArn", t.table_arn);
  w.Key("TableSizeBytes");
  w.Int64(t.table_size_bytes);
  w.Key("KeySchema");
  WriteKeySchema(t.key_schema, w);
  w.Key("TableCreationDateTime");
  w.Double(t.table_creation_date_time);
  w.Key("ProvisionedThroughput");
  w.StartObject();
  w.Key("ReadCapacityUnits");
  w.Int64(t.provisioned_throughput.read_capacity_units);
  w.Key("WriteCapacityUnits");
  w.Int64(t.provisioned_throughput.write_capacity_units);
  w.EndObject();
  w.Key("ItemCount");
  w.Int64(t.item_count);
  Key(w, "BillingMode", BillingModeName(t.billing_mode));
  w.EndObject();
  w.Key("SourceTableFeatureDetails");
  w.StartObject();
  WriteIndexes("LocalSecondaryIndexes", d.local_secondary_indexes, w);
  WriteIndexes("GlobalSecondaryIndexes", d.global_secondary_indexes, w);
  w.EndObject();
  w.EndObject();
}

template <typename Write>
std::string Answer(Write write) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  write(w);
  w.EndObject();
  return {buffer.GetString(), buffer.GetSize()};
}

Result<std::string> DecodeArnOnly(const JsonValue& body, std::string_view operation) {
  constexpr MemberSpec kMembers[1] = {{"BackupArn", Shape::kString}};
  std::array<const JsonValue*, 1> m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, operation, kMembers, m));
  Constraints c;
  c.Required(m[0], "backupArn");
  if (m[0] != nullptr) c.violations().Length(StringOf(*m[0]), 37, 1024, "backupArn");
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());
  return Str(m[0]);
}

// ---- The client's direction ----

void ReadDetails(const ResponseObject& o, BackupDetails* d) {
  o.String("BackupArn", &d->backup_arn);
  o.String("BackupName", &d->backup_name);
  o.Int64("BackupSizeBytes", &d->backup_size_bytes);
  o.Enum("BackupStatus", BackupStatusName, 3, &d->backup_status);
  o.String("BackupType", &d->backup_type);
  o.Double("BackupCreationDateTime", &d->backup_creation_date_time);
}

template <typename Index>
void ReadIndexes(const ResponseObject& o, std::string_view key, std::vector<Index>* out) {
  o.Objects(key, [&](const ResponseObject& i) {
    Index& index = out->emplace_back();
    i.String("IndexName", &index.index_name);
    client_control::ReadKeySchema(i, &index.key_schema);
    client_control::ReadProjection(i, &index.projection);
    if constexpr (requires { index.provisioned_throughput; }) {
      i.Object("ProvisionedThroughput", [&](const ResponseObject& p) {
        ProvisionedThroughput& throughput = index.provisioned_throughput.emplace();
        p.Int64("ReadCapacityUnits", &throughput.read_capacity_units);
        p.Int64("WriteCapacityUnits", &throughput.write_capacity_units);
      });
      std::optional<WarmThroughput> no_warm;  // not a member of GlobalSecondaryIndexInfo
      client_control::ReadThroughputSettings(i, &index.on_demand_throughput, &no_warm);
    }
  });
}

void ReadDescription(const ResponseObject& o, BackupDescription* d) {
  o.Object("BackupDescription", [&](const ResponseObject& b) {
    b.Object("BackupDetails", [&](const ResponseObject& x) { ReadDetails(x, &d->backup_details); });
    b.Object("SourceTableDetails", [&](const ResponseObject& x) {
      SourceTableDetails& t = d->source_table_details;
      x.String("TableName", &t.table_name);
      x.String("TableId", &t.table_id);
      x.String("TableArn", &t.table_arn);
      x.Int64("TableSizeBytes", &t.table_size_bytes);
      client_control::ReadKeySchema(x, &t.key_schema);
      x.Double("TableCreationDateTime", &t.table_creation_date_time);
      x.Object("ProvisionedThroughput", [&](const ResponseObject& p) {
        p.Int64("ReadCapacityUnits", &t.provisioned_throughput.read_capacity_units);
        p.Int64("WriteCapacityUnits", &t.provisioned_throughput.write_capacity_units);
      });
      x.Int64("ItemCount", &t.item_count);
      x.Enum("BillingMode", BillingModeName, 2, &t.billing_mode);
    });
    b.Object("SourceTableFeatureDetails", [&](const ResponseObject& x) {
      ReadIndexes(x, "LocalSecondaryIndexes", &d->local_secondary_indexes);
      ReadIndexes(x, "GlobalSecondaryIndexes", &d->global_secondary_indexes);
    });
  });
}

}  // namespace

Result<CreateBackupRequest> DecodeCreateBackupRequest(const JsonValue& body) {
  constexpr MemberSpec kMembers[2] = {{"TableName", Shape::kString},
                                      {"BackupName", Shape::kString}};
  std::array<const JsonValue*, 2> m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "CreateBackup", kMembers, m));
  Constraints c;
  c.Required(m[0], "tableName");
  c.TableName(m[0]);
  c.Required(m[1], "backupName");
  c.Name(m[1], "backupName");
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());
  return CreateBackupRequest{.table_name = Str(m[0]), .backup_name = Str(m[1])};
}

std::string EncodeCreateBackupRequest(const CreateBackupRequest& request) {
  return Answer([&](JsonWriter& w) {
    Key(w, "TableName", request.table_name);
    Key(w, "BackupName", request.backup_name);
  });
}

Result<DescribeBackupRequest> DecodeDescribeBackupRequest(const JsonValue& body) {
  PARTSTORE_ASSIGN_OR_RETURN(std::string arn, DecodeArnOnly(body, "DescribeBackup"));
  return DescribeBackupRequest{.backup_arn = std::move(arn)};
}

std::string EncodeDescribeBackupRequest(const DescribeBackupRequest& request) {
  return Answer([&](JsonWriter& w) { Key(w, "BackupArn", request.backup_arn); });
}

Result<DeleteBackupRequest> DecodeDeleteBackupRequest(const JsonValue& body) {
  PARTSTORE_ASSIGN_OR_RETURN(std::string arn, DecodeArnOnly(body, "DeleteBackup"));
  return DeleteBackupRequest{.backup_arn = std::move(arn)};
}

std::string EncodeDeleteBackupRequest(const DeleteBackupRequest& request) {
  return Answer([&](JsonWriter& w) { Key(w, "BackupArn", request.backup_arn); });
}

Result<ListBackupsRequest> DecodeListBackupsRequest(const JsonValue& body) {
  constexpr MemberSpec kMembers[6] = {{"TableName", Shape::kString},
                                      {"Limit", Shape::kInteger},
                                      {"TimeRangeLowerBound", Shape::kDouble},
                                      {"TimeRangeUpperBound", Shape::kDouble},
                                      {"ExclusiveStartBackupArn", Shape::kString},
                                      {"BackupType", Shape::kString}};
  std::array<const JsonValue*, 6> m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "ListBackups", kMembers, m));
  ListBackupsRequest request;
  if (m[0] != nullptr) request.table_name = Str(m[0]);
  if (m[1] != nullptr) request.limit = IntegerOf(*m[1]);
  if (m[2] != nullptr) request.time_range_lower_bound = DoubleOf(*m[2]);
  if (m[3] != nullptr) request.time_range_upper_bound = DoubleOf(*m[3]);
  if (m[4] != nullptr) request.exclusive_start_backup_arn = Str(m[4]);
  if (m[5] != nullptr) request.backup_type = Str(m[5]);
  return request;
}

std::string EncodeListBackupsRequest(const ListBackupsRequest& request) {
  return Answer([&](JsonWriter& w) {
    if (request.table_name) Key(w, "TableName", *request.table_name);
    if (request.limit) {
      w.Key("Limit");
      w.Int64(*request.limit);
    }
    if (request.time_range_lower_bound) {
      w.Key("TimeRangeLowerBound");
      w.Double(*request.time_range_lower_bound);
    }
    if (request.time_range_upper_bound) {
      w.Key("TimeRangeUpperBound");
      w.Double(*request.time_range_upper_bound);
    }
    if (request.exclusive_start_backup_arn) {
      Key(w, "ExclusiveStartBackupArn", *request.exclusive_start_backup_arn);
    }
    if (request.backup_type) Key(w, "BackupType", *request.backup_type);
  });
}

Result<RestoreTableFromBackupRequest> DecodeRestoreTableFromBackupRequest(const JsonValue& body) {
  enum { kTarget, kArn, kBilling, kGsi, kLsi, kThroughput, kOnDemand, kSse, kCount };
  constexpr MemberSpec kMembers[kCount] = {
      {"TargetTableName", Shape::kString},
      {"BackupArn", Shape::kString},
      {"BillingModeOverride", Shape::kString},
      {"GlobalSecondaryIndexOverride", Shape::kGlobalSecondaryIndexes},
      {"LocalSecondaryIndexOverride", Shape::kLocalSecondaryIndexes},
      {"ProvisionedThroughputOverride", Shape::kProvisionedThroughput},
      {"OnDemandThroughputOverride", Shape::kStructure},
      {"SSESpecificationOverride", Shape::kStructure}};
  std::array<const JsonValue*, kCount> m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "RestoreTableFromBackup", kMembers, m));
  const TableOverrideMembers overrides{m[kBilling], m[kThroughput], m[kLsi], m[kGsi]};
  Constraints c;
  c.Required(m[kTarget], "targetTableName");
  c.Name(m[kTarget], "targetTableName");
  c.Required(m[kArn], "backupArn");
  if (m[kArn] != nullptr) c.violations().Length(StringOf(*m[kArn]), 37, 1024, "backupArn");
  TableOverrideConstraints(c, overrides);
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());
  RestoreTableFromBackupRequest request;
  request.target_table_name = Str(m[kTarget]);
  request.backup_arn = Str(m[kArn]);
  DecodeTableOverrides(overrides, &request);
  request.on_demand_throughput_override = m[kOnDemand] != nullptr;
  request.sse_specification_override = m[kSse] != nullptr;
  return request;
}

std::string EncodeRestoreTableFromBackupRequest(const RestoreTableFromBackupRequest& request) {
  return Answer([&](JsonWriter& w) {
    Key(w, "TargetTableName", request.target_table_name);
    Key(w, "BackupArn", request.backup_arn);
    client_control::WriteTableOverrideMembers(request, w);
    client_control::WriteGivenOverrideMembers(request.on_demand_throughput_override,
                                              request.sse_specification_override, w);
  });
}

std::string EncodeCreateBackupResult(const CreateBackupResult& result) {
  return Answer([&](JsonWriter& w) {
    w.Key("BackupDetails");
    w.StartObject();
    WriteDetails(result.backup_details, w);
    w.EndObject();
  });
}

Result<CreateBackupResult> DecodeCreateBackupResult(const JsonValue& body) {
  return ReadBody<CreateBackupResult>(
      body, "CreateBackup", [](const ResponseObject& o, CreateBackupResult& out) {
        o.Object("BackupDetails",
                 [&](const ResponseObject& d) { ReadDetails(d, &out.backup_details); });
      });
}

std::string EncodeDescribeBackupResult(const DescribeBackupResult& result) {
  return Answer([&](JsonWriter& w) { WriteDescription(result.backup_description, w); });
}

Result<DescribeBackupResult> DecodeDescribeBackupResult(const JsonValue& body) {
  return ReadBody<DescribeBackupResult>(body, "DescribeBackup",
                                        [](const ResponseObject& o, DescribeBackupResult& out) {
                                          ReadDescription(o, &out.backup_description);
                                        });
}

std::string EncodeDeleteBackupResult(const DeleteBackupResult& result) {
  return Answer([&](JsonWriter& w) { WriteDescription(result.backup_description, w); });
}

Result<DeleteBackupResult> DecodeDeleteBackupResult(const JsonValue& body) {
  return ReadBody<DeleteBackupResult>(body, "DeleteBackup",
                                      [](const ResponseObject& o, DeleteBackupResult& out) {
                                        ReadDescription(o, &out.backup_description);
                                      });
}

std::string EncodeListBackupsResult(const ListBackupsResult& result) {
  return Answer([&](JsonWriter& w) {
    w.Key("BackupSummaries");
    w.StartArray();
    for (const BackupSummary& s : result.backup_summaries) {
      w.StartObject();
      Key(w, "TableName", s.table_name);
      Key(w, "TableId", s.table_id);
      Key(w, "TableArn", s.table_arn);
      WriteDetails(s.details, w);
      w.EndObject();
    }
    w.EndArray();
    if (result.last_evaluated_backup_arn) {
      Key(w, "LastEvaluatedBackupArn", *result.last_evaluated_backup_arn);
    }
  });
}

Result<ListBackupsResult> DecodeListBackupsResult(const JsonValue& body) {
  return ReadBody<ListBackupsResult>(
      body, "ListBackups", [](const ResponseObject& o, ListBackupsResult& out) {
        o.Objects("BackupSummaries", [&](const ResponseObject& x) {
          BackupSummary& summary = out.backup_summaries.emplace_back();
          x.String("TableName", &summary.table_name);
          x.String("TableId", &summary.table_id);
          x.String("TableArn", &summary.table_arn);
          ReadDetails(x, &summary.details);
        });
        o.String("LastEvaluatedBackupArn", &out.last_evaluated_backup_arn);
      });
}

std::string EncodeRestoreTableFromBackupResult(const RestoreTableFromBackupResult& result) {
  return Answer([&](JsonWriter& w) {
    w.Key("TableDescription");
    WriteTableDescription(result.table_description, w);
  });
}

Result<RestoreTableFromBackupResult> DecodeRestoreTableFromBackupResult(const JsonValue& body) {
  return ReadBody<RestoreTableFromBackupResult>(
      body, "RestoreTableFromBackup",
      [](const ResponseObject& o, RestoreTableFromBackupResult& out) {
        client_control::ReadTableDescription(o, "TableDescription", &out.table_description);
      });
}

}  // namespace partstore::protocol
