// `partstore serve`: the DynamoDB wire protocol over HTTP on one in-memory Database, until SIGINT
// or SIGTERM. Prints one start-up line on standard output,
//   partstore serve: listening on http://127.0.0.1:8000
// (flushed at once, so scripts and tests can wait for it and read the port when --port 0 picked
// one), then, only when capacity simulation is on (--capacity on, --clock manual), a second one,
//   partstore serve: capacity simulation on (manual clock)
// and a line on standard error when it stops. With --auth sigv4 --access-keys FILE every request
// must be signed with one of the file's keys, for --region (us-east-1 by default) and the service
// "dynamodb" (tools/server/authenticator.h); listening beyond the loopback without it prints a
// warning on standard error. At start-up the soft open-file limit is raised to the hard one; if
// that still holds fewer than 10,000 connections, a warning says so. The first line's format is
// what the client suites parse (tests/clients/): keep it.
//
// With --data-dir DIR the tables outlive the process (partstore/snapshot.h): DIR (created if
// missing) holds partstore.snapshot, loaded before the server listens (a damaged one stops the
// start with the error, and stays as it is), and written again when the server stops, every
// --snapshot-every seconds and on Partstore.CreateSnapshot. With --wal fsync=always|everysec|off
// every change is also logged before it is answered, and replayed at the next start
// (partstore/persistence.h says what each mode can lose); without it, a stop by SIGKILL or a
// crash loses every write since the last snapshot.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <optional>
#include <thread>

#include "partstore/database.h"
#include "tools/cli/commands.h"
#include "tools/live/live_page.h"
#include "tools/server/authenticator.h"
#include "tools/server/server.h"
#include "tools/transfer/transfers.h"

namespace partstore::cli {

namespace {

// Connections the server is expected to hold at once; each is a file descriptor.
constexpr rlim_t kConnections = 10000;
constexpr rlim_t kSpareDescriptors = 64;  // listening socket, epoll, standard streams, files

// Raises the soft limit on open files to the hard one (where the system allows), so that the
// server can hold its connections; says what happens when it cannot hold kConnections.
void RaiseFileLimit(std::ostream& err) {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return;
  if (limit.rlim_cur < limit.rlim_max) {
    rlimit raised = limit;
    raised.rlim_cur = limit.rlim_max == RLIM_INFINITY ? rlim_t{1} << 20 : limit.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &raised) == 0) limit = raised;
  }
  if (limit.rlim_cur < kConnections + kSpareDescriptors) {
    err << "partstore serve: warning: the open-file limit is " << limit.rlim_cur << " (hard limit "
        << limit.rlim_max << "): about "
        << (limit.rlim_cur > kSpareDescriptors ? limit.rlim_cur - kSpareDescriptors : 0)
        << " connections at once; further ones wait in the listen queue until others close "
           "(raise the limit with ulimit -n)\n";
  }
}

// Takes a snapshot every `seconds` until destroyed.
class PeriodicSnapshots {
 public:
  PeriodicSnapshots(Database& db, double seconds, std::ostream& err)
      : thread_([this, &db, seconds, &err] {
          std::unique_lock lock(mu_);
          while (!cv_.wait_for(lock, std::chrono::duration<double>(seconds),
                               [this] { return stop_; })) {
            lock.unlock();
            Result<SnapshotInfo> saved = db.CreateSnapshot({});
            if (!saved.ok())
              err << "partstore serve: snapshot failed: " << saved.status().message() << std::endl;
            lock.lock();
          }
        }) {}
  ~PeriodicSnapshots() {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace

int RunServe(const ServeOptions& options, std::ostream& out, std::ostream& err) {
  server::ServerOptions server_options;
  server_options.host = options.host;
  server_options.port = options.port;
  server_options.threads = options.threads;
  if (options.auth == "sigv4") {
    if (options.access_keys_file.empty()) {
      err << "partstore serve: --auth sigv4 needs --access-keys FILE\n";
      return 2;
    }
    Result<server::AccessKeys> keys = server::AccessKeys::Load(options.access_keys_file);
    if (!keys.ok()) {
      err << "partstore serve: " << keys.status().message() << '\n';
      return 2;
    }
    server_options.access_keys = std::make_shared<const server::AccessKeys>(std::move(*keys));
  } else if (!options.access_keys_file.empty()) {
    err << "partstore serve: --access-keys needs --auth sigv4\n";
    return 2;
  }
  const bool loopback = options.host == "127.0.0.1" || options.host == "::1" ||
                        options.host == "localhost" || options.host.starts_with("127.");
  if (!loopback && !server_options.access_keys) {
    err << "partstore serve: warning: listening on " << options.host
        << " without --auth: anyone who can reach it can read and change every table\n";
  }
  if (!options.upstream.empty()) return RunServeUpstream(options, server_options, out, err);
  if (options.snapshot_every > 0 && options.data_dir.empty()) {
    err << "partstore serve: --snapshot-every needs --data-dir DIR\n";
    return 2;
  }
  RaiseFileLimit(err);
  DatabaseOptions database_options = DatabaseOptionsFor(options.capacity);
  if (!options.region.empty()) {
    // A region name as AWS spells them (us-east-1, eu-west-2): it goes into ARNs.
    const bool valid = std::all_of(options.region.begin(), options.region.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    });
    if (!valid) {
      err << "partstore serve: --region " << options.region
          << ": expected a region name such as us-east-1 (lower-case letters, digits, '-')\n";
      return 2;
    }
    database_options.region = options.region;
  }
  database_options.persistence.data_dir = options.data_dir;
  if (!options.wal.empty()) {
    static const std::pair<std::string_view, WalSync> kModes[] = {
        {"fsync=always", WalSync::kAlways},
        {"fsync=everysec", WalSync::kEverySecond},
        {"fsync=off", WalSync::kOff}};
    for (const auto& [name, mode] : kModes) {
      if (options.wal == name) database_options.persistence.wal = mode;
    }
    if (!database_options.persistence.wal) {
      err << "partstore serve: --wal " << options.wal
          << ": expected fsync=always, fsync=everysec or fsync=off\n";
      return 2;
    }
    if (options.data_dir.empty()) {
      err << "partstore serve: --wal needs --data-dir DIR\n";
      return 2;
    }
  }
  // With a data directory, Open loads its snapshot and replays its log (partstore/persistence.h).
  Result<std::unique_ptr<Database>> opened = Database::Open(database_options);
  if (!opened.ok()) {
    err << "partstore serve: " << (options.data_dir.empty() ? "" : "cannot open the data: ")
        << opened.status().message() << '\n';
    return opened.status().code() == Code::kValidation && options.data_dir.empty() ? 2 : 1;
  }
  Database& db = **opened;
  // A damaged last record of the log, dropped by Open (partstore/persistence.h): said, so that
  // disk damage is seen (and counted in /metrics: partstore_wal_records_dropped_total).
  for (const std::string& drop : db.DescribePersistence().wal_drops) {
    err << "partstore serve: warning: write-ahead log " << drop << std::endl;
  }
  if (!options.data_dir.empty()) {
    const DescribeMemoryResult memory = db.DescribeMemory();
    err << "partstore serve: data in " << options.data_dir << " (" << memory.tables.size()
        << " tables loaded"
        << (options.wal.empty() ? ", no write-ahead log" : ", --wal " + options.wal) << ")"
        << std::endl;
  }
  std::optional<transfer::Transfers> transfers;
  if (!options.s3_dir.empty()) {
    std::error_code error;
    if (!std::filesystem::is_directory(options.s3_dir, error)) {
      err << "partstore serve: --s3-dir " << options.s3_dir << ": not a directory\n";
      return 2;
    }
    server_options.transfers = &transfers.emplace(db, options.s3_dir);
  }
  // The live page (tools/live/live_page.h), behind --auth's keys when there are keys.
  if (options.ui) {
    const live::LivePageOptions page{.access_keys = server_options.access_keys.get(),
                                     .title = "partstore serve"};
    server_options.pages = [&db, page](const server::HttpRequest& request) {
      return live::Answer(db, request, page);
    };
  }
  server::Server server(db, server_options);
  if (Status started = server.Start(); !started.ok()) {
    err << "partstore serve: " << started.message() << '\n';
    return started.code() == Code::kValidation ? 2 : 1;  // a bad --host is a bad argument
  }
  // An IPv6 address is bracketed in a URL (RFC 3986): http://[::1]:8000.
  const bool ipv6 = options.host.find(':') != std::string::npos;
  out << "partstore serve: listening on http://" << (ipv6 ? "[" : "") << options.host
      << (ipv6 ? "]" : "") << ':' << server.port() << std::endl;
  if (const std::string capacity = options.capacity.Describe(); !capacity.empty()) {
    out << "partstore serve: " << capacity << std::endl;
  }
  if (options.ui && options.capacity.enabled()) {
    out << "partstore serve: live partitions at http://" << (ipv6 ? "[" : "") << options.host
        << (ipv6 ? "]" : "") << ':' << server.port() << "/ui" << std::endl;
  }
  {
    std::optional<PeriodicSnapshots> periodic;
    if (options.snapshot_every > 0) periodic.emplace(db, options.snapshot_every, err);
    server.Run();
  }
  if (!options.data_dir.empty()) {
    Result<SnapshotInfo> saved = db.CreateSnapshot({});
    if (!saved.ok()) {
      err << "partstore serve: the shutdown snapshot failed: " << saved.status().message()
          << std::endl;
      return 1;
    }
    err << "partstore serve: saved " << saved->tables << " tables, " << saved->items << " items to "
        << saved->path << std::endl;
  }
  err << "partstore serve: stopped" << std::endl;
  return 0;
}

}  // namespace partstore::cli
