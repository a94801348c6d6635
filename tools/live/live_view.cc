// The live view's document (live_view.h), read from the engine's capacity extensions:
// DescribePartitions, GetMetrics (1-second points) and GetContributorInsights.
#include "tools/live/live_view.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <vector>

#include "tools/protocol/attribute_value_json.h"
#include "tools/simulator/report_summary.h"

namespace partstore::live {
namespace {

using protocol::JsonWriter;
using protocol::Key;
using protocol::String;

// A number with at most 3 decimals (units are multiples of 0.5; shares are ratios).
void Number(JsonWriter& w, double value) {
  if (!std::isfinite(value)) value = 0;
  const double rounded = std::round(value * 1000) / 1000;
  if (rounded == std::floor(rounded) && std::abs(rounded) < 9e15) {
    w.Int64(static_cast<int64_t>(rounded));
  } else {
    w.Double(rounded);
  }
}

// A table's GSIs, or a ResourceNotFoundException / the engine's error.
Result<std::vector<std::string>> IndexesOf(Database& db, const std::string& table) {
  PARTSTORE_ASSIGN_OR_RETURN(DescribeTableResult described,
                             db.DescribeTable({.table_name = table}));
  std::vector<std::string> out;
  for (const auto& gsi : described.table.global_secondary_indexes) out.push_back(gsi.index_name);
  return out;
}

// The 1-second points of a resource over [from, to], by second.
std::map<int64_t, capacity::MetricCounters> Seconds(const GetMetricsResult& metrics) {
  std::map<int64_t, capacity::MetricCounters> out;
  for (const capacity::MetricPoint& p : metrics.points) out[p.timestamp] += p.counters;
  return out;
}

int64_t Throttled(const capacity::MetricCounters& c) {
  return c.throttled_read_requests + c.throttled_write_requests;
}

// One table or GSI. `last` is the last whole second, `first` the window's first.
Status WriteResource(Database& db, const std::string& table,
                     const std::optional<std::string>& index, int64_t first, int64_t last,
                     const LiveViewOptions& options, JsonWriter& w) {
  PARTSTORE_ASSIGN_OR_RETURN(DescribePartitionsResult partitions,
                             db.DescribePartitions({.table_name = table, .index_name = index}));
  // The resource's series over the window, and its partitions' last second only (a partition's
  // whole window would be its own series: 120 points a partition, for nothing the page shows).
  const GetMetricsRequest window{
      .table_name = table, .index_name = index, .period = 1, .start_time = first, .end_time = last};
  PARTSTORE_ASSIGN_OR_RETURN(GetMetricsResult series, db.GetMetrics(window));
  GetMetricsRequest last_second = window;
  last_second.start_time = last;
  last_second.include_partitions = true;
  PARTSTORE_ASSIGN_OR_RETURN(GetMetricsResult per_partition, db.GetMetrics(last_second));
  PARTSTORE_ASSIGN_OR_RETURN(DescribeTableResult described,
                             db.DescribeTable({.table_name = table}));
  w.StartObject();
  Key(w, "table");
  String(w, table);
  if (index) {
    Key(w, "index");
    String(w, *index);
  }
  Key(w, "billing_mode");
  String(w, partitions.billing_mode);
  if (partitions.billing_mode == "PROVISIONED") {
    const ProvisionedThroughputDescription* provisioned = &described.table.provisioned_throughput;
    if (index) {
      provisioned = nullptr;
      for (const auto& gsi : described.table.global_secondary_indexes) {
        if (gsi.index_name == *index) provisioned = &gsi.provisioned_throughput;
      }
    }
    if (provisioned != nullptr) {
      Key(w, "provisioned");
      w.StartObject();
      Key(w, "read");
      w.Int64(provisioned->read_capacity_units);
      Key(w, "write");
      w.Int64(provisioned->write_capacity_units);
      w.EndObject();
    }
  }

  // Partitions: the last whole second's consumption against what each may serve.
  std::map<int, capacity::MetricCounters> consumed;
  for (const PartitionMetrics& p : per_partition.partitions) {
    for (const capacity::MetricPoint& point : p.points) {
      if (point.timestamp == last) consumed[p.partition_id] += point.counters;
    }
  }
  Key(w, "partitions");
  w.StartArray();
  for (const PartitionDescription& p : partitions.partitions) {
    const capacity::MetricCounters& c = consumed[p.partition_id];
    const double read = HalfUnitsToDouble(c.consumed_read_half_units);
    const double write = HalfUnitsToDouble(c.consumed_write_half_units);
    const double read_limit = std::min(p.allocated_read_units, p.max_read_units);
    const double write_limit = std::min(p.allocated_write_units, p.max_write_units);
    w.StartObject();
    Key(w, "id");
    w.Int(p.partition_id);
    Key(w, "read_units");
    Number(w, read);
    Key(w, "write_units");
    Number(w, write);
    Key(w, "read_limit");
    Number(w, read_limit);
    Key(w, "write_limit");
    Number(w, write_limit);
    Key(w, "read_share");
    Number(w, read_limit > 0 ? read / read_limit : 0);
    Key(w, "write_share");
    Number(w, write_limit > 0 ? write / write_limit : 0);
    Key(w, "throttled");
    w.Int64(Throttled(c));
    Key(w, "items");
    w.Int64(p.item_count);
    Key(w, "bytes");
    w.Int64(p.size_bytes);
    w.EndObject();
  }
  w.EndArray();

  Key(w, "splits");
  w.StartArray();
  for (const PartitionSplitDescription& s : partitions.splits) {
    w.StartObject();
    Key(w, "time");
    Number(w, s.time_seconds);
    Key(w, "parent");
    w.Int(s.parent_id);
    Key(w, "left");
    w.Int(s.left_id);
    Key(w, "right");
    w.Int(s.right_id);
    Key(w, "reason");
    String(w, s.reason);
    w.EndObject();
  }
  w.EndArray();

  // The window, second by second (seconds without a point are zeros).
  const std::map<int64_t, capacity::MetricCounters> by_second = Seconds(series);
  const capacity::MetricCounters zero;
  auto at = [&](int64_t second) -> const capacity::MetricCounters& {
    auto it = by_second.find(second);
    return it == by_second.end() ? zero : it->second;
  };
  Key(w, "series");
  w.StartObject();
  Key(w, "start");
  w.Int64(first);
  const std::pair<std::string_view, double (*)(const capacity::MetricCounters&)> columns[] = {
      {"read",
       [](const capacity::MetricCounters& c) {
         return HalfUnitsToDouble(c.consumed_read_half_units);
       }},
      {"write",
       [](const capacity::MetricCounters& c) {
         return HalfUnitsToDouble(c.consumed_write_half_units);
       }},
      {"throttled",
       [](const capacity::MetricCounters& c) { return static_cast<double>(Throttled(c)); }},
  };
  for (const auto& [name, value] : columns) {
    Key(w, name);
    w.StartArray();
    for (int64_t s = first; s <= last; ++s) Number(w, value(at(s)));
    w.EndArray();
  }
  w.EndObject();

  // Throttle events per second by reason, for the reasons the window saw.
  Key(w, "throttles");
  w.StartArray();
  for (int reason = 0; reason < kThrottleReasonCount; ++reason) {
    int64_t total = 0;
    for (const auto& [second, c] : by_second) total += c.throttle_events[reason];
    if (total == 0) continue;
    const std::string name = ThrottleReason::FromIndex(reason).name();
    w.StartObject();
    Key(w, "reason");
    String(w, name);
    Key(w, "meaning");
    String(w, sim::ExplainReason(name));
    Key(w, "total");
    w.Int64(total);
    Key(w, "per_second");
    w.StartArray();
    for (int64_t s = first; s <= last; ++s) w.Int64(at(s).throttle_events[reason]);
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();

  // Contributor Insights' top keys, when they are on for this table or GSI.
  Key(w, "top_keys");
  w.StartArray();
  Result<GetContributorInsightsResult> insights = db.GetContributorInsights(
      {.table_name = table, .index_name = index, .top_n = options.top_keys});
  if (insights.ok()) {
    for (const InsightsRuleResult& rule : insights->rules) {
      if (rule.contributors.empty()) continue;
      w.StartObject();
      Key(w, "rule");
      String(w, rule.rule_name);
      Key(w, "keys");
      w.StartArray();
      for (const Contributor& c : rule.contributors) {
        w.StartObject();
        Key(w, "key");
        protocol::WriteItem(c.key, w);
        Key(w, "value");
        Number(w, c.value);
        w.EndObject();
      }
      w.EndArray();
      w.EndObject();
    }
  }
  w.EndArray();

  Key(w, "recent_throttles");
  w.StartArray();
  for (const ThrottledRequestDescription& t : partitions.recent_throttles) {
    w.StartObject();
    Key(w, "time");
    Number(w, t.time_seconds);
    Key(w, "partition");
    w.Int(t.partition_id);
    Key(w, "reason");
    String(w, t.reason);
    Key(w, "key");
    protocol::WriteItem(t.key, w);
    w.EndObject();
  }
  w.EndArray();

  // The table's throttled requests since the start, counted as /metrics counts them
  // (partstore_table_throttled_requests_total): over the table's and its GSIs' partitions.
  if (!index) {
    int64_t reads = 0;
    int64_t writes = 0;
    std::vector<std::optional<std::string>> resources = {std::nullopt};
    for (const auto& gsi : described.table.global_secondary_indexes) {
      resources.push_back(gsi.index_name);
    }
    for (const auto& resource : resources) {
      Result<DescribePartitionsResult> r =
          resource ? db.DescribePartitions({.table_name = table, .index_name = resource})
                   : Result<DescribePartitionsResult>(partitions);
      if (!r.ok()) continue;
      for (const PartitionDescription& p : r->partitions) {
        reads += p.throttled_read_requests;
        writes += p.throttled_write_requests;
      }
    }
    Key(w, "throttled_requests");
    w.StartObject();
    Key(w, "read");
    w.Int64(reads);
    Key(w, "write");
    w.Int64(writes);
    w.EndObject();
  }
  w.EndObject();
  return Status::Ok();
}

// Every table's name.
std::vector<std::string> TableNames(Database& db) {
  std::vector<std::string> out;
  ListTablesRequest list;
  while (true) {
    Result<ListTablesResult> page = db.ListTables(list);
    if (!page.ok()) break;
    out.insert(out.end(), page->table_names.begin(), page->table_names.end());
    if (!page->last_evaluated_table_name) break;
    list.exclusive_start_table_name = page->last_evaluated_table_name;
  }
  return out;
}

}  // namespace

Result<std::string> LiveViewJson(Database& db, const LiveViewOptions& options) {
  if (options.window_seconds < 1 || options.window_seconds > 600) {
    return Status::Validation(
        fmt::format("window_seconds must be 1..600 (got {})", options.window_seconds));
  }
  if (options.top_keys < 1 || options.top_keys > 100) {
    return Status::Validation(fmt::format("top_keys must be 1..100 (got {})", options.top_keys));
  }
  const bool capacity = db.options().capacity.enabled;
  std::vector<std::string> tables;
  if (options.table) {
    PARTSTORE_RETURN_IF_ERROR(db.DescribeTable({.table_name = *options.table}).status());
    tables.push_back(*options.table);
  } else {
    tables = TableNames(db);
  }
  const size_t total = tables.size();

  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  Key(w, "capacity");
  w.Bool(capacity);
  Key(w, "tables_total");
  w.Uint64(total);
  if (!capacity) {
    // Nothing to show: the page says how to turn the simulation on.
    Key(w, "tables_shown");
    w.Uint64(0);
    Key(w, "resources");
    w.StartArray();
    w.EndArray();
    w.EndObject();
    return std::string(buffer.GetString(), buffer.GetSize());
  }

  // The clock: the simulation's now, as DescribePartitions reports it (any table will do).
  double now = 0;
  for (const std::string& table : tables) {
    Result<DescribePartitionsResult> p = db.DescribePartitions({.table_name = table});
    if (p.ok()) {
      now = p->now_seconds;
      break;
    }
  }
  const int64_t last = static_cast<int64_t>(std::floor(now)) - 1;  // the last whole second
  const int64_t first = last - options.window_seconds + 1;

  // The busiest tables first (units consumed and requests throttled over the window), then by
  // name; at most max_tables of them.
  if (tables.size() > 1) {
    std::vector<std::pair<double, std::string>> ranked;
    for (const std::string& table : tables) {
      double score = 0;
      Result<GetMetricsResult> m =
          db.GetMetrics({.table_name = table, .period = 1, .start_time = first, .end_time = last});
      if (m.ok()) {
        for (const capacity::MetricPoint& p : m->points) {
          score += HalfUnitsToDouble(p.counters.consumed_read_half_units +
                                     p.counters.consumed_write_half_units) +
                   static_cast<double>(Throttled(p.counters));
        }
      }
      ranked.emplace_back(-score, table);
    }
    std::sort(ranked.begin(), ranked.end());
    tables.clear();
    for (size_t i = 0; i < ranked.size() && i < options.max_tables; ++i) {
      tables.push_back(ranked[i].second);
    }
  }

  Key(w, "now");
  Number(w, now);
  Key(w, "window_seconds");
  w.Int(options.window_seconds);
  Key(w, "tables_shown");
  w.Uint64(tables.size());
  Key(w, "resources");
  w.StartArray();
  for (const std::string& table : tables) {
    Result<std::vector<std::string>> indexes = IndexesOf(db, table);
    if (!indexes.ok()) continue;  // deleted since it was listed
    std::vector<std::optional<std::string>> resources = {std::nullopt};
    resources.insert(resources.end(), indexes->begin(), indexes->end());
    for (const auto& index : resources) {
      // (A table or index deleted meanwhile is left out; the writer is only ever given whole
      // objects, since each resource is read before any of it is written.)
      Status s = WriteResource(db, table, index, first, last, options, w);
      if (!s.ok() && options.table) return s;
    }
  }
  w.EndArray();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string CacheViewJson(const CacheStats& c) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  Key(w, "capacity");
  w.Bool(false);
  Key(w, "tables_total");
  w.Uint64(0);
  Key(w, "tables_shown");
  w.Uint64(0);
  Key(w, "resources");
  w.StartArray();
  w.EndArray();
  Key(w, "cache");
  w.StartObject();
  const std::pair<std::string_view, uint64_t> counters[] = {
      {"item_hits", c.item_hits},
      {"negative_hits", c.negative_hits},
      {"item_misses", c.item_misses},
      {"query_hits", c.query_hits},
      {"query_misses", c.query_misses},
      {"passed_through", c.passed_through},
      {"writes", c.writes},
      {"upstream_calls", c.upstream_calls},
      {"evicted_items", c.evicted_items},
      {"stream_records", c.stream_records},
  };
  for (const auto& [name, value] : counters) {
    Key(w, name);
    w.Uint64(value);
  }
  const uint64_t hits = c.item_hits + c.negative_hits + c.query_hits;
  const uint64_t misses = c.item_misses + c.query_misses;
  Key(w, "hit_ratio");
  Number(w, hits + misses > 0 ? static_cast<double>(hits) / static_cast<double>(hits + misses) : 0);
  Key(w, "upstream_ms_per_call");
  Number(w, c.upstream_calls > 0 ? static_cast<double>(c.upstream_micros) / 1000.0 /
                                       static_cast<double>(c.upstream_calls)
                                 : 0);
  Key(w, "memory_bytes");
  w.Int64(c.memory_bytes);
  Key(w, "stream_lag_seconds");
  Number(w, c.stream_lag_seconds);
  w.EndObject();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace partstore::live
