// Requests and results of partstore's capacity extensions (operations beyond DynamoDB's API,
// named Partstore.<Op> on the wire; see the README's "Capacity simulation" section):
//
//   AdvanceClock              moves the manual clock forward.
//   DescribePartitions        a table's or GSI's simulated partitions and split history.
//   GetMetrics                CloudWatch-style series per table or GSI (and per partition).
//   GetContributorInsights    the top keys of the four Contributor Insights rules.
//
// and DynamoDB's own UpdateContributorInsights / DescribeContributorInsights, which turn those
// rules on and off per table or GSI.
//
// They need capacity simulation on (DatabaseOptions::capacity.enabled); AdvanceClock needs the
// manual clock.
//
// Thread safety: value types.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "partstore/item.h"
#include "partstore/metrics.h"

namespace partstore {

struct AdvanceClockRequest {
  double seconds = 0;  // >= 0
};
struct AdvanceClockResult {
  double now_seconds = 0;  // the clock after the move
};

struct DescribePartitionsRequest {
  std::string table_name{};
  std::optional<std::string> index_name{};
};

struct PartitionDescription {
  int partition_id = 0;
  uint64_t hash_range_start = 0;  // first hash
  uint64_t hash_range_end = 0;    // last hash (inclusive)
  int64_t size_bytes = 0;
  int64_t item_count = 0;
  // Units per second this partition is allocated, and its hard limits.
  double allocated_read_units = 0;
  double allocated_write_units = 0;
  double max_read_units = 0;
  double max_write_units = 0;
  // Unused capacity saved for bursts now, in units.
  double burst_read_units = 0;
  double burst_write_units = 0;
  // Totals since the partition was created.
  double consumed_read_units = 0;
  double consumed_write_units = 0;
  double adaptive_read_units = 0;  // served beyond allocation and burst (adaptive capacity)
  double adaptive_write_units = 0;
  int64_t throttled_read_requests = 0;
  int64_t throttled_write_requests = 0;
  int64_t throttle_events = 0;
  double created_seconds = 0;
};

struct PartitionSplitDescription {
  double time_seconds = 0;
  int parent_id = 0;
  int left_id = 0;
  int right_id = 0;
  uint64_t split_hash = 0;
  std::string reason{};  // THROUGHPUT, SIZE, HEAT or PEAK
};

// A throttled request, among the last few of a table or GSI.
struct ThrottledRequestDescription {
  double time_seconds = 0;
  int partition_id = 0;
  std::string
      reason{};  // DynamoDB's ThrottlingReasons code, e.g. TableWriteKeyRangeThroughputExceeded
  Item key{};    // the key attributes of the table or GSI; empty for a Scan page
};

struct DescribePartitionsResult {
  std::string table_name{};
  std::optional<std::string> index_name{};
  std::string billing_mode{};  // PROVISIONED or PAY_PER_REQUEST
  double now_seconds = 0;
  // On-demand: the previous peak the partitions are sized for (twice it fits at once).
  double peak_read_units = 0;
  double peak_write_units = 0;
  std::vector<PartitionDescription> partitions{};
  std::vector<PartitionSplitDescription> splits{};
  // The last throttled requests (at most 20), oldest first.
  std::vector<ThrottledRequestDescription> recent_throttles{};
};

struct GetMetricsRequest {
  std::string table_name{};
  std::optional<std::string> index_name{};
  int period = 60;                      // 1 or 60 seconds
  std::optional<int64_t> start_time{};  // seconds, inclusive
  std::optional<int64_t> end_time{};    // seconds, inclusive
  bool include_partitions = false;      // also each partition's series (retired ones too)
};

struct PartitionMetrics {
  int partition_id = 0;
  std::vector<capacity::MetricPoint> points{};
};

struct GetMetricsResult {
  std::string table_name{};
  std::optional<std::string> index_name{};
  int period = 60;
  std::vector<capacity::MetricPoint> points{};
  std::vector<PartitionMetrics> partitions{};
};

struct GetContributorInsightsRequest {
  std::string table_name{};
  std::optional<std::string> index_name{};
  int top_n = 10;  // 1..1000
};

struct Contributor {
  Item key{};          // the key attributes
  double value = 0;    // per-minute maximum: ConsumedThroughputUnits (3 x WCU + RCU) or throttles
  int64_t minute = 0;  // start (seconds) of the minute of that maximum
};

struct InsightsRuleResult {
  std::string rule_name{};  // MostAccessedPartitionKeys, MostAccessedItems, MostThrottled...
  std::vector<Contributor> contributors{};
};

struct GetContributorInsightsResult {
  std::string table_name{};
  std::optional<std::string> index_name{};
  std::vector<InsightsRuleResult> rules{};
};

enum class ContributorInsightsAction : uint8_t { kEnable, kDisable };

struct UpdateContributorInsightsRequest {
  std::string table_name{};
  std::optional<std::string> index_name{};
  std::optional<ContributorInsightsAction> action{};  // required
};

struct UpdateContributorInsightsResult {
  std::string table_name{};
  std::optional<std::string> index_name{};
  std::string status{};  // ENABLING or DISABLING (the change is already complete here)
};

struct DescribeContributorInsightsRequest {
  std::string table_name{};
  std::optional<std::string> index_name{};
};

struct DescribeContributorInsightsResult {
  std::string table_name{};
  std::optional<std::string> index_name{};
  std::vector<std::string> rule_list{};  // DynamoDBContributorInsights-{PKC,PKT,SKC,SKT}-...
  std::string status{};                  // ENABLED or DISABLED
  std::optional<double> last_update_date_time{};  // seconds since the epoch
};

// ListContributorInsights: every table (or the one named) and its GSIs, in name order, with
// their status (DISABLED for all while capacity simulation is off); max_results a page (1..100,
// default 100) and next_token to go on.
struct ListContributorInsightsRequest {
  std::optional<std::string> table_name{};
  std::optional<std::string> next_token{};
  std::optional<int32_t> max_results{};
};
struct ContributorInsightsSummary {
  std::string table_name{};
  std::optional<std::string> index_name{};
  std::string status{};
};
struct ListContributorInsightsResult {
  std::vector<ContributorInsightsSummary> summaries{};
  std::optional<std::string> next_token{};
};

}  // namespace partstore
