// Continuous backups (DynamoDB's UpdateContinuousBackups / DescribeContinuousBackups), answered
// for what partstore keeps.
//
// DynamoDB reports ContinuousBackupsStatus ENABLED for every table, and point-in-time recovery
// DISABLED until it is enabled. Once enabled, DynamoDB can restore or export any second of the
// recovery period. partstore keeps no history of a table's past states (the write-ahead log is
// truncated at every snapshot), so the one point it can serve is the present: while recovery is
// enabled, EarliestRestorableDateTime and LatestRestorableDateTime are both the moment of the
// answer, and ExportTableToPointInTime takes the present (an ExportTime more than a second in the
// past is refused with InvalidExportTimeException naming this). Enabling recovery is what
// DynamoDB requires before an export (PointInTimeRecoveryUnavailableException otherwise), and so
// does partstore. The setting is not kept by snapshots or the log.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

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

}  // namespace partstore
