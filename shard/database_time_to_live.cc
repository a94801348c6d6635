// Database: Time to Live (partstore/time_to_live.h): UpdateTimeToLive and DescribeTimeToLive, the
// sweep over the tables, and the background sweeper thread.
#include <fmt/format.h>

#include <chrono>

#include "partstore/database.h"
#include "shard/constraints.h"
#include "shard/database_state.h"
#include "shard/persist/byte_codec.h"

namespace partstore {

namespace {

int64_t Micros(double seconds) { return static_cast<int64_t>(seconds * 1e6); }

bool ManualClock(const DatabaseOptions& options) {
  return dynamic_cast<const capacity::ManualClock*>(options.capacity.clock.get()) != nullptr;
}

}  // namespace

Result<UpdateTimeToLiveResult> Database::UpdateTimeToLive(const UpdateTimeToLiveRequest& request) {
  const TimeToLiveSpecification& spec = request.time_to_live_specification;
  {
    ConstraintViolations violations;
    violations.TableName(request.table_name);
    // A TTL attribute name is 1..255 bytes, though attribute names may be 64 KB.
    violations.Length(spec.attribute_name, 1, 255, "timeToLiveSpecification.attributeName");
    PARTSTORE_RETURN_IF_ERROR(violations.ToStatus());
  }
  std::shared_lock control(state_->control_mu_);
  Result<std::shared_ptr<Table>> table = state_->GetTable(request.table_name);
  if (!table.ok()) return TableNotFound(request.table_name);
  const DatabaseOptions& options = state_->options_;
  PARTSTORE_RETURN_IF_ERROR(
      (*table)->UpdateTimeToLive(spec, options.capacity.clock->NowMicros(),
                                 Micros(options.time_to_live.change_interval_seconds)));
  if (state_->wal_) {
    std::string body;
    persist::ByteWriter writer(&body);
    writer.Bool(spec.enabled);
    writer.String(spec.attribute_name);
    state_->LogControl(persist::WalRecord::kTimeToLive, (*table)->log_number(), body);
  }
  if (spec.enabled) state_->StartSweeper();
  PARTSTORE_RETURN_IF_ERROR(state_->Durable());
  return UpdateTimeToLiveResult{spec};
}

Result<DescribeTimeToLiveResult> Database::DescribeTimeToLive(
    const DescribeTimeToLiveRequest& request) {
  PARTSTORE_RETURN_IF_ERROR(CheckTableName(request.table_name));
  Result<std::shared_ptr<Table>> table = state_->GetTable(request.table_name);
  if (!table.ok()) return TableNotFound(request.table_name);
  return DescribeTimeToLiveResult{(*table)->DescribeTimeToLive()};
}

int64_t Database::DeleteExpiredItems() { return state_->DeleteExpiredItems(); }

int64_t internal::DatabaseState::DeleteExpiredItems() {
  std::vector<std::shared_ptr<Table>> tables;
  {
    std::shared_lock lock(mu_);
    for (const auto& [name, table] : tables_) tables.push_back(table);
  }
  const double now = EpochSeconds();
  const double cutoff = now - options_.time_to_live.expiry_delay_seconds;
  int64_t deleted = 0;
  for (const auto& table : tables) deleted += table->DeleteExpired(now, cutoff);
  return deleted;
}

void internal::DatabaseState::StartSweeper() {
  // On the manual clock AdvanceClock sweeps; a background thread would only race it.
  if (options_.time_to_live.sweep_interval_seconds == 0 || ManualClock(options_)) return;
  std::lock_guard lock(sweeper_mu_);
  if (sweeper_.joinable() || sweeper_stop_) return;
  const auto interval = std::chrono::duration_cast<std::chrono::nanoseconds>(
      std::chrono::duration<double>(options_.time_to_live.sweep_interval_seconds));
  sweeper_ = std::thread([this, interval] {
    std::unique_lock wait_lock(sweeper_mu_);
    while (!sweeper_cv_.wait_for(wait_lock, interval, [this] { return sweeper_stop_; })) {
      wait_lock.unlock();
      DeleteExpiredItems();
      wait_lock.lock();
    }
  });
}

void internal::DatabaseState::StopSweeper() {
  std::thread sweeper;
  {
    std::lock_guard lock(sweeper_mu_);
    sweeper_stop_ = true;
    sweeper = std::move(sweeper_);
  }
  sweeper_cv_.notify_all();
  if (sweeper.joinable()) sweeper.join();
}

}  // namespace partstore
