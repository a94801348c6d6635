// The `partstore` program's subcommands. Each lives in its own file and returns the process exit
// code; main.cc only parses arguments and dispatches.
#pragma once

#include <cstdint>
#include <istream>
#include <ostream>
#include <string>
#include <vector>

#include "partstore/database.h"

namespace partstore::server {
struct ServerOptions;
}  // namespace partstore::server

namespace partstore::cli {

// `--capacity on|off` and `--clock system|manual`, taken by `run` and `serve`
// (capacity_flags.cc). Default: capacity off, system clock; `--clock manual` turns capacity on
// (with a ManualClock at 0, moved by Partstore.AdvanceClock) unless `--capacity off` says
// otherwise, which is a usage error.
struct CapacityFlags {
  std::string capacity;  // "on", "off", or empty: not given (off unless the clock is manual)
  std::string clock = "system";
  // The store: a memory limit (bytes; 0: none) and its policy (partstore/memory.h), and TTL's
  // expiry mode, sweep interval and delay (partstore/time_to_live.h).
  uint64_t memory_limit = 0;
  std::string memory_policy = "reject";  // reject, evict, evict-ttl-first
  std::string expiry_mode = "dynamodb";  // dynamodb, cache
  double ttl_sweep_seconds = 1.0;
  double ttl_delay_seconds = 0;

  // --record FILE: every request is written to this trace (partstore/trace.h); --hash-keys: as
  // hashes. `trace` is the recorder main opens for it.
  std::string record;
  bool hash_keys = false;
  std::shared_ptr<TraceRecorder> trace;
  bool enabled() const;
  bool manual_clock() const;
  // Why the flags contradict each other, or empty.
  std::string Conflict() const;
  // "capacity simulation on (manual clock)", or empty when off.
  std::string Describe() const;
};
DatabaseOptions DatabaseOptionsFor(const CapacityFlags& flags);

// `partstore simulate WORKLOAD [--compare WORKLOAD]` (simulate.cc): runs workload files or
// built-in scenarios on the simulated clock and prints the text report; --json / --html write
// the other reports. `partstore demo`: the viral-product scenario unsharded vs sharded, with the
// HTML report written to partstore-demo.html unless --html says elsewhere.
struct SimulateCommand {
  std::vector<std::string> workloads;  // one, or two with --compare
  std::string json;                    // paths; empty: not written
  std::string html;
  bool quiet = false;  // no progress bar, no wall-clock line
  bool list = false;   // list the built-in scenarios
  std::string prices;  // a price file (tools/simulator/pricing.h); empty: the built-in prices
  bool print_prices = false;  // print the price table in effect, as a price file
  bool advise = false;        // run the what-ifs (tools/simulator/advise.h) and report them
  std::string trace;          // replay this request trace (tools/simulator/trace_replay.h)
  std::string speed = "1x";   // --speed: the replay's pace, as a factor of the recorded one
  std::string tables;         // --tables: a workload file whose tables the replay uses
  // --live: serve the live page (tools/live/live_page.h) on 127.0.0.1:live_port while the run
  // goes at --speed simulated seconds a second (with --trace: the replay's pace, in real time),
  // and after it until Ctrl-C.
  bool live = false;
  uint16_t live_port = 8000;
};
int RunSimulate(const SimulateCommand& command, std::ostream& out, std::ostream& err);
int RunDemo(const SimulateCommand& command, std::ostream& out, std::ostream& err);

// `partstore run [FILE]`: one DynamoDB JSON request per line in, one response per line out
// (run.cc has the format), on a Database made with `options`. `path` empty or "-" reads standard
// input.
int RunScript(std::istream& in, std::ostream& out, const DatabaseOptions& options = {});
int RunFile(const std::string& path, std::ostream& out, std::ostream& err,
            const DatabaseOptions& options = {});

// `partstore serve`: DynamoDB's wire protocol over HTTP (serve.cc; tools/server/server.h).
struct ServeOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 8000;
  int threads = 0;            // 0: server::DefaultServerThreads (one per core but one)
  std::string auth = "none";  // none, or sigv4 (with access_keys_file)
  std::string access_keys_file;
  std::string region;  // empty: DatabaseOptions' (us-east-1)
  CapacityFlags capacity;
  // Persistence: DIR/partstore.snapshot loaded at start, written on SIGINT / SIGTERM, every
  // snapshot_every seconds (0: never) and on Partstore.CreateSnapshot.
  std::string data_dir;
  double snapshot_every = 0;
  std::string wal;  // "fsync=always", "fsync=everysec", "fsync=off", or empty: no log
  // Exports and imports: the directory S3 buckets are subdirectories of (empty: refused).
  std::string s3_dir;
  // --upstream URL: serve a cache (partstore/cached_store.h) in front of that DynamoDB endpoint
  // instead of an engine (serve_upstream.cc), reached with the AWS chain's credentials (region
  // and profile as given, else the chain's). capacity.memory_limit (--memory-limit) is the
  // cache's; 0: 256 MiB.
  std::string upstream;
  std::string upstream_region;
  std::string upstream_profile;
  double cache_item_ttl = 300;
  double cache_negative_ttl = 300;
  double cache_query_ttl = 300;
  double stream_poll_seconds = 0.25;  // 0: do not follow streams
  bool ui = true;                     // the live page at /ui (--ui off: none)
};
int RunServe(const ServeOptions& options, std::ostream& out, std::ostream& err);
// RunServe with --upstream. `server_options` has the listening and --auth settings.
int RunServeUpstream(const ServeOptions& options, const server::ServerOptions& server_options,
                     std::ostream& out, std::ostream& err);

// `partstore export` and `partstore import` (transfer.cc; tools/transfer/): one table of a data
// directory (partstore serve --data-dir) written as a DynamoDB export, and an export, a CSV or
// DynamoDB JSON file or a directory of them loaded into a new table of a data directory.
struct ExportCommand {
  std::string data_dir;
  std::string table;
  std::string to;  // the directory the export's AWSDynamoDB/<ExportId>/ goes in
};
int RunExport(const ExportCommand& command, std::ostream& out, std::ostream& err);

struct ImportCommand {
  std::string source;  // an export's directory, a directory of objects, or one file
  std::string data_dir;
  std::string table;
  std::vector<std::string> keys;     // NAME:TYPE, the partition key then the sort key
  std::string format = "auto";       // auto (by extension), dynamodb_json, csv
  std::string compression = "auto";  // auto (.gz: gzip), gzip, none
  std::string delimiter = ",";
};
int RunImport(const ImportCommand& command, std::ostream& out, std::ostream& err);

// `partstore bench` (bench.cc; tools/bench/): YCSB A-F and the seeds' access patterns on the
// engine in-process, a bare concurrent hash map, Redis and DynamoDB endpoints over HTTP.
struct BenchCommand {
  std::vector<std::string> workloads = {"all"};  // names, or ycsb, seed, all
  std::vector<std::string> distributions = {"zipfian", "uniform"};
  std::vector<int> threads = {1, 2};  // in-process and Redis client threads
  double seconds = 2.0;
  double warmup = 0.5;
  int rounds = 1;  // the matrix this many times; each cell reports its median round
  int64_t records = 100'000;
  int64_t users = 2'000;
  uint64_t seed = 42;
  bool engine = true;
  bool bare_map = true;
  std::string redis;                          // HOST:PORT, or empty
  std::vector<std::string> endpoints;         // NAME=URL; the first is the subject (partstore)
  std::vector<std::string> static_endpoints;  // NAME=URL of static-response servers
  int connections = 16;                       // client threads per endpoint
  std::string json;
  std::string static_body;  // write the static server's body here and exit
};
int RunBench(const BenchCommand& command, std::ostream& out, std::ostream& err);

}  // namespace partstore::cli
