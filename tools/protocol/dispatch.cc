// Dispatch: see dispatch.h.
//
// Order of the first checks, as architect/dynalite index.js reproduces DynamoDB: a non-empty body
// that is not JSON is a SerializationException; then an unknown operation is an
// UnknownOperationException; then an empty body is a SerializationException. The
// SerializationException carries no message ({"__type":"com.amazon.coral.service#
// SerializationException"}, HTTP 400). The UnknownOperationException names the operation
// (UnknownOperation below): an empty message broke GUI tools calling a DynamoDB operation
// partstore does not serve (dynamodb-admin answered HTTP 500).
//
// Error bodies: {"__type": <WireErrorFor(code).type>, "message": <text>}, except that DynamoDB
// names the member "Message" in SerializationExceptions that have a text (dynalite
// validations/index.js and test/helpers.js assertSerialization, run against DynamoDB), and omits
// it when the text is empty. ConditionalCheckFailedException carries "Item" when the request
// asked for ReturnValuesOnConditionCheckFailure=ALL_OLD and an item existed. A throttling error
// carries its reasons (capacity_json.h): "ThrottlingReasons" in
// ProvisionedThroughputExceededException and RequestLimitExceeded (botocore's model and the AWS
// SDK for JavaScript v3's schema), "throttlingReasons" in ThrottlingException (the JS v3 schema's
// spelling for that shape). TransactionCanceledException carries "CancellationReasons", one per
// action in action order (transaction_json.h), and names its text "Message" too, as its model
// does (botocore's TransactionCanceledException: Message, CancellationReasons) and as live
// DynamoDB bodies show it (captures in aws/aws-sdk-net#1292, pynamodb/PynamoDB#1144,
// erlcloud/erlcloud#607). (The SDKs read either spelling as the error's message.)
//
// Partstore.<Op> are partstore's extensions: capacity (capacity_json.h) and write sharding
// (sharding_json.h); the server maps the X-Amz-Target Partstore_20261120.<Op> to them.
#include "tools/protocol/dispatch.h"

#include <fmt/format.h>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <array>
#include <type_traits>
#include <utility>

#include "partstore/error_detail.h"
#include "tools/protocol/attribute_value_json.h"
#include "tools/protocol/capacity_json.h"
#include "tools/protocol/errors.h"
#include "tools/protocol/operations_json.h"
#include "tools/protocol/partiql_json.h"
#include "tools/protocol/sharding_json.h"
#include "tools/protocol/table_settings_json.h"
#include "tools/protocol/transaction_json.h"
#include "tools/protocol/transfer_json.h"

namespace partstore::protocol {
namespace {

// The engine behind a Partstore.<Op>, or the error a Store that is not the engine answers.
Result<Database*> EngineOf(const Backend& backend) {
  if (backend.engine == nullptr) {
    return Status(Code::kUnknownOperation,
                  "Unknown operation exception: partstore's extensions (Partstore.<Op>) need the "
                  "engine; this server forwards DynamoDB's API to another endpoint (--upstream)");
  }
  return backend.engine;
}

// Decode -> call -> encode for one operation: DynamoDB's on the Store, partstore's on the engine.
template <typename Request, typename Result_>
Response Run(const Backend& backend, const rapidjson::Value& body,
             Result<Request> (*decode)(const rapidjson::Value&),
             Result<Result_> (Store::*call)(const Request&),
             std::string (*encode)(const Result_&)) {
  Result<Request> request = decode(body);
  if (!request.ok()) return ErrorResponse(request.error());
  Result<Result_> result = (backend.store.*call)(*request);
  if (!result.ok()) return ErrorResponse(result.error());
  return Response{200, encode(*result)};
}
template <typename Request, typename Result_>
Response Run(const Backend& backend, const rapidjson::Value& body,
             Result<Request> (*decode)(const rapidjson::Value&),
             Result<Result_> (Database::*call)(const Request&),
             std::string (*encode)(const Result_&)) {
  Result<Database*> engine = EngineOf(backend);
  if (!engine.ok()) return ErrorResponse(engine.error());
  Result<Request> request = decode(body);
  if (!request.ok()) return ErrorResponse(request.error());
  Result<Result_> result = ((*engine)->*call)(*request);
  if (!result.ok()) return ErrorResponse(result.error());
  return Response{200, encode(*result)};
}

// Decode -> call -> encode, for calls that are not a plain member function of one request (a
// defaulted second parameter) and encoders that echo the request: `call` takes the engine
// (Database&) for partstore's extensions, the Store (Store&) for DynamoDB's operations.
template <typename Request, typename Call, typename Encode>
Response RunWith(const Backend& backend, const rapidjson::Value& body,
                 Result<Request> (*decode)(const rapidjson::Value&), Call call, Encode encode) {
  Database* engine = nullptr;
  if constexpr (std::is_invocable_v<Call, Database&, const Request&>) {
    Result<Database*> found = EngineOf(backend);
    if (!found.ok()) return ErrorResponse(found.error());
    engine = *found;
  }
  Result<Request> request = decode(body);
  if (!request.ok()) return ErrorResponse(request.error());
  auto result = [&] {
    if constexpr (std::is_invocable_v<Call, Database&, const Request&>) {
      return call(*engine, *request);
    } else {
      return call(backend.store, *request);
    }
  }();
  if (!result.ok()) return ErrorResponse(result.error());
  return Response{200, encode(*request, *result)};
}

using Handler = Response (*)(const Backend&, const rapidjson::Value&);

struct Operation {
  std::string_view name;
  Handler handler;
};

// Every operation the engine has, by name.
const std::array<Operation, 56> kOperations = {{
    {"BatchExecuteStatement",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeBatchExecuteStatementRequest, &Store::BatchExecuteStatement,
                  EncodeBatchExecuteStatementResult);
     }},
    {"BatchGetItem",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeBatchGetItemRequest, &Store::BatchGetItem,
                  EncodeBatchGetItemResult);
     }},
    {"BatchWriteItem",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeBatchWriteItemRequest, &Store::BatchWriteItem,
                  EncodeBatchWriteItemResult);
     }},
    {"CreateBackup",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeCreateBackupRequest, &Store::CreateBackup, EncodeCreateBackupResult);
     }},
    {"CreateTable",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeCreateTableRequest, &Store::CreateTable,
                  EncodeCreateTableResult);
     }},
    {"DeleteBackup",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeDeleteBackupRequest, &Store::DeleteBackup, EncodeDeleteBackupResult);
     }},
    {"DeleteItem",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeDeleteItemRequest, &Store::DeleteItem, EncodeDeleteItemResult);
     }},
    {"DeleteTable",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeDeleteTableRequest, &Store::DeleteTable,
                  EncodeDeleteTableResult);
     }},
    {"DescribeBackup",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeDescribeBackupRequest, &Store::DescribeBackup, EncodeDescribeBackupResult);
     }},
    {"DescribeContinuousBackups",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeDescribeContinuousBackupsRequest,
                  &Store::DescribeContinuousBackups, EncodeContinuousBackupsResult);
     }},
    {"DescribeContributorInsights",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeDescribeContributorInsightsRequest,
                  &Store::DescribeContributorInsights, EncodeDescribeContributorInsightsResult);
     }},
    {"DescribeLimits",
     [](const Backend& db, const rapidjson::Value&) -> Response {
       // The account's and a table's throughput quotas (DynamoDB's defaults; the capacity
       // simulation's per-table quota).
       const capacity::CapacityOptions capacity =
           db.engine != nullptr ? db.engine->options().capacity : capacity::CapacityOptions{};
       return {200, fmt::format(R"({{"AccountMaxReadCapacityUnits":{},)"
                                R"("AccountMaxWriteCapacityUnits":{},)"
                                R"("TableMaxReadCapacityUnits":{},"TableMaxWriteCapacityUnits":{}}})",
                                80000, 80000, capacity.on_demand_table_read_quota,
                                capacity.on_demand_table_write_quota)};
     }},
    {"DescribeTable",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeDescribeTableRequest, &Store::DescribeTable,
                  EncodeDescribeTableResult);
     }},
    {"DescribeTimeToLive",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeDescribeTimeToLiveRequest, &Store::DescribeTimeToLive,
                  EncodeDescribeTimeToLiveResult);
     }},
    {"DynamoDBStreams.DescribeStream",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeDescribeStreamRequest, &Store::DescribeStream,
                  EncodeDescribeStreamResult);
     }},
    {"DynamoDBStreams.GetRecords",
     [](const Backend& db, const rapidjson::Value& body) {
       return RunWith(
           db, body, DecodeGetRecordsRequest,
           [](Store& d, const GetRecordsRequest& r) { return d.GetRecords(r); },
           [&db](const GetRecordsRequest&, const GetRecordsResult& result) {
             return EncodeGetRecordsResult(result, db.region);
           });
     }},
    {"DynamoDBStreams.GetShardIterator",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeGetShardIteratorRequest, &Store::GetShardIterator,
                  EncodeGetShardIteratorResult);
     }},
    {"DynamoDBStreams.ListStreams",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeListStreamsRequest, &Store::ListStreams,
                  EncodeListStreamsResult);
     }},
    {"ExecuteStatement",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeExecuteStatementRequest, &Store::ExecuteStatement,
                  EncodeExecuteStatementResult);
     }},
    {"ExecuteTransaction",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeExecuteTransactionRequest, &Store::ExecuteTransaction,
                  EncodeExecuteTransactionResult);
     }},
    {"GetItem",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeGetItemRequest, &Store::GetItemView, EncodeGetItemResult);
     }},
    {"ListContributorInsights",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeListContributorInsightsRequest,
                  &Store::ListContributorInsights, EncodeListContributorInsightsResult);
     }},
    {"ListTagsOfResource",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeListTagsOfResourceRequest, &Store::ListTagsOfResource,
                  EncodeListTagsOfResourceResult);
     }},
    {"ListBackups",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeListBackupsRequest, &Store::ListBackups, EncodeListBackupsResult);
     }},
    {"ListTables",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeListTablesRequest, &Store::ListTables, EncodeListTablesResult);
     }},
    {"Partstore.AdvanceClock",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeAdvanceClockRequest, &Database::AdvanceClock,
                  EncodeAdvanceClockResult);
     }},
    {"Partstore.CreateSnapshot",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeCreateSnapshotRequest, &Database::CreateSnapshot,
                  EncodeSnapshotInfo);
     }},
    {"Partstore.DeleteShardingPolicy",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeDeleteShardingPolicyRequest, &Database::DeleteShardingPolicy,
                  EncodeDeleteShardingPolicyResult);
     }},
    {"Partstore.DescribeMemory",
     [](const Backend& db, const rapidjson::Value& body) {
       return RunWith(
           db, body, DecodeDescribeMemoryRequest,
           [](Database& d, const DescribeMemoryRequest&) {
             return Result<DescribeMemoryResult>(d.DescribeMemory());
           },
           [](const DescribeMemoryRequest&, const DescribeMemoryResult& result) {
             return EncodeDescribeMemoryResult(result);
           });
     }},
    {"Partstore.DescribePartitions",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeDescribePartitionsRequest, &Database::DescribePartitions,
                  EncodeDescribePartitionsResult);
     }},
    {"Partstore.DescribeShardingPolicies",
     [](const Backend& db, const rapidjson::Value& body) {
       return RunWith(
           db, body, DecodeDescribeShardingPoliciesRequest,
           [](Database& d, const DescribeShardingPoliciesRequest& r) {
             return d.DescribeShardingPolicies(r);
           },
           [](const DescribeShardingPoliciesRequest& r, const DescribeShardingPoliciesResult& res) {
             return EncodeDescribeShardingPoliciesResult(r.table_name, res);
           });
     }},
    {"Partstore.GetContributorInsights",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeGetContributorInsightsRequest, &Database::GetContributorInsights,
                  EncodeGetContributorInsightsResult);
     }},
    {"Partstore.GetMetrics",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeGetMetricsRequest, &Database::GetMetrics, EncodeGetMetricsResult);
     }},
    {"Partstore.PutShardingPolicy",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodePutShardingPolicyRequest, &Database::PutShardingPolicy,
                  EncodePutShardingPolicyResult);
     }},
    {"Partstore.ShardedAggregate",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeShardedAggregateRequest, &Database::ShardedAggregate,
                  EncodeShardedAggregateResult);
     }},
    {"Partstore.ShardedBatchWriteItem",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeBatchWriteItemRequest, &Database::ShardedBatchWriteItem,
                  EncodeShardedBatchWriteItemResult);
     }},
    {"Partstore.ShardedDeleteItem",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeDeleteItemRequest, &Database::ShardedDeleteItem,
                  EncodeShardedDeleteItemResult);
     }},
    {"Partstore.ShardedGetItem",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeGetItemRequest, &Database::ShardedGetItem,
                  EncodeShardedGetItemResult);
     }},
    {"Partstore.ShardedPutItem",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodePutItemRequest, &Database::ShardedPutItem,
                  EncodeShardedPutItemResult);
     }},
    {"Partstore.ShardedQuery",
     [](const Backend& db, const rapidjson::Value& body) {
       return RunWith(
           db, body, DecodeQueryRequest,
           [](Database& d, const QueryRequest& r) { return d.ShardedQuery(r); },
           [](const QueryRequest&, const ShardedQueryResult& res) {
             return EncodeShardedQueryResult(res);
           });
     }},
    {"Partstore.ShardedTransactWriteItems",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeTransactWriteItemsRequest, &Database::ShardedTransactWriteItems,
                  EncodeTransactWriteItemsResult);
     }},
    {"Partstore.ShardedUpdateItem",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeUpdateItemRequest, &Database::ShardedUpdateItem,
                  EncodeShardedUpdateItemResult);
     }},
    {"PutItem",
     [](const Backend& db, const rapidjson::Value& body) {
       // For the engine, the item straight from its JSON into the engine's form, when the
       // encoder takes it; any other store takes the tree.
       StoredItem item;
       Result<PutItemRequest> request =
           DecodePutItemRequestStored(body, db.engine != nullptr ? &item : nullptr);
       if (!request.ok()) return ErrorResponse(request.error());
       Result<PutItemResult> result =
           item ? db.store.PutStoredItem(*request, std::move(item)) : db.store.PutItem(*request);
       if (!result.ok()) return ErrorResponse(result.error());
       return Response{200, EncodePutItemResult(*result)};
     }},
    {"Query",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeQueryRequest, &Store::QueryView, EncodeReadPageResult);
     }},
    {"RestoreTableFromBackup",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeRestoreTableFromBackupRequest, &Store::RestoreTableFromBackup, EncodeRestoreTableFromBackupResult);
     }},
    {"RestoreTableToPointInTime",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeRestoreTableToPointInTimeRequest,
                  &Store::RestoreTableToPointInTime, EncodeRestoreTableToPointInTimeResult);
     }},
    {"Scan",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeScanRequest, &Store::ScanView, EncodeReadPageResult);
     }},
    {"TagResource",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeTagResourceRequest, &Store::TagResource,
                  EncodeTagResourceResult);
     }},
    {"TransactGetItems",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeTransactGetItemsRequest, &Store::TransactGetItems,
                  EncodeTransactGetItemsResult);
     }},
    {"TransactWriteItems",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeTransactWriteItemsRequest, &Store::TransactWriteItems,
                  EncodeTransactWriteItemsResult);
     }},
    {"UntagResource",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeUntagResourceRequest, &Store::UntagResource,
                  EncodeTagResourceResult);
     }},
    {"UpdateContributorInsights",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeUpdateContributorInsightsRequest,
                  &Store::UpdateContributorInsights, EncodeUpdateContributorInsightsResult);
     }},
    {"UpdateContinuousBackups",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeUpdateContinuousBackupsRequest,
                  &Store::UpdateContinuousBackups, EncodeContinuousBackupsResult);
     }},
    {"UpdateItem",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeUpdateItemRequest, &Store::UpdateItem, EncodeUpdateItemResult);
     }},
    {"UpdateTable",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeUpdateTableRequest, &Store::UpdateTable,
                  EncodeUpdateTableResult);
     }},
    {"UpdateTimeToLive",
     [](const Backend& db, const rapidjson::Value& body) {
       return Run(db, body, DecodeUpdateTimeToLiveRequest, &Store::UpdateTimeToLive,
                  EncodeUpdateTimeToLiveResult);
     }},
}};

Handler FindHandler(std::string_view operation) {
  for (const Operation& op : kOperations) {
    if (op.name == operation) return op.handler;
  }
  return nullptr;
}

// DynamoDB's operations (botocore's dynamodb model, 2026) that partstore does not serve, sorted:
// global tables, Kinesis streaming destinations, resource policies, replica auto scaling.
constexpr std::string_view kUnservedDynamoDbOperations[] = {
    "CreateGlobalTable",
    "DeleteResourcePolicy",
    "DescribeGlobalTable",
    "DescribeGlobalTableSettings",
    "DescribeKinesisStreamingDestination",
    "DescribeTableReplicaAutoScaling",
    "DisableKinesisStreamingDestination",
    "EnableKinesisStreamingDestination",
    "GetResourcePolicy",
    "ListGlobalTables",
    "PutResourcePolicy",
    "UpdateGlobalTable",
    "UpdateGlobalTableSettings",
    "UpdateKinesisStreamingDestination",
    "UpdateTableReplicaAutoScaling",
};

// DynamoDB's UnknownOperationException text ("Unknown operation exception", as the SDKs report
// it from DynamoDB: boto/boto3#1542, aws/aws-toolkit-jetbrains#2956), naming the operation.
Status UnknownOperation(std::string_view operation) {
  if (operation.empty()) return Status(Code::kUnknownOperation, "");
  // The name is echoed only when it looks like one (the target header may hold any bytes, and
  // the answer must stay valid UTF-8 JSON: http_request_fuzz).
  const bool name_like =
      operation.size() <= 128 && std::all_of(operation.begin(), operation.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '.' || c == '_' || c == '-';
      });
  if (!name_like) return Status(Code::kUnknownOperation, "Unknown operation exception");
  const bool dynamodb = std::binary_search(std::begin(kUnservedDynamoDbOperations),
                                           std::end(kUnservedDynamoDbOperations), operation);
  return Status(Code::kUnknownOperation,
                fmt::format("Unknown operation exception: {}{}", operation,
                            dynamodb ? " is a DynamoDB operation partstore does not serve (the "
                                       "README lists the operations it serves)"
                                     : ""));
}

}  // namespace

Response ErrorResponse(const Status& status) {
  const WireError wire = WireErrorFor(status.code());
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  writer.StartObject();
  writer.Key("__type");
  writer.String(wire.type.data(), static_cast<rapidjson::SizeType>(wire.type.size()));
  const std::string_view message = status.message();
  if (!message.empty()) {
    const bool capitalized =
        status.code() == Code::kSerialization || status.code() == Code::kTransactionCanceled;
    writer.Key(capitalized ? "Message" : "message");
    writer.String(message.data(), static_cast<rapidjson::SizeType>(message.size()));
  }
  if (const ErrorDetail* detail = status.detail(); detail != nullptr) {
    if (detail->item) {
      writer.Key("Item");
      WriteItem(*detail->item, writer);
    }
    if (!detail->throttling_reasons.empty()) {
      WriteThrottlingReasons(
          status.code() == Code::kThrottling ? "throttlingReasons" : "ThrottlingReasons",
          detail->throttling_reasons, writer);
    }
    if (!detail->cancellation_reasons.empty()) {
      WriteCancellationReasons(detail->cancellation_reasons, writer);
    }
  }
  writer.EndObject();
  return Response{wire.http_status, std::string(buffer.GetString(), buffer.GetSize())};
}

bool IsOperation(std::string_view operation) {
  return operation == "DescribeEndpoints" || IsTransferOperation(operation) ||
         FindHandler(operation) != nullptr;
}

Response Dispatch(Database& db, std::string_view operation, std::string_view body,
                  std::string_view endpoint, transfer::Transfers* transfers) {
  return Dispatch(Backend{db, &db, db.options().region}, operation, body, endpoint, transfers);
}

Response Dispatch(const Backend& db, std::string_view operation, std::string_view body,
                  std::string_view endpoint, transfer::Transfers* transfers) {
  InsituJson json;
  if (!body.empty()) {
    Status parsed = json.Parse(body);
    if (!parsed.ok()) return ErrorResponse(parsed);
  }
  const rapidjson::Value& document = json.root();
  if (operation == "DescribeEndpoints") {
    // DynamoDB's answer names one endpoint, the regional one, to be cached for a day; here the
    // host the client addressed, so that the address works for it.
    if (body.empty() || !document.IsObject()) return ErrorResponse(Status::Serialization(""));
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
    writer.StartObject();
    writer.Key("Endpoints");
    writer.StartArray();
    writer.StartObject();
    writer.Key("Address");
    writer.String(endpoint.data(), static_cast<rapidjson::SizeType>(endpoint.size()));
    writer.Key("CachePeriodInMinutes");
    writer.Int(1440);
    writer.EndObject();
    writer.EndArray();
    writer.EndObject();
    return {200, std::string(buffer.GetString(), buffer.GetSize())};
  }
  Handler handler = FindHandler(operation);
  // (The six export and import operations are looked up only when no engine operation matched:
  // the data plane's requests pay nothing for them.)
  const bool transfer = handler == nullptr && IsTransferOperation(operation);
  if (handler == nullptr && !transfer) {
    return ErrorResponse(UnknownOperation(operation));
  }
  if (body.empty()) return ErrorResponse(Status::Serialization(""));
  if (transfer) return DispatchTransfer(transfers, operation, document);
  return handler(db, document);
}

}  // namespace partstore::protocol
