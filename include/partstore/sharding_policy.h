// A write-sharding policy (partstore's extension; Partstore.PutShardingPolicy on the wire): one
// partition key value (KeyMatch::kExact) or every value with a prefix (kPrefix), of the table or
// of a GSI, spread over ShardCount physical keys: shard n of "USER#1" is "USER#1" + SuffixFormat
// with "<n>" replaced by n ("USER#1#SHARD0" ... ). kRandom picks a shard per write; kCalculated
// hashes one attribute (the sort key, or CalculatedFrom), so a point read goes to one shard.
// Written items keep their logical key in LogicalKeyAttribute (default "Logical" + the key's
// name). The Sharded* operations of partstore/database.h read and write through the policies.
//
// Thread safety: value types and pure functions, not synchronized; const access from many threads
// is safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace partstore::sharding {

enum class KeyMatch : uint8_t { kExact, kPrefix };
enum class ShardStrategy : uint8_t { kRandom, kCalculated };

// "EXACT", "PREFIX"; "RANDOM", "CALCULATED".
std::string_view KeyMatchName(KeyMatch match);
std::string_view ShardStrategyName(ShardStrategy strategy);

inline constexpr int32_t kMaxShardCount = 1000;
inline constexpr std::string_view kDefaultSuffixFormat = "#SHARD<n>";
inline constexpr std::string_view kShardPlaceholder = "<n>";

// A policy as PutShardingPolicy sets it and DescribeShardingPolicies reports it.
struct ShardingPolicy {
  std::optional<std::string> index_name;  // a GSI; absent: the table
  std::string key;                        // the partition key value, or its prefix
  KeyMatch match = KeyMatch::kExact;
  int32_t shard_count = 0;
  std::string suffix_format = std::string(kDefaultSuffixFormat);
  ShardStrategy strategy = ShardStrategy::kRandom;
  std::optional<std::string> calculated_from;  // kCalculated: absent means the sort key
  std::string logical_key_attribute;           // empty in a request: the default
  friend bool operator==(const ShardingPolicy&, const ShardingPolicy&) = default;
};

}  // namespace partstore::sharding
