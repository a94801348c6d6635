// ServerMetrics: see server_metrics.h.
#include "tools/server/server_metrics.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "shard/database_state.h"

namespace partstore::server {

namespace {

// A label value with Prometheus' escapes (backslash, double quote, newline).
std::string Label(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\' || c == '"') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

ServerMetrics::Operation& ServerMetrics::Find(std::string_view operation) {
  {
    std::shared_lock lock(mu_);
    if (auto it = operations_.find(operation); it != operations_.end()) return *it->second;
  }
  std::unique_lock lock(mu_);
  auto [it, inserted] = operations_.try_emplace(std::string(operation));
  if (inserted) it->second = std::make_unique<Operation>();
  return *it->second;
}

void ServerMetrics::Record(std::string_view operation, std::string_view error,
                           std::chrono::nanoseconds duration) {
  Operation& op = Find(operation);
  op.requests.fetch_add(1, std::memory_order_relaxed);
  op.nanoseconds.fetch_add(static_cast<uint64_t>(std::max<int64_t>(0, duration.count())),
                           std::memory_order_relaxed);
  const double seconds = std::chrono::duration<double>(duration).count();
  for (size_t i = 0; i < kBuckets.size(); ++i) {
    if (seconds <= kBuckets[i]) {
      op.buckets[i].fetch_add(1, std::memory_order_relaxed);
      break;
    }
  }
  if (!error.empty()) {
    std::lock_guard lock(op.errors_mu);
    auto it = op.errors.find(error);
    if (it == op.errors.end()) it = op.errors.emplace(std::string(error), 0).first;
    ++it->second;
  }
}

std::string ServerMetrics::Render(Database* engine) const {
  std::string out;
  auto line = [&out](std::string_view text) {
    out += text;
    out += '\n';
  };
  line("# HELP partstore_requests_total Requests answered, by operation.");
  line("# TYPE partstore_requests_total counter");
  std::string errors =
      "# HELP partstore_errors_total Requests answered with an error, by operation and "
      "exception.\n# TYPE partstore_errors_total counter\n";
  std::string durations =
      "# HELP partstore_request_duration_seconds Time to answer a request, by operation.\n"
      "# TYPE partstore_request_duration_seconds histogram\n";
  {
    std::shared_lock lock(mu_);
    for (const auto& [name, op] : operations_) {
      const std::string label = Label(name);
      const uint64_t requests = op->requests.load(std::memory_order_relaxed);
      out += fmt::format("partstore_requests_total{{operation=\"{}\"}} {}\n", label, requests);
      {
        std::lock_guard errors_lock(op->errors_mu);
        for (const auto& [error, count] : op->errors) {
          errors += fmt::format("partstore_errors_total{{operation=\"{}\",error=\"{}\"}} {}\n",
                                label, Label(error), count);
        }
      }
      uint64_t cumulative = 0;
      for (size_t i = 0; i < kBuckets.size(); ++i) {
        cumulative += op->buckets[i].load(std::memory_order_relaxed);
        durations += fmt::format(
            "partstore_request_duration_seconds_bucket{{operation=\"{}\",le=\"{}\"}} {}\n", label,
            kBuckets[i], cumulative);
      }
      durations += fmt::format(
          "partstore_request_duration_seconds_bucket{{operation=\"{}\",le=\"+Inf\"}} {}\n", label,
          requests);
      durations += fmt::format("partstore_request_duration_seconds_sum{{operation=\"{}\"}} {}\n",
                               label, op->nanoseconds.load(std::memory_order_relaxed) / 1e9);
      durations += fmt::format("partstore_request_duration_seconds_count{{operation=\"{}\"}} {}\n",
                               label, requests);
    }
  }
  out += errors;
  out += durations;
  line("# HELP partstore_connections Connections open now.");
  line("# TYPE partstore_connections gauge");
  out += fmt::format("partstore_connections {}\n", connections_.load(std::memory_order_relaxed));
  line("# HELP partstore_connections_accepted_total Connections accepted since the start.");
  line("# TYPE partstore_connections_accepted_total counter");
  out += fmt::format("partstore_connections_accepted_total {}\n",
                     accepted_.load(std::memory_order_relaxed));

  if (extra_) out += extra_();
  if (engine == nullptr) return out;
  Database& db = *engine;
  // The tables, as DescribeTable (and, with capacity on, DescribePartitions) report them now.
  std::vector<std::string> tables;
  ListTablesRequest list;
  while (true) {
    Result<ListTablesResult> page = db.ListTables(list);
    if (!page.ok()) break;
    tables.insert(tables.end(), page->table_names.begin(), page->table_names.end());
    if (!page->last_evaluated_table_name) break;
    list.exclusive_start_table_name = page->last_evaluated_table_name;
  }
  std::string items =
      "# HELP partstore_table_items Items in the table.\n# TYPE partstore_table_items gauge\n";
  std::string bytes =
      "# HELP partstore_table_bytes The table's size in DynamoDB's item-size bytes.\n"
      "# TYPE partstore_table_bytes gauge\n";
  std::string throttled =
      "# HELP partstore_table_throttled_requests_total Throttled requests on the table's and its "
      "GSIs' partitions (capacity simulation).\n"
      "# TYPE partstore_table_throttled_requests_total counter\n";
  std::string expired =
      "# HELP partstore_expired_items_total Items deleted by Time to Live.\n"
      "# TYPE partstore_expired_items_total counter\n";
  const bool capacity = db.options().capacity.enabled;
  for (const std::string& table : tables) {
    Result<DescribeTableResult> described = db.DescribeTable({.table_name = table});
    if (!described.ok()) continue;  // deleted since the listing
    const std::string label = Label(table);
    items += fmt::format("partstore_table_items{{table=\"{}\"}} {}\n", label,
                         described->table.item_count);
    bytes += fmt::format("partstore_table_bytes{{table=\"{}\"}} {}\n", label,
                         described->table.table_size_bytes);
    if (Result<std::shared_ptr<Table>> t = internal::GetTable(db, table); t.ok()) {
      expired += fmt::format("partstore_expired_items_total{{table=\"{}\"}} {}\n", label,
                             (*t)->expired_items());
    }
    if (!capacity) continue;
    int64_t reads = 0;
    int64_t writes = 0;
    std::vector<std::optional<std::string>> resources = {std::nullopt};
    for (const auto& gsi : described->table.global_secondary_indexes) {
      resources.push_back(gsi.index_name);
    }
    for (const auto& index : resources) {
      Result<DescribePartitionsResult> partitions =
          db.DescribePartitions({.table_name = table, .index_name = index});
      if (!partitions.ok()) continue;
      for (const PartitionDescription& p : partitions->partitions) {
        reads += p.throttled_read_requests;
        writes += p.throttled_write_requests;
      }
    }
    throttled += fmt::format(
        "partstore_table_throttled_requests_total{{table=\"{}\",operation=\"read\"}} {}\n", label,
        reads);
    throttled += fmt::format(
        "partstore_table_throttled_requests_total{{table=\"{}\",operation=\"write\"}} {}\n", label,
        writes);
  }
  out += items;
  out += bytes;
  out += expired;
  if (capacity) out += throttled;
  // Memory (partstore/memory.h): the store's count, its limit, and per table its bytes and
  // evictions.
  const DescribeMemoryResult memory = db.DescribeMemory();
  out += fmt::format(
      "# HELP partstore_memory_used_bytes What the store holds: items, keys, indexes.\n"
      "# TYPE partstore_memory_used_bytes gauge\npartstore_memory_used_bytes {}\n"
      "# HELP partstore_memory_limit_bytes The memory limit (0: none).\n"
      "# TYPE partstore_memory_limit_bytes gauge\npartstore_memory_limit_bytes {}\n"
      "# HELP partstore_memory_rejected_writes_total Writes refused at the memory limit.\n"
      "# TYPE partstore_memory_rejected_writes_total counter\n"
      "partstore_memory_rejected_writes_total {}\n",
      memory.used_bytes, memory.limit_bytes, memory.rejected_writes);
  std::string table_memory =
      "# HELP partstore_table_memory_bytes What the store holds for the table and its indexes.\n"
      "# TYPE partstore_table_memory_bytes gauge\n";
  std::string evicted =
      "# HELP partstore_evicted_items_total Items evicted at the memory limit.\n"
      "# TYPE partstore_evicted_items_total counter\n";
  for (const TableMemory& t : memory.tables) {
    const std::string label = Label(t.table_name);
    table_memory +=
        fmt::format("partstore_table_memory_bytes{{table=\"{}\"}} {}\n", label, t.bytes);
    evicted +=
        fmt::format("partstore_evicted_items_total{{table=\"{}\"}} {}\n", label, t.evicted_items);
  }
  out += table_memory;
  out += evicted;
  // Persistence (partstore/persistence.h): damage at the end of the write-ahead log, which Open
  // drops (and `serve` prints on standard error), made visible to alerts.
  out += fmt::format(
      "# HELP partstore_wal_records_dropped_total Damaged last records of the write-ahead log "
      "dropped when the data directory was opened.\n"
      "# TYPE partstore_wal_records_dropped_total counter\n"
      "partstore_wal_records_dropped_total {}\n",
      db.DescribePersistence().wal_records_dropped);
  return out;
}

}  // namespace partstore::server
