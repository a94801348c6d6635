// AutoScaler: Application Auto Scaling's target tracking for DynamoDB, run against a Database
// with capacity simulation on a manual clock (docs/reference.md, "Application Auto Scaling").
//
// Each ScalingTarget is one scalable dimension: a provisioned table's or GSI's read or write
// capacity, with a target utilization (20..90%), a minimum and a maximum. At the end of every
// minute the scaler reads the minute's consumed units (GetMetrics, period 60: CloudWatch's
// per-minute Sum) and evaluates the two alarms target tracking creates:
//   high  2 consecutive minutes whose consumed units per second exceed target x provisioned;
//   low   15 consecutive minutes below (target - 20 points) x provisioned.
// The high alarm scales out to ceil(consumed per second / target) (the last minute's), the low
// one scales in to the same figure, both within [min, max]; scale-in is skipped when disabled,
// during its cooldown, or when DynamoDB's decrease quota refuses it (4 decreases a UTC day, then
// one more each hour without a decrease: at most 27 a day, per table and per GSI). The
// UpdateTable takes `update_delay_seconds` to take effect (DynamoDB: "several minutes"); until
// then the old capacity applies and the resource is not evaluated again.
//
// The caller drives time: before moving the clock past NextEventMicros(), move it there and call
// Step (the simulator does this from its clock advance). Every action taken is recorded.
//
// Thread safety: not thread-safe; one thread drives it (with the Database otherwise idle or
// used from that thread).
#pragma once

#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "partstore/database.h"
#include "partstore/status.h"

namespace partstore::sim {

struct ScalingTarget {
  std::string table;
  std::optional<std::string> index;  // a GSI of `table`
  bool read = true;                  // read capacity, else write capacity
  int64_t min_capacity = 1;
  int64_t max_capacity = 40000;
  double target_utilization = 70;  // percent, 20..90
  bool disable_scale_in = false;
  int64_t scale_out_cooldown_seconds = 0;  // DynamoDB's default for both
  int64_t scale_in_cooldown_seconds = 0;
};

struct AutoScalingOptions {
  int64_t update_delay_seconds = 120;  // from the alarm's action to the new capacity in effect
};

// One UpdateTable the scaler made.
struct ScalingAction {
  double time_seconds = 0;       // when the alarm fired (a minute's end)
  double effective_seconds = 0;  // when the new capacity took effect
  std::string table;
  std::optional<std::string> index;
  bool read = true;
  int64_t from = 0;
  int64_t to = 0;
  double consumed_per_second = 0;  // the minute that decided it
  std::string reason;              // "scale-out", "scale-in" (or "scheduled": a workload's)
};

class AutoScaler {
 public:
  // Checks every target (a provisioned table or GSI that exists; sane bounds and target) and reads
  // the current capacities. `db`'s clock must be the caller's manual clock.
  static Result<AutoScaler> Create(Database& db, std::vector<ScalingTarget> targets,
                                   AutoScalingOptions options = {});

  // The next time (microseconds) Step must run at: a minute's end or an update coming into
  // effect (max int64 without targets).
  int64_t NextEventMicros() const;
  // What happens at `now_micros` (== NextEventMicros(); the clock already there).
  void Step(int64_t now_micros);

  const std::vector<ScalingAction>& actions() const { return actions_; }
  // Another UpdateTable (a scheduled change) set `table`'s (or its GSI's) provisioned units.
  void NoteCapacity(const std::string& table, const std::optional<std::string>& index,
                    const ProvisionedThroughput& units);

  // DynamoDB's decrease quota: may a resource that made `decreases_today` decreases this UTC day,
  // the last at `last_decrease_seconds` (if any), decrease again at `now_seconds`?
  static bool DecreaseAllowed(int decreases_today, std::optional<double> last_decrease_seconds,
                              double now_seconds);

 private:
  struct Dimension {
    ScalingTarget target;
    std::deque<double> minutes{};  // consumed units per second of the recent minutes, newest last
    double last_scale_out = -1e18;
    double last_scale_in = -1e18;
  };
  // A table or GSI: its dimensions, capacity and pending update.
  struct Resource {
    std::string table{};
    std::optional<std::string> index{};
    int64_t read_capacity = 0;
    int64_t write_capacity = 0;
    std::optional<int64_t> pending_read{};  // an update on its way
    std::optional<int64_t> pending_write{};
    int64_t pending_due_micros = std::numeric_limits<int64_t>::max();
    int decreases_today = 0;
    int64_t day = 0;
    std::optional<double> last_decrease{};
    std::vector<Dimension> dimensions{};
  };

  AutoScaler(Database& db, AutoScalingOptions options) : db_(&db), options_(options) {}
  void EndOfMinute(Resource& resource, int64_t minute);
  // The pending UpdateTable (its new units in effect from now on).
  void Apply(Resource& resource);

  Database* db_;
  AutoScalingOptions options_;
  std::vector<Resource> resources_;
  int64_t next_minute_micros_ = 60'000'000;
  std::vector<ScalingAction> actions_;
};

}  // namespace partstore::sim
