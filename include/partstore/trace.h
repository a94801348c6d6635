// Request traces: what a Database records of each request it serves, for `partstore simulate
// --trace` to replay on the simulated clock (tools/simulator/trace_replay.h).
//
//   auto trace = TraceRecorder::Open("load-test.trace.jsonl");   // or an error naming the file
//   DatabaseOptions options;
//   options.trace = *trace;
//   Database db(options);                  // every request is recorded until db is destroyed
//
// The trace is JSON lines (docs/reference.md, "Request traces"): a header line, then one line per
// table definition (CreateTable, and the tables a recording starts with) and per data-plane
// request that reached a table: its operation, table, index, the key attributes of each item it
// is about (the table's and its GSIs' key attributes, as text, or as hashes with hash_keys), the
// size of each item written, the capacity units consumed, a Query's or Scan's ScannedCount, and
// its time on the Database's clock. Requests refused before they reach a table (validation
// errors, unknown tables) are not recorded; a failed condition is, with its error.
//
// Recorded: PutItem, GetItem, UpdateItem, DeleteItem, Query, Scan, BatchGetItem, BatchWriteItem,
// TransactGetItems, TransactWriteItems, CreateTable, UpdateTable, DeleteTable; PartiQL statements
// as the operations above they are carried out with. Not recorded: the write-sharding extensions
// (Partstore.Sharded*, partstore/sharding_requests.h), whose physical requests go to the tables
// directly.
//
// Thread safety: a TraceRecorder is safe for concurrent use (one mutex around its buffer and its
// table definitions); many Databases may share one. The mutex is a leaf: a Database records a
// request after it returns (no table or stripe lock held), and a table definition under its
// control lock only (shard/database_state.h).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <string_view>

#include "partstore/status.h"

namespace partstore {

struct TableDescription;

namespace internal {
struct TraceEvent;  // shard/trace_event.h
}

struct TraceOptions {
  // Each key value is written as "#" and 16 hex digits of its XXH3-64 hash instead of its text:
  // the trace shows which requests share a key (what partitioning needs), not the keys.
  bool hash_keys = false;
};

class TraceRecorder {
 public:
  // A recorder writing to `path` (created or truncated; the header line is written at once), or
  // a ValidationException naming the path when it cannot be written.
  static Result<std::shared_ptr<TraceRecorder>> Open(const std::string& path,
                                                     TraceOptions options = {});
  // A recorder writing to `out`, which must outlive it (tests, in-memory traces).
  TraceRecorder(std::ostream& out, TraceOptions options);
  // Flushes.
  ~TraceRecorder();
  TraceRecorder(const TraceRecorder&) = delete;
  TraceRecorder& operator=(const TraceRecorder&) = delete;

  // Writes the buffered lines (the recorder writes them in blocks of 64 KiB, and when destroyed).
  // An error when the file cannot be written.
  Status Flush();
  // Lines recorded so far, the header included.
  int64_t lines() const;

  // ---- Used by the Database ----
  // A table's definition, at `micros` on the Database's clock ("CreateTable" when it is created,
  // "UpdateTable" when it changes, "DeleteTable" when it goes).
  void RecordTable(std::string_view op, const TableDescription& table, int64_t micros);
  // Whether RecordTable has described `table` (the Database describes a table before its first
  // request when not: one restored, imported or loaded from a snapshot).
  bool Knows(std::string_view table) const;
  // One request.
  void Record(const internal::TraceEvent& event, int64_t micros);

 private:
  struct Tables;  // the key attributes of each table and index, from their descriptions
  void Append(std::string_view line);  // REQUIRES: mu_ held

  mutable std::mutex mu_;
  std::unique_ptr<std::ostream> owned_;  // Open's file
  std::ostream* out_;
  TraceOptions options_;
  std::string buffer_;
  int64_t lines_ = 0;
  std::unique_ptr<Tables> tables_;
};

}  // namespace partstore
