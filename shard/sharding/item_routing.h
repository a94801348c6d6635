// Item routing for write sharding: logical keys and items in, physical ones out, and back.
//
//   - Writes: ShardItem turns a logical item into the one stored (the table policy's suffix on the
//     partition key, every covering GSI policy's on that GSI's partition key attribute, each
//     logical value kept in the policy's logical key attribute). UpdateRewriter does the same to
//     the item an UpdateItem produces, under the stripe lock.
//   - Point operations: RouteKey says which physical keys a logical key maps to.
//   - Reads: Present turns a physical item back into the logical one.
//
// A key attribute that already holds a shard key of the logical value in its logical attribute
// (an item read raw and written back) is left as it is, so nothing is sharded twice.
//
// Thread safety: pure functions of their arguments (random-suffix draws are atomic).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "partstore/item.h"
#include "partstore/key.h"
#include "partstore/status.h"
#include "shard/sharding/sharding_policy.h"
#include "shard/table.h"

namespace partstore::sharding {

// The item a put of the logical `item` stores. `shard` is set to the table shard chosen, or
// nullopt when no table policy covers the item's partition key.
Result<Item> ShardItem(const PolicySet& policies, const KeySchema& table_key, Item item,
                       std::optional<int32_t>* shard);

// GSI policies only: shards `item`'s GSI partition key attributes that a policy covers, and drops
// the logical key attributes of GSI keys no policy covers any more.
Status ShardIndexKeys(const PolicySet& policies, Item* item);

// Where a point operation on a logical key goes.
enum class KeyUse : uint8_t {
  kRead,    // random suffix: every shard
  kUpdate,  // random suffix: one random shard (the sharded-counter pattern)
  kDelete,  // random suffix: every shard
};
struct KeyRoute {
  const Policy* policy = nullptr;         // null: no policy covers the key (it is used unchanged)
  std::string logical;                    // the logical partition key value
  Item key;                               // the logical key, without a calculated-from attribute
  std::optional<Value> calculated_value;  // that attribute's value, when the key carried it
  std::vector<int32_t> shards;            // the shards to visit, ascending

  // The key of shard `shard` (the key unchanged without a policy).
  Item PhysicalKey(int32_t shard) const;
};
Result<KeyRoute> RouteKey(const PolicySet& policies, const KeySchema& table_key, const Item& key,
                          KeyUse use);

// The item as it would be unsharded: every sharded key attribute whose logical key attribute is
// present takes its value, and the logical key attributes are dropped.
void Present(const PolicySet& policies, Item* item);

// UpdateItem through a policy: sets the logical key attribute, fills in (or checks) the
// calculated-from attribute, and shards GSI keys the update set.
class UpdateRewriter final : public ItemRewriter {
 public:
  // `policies` and `route` must outlive the rewriter.
  UpdateRewriter(const PolicySet& policies, const KeyRoute& route)
      : policies_(policies), route_(route) {}
  Status Rewrite(Item* item) const override;

 private:
  const PolicySet& policies_;
  const KeyRoute& route_;
};

}  // namespace partstore::sharding
