// partstore::Store: DynamoDB's API as one abstract interface, with two homes.
//
//   partstore::Database       the in-process engine (partstore/database.h)
//   partstore::RemoteStore    any DynamoDB endpoint over HTTP(S): DynamoDB itself, ScyllaDB
//                             Alternator, DynamoDB Local, `partstore serve`
//                             (partstore/remote_store.h; the partstore_client library)
//
// Code written against a Store runs unchanged against either, in the spirit of LevelDB's abstract
// DB: the typed builders, QueryAll / ScanAll and ReadThrough take a Store&.
//
//   // Database::Open(...) or RemoteStore::Open(...):
//   std::unique_ptr<partstore::Store> store = ...;
//   auto put = store->PutItem({.table_name = "Orders", .item = item,
//                              .condition_expression = "attribute_not_exists(PK)"});
//   if (!put.ok() && put.status().code() == partstore::Code::kConditionalCheckFailed) { ... }
//
// Contract shared by every operation, in both homes (each Database method's comment in
// partstore/database.h adds the engine's details):
//   - Requests and results are plain structs named after DynamoDB's (member for member, in
//     snake_case: *_requests.h). Requests are read, never kept: the caller owns them and may
//     reuse or destroy them as soon as the call returns. Results are the caller's.
//   - Errors are values: a Result<T> holds T or a Status whose Code is DynamoDB's exception and
//     whose message is DynamoDB's text, with the error's extra members (the old item of a
//     ConditionalCheckFailedException, a TransactionCanceledException's CancellationReasons, a
//     throttle's reasons) as its ErrorDetail (partstore/error_detail.h). A remote store maps the
//     wire's `__type` to the same Codes, so code that handles ConditionalCheckFailedException or
//     a throttle does not care which home it talks to. A remote store adds Code::kOutcomeUnknown:
//     a write whose request may or may not have been applied (the connection failed after it
//     was sent, and the write is not idempotent, so it was not sent again).
//   - Thread safety: a Store is safe for concurrent use from any number of threads.
//   - Time: EpochSeconds() is the store's notion of now (Time to Live compares against it): the
//     engine's clock (DatabaseOptions::time_to_live), or the system clock for a remote store.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "partstore/backups.h"
#include "partstore/batch_requests.h"
#include "partstore/capacity_requests.h"
#include "partstore/continuous_backups.h"
#include "partstore/item_range.h"
#include "partstore/item_requests.h"
#include "partstore/partiql_requests.h"
#include "partstore/read_requests.h"
#include "partstore/status.h"
#include "partstore/streams.h"
#include "partstore/table_requests.h"
#include "partstore/tags.h"
#include "partstore/time_to_live.h"
#include "partstore/transaction_requests.h"

namespace partstore {

// PutStoredItem's error for a request that also has request.item.
inline constexpr std::string_view kPutStoredItemWithTree =
    "PutStoredItem takes the item as a StoredItem: request.item must be empty";

class Store {
 public:
  virtual ~Store() = default;

  // ---- Tables (table_requests.h) ----
  // CreateTable: ResourceInUseException if the name is taken; ValidationException for a bad
  // schema, index or throughput. DeleteTable, DescribeTable, UpdateTable:
  // ResourceNotFoundException for an unknown table. ListTables pages by name.
  virtual Result<CreateTableResult> CreateTable(const CreateTableRequest& request) = 0;
  virtual Result<DeleteTableResult> DeleteTable(const DeleteTableRequest& request) = 0;
  virtual Result<DescribeTableResult> DescribeTable(const DescribeTableRequest& request) = 0;
  virtual Result<ListTablesResult> ListTables(const ListTablesRequest& request) = 0;
  virtual Result<UpdateTableResult> UpdateTable(const UpdateTableRequest& request) = 0;

  // ---- Tags (tags.h), Time to Live (time_to_live.h) ----
  virtual Result<TagResourceResult> TagResource(const TagResourceRequest& request) = 0;
  virtual Result<TagResourceResult> UntagResource(const UntagResourceRequest& request) = 0;
  virtual Result<ListTagsOfResourceResult> ListTagsOfResource(
      const ListTagsOfResourceRequest& request) = 0;
  virtual Result<UpdateTimeToLiveResult> UpdateTimeToLive(
      const UpdateTimeToLiveRequest& request) = 0;
  virtual Result<DescribeTimeToLiveResult> DescribeTimeToLive(
      const DescribeTimeToLiveRequest& request) = 0;

  // ---- Backups (backups.h, continuous_backups.h) ----
  virtual Result<CreateBackupResult> CreateBackup(const CreateBackupRequest& request) = 0;
  virtual Result<DescribeBackupResult> DescribeBackup(const DescribeBackupRequest& request) = 0;
  virtual Result<ListBackupsResult> ListBackups(const ListBackupsRequest& request) = 0;
  virtual Result<DeleteBackupResult> DeleteBackup(const DeleteBackupRequest& request) = 0;
  virtual Result<RestoreTableFromBackupResult> RestoreTableFromBackup(
      const RestoreTableFromBackupRequest& request) = 0;
  virtual Result<ContinuousBackupsResult> UpdateContinuousBackups(
      const UpdateContinuousBackupsRequest& request) = 0;
  virtual Result<ContinuousBackupsResult> DescribeContinuousBackups(
      const DescribeContinuousBackupsRequest& request) = 0;
  virtual Result<RestoreTableToPointInTimeResult> RestoreTableToPointInTime(
      const RestoreTableToPointInTimeRequest& request) = 0;

  // ---- Streams (streams.h): DynamoDB Streams' API ----
  virtual Result<ListStreamsResult> ListStreams(const ListStreamsRequest& request) = 0;
  virtual Result<DescribeStreamResult> DescribeStream(const DescribeStreamRequest& request) = 0;
  virtual Result<GetShardIteratorResult> GetShardIterator(
      const GetShardIteratorRequest& request) = 0;
  virtual Result<GetRecordsResult> GetRecords(const GetRecordsRequest& request) = 0;

  // ---- Contributor Insights (capacity_requests.h) ----
  virtual Result<UpdateContributorInsightsResult> UpdateContributorInsights(
      const UpdateContributorInsightsRequest& request) = 0;
  virtual Result<ListContributorInsightsResult> ListContributorInsights(
      const ListContributorInsightsRequest& request) = 0;
  virtual Result<DescribeContributorInsightsResult> DescribeContributorInsights(
      const DescribeContributorInsightsRequest& request) = 0;

  // ---- Items (item_requests.h, read_requests.h, batch_requests.h) ----
  // PutItem / UpdateItem / DeleteItem: ConditionalCheckFailedException when the condition is
  // false (nothing written); the item returned per ReturnValues. GetItem: the item, or none.
  // Query / Scan: one page (up to Limit items or 1 MB) and LastEvaluatedKey whenever Limit or
  // 1 MB ended the page; QueryAll / ScanAll follow it.
  virtual Result<PutItemResult> PutItem(const PutItemRequest& request) = 0;
  virtual Result<GetItemResult> GetItem(const GetItemRequest& request) = 0;
  virtual Result<UpdateItemResult> UpdateItem(const UpdateItemRequest& request) = 0;
  virtual Result<DeleteItemResult> DeleteItem(const DeleteItemRequest& request) = 0;
  virtual Result<QueryResult> Query(const QueryRequest& request) = 0;
  virtual Result<ScanResult> Scan(const ScanRequest& request) = 0;
  // The same with the items as StoredItems (partstore/stored_item.h): the engine's own buffers,
  // read in place; a remote store's items encoded once from the response.
  virtual Result<GetItemViewResult> GetItemView(const GetItemRequest& request) = 0;
  virtual Result<QueryViewResult> QueryView(const QueryRequest& request) = 0;
  virtual Result<ScanViewResult> ScanView(const ScanRequest& request) = 0;
  // PutItem with the item in the engine's form, `item`, instead of request.item (which must be
  // empty: ValidationException otherwise). An item read from one table as a view (GetItemView,
  // QueryView) is written to another without being decoded, and the server puts a request's
  // item encoded straight from its JSON. Errors as PutItem's for the same item (the size checked
  // as PutItem checks it; every handle StoredItem makes keeps ValidateItem's other rules: Encode's
  // precondition, Decode's checks); an empty handle is an item with no attributes. The engine
  // stores `item`'s buffer as it is; any other store (this default) sends the item as a tree.
  virtual Result<PutItemResult> PutStoredItem(const PutItemRequest& request, StoredItem item);
  // BatchGetItem: up to 100 keys; those not read come back as UnprocessedKeys. BatchWriteItem:
  // up to 25 puts and deletes, each atomic on its own; those not written come back as
  // UnprocessedItems.
  virtual Result<BatchGetItemResult> BatchGetItem(const BatchGetItemRequest& request) = 0;
  virtual Result<BatchWriteItemResult> BatchWriteItem(const BatchWriteItemRequest& request) = 0;

  // ---- Transactions (transaction_requests.h) ----
  // All or nothing over up to 100 distinct items: TransactionCanceledException with one
  // CancellationReason per action in its ErrorDetail.
  virtual Result<TransactWriteItemsResult> TransactWriteItems(
      const TransactWriteItemsRequest& request) = 0;
  virtual Result<TransactGetItemsResult> TransactGetItems(
      const TransactGetItemsRequest& request) = 0;

  // ---- PartiQL (partiql_requests.h) ----
  virtual Result<ExecuteStatementResult> ExecuteStatement(
      const ExecuteStatementRequest& request) = 0;
  virtual Result<BatchExecuteStatementResult> BatchExecuteStatement(
      const BatchExecuteStatementRequest& request) = 0;
  virtual Result<ExecuteTransactionResult> ExecuteTransaction(
      const ExecuteTransactionRequest& request) = 0;

  // The store's time, in seconds since the Unix epoch (see the header comment).
  virtual double EpochSeconds() const = 0;

  // Every item of a Query / Scan, page after page, following LastEvaluatedKey
  // (partstore/item_range.h). Nothing is read until the range's begin(); this store must outlive
  // the range.
  ItemRange QueryAll(QueryRequest request);
  ItemRange ScanAll(ScanRequest request);
};

inline Result<PutItemResult> Store::PutStoredItem(const PutItemRequest& request, StoredItem item) {
  if (!request.item.empty()) return Status::Validation(std::string(kPutStoredItemWithTree));
  PutItemRequest tree = request;
  if (item) tree.item = item.ToItem();
  return PutItem(tree);
}

inline ItemRange Store::QueryAll(QueryRequest request) {
  return ItemRange([this, request = std::move(request)](std::optional<Item> start) mutable {
    if (start) request.exclusive_start_key = std::move(start);
    return QueryView(request);
  });
}

inline ItemRange Store::ScanAll(ScanRequest request) {
  return ItemRange([this, request = std::move(request)](std::optional<Item> start) mutable {
    if (start) request.exclusive_start_key = std::move(start);
    return ScanView(request);
  });
}

}  // namespace partstore
