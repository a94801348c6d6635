// Every operation's request decoder and result encoder: DynamoDB JSON 1.0 body <-> the engine's
// typed request and result structs (shard/*_requests.h). Dispatch (dispatch.h) strings them
// together; tests and tools may call them directly.
//
// Decoders take the parsed body (ParseJson) and apply request_json.h's three steps: shape
// (SerializationException), model constraints ("N validation errors detected: ..."), then values.
// They check nothing the engine checks semantically (key schema, expressions, ReturnValues per
// operation, ...), with two exceptions made only for DynamoDB's order of messages: the
// expression / non-expression mixing rule (expr::CheckParameterMixing) runs before the request's
// AttributeValues are validated, and ExclusiveStartKey value errors carry DynamoDB's "The provided
// starting key is invalid: " prefix.
//
// Encoders write DynamoDB's response shapes: absent members are omitted (a GetItem that finds no
// item answers {}), ConsumedCapacity appears only when requested (CapacityUnits as a JSON number,
// 1.0 / 0.5), Query/Scan with Select=COUNT has no Items, BatchGetItem always has Responses and
// UnprocessedKeys, BatchWriteItem always has UnprocessedItems. A TableDescription has
// LocalSecondaryIndexes / GlobalSecondaryIndexes only when the table has such an index; a GSI's
// ProvisionedThroughput is zeros on an on-demand table; a Projection has NonKeyAttributes only
// for INCLUDE.
//
// Thread safety: free functions; thread-safe for distinct arguments.
#pragma once

#include <rapidjson/document.h>

#include <string>

#include "partstore/backups.h"
#include "partstore/batch_requests.h"
#include "partstore/consumed_capacity.h"
#include "partstore/continuous_backups.h"
#include "partstore/item_requests.h"
#include "partstore/memory.h"
#include "partstore/read_requests.h"
#include "partstore/snapshot.h"
#include "partstore/status.h"
#include "partstore/streams.h"
#include "partstore/table_requests.h"
#include "partstore/time_to_live.h"
#include "tools/protocol/attribute_value_json.h"

namespace partstore::protocol {

// Each Encode*Result below that has a Write*ResultMembers twin is StartObject + that writer +
// EndObject: the twin writes the response's members into an object the caller has started, so
// that partstore's extensions can answer with DynamoDB's response plus members of their own
// (sharding_json.h).

// ---- Items (item_json.cc) ----
Result<PutItemRequest> DecodePutItemRequest(const rapidjson::Value& body);
// The same with the item encoded straight from its JSON into *stored (EncodeItemJson) and
// request.item left empty; with `stored` null, or when the encoder declines, the item is decoded as
// a tree into request.item (and its errors reported) and *stored is left empty.
Result<PutItemRequest> DecodePutItemRequestStored(const rapidjson::Value& body, StoredItem* stored);
Result<GetItemRequest> DecodeGetItemRequest(const rapidjson::Value& body);
Result<UpdateItemRequest> DecodeUpdateItemRequest(const rapidjson::Value& body);
Result<DeleteItemRequest> DecodeDeleteItemRequest(const rapidjson::Value& body);
std::string EncodePutItemResult(const PutItemResult& result);
std::string EncodeGetItemResult(const GetItemResult& result);
// The same straight from the engine's stored items (no tree in between): what the server sends.
std::string EncodeGetItemResult(const GetItemViewResult& result);
std::string EncodeUpdateItemResult(const UpdateItemResult& result);
std::string EncodeDeleteItemResult(const DeleteItemResult& result);
void WritePutItemResultMembers(const PutItemResult& result, JsonWriter& writer);
void WriteGetItemResultMembers(const GetItemResult& result, JsonWriter& writer);
void WriteGetItemResultMembers(const GetItemViewResult& result, JsonWriter& writer);
void WriteUpdateItemResultMembers(const UpdateItemResult& result, JsonWriter& writer);
void WriteDeleteItemResultMembers(const DeleteItemResult& result, JsonWriter& writer);

// ---- Query and Scan (read_json.cc) ----
Result<QueryRequest> DecodeQueryRequest(const rapidjson::Value& body);
Result<ScanRequest> DecodeScanRequest(const rapidjson::Value& body);
std::string EncodeReadPageResult(const ReadPageResult& result);  // Query and Scan alike
std::string EncodeReadPageResult(const ReadPageViewResult& result);
void WriteReadPageResultMembers(const ReadPageResult& result, JsonWriter& writer);
void WriteReadPageResultMembers(const ReadPageViewResult& result, JsonWriter& writer);

// ---- Tables (table_json.cc) ----
Result<CreateTableRequest> DecodeCreateTableRequest(const rapidjson::Value& body);
Result<DeleteTableRequest> DecodeDeleteTableRequest(const rapidjson::Value& body);
Result<DescribeTableRequest> DecodeDescribeTableRequest(const rapidjson::Value& body);
Result<ListTablesRequest> DecodeListTablesRequest(const rapidjson::Value& body);
Result<UpdateTableRequest> DecodeUpdateTableRequest(const rapidjson::Value& body);
std::string EncodeCreateTableResult(const CreateTableResult& result);
std::string EncodeDeleteTableResult(const DeleteTableResult& result);
std::string EncodeDescribeTableResult(const DescribeTableResult& result);
std::string EncodeListTablesResult(const ListTablesResult& result);
std::string EncodeUpdateTableResult(const UpdateTableResult& result);
// One TableDescription object at the writer's position. `deleting`: as DeleteTable answers it,
// without what DynamoDB leaves out of a deleting table's description (table_json.cc).
void WriteTableDescription(const TableDescription& table, JsonWriter& writer,
                           bool deleting = false);
// A KeySchema array, and the "AttributeDefinitions" member (requests and descriptions alike).
void WriteKeySchema(const std::vector<KeySchemaElement>& key_schema, JsonWriter& writer);
void WriteAttributeDefinitions(const std::vector<AttributeDefinition>& definitions,
                               JsonWriter& writer);

// ---- Time to Live (time_to_live_json.cc) ----
Result<UpdateTimeToLiveRequest> DecodeUpdateTimeToLiveRequest(const rapidjson::Value& body);
Result<DescribeTimeToLiveRequest> DecodeDescribeTimeToLiveRequest(const rapidjson::Value& body);
std::string EncodeUpdateTimeToLiveResult(const UpdateTimeToLiveResult& result);
std::string EncodeDescribeTimeToLiveResult(const DescribeTimeToLiveResult& result);

// ---- Streams (stream_json.cc): DynamoDBStreams.<Op> ----
Result<ListStreamsRequest> DecodeListStreamsRequest(const rapidjson::Value& body);
Result<DescribeStreamRequest> DecodeDescribeStreamRequest(const rapidjson::Value& body);
Result<GetShardIteratorRequest> DecodeGetShardIteratorRequest(const rapidjson::Value& body);
Result<GetRecordsRequest> DecodeGetRecordsRequest(const rapidjson::Value& body);
std::string EncodeListStreamsResult(const ListStreamsResult& result);
std::string EncodeDescribeStreamResult(const DescribeStreamResult& result);
std::string EncodeGetShardIteratorResult(const GetShardIteratorResult& result);
// `region`: each record's awsRegion (the database's).
std::string EncodeGetRecordsResult(const GetRecordsResult& result, std::string_view region);

// ---- Snapshots (snapshot_json.cc): Partstore.CreateSnapshot ----
Result<CreateSnapshotRequest> DecodeCreateSnapshotRequest(const rapidjson::Value& body);
std::string EncodeSnapshotInfo(const SnapshotInfo& info);

// ---- On-demand backups (backup_json.cc) ----
Result<CreateBackupRequest> DecodeCreateBackupRequest(const rapidjson::Value& body);
Result<DescribeBackupRequest> DecodeDescribeBackupRequest(const rapidjson::Value& body);
Result<ListBackupsRequest> DecodeListBackupsRequest(const rapidjson::Value& body);
Result<DeleteBackupRequest> DecodeDeleteBackupRequest(const rapidjson::Value& body);
Result<RestoreTableFromBackupRequest> DecodeRestoreTableFromBackupRequest(
    const rapidjson::Value& body);
std::string EncodeCreateBackupResult(const CreateBackupResult& result);
std::string EncodeDescribeBackupResult(const DescribeBackupResult& result);
std::string EncodeListBackupsResult(const ListBackupsResult& result);
std::string EncodeDeleteBackupResult(const DeleteBackupResult& result);
std::string EncodeRestoreTableFromBackupResult(const RestoreTableFromBackupResult& result);
// RestoreTableFromBackup's overrides share CreateTable's shapes (table_json.cc): each member
// null when absent; their model constraints, then the values.
struct TableOverrideMembers {
  const rapidjson::Value* billing_mode = nullptr;
  const rapidjson::Value* provisioned_throughput = nullptr;
  const rapidjson::Value* local_secondary_indexes = nullptr;
  const rapidjson::Value* global_secondary_indexes = nullptr;
};
class Constraints;
void TableOverrideConstraints(Constraints& c, const TableOverrideMembers& members);
void DecodeTableOverrides(const TableOverrideMembers& members, RestoreTableFromBackupRequest* out);
void DecodeTableOverrides(const TableOverrideMembers& members,
                          RestoreTableToPointInTimeRequest* out);

// ---- Continuous backups (continuous_backups_json.cc) ----
Result<UpdateContinuousBackupsRequest> DecodeUpdateContinuousBackupsRequest(
    const rapidjson::Value& body);
Result<DescribeContinuousBackupsRequest> DecodeDescribeContinuousBackupsRequest(
    const rapidjson::Value& body);
std::string EncodeContinuousBackupsResult(const ContinuousBackupsResult& result);
Result<RestoreTableToPointInTimeRequest> DecodeRestoreTableToPointInTimeRequest(
    const rapidjson::Value& body);
std::string EncodeRestoreTableToPointInTimeResult(const RestoreTableToPointInTimeResult& result);

// ---- Memory (memory_json.cc): Partstore.DescribeMemory ----
Result<DescribeMemoryRequest> DecodeDescribeMemoryRequest(const rapidjson::Value& body);
std::string EncodeDescribeMemoryResult(const DescribeMemoryResult& result);

// ---- Batches (batch_json.cc) ----
Result<BatchGetItemRequest> DecodeBatchGetItemRequest(const rapidjson::Value& body);
Result<BatchWriteItemRequest> DecodeBatchWriteItemRequest(const rapidjson::Value& body);
std::string EncodeBatchGetItemResult(const BatchGetItemResult& result);
std::string EncodeBatchWriteItemResult(const BatchWriteItemResult& result);
void WriteBatchWriteItemResultMembers(const BatchWriteItemResult& result, JsonWriter& writer);

// ---- ConsumedCapacity (consumed_capacity_json.cc) ----
// One ConsumedCapacity object at the writer's position: {"TableName", "CapacityUnits"} and, for
// INDEXES, "Table", "GlobalSecondaryIndexes", "LocalSecondaryIndexes" ({"CapacityUnits": x}).
void WriteConsumedCapacity(const ConsumedCapacity& capacity, JsonWriter& writer);
// The multi-table form: "ConsumedCapacity": [ {...}, ... ], nothing when the list is empty
// (BatchGetItem, BatchWriteItem, TransactWriteItems, TransactGetItems).
void WriteConsumedCapacityList(const std::vector<ConsumedCapacity>& capacities, JsonWriter& writer);
// {"ItemCollectionKey": {...}, "SizeEstimateRangeGB": [lo, hi]}.
void WriteItemCollectionMetrics(const ItemCollectionMetrics& metrics, JsonWriter& writer);
// The multi-table form: "ItemCollectionMetrics": {table: [{...}, ...]}, nothing when empty
// (BatchWriteItem, TransactWriteItems).
void WriteItemCollectionMetricsByTable(
    const std::vector<std::pair<std::string, std::vector<ItemCollectionMetrics>>>& tables,
    JsonWriter& writer);

}  // namespace partstore::protocol
