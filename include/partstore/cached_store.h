// partstore::CachedStore: a Store (partstore/store.h) that caches another one, with DynamoDB
// Accelerator's (DAX's) semantics, kept coherent by the table's stream where DAX is not.
//
//   auto remote = partstore::RemoteStore::Open({.endpoint = "https://dynamodb.eu-west-1..."});
//   auto cache = partstore::CachedStore::Open(**remote, {.item_ttl_seconds = 300});
//   auto got = (*cache)->GetItem({.table_name = "Products", .key = key});  // memory, or remote
//
// The upstream is any Store: a RemoteStore in front of DynamoDB or Alternator (the usual case),
// or a Database. It must outlive the cache. The cache's memory is a partstore engine of its own
// (its memory limit, LRU eviction and expiry), private to the cache.
//
// What is cached (the README's "A cache in front of DynamoDB" has the whole story):
//   - Item cache: GetItem and BatchGetItem with eventually consistent reads are answered from
//     memory when the item (or the knowledge that there is none: negative caching) is there and
//     younger than its TTL. A miss reads the whole item from the upstream (one load per key at a
//     time; DynamoDB charges a read by the item's size whatever the projection) and caches it; the
//     caller's projection is applied in memory. A hit reports ConsumedCapacity with 0 units when
//     asked for: the table was not read.
//   - Query cache: Query and Scan pages keyed by their whole request, cached for query_ttl_seconds.
//   - Write-through: PutItem, UpdateItem, DeleteItem, BatchWriteItem and TransactWriteItems go to
//     the upstream first. On success the item cache holds the new item (PutItem and DeleteItem ask
//     for ALL_OLD, UpdateItem for ALL_NEW when the caller asked NONE or ALL_NEW; the caller gets
//     what it asked for) or forgets the key when the new item is not known (an UPDATED_* or
//     ALL_OLD update, a transaction's update, a batch's unprocessed items), and every cached page
//     the write can have changed is dropped: the pages of the item's partition key, the table's
//     Scan pages, and in each index the pages of the old and the new item's index keys (all the
//     index's pages when an old index key is unknown). So the cache's own writers never read
//     stale pages. A write that failed drops the key's item (the cache may have been wrong about
//     it); one whose outcome is unknown (Code::kOutcomeUnknown) is treated as applied.
//   - Passed through unchanged, as DAX does: strongly consistent reads, TransactGetItems, the
//     control plane, Streams' API, and anything the cache cannot read (a request it finds invalid
//     goes to the upstream, so errors are the upstream's own). PartiQL statements too; a PartiQL
//     write forgets everything cached for its table.
//   - Coherence with other writers: when a table has a stream (NEW_IMAGE or NEW_AND_OLD_IMAGES
//     refresh items; KEYS_ONLY and OLD_IMAGE drop them), the cache tails it every
//     stream_poll_interval and applies other writers' changes to both caches. Staleness is then
//     bounded by the poll interval plus the stream's own delay; without a stream, by the TTLs.
//
// Thread safety: safe for concurrent use from any number of threads.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "partstore/clock.h"
#include "partstore/status.h"
#include "partstore/store.h"

namespace partstore {

struct CacheOptions {
  // How long a cached item, "no such item", and query or scan page stay fresh. > 0 (DAX: 5
  // minutes for items and queries; negative entries use the item TTL).
  double item_ttl_seconds = 300;
  double negative_ttl_seconds = 300;
  double query_ttl_seconds = 300;
  // What the cache holds at most (the engine's count: partstore/memory.h); least recently used
  // entries are evicted past it. At least 1 MiB.
  uint64_t memory_limit_bytes = uint64_t{256} << 20;
  // Tail each cached table's stream, when it has one (above).
  bool follow_streams = true;
  std::chrono::milliseconds stream_poll_interval{250};
  // Time for the TTLs (tests pass a ManualClock); null: the system's monotonic clock.
  std::shared_ptr<capacity::Clock> clock{};
};

// Counters since Open (monotonic) and what the cache holds now.
struct CacheStats {
  uint64_t item_hits = 0;           // GetItem / BatchGetItem keys answered with an item
  uint64_t negative_hits = 0;       // ... answered "no such item" from memory
  uint64_t item_misses = 0;         // keys read from the upstream
  uint64_t shared_loads = 0;        // of the misses, those that waited for another caller's load
  uint64_t query_hits = 0;          // Query / Scan pages answered from memory
  uint64_t query_misses = 0;        // ... read from the upstream
  uint64_t uncacheable_pages = 0;   // pages read but too large to keep (over 400 KB)
  uint64_t passed_through = 0;      // calls sent to the upstream unchanged
  uint64_t writes = 0;              // writes sent through the cache
  uint64_t item_invalidations = 0;  // cached keys replaced or forgotten by a write or a record
  uint64_t page_invalidations = 0;  // page groups dropped (a partition key's, an index's)
  uint64_t evicted_items = 0;       // entries evicted by the memory limit
  int64_t memory_bytes = 0;         // what the cache holds now
  uint64_t upstream_calls = 0;      // calls made to the upstream, and their time
  uint64_t upstream_micros = 0;
  uint64_t stream_records = 0;    // stream records applied
  uint64_t stream_throttles = 0;  // GetRecords throttled (backed off)
  uint64_t stream_errors = 0;     // stream calls that failed otherwise
  // How far the slowest followed stream is behind: now minus the newest applied record's time,
  // when records are pending, in seconds (0: caught up or no stream).
  double stream_lag_seconds = 0;
};

class CachedStore final : public Store {
 public:
  // A cache in front of `upstream` (which must outlive it). ValidationException naming the
  // first option out of range.
  static Result<std::unique_ptr<CachedStore>> Open(Store& upstream, CacheOptions options = {});
  ~CachedStore() override;
  CachedStore(const CachedStore&) = delete;
  CachedStore& operator=(const CachedStore&) = delete;

  CacheStats stats() const;
  // The counters in Prometheus' text format (partstore_cache_*), as `partstore serve
  // --upstream` adds them to /metrics.
  std::string PrometheusMetrics() const;
  // Forgets everything cached (items and pages of every table).
  void Clear();
  // Runs one round of stream following now (tests; the background thread does it every
  // stream_poll_interval).
  void PollStreams();

  Result<CreateTableResult> CreateTable(const CreateTableRequest& request) override;
  Result<DeleteTableResult> DeleteTable(const DeleteTableRequest& request) override;
  Result<DescribeTableResult> DescribeTable(const DescribeTableRequest& request) override;
  Result<ListTablesResult> ListTables(const ListTablesRequest& request) override;
  Result<UpdateTableResult> UpdateTable(const UpdateTableRequest& request) override;
  Result<TagResourceResult> TagResource(const TagResourceRequest& request) override;
  Result<TagResourceResult> UntagResource(const UntagResourceRequest& request) override;
  Result<ListTagsOfResourceResult> ListTagsOfResource(
      const ListTagsOfResourceRequest& request) override;
  Result<UpdateTimeToLiveResult> UpdateTimeToLive(const UpdateTimeToLiveRequest& request) override;
  Result<DescribeTimeToLiveResult> DescribeTimeToLive(
      const DescribeTimeToLiveRequest& request) override;
  Result<CreateBackupResult> CreateBackup(const CreateBackupRequest& request) override;
  Result<DescribeBackupResult> DescribeBackup(const DescribeBackupRequest& request) override;
  Result<ListBackupsResult> ListBackups(const ListBackupsRequest& request) override;
  Result<DeleteBackupResult> DeleteBackup(const DeleteBackupRequest& request) override;
  Result<RestoreTableFromBackupResult> RestoreTableFromBackup(
      const RestoreTableFromBackupRequest& request) override;
  Result<ContinuousBackupsResult> UpdateContinuousBackups(
      const UpdateContinuousBackupsRequest& request) override;
  Result<ContinuousBackupsResult> DescribeContinuousBackups(
      const DescribeContinuousBackupsRequest& request) override;
  Result<RestoreTableToPointInTimeResult> RestoreTableToPointInTime(
      const RestoreTableToPointInTimeRequest& request) override;
  Result<ListStreamsResult> ListStreams(const ListStreamsRequest& request) override;
  Result<DescribeStreamResult> DescribeStream(const DescribeStreamRequest& request) override;
  Result<GetShardIteratorResult> GetShardIterator(const GetShardIteratorRequest& request) override;
  Result<GetRecordsResult> GetRecords(const GetRecordsRequest& request) override;
  Result<UpdateContributorInsightsResult> UpdateContributorInsights(
      const UpdateContributorInsightsRequest& request) override;
  Result<ListContributorInsightsResult> ListContributorInsights(
      const ListContributorInsightsRequest& request) override;
  Result<DescribeContributorInsightsResult> DescribeContributorInsights(
      const DescribeContributorInsightsRequest& request) override;
  Result<PutItemResult> PutItem(const PutItemRequest& request) override;
  Result<GetItemResult> GetItem(const GetItemRequest& request) override;
  Result<UpdateItemResult> UpdateItem(const UpdateItemRequest& request) override;
  Result<DeleteItemResult> DeleteItem(const DeleteItemRequest& request) override;
  Result<QueryResult> Query(const QueryRequest& request) override;
  Result<ScanResult> Scan(const ScanRequest& request) override;
  Result<GetItemViewResult> GetItemView(const GetItemRequest& request) override;
  Result<QueryViewResult> QueryView(const QueryRequest& request) override;
  Result<ScanViewResult> ScanView(const ScanRequest& request) override;
  Result<BatchGetItemResult> BatchGetItem(const BatchGetItemRequest& request) override;
  Result<BatchWriteItemResult> BatchWriteItem(const BatchWriteItemRequest& request) override;
  Result<TransactWriteItemsResult> TransactWriteItems(
      const TransactWriteItemsRequest& request) override;
  Result<TransactGetItemsResult> TransactGetItems(const TransactGetItemsRequest& request) override;
  Result<ExecuteStatementResult> ExecuteStatement(const ExecuteStatementRequest& request) override;
  Result<BatchExecuteStatementResult> BatchExecuteStatement(
      const BatchExecuteStatementRequest& request) override;
  Result<ExecuteTransactionResult> ExecuteTransaction(
      const ExecuteTransactionRequest& request) override;
  double EpochSeconds() const override;

  struct Impl;  // cache/cached_store.cc

 private:
  explicit CachedStore(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace partstore
