// Table: a transaction's part of the work on one table (the locking and the all-or-nothing
// decision are shard/transaction.cc's). Staging mirrors PutItem / UpdateItem / DeleteItem
// (shard/table_items.cc) up to the point where they change anything; committing does what they
// do after it, with the stripes already held.
//
// Capacity (reference §2.3): 2 write units per KB of max(old, new) for a put or an update, of the
// deleted item for a delete (2 when there is none); a ConditionCheck is charged as a delete of
// the item it checks would be (its size, 2 units when missing). Index writes cost what a
// standard write to the index costs.
#include "core/capacity_units.h"
#include "core/expr/evaluate.h"
#include "core/expr/update.h"
#include "partstore/error_detail.h"
#include "shard/table.h"
#include "shard/updated_item.h"

namespace partstore {

namespace {

int64_t TransactionalHalfUnits(size_t bytes) {
  return 2 * WriteUnits(bytes, WriteKind::kTransactional);
}

}  // namespace

Status Table::StageWrite(StagedWrite* write, const PreparedCondition* condition,
                         const PreparedUpdate* update, const Item* put,
                         ReturnValuesOnConditionCheckFailure on_failure,
                         const ItemRewriter* rewrite) const {
  const Stripe& stripe = stripes_.ForHash(write->key.hash);
  stripe.AssertHeld();  // REQUIRES: the caller (shard/transaction.cc) holds it exclusively
  const PartitionKeyRef partition{write->key.hash, write->key.partition};
  const StoredItem* existing = stripe.FindItem(partition, write->key.sort);
  if (existing != nullptr) write->existing = *existing;
  write->existed = existing != nullptr;
  write->old_size = existing != nullptr ? existing->item_size() : 0;
  const std::optional<expr::Condition>* check =
      condition != nullptr ? &condition->condition
                           : (update != nullptr ? &update->condition : nullptr);
  if (check != nullptr && *check && !expr::Evaluate(**check, existing)) {
    Status failed(Code::kConditionalCheckFailed, "The conditional request failed");
    if (on_failure == ReturnValuesOnConditionCheckFailure::kAllOld && existing != nullptr) {
      auto detail = std::make_shared<ErrorDetail>();
      detail->item = existing->ToItem();
      return std::move(failed).WithDetail(std::move(detail));
    }
    return failed;
  }

  const IndexList& indexes = WriterIndexes(write->key.hash);
  switch (write->kind) {
    case StagedWrite::Kind::kConditionCheck:
      break;
    case StagedWrite::Kind::kDelete:
      write->erase = existing != nullptr;
      break;
    case StagedWrite::Kind::kPut:
      PARTSTORE_RETURN_IF_ERROR(ValidateItem(*put));
      PARTSTORE_RETURN_IF_ERROR(CheckIndexKeys(indexes, *put));
      write->new_item = StoredItem::Encode(*put);
      break;
    case StagedWrite::Kind::kUpdate: {
      PARTSTORE_ASSIGN_OR_RETURN(
          UpdatedItem updated,
          UpdateItemVersion(update->update, existing, write->key_item, key_schema_, indexes,
                            expr::UpdatedAttributes::kNone, rewrite));
      write->new_item = std::move(updated.item);  // empty: REMOVE on a missing item
      break;
    }
  }

  if (write->new_item) {
    write->new_size = write->new_item.item_size();
    if (!indexes.empty()) {
      PARTSTORE_RETURN_IF_ERROR(CheckItemCollectionLimit(
          indexes, write->key, stripe.Find(partition),
          static_cast<int64_t>(write->new_size) - static_cast<int64_t>(write->old_size)));
      write->plan = PlanIndexWrites(indexes, existing, &write->new_item, write->key);
    }
  } else if (write->erase && !indexes.empty()) {
    write->plan = PlanIndexWrites(indexes, existing, nullptr, write->key);
  }
  write->half_units = TransactionalHalfUnits(
      write->new_item ? std::max(write->old_size, write->new_size) : write->old_size);
  return Status::Ok();
}

Status Table::ChargeStaged(const StagedWrite& write) {
  if (!capacity_) return Status::Ok();
  const StoredItem* existing = write.existing ? &write.existing : nullptr;
  int64_t bytes = 0;
  int64_t items = 0;
  if (write.new_item) {
    bytes = static_cast<int64_t>(write.new_size) - static_cast<int64_t>(write.old_size);
    items = write.existed ? 0 : 1;
  } else if (write.erase) {
    bytes = -static_cast<int64_t>(write.old_size);
    items = -1;
  }
  return ChargeWrite(write.key, write.key_item, write.half_units, bytes, items, write.plan,
                     existing, write.new_item ? &write.new_item : nullptr);
}

void Table::IndexStripesOf(const StagedWrite& write, std::vector<const Stripe*>* out) const {
  for (const IndexWrite& w : write.plan) {
    if (w.erase) out->push_back(&w.index->stripes().ForHash(w.erase->hash));
    if (w.put) out->push_back(&w.index->stripes().ForHash(w.put->hash));
  }
  if (write.new_item || write.erase) {
    for (const auto& index : WriterIndexes(write.key.hash)) {
      if (!index->global()) out->push_back(&index->stripes().ForHash(write.key.hash));
    }
  }
}

std::optional<ItemCollectionMetrics> Table::CommitStaged(StagedWrite& write,
                                                         ReturnItemCollectionMetrics metrics,
                                                         CapacityCharge* charge) {
  charge->table_half_units += write.half_units;
  const EncodedKey& key = write.key;
  Stripe& stripe = stripes_.ForHash(key.hash);
  stripe.AssertHeld();  // REQUIRES: the caller holds it exclusively
  const IndexList& indexes = WriterIndexes(key.hash);
  std::optional<ItemCollectionMetrics> out;
  const PartitionKeyRef partition{key.hash, key.partition};
  if (write.new_item) {
    stripe.Put(partition, StoredSortKey(key, write.new_item), write.new_item);
    TouchCollection(stripe, partition);
    Emit(key.hash, write.existing, write.new_item);
    if (!indexes.empty()) {
      ApplyIndexWrites(write.plan, &write.new_item, charge, StripeLocking::kHeldByCaller);
      out = CollectionMetrics(metrics, indexes, key, write.key_item, StripeLocking::kHeldByCaller);
    }
  } else if (write.erase) {
    stripe.Erase(partition, key.sort);
    Emit(key.hash, write.existing, StoredItem());
    if (!indexes.empty()) {
      ApplyIndexWrites(write.plan, nullptr, charge, StripeLocking::kHeldByCaller);
      out = CollectionMetrics(metrics, indexes, key, write.key_item, StripeLocking::kHeldByCaller);
    }
  }
  return out;
}

StoredItem Table::ReadLocked(const EncodedKey& key) const {
  const Stripe& stripe = stripes_.ForHash(key.hash);
  stripe.AssertReaderHeld();  // REQUIRES: the caller holds it
  const StoredItem* item = stripe.FindItem({key.hash, key.partition}, key.sort);
  return item != nullptr && !CacheExpiry().Expired(*item) ? *item : StoredItem();
}

Status Table::ChargeTransactionalRead(const EncodedKey& key, const Item& key_item,
                                      int64_t half_units) const {
  if (!capacity_) return Status::Ok();
  const KeyAccessBuffer access = AccessOf(key, &key_item);
  const capacity::KeyAccess key_access = access.access();
  return capacity_->Read("", key.hash, half_units, /*returned_items=*/0, &key_access);
}

}  // namespace partstore
