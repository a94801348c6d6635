#include "tools/bench/report.h"

#include <fmt/format.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <fstream>
#include <map>
#include <tuple>

namespace partstore::bench {
namespace {

std::string Rate(double r) {
  if (r >= 1e6) return fmt::format("{:.2f}M", r / 1e6);
  if (r >= 1e4) return fmt::format("{:.0f}k", r / 1e3);
  if (r >= 1e3) return fmt::format("{:.1f}k", r / 1e3);
  return fmt::format("{:.0f}", r);
}

std::string Micros(uint64_t nanos) {
  const double us = static_cast<double>(nanos) / 1e3;
  if (us >= 100) return fmt::format("{:.0f}", us);
  if (us >= 10) return fmt::format("{:.1f}", us);
  return fmt::format("{:.2f}", us);
}

std::string Ratio(double r) {
  return r >= 10 ? fmt::format("{:.0f}x", r) : fmt::format("{:.2f}x", r);
}

std::string RoleName(Role r) {
  switch (r) {
    case Role::kEngine:
      return "engine";
    case Role::kCeiling:
      return "ceiling";
    case Role::kPeer:
      return "peer";
    case Role::kWireSubject:
      return "wire-subject";
  }
  return "?";
}

// A column: one target at one thread count.
struct Column {
  std::string target;
  int threads;
  bool wire;
  std::string Label() const { return fmt::format("{} {}{}", target, threads, wire ? "c" : "T"); }
  bool operator==(const Column&) const = default;
};
// A row: one workload under one distribution.
using Row = std::pair<std::string, Distribution>;

bool IsWire(const BenchReport& report, const std::string& target) {
  for (const TargetInfo& t : report.targets) {
    if (t.name == target) return t.wire;
  }
  return false;
}

struct Grid {
  std::vector<Row> rows;
  std::vector<Column> columns;
  std::map<std::tuple<std::string, Distribution, std::string, int>, const CellResult*> cells;
  const CellResult* At(const Row& row, const Column& c) const {
    auto it = cells.find({row.first, row.second, c.target, c.threads});
    return it == cells.end() ? nullptr : it->second;
  }
};

Grid MakeGrid(const BenchReport& report, bool wire) {
  Grid g;
  for (const CellResult& c : report.cells) {
    if (IsWire(report, c.target) != wire) continue;
    Row row{c.workload, c.distribution};
    if (std::find(g.rows.begin(), g.rows.end(), row) == g.rows.end()) g.rows.push_back(row);
    Column col{c.target, c.threads, wire};
    if (std::find(g.columns.begin(), g.columns.end(), col) == g.columns.end()) {
      g.columns.push_back(col);
    }
    g.cells[{c.workload, c.distribution, c.target, c.threads}] = &c;
  }
  return g;
}

void PrintGrid(const Grid& g, std::ostream& out, bool latency) {
  out << "| workload | keys |";
  for (const Column& c : g.columns) out << ' ' << c.Label() << " |";
  out << "\n|---|---|";
  for (size_t i = 0; i < g.columns.size(); ++i) out << "---|";
  out << '\n';
  for (const Row& row : g.rows) {
    out << "| " << row.first << " | " << DistributionName(row.second) << " |";
    for (const Column& c : g.columns) {
      const CellResult* cell = g.At(row, c);
      if (cell == nullptr) {
        out << " - |";
      } else if (latency) {
        out << ' ' << Micros(cell->latency.Percentile(0.5)) << " / "
            << Micros(cell->latency.Percentile(0.99)) << " |";
      } else {
        out << ' ' << Rate(cell->ops_per_second) << (cell->errors + cell->misses > 0 ? " !" : "")
            << " |";
      }
    }
    out << '\n';
  }
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void WriteLatency(rapidjson::Writer<rapidjson::StringBuffer>& w, const Histogram& h) {
  w.StartObject();
  auto us = [](double nanos) { return nanos / 1e3; };
  w.Key("mean");
  w.Double(us(h.mean()));
  const std::pair<const char*, double> percentiles[] = {
      {"p50", 0.5}, {"p90", 0.9}, {"p99", 0.99}, {"p999", 0.999}};
  for (const auto& [name, q] : percentiles) {
    w.Key(name);
    w.Double(us(static_cast<double>(h.Percentile(q))));
  }
  w.Key("max");
  w.Double(us(static_cast<double>(h.max())));
  w.EndObject();
}

}  // namespace

MachineInfo DescribeMachine() {
  MachineInfo m;
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0) {
      const size_t colon = line.find(':');
      if (colon != std::string::npos) m.cpu = line.substr(colon + 2);
      break;
    }
  }
  m.cores = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  m.memory_gib = static_cast<double>(sysconf(_SC_PHYS_PAGES)) *
                 static_cast<double>(sysconf(_SC_PAGE_SIZE)) / (1024.0 * 1024 * 1024);
  struct utsname u;
  if (uname(&u) == 0) m.kernel = std::string(u.sysname) + " " + u.release;
  const std::time_t now = std::time(nullptr);
  std::tm tm;
  gmtime_r(&now, &tm);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
  m.date = date;
  return m;
}

std::vector<RatioResult> ComputeRatios(const BenchReport& report) {
  std::vector<RatioResult> results;
  for (const RatioSpec& spec : report.ratios) {
    RatioResult r;
    r.spec = &spec;
    std::vector<double> values;
    for (const CellResult& num : report.cells) {
      // A cell with errors or misses did not do the same work as its peer: no ratio.
      if (num.target != spec.numerator || num.errors > 0 || num.misses > 0) continue;
      const Workload* w = FindWorkload(num.workload);
      if (spec.point_reads_only && (w == nullptr || !w->point_reads_only())) continue;
      for (const CellResult& den : report.cells) {
        if (den.target != spec.denominator || den.workload != num.workload ||
            den.distribution != num.distribution || den.threads != num.threads ||
            den.ops_per_second <= 0 || den.errors > 0 || den.misses > 0) {
          continue;
        }
        const double ratio = num.ops_per_second / den.ops_per_second;
        r.pairs.push_back({num.workload, num.distribution, num.threads, ratio});
        values.push_back(ratio);
      }
    }
    if (!values.empty()) {
      r.min = *std::min_element(values.begin(), values.end());
      r.max = *std::max_element(values.begin(), values.end());
      r.median = Median(values);
      r.met = spec.goal > 0 && r.min >= spec.goal;
    }
    results.push_back(std::move(r));
  }
  return results;
}

void PrintReport(const BenchReport& report, std::ostream& out) {
  const MachineInfo& m = report.machine;
  const DatasetOptions& d = report.dataset;
  out << fmt::format("partstore bench, {}: {} x {} cores, {:.0f} GiB, {}\n", m.date, m.cpu, m.cores,
                     m.memory_gib, m.kernel);
  out << fmt::format(
      "Data: {} YCSB records ({} fields x {} B) and the seed model ({} users, {} products); "
      "{:g} s per cell after {:g} s of warm-up",
      d.records, d.fields, d.field_length, d.users, std::max<int64_t>(1, d.users / 4),
      report.seconds, report.warmup_seconds);
  if (report.rounds > 1) out << fmt::format("; each cell the median of {} rounds", report.rounds);
  if (report.connections > 0)
    out << fmt::format("; {} connections over the wire", report.connections);
  out << ".\n";
  for (const TargetInfo& t : report.targets) {
    if (!t.error.empty()) {
      out << fmt::format("  {}: left out: {}\n", t.name, t.error);
    } else if (t.loaded_items > 0) {
      out << fmt::format("  {}: loaded {} items in {:.1f} s ({}/s)\n", t.name, t.loaded_items,
                         t.load_seconds, Rate(t.loaded_items / std::max(1e-9, t.load_seconds)));
    }
  }
  for (bool wire : {false, true}) {
    const Grid g = MakeGrid(report, wire);
    if (g.rows.empty()) continue;
    // Redis is the one in-process-table target that is not in this process.
    bool redis = false;
    for (const TargetInfo& t : report.targets) redis = redis || (!t.wire && t.role == Role::kPeer);
    const std::string title = wire    ? "Over the wire"
                              : redis ? "In-process (Redis: over loopback)"
                                      : "In-process";
    out << fmt::format("\n## {}: operations per second ({})\n\n", title,
                       wire ? "c: connections" : "T: threads");
    PrintGrid(g, out, false);
    out << fmt::format("\n## {}: latency p50 / p99, microseconds\n\n", title);
    PrintGrid(g, out, true);
  }

  const std::vector<RatioResult> ratios = ComputeRatios(report);
  bool any = false;
  for (const RatioResult& r : ratios) any = any || !r.pairs.empty();
  if (any) {
    out << "\n## Ratios (same workload, keys and threads, measured in this run)\n\n"
        << "| ratio | over | min | median | max | goal | verdict "
           "|\n|---|---|---|---|---|---|---|\n";
    for (const RatioResult& r : ratios) {
      if (r.pairs.empty()) continue;
      out << fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", r.spec->label,
                         r.spec->point_reads_only ? "point reads" : "every workload", Ratio(r.min),
                         Ratio(r.median), Ratio(r.max), r.spec->goal > 0 ? r.spec->target : "-",
                         r.spec->goal <= 0          ? "-"
                         : r.met                    ? "met"
                         : r.median >= r.spec->goal ? "median met, not every pair"
                                                    : "missed");
    }
  }
  bool errors = false;
  for (const CellResult& c : report.cells) {
    if (c.errors == 0 && c.misses == 0) continue;
    if (!errors) out << "\n## Errors (cells marked !)\n\n";
    errors = true;
    out << fmt::format("- {} {} {} {}: {} errors, {} reads found nothing{}{}\n", c.target,
                       c.workload, DistributionName(c.distribution), c.threads, c.errors, c.misses,
                       c.first_error.empty() ? "" : "; first: ", c.first_error);
  }
}

std::string ReportJson(const BenchReport& report) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  auto key_string = [&](const char* k, std::string_view v) {
    w.Key(k);
    w.String(v.data(), static_cast<rapidjson::SizeType>(v.size()));
  };
  w.StartObject();
  w.Key("machine");
  w.StartObject();
  key_string("cpu", report.machine.cpu);
  w.Key("cores");
  w.Int(report.machine.cores);
  w.Key("memory_gib");
  w.Double(report.machine.memory_gib);
  key_string("kernel", report.machine.kernel);
  key_string("date", report.machine.date);
  w.EndObject();
  w.Key("dataset");
  w.StartObject();
  const DatasetOptions& d = report.dataset;
  w.Key("records");
  w.Int64(d.records);
  w.Key("fields");
  w.Int(d.fields);
  w.Key("field_length");
  w.Int(d.field_length);
  w.Key("users");
  w.Int64(d.users);
  w.Key("seed");
  w.Uint64(d.seed);
  w.EndObject();
  w.Key("seconds");
  w.Double(report.seconds);
  w.Key("warmup_seconds");
  w.Double(report.warmup_seconds);
  w.Key("rounds");
  w.Int(report.rounds);
  w.Key("connections");
  w.Int(report.connections);
  w.Key("targets");
  w.StartArray();
  for (const TargetInfo& t : report.targets) {
    w.StartObject();
    key_string("name", t.name);
    key_string("role", RoleName(t.role));
    w.Key("wire");
    w.Bool(t.wire);
    w.Key("loaded_items");
    w.Int64(t.loaded_items);
    w.Key("load_seconds");
    w.Double(t.load_seconds);
    if (!t.error.empty()) key_string("error", t.error);
    w.EndObject();
  }
  w.EndArray();
  w.Key("cells");
  w.StartArray();
  for (const CellResult& c : report.cells) {
    w.StartObject();
    key_string("target", c.target);
    key_string("workload", c.workload);
    key_string("distribution", DistributionName(c.distribution));
    w.Key("threads");
    w.Int(c.threads);
    w.Key("seconds");
    w.Double(c.seconds);
    w.Key("operations");
    w.Uint64(c.operations);
    w.Key("errors");
    w.Uint64(c.errors);
    w.Key("misses");
    w.Uint64(c.misses);
    w.Key("ops_per_second");
    w.Double(c.ops_per_second);
    w.Key("latency_us");
    WriteLatency(w, c.latency);
    if (!c.first_error.empty()) key_string("first_error", c.first_error);
    w.Key("operations_by_type");
    w.StartArray();
    for (const OpResult& op : c.ops) {
      w.StartObject();
      key_string("type", OpTypeName(op.op));
      w.Key("count");
      w.Uint64(op.count);
      w.Key("errors");
      w.Uint64(op.errors);
      w.Key("misses");
      w.Uint64(op.misses);
      w.Key("latency_us");
      WriteLatency(w, op.latency);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.Key("ratios");
  w.StartArray();
  for (const RatioResult& r : ComputeRatios(report)) {
    w.StartObject();
    key_string("label", r.spec->label);
    key_string("numerator", r.spec->numerator);
    key_string("denominator", r.spec->denominator);
    w.Key("point_reads_only");
    w.Bool(r.spec->point_reads_only);
    if (r.spec->goal > 0) {
      w.Key("goal");
      w.Double(r.spec->goal);
      w.Key("met");
      w.Bool(r.met);
    }
    w.Key("min");
    w.Double(r.min);
    w.Key("median");
    w.Double(r.median);
    w.Key("max");
    w.Double(r.max);
    w.Key("pairs");
    w.StartArray();
    for (const RatioResult::Pair& p : r.pairs) {
      w.StartObject();
      key_string("workload", p.workload);
      key_string("distribution", DistributionName(p.distribution));
      w.Key("threads");
      w.Int(p.threads);
      w.Key("ratio");
      w.Double(p.ratio);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace partstore::bench
