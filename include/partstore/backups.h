// On-demand backups (DynamoDB's CreateBackup, DescribeBackup, ListBackups, DeleteBackup,
// RestoreTableFromBackup): one table at one point in time, kept apart from the table, restored
// into a new table.
//
// A backup is taken as a snapshot is (partstore/snapshot.h): the table's stripes held shared
// while each item's handle is copied, so it costs no copy of item data and a transaction is in
// it whole or not at all. It keeps what DynamoDB's backups keep: the key schema, attribute
// definitions, billing mode and throughput, the LSIs and GSIs, and every item. As on DynamoDB a
// restored table does not get the source's stream, TTL or point-in-time recovery settings (nor
// partstore's write-sharding policies): set them again on the restored table.
//
// Where backups live: with a data directory (partstore/persistence.h) each is also written to
// DIR/backups/<backup id>.backup (the snapshot's block format, fsynced and renamed into place) and
// they are all read back when the database opens, so they outlive the process as DynamoDB's do;
// without one they live as long as the Database. Deleting a table does not delete its backups.
//
// Restores: RestoreTableFromBackup creates the target table at once, with the items, and answers
// its description (DynamoDB answers CREATING and restores in the background; partstore's restore
// is done when the call returns). BillingModeOverride and ProvisionedThroughputOverride apply;
// GlobalSecondaryIndexOverride / LocalSecondaryIndexOverride replace the backup's indexes (an
// empty list: none); SSE and on-demand throughput overrides are not modelled and are refused.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "partstore/table_requests.h"

namespace partstore {

enum class BackupStatus { kCreating, kDeleted, kAvailable };
std::string_view BackupStatusName(BackupStatus status);  // CREATING, DELETED, AVAILABLE

struct BackupDetails {
  std::string backup_arn{};  // <table ARN>/backup/<14 digits>-<8 hex>
  std::string backup_name{};
  int64_t backup_size_bytes = 0;  // the items' DynamoDB sizes
  BackupStatus backup_status = BackupStatus::kAvailable;
  std::string backup_type = "USER";
  double backup_creation_date_time = 0;  // seconds since the epoch
};

// The source table as it was when the backup was taken.
struct SourceTableDetails {
  std::string table_name{};
  std::string table_id{};
  std::string table_arn{};
  int64_t table_size_bytes = 0;
  std::vector<KeySchemaElement> key_schema{};
  double table_creation_date_time = 0;
  ProvisionedThroughputDescription provisioned_throughput{};
  int64_t item_count = 0;
  BillingMode billing_mode = BillingMode::kProvisioned;
};

struct BackupDescription {
  BackupDetails backup_details{};
  SourceTableDetails source_table_details{};
  // SourceTableFeatureDetails: the indexes the backup holds (their definitions).
  std::vector<LocalSecondaryIndex> local_secondary_indexes{};
  std::vector<GlobalSecondaryIndex> global_secondary_indexes{};
};

struct CreateBackupRequest {
  std::string table_name{};
  std::string backup_name{};  // 3..255 of [a-zA-Z0-9_.-]
};
struct CreateBackupResult {
  BackupDetails backup_details{};
};

struct DescribeBackupRequest {
  std::string backup_arn{};
};
struct DescribeBackupResult {
  BackupDescription backup_description{};
};

struct ListBackupsRequest {
  std::optional<std::string> table_name{};
  std::optional<int64_t> limit{};                  // 1..100
  std::optional<double> time_range_lower_bound{};  // creation times, inclusive
  std::optional<double> time_range_upper_bound{};  // exclusive
  std::optional<std::string> exclusive_start_backup_arn{};
  std::optional<std::string> backup_type{};  // USER, SYSTEM, AWS_BACKUP, ALL (default USER)
};
struct BackupSummary {
  std::string table_name{};
  std::string table_id{};
  std::string table_arn{};
  BackupDetails details{};
};
struct ListBackupsResult {
  std::vector<BackupSummary> backup_summaries{};  // oldest first
  std::optional<std::string> last_evaluated_backup_arn{};
};

struct DeleteBackupRequest {
  std::string backup_arn{};
};
struct DeleteBackupResult {
  BackupDescription backup_description{};  // backup_status DELETED
};

struct RestoreTableFromBackupRequest {
  std::string target_table_name{};
  std::string backup_arn{};
  std::optional<BillingMode> billing_mode_override{};
  std::optional<ProvisionedThroughput> provisioned_throughput_override{};
  std::optional<std::vector<GlobalSecondaryIndex>> global_secondary_index_override{};
  std::optional<std::vector<LocalSecondaryIndex>> local_secondary_index_override{};
  bool sse_specification_override = false;     // given: refused (not modelled)
  bool on_demand_throughput_override = false;  // given: refused (not modelled)
};
struct RestoreTableFromBackupResult {
  TableDescription table_description{};
};

}  // namespace partstore
