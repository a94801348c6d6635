// Helpers for the write-sharding tests: a table with a GSI, policies, and paging through Query
// or ShardedQuery to the end.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "partstore/database.h"

namespace partstore {
// Readable Values in test failures.
inline void PrintTo(const Value& value, std::ostream* os) { *os << DebugString(value); }
}  // namespace partstore

namespace partstore::testing {

// PK (S) + SK (S), GSI1 on GSI1PK (S) + GSI1SK (S) projecting everything; on-demand.
inline CreateTableRequest ShardedTestTable(const std::string& name) {
  KeySchema key;
  key.partition = {"PK", KeyType::kString};
  key.sort = KeyAttribute{"SK", KeyType::kString};
  CreateTableRequest request = SimpleTable(name, key);
  request.attribute_definitions.push_back({"GSI1PK", KeyType::kString});
  request.attribute_definitions.push_back({"GSI1SK", KeyType::kString});
  GlobalSecondaryIndex gsi;
  gsi.index_name = "GSI1";
  gsi.key_schema = {{"GSI1PK", KeyRoleName::kHash}, {"GSI1SK", KeyRoleName::kRange}};
  gsi.projection.projection_type = ProjectionType::kAll;
  request.global_secondary_indexes.push_back(gsi);
  return request;
}

inline sharding::ShardingPolicy Policy(std::string key, int32_t shards,
                                       sharding::ShardStrategy strategy,
                                       sharding::KeyMatch match = sharding::KeyMatch::kExact,
                                       std::optional<std::string> index = std::nullopt) {
  sharding::ShardingPolicy policy;
  policy.key = std::move(key);
  policy.shard_count = shards;
  policy.strategy = strategy;
  policy.match = match;
  policy.index_name = std::move(index);
  return policy;
}

inline void MustSetPolicy(Database& db, const std::string& table, sharding::ShardingPolicy p) {
  auto set = db.PutShardingPolicy({table, std::move(p)});
  ASSERT_TRUE(set.ok()) << set.status().ToString();
}

// Every page of a read, concatenated; `pages` counts them.
struct Paged {
  std::vector<Item> items;
  int64_t count = 0;
  int64_t scanned = 0;
  int pages = 0;
};

inline Paged PageThrough(const std::function<Result<QueryResult>(const QueryRequest&)>& read,
                         QueryRequest request) {
  Paged out;
  for (;;) {
    Result<QueryResult> page = read(request);
    EXPECT_TRUE(page.ok()) << page.status().ToString();
    if (!page.ok() || ++out.pages > 100000) return out;
    out.items.insert(out.items.end(), page->items.begin(), page->items.end());
    out.count += page->count;
    out.scanned += page->scanned_count;
    if (!page->last_evaluated_key) return out;
    request.exclusive_start_key = page->last_evaluated_key;
  }
}

}  // namespace partstore::testing
