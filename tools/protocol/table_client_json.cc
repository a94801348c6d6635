// The client's direction of CreateTable, DeleteTable, DescribeTable, ListTables and UpdateTable
// (client_control_json.h): the request encoders and the result decoders, the reverse of
// table_json.cc's request decoders and result encoders. The enum spellings both directions use are
// request_json.h's k*Names tables, the key schema's writer table_json.cc's WriteKeySchema.
#include <rapidjson/stringbuffer.h>

#include "tools/protocol/client_control_json.h"
#include "tools/protocol/operations_json.h"
#include "tools/protocol/request_json.h"

namespace partstore::protocol {

// ---- Request encoders ----

namespace {

using client_control::WriteIndexThroughputMembers;

// `key`: "ProvisionedThroughput" or "ProvisionedThroughputOverride".
void WriteThroughputRequest(std::string_view key, const std::optional<ProvisionedThroughput>& t,
                            JsonWriter& w) {
  if (!t) return;
  Key(w, key);
  w.StartObject();
  Key(w, "ReadCapacityUnits");
  w.Int64(t->read_capacity_units);
  Key(w, "WriteCapacityUnits");
  w.Int64(t->write_capacity_units);
  w.EndObject();
}

// A request's Projection: each member as set (the description's writer drops NonKeyAttributes
// unless INCLUDE; a request carries what the caller gave).
void WriteProjectionRequest(const Projection& projection, JsonWriter& w) {
  Key(w, "Projection");
  w.StartObject();
  if (projection.projection_type) {
    Key(w, "ProjectionType");
    String(w, ProjectionTypeName(*projection.projection_type));
  }
  if (projection.non_key_attributes) {
    Key(w, "NonKeyAttributes");
    w.StartArray();
    for (const std::string& name : *projection.non_key_attributes) String(w, name);
    w.EndArray();
  }
  w.EndObject();
}

// GlobalSecondaryIndex and CreateGlobalSecondaryIndexAction alike.
void WriteGlobalIndexRequest(const GlobalSecondaryIndex& index, JsonWriter& w) {
  w.StartObject();
  Key(w, "IndexName");
  String(w, index.index_name);
  Key(w, "KeySchema");
  WriteKeySchema(index.key_schema, w);
  WriteProjectionRequest(index.projection, w);
  WriteThroughputRequest("ProvisionedThroughput", index.provisioned_throughput, w);
  WriteIndexThroughputMembers(index.on_demand_throughput, index.warm_throughput, w);
  w.EndObject();
}

void WriteGlobalIndexesRequest(std::string_view key, const std::vector<GlobalSecondaryIndex>& list,
                               JsonWriter& w) {
  Key(w, key);
  w.StartArray();
  for (const GlobalSecondaryIndex& index : list) WriteGlobalIndexRequest(index, w);
  w.EndArray();
}

void WriteLocalIndexesRequest(std::string_view key, const std::vector<LocalSecondaryIndex>& list,
                              JsonWriter& w) {
  Key(w, key);
  w.StartArray();
  for (const LocalSecondaryIndex& index : list) {
    w.StartObject();
    Key(w, "IndexName");
    String(w, index.index_name);
    Key(w, "KeySchema");
    WriteKeySchema(index.key_schema, w);
    WriteProjectionRequest(index.projection, w);
    w.EndObject();
  }
  w.EndArray();
}

void WriteStreamSpecificationRequest(const std::optional<StreamSpecification>& spec,
                                     JsonWriter& w) {
  if (!spec) return;
  Key(w, "StreamSpecification");
  w.StartObject();
  Key(w, "StreamEnabled");
  w.Bool(spec->stream_enabled);
  if (spec->stream_view_type) {
    Key(w, "StreamViewType");
    String(w, StreamViewTypeName(*spec->stream_view_type));
  }
  w.EndObject();
}

void WriteBillingMode(std::string_view key, const std::optional<BillingMode>& mode, JsonWriter& w) {
  if (!mode) return;
  Key(w, key);
  String(w, BillingModeName(*mode));
}

std::string EncodeTableName(const std::string& table_name) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  Key(w, "TableName");
  String(w, table_name);
  w.EndObject();
  return Finish(buffer);
}

template <typename Request>
void WriteOverrides(const Request& request, JsonWriter& w) {
  WriteBillingMode("BillingModeOverride", request.billing_mode_override, w);
  if (request.global_secondary_index_override) {
    WriteGlobalIndexesRequest("GlobalSecondaryIndexOverride",
                              *request.global_secondary_index_override, w);
  }
  if (request.local_secondary_index_override) {
    WriteLocalIndexesRequest("LocalSecondaryIndexOverride", *request.local_secondary_index_override,
                             w);
  }
  WriteThroughputRequest("ProvisionedThroughputOverride", request.provisioned_throughput_override,
                         w);
}

}  // namespace

void client_control::WriteTableOverrideMembers(const RestoreTableFromBackupRequest& request,
                                               JsonWriter& w) {
  WriteOverrides(request, w);
}

void client_control::WriteTableOverrideMembers(const RestoreTableToPointInTimeRequest& request,
                                               JsonWriter& w) {
  WriteOverrides(request, w);
}

void client_control::WriteGivenOverrideMembers(bool on_demand_throughput, bool sse_specification,
                                               JsonWriter& w) {
  if (on_demand_throughput) {
    Key(w, "OnDemandThroughputOverride");
    w.StartObject();
    w.EndObject();
  }
  if (sse_specification) {
    Key(w, "SSESpecificationOverride");
    w.StartObject();
    w.EndObject();
  }
}

std::string EncodeCreateTableRequest(const CreateTableRequest& request) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteAttributeDefinitions(request.attribute_definitions, w);
  Key(w, "TableName");
  String(w, request.table_name);
  Key(w, "KeySchema");
  WriteKeySchema(request.key_schema, w);
  if (!request.local_secondary_indexes.empty()) {
    WriteLocalIndexesRequest("LocalSecondaryIndexes", request.local_secondary_indexes, w);
  }
  if (!request.global_secondary_indexes.empty()) {
    WriteGlobalIndexesRequest("GlobalSecondaryIndexes", request.global_secondary_indexes, w);
  }
  WriteBillingMode("BillingMode", request.billing_mode, w);
  WriteThroughputRequest("ProvisionedThroughput", request.provisioned_throughput, w);
  WriteStreamSpecificationRequest(request.stream_specification, w);
  client_control::WriteSettingsMembers(request, w);
  w.EndObject();
  return Finish(buffer);
}

std::string EncodeDeleteTableRequest(const DeleteTableRequest& request) {
  return EncodeTableName(request.table_name);
}

std::string EncodeDescribeTableRequest(const DescribeTableRequest& request) {
  return EncodeTableName(request.table_name);
}

std::string EncodeListTablesRequest(const ListTablesRequest& request) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  if (request.exclusive_start_table_name) {
    Key(w, "ExclusiveStartTableName");
    String(w, *request.exclusive_start_table_name);
  }
  if (request.limit) {
    Key(w, "Limit");
    w.Int(*request.limit);
  }
  w.EndObject();
  return Finish(buffer);
}

std::string EncodeUpdateTableRequest(const UpdateTableRequest& request) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  if (!request.attribute_definitions.empty()) {
    WriteAttributeDefinitions(request.attribute_definitions, w);
  }
  Key(w, "TableName");
  String(w, request.table_name);
  WriteBillingMode("BillingMode", request.billing_mode, w);
  WriteThroughputRequest("ProvisionedThroughput", request.provisioned_throughput, w);
  if (request.global_secondary_index_updates) {
    Key(w, "GlobalSecondaryIndexUpdates");
    w.StartArray();
    for (const GlobalSecondaryIndexUpdate& update : *request.global_secondary_index_updates) {
      w.StartObject();
      if (update.update) {
        Key(w, "Update");
        w.StartObject();
        Key(w, "IndexName");
        String(w, update.update->index_name);
        WriteThroughputRequest("ProvisionedThroughput", update.update->provisioned_throughput, w);
        WriteIndexThroughputMembers(update.update->on_demand_throughput,
                                    update.update->warm_throughput, w);
        w.EndObject();
      }
      if (update.create) {
        Key(w, "Create");
        WriteGlobalIndexRequest(*update.create, w);
      }
      if (update.remove) {
        Key(w, "Delete");
        w.StartObject();
        Key(w, "IndexName");
        String(w, update.remove->index_name);
        w.EndObject();
      }
      w.EndObject();
    }
    w.EndArray();
  }
  WriteStreamSpecificationRequest(request.stream_specification, w);
  client_control::WriteSettingsMembers(request, w);
  w.EndObject();
  return Finish(buffer);
}

// ---- Result decoders ----

namespace {

std::string_view KeyRoleText(KeyRoleName role) { return kKeyTypeNames[static_cast<size_t>(role)]; }

void ReadThroughputDescription(const ResponseObject& o, ProvisionedThroughputDescription* out) {
  o.Double("LastIncreaseDateTime", &out->last_increase_date_time);
  o.Double("LastDecreaseDateTime", &out->last_decrease_date_time);
  o.Int64("NumberOfDecreasesToday", &out->number_of_decreases_today);
  o.Int64("ReadCapacityUnits", &out->read_capacity_units);
  o.Int64("WriteCapacityUnits", &out->write_capacity_units);
}

void ReadTableMembers(const ResponseObject& t, TableDescription* out) {
  t.Objects("AttributeDefinitions", [&](const ResponseObject& o) {
    AttributeDefinition& definition = out->attribute_definitions.emplace_back();
    o.String("AttributeName", &definition.attribute_name);
    o.Enum("AttributeType", KeyTypeName, 3, &definition.attribute_type);
  });
  t.String("TableName", &out->table_name);
  client_control::ReadKeySchema(t, &out->key_schema);
  t.Enum("TableStatus", TableStatusName, 4, &out->table_status);
  t.Double("CreationDateTime", &out->creation_date_time);
  t.Object("ProvisionedThroughput", [&](const ResponseObject& o) {
    ReadThroughputDescription(o, &out->provisioned_throughput);
  });
  t.Int64("TableSizeBytes", &out->table_size_bytes);
  t.Int64("ItemCount", &out->item_count);
  t.String("TableArn", &out->table_arn);
  t.String("TableId", &out->table_id);
  t.Object("BillingModeSummary", [&](const ResponseObject& o) {
    o.Enum("BillingMode", BillingModeName, 2, &out->billing_mode);
    o.Double("LastUpdateToPayPerRequestDateTime", &out->last_update_to_pay_per_request_date_time);
  });
  t.Objects("LocalSecondaryIndexes", [&](const ResponseObject& o) {
    LocalSecondaryIndexDescription& index = out->local_secondary_indexes.emplace_back();
    o.String("IndexName", &index.index_name);
    client_control::ReadKeySchema(o, &index.key_schema);
    client_control::ReadProjection(o, &index.projection);
    o.Int64("IndexSizeBytes", &index.index_size_bytes);
    o.Int64("ItemCount", &index.item_count);
    o.String("IndexArn", &index.index_arn);
  });
  t.Objects("GlobalSecondaryIndexes", [&](const ResponseObject& o) {
    GlobalSecondaryIndexDescription& index = out->global_secondary_indexes.emplace_back();
    o.String("IndexName", &index.index_name);
    client_control::ReadKeySchema(o, &index.key_schema);
    client_control::ReadProjection(o, &index.projection);
    o.Enum("IndexStatus", IndexStatusName, 4, &index.index_status);
    o.Object("ProvisionedThroughput", [&](const ResponseObject& throughput) {
      ReadThroughputDescription(throughput, &index.provisioned_throughput);
    });
    client_control::ReadThroughputSettings(o, &index.on_demand_throughput, &index.warm_throughput);
    o.Int64("IndexSizeBytes", &index.index_size_bytes);
    o.Int64("ItemCount", &index.item_count);
    o.String("IndexArn", &index.index_arn);
  });
  t.Object("StreamSpecification", [&](const ResponseObject& o) {
    StreamSpecification& spec = out->stream_specification.emplace();
    o.Bool("StreamEnabled", &spec.stream_enabled);
    o.Enum("StreamViewType", StreamViewTypeName, 4, &spec.stream_view_type);
  });
  t.String("LatestStreamArn", &out->latest_stream_arn);
  t.String("LatestStreamLabel", &out->latest_stream_label);
  client_control::ReadSettings(t, out);
}

}  // namespace

void client_control::ReadKeySchema(const ResponseObject& object,
                                   std::vector<KeySchemaElement>* out) {
  object.Objects("KeySchema", [&](const ResponseObject& o) {
    KeySchemaElement& key = out->emplace_back();
    o.String("AttributeName", &key.attribute_name);
    o.Enum("KeyType", KeyRoleText, 2, &key.key_type);
  });
}

void client_control::ReadProjection(const ResponseObject& object, Projection* out) {
  object.Object("Projection", [&](const ResponseObject& o) {
    o.Enum("ProjectionType", ProjectionTypeName, 3, &out->projection_type);
    o.StringList("NonKeyAttributes", &out->non_key_attributes);
  });
}

void client_control::ReadTableDescription(const ResponseObject& object, std::string_view member,
                                          TableDescription* out) {
  object.Object(member, [&](const ResponseObject& t) { ReadTableMembers(t, out); });
}

namespace {

// A result whose one member is a TableDescription, at `member`.
template <typename T>
Result<T> ReadDescriptionResult(const JsonValue& body, std::string_view operation,
                                std::string_view member, TableDescription T::*field) {
  return ReadBody<T>(body, operation, [&](const ResponseObject& o, T& out) {
    client_control::ReadTableDescription(o, member, &(out.*field));
  });
}

}  // namespace

Result<CreateTableResult> DecodeCreateTableResult(const JsonValue& body) {
  return ReadDescriptionResult(body, "CreateTable", "TableDescription",
                               &CreateTableResult::table_description);
}

Result<DeleteTableResult> DecodeDeleteTableResult(const JsonValue& body) {
  return ReadDescriptionResult(body, "DeleteTable", "TableDescription",
                               &DeleteTableResult::table_description);
}

Result<DescribeTableResult> DecodeDescribeTableResult(const JsonValue& body) {
  return ReadDescriptionResult(body, "DescribeTable", "Table", &DescribeTableResult::table);
}

Result<UpdateTableResult> DecodeUpdateTableResult(const JsonValue& body) {
  return ReadDescriptionResult(body, "UpdateTable", "TableDescription",
                               &UpdateTableResult::table_description);
}

Result<ListTablesResult> DecodeListTablesResult(const JsonValue& body) {
  return ReadBody<ListTablesResult>(
      body, "ListTables", [](const ResponseObject& o, ListTablesResult& out) {
        o.StringList("TableNames", &out.table_names);
        o.String("LastEvaluatedTableName", &out.last_evaluated_table_name);
      });
}

}  // namespace partstore::protocol
