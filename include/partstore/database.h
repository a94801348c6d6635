// partstore::Database: an in-memory store with DynamoDB's data model, API and errors (and,
// optionally, its capacity behaviour). The whole public API is in include/partstore/; this is
// the handle.
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
//     message text, checked in DynamoDB's order: the request's own rules (ValidationException),
//     then the table (ResourceNotFoundException "Requested resource not found"), then what needs
//     the table (the key against its schema, the key condition, the condition:
//     ConditionalCheckFailedException with the old item as ErrorDetail when asked for). A failed
//     operation changed nothing. "Not found" for an item is not an error: GetItem's item is
//     absent, Query's items are empty.
//   - Thread safety: a Database is safe for concurrent use from any number of threads without
//     outside locking. Single-item operations are linearizable; a Query or Scan page sees one
//     consistent state of each item collection; a transaction is serializable against
//     everything else; a batch is atomic per item.
//   - Capacity: with DatabaseOptions::capacity.enabled, every operation is charged to its
//     table's simulated partitions and may fail with DynamoDB's throttling errors
//     (ProvisionedThroughputExceededException, ThrottlingException); off by default, it costs
//     nothing.
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

#include "partstore/batch_requests.h"
#include "partstore/capacity_options.h"
#include "partstore/capacity_requests.h"
#include "partstore/item_range.h"
#include "partstore/item_requests.h"
#include "partstore/read_requests.h"
#include "partstore/sharding_requests.h"
#include "partstore/status.h"
#include "partstore/table_requests.h"
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
  // Region and account used in table ARNs.
  std::string region = "us-east-1";
  std::string account_id = "000000000000";
};

namespace internal {
struct DatabaseState;
}

class Database {
 public:
  // A database with `options`, or ValidationException naming the first option out of range
  // (stripes_per_table 1..65536, item_collection_size_limit > 0, a non-empty region and
  // account, and the capacity simulation's limits positive: CapacityOptions).
  static Result<std::unique_ptr<Database>> Open(DatabaseOptions options);
  // The same without the checks: the options are taken as they are (stripes_per_table rounded
  // up to a power of two, at least 1).
  Database() : Database(DatabaseOptions{}) {}
  explicit Database(DatabaseOptions options);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // ---- Control plane (table_requests.h) ----
  // CreateTable: ResourceInUseException if the name is taken; ValidationException for a bad
  // schema, index or throughput (DynamoDB's messages). DeleteTable, DescribeTable, UpdateTable:
  // ResourceNotFoundException for an unknown table. ListTables pages by name, as DynamoDB.
  Result<CreateTableResult> CreateTable(const CreateTableRequest& request);
  Result<DeleteTableResult> DeleteTable(const DeleteTableRequest& request);
  Result<DescribeTableResult> DescribeTable(const DescribeTableRequest& request);
  Result<ListTablesResult> ListTables(const ListTablesRequest& request);
  Result<UpdateTableResult> UpdateTable(const UpdateTableRequest& request);

  // ---- Data plane (item_requests.h, read_requests.h, batch_requests.h) ----
  // Each looks the table up by request.table_name. PutItem / UpdateItem / DeleteItem:
  // ConditionalCheckFailedException when the condition is false (nothing written); the item
  // returned per ReturnValues. GetItem: the item, or none. Query / Scan: one page (up to Limit
  // items or 1 MB) and LastEvaluatedKey when there is more; QueryAll / ScanAll follow it.
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
  // (partstore/item_range.h): `for (const StoredItem& item : db.QueryAll(query))`. Nothing is read
  // until the range's begin(); this Database must outlive the range.
  ItemRange QueryAll(QueryRequest request);
  ItemRange ScanAll(ScanRequest request);
  Result<BatchGetItemResult> BatchGetItem(const BatchGetItemRequest& request);
  Result<BatchWriteItemResult> BatchWriteItem(const BatchWriteItemRequest& request);
  // Loads `item` into the table as DynamoDB's ImportTable loads data: stored and indexed (through
  // the table's write-sharding policies, as ShardedPutItem), counted in its partitions' sizes,
  // but consuming no capacity and never throttled. The simulator's preload uses it.
  Status ImportItem(std::string_view table_name, Item item);

  // ---- Transactions (transaction_requests.h) ----
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

  // ---- Write sharding (partstore's extensions, Partstore.<Op> on the wire; sharding_policy.h)
  // ---- Policies per table and GSI: set (replacing one with the same IndexName, Key and KeyMatch),
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
  // Scatter-gather: the Query on every shard, merged by sort key (ShardedQueryOptions).
  Result<ShardedQueryResult> ShardedQuery(const QueryRequest& request,
                                          ShardedQueryOptions options = {});
  Result<ShardedAggregateResult> ShardedAggregate(const ShardedAggregateRequest& request);

  // The options as in effect (a null capacity clock replaced by the SystemClock used).
  const DatabaseOptions& options() const;

 private:
  friend struct internal::DatabaseState;
  std::unique_ptr<internal::DatabaseState> state_;  // shard/database_state.h
};

}  // namespace partstore
