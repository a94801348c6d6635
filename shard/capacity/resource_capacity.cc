#include "shard/capacity/resource_capacity.h"

#include <algorithm>
#include <cassert>
#include <utility>

namespace partstore::capacity {

namespace {

using uint128 = unsigned __int128;

constexpr uint64_t kCellWidth = uint64_t{1} << (64 - kCellBits);

uint64_t CellOf(uint64_t hash) { return hash >> (64 - kCellBits); }

// The first hash of partition i of n equal ranges, rounded down to a cell.
uint64_t EqualBoundary(size_t i, size_t n) {
  const uint64_t cell = static_cast<uint64_t>((static_cast<uint128>(i) * kCells) / n);
  return cell << (64 - kCellBits);
}

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// A cheap deterministic mix (splitmix64's finalizer) for reservoir sampling.
uint64_t Mix(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

Item DisplayOf(const KeySchema& key, const KeyAccess& access, bool with_sort) {
  Item out;
  auto add = [&](const std::string& name) {
    if (access.source != nullptr) {
      if (auto it = access.source->find(name); it != access.source->end()) out.emplace(*it);
    } else if (access.stored_source != nullptr) {
      if (std::optional<ValueView> value = access.stored_source->Find(name)) {
        out.emplace(name, value->ToValue());
      }
    }
  };
  add(key.partition.name);
  if (with_sort && key.sort) add(key.sort->name);
  return out;
}

}  // namespace

std::string_view SplitReasonName(SplitReason reason) {
  switch (reason) {
    case SplitReason::kThroughput:
      return "THROUGHPUT";
    case SplitReason::kSize:
      return "SIZE";
    case SplitReason::kHeat:
      return "HEAT";
    case SplitReason::kPeak:
      return "PEAK";
  }
  return "";
}

ResourceCapacity::ResourceCapacity(ThrottleResource kind, std::string arn, KeySchema key,
                                   ResourceSettings settings, const CapacityOptions& options,
                                   int64_t now)
    : kind_(kind),
      arn_(std::move(arn)),
      key_(std::move(key)),
      options_(options),
      settings_(settings),
      cells_(kCells, {0, 0}),
      metrics_(SeriesRetention{options.metric_seconds, options.metric_minutes}),
      insights_(InsightsOptions{.sketch_capacity = options.insights_sketch_capacity,
                                .kept_minutes = options.insights_minutes,
                                .items_are_partition_keys = !key_.sort.has_value()}),
      insights_enabled_(options.contributor_insights),
      current_second_(now / kMicrosPerSecond),
      peak_read_units_(options.on_demand_initial_peak_read_units),
      peak_write_units_(options.on_demand_initial_peak_write_units) {
  const size_t n = std::min(TargetPartitions(), kCells);
  for (size_t i = 0; i < n; ++i) {
    Partition p;
    p.id = next_id_++;
    p.begin = EqualBoundary(i, n);
    p.end = i + 1 < n ? EqualBoundary(i + 1, n) - 1 : UINT64_MAX;
    p.created_micros = now;
    p.metrics = MetricSeries(
        SeriesRetention{options_.partition_metric_seconds, options_.partition_metric_minutes});
    partitions_.push_back(std::move(p));
  }
  IndexCells();
  Allocate();
  // A new resource starts with a full second of every bucket and no burst.
  for (Partition& p : partitions_) {
    for (PartitionSide* side : {&p.read, &p.write}) {
      side->cap.tokens = side->cap.capacity;
      side->allocated.tokens = side->allocated.capacity;
      side->cap.updated = side->allocated.updated = now;
    }
  }
  for (TokenBucket* table : {&table_read_, &table_write_}) {
    table->tokens = table->capacity;
    table->updated = now;
  }
}

size_t ResourceCapacity::TargetPartitions() const {
  int64_t n;
  if (settings_.on_demand) {
    n = std::max(CeilDiv(2 * peak_read_units_, options_.partition_read_units),
                 CeilDiv(2 * peak_write_units_, options_.partition_write_units));
  } else {
    // ceil(RCU / 3000 + WCU / 1000), in integers.
    const int64_t r = options_.partition_read_units;
    const int64_t w = options_.partition_write_units;
    n = CeilDiv(settings_.read_units * w + settings_.write_units * r, r * w);
  }
  n = std::max({n, CeilDiv(settings_.warm_read_units, options_.partition_read_units),
                CeilDiv(settings_.warm_write_units, options_.partition_write_units)});
  return static_cast<size_t>(std::max<int64_t>(n, 1));
}

int64_t ResourceCapacity::OnDemandLimit(ThrottleOperation op) const {
  const int64_t quota = op == ThrottleOperation::kRead ? options_.on_demand_table_read_quota
                                                       : options_.on_demand_table_write_quota;
  return OnDemandMaximumBinds(op)
             ? (op == ThrottleOperation::kRead ? settings_.max_read_request_units
                                               : settings_.max_write_request_units)
             : quota;
}

bool ResourceCapacity::OnDemandMaximumBinds(ThrottleOperation op) const {
  const int64_t quota = op == ThrottleOperation::kRead ? options_.on_demand_table_read_quota
                                                       : options_.on_demand_table_write_quota;
  const int64_t maximum = op == ThrottleOperation::kRead ? settings_.max_read_request_units
                                                         : settings_.max_write_request_units;
  return maximum > 0 && maximum < quota;
}

void ResourceCapacity::Allocate() {
  const int64_t n = static_cast<int64_t>(partitions_.size());
  const int64_t cap_read = UnitsPerSecondToRate(options_.partition_read_units);
  const int64_t cap_write = UnitsPerSecondToRate(options_.partition_write_units);
  int64_t share_read = cap_read, share_write = cap_write;
  if (!settings_.on_demand) {
    share_read = std::min(UnitsPerSecondToRate(settings_.read_units) / n, cap_read);
    share_write = std::min(UnitsPerSecondToRate(settings_.write_units) / n, cap_write);
  }
  for (Partition& p : partitions_) {
    for (auto [side, cap, share] : {std::tuple{&p.read, cap_read, share_read},
                                    std::tuple{&p.write, cap_write, share_write}}) {
      side->cap.rate = side->cap.capacity = cap;
      side->allocated.rate = side->allocated.capacity = share;
      side->allocated.tokens = std::min(side->allocated.tokens, share);
      // On-demand partitions run at their hard limit: nothing to save for bursts.
      side->burst.capacity = settings_.on_demand ? 0 : share * options_.burst_seconds;
      side->burst.tokens = std::min(side->burst.tokens, side->burst.capacity);
    }
  }
  table_read_.rate = table_read_.capacity = UnitsPerSecondToRate(
      settings_.on_demand ? OnDemandLimit(ThrottleOperation::kRead) : settings_.read_units);
  table_write_.rate = table_write_.capacity = UnitsPerSecondToRate(
      settings_.on_demand ? OnDemandLimit(ThrottleOperation::kWrite) : settings_.write_units);
  table_read_.tokens = std::min(table_read_.tokens, table_read_.capacity);
  table_write_.tokens = std::min(table_write_.tokens, table_write_.capacity);
}

void ResourceCapacity::RefillSide(PartitionSide& side, int64_t now) {
  side.cap.Refill(now);
  side.burst.Fill(side.allocated.Refill(now));
}

void ResourceCapacity::RefillAll(int64_t now) {
  for (Partition& p : partitions_) {
    RefillSide(p.read, now);
    RefillSide(p.write, now);
  }
  table_read_.Refill(now);
  table_write_.Refill(now);
}

void ResourceCapacity::AdvanceTo(int64_t now) {
  const int64_t second = now / kMicrosPerSecond;
  if (second > current_second_) {
    CloseSecond(current_second_, second * kMicrosPerSecond);
    current_second_ = second;
  }
  if (insights_enabled_) insights_.AdvanceTo(second);
}

size_t ResourceCapacity::Locate(uint64_t hash, ThrottleOperation op, int64_t now) {
  // Buckets refill lazily, when a request needs them: a bucket's refill depends only on the time
  // elapsed, so doing it late gives the same tokens.
  const size_t p = PartitionOf(hash);
  RefillSide(SideOf(partitions_[p], op), now);
  TableOf(op).Refill(now);
  return p;
}

void ResourceCapacity::CloseSecond(int64_t second, int64_t now) {
  // On-demand peaks: a minute's average per-second consumption, once the minute is old enough
  // (an average, so that one second of a bucket's saved tokens does not count as a peak).
  if (settings_.on_demand) {
    if (second_read_tokens_ > 0 || second_write_tokens_ > 0) {
      const int64_t minute = second / 60 * 60;
      if (pending_peaks_.empty() || pending_peaks_.back()[0] != minute) {
        pending_peaks_.push_back({minute, 0, 0});
      }
      pending_peaks_.back()[1] += second_read_tokens_;
      pending_peaks_.back()[2] += second_write_tokens_;
    }
    const int64_t next_second = now / kMicrosPerSecond;
    while (!pending_peaks_.empty() &&
           pending_peaks_.front()[0] + 60 + options_.on_demand_peak_delay_seconds <= next_second) {
      const int64_t per_unit_minute = UnitsPerSecondToRate(1) * 60;
      peak_read_units_ = std::max(peak_read_units_, pending_peaks_.front()[1] / per_unit_minute);
      peak_write_units_ = std::max(peak_write_units_, pending_peaks_.front()[2] / per_unit_minute);
      pending_peaks_.pop_front();
    }
  }
  second_read_tokens_ = second_write_tokens_ = 0;

  // Heat: a partition near its hard limit (or throttled at it) for long enough splits.
  const int64_t read_hot =
      UnitsPerSecondToRate(options_.partition_read_units) / 100 * options_.heat_percent;
  const int64_t write_hot =
      UnitsPerSecondToRate(options_.partition_write_units) / 100 * options_.heat_percent;
  std::vector<std::pair<size_t, uint64_t>> heat_splits;
  for (size_t i = 0; i < partitions_.size(); ++i) {
    Partition& p = partitions_[i];
    const bool hot = p.read.second_tokens >= read_hot || p.write.second_tokens >= write_hot ||
                     p.read.second_throttled || p.write.second_throttled;
    p.last_second_tokens = p.read.second_tokens + 3 * p.write.second_tokens;
    p.read.second_tokens = p.write.second_tokens = 0;
    p.read.second_throttled = p.write.second_throttled = false;
    if (!hot) {
      p.hot_seconds = 0;
      continue;
    }
    p.hot_seconds = p.last_hot_second == second - 1 ? p.hot_seconds + 1 : 1;
    p.last_hot_second = second;
    // A new hot streak samples afresh: the split point is where this heat is, not past traffic.
    if (p.hot_seconds == 1) p.samples_seen = 0;
    if (p.hot_seconds >= options_.heat_split_seconds) {
      if (std::optional<uint64_t> at = HeatSplitPoint(p)) heat_splits.emplace_back(i, *at);
      p.hot_seconds = 0;  // wait another full period before trying again
    }
  }
  // From the right so that earlier indexes stay valid. Buckets are brought to now first: a split
  // shares them out.
  if (!heat_splits.empty() || (settings_.on_demand && partitions_.size() < TargetPartitions())) {
    RefillAll(now);
  }
  for (auto it = heat_splits.rbegin(); it != heat_splits.rend(); ++it) {
    Split(it->first, it->second, SplitReason::kHeat, now);
  }
  if (!heat_splits.empty()) Allocate();
  if (settings_.on_demand && partitions_.size() < TargetPartitions()) {
    SplitBusiest(TargetPartitions(), now);
  }
}

void ResourceCapacity::SplitBusiest(size_t count, int64_t now) {
  // The busiest partitions of the second that just closed split first, each at its accessed
  // keys' median (its middle when it has no samples), one at a time until there are `count`.
  std::vector<std::pair<int64_t, int>> busiest;  // consumed tokens, partition id
  for (const Partition& p : partitions_) {
    busiest.emplace_back(p.last_second_tokens, p.id);
  }
  std::sort(busiest.begin(), busiest.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  for (const auto& entry : busiest) {
    if (partitions_.size() >= count) break;
    const int id = entry.second;
    auto it = std::find_if(partitions_.begin(), partitions_.end(),
                           [&](const Partition& p) { return p.id == id; });
    const size_t i = static_cast<size_t>(it - partitions_.begin());
    const uint64_t first = CellOf(it->begin), last = CellOf(it->end);
    if (first == last) continue;
    const uint64_t at =
        HeatSplitPoint(*it).value_or((first + (last - first + 1) / 2) << (64 - kCellBits));
    Split(i, at, SplitReason::kPeak, now);
  }
  Allocate();
}

std::optional<uint64_t> ResourceCapacity::HeatSplitPoint(const Partition& p) const {
  const size_t n = static_cast<size_t>(std::min<uint64_t>(p.samples_seen, Partition::kSamples));
  if (n < 2) return std::nullopt;
  std::vector<uint64_t> cells;
  for (size_t i = 0; i < n; ++i) cells.push_back(CellOf(p.samples[i]));
  std::sort(cells.begin(), cells.end());
  if (cells.front() == cells.back()) return std::nullopt;  // one key (or one cell) takes it all
  // The median's cell starts the right half; if that is the first cell, the next distinct one.
  uint64_t at = cells[n / 2];
  if (at == cells.front()) at = *std::upper_bound(cells.begin(), cells.end(), at);
  const uint64_t boundary = at << (64 - kCellBits);
  if (boundary <= p.begin || boundary > p.end) return std::nullopt;
  return boundary;
}

void ResourceCapacity::Split(size_t index, uint64_t at, SplitReason reason, int64_t now) {
  Partition parent = std::move(partitions_[index]);
  Partition left, right;
  left.id = next_id_++;
  right.id = next_id_++;
  left.begin = parent.begin;
  left.end = at - 1;
  right.begin = at;
  right.end = parent.end;
  for (Partition* child : {&left, &right}) {
    child->created_micros = now;
    child->metrics = MetricSeries(
        SeriesRetention{options_.partition_metric_seconds, options_.partition_metric_minutes});
    for (uint64_t c = CellOf(child->begin); c <= CellOf(child->end); ++c) {
      child->size_bytes += cells_[c][0];
      child->item_count += cells_[c][1];
    }
    // Each half starts with half the parent's tokens (nothing is created by splitting).
    for (auto [mine, theirs] :
         {std::pair{&child->read, &parent.read}, std::pair{&child->write, &parent.write}}) {
      mine->cap = theirs->cap;
      mine->cap.tokens = theirs->cap.tokens;  // the hard limit is per partition: each has its own
      mine->allocated = theirs->allocated;
      mine->allocated.tokens = theirs->allocated.tokens / 2;
      mine->burst = theirs->burst;
      mine->burst.tokens = theirs->burst.tokens / 2;
    }
  }
  splits_.push_back({now, parent.id, left.id, right.id, at, reason});
  split_count_.store(splits_.size(), std::memory_order_release);
  retired_.emplace_back(parent.id, std::move(parent.metrics));
  partitions_[index] = std::move(left);
  partitions_.insert(partitions_.begin() + static_cast<std::ptrdiff_t>(index) + 1,
                     std::move(right));
  IndexCells();
}

void ResourceCapacity::IndexCells() {
  static_assert(kCells <= size_t{UINT16_MAX} + 1, "a partition index per cell fits 16 bits");
  partition_of_cell_.resize(kCells);
  for (size_t i = 0; i < partitions_.size(); ++i) {
    const Partition& p = partitions_[i];
    assert(p.begin % kCellWidth == 0);
    std::fill(partition_of_cell_.begin() + static_cast<std::ptrdiff_t>(CellOf(p.begin)),
              partition_of_cell_.begin() + static_cast<std::ptrdiff_t>(CellOf(p.end)) + 1,
              static_cast<uint16_t>(i));
  }
}

void ResourceCapacity::SplitUntil(size_t count, SplitReason reason, int64_t now) {
  while (partitions_.size() < count) {
    bool split_any = false;
    for (size_t i = partitions_.size(); i-- > 0;) {
      const Partition& p = partitions_[i];
      if (CellOf(p.begin) == CellOf(p.end)) continue;  // one cell: as small as it gets
      const uint64_t first = CellOf(p.begin), last = CellOf(p.end);
      Split(i, (first + (last - first + 1) / 2) << (64 - kCellBits), reason, now);
      split_any = true;
    }
    if (!split_any) break;
  }
  Allocate();
}

size_t ResourceCapacity::PartitionOf(uint64_t hash) const {
  return partition_of_cell_[CellOf(hash)];
}

std::optional<ThrottleLimit> ResourceCapacity::Check(size_t index, ThrottleOperation op,
                                                     int64_t tokens) const {
  const Partition& p = partitions_[index];
  const PartitionSide& side = SideOf(p, op);
  if (side.cap.tokens < tokens) return ThrottleLimit::kKeyRangeThroughputExceeded;
  const TokenBucket& table = TableOf(op);
  if (settings_.on_demand) {
    if (table.tokens >= tokens) return std::nullopt;
    return OnDemandMaximumBinds(op) ? ThrottleLimit::kMaxOnDemandThroughputExceeded
                                    : ThrottleLimit::kAccountLimitExceeded;
  }
  const int64_t own = side.allocated.available() + side.burst.available();
  if (own >= tokens) return std::nullopt;
  if (table.available() >= tokens - own) return std::nullopt;  // adaptive capacity
  return ThrottleLimit::kProvisionedThroughputExceeded;
}

void ResourceCapacity::Charge(size_t index, ThrottleOperation op, int64_t tokens, uint64_t hash,
                              int64_t returned_items, RequestCounting counting, int64_t now) {
  Partition& p = partitions_[index];
  PartitionSide& side = SideOf(p, op);
  side.cap.tokens -= tokens;
  int64_t rest = tokens;
  const int64_t from_allocated = std::min(rest, side.allocated.available());
  side.allocated.tokens -= from_allocated;
  rest -= from_allocated;
  const int64_t from_burst = std::min(rest, side.burst.available());
  side.burst.tokens -= from_burst;
  rest -= from_burst;
  if (rest > 0 && !settings_.on_demand) {
    // Adaptive capacity: the table's unused throughput pays (it is spent below, as every charge).
    const int64_t adaptive = std::min(rest, TableOf(op).available());
    side.adaptive_tokens += adaptive;
    rest -= adaptive;
  }
  side.allocated.tokens -= rest;  // a read's overdraft: a debt the refill pays back first
  // The table's bucket may owe up to one second: while the table consumes its throughput or more
  // (partitions bursting, say), it has nothing to lend.
  TokenBucket& table = TableOf(op);
  table.tokens = std::max<int64_t>(table.tokens - tokens, -table.capacity);
  side.second_tokens += tokens;
  (op == ThrottleOperation::kRead ? second_read_tokens_ : second_write_tokens_) += tokens;

  // Reservoir sample of accessed hashes.
  const uint64_t seen = p.samples_seen++;
  if (seen < Partition::kSamples) {
    p.samples[seen] = hash;
  } else if (const uint64_t j = Mix(seen ^ hash) % (seen + 1); j < Partition::kSamples) {
    p.samples[j] = hash;
  }

  const int64_t half_units = tokens / kTokensPerHalfUnit;
  for (MetricCounters* c : {&p.metrics.Current(now), &metrics_.Current(now)}) {
    if (op == ThrottleOperation::kRead) {
      c->consumed_read_half_units += half_units;
      c->read_requests += counting == RequestCounting::kCountRequest ? 1 : 0;
      c->returned_item_count += returned_items;
    } else {
      c->consumed_write_half_units += half_units;
      c->write_requests += counting == RequestCounting::kCountRequest ? 1 : 0;
    }
  }
}

void ResourceCapacity::CountThrottleEvent(std::optional<size_t> index, ThrottleReason reason,
                                          int64_t now) {
  MetricCounters delta;
  delta.throttle_events[static_cast<size_t>(reason.index())] = 1;
  if (index) {
    Partition& p = partitions_[*index];
    if (reason.limit == ThrottleLimit::kKeyRangeThroughputExceeded) {
      SideOf(p, reason.operation).second_throttled = true;
    }
    p.metrics.Add(now, delta);
  }
  metrics_.Add(now, delta);
}

void ResourceCapacity::CountThrottledRequest(std::optional<size_t> index, ThrottleOperation op,
                                             int64_t now) {
  for (MetricCounters* c :
       {index ? &partitions_[*index].metrics.Current(now) : nullptr, &metrics_.Current(now)}) {
    if (c == nullptr) continue;
    (op == ThrottleOperation::kRead ? c->throttled_read_requests : c->throttled_write_requests) +=
        1;
  }
}

void ResourceCapacity::RecordKey(const KeyAccess& key, int64_t half_units, KeyAccessOutcome outcome,
                                 int64_t now) {
  // An empty item key: a request that began while insights were off (see records_keys()).
  if (!insights_enabled_ || key.item.empty()) return;
  insights_.Record(
      now / kMicrosPerSecond, key.partition, key.item, half_units,
      outcome == KeyAccessOutcome::kThrottled, [&] { return DisplayOf(key_, key, false); },
      [&] { return DisplayOf(key_, key, true); });
}

void ResourceCapacity::RecordThrottle(size_t p, ThrottleReason reason, const KeyAccess* key,
                                      int64_t now) {
  if (recent_throttles_.size() == kRecentThrottles) recent_throttles_.pop_front();
  recent_throttles_.push_back({.time_micros = now,
                               .partition_id = partitions_[p].id,
                               .reason = reason,
                               .key = key != nullptr ? DisplayOf(key_, *key, true) : Item()});
}

void ResourceCapacity::set_insights_enabled(bool enabled) {
  if (!enabled) insights_.Clear();
  insights_enabled_ = enabled;
}

void ResourceCapacity::NoteData(uint64_t hash, int64_t bytes, int64_t items, int64_t now) {
  NoteData(PartitionOf(hash), hash, bytes, items, now);
}

void ResourceCapacity::NoteData(size_t index, uint64_t hash, int64_t bytes, int64_t items,
                                int64_t now) {
  auto& cell = cells_[CellOf(hash)];
  cell[0] += bytes;
  cell[1] += items;
  Partition& p = partitions_[index];
  p.size_bytes += bytes;
  p.item_count += items;
  if (static_cast<uint64_t>(std::max<int64_t>(p.size_bytes, 0)) > options_.partition_size_limit &&
      CellOf(p.begin) != CellOf(p.end)) {
    RefillAll(now);
    const uint64_t first = CellOf(p.begin), last = CellOf(p.end);
    Split(index, (first + (last - first + 1) / 2) << (64 - kCellBits), SplitReason::kSize, now);
    Allocate();
  }
}

void ResourceCapacity::Update(ResourceSettings settings, int64_t now) {
  AdvanceTo(now);
  RefillAll(now);  // what accrued at the old rates
  const bool was_on_demand = settings_.on_demand;
  settings_ = settings;
  if (!was_on_demand && settings.on_demand) {
    // Switching to on-demand: the previous peak is at least half the provisioned throughput.
    // (DynamoDB keeps the higher of that and a new table's.)
    peak_read_units_ = std::max(peak_read_units_, settings_.read_units / 2);
    peak_write_units_ = std::max(peak_write_units_, settings_.write_units / 2);
  }
  const size_t target = TargetPartitions();
  if (partitions_.size() < target) {
    SplitUntil(target, settings.on_demand ? SplitReason::kPeak : SplitReason::kThroughput, now);
  }
  Allocate();
}

}  // namespace partstore::capacity
