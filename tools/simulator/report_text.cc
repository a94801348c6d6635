#include "tools/simulator/report_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "tools/simulator/report_summary.h"

namespace partstore::sim {
namespace {

// Partitions listed per table or index (the busiest). Top keys: every key a rule has (the
// workload's top_n, as the HTML report).
constexpr size_t kPartitionsShown = 8;

std::string ResourceLabel(const ResourceReport& r) {
  return r.index ? r.table + " / " + *r.index : r.table;
}

std::string Capacity(const ResourceReport& r) {
  if (r.billing_mode == "PAY_PER_REQUEST") return "on-demand";
  return fmt::format("provisioned {} RCU / {} WCU", Grouped(r.read_capacity),
                     Grouped(r.write_capacity));
}

void CountsRow(std::string& out, const std::string& label, const RequestCounts& c) {
  out +=
      fmt::format("  {:<28} {:>12} {:>12} {:>12} {:>10} {:>9} {:>10} {:>8}\n", label,
                  Grouped(c.offered), Grouped(c.served), Grouped(c.throttled), Grouped(c.retries),
                  Grouped(c.gave_up), Grouped(c.condition_failed), Grouped(c.errors));
}

// "90", "0.25", "1.5": seconds as a workload would write them.
std::string Seconds(double s) {
  if (s == std::floor(s)) return Grouped(static_cast<int64_t>(s));
  std::string text = fmt::format("{:.3f}", s);
  while (text.back() == '0') text.pop_back();
  return text;
}

std::string DelayText(const RetryDelay& d) {
  if (d.delayed_requests == 0) return "no request needed a retry to be served";
  return fmt::format("{} served after retries: mean {} ms, p50 {} ms, p99 {} ms, max {} ms",
                     Grouped(d.delayed_requests), Grouped(d.mean_ms, 1), Grouped(d.p50_ms, 1),
                     Grouped(d.p99_ms, 1), Grouped(d.max_ms, 1));
}

// `text` wrapped at `width` columns, each line starting with `indent`.
std::string Wrapped(const std::string& text, const std::string& indent, size_t width) {
  std::string out;
  std::string line = indent;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    if (line.size() > indent.size() && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line = indent;
    }
    if (line.size() > indent.size()) line += ' ';
    line += word;
    start = end + 1;
  }
  if (line.size() > indent.size()) out += line + "\n";
  return out;
}

// An amount of money: 4 decimals (a run's cents and fractions of them).
std::string Money(double amount) { return Grouped(amount, 4); }

// The bill: a line for the run, then each table and GSI's billed quantities and their costs.
void CostSection(std::string& out, const Bill& bill) {
  out += fmt::format("\nCost ({} prices, {}, in {}): {} for the run; {} a month at this rate\n",
                     bill.region, bill.prices, bill.currency, Money(bill.total),
                     Grouped(bill.monthly_estimate, 2));
  out += fmt::format("  {:<28} {:<9} {:>22} {:>10} {:>22} {:>10} {:>12} {:>10} {:>10}\n", "",
                     "class", "reads", "cost", "writes", "cost", "GB-months", "cost", "total");
  for (const ResourceCost& c : bill.resources) {
    const bool on_demand = c.billing_mode == "PAY_PER_REQUEST";
    const std::string reads = on_demand ? Grouped(c.read_request_units, 1) + " RRU"
                                        : Grouped(c.read_capacity_unit_hours, 2) + " RCU-h";
    const std::string writes = on_demand ? Grouped(c.write_request_units, 1) + " WRU"
                                         : Grouped(c.write_capacity_unit_hours, 2) + " WCU-h";
    out +=
        fmt::format("  {:<28} {:<9} {:>22} {:>10} {:>22} {:>10} {:>12} {:>10} {:>10}\n",
                    c.index ? c.table + " / " + *c.index : c.table,
                    c.table_class == "STANDARD" ? "Standard" : "Std-IA", reads, Money(c.read_cost),
                    writes, Money(c.write_cost), fmt::format("{:.6f}", c.storage_gb_months),
                    Money(c.storage_cost), Money(c.total));
  }
}

void Resource(std::string& out, const ResourceReport& r, double seconds) {
  const auto live = std::count_if(r.partitions.begin(), r.partitions.end(),
                                  [](const PartitionReport& p) { return !p.retired_seconds; });
  out += fmt::format("\n  {} ({}, {} partition{} at the end)\n", ResourceLabel(r), Capacity(r),
                     live, live == 1 ? "" : "s");
  out += fmt::format("    consumed {} RCU ({}/s, peak {}/s), {} WCU ({}/s, peak {}/s)\n",
                     Grouped(r.consumed_read_units, 1), Grouped(r.consumed_read_units / seconds, 1),
                     Grouped(r.peak_read_units, 1), Grouped(r.consumed_write_units, 1),
                     Grouped(r.consumed_write_units / seconds, 1), Grouped(r.peak_write_units, 1));
  out += fmt::format("    requests admitted {} reads, {} writes; throttled {} reads, {} writes\n",
                     Grouped(r.read_requests), Grouped(r.write_requests),
                     Grouped(r.throttled_read_requests), Grouped(r.throttled_write_requests));
  for (const ReasonCount& reason : r.throttle_events) {
    out +=
        fmt::format("    throttle events {:<44} {:>12}\n", reason.reason, Grouped(reason.events));
  }
  std::vector<const PartitionReport*> busiest;
  for (const PartitionReport& p : r.partitions) busiest.push_back(&p);
  std::stable_sort(busiest.begin(), busiest.end(), [](const auto* a, const auto* b) {
    return a->consumed_read_units + 3 * a->consumed_write_units >
           b->consumed_read_units + 3 * b->consumed_write_units;
  });
  if (r.index == std::nullopt && !r.throttle_events.empty()) {
    out += "    (a table partition's throttled requests include the writes its GSIs throttled)\n";
  }
  out += fmt::format("    {:<10} {:<35} {:>14} {:>14} {:>10}\n", "partition", "hash range",
                     "consumed RCU", "consumed WCU", "throttled");
  for (size_t i = 0; i < busiest.size() && i < kPartitionsShown; ++i) {
    const PartitionReport& p = *busiest[i];
    out += fmt::format(
        "    {:<10} {:<35} {:>14} {:>14} {:>10}{}\n", p.id,
        p.hash_range_start + ".." + p.hash_range_end, Grouped(p.consumed_read_units, 1),
        Grouped(p.consumed_write_units, 1),
        Grouped(p.throttled_read_requests + p.throttled_write_requests),
        p.retired_seconds ? fmt::format("  (split at {} s)", Grouped(*p.retired_seconds, 1)) : "");
  }
  if (busiest.size() > kPartitionsShown) {
    out += fmt::format("    ... {} more partitions\n", busiest.size() - kPartitionsShown);
  }
  for (const SplitReport& s : r.splits) {
    out += fmt::format("    split at {} s: partition {} -> {} + {} ({})\n",
                       Grouped(s.time_seconds, 1), s.parent_id, s.left_id, s.right_id, s.reason);
  }
  for (const ScalingActionReport& a : r.scaling_actions) {
    if (a.reason == "scheduled") {
      out += fmt::format("    throughput set at {} s: {} {} -> {} units (the workload's phase)\n",
                         Grouped(a.time_seconds, 0), a.dimension, Grouped(a.from), Grouped(a.to));
      continue;
    }
    out += fmt::format(
        "    auto scaling at {} s: {} {} -> {} units ({}; {}/s consumed that minute), in effect "
        "at {} s\n",
        Grouped(a.time_seconds, 0), a.dimension, Grouped(a.from), Grouped(a.to), a.reason,
        Grouped(a.consumed_per_second, 1), Grouped(a.effective_seconds, 0));
  }
  for (const TopKeyRule& rule : r.top_keys) {
    if (rule.keys.empty()) continue;
    out += fmt::format("    top keys, {}:\n", rule.rule);
    for (size_t i = 0; i < rule.keys.size(); ++i) {
      const TopKey& k = rule.keys[i];
      out += fmt::format("      {:<50} {:>12} (minute {})\n", k.key, Grouped(k.value, 1), k.minute);
    }
  }
}

}  // namespace

std::string Percent(double fraction) { return fmt::format("{:.1f}%", 100 * fraction); }

std::string Grouped(int64_t value) {
  std::string digits = std::to_string(value < 0 ? -value : value);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return value < 0 ? "-" + out : out;
}

std::string Grouped(double value, int decimals) {
  if (!std::isfinite(value)) return "-";
  const std::string fixed = fmt::format("{:.{}f}", std::abs(value), decimals);
  const size_t dot = fixed.find('.');
  std::string out = Grouped(static_cast<int64_t>(std::stoll(fixed.substr(0, dot))));
  if (dot != std::string::npos) out += fixed.substr(dot);
  const bool negative = value < 0 && fixed.find_first_not_of("0.") != std::string::npos;
  return negative ? "-" + out : out;
}

std::string ReportText(const Report& r) {
  std::string out = fmt::format("{} (seed {}): {} s simulated\n", r.workload, r.seed,
                                Seconds(r.simulated_seconds));
  if (!r.description.empty()) out += "  " + r.description + "\n";
  out += "\nWhat happened:\n";
  for (const std::string& sentence : Summary(r)) out += Wrapped(sentence, "  ", 98);
  out +=
      fmt::format("\nRequests: offered {}/s, served {}/s; {} of attempts throttled\n",
                  Grouped(r.offered_rate, 1), Grouped(r.served_rate, 1), Percent(r.throttle_rate));
  out += fmt::format("  {:<28} {:>12} {:>12} {:>12} {:>10} {:>9} {:>10} {:>8}\n", "", "offered",
                     "served", "throttled", "retries", "gave up", "cond.fail", "errors");
  CountsRow(out, "all phases", r.totals);
  for (const PhaseReport& p : r.phases) {
    CountsRow(out,
              fmt::format("{} ({}-{} s)", p.name, Seconds(p.start_seconds),
                          Seconds(p.start_seconds + p.duration_seconds)),
              p.counts);
    if (p.operations.size() > 1) {
      for (const OperationReport& o : p.operations) {
        CountsRow(out, "  " + o.name + " " + o.table + (o.index ? "/" + *o.index : ""), o.counts);
        if (!o.key.empty()) out += "      " + o.key + "\n";
      }
    }
  }
  for (const PhaseReport& p : r.phases) {
    out += fmt::format("  {}: offered {}/s, served {}/s\n", p.name, Grouped(p.offered_rate, 1),
                       Grouped(p.served_rate, 1));
  }
  out += "\nRetries: " + DelayText(r.retry_delay) + "\n";
  if (r.retry_delay.delayed_requests == 0 && r.totals.retries > 0) {
    out += fmt::format("  ({} retries were sent; none got its request served)\n",
                       Grouped(r.totals.retries));
  }
  if (!r.throttle_events.empty()) {
    out += "\nThrottle events by reason (all tables and indexes):\n";
    for (const ReasonCount& reason : r.throttle_events) {
      out += fmt::format("  {:<48} {:>12}\n", reason.reason, Grouped(reason.events));
    }
  }
  out += "\nTables and indexes:";
  for (const ResourceReport& res : r.resources)
    Resource(out, res, std::max(r.simulated_seconds, 1e-9));
  if (!r.caches.empty()) {
    out += "\nCaches (in front of their tables; hits never reached a partition):\n";
    for (const CacheReport& c : r.caches) {
      out += Wrapped(
          fmt::format(
              "{}: {} hit ({} items, {} 'no such item', {} pages), {} missed; {} read units saved "
              "(estimated){}",
              c.table, Percent(c.hit_ratio), Grouped(c.item_hits), Grouped(c.negative_hits),
              Grouped(c.query_hits), Grouped(c.item_misses + c.query_misses),
              Grouped(c.read_units_saved, 1),
              c.cost_saved > 0
                  ? ", " + Money(c.cost_saved) + " " + r.cost.currency + " saved"
                  : std::string(" (provisioned: the bill is the same; the table can be "
                                "provisioned for the misses)")),
          "  ", 98);
    }
  }
  CostSection(out, r.cost);
  if (!r.errors.empty()) {
    out += "\nErrors (not throttles):\n";
    for (const Report::ErrorCount& e : r.errors) {
      out += fmt::format("  {:>8} x {}\n", Grouped(e.count), e.message);
    }
  }
  return out;
}

std::string ComparisonText(const std::vector<Report>& runs) {
  std::string out;
  for (const Report& r : runs) out += ReportText(r) + "\n";
  if (runs.size() < 2) return out;
  out += "Side by side:\n";
  auto row = [&](const std::string& label, auto value) {
    out += fmt::format("  {:<30}", label);
    for (const Report& r : runs) out += fmt::format(" {:>22}", value(r));
    out += "\n";
  };
  row("", [](const Report& r) { return r.workload.substr(0, 22); });
  row("offered / s", [](const Report& r) { return Grouped(r.offered_rate, 1); });
  row("served / s", [](const Report& r) { return Grouped(r.served_rate, 1); });
  row("served / offered", [](const Report& r) {
    return Percent(r.totals.offered > 0 ? static_cast<double>(r.totals.served) /
                                              static_cast<double>(r.totals.offered)
                                        : 0.0);
  });
  row("attempts throttled", [](const Report& r) { return Percent(r.throttle_rate); });
  // Phases every run has (by name): their served rates side by side.
  for (const PhaseReport& phase : runs.front().phases) {
    auto find = [&](const Report& r) -> const PhaseReport* {
      for (const PhaseReport& p : r.phases) {
        if (p.name == phase.name) return &p;
      }
      return nullptr;
    };
    if (!std::all_of(runs.begin(), runs.end(), [&](const Report& r) { return find(r); })) continue;
    row(phase.name + ": served / s",
        [&](const Report& r) { return Grouped(find(r)->served_rate, 1); });
  }
  row("retries", [](const Report& r) { return Grouped(r.totals.retries); });
  row("gave up", [](const Report& r) { return Grouped(r.totals.gave_up); });
  row("retry delay p99 (ms)", [](const Report& r) { return Grouped(r.retry_delay.p99_ms, 1); });
  row("partitions at the end", [](const Report& r) {
    int64_t n = 0;
    for (const ResourceReport& res : r.resources) {
      n += std::count_if(res.partitions.begin(), res.partitions.end(),
                         [](const PartitionReport& p) { return !p.retired_seconds; });
    }
    return Grouped(n);
  });
  row(fmt::format("cost of the run ({})", runs.front().cost.currency),
      [](const Report& r) { return Money(r.cost.total); });
  row("a month at this rate", [](const Report& r) { return Grouped(r.cost.monthly_estimate, 2); });
  const Report& base = runs.front();
  for (size_t i = 1; i < runs.size(); ++i) {
    const double ratio = base.served_rate > 0 ? runs[i].served_rate / base.served_rate : 0;
    out += fmt::format("  {} serves {}x the requests per second of {}\n", runs[i].workload,
                       Grouped(ratio, 2), base.workload);
  }
  return out;
}

}  // namespace partstore::sim
