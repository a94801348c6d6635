#include "shard/capacity/contributor_insights.h"

#include <algorithm>
#include <string>
#include <unordered_map>

namespace partstore::capacity {
namespace {

InsightsOptions Normalized(InsightsOptions options) {
  options.sketch_capacity = std::max<size_t>(options.sketch_capacity, 1);
  options.kept_minutes = std::max<size_t>(options.kept_minutes, 1);
  return options;
}

}  // namespace

std::string_view InsightsRuleName(InsightsRule rule) {
  switch (rule) {
    case InsightsRule::kAccessedPartitionKeys:
      return "MostAccessedPartitionKeys";
    case InsightsRule::kAccessedItems:
      return "MostAccessedItems";
    case InsightsRule::kThrottledPartitionKeys:
      return "MostThrottledPartitionKeys";
    case InsightsRule::kThrottledItems:
      return "MostThrottledItems";
  }
  return "Unknown";
}

ContributorInsights::ContributorInsights(InsightsOptions options)
    : options_(Normalized(options)),
      live_{HeavyHitters(options_.sketch_capacity), HeavyHitters(options_.sketch_capacity),
            HeavyHitters(options_.sketch_capacity), HeavyHitters(options_.sketch_capacity)} {}

void ContributorInsights::AdvanceTo(int64_t now_seconds) {
  const int64_t now = std::max<int64_t>(now_seconds, 0);
  const int64_t minute = now - now % kMinuteSeconds;
  if (current_minute_ < 0) {
    current_minute_ = minute;
    return;
  }
  if (minute <= current_minute_) return;

  // The window ending at `minute` holds the minutes starting after `oldest_excluded`.
  const int64_t window = static_cast<int64_t>(options_.kept_minutes) * kMinuteSeconds;
  const int64_t oldest_excluded = minute - window;
  const bool live_empty =
      std::all_of(live_.begin(), live_.end(), [](const HeavyHitters& h) { return h.size() == 0; });
  if (current_minute_ > oldest_excluded && !live_empty) {
    MinuteSnapshot& snapshot = closed_.emplace_back();
    snapshot.minute = current_minute_;
    for (size_t rule = 0; rule < kInsightsRuleCount; ++rule) {
      snapshot.top[rule] = live_[rule].Top(options_.kept_per_minute);
    }
  }
  while (!closed_.empty() && closed_.front().minute <= oldest_excluded) closed_.pop_front();
  for (HeavyHitters& live : live_) live.Clear();
  current_minute_ = minute;
}

std::vector<ContributorInsights::Contributor> ContributorInsights::Top(InsightsRule rule,
                                                                       size_t n) const {
  if (options_.items_are_partition_keys) {
    if (rule == InsightsRule::kAccessedItems) rule = InsightsRule::kAccessedPartitionKeys;
    if (rule == InsightsRule::kThrottledItems) rule = InsightsRule::kThrottledPartitionKeys;
  }
  const size_t r = static_cast<size_t>(rule);
  // Per key: the entry of its best minute. Closed minutes are visited oldest first and a later
  // minute replaces only a strictly larger value, so ties keep the earliest minute.
  // Values are the sketch's guaranteed counts (count - error; see the header).
  struct Best {
    const HeavyHitters::Entry* entry;
    int64_t minute;
    int64_t value() const { return entry->count - entry->error; }
  };
  std::unordered_map<std::string_view, Best> best;
  auto merge = [&best](const std::vector<HeavyHitters::Entry>& entries, int64_t minute) {
    for (const HeavyHitters::Entry& entry : entries) {
      const Best candidate{&entry, minute};
      auto [it, inserted] = best.try_emplace(entry.key, candidate);
      if (!inserted && candidate.value() > it->second.value()) it->second = candidate;
    }
  };
  for (const MinuteSnapshot& snapshot : closed_) merge(snapshot.top[r], snapshot.minute);
  const std::vector<HeavyHitters::Entry> live = live_[r].Top(options_.kept_per_minute);
  merge(live, current_minute_);

  std::vector<Best> order;
  order.reserve(best.size());
  for (const auto& [key, b] : best) order.push_back(b);
  n = std::min(n, order.size());
  // Keys are unique, so the order is total and independent of the hash map's iteration order.
  std::partial_sort(order.begin(), order.begin() + static_cast<ptrdiff_t>(n), order.end(),
                    [](const Best& a, const Best& b) {
                      if (a.value() != b.value()) return a.value() > b.value();
                      return a.entry->key < b.entry->key;
                    });
  std::vector<Contributor> top;
  top.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const HeavyHitters::Entry& e = *order[i].entry;
    top.push_back(Contributor{e.display, order[i].value(), e.error, order[i].minute});
  }
  return top;
}

size_t ContributorInsights::retained_entries() const {
  size_t total = 0;
  for (const HeavyHitters& live : live_) total += live.size();
  for (const MinuteSnapshot& snapshot : closed_) {
    for (const auto& entries : snapshot.top) total += entries.size();
  }
  return total;
}

void ContributorInsights::Clear() {
  for (HeavyHitters& live : live_) live.Clear();
  closed_.clear();
  current_minute_ = -1;
}

}  // namespace partstore::capacity
