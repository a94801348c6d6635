// DatabaseState: what a partstore::Database holds (partstore/database.h keeps it behind a
// pointer, so that the public header names no engine type), and the engine-level access the
// project's own tools and tests use: a table's insides (internal::GetTable) and the shared
// expression cache. Not installed; not for users.
//
// Lock order (the whole engine's: shard/table.h): mu (the catalogue) is held only to find, add
// or remove a table, never with a table's locks; lookup_'s slot mutexes are leaves (a lookup
// that misses takes mu with none held);
// sharding_mu serializes read-modify-writes of a table's PolicySet (the table's policy lock is a
// leaf under it); insights_mu, tokens_mu and sweeper_mu are leaves (a transaction marks its token
// logged under its stripe locks; a snapshot reads the tokens under every base stripe), never held
// while a transaction waits (the sweeper thread holds none while it sweeps). snapshot_mu serializes
// snapshots: taken first, then mu (shared) and every base stripe (shared). An eviction takes the
// budget's evictor_mu, then evict_mu, then mu (shared) and stripes; a writer starts one only with
// no lock held. The trace recorder's mutex (partstore/trace.h) is a leaf: requests are recorded
// after they return, with no lock held; table definitions under control_mu (shared) alone
// (CreateTable, UpdateTable, DeleteTable).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "core/expr/cache.h"
#include "partstore/database.h"
#include "shard/persist/write_ahead_log.h"
#include "shard/table.h"
#include "shard/table_lookup.h"

namespace partstore {
// ResourceNotFoundException for a table name no table holds (shard/database.cc).
Status TableNotFound(std::string_view name);
// TransactionCanceledException with its reasons (one per action, in order) and DynamoDB's message
// listing their codes (shard/transaction.cc); users read the reasons from the Status's
// ErrorDetail.
Status TransactionCanceledError(std::vector<CancellationReason> reasons);
}  // namespace partstore

namespace partstore::internal {

struct DatabaseState {
  explicit DatabaseState(DatabaseOptions options);

  static DatabaseState& Of(Database& db) { return *db.state_; }
  // The request trace (partstore/trace.h), or null. shard/database_trace.h.
  TraceRecorder* trace() const { return options_.trace.get(); }
  static const DatabaseState& Of(const Database& db) { return *db.state_; }

  // The table named `name`, or ResourceNotFoundException. The pointer keeps the table alive
  // after a DeleteTable; operations through it then still work on the orphaned table.
  Result<std::shared_ptr<Table>> GetTable(std::string_view name) const;

  // TransactWriteItems with an ItemRewriter per action (null, or write sharding's for an Update);
  // the ClientRequestToken compares `logical` (the request as the client sent it; null: the same
  // as `request`). shard/transaction.cc.
  Result<TransactWriteItemsResult> RunTransaction(const TransactWriteItemsRequest& request,
                                                  const std::vector<const ItemRewriter*>& rewriters,
                                                  const TransactWriteItemsRequest* logical);
  // Tags (shard/database_tags.cc): the table an ARN names for `operation` (DynamoDB's
  // ValidationExceptions for a malformed one or another region's, AccessDeniedException for
  // another account's, ResourceNotFoundException for an unknown table), and a table's tags replaced
  // and logged. tags_mu_ serializes the read-modify-write of TagResource / UntagResource; it is
  // taken after control_mu_ and before a table's description_mu_.
  Result<std::shared_ptr<Table>> TableOfArn(std::string_view arn, std::string_view operation);
  void SetTags(Table& table, std::vector<Tag> tags);
  std::mutex tags_mu_;

  // Removes the sharding policies of a deleted GSI. shard/database_sharding.cc.
  void DropShardingPolicies(Table& table, std::string_view index);

  // Time to Live (shard/database_time_to_live.cc). Now in Unix seconds on the database clock.
  double EpochSeconds() const {
    return epoch_at_clock_zero_ + options_.capacity.clock->NowMicros() / 1e6;
  }
  // One sweep of every table (Database::DeleteExpiredItems).
  int64_t DeleteExpiredItems();
  // Starts the background sweeper if the options call for one and it is not running.
  void StartSweeper();
  // Stops and joins it (the destructor).
  void StopSweeper();
  ~DatabaseState() {
    StopSweeper();
    memory_->set_evictor(nullptr);  // (waits for an eviction in progress)
  }

  DatabaseOptions options_;
  // Persistence (shard/database_persistence.cc): the write-ahead log (null: none; declared before
  // the tables, which point at it, so that it outlives them), each table's number in it, and
  // control_mu_: control-plane changes hold it shared from their change to their log record, a
  // snapshot exclusively from reading the tables' settings to its point in time, so that every
  // change is in the snapshot or after its point in the log. Taken before everything else.
  std::unique_ptr<persist::WriteAheadLog> wal_;
  std::atomic<uint64_t> next_table_number_{1};
  std::shared_mutex control_mu_;
  PersistenceStats persistence_stats_;  // written by OpenDataDirectory only
  // Open's part: loads the data directory's snapshot, replays the log after it, starts the log
  // (persistence.wal) and takes a snapshot that truncates the replayed log.
  Status OpenDataDirectory(Database& db);
  // Snapshots (shard/database_snapshot.cc): SaveSnapshot with `truncate_log` (CreateSnapshot)
  // starts a new log segment at the snapshot's point in time and deletes the older ones once the
  // snapshot is in place; LoadSnapshot reports the segment to replay from and the tables by their
  // log numbers.
  struct LoadedSnapshot {
    uint64_t log_generation = 0;
    std::map<uint64_t, std::shared_ptr<Table>> tables;
  };
  Result<SnapshotInfo> SaveSnapshot(const std::string& path, bool truncate_log);
  Result<SnapshotInfo> LoadSnapshot(Database& db, const std::string& path, LoadedSnapshot* loaded);
  std::string SnapshotPath() const { return options_.persistence.data_dir + "/partstore.snapshot"; }
  // Appends a control-plane record (nothing without a log); Durable waits for it.
  void LogControl(persist::WalRecord kind, uint64_t table, std::string_view body);
  Status Durable() const {
    return wal_ ? wal_->Sync(persist::WriteAheadLog::last_position()) : Status::Ok();
  }
  std::shared_ptr<expr::ExpressionCache> cache_;  // shared with the tables
  mutable std::shared_mutex mu_;                  // guards tables_
  std::map<std::string, std::shared_ptr<Table>, std::less<>> tables_;
  // GetTable's lookups (shard/table_lookup.h). A table erased from tables_ is forgotten here
  // (ForgetTable) before its removal returns. Declared after tables_: destroyed first, it holds
  // no table beyond the state's life.
  mutable TableLookup lookup_{[this](std::string_view name) -> std::shared_ptr<Table> {
    std::shared_lock lock(mu_);
    auto it = tables_.find(name);
    return it == tables_.end() ? nullptr : it->second;
  }};
  void ForgetTable(std::string_view name) const { lookup_.Forget(name); }
  // When Contributor Insights last changed per "table" or "table/index"
  // (DescribeContributorInsights' LastUpdateDateTime, seconds since the epoch).
  std::mutex insights_mu_;  // guards insights_updated_
  std::map<std::string, double, std::less<>> insights_updated_;
  std::mutex sharding_mu_;
  // ClientRequestTokens of TransactWriteItems seen in the last 10 minutes.
  struct TokenRecord {
    uint64_t fingerprint = 0;  // of the request's parameters
    bool in_flight = true;
    bool logged = false;          // in the write-ahead log with the transaction's changes
    int64_t finished_micros = 0;  // on the database clock
    TransactWriteItemsResult result{};
  };
  // An answer that may show a change (a read; a write refused by what it found) goes out only
  // once what it may have seen is as durable as an acknowledged write: the log written out (and,
  // with fsync=always, fsynced) up to its end. Otherwise a client could be shown a change that a
  // crash then takes back (tests/consistency found one: an append read, then gone after a kill).
  // Without a log, or with nothing pending, it costs one atomic load.
  Status ShownDurable() {
    if (!wal_) return Status::Ok();
    const uint64_t end = wal_->appended();
    return wal_->durable_through(end) ? Status::Ok() : wal_->Sync(end);
  }
  template <typename T>
  Result<T> Shown(Result<T> answer) {
    if (Status durable = ShownDurable(); !durable.ok()) return durable;
    return answer;
  }
  template <typename T>
  Result<T> ShownIfRefused(Result<T> answer) {
    return answer.ok() ? std::move(answer) : Shown(std::move(answer));
  }
  // A token read back from the write-ahead log (its transaction's result is not kept: a repeat
  // is answered with an empty one).
  void RestoreToken(const persist::LoggedToken& token);
  // The tokens a new log segment must carry: finished, or logged with their transaction.
  std::vector<persist::LoggedToken> LiveTokens();
  std::mutex tokens_mu_;  // guards tokens_ and token_expiry_
  std::map<std::string, TokenRecord, std::less<>> tokens_;
  // (finished, token), in order
  std::deque<std::pair<int64_t, std::string>> token_expiry_;
  // TTL: Unix seconds at the clock's zero; the background sweeper (started by the first enable on
  // the system clock) and what wakes it. sweeper_mu_ is a leaf, held only to start, stop or wait.
  double epoch_at_clock_zero_ = 0;
  std::mutex sweeper_mu_;  // guards sweeper_ and sweeper_stop_
  std::condition_variable sweeper_cv_;
  std::thread sweeper_;
  bool sweeper_stop_ = false;
  // Memory (partstore/memory.h; shard/database_memory.cc): the budget every table reports to,
  // and the evictor (kEvict). Evict runs in the writer that left the store over the limit, after
  // its locks are released; evict_mu_ serializes evictors (writers over the limit wait for the
  // one at work) and is taken before mu_ (shared, to list the tables) and the stripes an eviction
  // locks, one at a time.
  std::shared_ptr<MemoryBudget> memory_;
  void Evict();
  // Every stream (shard/stream.h; ListStreams, DescribeStream, the iterators).
  std::shared_ptr<StreamRegistry> streams_ = std::make_shared<StreamRegistry>();
  std::mutex snapshot_mu_;  // one SaveSnapshot at a time (the last one taken is the last written)
  // On-demand backups (partstore/backups.h; shard/database_backups.cc), oldest first; a backup is
  // immutable once listed (DeleteBackup removes it). backups_mu_ is a leaf. With a data directory
  // each is also in DIR/backups/ (BackupPath), read back by LoadBackups when the database opens.
  struct Backup {
    BackupDescription description;
    CreateTableRequest table;  // what a restore creates (name and overrides aside)
    std::vector<StoredItem> items;
  };
  std::mutex backups_mu_;
  std::vector<std::shared_ptr<const Backup>> backups_;
  std::string BackupPath(std::string_view backup_arn) const;
  Status LoadBackups();
  std::mutex evict_mu_;  // guards eviction_pool_ and eviction_rng_
  std::vector<Table::EvictionCandidate> eviction_pool_;
  uint64_t eviction_rng_ = 0x9e3779b97f4a7c15;
};

// The table named `name` with the engine's insides (stripes, partitions, policies): for the
// project's tools and tests.
inline Result<std::shared_ptr<Table>> GetTable(const Database& db, std::string_view name) {
  return DatabaseState::Of(db).GetTable(name);
}

// The expression cache the database's tables share.
inline expr::ExpressionCache& ExpressionCache(Database& db) {
  return *DatabaseState::Of(db).cache_;
}

}  // namespace partstore::internal
