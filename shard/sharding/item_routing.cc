#include "shard/sharding/item_routing.h"

#include <algorithm>

namespace partstore::sharding {

namespace {

// Whether `item`'s `attribute` already holds a shard key of the logical value one of the
// policies for `index` keeps in its logical key attribute.
bool AlreadySharded(const PolicySet& policies, std::string_view index, const Item& item,
                    std::string_view physical) {
  for (const auto& policy : policies.policies()) {
    if (policy->index() != index) continue;
    auto logical = item.find(policy->logical_attribute());
    if (logical == item.end() || !logical->second.is(Type::kS)) continue;
    const std::string& value = logical->second.as_string();
    if (policy->Covers(value) && policy->ShardOf(physical, value) >= 0) return true;
  }
  return false;
}

// Shards `item`'s partition key attribute for the table (`index` empty) or one GSI. Returns the
// shard chosen, or nullopt when the attribute is absent, not a string, already sharded, or not
// covered (then the logical key attributes of the index's policies are dropped).
Result<std::optional<int32_t>> ShardAttribute(const PolicySet& policies, std::string_view index,
                                              const std::string& attribute, Item* item) {
  auto drop_logical = [&] {
    for (const auto& policy : policies.policies()) {
      if (policy->index() == index) item->erase(policy->logical_attribute());
    }
  };
  auto it = item->find(attribute);
  if (it == item->end() || !it->second.is(Type::kS)) {
    if (!index.empty()) drop_logical();
    return std::optional<int32_t>();
  }
  std::string logical = it->second.as_string();
  if (AlreadySharded(policies, index, *item, logical)) return std::optional<int32_t>();
  const Policy* policy = policies.Find(index, logical);
  if (policy == nullptr) {
    if (!index.empty()) drop_logical();
    return std::optional<int32_t>();
  }
  if (!index.empty() && !policy->random() && !policy->calculated_from_non_key() &&
      item->find(policy->calculated_attribute()) == item->end()) {
    // Without the GSI's sort key the item is not in the GSI: nothing to shard.
    drop_logical();
    return std::optional<int32_t>();
  }
  PARTSTORE_ASSIGN_OR_RETURN(int32_t shard, policy->ChooseShard(*item));
  item->insert_or_assign(attribute, Value(policy->ShardKey(logical, shard)));
  item->insert_or_assign(policy->logical_attribute(), Value(std::move(logical)));
  return std::optional<int32_t>(shard);
}

}  // namespace

Status ShardIndexKeys(const PolicySet& policies, Item* item) {
  std::vector<std::string_view> done;
  for (const auto& policy : policies.policies()) {
    if (policy->index().empty()) continue;
    if (std::find(done.begin(), done.end(), policy->index()) != done.end()) continue;
    done.push_back(policy->index());
    PARTSTORE_RETURN_IF_ERROR(
        ShardAttribute(policies, policy->index(), policy->key_attribute(), item).status());
  }
  return Status::Ok();
}

Result<Item> ShardItem(const PolicySet& policies, const KeySchema& table_key, Item item,
                       std::optional<int32_t>* shard) {
  PARTSTORE_ASSIGN_OR_RETURN(*shard,
                             ShardAttribute(policies, "", table_key.partition.name, &item));
  PARTSTORE_RETURN_IF_ERROR(ShardIndexKeys(policies, &item));
  return item;
}

Item KeyRoute::PhysicalKey(int32_t shard) const {
  Item out = key;
  if (policy != nullptr) {
    out.insert_or_assign(policy->key_attribute(), Value(policy->ShardKey(logical, shard)));
  }
  return out;
}

Result<KeyRoute> RouteKey(const PolicySet& policies, const KeySchema& table_key, const Item& key,
                          KeyUse use) {
  KeyRoute route;
  route.key = key;
  route.shards = {0};
  auto it = key.find(table_key.partition.name);
  if (it == key.end() || !it->second.is(Type::kS)) return route;
  route.logical = it->second.as_string();
  route.policy = policies.Find("", route.logical);
  if (route.policy == nullptr) return route;
  const Policy& policy = *route.policy;
  if (policy.random()) {
    route.shards.clear();
    if (use == KeyUse::kUpdate) {
      route.shards.push_back(policy.RandomShard());
    } else {
      for (int32_t shard = 0; shard < policy.shard_count(); ++shard) route.shards.push_back(shard);
    }
    return route;
  }
  PARTSTORE_ASSIGN_OR_RETURN(int32_t shard, policy.CalculatedShard(key));
  route.shards = {shard};
  if (policy.calculated_from_non_key()) {
    auto calculated = route.key.find(policy.calculated_attribute());
    route.calculated_value = std::move(calculated->second);
    route.key.erase(calculated);
  }
  return route;
}

void Present(const PolicySet& policies, Item* item) {
  for (const auto& policy : policies.policies()) {
    auto logical = item->find(policy->logical_attribute());
    if (logical == item->end()) continue;
    Value value = std::move(logical->second);
    item->erase(logical);
    if (auto key = item->find(policy->key_attribute()); key != item->end()) {
      key->second = std::move(value);
    }
  }
}

Status UpdateRewriter::Rewrite(Item* item) const {
  if (const Policy* policy = route_.policy; policy != nullptr) {
    item->insert_or_assign(policy->logical_attribute(), Value(route_.logical));
    if (route_.calculated_value) {
      const std::string& name = policy->calculated_attribute();
      if (item->find(name) == item->end()) {
        item->insert_or_assign(name, *route_.calculated_value);
      } else {
        Result<int32_t> shard = policy->CalculatedShard(*item);
        if (!shard.ok() || *shard != route_.shards.front()) {
          return Status::Validation("The update changes " + name + ", which the shard of " +
                                    route_.logical + " is calculated from");
        }
      }
    }
  }
  return ShardIndexKeys(policies_, item);
}

}  // namespace partstore::sharding
