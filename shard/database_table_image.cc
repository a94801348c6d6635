// Database::ReadTableImage (partstore/table_image.h), and continuous backups
// (partstore/continuous_backups.h), which say what point in time an image can be taken at.
#include <fmt/format.h>

#include <mutex>
#include <shared_mutex>

#include "partstore/database.h"
#include "shard/constraints.h"
#include "shard/database_state.h"
#include "shard/stripe_locks.h"

namespace partstore {

Result<TableImage> Database::ReadTableImage(std::string_view table_name) {
  auto run = [&]() -> Result<TableImage> {
    PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table, state_->GetTable(table_name));
    TableImage image;
    StripeLocks locks;
    for (size_t i = 0; i < table->stripes().size(); ++i) locks.Add(&table->stripes().at(i));
    locks.LockShared();
    table->CopyItems(&image.items);
    image.time = state_->EpochSeconds();
    locks.Unlock();
    image.table = table->Describe();
    return image;
  };
  return state_->Shown(run());
}

namespace {

Status TableImageNotFound(std::string_view name) {
  return Status(Code::kTableNotFound, fmt::format("Table not found: {}", name));
}

}  // namespace

static ContinuousBackupsResult Describe(const Table& table, double now) {
  ContinuousBackupsResult result;
  PointInTimeRecoveryDescription& pitr =
      result.continuous_backups_description.point_in_time_recovery_description;
  if (const int64_t days = table.recovery_period_days(); days > 0) {
    pitr.point_in_time_recovery_status = PointInTimeRecoveryStatus::kEnabled;
    pitr.earliest_restorable_date_time = now;
    pitr.latest_restorable_date_time = now;
    pitr.recovery_period_in_days = days;
  }
  return result;
}

Result<ContinuousBackupsResult> Database::UpdateContinuousBackups(
    const UpdateContinuousBackupsRequest& request) {
  {
    ConstraintViolations violations;
    violations.TableName(request.table_name);
    if (request.recovery_period_in_days) {
      violations.Range(*request.recovery_period_in_days, 1, 35,
                       "pointInTimeRecoverySpecification.recoveryPeriodInDays");
    }
    PARTSTORE_RETURN_IF_ERROR(violations.ToStatus());
  }
  if (request.recovery_period_in_days && !request.point_in_time_recovery_enabled) {
    return Status::Validation(
        "RecoveryPeriodInDays can only be set when point in time recovery is enabled");
  }
  Result<std::shared_ptr<Table>> table = state_->GetTable(request.table_name);
  if (!table.ok()) return TableImageNotFound(request.table_name);
  (*table)->set_recovery_period_days(
      request.point_in_time_recovery_enabled ? request.recovery_period_in_days.value_or(35) : 0);
  return Describe(**table, state_->EpochSeconds());
}

Result<ContinuousBackupsResult> Database::DescribeContinuousBackups(
    const DescribeContinuousBackupsRequest& request) {
  {
    ConstraintViolations violations;
    violations.TableName(request.table_name);
    PARTSTORE_RETURN_IF_ERROR(violations.ToStatus());
  }
  Result<std::shared_ptr<Table>> table = state_->GetTable(request.table_name);
  if (!table.ok()) return TableImageNotFound(request.table_name);
  return Describe(**table, state_->EpochSeconds());
}

}  // namespace partstore
