// `partstore bench`: YCSB's core workloads and the seeds' access patterns against the engine
// in-process and what users would pick instead (tools/bench/). Loads every target, then runs each
// (workload, keys, threads) cell on the targets back to back, so drift in the machine's load hits
// all alike; prints Markdown tables and the ratios, and writes JSON with --json.
#include <fmt/format.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <memory>

#include "tools/bench/bare_map_target.h"
#include "tools/bench/dynamodb_target.h"
#include "tools/bench/engine_target.h"
#include "tools/bench/redis_target.h"
#include "tools/bench/report.h"
#include "tools/bench/runner.h"
#include "tools/cli/commands.h"
#include "tools/protocol/dispatch.h"

namespace partstore::cli {
namespace {

using bench::Distribution;
using bench::Role;

// NAME=URL
bool SplitEndpoint(const std::string& spec, std::string* name, std::string* url) {
  const size_t eq = spec.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) return false;
  *name = spec.substr(0, eq);
  *url = spec.substr(eq + 1);
  return true;
}

// HOST:PORT (HOST alone: port 6379).
bool SplitHostPort(const std::string& spec, bench::RedisOptions* options) {
  const size_t colon = spec.rfind(':');
  if (colon == std::string::npos) {
    options->host = spec;
    return !spec.empty();
  }
  options->host = spec.substr(0, colon);
  try {
    const int port = std::stoi(spec.substr(colon + 1));
    if (port <= 0 || port > 65535) return false;
    options->port = port;
  } catch (...) {
    return false;
  }
  return !options->host.empty();
}

struct Participant {
  std::unique_ptr<bench::Target> target;
  std::unique_ptr<bench::TargetState> state;
  bench::TargetInfo info;
  bool static_response = false;
};

// The exact GetItem response partstore sends for YCSB record 0: the body a static-response
// server returns, so the ceiling answers with partstore's bytes.
int WriteStaticBody(const BenchCommand& c, const bench::Dataset& data, std::ostream& err) {
  const bench::TableSpec& table = data.ycsb_table();
  sim::Random random(data.options().seed);  // the loaded record 0 (Dataset::YcsbItems)
  const bench::BenchItem record = data.YcsbRecord(0, random);
  rapidjson::StringBuffer put_body;
  {
    rapidjson::Writer<rapidjson::StringBuffer> w(put_body);
    w.StartObject();
    w.Key("TableName");
    w.String(table.name.c_str());
    w.Key("Item");
    w.StartObject();
    for (const bench::Attribute& a : record.attributes) {
      w.Key(a.name.c_str());
      w.StartObject();
      w.Key("S");
      w.String(a.value.data(), static_cast<rapidjson::SizeType>(a.value.size()));
      w.EndObject();
    }
    w.EndObject();
    w.EndObject();
  }
  Database db;
  const protocol::Response created = protocol::Dispatch(
      db, "CreateTable",
      fmt::format(R"({{"TableName":"{}","KeySchema":[{{"AttributeName":"{}","KeyType":"HASH"}}],)"
                  R"("AttributeDefinitions":[{{"AttributeName":"{}","AttributeType":"S"}}],)"
                  R"("BillingMode":"PAY_PER_REQUEST"}})",
                  table.name, table.partition_key, table.partition_key));
  const protocol::Response put = protocol::Dispatch(db, "PutItem", put_body.GetString());
  const protocol::Response got =
      protocol::Dispatch(db, "GetItem",
                         fmt::format(R"({{"TableName":"{}","Key":{{"{}":{{"S":"{}"}}}}}})",
                                     table.name, table.partition_key, bench::Dataset::YcsbKey(0)));
  if (created.http_status != 200 || put.http_status != 200 || got.http_status != 200) {
    err << "partstore bench: could not build the static body: " << created.body << put.body
        << got.body << '\n';
    return 1;
  }
  std::ofstream file(c.static_body, std::ios::binary);
  file << got.body;
  if (!file.flush()) {
    err << "partstore bench: cannot write " << c.static_body << '\n';
    return 1;
  }
  return 0;
}

}  // namespace

int RunBench(const BenchCommand& c, std::ostream& out, std::ostream& err) {
  bench::DatasetOptions dataset_options;
  dataset_options.records = c.records;
  dataset_options.users = c.users;
  dataset_options.seed = c.seed;
  const bench::Dataset data(dataset_options);
  if (!c.static_body.empty()) return WriteStaticBody(c, data, err);

  // What to run.
  std::vector<const bench::Workload*> workloads;
  for (const std::string& name : c.workloads) {
    auto push = [&](const bench::Workload* w) {  // each workload once, in first-named order
      if (std::find(workloads.begin(), workloads.end(), w) == workloads.end())
        workloads.push_back(w);
    };
    auto add = [&](const std::vector<bench::Workload>& all) {
      for (const bench::Workload& w : all) push(bench::FindWorkload(w.name));
    };
    if (name == "all" || name == "ycsb") add(bench::YcsbWorkloads());
    if (name == "all" || name == "seed") add(bench::SeedWorkloads());
    if (name != "all" && name != "ycsb" && name != "seed") {
      const bench::Workload* w = bench::FindWorkload(name);
      if (w == nullptr) {
        err << "partstore bench: no workload " << name
            << " (ycsb-a .. ycsb-f, seed-get-user, seed-user-orders, seed-product-reviews, "
               "seed-order-items, seed-followers-page; or ycsb, seed, all)\n";
        return 2;
      }
      push(w);
    }
  }
  std::vector<Distribution> distributions;
  for (const std::string& d : c.distributions) {
    const Distribution dist = d == "uniform" ? Distribution::kUniform : Distribution::kZipfian;
    if (std::find(distributions.begin(), distributions.end(), dist) == distributions.end())
      distributions.push_back(dist);
  }
  std::vector<int> thread_counts;
  for (int threads : c.threads) {
    if (std::find(thread_counts.begin(), thread_counts.end(), threads) == thread_counts.end())
      thread_counts.push_back(threads);
  }

  // Who runs it.
  std::vector<Participant> participants;
  auto add = [&](std::unique_ptr<bench::Target> target, Role role, bool wire) {
    Participant p;
    p.info.name = target->name();
    p.info.role = role;
    p.info.wire = wire;
    p.target = std::move(target);
    participants.push_back(std::move(p));
    return &participants.back();
  };
  participants.reserve(4 + c.endpoints.size() + c.static_endpoints.size());
  if (c.engine) add(bench::MakeEngineTarget("engine"), Role::kEngine, false);
  if (c.bare_map) add(bench::MakeBareMapTarget("bare-map"), Role::kCeiling, false);
  if (!c.redis.empty()) {
    bench::RedisOptions options;
    if (!SplitHostPort(c.redis, &options)) {
      err << "partstore bench: --redis wants HOST:PORT, not " << c.redis << '\n';
      return 2;
    }
    auto redis = bench::MakeRedisTarget("redis", options);
    if (!redis.ok()) {
      err << "partstore bench: redis: " << redis.status().ToString() << '\n';
      return 1;
    }
    add(std::move(*redis), Role::kPeer, false);
  }
  std::string subject;
  for (bool is_static : {false, true}) {
    for (const std::string& spec : is_static ? c.static_endpoints : c.endpoints) {
      bench::EndpointOptions options;
      if (!SplitEndpoint(spec, &options.name, &options.url)) {
        err << "partstore bench: an endpoint is NAME=URL, not " << spec << '\n';
        return 2;
      }
      options.static_response = is_static;
      // Every measuring thread (and each of the 4 loaders) holds a connection of its own.
      options.max_connections = static_cast<size_t>(std::max(c.connections, 4));
      const bool taken =
          std::any_of(participants.begin(), participants.end(),
                      [&](const Participant& p) { return p.info.name == options.name; });
      if (taken || options.name == "engine" || options.name == "bare-map" ||
          options.name == "redis") {
        err << "partstore bench: endpoint name " << options.name
            << " is taken (engine, bare-map, redis and each endpoint's name must differ)\n";
        return 2;
      }
      auto target = bench::MakeDynamoDbTarget(options);
      if (!target.ok()) {
        err << "partstore bench: " << options.name << ": " << target.status().ToString() << '\n';
        return 1;
      }
      const Role role = is_static         ? Role::kCeiling
                        : subject.empty() ? Role::kWireSubject
                                          : Role::kPeer;
      if (role == Role::kWireSubject) subject = options.name;
      add(std::move(*target), role, true)->static_response = is_static;
    }
  }
  if (participants.empty()) {
    err << "partstore bench: nothing to run (every target is off)\n";
    return 2;
  }

  bench::BenchReport report;
  report.machine = bench::DescribeMachine();
  report.dataset = dataset_options;
  report.seconds = c.seconds;
  report.warmup_seconds = c.warmup;
  report.rounds = c.rounds;
  if (!c.endpoints.empty() || !c.static_endpoints.empty()) report.connections = c.connections;

  // Load everything first.
  for (Participant& p : participants) {
    p.state = std::make_unique<bench::TargetState>(*p.target, data);
    if (p.static_response) continue;
    err << "[bench] loading " << p.info.name << " ..." << std::endl;
    const int loaders = p.info.wire ? 4 : 2;
    if (Status s = p.state->Load(loaders); !s.ok()) {
      p.info.error = "load failed: " + s.ToString();
      err << "[bench] " << p.info.name << ": " << p.info.error << std::endl;
      continue;
    }
    p.info.loaded_items = p.state->loaded_items();
    p.info.load_seconds = p.state->load_seconds();
    err << fmt::format("[bench] {}: {} items in {:.1f} s", p.info.name, p.info.loaded_items,
                       p.info.load_seconds)
        << std::endl;
  }

  // The cells, interleaved: for each workload, keys and thread count, every target in turn; the
  // whole matrix `rounds` times, each cell reported as its median round (by throughput). The
  // matrix is the same every round, so a cell's slot is its place in it; a cell that fails in any
  // round is reported as failed and makes the exit status 1.
  uint64_t seed = c.seed;
  std::vector<std::vector<bench::CellResult>> rounds;  // per cell slot, in matrix order
  int failed_cells = 0;
  for (int round = 0; round < c.rounds; ++round) {
    size_t cell_index = 0;
    for (const bench::Workload* w : workloads) {
      for (Distribution d : distributions) {
        for (int threads : thread_counts) {
          for (Participant& p : participants) {
            if (!p.info.error.empty()) continue;
            // The static body is one YCSB record's GetItem answer: YCSB C's reads only.
            if (p.static_response && !(w->ycsb && w->point_reads_only())) continue;
            // Wire targets run once per (workload, keys), with `connections` threads.
            if (p.info.wire && threads != thread_counts.front()) continue;
            bench::CellOptions options;
            options.distribution = d;
            options.threads = p.info.wire ? c.connections : threads;
            options.seconds = c.seconds;
            options.warmup_seconds = c.warmup;
            options.seed = ++seed;
            options.check_reads = !p.static_response;
            const size_t slot = cell_index++;
            if (rounds.size() <= slot) rounds.resize(slot + 1);
            auto cell = bench::RunCell(*p.state, *w, options);
            if (!cell.ok()) {
              err << "[bench] " << p.info.name << " " << w->name << " "
                  << bench::DistributionName(d) << ": failed: " << cell.status().ToString()
                  << std::endl;
              ++failed_cells;
              continue;
            }
            err << fmt::format(
                       "[bench] {:<16} {:<20} {:<7} {:>3}{}  {:>10.0f} ops/s  p50 {:.1f} us  "
                       "p99 {:.1f} us{}",
                       p.info.name, w->name, bench::DistributionName(d), options.threads,
                       p.info.wire ? "c" : "T", cell->ops_per_second,
                       cell->latency.Percentile(0.5) / 1e3, cell->latency.Percentile(0.99) / 1e3,
                       cell->errors + cell->misses > 0
                           ? fmt::format("  errors {} misses {}", cell->errors, cell->misses)
                           : "")
                << std::endl;
            rounds[slot].push_back(std::move(*cell));
          }
        }
      }
    }
  }
  for (std::vector<bench::CellResult>& runs : rounds) {
    if (runs.empty()) continue;  // failed in every round
    std::sort(runs.begin(), runs.end(), [](const bench::CellResult& a, const bench::CellResult& b) {
      return a.ops_per_second < b.ops_per_second;
    });
    report.cells.push_back(std::move(runs[(runs.size() - 1) / 2]));
  }
  for (Participant& p : participants) report.targets.push_back(p.info);

  // The ratios issue 11 states its targets in.
  auto ratio = [&](std::string num, std::string den, std::string target, bool point_reads,
                   double goal) {
    bench::RatioSpec r;
    r.label = num + " / " + den;
    r.numerator = std::move(num);
    r.denominator = std::move(den);
    r.target = std::move(target);
    r.point_reads_only = point_reads;
    r.goal = goal;
    report.ratios.push_back(std::move(r));
  };
  for (const Participant& p : participants) {
    if (p.info.role == Role::kCeiling && !p.info.wire) {
      ratio("engine", p.info.name, ">= 0.40 (within 2.5x)", true, 0.4);
      ratio("engine", p.info.name, "", false, 0);
    }
  }
  for (const Participant& p : participants) {
    if (p.info.role == Role::kPeer && !p.info.wire)
      ratio("engine", p.info.name, ">= 10x", false, 10);
  }
  if (!subject.empty()) {
    for (const Participant& p : participants) {
      if (!p.info.wire || p.info.name == subject) continue;
      if (p.static_response) {
        ratio(subject, p.info.name, ">= 0.60", true, 0.6);
      } else {
        ratio(subject, p.info.name, ">= 4x", false, 4);
      }
    }
  }

  bench::PrintReport(report, out);
  if (!c.json.empty()) {
    std::ofstream file(c.json, std::ios::binary);
    file << bench::ReportJson(report) << '\n';
    if (!file.flush()) {
      err << "partstore bench: cannot write " << c.json << '\n';
      return 1;
    }
    err << "[bench] JSON: " << c.json << std::endl;
  }
  if (failed_cells > 0) {
    err << "partstore bench: " << failed_cells << " cell run(s) failed (above)" << std::endl;
    return 1;
  }
  for (const Participant& p : participants) {
    if (!p.info.error.empty()) return 1;
  }
  for (const bench::CellResult& cell : report.cells) {
    if (cell.errors > 0 || cell.misses > 0) return 1;
  }
  return 0;
}

}  // namespace partstore::cli
