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

#include "core/key.h"

namespace partstore {

enum class BillingMode : uint8_t { kProvisioned, kPayPerRequest };
enum class TableStatus : uint8_t { kCreating, kUpdating, kDeleting, kActive };

// "PROVISIONED" / "PAY_PER_REQUEST"; "CREATING", "UPDATING", "DELETING", "ACTIVE".
std::string_view BillingModeName(BillingMode mode);
std::string_view TableStatusName(TableStatus status);

// AttributeDefinition: a key attribute's name and type.
struct AttributeDefinition {
  std::string attribute_name;
  KeyType attribute_type = KeyType::kString;
  friend bool operator==(const AttributeDefinition&, const AttributeDefinition&) = default;
};

// KeySchemaElement: HASH or RANGE.
enum class KeyRoleName : uint8_t { kHash, kRange };
struct KeySchemaElement {
  std::string attribute_name;
  KeyRoleName key_type = KeyRoleName::kHash;
  friend bool operator==(const KeySchemaElement&, const KeySchemaElement&) = default;
};

struct ProvisionedThroughput {
  int64_t read_capacity_units = 0;
  int64_t write_capacity_units = 0;
  friend bool operator==(const ProvisionedThroughput&, const ProvisionedThroughput&) = default;
};

struct CreateTableRequest {
  std::string table_name;
  std::vector<AttributeDefinition> attribute_definitions;
  std::vector<KeySchemaElement> key_schema;
  std::optional<BillingMode> billing_mode;  // absent: PROVISIONED
  std::optional<ProvisionedThroughput> provisioned_throughput;
};

// Builds the CreateTableRequest of a table with `key` (attribute definitions and key schema
// derived from it) and on-demand billing: the common case, for C++ callers.
CreateTableRequest SimpleTable(std::string name, const KeySchema& key);

struct ProvisionedThroughputDescription {
  int64_t read_capacity_units = 0;  // 0 for on-demand tables
  int64_t write_capacity_units = 0;
  int64_t number_of_decreases_today = 0;
  std::optional<double> last_increase_date_time;  // seconds since the epoch
  std::optional<double> last_decrease_date_time;
};

struct TableDescription {
  std::string table_name;
  std::string table_arn;
  std::string table_id;
  TableStatus table_status = TableStatus::kActive;
  double creation_date_time = 0;  // seconds since the epoch
  std::vector<AttributeDefinition> attribute_definitions;
  std::vector<KeySchemaElement> key_schema;
  ProvisionedThroughputDescription provisioned_throughput;
  BillingMode billing_mode = BillingMode::kProvisioned;
  // BillingModeSummary.LastUpdateToPayPerRequestDateTime, when the mode was ever switched.
  std::optional<double> last_update_to_pay_per_request_date_time;
  int64_t item_count = 0;
  int64_t table_size_bytes = 0;
};

struct CreateTableResult {
  TableDescription table_description;
};

struct DeleteTableRequest {
  std::string table_name;
};
struct DeleteTableResult {
  TableDescription table_description;
};

struct DescribeTableRequest {
  std::string table_name;
};
struct DescribeTableResult {
  TableDescription table;
};

struct ListTablesRequest {
  std::optional<std::string> exclusive_start_table_name;
  std::optional<int32_t> limit;  // 1..100; absent: 100
};
struct ListTablesResult {
  std::vector<std::string> table_names;
  std::optional<std::string> last_evaluated_table_name;
};

struct UpdateTableRequest {
  std::string table_name;
  std::optional<BillingMode> billing_mode;
  std::optional<ProvisionedThroughput> provisioned_throughput;
  std::vector<AttributeDefinition> attribute_definitions;  // for index creation (later)
};
struct UpdateTableResult {
  TableDescription table_description;
};

}  // namespace partstore
