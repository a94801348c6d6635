#include "tools/simulator/auto_scaling.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

namespace partstore::sim {
namespace {

constexpr int64_t kMicrosPerMinute = 60'000'000;
constexpr size_t kHighDatapoints = 2;    // target tracking's high alarm
constexpr size_t kLowDatapoints = 15;    // and its low alarm
constexpr double kScaleInMargin = 0.20;  // the low alarm's threshold: target - 20 points
constexpr int kDecreasesAnyTime = 4;     // a UTC day's decreases before the hourly rule
constexpr int kMaxDecreasesPerDay = 27;

std::string Name(const std::string& table, const std::optional<std::string>& index) {
  return index ? table + " / " + *index : table;
}

// The capacity a minute of `consumed` units a second calls for at `target` (a fraction).
int64_t Desired(double consumed, double target, const ScalingTarget& t) {
  const double units = std::ceil(consumed / target - 1e-9);
  return std::clamp(static_cast<int64_t>(std::max(units, 0.0)), t.min_capacity, t.max_capacity);
}

}  // namespace

bool AutoScaler::DecreaseAllowed(int decreases_today, std::optional<double> last_decrease_seconds,
                                 double now_seconds) {
  if (decreases_today >= kMaxDecreasesPerDay) return false;
  if (decreases_today < kDecreasesAnyTime) return true;
  return last_decrease_seconds && now_seconds - *last_decrease_seconds >= 3600;
}

Result<AutoScaler> AutoScaler::Create(Database& db, std::vector<ScalingTarget> targets,
                                      AutoScalingOptions options) {
  if (options.update_delay_seconds < 0 || options.update_delay_seconds > 3600) {
    return Status::Validation("auto scaling: the update delay must be 0..3600 seconds");
  }
  AutoScaler scaler(db, options);
  for (ScalingTarget& target : targets) {
    const std::string name = Name(target.table, target.index);
    if (!(target.target_utilization >= 20 && target.target_utilization <= 90)) {
      return Status::Validation(
          fmt::format("auto scaling of {}: the target utilization must be 20..90 percent", name));
    }
    if (target.min_capacity < 1 || target.max_capacity < target.min_capacity) {
      return Status::Validation(
          fmt::format("auto scaling of {}: need 1 <= min_capacity <= max_capacity", name));
    }
    if (target.scale_in_cooldown_seconds < 0 || target.scale_out_cooldown_seconds < 0) {
      return Status::Validation(fmt::format("auto scaling of {}: a cooldown is negative", name));
    }
    auto it = std::find_if(
        scaler.resources_.begin(), scaler.resources_.end(),
        [&](const Resource& r) { return r.table == target.table && r.index == target.index; });
    if (it == scaler.resources_.end()) {
      PARTSTORE_ASSIGN_OR_RETURN(DescribeTableResult described, db.DescribeTable({target.table}));
      const TableDescription& d = described.table;
      if (d.billing_mode != BillingMode::kProvisioned) {
        return Status::Validation(fmt::format(
            "auto scaling of {}: the table is on-demand; auto scaling scales provisioned "
            "capacity",
            name));
      }
      Resource resource{.table = target.table, .index = target.index};
      resource.read_capacity = d.provisioned_throughput.read_capacity_units;
      resource.write_capacity = d.provisioned_throughput.write_capacity_units;
      if (target.index) {
        auto gsi =
            std::find_if(d.global_secondary_indexes.begin(), d.global_secondary_indexes.end(),
                         [&](const GlobalSecondaryIndexDescription& g) {
                           return g.index_name == *target.index;
                         });
        if (gsi == d.global_secondary_indexes.end()) {
          return Status::Validation(
              fmt::format("auto scaling of {}: the table has no such GSI", name));
        }
        resource.read_capacity = gsi->provisioned_throughput.read_capacity_units;
        resource.write_capacity = gsi->provisioned_throughput.write_capacity_units;
      }
      scaler.resources_.push_back(std::move(resource));
      it = std::prev(scaler.resources_.end());
    }
    for (const Dimension& d : it->dimensions) {
      if (d.target.read == target.read) {
        return Status::Validation(fmt::format("auto scaling of {}: its {} capacity twice", name,
                                              target.read ? "read" : "write"));
      }
    }
    it->dimensions.push_back(Dimension{.target = std::move(target)});
  }
  return scaler;
}

int64_t AutoScaler::NextEventMicros() const {
  if (resources_.empty()) return std::numeric_limits<int64_t>::max();
  int64_t next = next_minute_micros_;
  for (const Resource& r : resources_) next = std::min(next, r.pending_due_micros);
  return next;
}

void AutoScaler::Step(int64_t now_micros) {
  for (Resource& r : resources_) {
    if (r.pending_due_micros <= now_micros) Apply(r);
  }
  if (now_micros >= next_minute_micros_) {
    const int64_t minute = next_minute_micros_ / kMicrosPerMinute - 1;
    for (Resource& r : resources_) EndOfMinute(r, minute);
    next_minute_micros_ += kMicrosPerMinute;
  }
}

void AutoScaler::EndOfMinute(Resource& r, int64_t minute) {
  auto metrics = db_->GetMetrics({.table_name = r.table,
                                  .index_name = r.index,
                                  .period = 60,
                                  .start_time = minute * 60,
                                  .end_time = minute * 60,
                                  .include_partitions = false});
  double read_units = 0;
  double write_units = 0;
  if (metrics.ok()) {
    for (const capacity::MetricPoint& point : metrics->points) {
      read_units += static_cast<double>(point.counters.consumed_read_half_units) / 2;
      write_units += static_cast<double>(point.counters.consumed_write_half_units) / 2;
    }
  }
  const double now = static_cast<double>(minute + 1) * 60;
  const int64_t day = static_cast<int64_t>(now) / 86400;
  if (day != r.day) {
    r.day = day;
    r.decreases_today = 0;
  }
  std::optional<int64_t> read_to;
  std::optional<int64_t> write_to;
  bool decrease = false;
  for (Dimension& d : r.dimensions) {
    const double consumed = (d.target.read ? read_units : write_units) / 60;
    d.minutes.push_back(consumed);
    if (d.minutes.size() > kLowDatapoints) d.minutes.pop_front();
    if (r.pending_read || r.pending_write) continue;  // UPDATING: no UpdateTable until it ends
    const int64_t have = d.target.read ? r.read_capacity : r.write_capacity;
    const double target = d.target.target_utilization / 100;
    const int64_t want = Desired(consumed, target, d.target);
    const auto& m = d.minutes;
    const bool high = m.size() >= kHighDatapoints &&
                      std::all_of(m.end() - kHighDatapoints, m.end(),
                                  [&](double c) { return c > target * static_cast<double>(have); });
    const bool low = m.size() >= kLowDatapoints && std::all_of(m.begin(), m.end(), [&](double c) {
                       return c < (target - kScaleInMargin) * static_cast<double>(have);
                     });
    std::optional<int64_t> to;
    std::string reason;
    if (high && want > have && now - d.last_scale_out >= d.target.scale_out_cooldown_seconds) {
      to = want;
      reason = "scale-out";
      d.last_scale_out = now;
    } else if (low && want < have && !d.target.disable_scale_in &&
               now - d.last_scale_in >= d.target.scale_in_cooldown_seconds &&
               DecreaseAllowed(r.decreases_today, r.last_decrease, now)) {
      to = want;
      reason = "scale-in";
      d.last_scale_in = now;
      decrease = true;
    }
    if (!to) continue;
    (d.target.read ? read_to : write_to) = to;
    actions_.push_back(
        ScalingAction{.time_seconds = now,
                      .effective_seconds = now + static_cast<double>(options_.update_delay_seconds),
                      .table = r.table,
                      .index = r.index,
                      .read = d.target.read,
                      .from = have,
                      .to = *to,
                      .consumed_per_second = consumed,
                      .reason = std::move(reason)});
  }
  if (!read_to && !write_to) return;
  if (decrease) {  // one UpdateTable: one decrease, however many dimensions it lowers
    ++r.decreases_today;
    r.last_decrease = now;
  }
  r.pending_read = read_to;
  r.pending_write = write_to;
  r.pending_due_micros =
      (minute + 1) * kMicrosPerMinute + options_.update_delay_seconds * 1'000'000;
  if (options_.update_delay_seconds == 0) Apply(r);
}

void AutoScaler::NoteCapacity(const std::string& table, const std::optional<std::string>& index,
                              const ProvisionedThroughput& units) {
  for (Resource& r : resources_) {
    if (r.table != table || r.index != index) continue;
    r.read_capacity = units.read_capacity_units;
    r.write_capacity = units.write_capacity_units;
  }
}

void AutoScaler::Apply(Resource& r) {
  const int64_t read = r.pending_read.value_or(r.read_capacity);
  const int64_t write = r.pending_write.value_or(r.write_capacity);
  UpdateTableRequest request{.table_name = r.table};
  if (r.index) {
    GlobalSecondaryIndexUpdate update;
    update.update = GlobalSecondaryIndexUpdate::Update{
        .index_name = *r.index, .provisioned_throughput = ProvisionedThroughput{read, write}};
    request.global_secondary_index_updates = {{update}};
  } else {
    request.provisioned_throughput = ProvisionedThroughput{read, write};
  }
  if (db_->UpdateTable(request).ok()) {
    r.read_capacity = read;
    r.write_capacity = write;
  }
  r.pending_read.reset();
  r.pending_write.reset();
  r.pending_due_micros = std::numeric_limits<int64_t>::max();
}

}  // namespace partstore::sim
