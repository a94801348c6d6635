// Scatter-gather reads over the shards of a logical partition key: ShardedQuery and
// ShardedAggregate.
//
// ShardedQuery runs the request's key condition on every shard (the partition key's value
// replaced by each shard key) and merges the shards' items into one stream ordered as an
// unsharded Query would order them (by sort key, or by index entry key; forward or backward), ties
// between shards broken by shard number. The request's filter, projection, Select and Limit apply
// to the merged stream exactly as Query applies them to a partition (reference §4.3: Limit counts
// items evaluated, a page stops at 1 MB evaluated), on the items as presented unsharded.
//
// Each shard is read in growing pages (first 1.5 L / N + 1 items, at least 2; doubling on every
// refill up to 4,096; never more than the merged page could still take), so a Limit of L over N
// evenly filled shards reads about 1.5 L + N items rather than N x L. Every shard read is a real
// Query on the table: it pays its own 4 KB rounding and is throttled like any other read (the
// capacity ShardedQuery reports is the sum).
//
// Continuation: the merged page's LastEvaluatedKey is the physical key of the last item merged,
// in shard j. Since the merge order is total ((order key, shard) ascending, or descending
// backward), it pins every shard's position: on the next page, shard j resumes after that key,
// the shards merged before j (lower numbers forward, higher backward) after it too, the others at
// it (TableQueryOptions::start_inclusive). No item is skipped or repeated across pages, even when
// random-suffix writes left the same logical key in two shards.
//
// Thread safety: reads the table through its thread-safe Query; each shard read sees one
// consistent state of its shard, the merge does not see all shards at one instant (as an
// application's scatter-gather would not).
#pragma once

#include "core/expr/cache.h"
#include "partstore/sharding_requests.h"
#include "partstore/status.h"
#include "shard/prepared.h"
#include "shard/sharding/sharding_policy.h"
#include "shard/table.h"

namespace partstore::sharding {

// REQUIRES: `prepared` came from PrepareQuery(request); `cache` may be null.
Result<ShardedQueryResult> ScatterGatherQuery(const Table& table, const PolicySet& policies,
                                              const QueryRequest& request,
                                              const PreparedRead& prepared,
                                              expr::ExpressionCache* cache,
                                              ShardedQueryOptions options);

// Count and sum over every shard (no merge: each shard is read to its end).
// REQUIRES: `prepared` came from PrepareQuery(request.query).
Result<ShardedAggregateResult> AggregateShards(const Table& table, const PolicySet& policies,
                                               const ShardedAggregateRequest& request,
                                               const PreparedRead& prepared,
                                               expr::ExpressionCache* cache);

// Adds one read's ConsumedCapacity to a running total (both shaped by the same
// ReturnConsumedCapacity).
void AddConsumedCapacity(const std::optional<ConsumedCapacity>& part,
                         std::optional<ConsumedCapacity>* total);

}  // namespace partstore::sharding
