// ServerMetrics: what `partstore serve` exposes at GET /metrics, in Prometheus' text format
// (version 0.0.4), the metrics people scrape from a local service:
//
//   partstore_requests_total{operation}                 requests answered, by operation
//   partstore_errors_total{operation,error}             of those, errors, by DynamoDB exception
//   partstore_request_duration_seconds{operation}       histogram of the time to answer
//   partstore_connections                               connections open now
//   partstore_connections_accepted_total                connections accepted since start
//   partstore_table_items{table}, partstore_table_bytes{table}   each table's items and size
//   partstore_expired_items_total{table}                items deleted by Time to Live
//   partstore_table_throttled_requests_total{table,operation="read|write"}   throttled requests of
//       the table and its GSIs' partitions (only with capacity simulation on)
//   partstore_memory_used_bytes, partstore_memory_limit_bytes, partstore_memory_rejected_writes_
//       total, partstore_table_memory_bytes{table}, partstore_evicted_items_total{table}   memory
//   partstore_wal_records_dropped_total   damaged last records of the write-ahead log that opening
//       the data directory dropped (each also printed on standard error by `partstore serve`)
//
// A request's operation is the one its X-Amz-Target names ("GetItem", "Partstore.AdvanceClock");
// requests without a known one count as operation "". The health check and /metrics itself are
// not counted.
//
// Thread safety: Record and the connection counters may be called from any thread concurrently
// (atomic counters; an operation's first request takes a lock once). Render too.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>

#include "partstore/database.h"

namespace partstore::server {

class ServerMetrics {
 public:
  // Upper bounds (seconds) of the duration histogram's buckets; +Inf follows.
  static constexpr std::array<double, 12> kBuckets = {
      0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 1.0};

  // One answered request: its operation, the exception's name when it failed ("" when not), and
  // how long it took.
  void Record(std::string_view operation, std::string_view error,
              std::chrono::nanoseconds duration);
  void ConnectionOpened() {
    connections_.fetch_add(1, std::memory_order_relaxed);
    accepted_.fetch_add(1, std::memory_order_relaxed);
  }
  void ConnectionClosed() { connections_.fetch_sub(1, std::memory_order_relaxed); }

  // The exposition text, with the tables of `db` read now (none without an engine: `serve
  // --upstream`), then what `extra` adds (the cache's counters with --upstream).
  std::string Render(Database* db) const;
  void SetExtra(std::function<std::string()> extra) { extra_ = std::move(extra); }

 private:
  std::function<std::string()> extra_;  // set before serving
  struct Operation {
    std::atomic<uint64_t> requests{0};
    std::atomic<uint64_t> nanoseconds{0};
    std::array<std::atomic<uint64_t>, kBuckets.size()> buckets{};  // non-cumulative counts
    std::mutex errors_mu;
    std::map<std::string, uint64_t, std::less<>> errors;  // guarded by errors_mu
  };
  Operation& Find(std::string_view operation);

  mutable std::shared_mutex mu_;  // guards operations_ (the map; entries are never removed)
  std::map<std::string, std::unique_ptr<Operation>, std::less<>> operations_;
  std::atomic<int64_t> connections_{0};
  std::atomic<uint64_t> accepted_{0};
};

}  // namespace partstore::server
