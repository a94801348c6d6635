#include "shard/sharding/sharding_policy.h"

#include <xxhash.h>

#include <algorithm>

#include "core/key_encoding.h"

namespace partstore::sharding {

std::string_view KeyMatchName(KeyMatch match) {
  return match == KeyMatch::kExact ? "EXACT" : "PREFIX";
}

std::string_view ShardStrategyName(ShardStrategy strategy) {
  return strategy == ShardStrategy::kRandom ? "RANDOM" : "CALCULATED";
}

namespace {

// splitmix64: a well-mixed 64-bit value from a counter.
uint64_t Mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

Status Invalid(std::string message) { return Status::Validation(std::move(message)); }

}  // namespace

Result<std::shared_ptr<const Policy>> Policy::Make(ShardingPolicy definition,
                                                   const KeySchema& schema,
                                                   const std::vector<std::string>& reserved) {
  if (definition.key.empty()) return Invalid("Key must not be empty");
  if (definition.shard_count < 1 || definition.shard_count > kMaxShardCount) {
    return Invalid("ShardCount must be between 1 and " + std::to_string(kMaxShardCount));
  }
  const size_t placeholder = definition.suffix_format.find(kShardPlaceholder);
  if (placeholder == std::string::npos ||
      definition.suffix_format.find(kShardPlaceholder, placeholder + 1) != std::string::npos) {
    return Invalid("SuffixFormat must contain \"<n>\" exactly once");
  }
  if (schema.partition.type != KeyType::kString) {
    return Invalid("Only a string (S) partition key can be sharded; " + schema.partition.name +
                   " is not");
  }
  auto policy = std::shared_ptr<Policy>(new Policy());
  policy->key_attribute_ = schema.partition.name;
  if (definition.logical_key_attribute.empty()) {
    definition.logical_key_attribute = "Logical" + schema.partition.name;
  }
  if (std::find(reserved.begin(), reserved.end(), definition.logical_key_attribute) !=
      reserved.end()) {
    return Invalid("LogicalKeyAttribute must not be a key attribute: " +
                   definition.logical_key_attribute);
  }
  if (definition.strategy == ShardStrategy::kCalculated) {
    if (definition.calculated_from) {
      if (definition.calculated_from->empty()) return Invalid("CalculatedFrom must not be empty");
      if (*definition.calculated_from == schema.partition.name) {
        return Invalid("CalculatedFrom cannot be the partition key it shards");
      }
      policy->calculated_attribute_ = *definition.calculated_from;
      policy->calculated_from_non_key_ =
          !schema.sort || schema.sort->name != *definition.calculated_from;
    } else if (schema.sort) {
      policy->calculated_attribute_ = schema.sort->name;
    } else {
      return Invalid(
          "A CALCULATED policy on a key schema without a sort key needs CalculatedFrom");
    }
  } else if (definition.calculated_from) {
    return Invalid("CalculatedFrom applies to the CALCULATED strategy only");
  }
  policy->suffix_before_ = definition.suffix_format.substr(0, placeholder);
  policy->suffix_after_ = definition.suffix_format.substr(placeholder + kShardPlaceholder.size());
  std::string identity = definition.index_name.value_or("");
  identity += '\0';
  identity += definition.key;
  identity += static_cast<char>(definition.match);
  policy->seed_ = XXH3_64bits(identity.data(), identity.size());
  policy->definition_ = std::move(definition);
  return std::shared_ptr<const Policy>(std::move(policy));
}

bool Policy::Covers(std::string_view logical) const {
  return definition_.match == KeyMatch::kExact ? logical == definition_.key
                                               : logical.starts_with(definition_.key);
}

std::string Policy::ShardKey(std::string_view logical, int32_t shard) const {
  std::string out;
  out.reserve(logical.size() + suffix_before_.size() + suffix_after_.size() + 4);
  out.append(logical);
  out.append(suffix_before_);
  out.append(std::to_string(shard));
  out.append(suffix_after_);
  return out;
}

int32_t Policy::ShardOf(std::string_view physical, std::string_view logical) const {
  if (!physical.starts_with(logical)) return -1;
  physical.remove_prefix(logical.size());
  if (!physical.starts_with(suffix_before_) || !physical.ends_with(suffix_after_)) return -1;
  physical.remove_prefix(suffix_before_.size());
  physical.remove_suffix(suffix_after_.size());
  if (physical.empty() || physical.size() > 4 || (physical.size() > 1 && physical[0] == '0')) {
    return -1;
  }
  int32_t shard = 0;
  for (char c : physical) {
    if (c < '0' || c > '9') return -1;
    shard = shard * 10 + (c - '0');
  }
  return shard < shard_count() ? shard : -1;
}

int32_t Policy::RandomShard() const {
  const uint64_t draw = draws_.fetch_add(1, std::memory_order_relaxed);
  return static_cast<int32_t>(Mix(seed_ + draw) % static_cast<uint64_t>(shard_count()));
}

Result<int32_t> Policy::CalculatedShard(const Item& item) const {
  auto it = item.find(calculated_attribute_);
  if (it == item.end() || !it->second.is_scalar_key_type()) {
    return Invalid("The shard of " + definition_.key + " is calculated from " +
                   calculated_attribute_ + ", which must be given as a string, number or binary");
  }
  const std::string encoded = EncodeKey(it->second);
  return static_cast<int32_t>(XXH3_64bits(encoded.data(), encoded.size()) %
                              static_cast<uint64_t>(shard_count()));
}

Result<int32_t> Policy::ChooseShard(const Item& item) const {
  if (random()) return RandomShard();
  return CalculatedShard(item);
}

const Policy* PolicySet::Find(std::string_view index, std::string_view logical) const {
  const Policy* best = nullptr;
  for (const auto& policy : policies_) {
    if (policy->index() != index || !policy->Covers(logical)) continue;
    if (policy->definition().match == KeyMatch::kExact) return policy.get();
    if (best == nullptr || policy->definition().key.size() > best->definition().key.size()) {
      best = policy.get();
    }
  }
  return best;
}

const Policy* PolicySet::FindDefinition(std::string_view index, std::string_view key,
                                        KeyMatch match) const {
  for (const auto& policy : policies_) {
    if (policy->index() == index && policy->definition().key == key &&
        policy->definition().match == match) {
      return policy.get();
    }
  }
  return nullptr;
}

PolicySet PolicySet::With(std::shared_ptr<const Policy> policy) const {
  PolicyList list = policies_;
  for (auto& existing : list) {
    if (existing->index() == policy->index() &&
        existing->definition().key == policy->definition().key &&
        existing->definition().match == policy->definition().match) {
      existing = std::move(policy);
      return PolicySet(std::move(list));
    }
  }
  list.push_back(std::move(policy));
  return PolicySet(std::move(list));
}

PolicySet PolicySet::Without(std::string_view index, std::string_view key, KeyMatch match) const {
  PolicyList list;
  for (const auto& policy : policies_) {
    if (policy->index() == index && policy->definition().key == key &&
        policy->definition().match == match) {
      continue;
    }
    list.push_back(policy);
  }
  return PolicySet(std::move(list));
}

}  // namespace partstore::sharding
