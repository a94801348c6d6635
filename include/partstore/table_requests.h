// The control-plane requests and results: CreateTable, DeleteTable, DescribeTable, ListTables,
// UpdateTable. Each struct mirrors DynamoDB's operation member for member (names in snake_case),
// so the JSON protocol is a one-to-one translation; optional members are std::optional where
// DynamoDB tells "absent" from any value.
//
// Thread safety: value types.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "partstore/key.h"
#include "partstore/table_settings.h"

namespace partstore {

enum class BillingMode : uint8_t { kProvisioned, kPayPerRequest };
enum class TableStatus : uint8_t { kCreating, kUpdating, kDeleting, kActive };

// "PROVISIONED" / "PAY_PER_REQUEST"; "CREATING", "UPDATING", "DELETING", "ACTIVE".
std::string_view BillingModeName(BillingMode mode);
std::string_view TableStatusName(TableStatus status);

// AttributeDefinition: a key attribute's name and type.
struct AttributeDefinition {
  std::string attribute_name{};
  KeyType attribute_type = KeyType::kString;
  friend bool operator==(const AttributeDefinition&, const AttributeDefinition&) = default;
};

// KeySchemaElement: HASH or RANGE.
enum class KeyRoleName : uint8_t { kHash, kRange };
struct KeySchemaElement {
  std::string attribute_name{};
  KeyRoleName key_type = KeyRoleName::kHash;
  friend bool operator==(const KeySchemaElement&, const KeySchemaElement&) = default;
};

struct ProvisionedThroughput {
  int64_t read_capacity_units = 0;
  int64_t write_capacity_units = 0;
  friend bool operator==(const ProvisionedThroughput&, const ProvisionedThroughput&) = default;
};

// Projection: which attributes an index entry carries besides the keys.
enum class ProjectionType : uint8_t { kKeysOnly, kInclude, kAll };
// "KEYS_ONLY", "INCLUDE", "ALL".
std::string_view ProjectionTypeName(ProjectionType type);
struct Projection {
  std::optional<ProjectionType> projection_type{};  // required by DynamoDB despite its docs
  std::optional<std::vector<std::string>> non_key_attributes{};  // INCLUDE only
  friend bool operator==(const Projection&, const Projection&) = default;
};

// LocalSecondaryIndex: the table's partition key, another sort key (CreateTable only).
struct LocalSecondaryIndex {
  std::string index_name{};
  std::vector<KeySchemaElement> key_schema{};
  Projection projection{};
};

// GlobalSecondaryIndex: any partition key and optional sort key.
struct GlobalSecondaryIndex {
  std::string index_name{};
  std::vector<KeySchemaElement> key_schema{};
  Projection projection{};
  std::optional<ProvisionedThroughput> provisioned_throughput{};  // provisioned tables only
  // partstore/table_settings.h, as the table's: the maximum on on-demand tables only; warm
  // throughput at least what the index is provisioned for (or on-demand's initial units).
  std::optional<OnDemandThroughput> on_demand_throughput{};
  std::optional<WarmThroughput> warm_throughput{};
};

inline constexpr size_t kMaxLocalSecondaryIndexes = 5;
inline constexpr size_t kMaxGlobalSecondaryIndexes = 20;
inline constexpr size_t kMaxProjectedAttributes = 100;  // NonKeyAttributes over all indexes

// A table's change feed (partstore/streams.h). KEYS_ONLY: the key attributes of the changed item;
// NEW_IMAGE / OLD_IMAGE: the whole item after / before the change; NEW_AND_OLD_IMAGES: both.
enum class StreamViewType : uint8_t { kKeysOnly, kNewImage, kOldImage, kNewAndOldImages };
// Enabling requires a view type, disabling forbids one (ValidationException); UpdateTable cannot
// change the view type of an enabled stream (disable, then enable: a new stream).
struct StreamSpecification {
  bool stream_enabled = false;
  std::optional<StreamViewType> stream_view_type{};
  friend bool operator==(const StreamSpecification&, const StreamSpecification&) = default;
};

struct CreateTableRequest {
  std::string table_name{};
  std::vector<AttributeDefinition> attribute_definitions{};
  std::vector<KeySchemaElement> key_schema{};
  std::vector<LocalSecondaryIndex> local_secondary_indexes{};
  std::vector<GlobalSecondaryIndex> global_secondary_indexes{};
  std::optional<BillingMode> billing_mode{};  // absent: PROVISIONED
  std::optional<ProvisionedThroughput> provisioned_throughput{};
  std::optional<StreamSpecification> stream_specification{};
  // partstore/table_settings.h.
  std::vector<Tag> tags{};
  std::optional<TableClass> table_class{};
  std::optional<bool> deletion_protection_enabled{};
  std::optional<SseSpecification> sse_specification{};
  std::optional<OnDemandThroughput> on_demand_throughput{};
  std::optional<WarmThroughput> warm_throughput{};
};

// Builds the CreateTableRequest of a table with `key` (attribute definitions and key schema
// derived from it) and on-demand billing: the common case, for C++ callers.
CreateTableRequest SimpleTable(std::string name, const KeySchema& key);

struct ProvisionedThroughputDescription {
  int64_t read_capacity_units = 0;  // 0 for on-demand tables
  int64_t write_capacity_units = 0;
  int64_t number_of_decreases_today = 0;
  std::optional<double> last_increase_date_time{};  // seconds since the epoch
  std::optional<double> last_decrease_date_time{};
};

enum class IndexStatus : uint8_t { kCreating, kUpdating, kDeleting, kActive };
// "CREATING", "UPDATING", "DELETING", "ACTIVE".
std::string_view IndexStatusName(IndexStatus status);

struct LocalSecondaryIndexDescription {
  std::string index_name{};
  std::string index_arn{};
  std::vector<KeySchemaElement> key_schema{};
  Projection projection{};
  int64_t index_size_bytes = 0;
  int64_t item_count = 0;
};

struct GlobalSecondaryIndexDescription {
  std::string index_name{};
  std::string index_arn{};
  IndexStatus index_status = IndexStatus::kActive;
  std::vector<KeySchemaElement> key_schema{};
  Projection projection{};
  ProvisionedThroughputDescription provisioned_throughput{};  // zeros for on-demand tables
  std::optional<OnDemandThroughput> on_demand_throughput{};
  std::optional<WarmThroughput> warm_throughput{};
  int64_t index_size_bytes = 0;
  int64_t item_count = 0;
};

struct TableDescription {
  std::string table_name{};
  std::string table_arn{};
  std::string table_id{};
  TableStatus table_status = TableStatus::kActive;
  double creation_date_time = 0;  // seconds since the epoch
  std::vector<AttributeDefinition> attribute_definitions{};
  std::vector<KeySchemaElement> key_schema{};
  ProvisionedThroughputDescription provisioned_throughput{};
  BillingMode billing_mode = BillingMode::kProvisioned;
  // BillingModeSummary.LastUpdateToPayPerRequestDateTime, when the mode was ever switched.
  std::optional<double> last_update_to_pay_per_request_date_time{};
  int64_t item_count = 0;
  int64_t table_size_bytes = 0;
  std::vector<LocalSecondaryIndexDescription> local_secondary_indexes{};
  std::vector<GlobalSecondaryIndexDescription> global_secondary_indexes{};
  // While a stream is enabled; the latest stream's ARN and label once one was ever enabled.
  std::optional<StreamSpecification> stream_specification{};
  std::optional<std::string> latest_stream_arn{};
  std::optional<std::string> latest_stream_label{};
  // partstore/table_settings.h. TableClassSummary once a class was set (and when it last
  // changed); SSEDescription while a KMS key encrypts the table.
  bool deletion_protection_enabled = false;
  std::optional<TableClass> table_class{};
  std::optional<double> table_class_last_update_date_time{};
  std::optional<SseDescription> sse_description{};
  std::optional<OnDemandThroughput> on_demand_throughput{};
  std::optional<WarmThroughput> warm_throughput{};
};

struct CreateTableResult {
  TableDescription table_description{};
};

struct DeleteTableRequest {
  std::string table_name{};
};
struct DeleteTableResult {
  TableDescription table_description{};
};

struct DescribeTableRequest {
  std::string table_name{};
};
struct DescribeTableResult {
  TableDescription table{};
};

struct ListTablesRequest {
  std::optional<std::string> exclusive_start_table_name{};
  std::optional<int32_t> limit{};  // 1..100; absent: 100
};
struct ListTablesResult {
  std::vector<std::string> table_names{};
  std::optional<std::string> last_evaluated_table_name{};
};

// One entry of UpdateTable's GlobalSecondaryIndexUpdates: exactly one of the three actions.
struct GlobalSecondaryIndexUpdate {
  // At least one of the three; ProvisionedThroughput on provisioned tables, OnDemandThroughput
  // on on-demand ones. WarmThroughput is only ever raised.
  struct Update {
    std::string index_name{};
    std::optional<ProvisionedThroughput> provisioned_throughput{};
    std::optional<OnDemandThroughput> on_demand_throughput{};
    std::optional<WarmThroughput> warm_throughput{};
  };
  struct Delete {
    std::string index_name{};
  };
  std::optional<GlobalSecondaryIndex> create{};
  std::optional<Update> update{};
  std::optional<Delete> remove{};  // DynamoDB's "Delete"
};

struct UpdateTableRequest {
  std::string table_name{};
  std::optional<BillingMode> billing_mode{};
  std::optional<ProvisionedThroughput> provisioned_throughput{};
  std::vector<AttributeDefinition> attribute_definitions{};  // the new index's key attributes
  std::optional<std::vector<GlobalSecondaryIndexUpdate>> global_secondary_index_updates{};
  std::optional<StreamSpecification> stream_specification{};
  // partstore/table_settings.h. TableClass, DeletionProtectionEnabled, SSESpecification and
  // WarmThroughput must each be the only change of their request; OnDemandThroughput may come
  // with BillingMode.
  std::optional<TableClass> table_class{};
  std::optional<bool> deletion_protection_enabled{};
  std::optional<SseSpecification> sse_specification{};
  std::optional<OnDemandThroughput> on_demand_throughput{};
  std::optional<WarmThroughput> warm_throughput{};
};
struct UpdateTableResult {
  TableDescription table_description{};
};

}  // namespace partstore
