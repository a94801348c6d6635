// partstore: the command-line program. Parses arguments with CLI11 and dispatches to one file per
// subcommand (commands.h).
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>

#include "tools/cli/commands.h"

namespace {

// A number in [low, high], refused in words ("-1 is out of range 0 to 31536000").
CLI::Validator Between(double low, double high) {
  auto text = [](double v) {
    if (v == std::floor(v) && std::abs(v) < 1e15) return std::to_string(static_cast<int64_t>(v));
    std::ostringstream out;
    out << v;
    return out.str();
  };
  return CLI::Validator(
      [=](std::string& input) -> std::string {
        size_t used = 0;
        double value = 0;
        try {
          value = std::stod(input, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used == 0 || used != input.size()) return "'" + input + "' is not a number";
        if (!(value >= low && value <= high)) {
          return input + " is out of range " + text(low) + " to " + text(high);
        }
        return std::string();
      },
      "NUMBER in [" + text(low) + ", " + text(high) + "]", "Between");
}

void AddCapacityFlags(CLI::App* command, partstore::cli::CapacityFlags& flags) {
  command
      ->add_option("--capacity", flags.capacity,
                   "Simulate DynamoDB's capacity: partitions, throttling, metrics (default: off; "
                   "on with --clock manual)")
      ->check(CLI::IsMember({"on", "off"}));
  command
      ->add_option("--clock", flags.clock,
                   "The capacity simulation's clock: system, or manual (starts at 0, moved by "
                   "Partstore.AdvanceClock; turns capacity on)")
      ->capture_default_str()
      ->check(CLI::IsMember({"system", "manual"}));
  command
      ->add_option("--memory-limit", flags.memory_limit,
                   "Most the store may hold: items, keys, indexes (e.g. 512MiB, 2GiB; 0: no limit)")
      ->transform(CLI::AsSizeValue(false));
  command
      ->add_option("--memory-policy", flags.memory_policy,
                   "At the limit: reject writes, or evict least recently used item collections "
                   "(evict-ttl-first: those with the nearest TTL expiry first)")
      ->capture_default_str()
      ->check(CLI::IsMember({"reject", "evict", "evict-ttl-first"}));
  command
      ->add_option("--expiry-mode", flags.expiry_mode,
                   "TTL: dynamodb (expired items stay visible until deleted, as on DynamoDB) or "
                   "cache (invisible the instant they expire)")
      ->capture_default_str()
      ->check(CLI::IsMember({"dynamodb", "cache"}));
  command
      ->add_option("--ttl-sweep-seconds", flags.ttl_sweep_seconds,
                   "TTL: how often the sweeper deletes expired items (0: never in the background)")
      ->capture_default_str();
  command
      ->add_option("--ttl-delay-seconds", flags.ttl_delay_seconds,
                   "TTL: how long an expired item stays before the sweeper may delete it")
      ->capture_default_str();
  command->add_option("--record", flags.record,
                      "Write a trace of every request to FILE (JSON lines), for `partstore "
                      "simulate --trace FILE` to replay");
  command->add_flag("--hash-keys", flags.hash_keys,
                    "With --record: write each key value as a hash, not its text");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "partstore: an in-memory store with Amazon DynamoDB's data model and capacity behaviour"};
  app.set_version_flag("--version", std::string("partstore ") + PARTSTORE_VERSION);
  app.require_subcommand(1);
  // Examples, each as the README shows it (tests/cli/errors.sh checks that they are there).
  app.footer(
      "Examples:\n"
      "  partstore demo                                  # viral-product vs viral-product-sharded\n"
      "  partstore simulate --list                       # the built-in scenarios\n"
      "  partstore simulate celebrity --html celebrity.html\n"
      "  partstore serve --port 8000 --record app.trace.jsonl            # ... run the load test, "
      "then ^C\n"
      "  partstore simulate --trace app.trace.jsonl --speed 50x --html replay.html\n"
      "  partstore serve --data-dir ./data --wal fsync=always     # and every change logged first\n"
      "  partstore bench --workloads ycsb-c,seed-get-user --keys zipfian --threads 1 --seconds 1\n"
      "\n"
      "partstore help COMMAND (or partstore COMMAND --help) lists a command's options.");

  partstore::cli::SimulateCommand demo_command;
  CLI::App* demo = app.add_subcommand(
      "demo",
      "The main job: a product goes viral on the seed e-commerce table, simulated unsharded and "
      "with write sharding, compared, with an HTML report");
  demo->add_option("--html", demo_command.html, "Where to write the HTML report")
      ->default_str("partstore-demo.html");
  demo->add_option("--json", demo_command.json, "Also write the JSON report here");
  demo->add_flag("--quiet", demo_command.quiet, "No progress bar or timing line");

  partstore::cli::SimulateCommand simulate_command;
  std::string workload;
  std::string compare;
  CLI::App* simulate = app.add_subcommand(
      "simulate",
      "Run a workload (a TOML file, or a built-in scenario's name) on a simulated clock: what "
      "DynamoDB would serve, throttle and split");
  simulate->add_option("WORKLOAD", workload,
                       "A workload file, or a built-in scenario (see --list)");
  simulate->add_option("--compare", compare, "A second workload, run and reported side by side");
  simulate->add_option("--json", simulate_command.json, "Write the JSON report here");
  simulate->add_option("--html", simulate_command.html,
                       "Write the self-contained HTML report here");
  simulate->add_flag("--quiet", simulate_command.quiet, "No progress bar or timing line");
  simulate->add_flag("--list", simulate_command.list, "List the built-in scenarios");
  simulate->add_option("--prices", simulate_command.prices,
                       "A price file (TOML) for the runs' bills; default: built-in us-east-1 "
                       "list prices (--print-prices shows them as a file)");
  simulate->add_flag("--print-prices", simulate_command.print_prices,
                     "Print the price table in effect as a price file, and exit");
  simulate->add_option("--trace", simulate_command.trace,
                       "Replay this request trace (written by `partstore serve --record`) instead "
                       "of a workload's phases");
  simulate
      ->add_option("--speed", simulate_command.speed,
                   "With --trace: the replay's pace, e.g. 50x (50 times as fast as recorded); "
                   "with --live: simulated seconds a second (e.g. 10x)")
      ->capture_default_str();
  simulate->add_flag("--live", simulate_command.live,
                     "Serve the live page of partitions and throttles at "
                     "http://127.0.0.1:PORT/ui while the run goes at --speed, and after it until "
                     "Ctrl-C (one workload)");
  simulate
      ->add_option("--port", simulate_command.live_port,
                   "With --live: the page's port (0: any free port)")
      ->capture_default_str();
  simulate->add_option("--tables", simulate_command.tables,
                       "With --trace: a workload file whose tables (and preload, sharding, "
                       "retries, auto scaling) the replay uses instead of the trace's");
  simulate->add_flag("--advise", simulate_command.advise,
                     "Also simulate what would fix the throttling (write sharding of the hot "
                     "keys, more capacity, auto scaling, on-demand) and report each with its bill");

  std::string run_file;
  CLI::App* run = app.add_subcommand(
      "run",
      "Execute DynamoDB JSON requests, one {\"op\": ..., \"request\": ...} per line, printing "
      "one response per line");
  run->add_option("FILE", run_file, "The requests (default: standard input)");
  partstore::cli::CapacityFlags run_capacity;
  AddCapacityFlags(run, run_capacity);

  partstore::cli::ServeOptions serve_options;
  CLI::App* serve = app.add_subcommand(
      "serve", "Serve the DynamoDB wire protocol over HTTP (for the AWS SDKs and CLI)");
  serve->add_option("--host", serve_options.host, "Address to listen on")->capture_default_str();
  serve->add_option("--port", serve_options.port, "Port to listen on (0: any free port)")
      ->capture_default_str();
  serve
      ->add_option("--threads", serve_options.threads,
                   "Worker threads (0: one per core but one, at least one)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1024));
  serve
      ->add_option("--auth", serve_options.auth,
                   "none: any credentials; sigv4: every request signed (Signature Version 4) "
                   "with a key of --access-keys, as on DynamoDB")
      ->capture_default_str()
      ->check(CLI::IsMember({"none", "sigv4"}));
  serve->add_option("--access-keys", serve_options.access_keys_file,
                    "With --auth sigv4: a file of '<access key id> <secret access key>' lines");
  serve
      ->add_option("--region", serve_options.region,
                   "The region the server stands for: in table and stream ARNs and stream "
                   "records, and with --auth sigv4 the region requests must be signed for "
                   "(default us-east-1)")
      ->check(CLI::Validator(
          [](std::string& input) -> std::string {
            return input.empty() ? "an empty region names none (e.g. us-east-1)" : "";
          },
          "REGION"));
  serve
      ->add_option_function<std::string>(
          "--ui", [&serve_options](const std::string& v) { serve_options.ui = v == "on"; },
          "The live page of partitions, throttles and hot keys at http://HOST:PORT/ui, with its "
          "data at /ui/data (default: on; behind --auth's keys with HTTP Basic authentication)")
      ->check(CLI::IsMember({"on", "off"}));
  serve->add_option("--s3-dir", serve_options.s3_dir,
                    "A directory standing for S3 (each bucket a subdirectory): where "
                    "ExportTableToPointInTime writes and ImportTable reads");
  serve->add_option("--data-dir", serve_options.data_dir,
                    "Keep the tables across restarts: load DIR/partstore.snapshot at start, "
                    "write it on SIGINT / SIGTERM, every --snapshot-every and on "
                    "Partstore.CreateSnapshot");
  serve
      ->add_option("--snapshot-every", serve_options.snapshot_every,
                   "Seconds between snapshots (needs --data-dir; 0: only at shutdown and on "
                   "demand)")
      ->check(Between(0, 31'536'000));
  serve->add_option("--wal", serve_options.wal,
                    "Log every change before answering it, replayed at the next start (needs "
                    "--data-dir): fsync=always (nothing acknowledged is lost), fsync=everysec "
                    "(a power cut loses up to about a second), fsync=off");
  AddCapacityFlags(serve, serve_options.capacity);
  serve->add_option("--upstream", serve_options.upstream,
                    "Serve a cache in front of this DynamoDB endpoint (DynamoDB, Alternator, "
                    "another partstore serve) instead of an engine: DAX's item and query "
                    "caches, write-through, kept coherent by the tables' streams (credentials "
                    "from the AWS chain: environment, profile)");
  serve->add_option("--upstream-region", serve_options.upstream_region,
                    "With --upstream: the region to sign for (default: the AWS chain's)");
  serve->add_option("--upstream-profile", serve_options.upstream_profile,
                    "With --upstream: the profile of the AWS config and credentials files");
  serve
      ->add_option("--cache-item-ttl", serve_options.cache_item_ttl,
                   "With --upstream: seconds a cached item stays fresh")
      ->capture_default_str()
      ->check(Between(0.001, 315'360'000));
  serve
      ->add_option("--cache-negative-ttl", serve_options.cache_negative_ttl,
                   "With --upstream: seconds a cached 'no such item' stays fresh")
      ->capture_default_str()
      ->check(Between(0.001, 315'360'000));
  serve
      ->add_option("--cache-query-ttl", serve_options.cache_query_ttl,
                   "With --upstream: seconds a cached Query or Scan page stays fresh")
      ->capture_default_str()
      ->check(Between(0.001, 315'360'000));
  serve
      ->add_option("--stream-poll", serve_options.stream_poll_seconds,
                   "With --upstream: seconds between reads of each cached table's stream (0: "
                   "do not follow streams; the TTLs alone bound staleness)")
      ->capture_default_str()
      ->check(Between(0, 600));

  partstore::cli::ExportCommand export_command;
  CLI::App* export_ = app.add_subcommand(
      "export",
      "Write one table of a data directory as a DynamoDB export (DYNAMODB_JSON: manifests and "
      "gzipped data files under DIR/AWSDynamoDB/<ExportId>/)");
  export_
      ->add_option("--data-dir", export_command.data_dir,
                   "The data directory (partstore "
                   "serve --data-dir), not open in a server")
      ->required();
  export_->add_option("--table", export_command.table, "The table")->required();
  export_->add_option("--to", export_command.to, "The directory to write the export in")
      ->required();

  partstore::cli::ImportCommand import_command;
  CLI::App* import = app.add_subcommand(
      "import",
      "Load a DynamoDB export, a DynamoDB JSON or CSV file, or a directory of them into a new "
      "table of a data directory");
  import
      ->add_option("SOURCE", import_command.source,
                   "An export's directory (holding manifest-files.json), a directory, or a file")
      ->required();
  import
      ->add_option("--data-dir", import_command.data_dir,
                   "The data directory (partstore "
                   "serve --data-dir), not open in a server")
      ->required();
  import->add_option("--table", import_command.table, "The table to create")->required();
  import
      ->add_option("--key", import_command.keys,
                   "NAME:TYPE (S, N or B): the partition key, then the sort key (repeat)")
      ->required();
  import
      ->add_option("--format", import_command.format,
                   "auto (by extension: .csv is CSV, anything else DynamoDB JSON), "
                   "dynamodb_json or csv")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "dynamodb_json", "csv"}));
  import
      ->add_option("--compression", import_command.compression, "auto (.gz is gzip), gzip or none")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "gzip", "none"}));
  import->add_option("--delimiter", import_command.delimiter, "CSV: the field delimiter")
      ->capture_default_str();

  partstore::cli::BenchCommand bench_command;
  CLI::App* bench = app.add_subcommand(
      "bench",
      "YCSB A-F and the seed access patterns on the engine in-process, a bare hash map, Redis "
      "and DynamoDB endpoints over HTTP (partstore serve, dynalite, DynamoDB, Alternator)");
  bench
      ->add_option("--workloads", bench_command.workloads,
                   "ycsb-a .. ycsb-f, seed-get-user, seed-user-orders, seed-product-reviews, "
                   "seed-order-items, seed-followers-page; or ycsb, seed, all")
      ->delimiter(',')
      ->capture_default_str();
  bench->add_option("--keys", bench_command.distributions, "Key distributions")
      ->delimiter(',')
      ->check(CLI::IsMember({"zipfian", "uniform"}))
      ->capture_default_str();
  bench
      ->add_option("--threads", bench_command.threads,
                   "Client threads in-process and for Redis (one cell per count)")
      ->delimiter(',')
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  bench->add_option("--seconds", bench_command.seconds, "Measured seconds per cell")
      ->check(Between(0.001, 86400))
      ->capture_default_str();
  bench->add_option("--warmup", bench_command.warmup, "Warm-up seconds per cell, not measured")
      ->check(Between(0, 86400))
      ->capture_default_str();
  bench
      ->add_option("--rounds", bench_command.rounds,
                   "Run every cell this many times, interleaved; report each cell's median")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  bench->add_option("--records", bench_command.records, "YCSB records loaded")
      ->check(CLI::Range(int64_t{1}, int64_t{100'000'000}))
      ->capture_default_str();
  bench
      ->add_option("--users", bench_command.users,
                   "Seed model users (30 followers and 5 orders each; products: a quarter)")
      ->check(CLI::Range(int64_t{4}, int64_t{10'000'000}))
      ->capture_default_str();
  bench->add_option("--seed", bench_command.seed, "Random seed")->capture_default_str();
  bench->add_flag("!--no-engine", bench_command.engine, "Leave the in-process engine out");
  bench->add_flag("!--no-bare-map", bench_command.bare_map, "Leave the bare hash map out");
  bench->add_option("--redis", bench_command.redis, "A Redis server, HOST:PORT");
  bench->add_option("--endpoint", bench_command.endpoints,
                    "NAME=URL of a DynamoDB endpoint (repeatable); the first is the subject "
                    "(partstore serve), the others its peers. Signs with SigV4 when "
                    "AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY are set");
  bench->add_option("--static-endpoint", bench_command.static_endpoints,
                    "NAME=URL of a static-response HTTP server (the ceiling; point reads only)");
  bench
      ->add_option("--connections", bench_command.connections,
                   "Connections (client threads) per endpoint")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  bench->add_option("--json", bench_command.json, "Write the JSON report here");
  bench->add_option("--static-body", bench_command.static_body,
                    "Write the GetItem response body a static server should return, and exit");

  // What CLI11 would answer with "A subcommand is required": `partstore help [COMMAND]`, an
  // unknown command, an unknown option before the command.
  if (argc >= 2) {
    const std::string first = argv[1];
    std::string commands;
    for (const CLI::App* command : app.get_subcommands([](CLI::App*) { return true; })) {
      commands += (commands.empty() ? "" : ", ") + command->get_name();
    }
    if (first == "help") {
      if (argc >= 3) {
        try {
          std::cout << app.get_subcommand(argv[2])->help();
          return 0;
        } catch (const CLI::OptionNotFound&) {
          std::cerr << "partstore help: unknown command '" << argv[2] << "' (commands: " << commands
                    << ")\n";
          return 2;
        }
      }
      std::cout << app.help();
      return 0;
    }
    if (!first.starts_with("-") &&
        app.get_subcommands([&](CLI::App* c) { return c->get_name() == first; }).empty()) {
      std::cerr << "partstore: unknown command '" << first << "' (commands: " << commands
                << "; partstore --help explains them)\n";
      return 2;
    }
    if (first.starts_with("-") && first != "-h" && first != "--help" && first != "--version") {
      std::cerr << "partstore: unknown option '" << first
                << "' (options go after the command: partstore COMMAND --help lists them)\n";
      return 2;
    }
  }
  // Bad arguments exit with 2 (as the README says), help and --version with 0.
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }

  for (const partstore::cli::CapacityFlags* flags : {&run_capacity, &serve_options.capacity}) {
    if (std::string conflict = flags->Conflict(); !conflict.empty()) {
      app.exit(CLI::ValidationError("--clock", conflict));
      return 2;
    }
    // The Database's own checks (a limit under 1 MiB, a sweep interval out of range, ...).
    if (auto opened = partstore::Database::Open(partstore::cli::DatabaseOptionsFor(*flags));
        !opened.ok()) {
      app.exit(CLI::ValidationError("options", std::string(opened.status().message())));
      return 2;
    }
    if (flags->hash_keys && flags->record.empty()) {
      app.exit(CLI::ValidationError("--hash-keys", "needs --record FILE"));
      return 2;
    }
  }
  // The traces asked for, opened before any work (an unwritable path fails now).
  for (partstore::cli::CapacityFlags* flags : {&run_capacity, &serve_options.capacity}) {
    if (flags->record.empty() || !(flags == &run_capacity ? run->parsed() : serve->parsed())) {
      continue;
    }
    auto trace = partstore::TraceRecorder::Open(flags->record, {.hash_keys = flags->hash_keys});
    if (!trace.ok()) {
      app.exit(CLI::ValidationError("--record", std::string(trace.status().message())));
      return 2;
    }
    flags->trace = std::move(*trace);
  }
  if (*demo) return partstore::cli::RunDemo(demo_command, std::cout, std::cerr);
  if (*simulate) {
    if (!workload.empty()) simulate_command.workloads.push_back(workload);
    if (!compare.empty()) simulate_command.workloads.push_back(compare);
    return partstore::cli::RunSimulate(simulate_command, std::cout, std::cerr);
  }
  if (*run) {
    return partstore::cli::RunFile(run_file, std::cout, std::cerr,
                                   partstore::cli::DatabaseOptionsFor(run_capacity));
  }
  if (*serve) return partstore::cli::RunServe(serve_options, std::cout, std::cerr);
  if (*bench) return partstore::cli::RunBench(bench_command, std::cout, std::cerr);
  if (*export_) return partstore::cli::RunExport(export_command, std::cout, std::cerr);
  if (*import) return partstore::cli::RunImport(import_command, std::cout, std::cerr);
  return 0;
}
