#include "tools/simulator/report_json.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cmath>

namespace partstore::sim {
namespace {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

void Num(Writer& w, double v) {
  if (!std::isfinite(v)) {
    w.Null();
  } else if (v == std::floor(v) && std::abs(v) < 9007199254740992.0) {
    w.Int64(static_cast<int64_t>(v));
  } else {
    w.Double(v);
  }
}
void Key(Writer& w, const char* key) { w.Key(key); }
void Str(Writer& w, const std::string& s) {
  w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
}

void Counts(Writer& w, const RequestCounts& c) {
  w.StartObject();
  Key(w, "offered");
  w.Int64(c.offered);
  Key(w, "attempts");
  w.Int64(c.attempts);
  Key(w, "served");
  w.Int64(c.served);
  Key(w, "throttled");
  w.Int64(c.throttled);
  Key(w, "retries");
  w.Int64(c.retries);
  Key(w, "gave_up");
  w.Int64(c.gave_up);
  Key(w, "condition_failed");
  w.Int64(c.condition_failed);
  Key(w, "errors");
  w.Int64(c.errors);
  w.EndObject();
}

void Delay(Writer& w, const RetryDelay& d) {
  w.StartObject();
  Key(w, "delayed_requests");
  w.Int64(d.delayed_requests);
  Key(w, "mean_ms");
  Num(w, d.mean_ms);
  Key(w, "p50_ms");
  Num(w, d.p50_ms);
  Key(w, "p99_ms");
  Num(w, d.p99_ms);
  Key(w, "max_ms");
  Num(w, d.max_ms);
  w.EndObject();
}

void Reasons(Writer& w, const std::vector<ReasonCount>& reasons) {
  w.StartArray();
  for (const ReasonCount& r : reasons) {
    w.StartObject();
    Key(w, "reason");
    Str(w, r.reason);
    Key(w, "events");
    w.Int64(r.events);
    w.EndObject();
  }
  w.EndArray();
}

template <typename T, typename F>
void Array(Writer& w, const std::vector<T>& values, F each) {
  w.StartArray();
  for (const T& v : values) each(v);
  w.EndArray();
}

void Heat(Writer& w, const HeatMap& h) {
  w.StartObject();
  Key(w, "bucket_seconds");
  w.Int64(h.bucket_seconds);
  Key(w, "columns");
  w.Int64(h.columns);
  Key(w, "partition_ids");
  Array(w, h.partition_ids, [&](int id) { w.Int(id); });
  auto grid = [&](const char* name, const std::vector<std::vector<double>>& rows) {
    Key(w, name);
    Array(w, rows,
          [&](const std::vector<double>& row) { Array(w, row, [&](double v) { Num(w, v); }); });
  };
  grid("read_units", h.read_units);
  grid("write_units", h.write_units);
  grid("utilization", h.utilization);
  Key(w, "throttled");
  Array(w, h.throttled,
        [&](const std::vector<int64_t>& row) { Array(w, row, [&](int64_t v) { w.Int64(v); }); });
  w.EndObject();
}

void Resource(Writer& w, const ResourceReport& r) {
  w.StartObject();
  Key(w, "table");
  Str(w, r.table);
  if (r.index) {
    Key(w, "index");
    Str(w, *r.index);
  }
  Key(w, "billing_mode");
  Str(w, r.billing_mode);
  Key(w, "table_class");
  Str(w, r.table_class);
  Key(w, "item_count");
  w.Int64(r.item_count);
  Key(w, "size_bytes");
  w.Int64(r.size_bytes);
  Key(w, "read_capacity_unit_hours");
  Num(w, r.read_capacity_unit_hours);
  Key(w, "write_capacity_unit_hours");
  Num(w, r.write_capacity_unit_hours);
  Key(w, "scaling_actions");
  Array(w, r.scaling_actions, [&](const ScalingActionReport& a) {
    w.StartObject();
    Key(w, "time_seconds");
    Num(w, a.time_seconds);
    Key(w, "effective_seconds");
    Num(w, a.effective_seconds);
    Key(w, "dimension");
    Str(w, a.dimension);
    Key(w, "from");
    w.Int64(a.from);
    Key(w, "to");
    w.Int64(a.to);
    Key(w, "consumed_per_second");
    Num(w, a.consumed_per_second);
    Key(w, "reason");
    Str(w, a.reason);
    w.EndObject();
  });
  Key(w, "capacity_minutes");
  Array(w, r.capacity_minutes, [&](const CapacityMinute& m) {
    w.StartObject();
    Key(w, "start_seconds");
    Num(w, m.start_seconds);
    Key(w, "read_capacity");
    w.Int64(m.read_capacity);
    Key(w, "write_capacity");
    w.Int64(m.write_capacity);
    Key(w, "consumed_read_per_second");
    Num(w, m.consumed_read_per_second);
    Key(w, "consumed_write_per_second");
    Num(w, m.consumed_write_per_second);
    w.EndObject();
  });
  Key(w, "read_capacity");
  w.Int64(r.read_capacity);
  Key(w, "write_capacity");
  w.Int64(r.write_capacity);
  Key(w, "consumed_read_units");
  Num(w, r.consumed_read_units);
  Key(w, "consumed_write_units");
  Num(w, r.consumed_write_units);
  Key(w, "peak_read_units");
  Num(w, r.peak_read_units);
  Key(w, "peak_write_units");
  Num(w, r.peak_write_units);
  Key(w, "read_requests");
  w.Int64(r.read_requests);
  Key(w, "write_requests");
  w.Int64(r.write_requests);
  Key(w, "throttled_read_requests");
  w.Int64(r.throttled_read_requests);
  Key(w, "throttled_write_requests");
  w.Int64(r.throttled_write_requests);
  Key(w, "throttle_events");
  Reasons(w, r.throttle_events);
  Key(w, "partitions");
  Array(w, r.partitions, [&](const PartitionReport& p) {
    w.StartObject();
    Key(w, "id");
    w.Int(p.id);
    Key(w, "hash_range_start");
    Str(w, p.hash_range_start);
    Key(w, "hash_range_end");
    Str(w, p.hash_range_end);
    Key(w, "created_seconds");
    Num(w, p.created_seconds);
    if (p.retired_seconds) {
      Key(w, "retired_seconds");
      Num(w, *p.retired_seconds);
    }
    Key(w, "item_count");
    w.Int64(p.item_count);
    Key(w, "size_bytes");
    w.Int64(p.size_bytes);
    Key(w, "consumed_read_units");
    Num(w, p.consumed_read_units);
    Key(w, "consumed_write_units");
    Num(w, p.consumed_write_units);
    Key(w, "throttled_read_requests");
    w.Int64(p.throttled_read_requests);
    Key(w, "throttled_write_requests");
    w.Int64(p.throttled_write_requests);
    w.EndObject();
  });
  Key(w, "splits");
  Array(w, r.splits, [&](const SplitReport& s) {
    w.StartObject();
    Key(w, "time_seconds");
    Num(w, s.time_seconds);
    Key(w, "parent_id");
    w.Int(s.parent_id);
    Key(w, "left_id");
    w.Int(s.left_id);
    Key(w, "right_id");
    w.Int(s.right_id);
    Key(w, "reason");
    Str(w, s.reason);
    w.EndObject();
  });
  Key(w, "heat_map");
  Heat(w, r.heat_map);
  Key(w, "top_keys");
  Array(w, r.top_keys, [&](const TopKeyRule& rule) {
    w.StartObject();
    Key(w, "rule");
    Str(w, rule.rule);
    Key(w, "keys");
    Array(w, rule.keys, [&](const TopKey& k) {
      w.StartObject();
      Key(w, "key");
      Str(w, k.key);
      Key(w, "value");
      Num(w, k.value);
      Key(w, "minute");
      w.Int64(k.minute);
      w.EndObject();
    });
    w.EndObject();
  });
  w.EndObject();
}

void Cost(Writer& w, const Bill& bill) {
  w.StartObject();
  Key(w, "region");
  Str(w, bill.region);
  Key(w, "currency");
  Str(w, bill.currency);
  Key(w, "prices");
  Str(w, bill.prices);
  Key(w, "hours");
  Num(w, bill.hours);
  Key(w, "read_cost");
  Num(w, bill.read_cost);
  Key(w, "write_cost");
  Num(w, bill.write_cost);
  Key(w, "storage_cost");
  Num(w, bill.storage_cost);
  Key(w, "total");
  Num(w, bill.total);
  Key(w, "monthly_estimate");
  Num(w, bill.monthly_estimate);
  Key(w, "resources");
  Array(w, bill.resources, [&](const ResourceCost& c) {
    w.StartObject();
    Key(w, "table");
    Str(w, c.table);
    if (c.index) {
      Key(w, "index");
      Str(w, *c.index);
    }
    Key(w, "billing_mode");
    Str(w, c.billing_mode);
    Key(w, "table_class");
    Str(w, c.table_class);
    Key(w, "read_request_units");
    Num(w, c.read_request_units);
    Key(w, "write_request_units");
    Num(w, c.write_request_units);
    Key(w, "read_capacity_unit_hours");
    Num(w, c.read_capacity_unit_hours);
    Key(w, "write_capacity_unit_hours");
    Num(w, c.write_capacity_unit_hours);
    Key(w, "storage_gb_months");
    Num(w, c.storage_gb_months);
    Key(w, "read_cost");
    Num(w, c.read_cost);
    Key(w, "write_cost");
    Num(w, c.write_cost);
    Key(w, "storage_cost");
    Num(w, c.storage_cost);
    Key(w, "total");
    Num(w, c.total);
    w.EndObject();
  });
  w.EndObject();
}

void WriteReport(Writer& w, const Report& r) {
  w.StartObject();
  Key(w, "workload");
  Str(w, r.workload);
  Key(w, "description");
  Str(w, r.description);
  Key(w, "seed");
  w.Uint64(r.seed);
  Key(w, "simulated_seconds");
  Num(w, r.simulated_seconds);
  Key(w, "totals");
  Counts(w, r.totals);
  Key(w, "offered_rate");
  Num(w, r.offered_rate);
  Key(w, "served_rate");
  Num(w, r.served_rate);
  Key(w, "throttle_rate");
  Num(w, r.throttle_rate);
  Key(w, "retry_delay");
  Delay(w, r.retry_delay);
  Key(w, "throttle_events");
  Reasons(w, r.throttle_events);
  Key(w, "phases");
  Array(w, r.phases, [&](const PhaseReport& p) {
    w.StartObject();
    Key(w, "name");
    Str(w, p.name);
    Key(w, "start_seconds");
    Num(w, p.start_seconds);
    Key(w, "duration_seconds");
    Num(w, p.duration_seconds);
    Key(w, "offered_rate");
    Num(w, p.offered_rate);
    Key(w, "served_rate");
    Num(w, p.served_rate);
    Key(w, "counts");
    Counts(w, p.counts);
    Key(w, "retry_delay");
    Delay(w, p.retry_delay);
    Key(w, "operations");
    Array(w, p.operations, [&](const OperationReport& o) {
      w.StartObject();
      Key(w, "name");
      Str(w, o.name);
      Key(w, "table");
      Str(w, o.table);
      if (o.index) {
        Key(w, "index");
        Str(w, *o.index);
      }
      Key(w, "key");
      Str(w, o.key);
      Key(w, "counts");
      Counts(w, o.counts);
      w.EndObject();
    });
    w.EndObject();
  });
  Key(w, "resources");
  Array(w, r.resources, [&](const ResourceReport& res) { Resource(w, res); });
  Key(w, "timeline_bucket_seconds");
  w.Int64(r.timeline_bucket_seconds);
  Key(w, "timeline");
  Array(w, r.timeline, [&](const TimelinePoint& t) {
    w.StartObject();
    Key(w, "start_seconds");
    Num(w, t.start_seconds);
    Key(w, "counts");
    Counts(w, t.counts);
    Key(w, "throttle_events");
    Reasons(w, t.throttle_events);
    w.EndObject();
  });
  Key(w, "cost");
  Cost(w, r.cost);
  Key(w, "caches");
  Array(w, r.caches, [&](const CacheReport& c) {
    w.StartObject();
    Key(w, "table");
    Str(w, c.table);
    Key(w, "item_hits");
    w.Int64(c.item_hits);
    Key(w, "negative_hits");
    w.Int64(c.negative_hits);
    Key(w, "item_misses");
    w.Int64(c.item_misses);
    Key(w, "query_hits");
    w.Int64(c.query_hits);
    Key(w, "query_misses");
    w.Int64(c.query_misses);
    Key(w, "hit_ratio");
    Num(w, c.hit_ratio);
    Key(w, "read_units_saved");
    Num(w, c.read_units_saved);
    Key(w, "cost_saved");
    Num(w, c.cost_saved);
    Key(w, "memory_bytes");
    w.Int64(c.memory_bytes);
    w.EndObject();
  });
  Key(w, "errors");
  Array(w, r.errors, [&](const Report::ErrorCount& e) {
    w.StartObject();
    Key(w, "message");
    Str(w, e.message);
    Key(w, "count");
    w.Int64(e.count);
    w.EndObject();
  });
  w.EndObject();
}

}  // namespace

std::string ReportJson(const Report& report) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  WriteReport(w, report);
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

std::string ComparisonJson(const std::vector<Report>& runs) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  w.Key("runs");
  w.StartArray();
  for (const Report& r : runs) WriteReport(w, r);
  w.EndArray();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

}  // namespace partstore::sim
