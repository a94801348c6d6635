// DynamoDB Streams: a table's change feed, as DynamoDB writes it (docs/reference.md, Streams, has
// the rules and their sources).
//
//   db.CreateTable({... .stream_specification = StreamSpecification{
//                           .stream_enabled = true, .stream_view_type =
//                           StreamViewType::kNewImage}});
//   // pull, as the dynamodbstreams API: DescribeStream -> GetShardIterator -> GetRecords, or
//   // a ShardReader per shard (partstore/shard_reader.h)
//   // push: partstore/stream_subscription.h
//
// What gets a record: every write that changes an item (PutItem, UpdateItem, DeleteItem, each
// item of a BatchWriteItem or a transaction, a Time to Live deletion, an eviction). A write that
// changes nothing (a put of an identical item, an update that sets what is there, a delete of a
// missing item) writes none, as DynamoDB. INSERT: the item did not exist; MODIFY: it did and
// changed; REMOVE: it was deleted.
//
// Shards follow the table's partitions: each partition owns an open shard; when a simulated
// partition splits (capacity simulation on) its shard closes and two children open, each naming it
// as ParentShardId. Without capacity simulation the table keeps its initial partitions (4 for
// on-demand) and their shards. A key's records are all in one shard until its partition splits,
// then in a child: reading a shard to its end before its children gives every key's records in
// write order. Records of different keys are ordered only within a shard.
//
// Retention: 24 hours on the database clock (StreamOptions); older records are trimmed, and so are
// the oldest once a stream holds more than StreamOptions::max_bytes. A stream of a table whose
// stream was disabled, or that was deleted, stays readable until its last record is trimmed.
//
// Thread safety: value types.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "partstore/item.h"
#include "partstore/key.h"
#include "partstore/stored_item.h"
#include "partstore/table_requests.h"

namespace partstore {

struct StreamOptions {
  // How long a record stays readable (DynamoDB: 24 hours). 60 .. 10 years.
  double retention_seconds = 24 * 3600;
  // The most a stream keeps (records' SizeBytes plus a fixed 64 bytes each); past it the oldest
  // records are trimmed first. DynamoDB has no such cap; it bounds what a busy table holds in
  // memory. At least 1 MiB.
  uint64_t max_bytes = uint64_t{256} << 20;
  // How long a shard iterator stays valid (DynamoDB: 15 minutes).
  double iterator_lifetime_seconds = 15 * 60;
};

// StreamViewType and StreamSpecification (CreateTable's, UpdateTable's):
// partstore/table_requests.h.
std::string_view StreamViewTypeName(StreamViewType type);
std::optional<StreamViewType> ParseStreamViewType(std::string_view name);

enum class StreamStatus : uint8_t { kEnabling, kEnabled, kDisabling, kDisabled };
std::string_view StreamStatusName(StreamStatus status);

enum class StreamEventName : uint8_t { kInsert, kModify, kRemove };
std::string_view StreamEventNameText(StreamEventName name);  // "INSERT", "MODIFY", "REMOVE"

// Who made a change other than a client: DynamoDB's Time to Live (userIdentity {"type":
// "Service", "principalId": "dynamodb.amazonaws.com"}), or partstore's memory limit evicting the
// item (partstore/memory.h; principalId "partstore.eviction").
enum class StreamRemover : uint8_t { kClient, kTimeToLive, kEviction };

// One record (GetRecords' Records[]: the record and its StreamRecord "dynamodb" member).
struct StreamRecord {
  std::string event_id{};  // unique per record
  StreamEventName event_name = StreamEventName::kInsert;
  StreamRemover remover = StreamRemover::kClient;
  std::string sequence_number{};              // decimal digits; increasing within a shard
  double approximate_creation_date_time = 0;  // Unix seconds (database clock), rounded down
  Item keys{};
  // Per the view type: absent in KEYS_ONLY, old_image absent for INSERT, new_image for REMOVE.
  // Buffers shared with the table (no copy).
  std::optional<StoredItem> new_image{};
  std::optional<StoredItem> old_image{};
  int64_t size_bytes = 0;  // the keys and images the record carries (DynamoDB's item sizes)
  StreamViewType stream_view_type = StreamViewType::kKeysOnly;
};

struct StreamSummary {  // ListStreams' Streams[]
  std::string stream_arn{};
  std::string table_name{};
  std::string stream_label{};
};

struct ListStreamsRequest {
  std::optional<std::string> table_name{};
  std::optional<int32_t> limit{};  // 1..100; absent: 100
  std::optional<std::string> exclusive_start_stream_arn{};
};
struct ListStreamsResult {
  std::vector<StreamSummary> streams{};
  std::optional<std::string> last_evaluated_stream_arn{};
};

struct SequenceNumberRange {
  std::string starting_sequence_number{};
  std::optional<std::string> ending_sequence_number{};  // present once the shard is closed
};
struct StreamShard {
  std::string shard_id{};
  std::optional<std::string> parent_shard_id{};
  SequenceNumberRange sequence_number_range{};
};

// DescribeStream's ShardFilter (in DynamoDB's API since July 2025): with CHILD_SHARDS, only the
// shards whose parent is `shard_id` (the children a split of it opened), as a consumer asks once it
// has read a closed shard to its end. An unknown parent has no children (no error).
enum class ShardFilterType : uint8_t { kChildShards };
std::string_view ShardFilterTypeName(ShardFilterType type);  // "CHILD_SHARDS"
std::optional<ShardFilterType> ParseShardFilterType(std::string_view name);
struct ShardFilter {
  ShardFilterType type = ShardFilterType::kChildShards;
  std::string shard_id{};  // the parent's, 28..65 characters
};

struct DescribeStreamRequest {
  std::string stream_arn{};
  std::optional<int32_t> limit{};  // shards per page, 1..100; absent: 100
  // Paging: the shards after this one (within the filter's, with a filter).
  std::optional<std::string> exclusive_start_shard_id{};
  std::optional<ShardFilter> shard_filter{};
};
struct StreamDescription {
  std::string stream_arn{};
  std::string stream_label{};
  StreamStatus stream_status = StreamStatus::kEnabled;
  StreamViewType stream_view_type = StreamViewType::kKeysOnly;
  double creation_request_date_time = 0;  // Unix seconds
  std::string table_name{};
  std::vector<KeySchemaElement> key_schema{};
  std::vector<StreamShard> shards{};  // oldest first; parents before their children
  std::optional<std::string> last_evaluated_shard_id{};
};
struct DescribeStreamResult {
  StreamDescription stream_description{};
};

enum class ShardIteratorType : uint8_t {
  kTrimHorizon,          // the oldest record still kept
  kLatest,               // after the newest record: only records written from now on
  kAtSequenceNumber,     // at sequence_number
  kAfterSequenceNumber,  // just after it
};
std::string_view ShardIteratorTypeName(ShardIteratorType type);
std::optional<ShardIteratorType> ParseShardIteratorType(std::string_view name);

struct GetShardIteratorRequest {
  std::string stream_arn{};
  std::string shard_id{};
  ShardIteratorType shard_iterator_type = ShardIteratorType::kTrimHorizon;
  std::optional<std::string> sequence_number{};  // AT_ / AFTER_SEQUENCE_NUMBER only
};
struct GetShardIteratorResult {
  std::string shard_iterator{};
};

struct GetRecordsRequest {
  std::string shard_iterator{};
  std::optional<int32_t> limit{};  // 1..1000; absent: 1000. A page also ends at 1 MB.
};
struct GetRecordsResult {
  std::vector<StreamRecord> records{};
  // Absent once a closed shard has been read to its end.
  std::optional<std::string> next_shard_iterator{};
};

}  // namespace partstore
