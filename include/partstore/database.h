// partstore::Database: an in-memory store with DynamoDB's data model, API and errors (and,
// optionally, its capacity behaviour). The whole public API is in include/partstore/; this is
// the handle. It is the in-process home of partstore::Store (partstore/store.h): code written
// against a Store& runs unchanged on it and on a RemoteStore (partstore/remote_store.h); the
// Partstore extensions below (snapshots, capacity simulation, write sharding, memory) are the
// engine's own.
//
//   #include <partstore/database.h>
//
//   auto db = partstore::Database::Open({});          // or: partstore::Database db;
//   if (!db.ok()) { /* db.status(): a ValidationException naming the bad option */ }
//   auto created = (*db)->CreateTable(partstore::SimpleTable("Orders", key_schema));
//   auto put = (*db)->PutItem({.table_name = "Orders", .item = item,
//                              .condition_expression = "attribute_not_exists(PK)"});
//   if (!put.ok()) { /* put.status().code(), put.status().message(): DynamoDB's */ }
//
// Contract shared by every operation (each method's comment adds its own):
//   - Requests and results are plain structs named after DynamoDB's (member for member, in
//     snake_case: *_requests.h). Requests are read, never kept: the caller owns them, and may
//     reuse or destroy them as soon as the call returns. Results are the caller's.
//   - Errors are values: a Result<T> holds T or a Status with DynamoDB's exception (Code) and
//     message text. A single-item operation checks in DynamoDB's order: the request's own rules
//     (ValidationException), then the table (ResourceNotFoundException), then what needs the
//     table (the key against its schema, the key condition, the condition:
//     ConditionalCheckFailedException with the old item as ErrorDetail when asked for); batches
//     check table by table. A failed single-item operation, transaction, control-plane or
//     policy operation writes nothing. Operations of many writes are atomic per item only: a
//     BatchWriteItem error other than throttling, and an error of ShardedDeleteItem (one delete
//     per shard) or ShardedBatchWriteItem, can follow writes already made. "Not found" for an
//     item is not an error: GetItem's item is absent, Query's items are empty.
//   - Thread safety: a Database is safe for concurrent use from any number of threads without
//     outside locking. Single-item operations are linearizable; a transaction is serializable
//     against single-item operations and other transactions (Scan pages and batches read
//     committed items and may see part of one); a Query or Scan page sees one consistent state
//     of each item collection (an LSI Query that fetches attributes outside the index reads the
//     base items after the index: each is consistent on its own).
//   - Capacity: with DatabaseOptions::capacity.enabled, operations are charged to their
//     table's simulated partitions and may fail with DynamoDB's throttling errors
//     (ProvisionedThroughputExceededException, ThrottlingException); a failed condition and the
//     actions before a throttled transaction's still consume capacity, as in DynamoDB. Off by
//     default, it costs nothing.
//   - Tables: CreateTable makes the table usable at once (its response reports CREATING, as
//     DynamoDB's always does; DescribeTable then reports ACTIVE). DeleteTable and UpdateTable
//     apply at once (responses report DELETING / UPDATING). Operations already running on a
//     deleted table finish on it; later ones get ResourceNotFoundException.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "partstore/backups.h"
#include "partstore/batch_requests.h"
#include "partstore/capacity_options.h"
#include "partstore/capacity_requests.h"
#include "partstore/continuous_backups.h"
#include "partstore/item_range.h"
#include "partstore/item_requests.h"
#include "partstore/memory.h"
#include "partstore/partiql_requests.h"
#include "partstore/persistence.h"
#include "partstore/read_requests.h"
#include "partstore/sharding_requests.h"
#include "partstore/snapshot.h"
#include "partstore/status.h"
#include "partstore/store.h"
#include "partstore/streams.h"
#include "partstore/table_image.h"
#include "partstore/table_requests.h"
#include "partstore/tags.h"
#include "partstore/time_to_live.h"
#include "partstore/trace.h"
#include "partstore/transaction_requests.h"

namespace partstore {

struct DatabaseOptions {
  // Parsed expressions kept for reuse (0 disables the cache).
  size_t expression_cache_capacity = 4096;
  // Lock stripes per table (rounded up to a power of two, at least 1).
  size_t stripes_per_table = 64;
  // The LSI item collection limit (TableOptions::item_collection_size_limit).
  uint64_t item_collection_size_limit = kMaxItemCollectionBytes;
  // Capacity simulation: off by default (an in-process cache pays nothing for it). See
  // partstore/capacity_options.h; a null clock gets a SystemClock.
  capacity::CapacityOptions capacity;
  // Time to Live: the expiry mode, epoch time, the sweeper and the change limit
  // (partstore/time_to_live.h).
  TimeToLiveOptions time_to_live;
  // A limit on what the store holds, and what happens at it (partstore/memory.h).
  MemoryOptions memory;
  // Streams' retention, size cap and iterator lifetime (partstore/streams.h).
  StreamOptions streams;
  // A data directory for the snapshot and the write-ahead log (partstore/persistence.h). Open
  // loads, replays and logs; the constructor only lets CreateSnapshot write there.
  PersistenceOptions persistence;
  // Non-null: every request is recorded there (partstore/trace.h; partstore serve --record).
  std::shared_ptr<TraceRecorder> trace;
  // Region and account used in table ARNs.
  std::string region = "us-east-1";
  std::string account_id = "000000000000";
};

namespace internal {
struct DatabaseState;
}

class Database final : public Store {
 public:
  // A database with `options`, or ValidationException naming the first option out of range
  // (stripes_per_table 1..65536, item_collection_size_limit > 0, a non-empty region and
  // account, and the capacity simulation's limits positive: CapacityOptions).
  // With options.persistence.data_dir, Open also loads the directory's snapshot, replays its
  // write-ahead log, takes a new snapshot, and logs from then on (partstore/persistence.h); an
  // error naming the file and offset when they do not load (ValidationException for a `wal`
  // without a data_dir).
  static Result<std::unique_ptr<Database>> Open(DatabaseOptions options);
  // Open, then LoadSnapshot(snapshot_path).
  static Result<std::unique_ptr<Database>> Open(DatabaseOptions options,
                                                const std::string& snapshot_path);
  // The same without the checks. REQUIRES: options in the ranges Open checks (stripes_per_table
  // is rounded up to a power of two, at least 1, by each table).
  Database() : Database(DatabaseOptions{}) {}
  explicit Database(DatabaseOptions options);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // ---- Control plane (table_requests.h) ----
  // CreateTable: ResourceInUseException if the name is taken; ValidationException for a bad
  // schema, index or throughput (DynamoDB's messages). DeleteTable, DescribeTable, UpdateTable:
  // ResourceNotFoundException for an unknown table. ListTables pages by name, as DynamoDB.
  Result<CreateTableResult> CreateTable(const CreateTableRequest& request) override;
  Result<DeleteTableResult> DeleteTable(const DeleteTableRequest& request) override;
  Result<DescribeTableResult> DescribeTable(const DescribeTableRequest& request) override;
  Result<ListTablesResult> ListTables(const ListTablesRequest& request) override;
  Result<UpdateTableResult> UpdateTable(const UpdateTableRequest& request) override;

  // Tags on tables, by the table's ARN (partstore/tags.h has DynamoDB's rules and texts).
  // DeleteTable refuses a table with DeletionProtectionEnabled (partstore/table_settings.h).
  Result<TagResourceResult> TagResource(const TagResourceRequest& request) override;
  Result<TagResourceResult> UntagResource(const UntagResourceRequest& request) override;
  Result<ListTagsOfResourceResult> ListTagsOfResource(
      const ListTagsOfResourceRequest& request) override;

  // Time to Live (partstore/time_to_live.h): DynamoDB's checks and messages (the attribute name
  // 1..255 bytes; ValidationException when enabling an enabled table, disabling a disabled one,
  // naming another attribute than the enabled one, or changing again within
  // change_interval_seconds).
  Result<UpdateTimeToLiveResult> UpdateTimeToLive(const UpdateTimeToLiveRequest& request) override;
  Result<DescribeTimeToLiveResult> DescribeTimeToLive(
      const DescribeTimeToLiveRequest& request) override;
  // Deletes now every item of a TTL-enabled table that expired at least expiry_delay_seconds ago
  // (what the sweeper runs); the number deleted.
  int64_t DeleteExpiredItems();

  // Memory (partstore/memory.h): what the store holds, its limit, and per table what it holds,
  // evicted and expired (tables by name).
  DescribeMemoryResult DescribeMemory() const;

  // Persistence (partstore/persistence.h): what Open found in the data directory (a damaged last
  // log record it dropped). Thread-safe (constant after Open).
  PersistenceStats DescribePersistence() const;

  // ---- Snapshots (snapshot.h) ----
  // SaveSnapshot: every table at one point in time, written to `path` (replaced whole, or left as
  // it was on an error: InternalServerError naming the file and the system's reason).
  // LoadSnapshot: the tables of the snapshot at `path` created and filled (ResourceInUseException
  // if one exists already; ResourceNotFoundException for a missing file; ValidationException
  // naming the file and offset for a damaged one). On any error the database is left as it was.
  Result<SnapshotInfo> SaveSnapshot(const std::string& path);
  Result<SnapshotInfo> LoadSnapshot(const std::string& path);
  // SaveSnapshot to DIR/partstore.snapshot of DatabaseOptions::persistence.data_dir
  // (Partstore.CreateSnapshot on the wire), truncating the write-ahead log at its point in time;
  // ValidationException without a data directory. Snapshots are taken one at a time.
  Result<SnapshotInfo> CreateSnapshot(const CreateSnapshotRequest& request);

  // ---- One table's items at a point in time (table_image.h) ----
  // What exports are made of; ResourceNotFoundException for an unknown table.
  Result<TableImage> ReadTableImage(std::string_view table_name);

  // ---- On-demand backups (backups.h) ----
  // CreateBackup: TableNotFoundException for an unknown table. DescribeBackup, DeleteBackup,
  // RestoreTableFromBackup: BackupNotFoundException for an unknown ARN. RestoreTableFromBackup:
  // TableAlreadyExistsException when the target exists; the restored table is complete when the
  // call returns.
  Result<CreateBackupResult> CreateBackup(const CreateBackupRequest& request) override;
  Result<DescribeBackupResult> DescribeBackup(const DescribeBackupRequest& request) override;
  Result<ListBackupsResult> ListBackups(const ListBackupsRequest& request) override;
  Result<DeleteBackupResult> DeleteBackup(const DeleteBackupRequest& request) override;
  Result<RestoreTableFromBackupResult> RestoreTableFromBackup(
      const RestoreTableFromBackupRequest& request) override;

  // ---- Continuous backups (continuous_backups.h) ----
  // TableNotFoundException for an unknown table (DynamoDB answers these two with it).
  Result<ContinuousBackupsResult> UpdateContinuousBackups(
      const UpdateContinuousBackupsRequest& request) override;
  Result<ContinuousBackupsResult> DescribeContinuousBackups(
      const DescribeContinuousBackupsRequest& request) override;
  Result<RestoreTableToPointInTimeResult> RestoreTableToPointInTime(
      const RestoreTableToPointInTimeRequest& request) override;

  // ---- Streams (streams.h): DynamoDB Streams' API (the dynamodbstreams service) ----
  // ListStreams: the streams of every table, or of one (oldest first, pages of Limit).
  // DescribeStream: a stream's shards (parents before children), pages of Limit shards.
  // GetShardIterator / GetRecords: reading a shard. ResourceNotFoundException for an unknown
  // stream or shard; GetRecords: ExpiredIteratorException for an iterator older than
  // StreamOptions::iterator_lifetime_seconds, TrimmedDataAccessException when its records were
  // trimmed. A subscription over these: partstore/stream_subscription.h.
  Result<ListStreamsResult> ListStreams(const ListStreamsRequest& request) override;
  Result<DescribeStreamResult> DescribeStream(const DescribeStreamRequest& request) override;
  Result<GetShardIteratorResult> GetShardIterator(const GetShardIteratorRequest& request) override;
  Result<GetRecordsResult> GetRecords(const GetRecordsRequest& request) override;

  // ---- Data plane (item_requests.h, read_requests.h, batch_requests.h) ----
  // Each looks the table up by request.table_name. PutItem / UpdateItem / DeleteItem:
  // ConditionalCheckFailedException when the condition is false (nothing written); the item
  // returned per ReturnValues. GetItem: the item, or none. Query / Scan: one page (up to Limit
  // items or 1 MB) and LastEvaluatedKey whenever Limit or 1 MB ended the page (the next page may
  // be empty, as in DynamoDB); QueryAll / ScanAll follow it.
  Result<PutItemResult> PutItem(const PutItemRequest& request) override;
  Result<GetItemResult> GetItem(const GetItemRequest& request) override;
  Result<UpdateItemResult> UpdateItem(const UpdateItemRequest& request) override;
  Result<DeleteItemResult> DeleteItem(const DeleteItemRequest& request) override;
  Result<QueryResult> Query(const QueryRequest& request) override;
  Result<ScanResult> Scan(const ScanRequest& request) override;
  // GetItem, Query and Scan answering with the items as the engine stores them: StoredItem
  // views of its own buffers, read in place (attribute lookup, typed accessors, iteration;
  // ToItem() for a tree), no copy made (a ProjectionExpression builds the projected item as a
  // new buffer). The calls above are these plus ToItem().
  Result<GetItemViewResult> GetItemView(const GetItemRequest& request) override;
  Result<QueryViewResult> QueryView(const QueryRequest& request) override;
  Result<ScanViewResult> ScanView(const ScanRequest& request) override;
  // PutItem of an item in the engine's form (partstore/store.h): its buffer is stored as it is,
  // shared with the caller's handle, with no tree built and nothing encoded again.
  Result<PutItemResult> PutStoredItem(const PutItemRequest& request, StoredItem item) override;
  // Every item of a Query / Scan, page after page, following LastEvaluatedKey
  // (partstore/item_range.h). Keep the range in a variable, to read its status() after the loop:
  //   ItemRange items = db.QueryAll(query);
  //   for (const StoredItem& item : items) { ... }
  //   if (!items.status().ok()) { /* the error that ended it */ }
  // Nothing is read until the range's begin(); this Database must outlive the range.
  // (QueryAll and ScanAll are Store's: partstore/store.h.)
  // BatchGetItem: up to 100 keys; the keys not read (16 MB of results, or throttled) come back
  // as UnprocessedKeys, to send again. BatchWriteItem: up to 25 puts and deletes, each atomic on
  // its own; throttled ones come back as UnprocessedItems. Either fails as a whole
  // (ValidationException) for a duplicate key or a bad request, and with the throttling error
  // only when every key or write was throttled.
  Result<BatchGetItemResult> BatchGetItem(const BatchGetItemRequest& request) override;
  Result<BatchWriteItemResult> BatchWriteItem(const BatchWriteItemRequest& request) override;
  // Loads `item` into the table as DynamoDB's ImportTable loads data: stored and indexed (through
  // the table's write-sharding policies, as ShardedPutItem), counted in its partitions' sizes,
  // but consuming no capacity and never throttled (a bulk load before a simulation).
  Status ImportItem(std::string_view table_name, Item item);

  // ---- Transactions (transaction_requests.h) ----
  // All or nothing over up to 100 distinct items in any tables, serializable against every
  // single-item operation and every other transaction. A refused action (a false condition, a
  // bad key, an item too large, throttling) cancels the whole transaction:
  // TransactionCanceledException with one CancellationReason per action in its ErrorDetail.
  // ValidationException for the request itself (two actions on one item, over 4 MB, legacy
  // parameters). A ClientRequestToken seen in the last 10 minutes returns the first result
  // (IdempotentParameterMismatchException if the request differs, TransactionInProgressException
  // while the first still runs). TransactGetItems: responses[i] is absent for a missing item.
  Result<TransactWriteItemsResult> TransactWriteItems(
      const TransactWriteItemsRequest& request) override;
  Result<TransactGetItemsResult> TransactGetItems(const TransactGetItemsRequest& request) override;
  // TransactWriteItems through the write-sharding policies (logical keys, as the Sharded*
  // operations): a random-suffix Delete becomes one delete per shard (the 100-action limit
  // counts them); a random-suffix ConditionCheck, or a condition on a random-suffix Delete, is
  // refused. CancellationReasons are reported per logical action.
  Result<TransactWriteItemsResult> ShardedTransactWriteItems(
      const TransactWriteItemsRequest& request);

  // ---- PartiQL (partiql_requests.h) ----
  // Each statement is parsed, compiled into the request of the operation it stands for (SELECT:
  // Query when the WHERE has equality or IN on the partition key, else Scan; INSERT: PutItem with
  // attribute_not_exists; UPDATE: UpdateItem on an existing item; DELETE: DeleteItem) and run
  // through that operation. ValidationException "Statement wasn't well formed, can't be
  // processed: ..." for a statement that does not parse; DuplicateItemException for an INSERT of
  // an existing key; ConditionalCheckFailedException for an UPDATE of a missing item or a false
  // extra condition. BatchExecuteStatement: 1..25 statements, all reads (each naming a full key:
  // GetItem) or all writes, each answered on its own (an error per statement, not for the batch).
  // ExecuteTransaction: 1..100 statements, all reads (TransactGetItems) or all writes and EXISTS
  // checks (TransactWriteItems), all or nothing.
  Result<ExecuteStatementResult> ExecuteStatement(const ExecuteStatementRequest& request) override;
  Result<BatchExecuteStatementResult> BatchExecuteStatement(
      const BatchExecuteStatementRequest& request) override;
  Result<ExecuteTransactionResult> ExecuteTransaction(
      const ExecuteTransactionRequest& request) override;

  // ---- Capacity simulation (partstore's extensions, Partstore.<Op> on the wire) ----
  // Each needs capacity simulation on, else ValidationException; AdvanceClock needs the manual
  // clock.
  Result<AdvanceClockResult> AdvanceClock(const AdvanceClockRequest& request);
  Result<DescribePartitionsResult> DescribePartitions(const DescribePartitionsRequest& request);
  Result<GetMetricsResult> GetMetrics(const GetMetricsRequest& request);
  // GetContributorInsights: ValidationException while Contributor Insights is off for the table
  // or GSI.
  Result<GetContributorInsightsResult> GetContributorInsights(
      const GetContributorInsightsRequest& request);
  // DynamoDB's operations for turning Contributor Insights on and off per table or GSI (they too
  // need capacity simulation; DatabaseOptions::capacity.contributor_insights sets the default).
  Result<UpdateContributorInsightsResult> UpdateContributorInsights(
      const UpdateContributorInsightsRequest& request) override;
  Result<ListContributorInsightsResult> ListContributorInsights(
      const ListContributorInsightsRequest& request) override;
  Result<DescribeContributorInsightsResult> DescribeContributorInsights(
      const DescribeContributorInsightsRequest& request) override;

  // ---- Write sharding (partstore's extensions, Partstore.<Op>; sharding_policy.h) ----
  // Policies per table and GSI: set (replacing one with the same IndexName, Key and KeyMatch),
  // remove (ResourceNotFoundException "Sharding policy not found" if none), list. The table is
  // looked up before the policy is checked.
  Result<PutShardingPolicyResult> PutShardingPolicy(const PutShardingPolicyRequest& request);
  Result<DeleteShardingPolicyResult> DeleteShardingPolicy(
      const DeleteShardingPolicyRequest& request);
  Result<DescribeShardingPoliciesResult> DescribeShardingPolicies(
      const DescribeShardingPoliciesRequest& request);
  // The data plane through the policies (sharding_requests.h): requests carry logical keys. Not
  // atomic across shards: a random-suffix delete is one DeleteItem per shard, a batch one
  // BatchWriteItem per 25 physical writes.
  Result<ShardedPutItemResult> ShardedPutItem(const PutItemRequest& request);
  Result<ShardedGetItemResult> ShardedGetItem(const GetItemRequest& request);
  Result<ShardedUpdateItemResult> ShardedUpdateItem(const UpdateItemRequest& request);
  Result<ShardedDeleteItemResult> ShardedDeleteItem(const DeleteItemRequest& request);
  Result<ShardedBatchWriteItemResult> ShardedBatchWriteItem(const BatchWriteItemRequest& request);
  // Scatter-gather: the Query on every shard, merged by sort key (ShardedQueryOptions).
  Result<ShardedQueryResult> ShardedQuery(const QueryRequest& request,
                                          ShardedQueryOptions options = {});
  Result<ShardedAggregateResult> ShardedAggregate(const ShardedAggregateRequest& request);

  // The time Time to Live compares against: the capacity clock plus
  // DatabaseOptions::time_to_live's epoch_at_clock_zero.
  double EpochSeconds() const override;

  // The options as given, with a null capacity clock replaced by the SystemClock used.
  const DatabaseOptions& options() const;

 private:
  friend struct internal::DatabaseState;
  std::unique_ptr<internal::DatabaseState> state_;  // the implementation's
};

}  // namespace partstore
