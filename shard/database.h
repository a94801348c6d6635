// Database: a set of tables and every data-plane and control-plane operation on them, shaped like
// DynamoDB's API (one method per operation; request and result structs in *_requests.h).
//
//   partstore::Database db;
//   auto created = db.CreateTable(partstore::SimpleTable("Orders", key_schema));
//   auto put = db.PutItem({.table_name = "Orders", .item = item,
//                          .condition_expression = "attribute_not_exists(PK)"});
//   if (!put.ok()) { /* put.status(): code + DynamoDB's message */ }
//
// Errors are values: every method returns Result<...> whose Status carries DynamoDB's exception
// (Code) and message text, e.g. Code::kResourceNotFound "Requested resource not found",
// Code::kConditionalCheckFailed "The conditional request failed" (with the old item attached as
// ErrorDetail when ReturnValuesOnConditionCheckFailure=ALL_OLD).
//
// Tables. CreateTable makes the table usable at once: the CreateTable response reports
// TableStatus CREATING (as DynamoDB's always does) and every later DescribeTable reports ACTIVE.
// DeleteTable removes it at once (its response reports DELETING); UpdateTable applies at once
// (its response reports UPDATING). Operations already running on a
// table when it is deleted finish on it; later ones get ResourceNotFoundException.
//
// Thread safety: safe for concurrent use from any number of threads. The table catalogue is
// behind a reader/writer lock held only to find, add or remove a table (never during an item
// operation); item operations synchronize on the table's lock stripes (shard/table.h).
// Lock order: catalogue lock, then (never while holding it) a table's stripe locks. Sharding
// policy changes hold sharding_mu_ while they read and replace a table's PolicySet (the table's
// own policy lock is a leaf under it); the sharded operations take no lock of their own.
#pragma once

#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>

#include "core/expr/cache.h"
#include "core/status.h"
#include "shard/batch_requests.h"
#include "shard/capacity/capacity_options.h"
#include "shard/capacity_requests.h"
#include "shard/item_range.h"
#include "shard/item_requests.h"
#include "shard/read_requests.h"
#include "shard/sharding/sharding_requests.h"
#include "shard/table.h"
#include "shard/table_requests.h"
#include "shard/transaction_requests.h"

namespace partstore {

struct DatabaseOptions {
  // Parsed expressions kept for reuse (0 disables the cache).
  size_t expression_cache_capacity = 4096;
  // Lock stripes per table (rounded up to a power of two, at least 1).
  size_t stripes_per_table = 64;
  // The LSI item collection limit (TableOptions::item_collection_size_limit).
  uint64_t item_collection_size_limit = kMaxItemCollectionBytes;
  // Capacity simulation: off by default (an in-process cache pays nothing for it). See
  // shard/capacity/capacity_options.h; a null clock gets a SystemClock.
  capacity::CapacityOptions capacity;
  // Region and account used in table ARNs.
  std::string region = "us-east-1";
  std::string account_id = "000000000000";
};

class Database {
 public:
  Database() : Database(DatabaseOptions{}) {}
  explicit Database(DatabaseOptions options);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // ---- Control plane ----
  Result<CreateTableResult> CreateTable(const CreateTableRequest& request);
  Result<DeleteTableResult> DeleteTable(const DeleteTableRequest& request);
  Result<DescribeTableResult> DescribeTable(const DescribeTableRequest& request);
  Result<ListTablesResult> ListTables(const ListTablesRequest& request);
  Result<UpdateTableResult> UpdateTable(const UpdateTableRequest& request);

  // The table named `name`, or ResourceNotFoundException. The pointer keeps the table alive
  // after a DeleteTable; operations through it then still work on the orphaned table.
  Result<std::shared_ptr<Table>> GetTable(std::string_view name) const;

  // ---- Data plane (each looks the table up by request.table_name) ----
  Result<PutItemResult> PutItem(const PutItemRequest& request);
  Result<GetItemResult> GetItem(const GetItemRequest& request);
  Result<UpdateItemResult> UpdateItem(const UpdateItemRequest& request);
  Result<DeleteItemResult> DeleteItem(const DeleteItemRequest& request);
  Result<QueryResult> Query(const QueryRequest& request);
  Result<ScanResult> Scan(const ScanRequest& request);
  // GetItem, Query and Scan answering with the items as the engine stores them: StoredItem
  // views of its own buffers, read in place (attribute lookup, typed accessors, iteration;
  // ToItem() for a tree), no copy made. The calls above are these plus ToItem().
  Result<GetItemViewResult> GetItemView(const GetItemRequest& request);
  Result<QueryViewResult> QueryView(const QueryRequest& request);
  Result<ScanViewResult> ScanView(const ScanRequest& request);
  // Every item of a Query / Scan, page after page, following LastEvaluatedKey
  // (shard/item_range.h): `for (const StoredItem& item : db.QueryAll(query))`. Nothing is read
  // until the range's begin(); this Database must outlive the range.
  ItemRange QueryAll(QueryRequest request);
  ItemRange ScanAll(ScanRequest request);
  Result<BatchGetItemResult> BatchGetItem(const BatchGetItemRequest& request);
  Result<BatchWriteItemResult> BatchWriteItem(const BatchWriteItemRequest& request);
  // Loads `item` into the table as DynamoDB's ImportTable loads data: stored and indexed (through
  // the table's write-sharding policies, as ShardedPutItem), counted in its partitions' sizes,
  // but consuming no capacity and never throttled. The simulator's preload uses it.
  Status ImportItem(std::string_view table_name, Item item);

  // ---- Transactions (shard/transaction.cc) ----
  // All or nothing over up to 100 distinct items in any tables, serializable against every
  // single-item operation and every other transaction: the stripes of every item (and of the
  // index entries the writes change) are held together while the transaction decides and applies.
  Result<TransactWriteItemsResult> TransactWriteItems(const TransactWriteItemsRequest& request);
  Result<TransactGetItemsResult> TransactGetItems(const TransactGetItemsRequest& request);
  // TransactWriteItems through the write-sharding policies (logical keys, as the Sharded*
  // operations): a random-suffix Delete becomes one delete per shard (the 100-action limit
  // counts them); a random-suffix ConditionCheck, or a condition on a random-suffix Delete, is
  // refused. CancellationReasons are reported per logical action.
  Result<TransactWriteItemsResult> ShardedTransactWriteItems(
      const TransactWriteItemsRequest& request);

  // ---- Capacity simulation (partstore's extensions, Partstore.<Op> on the wire) ----
  // Each needs capacity simulation on, else ValidationException; AdvanceClock needs the manual
  // clock.
  Result<AdvanceClockResult> AdvanceClock(const AdvanceClockRequest& request);
  Result<DescribePartitionsResult> DescribePartitions(const DescribePartitionsRequest& request);
  Result<GetMetricsResult> GetMetrics(const GetMetricsRequest& request);
  Result<GetContributorInsightsResult> GetContributorInsights(
      const GetContributorInsightsRequest& request);
  // DynamoDB's operations for turning Contributor Insights on and off per table or GSI (they too
  // need capacity simulation; DatabaseOptions::capacity.contributor_insights sets the default).
  Result<UpdateContributorInsightsResult> UpdateContributorInsights(
      const UpdateContributorInsightsRequest& request);
  Result<DescribeContributorInsightsResult> DescribeContributorInsights(
      const DescribeContributorInsightsRequest& request);

  // ---- Write sharding (partstore's extensions, Partstore.<Op> on the wire; shard/sharding/) ----
  // Policies per table and GSI: set (replacing one with the same IndexName, Key and KeyMatch),
  // remove, list.
  Result<PutShardingPolicyResult> PutShardingPolicy(const PutShardingPolicyRequest& request);
  Result<DeleteShardingPolicyResult> DeleteShardingPolicy(
      const DeleteShardingPolicyRequest& request);
  Result<DescribeShardingPoliciesResult> DescribeShardingPolicies(
      const DescribeShardingPoliciesRequest& request);
  // The data plane through the policies (sharding_requests.h): requests carry logical keys.
  Result<ShardedPutItemResult> ShardedPutItem(const PutItemRequest& request);
  Result<ShardedGetItemResult> ShardedGetItem(const GetItemRequest& request);
  Result<ShardedUpdateItemResult> ShardedUpdateItem(const UpdateItemRequest& request);
  Result<ShardedDeleteItemResult> ShardedDeleteItem(const DeleteItemRequest& request);
  Result<ShardedBatchWriteItemResult> ShardedBatchWriteItem(const BatchWriteItemRequest& request);
  // Scatter-gather: the Query on every shard, merged by sort key (shard/sharding/scatter_gather.h).
  Result<ShardedQueryResult> ShardedQuery(const QueryRequest& request,
                                          ShardedQueryOptions options = {});
  Result<ShardedAggregateResult> ShardedAggregate(const ShardedAggregateRequest& request);

  const DatabaseOptions& options() const { return options_; }
  expr::ExpressionCache& expression_cache() { return *cache_; }

 private:
  // TransactWriteItems with an ItemRewriter per action (null, or write sharding's for an Update);
  // the ClientRequestToken compares `logical` (the request as the client sent it; null: the same
  // as `request`).
  Result<TransactWriteItemsResult> RunTransaction(const TransactWriteItemsRequest& request,
                                                  const std::vector<const ItemRewriter*>& rewriters,
                                                  const TransactWriteItemsRequest* logical);
  // Removes the sharding policies of a deleted GSI.
  void DropShardingPolicies(Table& table, std::string_view index);

  DatabaseOptions options_;
  std::shared_ptr<expr::ExpressionCache> cache_;  // shared with the tables
  mutable std::shared_mutex mu_;                  // guards tables_
  std::map<std::string, std::shared_ptr<Table>, std::less<>> tables_;
  // When Contributor Insights last changed per "table" or "table/index"
  // (DescribeContributorInsights' LastUpdateDateTime, seconds since the epoch).
  std::mutex insights_mu_;
  std::map<std::string, double, std::less<>> insights_updated_;
  // Serializes changes of tables' sharding policies (read-modify-write of a table's PolicySet).
  std::mutex sharding_mu_;
  // ClientRequestTokens of TransactWriteItems seen in the last 10 minutes (a leaf lock, never
  // held while a transaction runs).
  struct TokenRecord {
    uint64_t fingerprint = 0;  // of the request's parameters
    bool in_flight = true;
    int64_t finished_micros = 0;  // on the database clock
    TransactWriteItemsResult result;
  };
  std::mutex tokens_mu_;
  std::map<std::string, TokenRecord, std::less<>> tokens_;
  std::deque<std::pair<int64_t, std::string>> token_expiry_;  // (finished, token), in order
};

}  // namespace partstore
