// Dispatch: one DynamoDB JSON 1.0 request in, one response out. The single place where an
// operation name and a JSON body become a typed engine call and back; `partstore run` and
// `partstore serve` both go through it, so they answer byte for byte alike.
//
//   Response r = Dispatch(db, "PutItem", R"({"TableName":"T","Item":{...}})");
//   r.http_status  200, or the error's status (errors.h)
//   r.body         the response body, or the error body {"__type": ..., "message": ...} plus the
//                  error's extra members (e.g. "Item" for ConditionalCheckFailedException,
//                  "ThrottlingReasons" for ProvisionedThroughputExceededException,
//                  "CancellationReasons" for TransactionCanceledException)
//
// Order of checks, as DynamoDB (architect/dynalite index.js): a non-empty body that is not JSON
// (SerializationException, no message); unknown operation (UnknownOperationException, no
// message); an empty body (SerializationException); a member of the wrong JSON type
// (SerializationException); model constraints ("N validation errors detected: ..."); then the
// engine's own validation and the operation (operations_json.h has the details).
//
// Thread safety: safe for concurrent calls (the Database, and every Store, is).
#pragma once

#include <string>
#include <string_view>

#include "partstore/database.h"

namespace partstore::transfer {
class Transfers;
}  // namespace partstore::transfer

namespace partstore::protocol {

// What Dispatch answers from: DynamoDB's operations from `store`; partstore's extensions
// (Partstore.<Op>) and the capacity simulation's quotas (DescribeLimits) from `engine`, when the
// store is the engine; `region` names the region in stream records (GetRecords' awsRegion).
// `partstore serve --upstream` dispatches to a cache in front of another endpoint: no engine,
// so Partstore.<Op> answers UnknownOperationException saying why.
struct Backend {
  Store& store;
  Database* engine = nullptr;
  std::string_view region = "us-east-1";
};

struct Response {
  int http_status = 200;
  std::string body;
};

// `operation` is the part of X-Amz-Target after "DynamoDB_20120810.", e.g. "GetItem" (DynamoDB's
// operations: BatchExecuteStatement, BatchGetItem, BatchWriteItem, CreateBackup, CreateTable,
// DeleteBackup, DeleteItem, DeleteTable, DescribeBackup, DescribeContinuousBackups,
// DescribeContributorInsights, DescribeEndpoints, DescribeTable, DescribeTimeToLive,
// ExecuteStatement, ExecuteTransaction (PartiQL: partiql_json.h), GetItem, ListBackups, ListTables,
// PutItem, Query, RestoreTableFromBackup, RestoreTableToPointInTime, Scan, TransactGetItems,
// TransactWriteItems, UpdateContinuousBackups, UpdateContributorInsights, UpdateItem,
// UpdateTable, UpdateTimeToLive, and the exports and imports below), or "Partstore.<Op>" for partstore's extensions:
// CreateSnapshot (snapshot_json.cc), capacity (AdvanceClock, DescribePartitions, GetMetrics,
// GetContributorInsights; capacity_json.h) and write sharding (PutShardingPolicy,
// DeleteShardingPolicy, DescribeShardingPolicies, ShardedPutItem, ShardedGetItem,
// ShardedUpdateItem, ShardedDeleteItem, ShardedBatchWriteItem, ShardedQuery, ShardedAggregate;
// sharding_json.h; ShardedTransactWriteItems, TransactWriteItems' shapes: transaction_json.h).
// `endpoint`: the host (and port) the client addressed, which DescribeEndpoints answers with.
// `transfers`: the exports and imports (ExportTableToPointInTime, DescribeExport, ListExports,
// ImportTable, DescribeImport, ListImports; tools/protocol/transfer_json.h); null: those answer
// a ValidationException naming --s3-dir.
Response Dispatch(Database& db, std::string_view operation, std::string_view body,
                  std::string_view endpoint = "localhost:8000",
                  transfer::Transfers* transfers = nullptr);

Response Dispatch(const Backend& backend, std::string_view operation, std::string_view body,
                  std::string_view endpoint = "localhost:8000",
                  transfer::Transfers* transfers = nullptr);

// Whether Dispatch knows `operation` (a name it would not answer with UnknownOperationException).
bool IsOperation(std::string_view operation);

// The error body DynamoDB sends for `status` (REQUIRES: !status.ok()), with its HTTP status.
Response ErrorResponse(const Status& status);

}  // namespace partstore::protocol
