#include "tools/simulator/advise.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include "tools/simulator/report_text.h"

namespace partstore::sim {
namespace {

constexpr size_t kHotKeysPerResource = 3;
constexpr int32_t kMaxShards = 64;
constexpr int kMaxDoublings = 4;  // capacity up to 16x
constexpr int64_t kMaxProvisioned = 1'000'000;
// On-demand's initial units (shard/throughput_settings.h): warm throughput's floor there.
constexpr int64_t kInitialOnDemandRead = 12000;
constexpr int64_t kInitialOnDemandWrite = 4000;

// Throttle events of `r` (a table's or GSI's own) whose reason ends with `limit`.
int64_t Events(const ResourceReport& r, std::string_view limit) {
  const std::string_view own = r.index ? "Index" : "Table";
  int64_t n = 0;
  for (const ReasonCount& reason : r.throttle_events) {
    if (reason.reason.starts_with(own) && reason.reason.ends_with(limit)) n += reason.events;
  }
  return n;
}

// Events of `limit` in `report` on the resources named in `targets` (table, index).
using ResourceName = std::pair<std::string, std::optional<std::string>>;
int64_t EventsOn(const Report& report, const std::set<ResourceName>& targets,
                 std::string_view limit) {
  int64_t n = 0;
  for (const ResourceReport& r : report.resources) {
    if (targets.count({r.table, r.index}) > 0) n += Events(r, limit);
  }
  return n;
}

std::string Name(const ResourceName& r) {
  return r.second ? fmt::format("{} / {}", r.first, *r.second) : r.first;
}

Advice Run(Workload workload, std::string title, const SimulateOptions& options) {
  Advice advice;
  advice.title = std::move(title);
  SimulateOptions quiet = options;
  quiet.progress = nullptr;
  auto report = Simulate(workload, quiet);
  if (!report.ok()) {
    advice.notes.push_back(
        fmt::format("could not be simulated: {}", std::string(report.status().message())));
    return advice;
  }
  advice.throttled = report->totals.throttled > 0;
  advice.report = std::move(*report);
  return advice;
}

TableSpec* FindTable(Workload& w, const std::string& name) {
  for (TableSpec& t : w.tables) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

// Write sharding of each KeyRange-throttled resource's most throttled partition keys.
std::optional<Advice> Sharding(const Workload& base, const Report& report,
                               const SimulateOptions& options) {
  std::vector<std::pair<ResourceName, std::string>> keys;  // resource, key value
  std::set<ResourceName> targets;
  for (const ResourceReport& r : report.resources) {
    if (Events(r, "KeyRangeThroughputExceeded") == 0) continue;
    for (const TopKeyRule& rule : r.top_keys) {
      if (rule.rule != "MostThrottledPartitionKeys") continue;
      for (size_t i = 0; i < rule.keys.size() && i < kHotKeysPerResource; ++i) {
        // Keys throttled far less than the hottest are its neighbours in the partition.
        if (rule.keys[i].value < rule.keys[0].value / 4) break;
        const std::string& text = rule.keys[i].key;  // "ATTR=VALUE"
        const size_t eq = text.find('=');
        if (eq == std::string::npos) continue;
        keys.push_back({{r.table, r.index}, text.substr(eq + 1)});
        targets.insert({r.table, r.index});
      }
    }
  }
  if (keys.empty()) return std::nullopt;
  std::string list;
  for (const auto& [resource, key] : keys) {
    list += fmt::format("{}{} on {}", list.empty() ? "" : ", ", key, Name(resource));
  }
  std::optional<Advice> last;
  int64_t before = EventsOn(report, targets, "KeyRangeThroughputExceeded");
  for (int32_t shards = 2; shards <= kMaxShards; shards *= 2) {
    Workload w = base;
    w.name = fmt::format("{} + {} shards", base.name, shards);
    for (const auto& [resource, key] : keys) {
      const TableSpec* table = FindTable(w, resource.first);
      ShardingSpec spec{.table = resource.first, .policy = {}};
      spec.policy.index_name = resource.second;
      spec.policy.key = key;
      spec.policy.shard_count = shards;
      // A table's suffix from its sort key keeps point reads working; a GSI is read by queries.
      spec.policy.strategy = !resource.second && table != nullptr && table->sort_key
                                 ? sharding::ShardStrategy::kCalculated
                                 : sharding::ShardStrategy::kRandom;
      w.sharding.push_back(std::move(spec));
    }
    Advice advice = Run(std::move(w), fmt::format("write sharding, {} shards", shards), options);
    advice.notes.insert(advice.notes.begin(),
                        fmt::format(
                            "KeyRangeThroughputExceeded on {}: {}-way write sharding of "
                            "the most throttled keys ({})",
                            [&] {
                              std::string names;
                              for (const ResourceName& t : targets) {
                                names += (names.empty() ? "" : ", ") + Name(t);
                              }
                              return names;
                            }(),
                            shards, list));
    if (!advice.report) return advice;  // refused: no larger count will do better
    const int64_t left = EventsOn(*advice.report, targets, "KeyRangeThroughputExceeded");
    if (left == 0) {
      advice.notes.push_back(
          fmt::format("the smallest shard count of 2, 4, 8, ... that serves those keys without "
                      "KeyRangeThroughputExceeded: {}",
                      shards));
      return advice;
    }
    advice.notes.push_back(
        fmt::format("{} KeyRangeThroughputExceeded events remain", Grouped(left)));
    if (left * 2 > before) {
      // Doubling the shards did not halve the throttles: they are not the hot keys' alone.
      advice.notes.push_back(
          "more shards did not halve the throttles: they are not these keys' alone (a "
          "partition's limit reached by many keys, or the capacity)");
      return advice;
    }
    before = left;
    last = std::move(advice);
  }
  last->notes.push_back(fmt::format("still throttled at {} shards", kMaxShards));
  return last;
}

// The dimensions of provisioned resources that ProvisionedThroughputExceeded throttled.
struct Dimension {
  ResourceName resource;
  bool read;
};
std::vector<Dimension> ProvisionedThrottles(const Report& report) {
  std::vector<Dimension> out;
  for (const ResourceReport& r : report.resources) {
    if (r.billing_mode != "PROVISIONED") continue;
    for (const bool read : {true, false}) {
      const std::string reason = fmt::format("{}{}ProvisionedThroughputExceeded",
                                             r.index ? "Index" : "Table", read ? "Read" : "Write");
      for (const ReasonCount& c : r.throttle_events) {
        if (c.reason == reason && c.events > 0) out.push_back({{r.table, r.index}, read});
      }
    }
  }
  return out;
}

// The provisioned units of a dimension in `w`.
int64_t* Units(Workload& w, const Dimension& d) {
  TableSpec* table = FindTable(w, d.resource.first);
  if (table == nullptr) return nullptr;
  if (!d.resource.second) return d.read ? &table->read_capacity : &table->write_capacity;
  for (IndexSpec& index : table->indexes) {
    if (index.name == *d.resource.second) {
      return d.read ? &index.read_capacity : &index.write_capacity;
    }
  }
  return nullptr;
}

std::string Dimensions(const std::vector<Dimension>& dims) {
  std::string out;
  for (const Dimension& d : dims) {
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", Name(d.resource),
                       d.read ? "reads" : "writes");
  }
  return out;
}

std::optional<Advice> Capacity(const Workload& base, const std::vector<Dimension>& dims,
                               const SimulateOptions& options) {
  if (dims.empty()) return std::nullopt;
  std::set<ResourceName> targets;
  for (const Dimension& d : dims) targets.insert(d.resource);
  std::optional<Advice> last;
  for (int doubling = 1; doubling <= kMaxDoublings; ++doubling) {
    const int64_t factor = int64_t{1} << doubling;
    Workload w = base;
    w.name = fmt::format("{} + {}x capacity", base.name, factor);
    std::string changes;
    for (const Dimension& d : dims) {
      int64_t* units = Units(w, d);
      if (units == nullptr) continue;
      const int64_t from = *units;
      *units = std::min(from * factor, kMaxProvisioned);
      changes += fmt::format("{}{} {} {} -> {}", changes.empty() ? "" : ", ", Name(d.resource),
                             d.read ? "reads" : "writes", Grouped(from), Grouped(*units));
    }
    Advice advice = Run(std::move(w), fmt::format("provisioned capacity x{}", factor), options);
    advice.notes.insert(advice.notes.begin(),
                        fmt::format("ProvisionedThroughputExceeded on {}: provisioned units x{} "
                                    "({})",
                                    Dimensions(dims), factor, changes));
    if (!advice.report) return advice;
    const int64_t left = EventsOn(*advice.report, targets, "ProvisionedThroughputExceeded");
    if (left == 0) {
      advice.notes.push_back(
          fmt::format("the smallest doubling with no ProvisionedThroughputExceeded: x{}", factor));
      return advice;
    }
    advice.notes.push_back(
        fmt::format("{} ProvisionedThroughputExceeded events remain", Grouped(left)));
    last = std::move(advice);
  }
  return last;
}

std::optional<Advice> AutoScaling(const Workload& base, const std::vector<Dimension>& dims,
                                  const SimulateOptions& options) {
  if (dims.empty()) return std::nullopt;
  Workload w = base;
  w.name = base.name + " + auto scaling";
  for (const Dimension& d : dims) {
    TableSpec* table = FindTable(w, d.resource.first);
    int64_t* units = Units(w, d);
    if (table == nullptr || units == nullptr) continue;
    ScalingSpec spec{.min_capacity = *units,
                     .max_capacity = std::min(*units * 20, kMaxProvisioned),
                     .target_utilization = 70};
    std::optional<ScalingSpec>* slot = nullptr;
    if (!d.resource.second) {
      slot = d.read ? &table->read_scaling : &table->write_scaling;
    } else {
      for (IndexSpec& index : table->indexes) {
        if (index.name == *d.resource.second) {
          slot = d.read ? &index.read_scaling : &index.write_scaling;
        }
      }
    }
    if (slot != nullptr && !*slot) *slot = spec;
  }
  Advice advice = Run(std::move(w), "auto scaling (target 70%)", options);
  advice.notes.insert(advice.notes.begin(),
                      fmt::format("auto scaling of {} at 70%, between the units they have and "
                                  "20 times them",
                                  Dimensions(dims)));
  return advice;
}

std::optional<Advice> OnDemand(const Workload& base, const Report& report,
                               const SimulateOptions& options) {
  Workload w = base;
  w.name = base.name + " + on-demand, warmed";
  for (TableSpec& table : w.tables) {
    table.on_demand = true;
    table.read_capacity = table.write_capacity = 0;
    table.read_scaling.reset();
    table.write_scaling.reset();
    for (IndexSpec& index : table.indexes) {
      index.read_capacity = index.write_capacity = 0;
      index.read_scaling.reset();
      index.write_scaling.reset();
    }
  }
  for (Phase& phase : w.phases) phase.throughput.clear();  // (provisioned units only)
  std::string warmed;
  for (const ResourceReport& r : report.resources) {
    TableSpec* table = FindTable(w, r.table);
    if (table == nullptr) continue;
    ThroughputSettings* settings = &table->throughput;
    for (IndexSpec& index : table->indexes) {
      if (r.index && index.name == *r.index) settings = &index.throughput;
    }
    // Warm to the busiest second it had, at least what it was provisioned for.
    settings->max_read_request_units = settings->max_write_request_units = 0;
    settings->warm_read_units =
        std::max<int64_t>({kInitialOnDemandRead, static_cast<int64_t>(std::ceil(r.peak_read_units)),
                           r.read_capacity, settings->warm_read_units});
    settings->warm_write_units = std::max<int64_t>(
        {kInitialOnDemandWrite, static_cast<int64_t>(std::ceil(r.peak_write_units)),
         r.write_capacity, settings->warm_write_units});
    warmed += fmt::format("{}{} {} / {}", warmed.empty() ? "" : ", ",
                          r.index ? r.table + " / " + *r.index : r.table,
                          Grouped(settings->warm_read_units), Grouped(settings->warm_write_units));
  }
  Advice advice = Run(std::move(w), "on-demand, warm throughput", options);
  advice.notes.insert(advice.notes.begin(),
                      fmt::format("every table on-demand, warmed (read / write units a second) "
                                  "to its busiest second: {}",
                                  warmed));
  return advice;
}

std::string Outcome(const Report& r) {
  const double served =
      r.totals.offered > 0 ? static_cast<double>(r.totals.served) / r.totals.offered : 1.0;
  return fmt::format(
      "{:.1f}% of attempts throttled, {:.1f}% served, {} gave up; {} {} for the "
      "run, {} a month",
      100 * r.throttle_rate, 100 * std::min(served, 1.0), Grouped(r.totals.gave_up),
      Grouped(r.cost.total, 4), r.cost.currency, Grouped(r.cost.monthly_estimate, 2));
}

}  // namespace

std::string AdviceText(const Report& base, const std::vector<Advice>& advice) {
  if (base.totals.throttled == 0) return "Advice: nothing was throttled; nothing to change.\n";
  std::string out =
      fmt::format("Advice: what-ifs simulated against this run ({})\n", Outcome(base));
  for (size_t i = 0; i < advice.size(); ++i) {
    const Advice& a = advice[i];
    out += fmt::format("\n  {}. {}{}\n", i + 1, a.title,
                       a.report && !a.throttled ? "  [no throttling]" : "");
    for (const std::string& note : a.notes) out += "     - " + note + "\n";
    if (a.report) out += "     = " + Outcome(*a.report) + "\n";
  }
  return out;
}

// A cache in front of every table whose reads (of the table or of one of its GSIs) were throttled
// on a key range: DynamoDB's answer to hot read keys (DAX), the read-side twin of write sharding.
std::optional<Advice> Cache(const Workload& base, const Report& report,
                            const SimulateOptions& options) {
  std::set<std::string> tables;
  std::set<ResourceName> targets;
  for (const ResourceReport& r : report.resources) {
    if (Events(r, "ReadKeyRangeThroughputExceeded") == 0) continue;
    tables.insert(r.table);
    targets.insert({r.table, r.index});
  }
  if (tables.empty()) return std::nullopt;
  Workload w = base;
  w.name += " + cache";
  bool sharded = !w.sharding.empty();
  for (const Phase& phase : w.phases) sharded = sharded || !phase.sharding.empty();
  std::string names;
  for (const std::string& name : tables) {
    if (TableSpec* t = FindTable(w, name); t != nullptr && !t->cache) t->cache = CacheSpec{};
    names += (names.empty() ? "" : ", ") + name;
  }
  if (sharded) {
    Advice advice;
    advice.title = "a cache in front of " + names;
    advice.notes.push_back(
        "not simulated: the workload has write-sharding policies, which a cache does not combine "
        "with (the cache sends plain requests)");
    return advice;
  }
  const int64_t before = EventsOn(report, targets, "ReadKeyRangeThroughputExceeded");
  Advice advice = Run(std::move(w), "a cache in front of " + names + " (DAX's semantics)", options);
  advice.notes.push_back(fmt::format(
      "ReadKeyRangeThroughputExceeded on {}: item and query caches in front of it (5-minute TTLs, "
      "write-through, 256 MiB), every request of the workload through them",
      names));
  if (advice.report) {
    for (const CacheReport& c : advice.report->caches) {
      advice.notes.push_back(fmt::format("{}: {:.1f}% of its reads answered by the cache", c.table,
                                         100 * c.hit_ratio));
    }
    const int64_t left = EventsOn(*advice.report, targets, "ReadKeyRangeThroughputExceeded");
    advice.notes.push_back(left == 0 ? fmt::format("no ReadKeyRangeThroughputExceeded left (was {})",
                                                   Grouped(before))
                                     : fmt::format("{} ReadKeyRangeThroughputExceeded events remain "
                                                   "(was {})",
                                                   Grouped(left), Grouped(before)));
  }
  return advice;
}

std::vector<Advice> Advise(const Workload& base, const Report& report,
                           const SimulateOptions& options) {
  std::vector<Advice> out;
  if (report.totals.throttled == 0) return out;
  if (auto advice = Sharding(base, report, options)) out.push_back(std::move(*advice));
  if (auto advice = Cache(base, report, options)) out.push_back(std::move(*advice));
  const std::vector<Dimension> provisioned = ProvisionedThrottles(report);
  if (auto advice = Capacity(base, provisioned, options)) out.push_back(std::move(*advice));
  if (auto advice = AutoScaling(base, provisioned, options)) out.push_back(std::move(*advice));
  if (auto advice = OnDemand(base, report, options)) out.push_back(std::move(*advice));
  return out;
}

}  // namespace partstore::sim
