#include "tools/simulator/report_summary.h"

#include <fmt/format.h>

#include <algorithm>

#include "tools/simulator/report_text.h"

namespace partstore::sim {
namespace {

// The resource with the most throttled requests, and its busiest throttled partition's id.
struct Hotspot {
  const ResourceReport* resource = nullptr;
  const PartitionReport* partition = nullptr;
  int64_t throttled = 0;
};

// Among GSIs when `index` (the main throttle is a GSI's: a table's count includes the writes its
// GSIs held back), else among tables.
Hotspot FindHotspot(const Report& report, bool index) {
  Hotspot out;
  for (const ResourceReport& r : report.resources) {
    if (r.index.has_value() != index) continue;
    int64_t throttled = r.throttled_read_requests + r.throttled_write_requests;
    int64_t in_partitions = 0;  // (a GSI's throttled writes are counted on its partitions)
    for (const PartitionReport& p : r.partitions) {
      in_partitions += p.throttled_read_requests + p.throttled_write_requests;
    }
    throttled = std::max(throttled, in_partitions);
    if (throttled <= out.throttled) continue;
    out = {&r, nullptr, throttled};
    int64_t most = 0;
    for (const PartitionReport& p : r.partitions) {
      const int64_t t = p.throttled_read_requests + p.throttled_write_requests;
      if (t > most) {
        most = t;
        out.partition = &p;
      }
    }
  }
  return out;
}

// The top key of a resource's MostThrottled* rule, if any.
const TopKey* MostThrottledKey(const ResourceReport& r) {
  for (const TopKeyRule& rule : r.top_keys) {
    if (rule.rule == "MostThrottledPartitionKeys" && !rule.keys.empty()) return &rule.keys[0];
  }
  return nullptr;
}

}  // namespace

std::string ExplainReason(std::string_view reason) {
  const bool index = reason.starts_with("Index");
  const bool read = reason.find("Read") != std::string_view::npos;
  const std::string what =
      fmt::format("{} {}", index ? "a GSI's" : "the table's", read ? "reads" : "writes");
  if (reason.ends_with("KeyRangeThroughputExceeded")) {
    return fmt::format(
        "{} went over one partition's limit (3,000 read or 1,000 write units a second): a hot "
        "key or key range; spreading the key (write sharding) or a better key fixes it, more "
        "capacity does not",
        what);
  }
  if (reason.ends_with("ProvisionedThroughputExceeded")) {
    return fmt::format(
        "{} went over the provisioned capacity (and the burst saved from unused capacity): "
        "more capacity, auto scaling or on-demand fixes it",
        what);
  }
  if (reason.ends_with("MaxOnDemandThroughputExceeded")) {
    return fmt::format("{} went over the on-demand maximum set (OnDemandThroughput)", what);
  }
  if (reason.ends_with("AccountLimitExceeded")) {
    return fmt::format("{} went over the per-table on-demand quota (40,000 units a second)", what);
  }
  return "a throttle";
}

std::vector<std::string> Summary(const Report& r) {
  std::vector<std::string> out;
  const RequestCounts& t = r.totals;
  const double served = t.offered > 0 ? static_cast<double>(t.served) / t.offered : 1.0;
  out.push_back(fmt::format(
      "{} requests were offered over {} s of simulated time ({}/s); {} of them were served{}.",
      Grouped(t.offered), Grouped(r.simulated_seconds, 0), Grouped(r.offered_rate, 1),
      Percent(std::min(served, 1.0)),
      t.gave_up > 0 ? fmt::format(", {} given up after their last retry", Grouped(t.gave_up))
                    : ""));
  if (t.throttled == 0) {
    out.push_back("No request was throttled.");
  } else {
    std::string sentence = fmt::format("{} of the attempts ({}) were throttled",
                                       Percent(r.throttle_rate), Grouped(t.throttled));
    bool index = false;
    if (!r.throttle_events.empty()) {
      const auto top = std::max_element(
          r.throttle_events.begin(), r.throttle_events.end(),
          [](const ReasonCount& a, const ReasonCount& b) { return a.events < b.events; });
      sentence += fmt::format(", mostly {}: {}", top->reason, ExplainReason(top->reason));
      index = top->reason.starts_with("Index");
    }
    out.push_back(sentence + ".");
    Hotspot hot = FindHotspot(r, index);
    if (hot.resource == nullptr) hot = FindHotspot(r, !index);
    if (hot.resource != nullptr) {
      std::string where = hot.resource->index ? fmt::format("GSI {} of {}", *hot.resource->index,
                                                            hot.resource->table)
                                              : fmt::format("table {}", hot.resource->table);
      std::string sentence2 = fmt::format("The most throttled resource is {}", where);
      if (hot.partition != nullptr) {
        sentence2 += fmt::format(" (partition {})", hot.partition->id);
      }
      if (const TopKey* key = MostThrottledKey(*hot.resource)) {
        sentence2 += fmt::format("; its most throttled key is {}", key->key);
      }
      out.push_back(sentence2 + ".");
    }
    if (t.retries > 0) {
      out.push_back(fmt::format(
          "The client retried {} times; a request served after retries waited {} ms at the "
          "99th percentile.",
          Grouped(t.retries), Grouped(r.retry_delay.p99_ms, 1)));
    }
  }
  int64_t scaled = 0;
  int64_t scheduled = 0;
  for (const ResourceReport& res : r.resources) {
    for (const ScalingActionReport& a : res.scaling_actions) {
      (a.reason == "scheduled" ? scheduled : scaled) += 1;
    }
  }
  if (scaled > 0) {
    out.push_back(
        fmt::format("Auto scaling changed capacity {} time{}.", scaled, scaled == 1 ? "" : "s"));
  }
  if (scheduled > 0) {
    out.push_back(fmt::format("The workload changed provisioned capacity {} time{}.", scheduled,
                              scheduled == 1 ? "" : "s"));
  }
  out.push_back(fmt::format("The run would cost {} {} on DynamoDB ({} a month at this rate).",
                            Grouped(r.cost.total, 4), r.cost.currency,
                            Grouped(r.cost.monthly_estimate, 2)));
  return out;
}

const std::vector<GlossaryEntry>& Glossary() {
  static const std::vector<GlossaryEntry> kEntries = {
      {"attempts", "requests sent: each offered request once, plus every retry"},
      {"burst capacity",
       "up to 300 seconds of a partition's unused provisioned capacity, spent before throttling"},
      {"capacity-unit-hour (RCU-h, WCU-h)",
       "provisioned billing: one read or write capacity unit provisioned for an hour"},
      {"consumed units (RCU, WCU)",
       "DynamoDB's capacity arithmetic: a read of up to 4 KB is 1 unit (0.5 eventually "
       "consistent, 2 in a transaction), a write of up to 1 KB is 1 unit (2 in a transaction)"},
      {"gave up", "requests still throttled at their last attempt (the retry policy's limit)"},
      {"GB-month", "storage billing: a gigabyte held for a month (730 hours)"},
      {"heat map",
       "one row per partition in hash-key order (the lowest hashes on top; a partition that "
       "split is followed by its two halves), one column per time bucket; colour: the busier of "
       "read and write use of the partition's limits"},
      {"IndexWrite...", "a throttle of a GSI's writes, which also throttles the table write"},
      {"KeyRangeThroughputExceeded",
       "a partition over its own limit (3,000 read / 1,000 write units a second)"},
      {"offered", "new requests the workload made (retries not counted)"},
      {"partition",
       "a range of partition-key hashes DynamoDB stores and serves together; numbered in "
       "creation order"},
      {"ProvisionedThroughputExceeded", "a table or GSI over its provisioned capacity"},
      {"request units (RRU, WRU)",
       "on-demand billing: the consumed units of the requests, per million"},
      {"served", "attempts that succeeded"},
      {"split", "a partition divided in two (for throughput, size, heat or an on-demand peak)"},
      {"throttled", "attempts refused for throughput (a batch's partly refused attempt counts)"},
  };
  return kEntries;
}

}  // namespace partstore::sim
