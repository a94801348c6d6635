// Continuous backups (DynamoDB's UpdateContinuousBackups / DescribeContinuousBackups), answered
// for what partstore keeps.
//
// DynamoDB reports ContinuousBackupsStatus ENABLED for every table, and point-in-time recovery
// DISABLED until it is enabled. Once enabled, DynamoDB can restore or export any second of the
// recovery period. partstore keeps no history of a table's past states (the write-ahead log is
// truncated at every snapshot), so the one point it can serve is the present: while recovery is
// enabled, EarliestRestorableDateTime and LatestRestorableDateTime are both the moment of the
// answer, and ExportTableToPointInTime takes the present (an ExportTime more than a second in the
// past is refused with InvalidExportTimeException naming this), and RestoreTableToPointInTime
// restores the present. Enabling recovery is what
// DynamoDB requires before an export (PointInTimeRecoveryUnavailableException otherwise), and so
// does partstore. The setting is not kept by snapshots or the log.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "partstore/table_requests.h"

namespace partstore {

enum class PointInTimeRecoveryStatus { kEnabled, kDisabled };

struct PointInTimeRecoveryDescription {
  PointInTimeRecoveryStatus point_in_time_recovery_status = PointInTimeRecoveryStatus::kDisabled;
  // While enabled: seconds since the epoch (both the present, see above).
  std::optional<double> earliest_restorable_date_time{};
  std::optional<double> latest_restorable_date_time{};
  std::optional<int64_t> recovery_period_in_days{};  // while enabled; 1..35, default 35
};

struct ContinuousBackupsDescription {
  // Always ENABLED, as DynamoDB's.
  bool continuous_backups_enabled = true;
  PointInTimeRecoveryDescription point_in_time_recovery_description{};
};

struct UpdateContinuousBackupsRequest {
  std::string table_name{};
  // PointInTimeRecoverySpecification.
  bool point_in_time_recovery_enabled = false;
  std::optional<int64_t> recovery_period_in_days{};  // 1..35; only with recovery enabled
};

struct DescribeContinuousBackupsRequest {
  std::string table_name{};
};

struct ContinuousBackupsResult {
  ContinuousBackupsDescription continuous_backups_description{};
};

// RestoreTableToPointInTime: a new table from the source as it is now (the one restorable point;
// a RestoreDateTime more than a second from the present is InvalidRestoreTimeException), with
// the overrides of a restore from a backup (partstore/backups.h: what is restored and what is not
// is the same). Exactly one of the source's name and ARN; PointInTimeRecoveryUnavailableException
// while recovery is disabled on it; TableAlreadyExistsException for an existing target.
struct RestoreTableToPointInTimeRequest {
  std::optional<std::string> source_table_arn{};
  std::optional<std::string> source_table_name{};
  std::string target_table_name{};
  bool use_latest_restorable_time = false;
  std::optional<double> restore_date_time{};  // seconds since the epoch
  std::optional<BillingMode> billing_mode_override{};
  std::optional<ProvisionedThroughput> provisioned_throughput_override{};
  std::optional<std::vector<GlobalSecondaryIndex>> global_secondary_index_override{};
  std::optional<std::vector<LocalSecondaryIndex>> local_secondary_index_override{};
  bool sse_specification_override = false;     // given: refused (not modelled)
  bool on_demand_throughput_override = false;  // given: refused (not modelled)
};
struct RestoreTableToPointInTimeResult {
  TableDescription table_description{};
};

}  // namespace partstore
