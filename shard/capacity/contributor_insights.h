// ContributorInsights: DynamoDB's CloudWatch Contributor Insights for one table or one global
// secondary index: the keys that are accessed, or throttled, the most.
//
// DynamoDB has four rules per table or GSI (InsightsRule). The accessed rules rank keys by
// ConsumedThroughputUnits = 3 x write units + read units, summed per key per minute; the
// throttled rules rank keys by the number of throttled requests per key per minute. A report
// ranks each key by its largest per-minute value over the window and names that minute.
//
// Units here are *half* units (int64), like partstore/capacity_units.h's read units, so that
// 0.5-RCU eventually consistent reads stay exact: a 1-WCU write contributes 3 x 1 x 2 = 6, a
// strongly consistent 1-RCU read 2, an eventually consistent one 1. The 3x write weighting is the
// caller's job: Record takes the key's units already weighted.
//
// Memory is bounded whatever the key space: each rule keeps one HeavyHitters sketch of
// sketch_capacity counters for the current minute; when a later minute begins, each sketch's top
// kept_per_minute entries are kept as that minute's snapshot and the sketch is cleared. Snapshots
// of the minutes that have left the window (kept_minutes, counting the current one) are dropped.
// So at most 4 x sketch_capacity live counters and (kept_minutes - 1) x 4 x kept_per_minute
// snapshot entries exist. Values come from the sketch: exact for a minute in which the rule saw at
// most sketch_capacity distinct keys. Beyond that a sketch counter may overestimate its key by
// the count it inherited on eviction (its error), so keys are ranked and reported by what the
// sketch guarantees, count - error: a key seen once among many others does not outrank the keys
// that were really busy (the true value is at most Contributor::error above the reported one).
//
// Thread safety: not thread-safe. The owner (a table's or index's capacity state) serializes every
// call under its own mutex; const methods are thread-safe only when nothing modifies the object.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <string_view>
#include <vector>

#include "partstore/item.h"
#include "shard/capacity/heavy_hitters.h"

namespace partstore::capacity {

enum class InsightsRule : uint8_t {
  kAccessedPartitionKeys,   // accessed units per partition key
  kAccessedItems,           // accessed units per item (partition key + sort key)
  kThrottledPartitionKeys,  // throttled requests per partition key
  kThrottledItems,          // throttled requests per item
};
inline constexpr size_t kInsightsRuleCount = 4;

// "MostAccessedPartitionKeys", "MostAccessedItems", "MostThrottledPartitionKeys",
// "MostThrottledItems".
std::string_view InsightsRuleName(InsightsRule rule);

struct InsightsOptions {
  // Counters per rule for the current minute (>= 1; 0 is treated as 1).
  size_t sketch_capacity = 256;
  // Minutes a report covers, the current one included (>= 1; 0 is treated as 1).
  size_t kept_minutes = 60;
  // Entries per rule kept from each closed minute, and taken from the current one for a report.
  size_t kept_per_minute = 100;
  // The resource has no sort key: an item key is its partition key, so the item rules are the
  // partition-key rules. Record then feeds only the partition-key sketches (half the work) and
  // Top() answers the item rules from them.
  bool items_are_partition_keys = false;
};

class ContributorInsights {
 public:
  static constexpr int64_t kMinuteSeconds = 60;

  // One key of a report.
  struct Contributor {
    Item key;        // the key attributes, as made by the display callable
    int64_t value;   // the key's largest per-minute value (guaranteed part): half units
                     // (accessed) or requests
    int64_t error;   // the true value is at most this much above `value` (0: exact)
    int64_t minute;  // start (seconds) of the minute of `value`; the earliest one if tied
    friend bool operator==(const Contributor&, const Contributor&) = default;
  };

  explicit ContributorInsights(InsightsOptions options = {});

  // Moves the current minute forward to the one holding `now_seconds`, closing the minutes in
  // between (an earlier time changes nothing; a negative one counts as 0). Record does this itself;
  // call it before Top() to report a window ending now rather than at the last Record.
  void AdvanceTo(int64_t now_seconds);

  // Records one request's contribution for one key at `now_seconds` (a time earlier than the
  // current minute counts in the current minute).
  //   partition_key: the encoded partition key (opaque bytes).
  //   item_key: the encoded partition key + sort key (opaque bytes); for a table without a sort
  //     key the same bytes as partition_key, and the item rules then rank partition keys too.
  //   half_units: the request's consumed throughput units for this key, 3 x WCU + RCU, in half
  //     units (>= 0). Counted by the accessed rules when > 0.
  //   throttled: the request was throttled: counts 1 request for the throttled rules.
  //   make_partition_display / make_item_display: callables returning the Item to show for
  //     partition_key / item_key, called only when a sketch assigns a counter to the key.
  // A request that was not throttled and consumed no units records nothing. Each callable is
  // called at most twice (once per rule family), as an lvalue.
  template <class P, class I>
  void Record(int64_t now_seconds, std::string_view partition_key, std::string_view item_key,
              int64_t half_units, bool throttled, P&& make_partition_display,
              I&& make_item_display) {
    AdvanceTo(now_seconds);
    const bool items = !options_.items_are_partition_keys;
    if (half_units > 0) {
      Live(InsightsRule::kAccessedPartitionKeys)
          .Add(partition_key, half_units, make_partition_display);
      if (items) Live(InsightsRule::kAccessedItems).Add(item_key, half_units, make_item_display);
    }
    if (throttled) {
      Live(InsightsRule::kThrottledPartitionKeys).Add(partition_key, 1, make_partition_display);
      if (items) Live(InsightsRule::kThrottledItems).Add(item_key, 1, make_item_display);
    }
  }

  // The top n keys of `rule` over the kept minutes up to and including the current one, ranked
  // by per-minute maximum descending, ties by encoded key ascending.
  std::vector<Contributor> Top(InsightsRule rule, size_t n) const;

  // Start (seconds) of the current minute, or -1 before the first Record or AdvanceTo.
  int64_t current_minute() const { return current_minute_; }
  // Counters and snapshot entries held, for checking the memory bound.
  size_t retained_entries() const;

  // Forgets everything, including the current minute.
  void Clear();

 private:
  // One closed minute: each rule's top entries.
  struct MinuteSnapshot {
    int64_t minute = 0;
    std::array<std::vector<HeavyHitters::Entry>, kInsightsRuleCount> top;
  };

  HeavyHitters& Live(InsightsRule rule) { return live_[static_cast<size_t>(rule)]; }

  InsightsOptions options_;
  int64_t current_minute_ = -1;
  std::array<HeavyHitters, kInsightsRuleCount> live_;  // the current minute, one per rule
  std::deque<MinuteSnapshot> closed_;                  // oldest first, all within the window
};

}  // namespace partstore::capacity
