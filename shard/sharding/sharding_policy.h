// Write-sharding policies (reference §10): which partition keys of a table or a GSI are spread
// over N physical keys, and how a write picks one.
//
// A policy covers one partition key value (KeyMatch::kExact) or every value starting with a
// prefix (kPrefix), on the table's partition key or on a GSI's (the GSI partition key attribute
// then carries the shard). Shard n of logical key K is the string K + SuffixFormat with "<n>"
// replaced by n, for n in 0..ShardCount-1: "USER#1" -> "USER#1#SHARD0" ... "USER#1#SHARD9" (the
// seeds' pattern). The strategy picks n:
//   - kRandom: a pseudo-random draw per write (deterministic per policy: the i-th draw of a
//     policy is the same in every run, which keeps simulations reproducible);
//   - kCalculated: XXH3-64 of the key encoding (core/key_encoding.h) of one attribute, mod N:
//     the sort key of the key schema the policy shards (default), or a named attribute. A point
//     read recomputes it and goes to exactly one shard.
// A written item keeps its logical key in LogicalKeyAttribute (default "Logical" + the key
// attribute's name), so reads can present it and users can see it.
//
// Only string partition keys can be sharded (the suffix is appended to the string).
//
// Thread safety: Policy and PolicySet are immutable after construction (the random draw counter
// is atomic); a table swaps its whole PolicySet under its own lock (shard/table.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "partstore/item.h"
#include "partstore/key.h"
#include "partstore/sharding_policy.h"
#include "partstore/status.h"

namespace partstore::sharding {

// One policy bound to the key schema it shards.
class Policy {
 public:
  // Validates `definition` against `schema` (the table's, or the GSI's) and fills in defaults.
  // `reserved` are attribute names the logical key attribute must not take (every key attribute
  // of the table and its indexes). ValidationException texts name the offending parameter.
  static Result<std::shared_ptr<const Policy>> Make(ShardingPolicy definition,
                                                    const KeySchema& schema,
                                                    const std::vector<std::string>& reserved);

  const ShardingPolicy& definition() const { return definition_; }
  std::string_view index() const {
    return definition_.index_name ? std::string_view(*definition_.index_name) : "";
  }
  int32_t shard_count() const { return definition_.shard_count; }
  bool random() const { return definition_.strategy == ShardStrategy::kRandom; }
  // The partition key attribute the policy shards, and the attribute holding the logical key.
  const std::string& key_attribute() const { return key_attribute_; }
  const std::string& logical_attribute() const { return definition_.logical_key_attribute; }
  // The attribute a calculated suffix is computed from (empty for kRandom).
  const std::string& calculated_attribute() const { return calculated_attribute_; }
  // Whether the calculated suffix comes from a non-key attribute (point operations then need it
  // alongside the key).
  bool calculated_from_non_key() const { return calculated_from_non_key_; }

  bool Covers(std::string_view logical) const;
  // The physical key of shard `shard` (0-based) of `logical`.
  std::string ShardKey(std::string_view logical, int32_t shard) const;
  // Which shard of `logical` `physical` is, or -1.
  int32_t ShardOf(std::string_view physical, std::string_view logical) const;
  // The next random shard (kRandom).
  int32_t RandomShard() const;
  // kCalculated: the shard of the item (or key) carrying calculated_attribute(), or a
  // ValidationException when it lacks a scalar (S, N, B) value for it.
  Result<int32_t> CalculatedShard(const Item& item) const;
  // RandomShard() or CalculatedShard(item).
  Result<int32_t> ChooseShard(const Item& item) const;

 private:
  Policy() = default;
  ShardingPolicy definition_;
  std::string key_attribute_;
  std::string calculated_attribute_;
  bool calculated_from_non_key_ = false;
  std::string suffix_before_;  // the format before "<n>"
  std::string suffix_after_;   // and after it
  uint64_t seed_ = 0;
  mutable std::atomic<uint64_t> draws_{0};
};

// The policies of one table (its own and its GSIs').
class PolicySet {
 public:
  using PolicyList = std::vector<std::shared_ptr<const Policy>>;

  PolicySet() = default;
  explicit PolicySet(PolicyList policies) : policies_(std::move(policies)) {}

  // The policy covering the partition key value `logical` of the table (`index` empty) or of a
  // GSI: an exact policy first, else the longest matching prefix; null when none covers it.
  const Policy* Find(std::string_view index, std::string_view logical) const;
  // The policy with this index, key and match, or null.
  const Policy* FindDefinition(std::string_view index, std::string_view key, KeyMatch match) const;
  // Whether any policy shards the table's own partition key / a GSI's.
  bool empty() const { return policies_.empty(); }
  const PolicyList& policies() const { return policies_; }

  // A copy with `policy` added, replacing the one with the same index, key and match.
  PolicySet With(std::shared_ptr<const Policy> policy) const;
  // A copy without the policy with this index, key and match.
  PolicySet Without(std::string_view index, std::string_view key, KeyMatch match) const;

 private:
  PolicyList policies_;  // in the order they were first set
};

}  // namespace partstore::sharding
