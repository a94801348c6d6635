// The write-sharding operations' requests and results (partstore's extensions, Partstore.<Op> on
// the wire; Database methods in partstore/database.h).
//
// The sharded data-plane operations take DynamoDB's own request for the operation, written with
// the *logical* key (the key as it would be unsharded). When no policy covers the key, they run
// the plain operation unchanged. Items they return are presented as unsharded: the sharded key
// attributes carry their logical values and the logical key attributes are left out.
//
// For a policy calculated from a non-key attribute, the Key of ShardedGetItem / UpdateItem /
// DeleteItem (and of deletes in ShardedBatchWriteItem) carries that attribute too: it picks the
// shard and is not part of the physical key.
//
// Thread safety: value types.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "partstore/batch_requests.h"
#include "partstore/consumed_capacity.h"
#include "partstore/item_requests.h"
#include "partstore/number.h"
#include "partstore/read_requests.h"
#include "partstore/sharding_policy.h"

namespace partstore {

struct PutShardingPolicyRequest {
  std::string table_name{};
  sharding::ShardingPolicy policy{};
};
struct PutShardingPolicyResult {
  sharding::ShardingPolicy policy{};  // as stored, defaults filled in
};

struct DeleteShardingPolicyRequest {
  std::string table_name{};
  std::optional<std::string> index_name{};
  std::string key{};
  sharding::KeyMatch match = sharding::KeyMatch::kExact;
};
struct DeleteShardingPolicyResult {
  sharding::ShardingPolicy policy{};  // the policy removed
};

struct DescribeShardingPoliciesRequest {
  std::string table_name{};
};
struct DescribeShardingPoliciesResult {
  std::vector<sharding::ShardingPolicy> policies{};  // in the order first set
};

// Where a sharded single-item operation went.
struct ShardUse {
  bool sharded = false;            // a policy covered the key
  int32_t shards_touched = 1;      // physical keys read or written (N for random-suffix reads)
  std::optional<int32_t> shard{};  // the one shard used, when exactly one
};

struct ShardedPutItemResult {
  PutItemResult result{};
  ShardUse shards{};
};
struct ShardedGetItemResult {
  GetItemResult result{};
  ShardUse shards{};
};
struct ShardedUpdateItemResult {
  UpdateItemResult result{};
  ShardUse shards{};
};
struct ShardedDeleteItemResult {
  DeleteItemResult result{};
  ShardUse shards{};
};
struct ShardedBatchWriteItemResult {
  // UnprocessedItems hold the *logical* requests, ready to be sent again.
  BatchWriteItemResult result{};
  int32_t physical_writes = 0;  // physical puts and deletes sent
};

// How ShardedQuery reads its shards. The first read of every shard can run on a thread per shard;
// starting a thread costs far more than a shard's first read in memory (microseconds), so it was
// measured 10 to 30 times slower than reading the shards in turn, and is off by default.
struct ShardedQueryOptions {
  bool concurrent_first_reads = false;
};

struct ShardedQueryResult {
  // Shaped like Query's; LastEvaluatedKey is a physical key (of the shard the merge stopped in)
  // that, passed back as ExclusiveStartKey, resumes every shard where the merge stopped.
  QueryResult result{};
  int32_t shards_queried = 1;  // shards the key condition covers
  int32_t shard_reads = 1;     // Query calls made on the shards
};

// The sharded-counter pattern: Count (items passing the filter) and, optionally, the sum of one
// numeric attribute, over every shard of a logical partition key. `query` is shaped like Query
// (KeyConditionExpression, FilterExpression, ...; Limit, Select and projection are not used).
struct ShardedAggregateRequest {
  QueryRequest query{};
  std::optional<std::string> sum_attribute{};  // a top-level attribute name
};
struct ShardedAggregateResult {
  int64_t count = 0;          // items passing the filter
  int64_t scanned_count = 0;  // items read
  // Sum of sum_attribute over the counted items that have it as a number (absent when not asked).
  std::optional<Number> sum{};
  int64_t summed_items = 0;  // counted items that had a numeric sum_attribute
  int32_t shards_queried = 1;
  int32_t shard_reads = 0;
  std::optional<ConsumedCapacity> consumed_capacity{};
};

}  // namespace partstore
