// ResourceCapacity: the simulated capacity of one table or one GSI: its partition map, each
// partition's token buckets, the table-level limit, splits, metrics and Contributor Insights.
//
// Partitions (reference §3). The 64-bit key-hash space is cut into contiguous ranges, one per
// partition; a request's partition is the one holding the hash of its partition key. Boundaries
// fall on multiples of 2^64 / kCells, so each partition's size is the sum of the cells it covers
// (kept per write) and a split never moves data. Initial count: ceil(RCU / 3000 + WCU / 1000)
// for provisioned throughput (at least 1), 4 for on-demand. Splits:
//   throughput  UpdateTable raises provisioned throughput past what the partitions can carry:
//               every partition splits in two until there are enough (3,200 -> 6,000 WCU turns
//               4 partitions into 8, as in the paper's example);
//   size        a partition passes CapacityOptions::partition_size_limit (10 GB): it splits at
//               the middle of its range (hashes spread items evenly);
//   heat        a partition ran at heat_percent of its hard limit, or was throttled at it, for
//               heat_split_seconds seconds in a row: it splits at the median of its recently
//               accessed hashes; never when one partition key takes all of them (one key, or one
//               item collection, cannot be split);
//   peak        on-demand: partitions are added so that twice the previous peak fits (the
//               busiest first, each at its accessed keys' median).
//
// Buckets, per partition and direction (read / write), in tokens (shard/capacity/token_bucket.h):
//   cap        the hard limit (3,000 RCU / 1,000 WCU per second), one second deep;
//   allocated  the partition's share of the table's throughput (provisioned: table / partitions;
//              on-demand: the hard limit), one second deep; what it does not use overflows into
//   burst      up to burst_seconds (300) of unused allocation.
// and per resource and direction:
//   table      provisioned: the table's throughput; on-demand: the per-table quota. Every
//              admitted request spends it (down to one second of debt), so it holds the table's
//              unused capacity of the last second; that is what adaptive capacity lends a hot
//              partition, and only while the table as a whole consumes less than its throughput.
//
// Admission of a request of n tokens on partition p (reads: n = 1 token, "any left", then charged
// what they read; writes: their exact cost, known before they apply):
//   1. p's cap must cover n                  else KeyRangeThroughputExceeded;
//   2. provisioned: p's allocated + burst, plus the table's unused capacity (adaptive capacity),
//      must cover n                          else ProvisionedThroughputExceeded;
//      on-demand: the table quota must cover n  else AccountLimitExceeded.
// A charge spends cap, then allocated, then burst, then (adaptive) the rest; reads that overdraw
// leave a debt on allocated.
//
// On-demand's "previous peak": the highest average per-second consumption of a minute that
// ended at least on_demand_peak_delay_seconds (30 min) ago, or the initial 6,000 RCU / 2,000
// WCU; partitions are kept at ceil(2 x peak / hard limit) (a new table: 4 partitions, 12,000 RRU
// / 4,000 WRU).
//
// Time: every method takes `now` (microseconds, non-decreasing). AdvanceTo(now) closes the seconds
// that ended (heat, peaks and splits are decided once per second); a partition's buckets refill
// when a request touches it (Locate), so a request costs O(log partitions), not O(partitions).
// (Refill is exact whenever it runs, so lazy refills give the same tokens as eager ones.)
//
// Thread safety: not thread-safe. TableCapacity (shard/capacity/table_capacity.h) serializes every
// call under its mutex.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "partstore/capacity_options.h"
#include "partstore/item.h"
#include "partstore/key.h"
#include "partstore/stored_item.h"
#include "partstore/throttle_reason.h"
#include "shard/capacity/contributor_insights.h"
#include "shard/capacity/metric_series.h"
#include "shard/capacity/token_bucket.h"

namespace partstore::capacity {

// Partition boundaries are multiples of 2^64 / kCells.
inline constexpr int kCellBits = 12;
inline constexpr size_t kCells = size_t{1} << kCellBits;

// How an access counts in the request metrics: as a request of its own, or as part of a larger
// request (a batch's items, a Scan's further partitions) that is counted elsewhere.
enum class RequestCounting { kCountRequest, kPartOfRequest };

// What Contributor Insights records of an access: capacity consumed, or a throttle.
enum class KeyAccessOutcome { kServed, kThrottled };

struct ResourceSettings {
  bool on_demand = true;
  int64_t read_units = 0;   // provisioned only
  int64_t write_units = 0;  // provisioned only
  // On-demand: OnDemandThroughput's maximum request units a second (0: none). Beyond it requests
  // are throttled with MaxOnDemandThroughputExceeded.
  int64_t max_read_request_units = 0;
  int64_t max_write_request_units = 0;
  // WarmThroughput (0: none): at least ceil(read / partition_read_units) and ceil(write /
  // partition_write_units) partitions, as DynamoDB pre-warms a table.
  int64_t warm_read_units = 0;
  int64_t warm_write_units = 0;
  friend bool operator==(const ResourceSettings&, const ResourceSettings&) = default;
};

enum class SplitReason : uint8_t { kThroughput, kSize, kHeat, kPeak };
std::string_view SplitReasonName(SplitReason reason);

struct PartitionSplit {
  int64_t time_micros = 0;
  int parent = 0;
  int left = 0;
  int right = 0;
  uint64_t at = 0;  // the first hash of the right half
  SplitReason reason = SplitReason::kThroughput;
};

struct PartitionSide {
  TokenBucket cap;
  TokenBucket allocated;
  TokenBucket burst;              // rate 0: filled by allocated's overflow
  int64_t second_tokens = 0;      // consumed in the current second
  bool second_throttled = false;  // throttled at the hard limit in the current second
  int64_t adaptive_tokens = 0;    // served beyond allocation and burst, since creation
};

struct Partition {
  int id = 0;
  uint64_t begin = 0;  // first hash
  uint64_t end = 0;    // last hash (inclusive)
  int64_t created_micros = 0;
  PartitionSide read, write;
  int64_t size_bytes = 0;
  int64_t item_count = 0;
  int64_t last_second_tokens = 0;  // reads + 3 x writes in the last closed second it served
  int hot_seconds = 0;
  int64_t last_hot_second = -2;
  // A reservoir of recently accessed hashes (the split-for-heat point).
  static constexpr size_t kSamples = 64;
  std::array<uint64_t, kSamples> samples{};
  uint64_t samples_seen = 0;
  MetricSeries metrics;
};

// What one access is about, for Contributor Insights: the encoded partition key, the encoded
// item key (partition + sort), and an item holding the key attributes (to show them), as a tree
// or stored (at most one set).
struct KeyAccess {
  std::string_view partition;
  std::string_view item;
  const Item* source = nullptr;
  const StoredItem* stored_source = nullptr;
};

// A throttled request, kept for a live view of the last few (DescribePartitions).
struct ThrottledRequest {
  int64_t time_micros = 0;
  int partition_id = 0;
  ThrottleReason reason;
  Item key;  // the resource's key attributes of the request; empty when it had none (Scan)
};

class ResourceCapacity {
 public:
  // How many throttled requests recent_throttles() keeps.
  static constexpr size_t kRecentThrottles = 20;

  // `key`: the resource's key attributes (for Contributor Insights' display).
  ResourceCapacity(ThrottleResource kind, std::string arn, KeySchema key, ResourceSettings settings,
                   const CapacityOptions& options, int64_t now);

  ThrottleResource kind() const { return kind_; }
  const std::string& arn() const { return arn_; }
  const ResourceSettings& settings() const { return settings_; }

  // Closes the seconds that ended before `now`.
  void AdvanceTo(int64_t now);
  // Refills every partition's buckets to `now` (before a report shows them).
  void RefillAll(int64_t now);

  // The partition holding `hash`.
  size_t PartitionOf(uint64_t hash) const;
  // The same, with its and the table's buckets of `op` refilled to `now` (before Check and
  // Charge of `op`).
  size_t Locate(uint64_t hash, ThrottleOperation op, int64_t now);
  // Whether partition `p` can take `tokens` more of `op` now (after AdvanceTo); the limit hit if
  // not.
  std::optional<ThrottleLimit> Check(size_t p, ThrottleOperation op, int64_t tokens) const;
  // Spends `tokens` of `op` on partition `p` (admitted before), and counts a served request of
  // `returned_items` (reads) per `counting`. Records `hash` for split-for-heat.
  void Charge(size_t p, ThrottleOperation op, int64_t tokens, uint64_t hash, int64_t returned_items,
              RequestCounting counting, int64_t now);
  // Counts a throttle event of `reason` on partition `p` (or on the resource alone when p is
  // nullopt: the table's count of its GSIs' events).
  void CountThrottleEvent(std::optional<size_t> p, ThrottleReason reason, int64_t now);
  // Counts one throttled request of `op` on partition `p` (nullopt: the resource's count alone).
  void CountThrottledRequest(std::optional<size_t> p, ThrottleOperation op, int64_t now);
  // Contributor Insights: `half_units` consumed (3 x writes + reads) or a throttle, for `key`.
  void RecordKey(const KeyAccess& key, int64_t half_units, KeyAccessOutcome outcome, int64_t now);
  // Items stored or removed in the partition of `hash`.
  void NoteData(uint64_t hash, int64_t bytes, int64_t items, int64_t now);
  // The same when the partition `p` of `hash` is known.
  void NoteData(size_t p, uint64_t hash, int64_t bytes, int64_t items, int64_t now);

  // UpdateTable: new throughput or billing mode (splits for throughput as needed).
  void Update(ResourceSettings settings, int64_t now);

  const std::vector<Partition>& partitions() const { return partitions_; }
  const std::vector<PartitionSplit>& splits() const { return splits_; }
  // splits().size(), readable without the owner's lock (a stream's writers poll it).
  size_t split_count() const { return split_count_.load(std::memory_order_acquire); }
  const MetricSeries& metrics() const { return metrics_; }
  const ContributorInsights& insights() const { return insights_; }
  // A throttled request of partition `p` (its key from `key`, which may be null), kept among the
  // last kRecentThrottles; oldest first.
  void RecordThrottle(size_t p, ThrottleReason reason, const KeyAccess* key, int64_t now);
  const std::deque<ThrottledRequest>& recent_throttles() const { return recent_throttles_; }
  // Contributor Insights on or off (UpdateContributorInsights); off forgets what was recorded.
  bool insights_enabled() const { return insights_enabled_; }
  void set_insights_enabled(bool enabled);
  // Retired partitions' metrics (split parents), by id.
  const std::vector<std::pair<int, MetricSeries>>& retired_metrics() const { return retired_; }
  // On-demand's previous peak now (units per second).
  int64_t peak_read_units() const { return peak_read_units_; }
  int64_t peak_write_units() const { return peak_write_units_; }

 private:
  PartitionSide& SideOf(Partition& p, ThrottleOperation op) {
    return op == ThrottleOperation::kRead ? p.read : p.write;
  }
  const PartitionSide& SideOf(const Partition& p, ThrottleOperation op) const {
    return op == ThrottleOperation::kRead ? p.read : p.write;
  }
  TokenBucket& TableOf(ThrottleOperation op) {
    return op == ThrottleOperation::kRead ? table_read_ : table_write_;
  }
  const TokenBucket& TableOf(ThrottleOperation op) const {
    return op == ThrottleOperation::kRead ? table_read_ : table_write_;
  }
  // Sets every bucket's rate and depth from the settings and partition count.
  void Allocate();
  static void RefillSide(PartitionSide& side, int64_t now);
  void CloseSecond(int64_t second, int64_t now);
  // Rebuilds partition_of_cell_ from partitions_ (after they change).
  void IndexCells();
  // Splits partition `p` at `at` (a cell boundary strictly inside it).
  void Split(size_t p, uint64_t at, SplitReason reason, int64_t now);
  // A split point for heat (the median of the samples' cells), or nullopt.
  std::optional<uint64_t> HeatSplitPoint(const Partition& p) const;
  // On-demand: splits the busiest partitions until there are `count`.
  void SplitBusiest(size_t count, int64_t now);
  // Splits every partition in two until there are at least `count`.
  void SplitUntil(size_t count, SplitReason reason, int64_t now);
  size_t TargetPartitions() const;
  // On-demand: the table bucket's rate for `op`, the per-table quota or OnDemandThroughput's
  // maximum when that is lower (then a throttle there is MaxOnDemandThroughputExceeded).
  int64_t OnDemandLimit(ThrottleOperation op) const;
  bool OnDemandMaximumBinds(ThrottleOperation op) const;

  const ThrottleResource kind_;
  const std::string arn_;
  const KeySchema key_;
  const CapacityOptions options_;
  ResourceSettings settings_;
  std::vector<Partition> partitions_;  // sorted by begin
  std::vector<PartitionSplit> splits_;
  std::atomic<size_t> split_count_{0};
  std::vector<std::pair<int, MetricSeries>> retired_;
  int next_id_ = 0;
  TokenBucket table_read_, table_write_;
  std::vector<std::array<int64_t, 2>> cells_;  // bytes, items per cell
  // The partition of each cell (PartitionOf in one load: every partition boundary is a cell
  // boundary), rebuilt when the partitions change.
  std::vector<uint16_t> partition_of_cell_;
  MetricSeries metrics_;
  ContributorInsights insights_;
  std::deque<ThrottledRequest> recent_throttles_;
  bool insights_enabled_;
  int64_t current_second_ = 0;
  int64_t second_read_tokens_ = 0, second_write_tokens_ = 0;  // the table's, this second
  // On-demand peaks: minutes not yet old enough to count.
  std::deque<std::array<int64_t, 3>> pending_peaks_;  // minute start, read, write tokens
  int64_t peak_read_units_ = 0, peak_write_units_ = 0;
};

}  // namespace partstore::capacity
