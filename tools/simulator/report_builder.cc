#include "tools/simulator/report_builder.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace partstore::sim {
namespace {

constexpr int64_t kMicros = 1'000'000;
// The heat map and the timeline have at most this many columns.
constexpr int64_t kMaxColumns = 120;
// Report::errors keeps this many distinct messages.
constexpr size_t kMaxErrors = 10;

RetryDelay DelayOf(std::vector<int64_t> delays) {
  RetryDelay out;
  if (delays.empty()) return out;
  std::sort(delays.begin(), delays.end());
  out.delayed_requests = static_cast<int64_t>(delays.size());
  double sum = 0;
  for (int64_t d : delays) sum += static_cast<double>(d);
  auto at = [&](double q) {  // nearest rank
    const size_t rank = static_cast<size_t>(std::ceil(q * static_cast<double>(delays.size())));
    return static_cast<double>(delays[std::clamp<size_t>(rank, 1, delays.size()) - 1]) / 1000.0;
  };
  out.mean_ms = sum / static_cast<double>(delays.size()) / 1000.0;
  out.p50_ms = at(0.50);
  out.p99_ms = at(0.99);
  out.max_ms = static_cast<double>(delays.back()) / 1000.0;
  return out;
}

std::string Hex(uint64_t v) { return fmt::format("{:016x}", v); }

std::string ValueText(const Value& value) {
  if (const std::string* s = value.if_string()) return *s;
  if (const Number* n = value.if_number()) return n->ToString();
  return "(binary)";
}

// "PK=PRODUCT#1, SK=REVIEW#7": the partition key first.
std::string KeyText(const Item& key, const std::string& partition) {
  std::string out;
  if (auto it = key.find(partition); it != key.end()) out = partition + "=" + ValueText(it->second);
  for (const auto& [name, value] : key) {
    if (name == partition) continue;
    out += (out.empty() ? "" : ", ") + name + "=" + ValueText(value);
  }
  return out;
}

std::vector<ReasonCount> Reasons(const std::array<int64_t, kThrottleReasonCount>& events) {
  std::vector<ReasonCount> out;
  for (int i = 0; i < kThrottleReasonCount; ++i) {
    if (events[i] != 0) out.push_back({ThrottleReason::FromIndex(i).name(), events[i]});
  }
  return out;
}

struct ResourceRef {
  const TableSpec* table;
  const IndexSpec* index;  // null: the table
};

class Builder {
 public:
  Builder(Database& db, const Workload& w, const ClientTally& tally)
      : db_(db), w_(w), tally_(tally) {
    total_micros_ = TotalMicros(w);
    run_seconds_ = static_cast<double>(total_micros_) / kMicros;
    seconds_ = std::max<int64_t>((total_micros_ + kMicros - 1) / kMicros, 1);
    bucket_ = std::max<int64_t>((seconds_ + kMaxColumns - 1) / kMaxColumns, 1);
    columns_ = (seconds_ + bucket_ - 1) / bucket_;
  }

  Result<Report> Build();

 private:
  Result<ResourceReport> Resource(const ResourceRef& ref);
  void Partitions(const DescribePartitionsResult& described, const GetMetricsResult& metrics,
                  ResourceReport& out);
  // A provisioned resource's capacity over the run: auto scaling's actions, its minutes and its
  // capacity-unit-hours.
  void Capacity(const GetMetricsResult& metrics, ResourceReport& out);

  Database& db_;
  const Workload& w_;
  const ClientTally& tally_;
  int64_t total_micros_ = 0;
  double run_seconds_ = 0;  // total_micros_ in seconds
  int64_t seconds_ = 1;     // seconds the run touches (the last one possibly in part)
  int64_t bucket_ = 1;
  int64_t columns_ = 1;
  // Throttle events per second, summed over the tables (which count their GSIs' too).
  std::vector<std::array<int64_t, kThrottleReasonCount>> second_events_;
};

void Builder::Partitions(const DescribePartitionsResult& described, const GetMetricsResult& metrics,
                         ResourceReport& out) {
  const capacity::CapacityOptions& limits = db_.options().capacity;
  // Every partition that existed: the live ones, and split parents rebuilt from their children.
  std::map<int, PartitionReport> all;
  struct Range {
    uint64_t start, end;
  };
  std::map<int, Range> ranges;
  for (const PartitionDescription& p : described.partitions) {
    PartitionReport r;
    r.id = p.partition_id;
    r.created_seconds = p.created_seconds;
    r.item_count = p.item_count;
    r.size_bytes = p.size_bytes;
    all[p.partition_id] = r;
    ranges[p.partition_id] = {p.hash_range_start, p.hash_range_end};
  }
  std::vector<PartitionSplitDescription> splits = described.splits;
  std::sort(splits.begin(), splits.end(), [](const auto& a, const auto& b) {
    return a.time_seconds != b.time_seconds ? a.time_seconds < b.time_seconds
                                            : a.parent_id < b.parent_id;
  });
  // Latest split first: its children's ranges are known by then.
  for (auto it = splits.rbegin(); it != splits.rend(); ++it) {
    PartitionReport& parent = all[it->parent_id];
    parent.id = it->parent_id;
    parent.retired_seconds = it->time_seconds;
    const auto left = ranges.find(it->left_id);
    const auto right = ranges.find(it->right_id);
    if (left != ranges.end() && right != ranges.end()) {
      ranges[it->parent_id] = {left->second.start, right->second.end};
    }
    all[it->left_id].created_seconds = it->time_seconds;
    all[it->right_id].created_seconds = it->time_seconds;
  }
  for (const PartitionSplitDescription& s : splits) {
    out.splits.push_back({s.time_seconds, s.parent_id, s.left_id, s.right_id, s.reason});
  }
  for (auto& [id, r] : all) {
    r.id = id;
    if (auto range = ranges.find(id); range != ranges.end()) {
      r.hash_range_start = Hex(range->second.start);
      r.hash_range_end = Hex(range->second.end);
    }
  }

  // Consumed and throttled per partition and second, from its metric series.
  HeatMap& heat = out.heat_map;
  heat.bucket_seconds = bucket_;
  heat.columns = columns_;
  std::map<int, const PartitionMetrics*> series;
  for (const PartitionMetrics& m : metrics.partitions) series[m.partition_id] = &m;
  std::vector<const PartitionReport*> rows;
  for (const auto& [id, r] : all) rows.push_back(&r);
  std::sort(rows.begin(), rows.end(), [](const PartitionReport* a, const PartitionReport* b) {
    if (a->hash_range_start != b->hash_range_start)
      return a->hash_range_start < b->hash_range_start;
    if (a->created_seconds != b->created_seconds) return a->created_seconds < b->created_seconds;
    return a->id < b->id;
  });
  for (const PartitionReport* row : rows) {
    PartitionReport& r = all[row->id];
    std::vector<double> reads(static_cast<size_t>(columns_), 0.0);
    std::vector<double> writes(static_cast<size_t>(columns_), 0.0);
    std::vector<int64_t> throttled(static_cast<size_t>(columns_), 0);
    if (auto s = series.find(r.id); s != series.end()) {
      for (const capacity::MetricPoint& point : s->second->points) {
        const auto& c = point.counters;
        r.consumed_read_units += static_cast<double>(c.consumed_read_half_units) / 2;
        r.consumed_write_units += static_cast<double>(c.consumed_write_half_units) / 2;
        r.throttled_read_requests += c.throttled_read_requests;
        r.throttled_write_requests += c.throttled_write_requests;
        const int64_t column = std::clamp<int64_t>(point.timestamp / bucket_, 0, columns_ - 1);
        reads[static_cast<size_t>(column)] += static_cast<double>(c.consumed_read_half_units) / 2;
        writes[static_cast<size_t>(column)] += static_cast<double>(c.consumed_write_half_units) / 2;
        throttled[static_cast<size_t>(column)] +=
            c.throttled_read_requests + c.throttled_write_requests;
      }
    }
    std::vector<double> utilization(static_cast<size_t>(columns_), 0.0);
    for (int64_t c = 0; c < columns_; ++c) {
      const size_t i = static_cast<size_t>(c);
      // Average units per second over the part of the bucket inside the run (a run of 2.5 s has
      // a last bucket of half a second).
      const double begin = static_cast<double>(c * bucket_);
      const double end = std::min(static_cast<double>((c + 1) * bucket_), run_seconds_);
      reads[i] /= end - begin;
      writes[i] /= end - begin;
      const bool existed =
          r.created_seconds < end && (!r.retired_seconds || *r.retired_seconds > begin);
      utilization[i] = existed
                           ? std::max(reads[i] / static_cast<double>(limits.partition_read_units),
                                      writes[i] / static_cast<double>(limits.partition_write_units))
                           : -1.0;
    }
    heat.partition_ids.push_back(r.id);
    heat.read_units.push_back(std::move(reads));
    heat.write_units.push_back(std::move(writes));
    heat.utilization.push_back(std::move(utilization));
    heat.throttled.push_back(std::move(throttled));
  }
  for (auto& [id, r] : all) out.partitions.push_back(std::move(r));
}

void Builder::Capacity(const GetMetricsResult& metrics, ResourceReport& out) {
  if (out.billing_mode != "PROVISIONED") return;
  // The capacity in effect from each time on: the start's, then each action's.
  struct Change {
    double at;
    bool read;
    int64_t to;
  };
  std::vector<Change> changes;
  for (const ScalingAction& a : tally_.scaling) {
    if (a.table != out.table || a.index != out.index) continue;
    out.scaling_actions.push_back({.time_seconds = a.time_seconds,
                                   .effective_seconds = a.effective_seconds,
                                   .dimension = a.read ? "read" : "write",
                                   .from = a.from,
                                   .to = a.to,
                                   .consumed_per_second = a.consumed_per_second,
                                   .reason = a.reason});
    if (a.effective_seconds <= run_seconds_) changes.push_back({a.effective_seconds, a.read, a.to});
  }
  std::stable_sort(changes.begin(), changes.end(),
                   [](const Change& a, const Change& b) { return a.at < b.at; });
  std::stable_sort(out.scaling_actions.begin(), out.scaling_actions.end(),
                   [](const ScalingActionReport& a, const ScalingActionReport& b) {
                     return a.time_seconds < b.time_seconds;
                   });
  int64_t read = out.read_capacity;
  int64_t write = out.write_capacity;
  double since = 0;
  for (const Change& c : changes) {
    out.read_capacity_unit_hours += static_cast<double>(read) * (c.at - since) / 3600;
    out.write_capacity_unit_hours += static_cast<double>(write) * (c.at - since) / 3600;
    since = c.at;
    (c.read ? read : write) = c.to;
  }
  out.read_capacity_unit_hours += static_cast<double>(read) * (run_seconds_ - since) / 3600;
  out.write_capacity_unit_hours += static_cast<double>(write) * (run_seconds_ - since) / 3600;

  // Every minute: the capacity at its start and the consumed units (the per-second series summed).
  const int64_t minutes = std::max<int64_t>((seconds_ + 59) / 60, 1);
  out.capacity_minutes.resize(static_cast<size_t>(minutes));
  read = out.read_capacity;
  write = out.write_capacity;
  size_t next = 0;
  for (int64_t m = 0; m < minutes; ++m) {
    CapacityMinute& minute = out.capacity_minutes[static_cast<size_t>(m)];
    minute.start_seconds = static_cast<double>(m * 60);
    for (; next < changes.size() && changes[next].at <= minute.start_seconds; ++next) {
      (changes[next].read ? read : write) = changes[next].to;
    }
    minute.read_capacity = read;
    minute.write_capacity = write;
  }
  for (const capacity::MetricPoint& point : metrics.points) {
    if (point.timestamp < 0) continue;
    const size_t m = static_cast<size_t>(point.timestamp / 60);
    if (m >= out.capacity_minutes.size()) continue;
    out.capacity_minutes[m].consumed_read_per_second +=
        static_cast<double>(point.counters.consumed_read_half_units) / 2 / 60;
    out.capacity_minutes[m].consumed_write_per_second +=
        static_cast<double>(point.counters.consumed_write_half_units) / 2 / 60;
  }
}

Result<ResourceReport> Builder::Resource(const ResourceRef& ref) {
  ResourceReport out;
  out.table = ref.table->name;
  std::optional<std::string> index;
  if (ref.index != nullptr) index = ref.index->name;
  out.index = index;
  out.billing_mode = ref.table->on_demand ? "PAY_PER_REQUEST" : "PROVISIONED";
  out.table_class = std::string(TableClassName(ref.table->table_class));
  if (!ref.table->on_demand) {
    out.read_capacity = ref.index ? ref.index->read_capacity : ref.table->read_capacity;
    out.write_capacity = ref.index ? ref.index->write_capacity : ref.table->write_capacity;
  }
  PARTSTORE_ASSIGN_OR_RETURN(DescribeTableResult table, db_.DescribeTable({out.table}));
  out.item_count = table.table.item_count;
  out.size_bytes = table.table.table_size_bytes;
  for (const GlobalSecondaryIndexDescription& gsi : table.table.global_secondary_indexes) {
    if (index && gsi.index_name == *index) {
      out.item_count = gsi.item_count;
      out.size_bytes = gsi.index_size_bytes;
    }
  }
  PARTSTORE_ASSIGN_OR_RETURN(DescribePartitionsResult described,
                             db_.DescribePartitions({out.table, index}));
  PARTSTORE_ASSIGN_OR_RETURN(GetMetricsResult metrics,
                             db_.GetMetrics({.table_name = out.table,
                                             .index_name = index,
                                             .period = 1,
                                             .start_time = 0,
                                             .end_time = seconds_,
                                             .include_partitions = true}));
  std::array<int64_t, kThrottleReasonCount> events{};
  for (const capacity::MetricPoint& point : metrics.points) {
    const auto& c = point.counters;
    const double reads = static_cast<double>(c.consumed_read_half_units) / 2;
    const double writes = static_cast<double>(c.consumed_write_half_units) / 2;
    out.consumed_read_units += reads;
    out.consumed_write_units += writes;
    out.peak_read_units = std::max(out.peak_read_units, reads);
    out.peak_write_units = std::max(out.peak_write_units, writes);
    out.read_requests += c.read_requests;
    out.write_requests += c.write_requests;
    out.throttled_read_requests += c.throttled_read_requests;
    out.throttled_write_requests += c.throttled_write_requests;
    for (int i = 0; i < kThrottleReasonCount; ++i) {
      events[i] += c.throttle_events[i];
      // The table's series counts its GSIs' write throttles too, but not their read throttles:
      // those come from the GSI's own series.
      const bool counted = ref.index == nullptr ||
                           ThrottleReason::FromIndex(i).operation == ThrottleOperation::kRead;
      if (counted && point.timestamp >= 0) {
        const size_t s = static_cast<size_t>(point.timestamp);
        if (s >= second_events_.size()) second_events_.resize(s + 1);
        second_events_[s][i] += c.throttle_events[i];
      }
    }
  }
  out.throttle_events = Reasons(events);
  Partitions(described, metrics, out);
  Capacity(metrics, out);

  if (!w_.contributor_insights) return out;  // (no top keys: the workload turned them off)
  PARTSTORE_ASSIGN_OR_RETURN(GetContributorInsightsResult insights,
                             db_.GetContributorInsights({out.table, index, w_.top_n}));
  const std::string& partition = ref.index ? ref.index->partition_key : ref.table->partition_key;
  for (const InsightsRuleResult& rule : insights.rules) {
    TopKeyRule r{rule.rule_name, {}};
    for (const Contributor& c : rule.contributors) {
      r.keys.push_back({KeyText(c.key, partition), c.value, c.minute / 60});
    }
    out.top_keys.push_back(std::move(r));
  }
  return out;
}

Result<Report> Builder::Build() {
  Report report;
  report.workload = w_.name;
  report.description = w_.description;
  report.seed = w_.seed;
  report.simulated_seconds = static_cast<double>(total_micros_) / kMicros;

  for (const TableSpec& t : w_.tables) {
    PARTSTORE_ASSIGN_OR_RETURN(ResourceReport table, Resource({&t, nullptr}));
    report.resources.push_back(std::move(table));
    for (const IndexSpec& i : t.indexes) {
      PARTSTORE_ASSIGN_OR_RETURN(ResourceReport index, Resource({&t, &i}));
      report.resources.push_back(std::move(index));
    }
  }
  std::array<int64_t, kThrottleReasonCount> events{};
  for (const auto& second : second_events_) {
    for (int i = 0; i < kThrottleReasonCount; ++i) events[i] += second[i];
  }
  report.throttle_events = Reasons(events);

  std::vector<int64_t> all_delays;
  int64_t start = 0;
  for (size_t p = 0; p < w_.phases.size(); ++p) {
    const Phase& phase = w_.phases[p];
    PhaseReport out;
    out.name = phase.name;
    out.start_seconds = static_cast<double>(start) / kMicros;
    out.duration_seconds = static_cast<double>(phase.duration_micros) / kMicros;
    for (size_t e = 0; e < phase.mix.size(); ++e) {
      const Operation& op = phase.mix[e];
      const RequestCounts& counts = tally_.operations[p][e];
      std::string key = op.key.text();
      if (op.sort) key += " / " + op.sort->text();
      if (op.sort_prefix) key += " / begins_with " + op.sort_prefix->text();
      out.operations.push_back(
          {std::string(OpKindName(op.kind)), op.table, op.index, std::move(key), counts});
      out.counts += counts;
    }
    out.offered_rate = static_cast<double>(out.counts.offered) / out.duration_seconds;
    out.served_rate = static_cast<double>(out.counts.served) / out.duration_seconds;
    out.retry_delay = DelayOf(tally_.delays[p]);
    all_delays.insert(all_delays.end(), tally_.delays[p].begin(), tally_.delays[p].end());
    report.totals += out.counts;
    report.phases.push_back(std::move(out));
    start += phase.duration_micros;
  }
  report.retry_delay = DelayOf(std::move(all_delays));
  if (report.simulated_seconds > 0) {
    report.offered_rate = static_cast<double>(report.totals.offered) / report.simulated_seconds;
    report.served_rate = static_cast<double>(report.totals.served) / report.simulated_seconds;
  }
  if (report.totals.attempts > 0) {
    report.throttle_rate =
        static_cast<double>(report.totals.throttled) / static_cast<double>(report.totals.attempts);
  }

  report.timeline_bucket_seconds = bucket_;
  for (int64_t c = 0; c < columns_; ++c) {
    TimelinePoint point;
    point.start_seconds = static_cast<double>(c * bucket_);
    std::array<int64_t, kThrottleReasonCount> bucket_events{};
    for (int64_t s = c * bucket_; s < std::min((c + 1) * bucket_, seconds_); ++s) {
      if (static_cast<size_t>(s) < tally_.seconds.size()) point.counts += tally_.seconds[s];
      if (static_cast<size_t>(s) < second_events_.size()) {
        for (int i = 0; i < kThrottleReasonCount; ++i) bucket_events[i] += second_events_[s][i];
      }
    }
    point.throttle_events = Reasons(bucket_events);
    report.timeline.push_back(std::move(point));
  }

  std::vector<std::pair<std::string, int64_t>> errors(tally_.errors.begin(), tally_.errors.end());
  std::stable_sort(errors.begin(), errors.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  for (size_t i = 0; i < errors.size() && i < kMaxErrors; ++i) {
    report.errors.push_back({errors[i].first, errors[i].second});
  }
  return report;
}

}  // namespace

RequestCounts& RequestCounts::operator+=(const RequestCounts& o) {
  offered += o.offered;
  attempts += o.attempts;
  served += o.served;
  throttled += o.throttled;
  retries += o.retries;
  gave_up += o.gave_up;
  condition_failed += o.condition_failed;
  errors += o.errors;
  return *this;
}

Result<Report> BuildReport(Database& db, const Workload& workload, const ClientTally& tally) {
  return Builder(db, workload, tally).Build();
}

}  // namespace partstore::sim
