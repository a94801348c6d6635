// Table: the single-item operations PutItem, GetItem, UpdateItem, DeleteItem.
//
// Each one: validate the request (ReturnValues for the operation, expressions, the key), then
// lock the key's stripe (shared for GetItem, exclusive for writes) for the lookup, the condition,
// the write and the counters, so the operation is linearizable.
//
// Capacity (reference §2.2, §2.3): GetItem ceil(size / 4 KB), 0.5x when eventually consistent,
// a missing item still costs one unit; PutItem and UpdateItem ceil(max(old, new) / 1 KB);
// DeleteItem the deleted item's size, 1 when missing; a failed condition still charges (the new
// item's size when one existed, else 1).
#include <utility>

#include "core/capacity_units.h"
#include "core/expr/evaluate.h"
#include "core/expr/projection.h"
#include "core/expr/update.h"
#include "core/expr/update_stored.h"
#include "partstore/error_detail.h"
#include "shard/prepared.h"
#include "shard/table.h"
#include "shard/updated_item.h"

namespace partstore {

namespace {

constexpr std::string_view kConditionFailed = "The conditional request failed";

// ConditionalCheckFailedException, with the existing item attached when the request asked for
// ReturnValuesOnConditionCheckFailure=ALL_OLD and there is one.
Status ConditionFailed(ReturnValuesOnConditionCheckFailure mode, const StoredItem* existing) {
  Status status(Code::kConditionalCheckFailed, std::string(kConditionFailed));
  if (mode == ReturnValuesOnConditionCheckFailure::kAllOld && existing != nullptr) {
    auto detail = std::make_shared<ErrorDetail>();
    detail->item = existing->ToItem();
    return std::move(status).WithDetail(std::move(detail));
  }
  return status;
}

int64_t WriteHalfUnits(size_t bytes) { return 2 * WriteUnits(bytes, WriteKind::kStandard); }

std::optional<ConsumedCapacity> Report(ReturnConsumedCapacity mode, const std::string& table,
                                       int64_t half_units) {
  CapacityCharge charge;
  charge.table_half_units = half_units;
  return ReportCapacity(mode, table, charge);
}

}  // namespace

Result<PutItemResult> Table::PutItem(const PutItemRequest& request) {
  PARTSTORE_ASSIGN_OR_RETURN(PreparedCondition prepared, PreparePut(request, name_, cache()));
  return PutItem(request, prepared);
}

Result<PutItemResult> Table::PutItem(const PutItemRequest& request,
                                     const PreparedCondition& prepared, WriteContext context) {
  PARTSTORE_ASSIGN_OR_RETURN(EncodedKey key, EncodeItemKeyOfItem(request.item));
  PARTSTORE_RETURN_IF_ERROR(ValidateItem(request.item));
  // Encoded before the lock: the stripe is held only to look up, check and swap handles.
  return Put(request, prepared, context, key, StoredItem::Encode(request.item), &request.item);
}

Result<PutItemResult> Table::PutStoredItem(const PutItemRequest& request, StoredItem item,
                                           const PreparedCondition& prepared,
                                           WriteContext context) {
  PARTSTORE_ASSIGN_OR_RETURN(EncodedKey key, EncodeStoredKey(item));
  // A StoredItem keeps ValidateItem's other rules by construction (Encode's precondition,
  // Decode's checks, EncodeItemJson's); its size is the one left to check, after the key as
  // PutItem checks it.
  if (item.item_size() > kMaxItemSize) {
    return Status::Validation(std::string(messages::kItemTooLarge));
  }
  return Put(request, prepared, context, key, std::move(item), nullptr);
}

Result<PutItemResult> Table::Put(const PutItemRequest& request, const PreparedCondition& prepared,
                                 WriteContext context, const EncodedKey& key, StoredItem item,
                                 const Item* tree) {
  const size_t new_size = item.item_size();
  const PartitionKeyRef partition{key.hash, key.partition};
  // The key attributes as a tree, for capacity's key records and ItemCollectionMetrics: the
  // caller's tree, or built from the item when one of those asks (a StoredItem's put).
  std::optional<Item> key_item;
  auto key_source = [&]() -> const Item& {
    if (tree != nullptr) return *tree;
    if (!key_item) key_item = KeyOf(item);
    return *key_item;
  };

  PutItemResult result;
  StoredItem old;
  const Expiry expiry = CacheExpiry();
  Stripe& stripe = stripes_.ForHash(key.hash);
  Stripe::WriteLock lock(stripe);
  ReclaimExpired(key, expiry);
  const StoredItem* existing = stripe.FindItem(partition, key.sort);
  const size_t old_size = existing != nullptr ? existing->item_size() : 0;
  if (prepared.condition && !expr::Evaluate(*prepared.condition, existing)) {
    // A failed condition is charged too (the new item's size, 1 unit when none existed), though
    // the error body reports no ConsumedCapacity.
    if (capacity_) {
      PARTSTORE_RETURN_IF_ERROR(
          capacity_->ChargeFailedWrite(key.hash, WriteHalfUnits(existing != nullptr ? new_size : 0),
                                       AccessOf(key, &key_source()).access()));
    }
    return ConditionFailed(request.return_values_on_condition_check_failure, existing);
  }
  const IndexList& indexes = WriterIndexes(key.hash);
  if (tree != nullptr) {
    PARTSTORE_RETURN_IF_ERROR(CheckIndexKeys(indexes, *tree));
  } else {
    PARTSTORE_RETURN_IF_ERROR(CheckIndexKeys(indexes, item));
  }
  if (!indexes.empty()) {
    PARTSTORE_RETURN_IF_ERROR(
        CheckItemCollectionLimit(indexes, key, stripe.Find(partition),
                                 static_cast<int64_t>(new_size) - static_cast<int64_t>(old_size)));
  }
  CapacityCharge charge;
  charge.table_half_units = WriteHalfUnits(std::max(old_size, new_size));
  IndexWritePlan plan;
  if (!indexes.empty()) plan = PlanIndexWrites(indexes, existing, &item, key);
  if (rejecting()) PARTSTORE_RETURN_IF_ERROR(AdmitWrite(GrowthOf(key, existing, item, plan)));
  if (capacity_) {
    PARTSTORE_RETURN_IF_ERROR(ChargeWrite(
        key, key_source(), charge.table_half_units,
        static_cast<int64_t>(new_size) - static_cast<int64_t>(old_size), existing ? 0 : 1, plan,
        existing, &item,
        context.batch_item ? capacity::RequestCounting::kPartOfRequest
                           : capacity::RequestCounting::kCountRequest,
        context.unmetered ? capacity::Metering::kUnmetered : capacity::Metering::kMetered));
  }
  const bool inserted = stripe.Put(partition, StoredSortKey(key, item), item, &old);
  TouchCollection(stripe, partition);
  Emit(key.hash, old, item);
  if (!indexes.empty()) {
    ApplyIndexWrites(plan, &item, &charge);
    if (request.return_item_collection_metrics == ReturnItemCollectionMetrics::kSize) {
      result.item_collection_metrics =
          CollectionMetrics(request.return_item_collection_metrics, indexes, key, key_source());
    }
  }
  lock.Unlock();
  AfterWrite();
  PARTSTORE_RETURN_IF_ERROR(Durable());

  if (!inserted && request.return_values == ReturnValue::kAllOld) result.attributes = old.ToItem();
  result.consumed_capacity = ReportCapacity(request.return_consumed_capacity, name_, charge);
  return result;
}

Result<GetItemResult> Table::GetItem(const GetItemRequest& request) const {
  PARTSTORE_ASSIGN_OR_RETURN(PreparedProjection prepared, PrepareGet(request, name_, cache()));
  return GetItem(request, prepared);
}

StoredItem Table::ReadItem(const EncodedKey& key, bool touch) const {
  const Expiry expiry = CacheExpiry();
  const Stripe& stripe = stripes_.ForHash(key.hash);
  Stripe::ReadLock lock(stripe);
  const ItemCollection* collection = stripe.Find({key.hash, key.partition});
  const StoredItem* item = collection != nullptr ? collection->Find(key.sort) : nullptr;
  if (item == nullptr || expiry.Expired(*item)) return StoredItem();
  if (touch) collection->Touch(memory_->Touch());
  return *item;
}

Result<StoredItem> Table::GetStored(const GetItemRequest& request,
                                    std::optional<ConsumedCapacity>* consumed) const {
  PARTSTORE_ASSIGN_OR_RETURN(EncodedKey key, EncodeItemKey(request.key));
  // The handle is taken under the stripe's shared lock; the result is built after it.
  StoredItem item = ReadItem(key);
  const int64_t half_units = ReadHalfUnits(
      item ? item.item_size() : 0,
      request.consistent_read ? ReadConsistency::kStrong : ReadConsistency::kEventual);
  if (capacity_) {
    // Admitted when the partition had tokens left, then charged what was read; a refused read
    // returns nothing, so reading first changes nothing (and takes the capacity lock once).
    const KeyAccessBuffer access = AccessOf(key, &request.key);
    const capacity::KeyAccess key_access = access.access();
    PARTSTORE_RETURN_IF_ERROR(
        capacity_->Read("", key.hash, half_units, /*returned_items=*/0, &key_access));
  }
  *consumed = Report(request.return_consumed_capacity, name_, half_units);
  return item;
}

Result<GetItemResult> Table::GetItem(const GetItemRequest& request,
                                     const PreparedProjection& prepared) const {
  GetItemResult result;
  PARTSTORE_ASSIGN_OR_RETURN(StoredItem item, GetStored(request, &result.consumed_capacity));
  if (item) {
    result.item = prepared.projection ? expr::Project(*prepared.projection, item) : item.ToItem();
  }
  return result;
}

Result<GetItemViewResult> Table::GetItemView(const GetItemRequest& request,
                                             const PreparedProjection& prepared) const {
  GetItemViewResult result;
  PARTSTORE_ASSIGN_OR_RETURN(StoredItem item, GetStored(request, &result.consumed_capacity));
  if (item) {
    result.item =
        prepared.projection ? expr::ProjectStored(*prepared.projection, item) : std::move(item);
  }
  return result;
}

Result<UpdateItemResult> Table::UpdateItem(const UpdateItemRequest& request) {
  PARTSTORE_ASSIGN_OR_RETURN(PreparedUpdate prepared, PrepareUpdate(request, name_, cache()));
  return UpdateItem(request, prepared);
}

Result<UpdateItemResult> Table::UpdateItem(const UpdateItemRequest& request,
                                           const PreparedUpdate& prepared, WriteContext context) {
  PARTSTORE_ASSIGN_OR_RETURN(EncodedKey key, EncodeItemKey(request.key));
  expr::UpdatedAttributes wanted = expr::UpdatedAttributes::kNone;
  if (request.return_values == ReturnValue::kUpdatedOld)
    wanted = expr::UpdatedAttributes::kUpdatedOld;
  if (request.return_values == ReturnValue::kUpdatedNew)
    wanted = expr::UpdatedAttributes::kUpdatedNew;
  const PartitionKeyRef partition{key.hash, key.partition};

  UpdateItemResult result;
  StoredItem old;  // the replaced version, kept for ALL_OLD (read after the lock)
  const Expiry expiry = CacheExpiry();
  Stripe& stripe = stripes_.ForHash(key.hash);
  Stripe::WriteLock lock(stripe);
  ReclaimExpired(key, expiry);
  const IndexList& indexes = WriterIndexes(key.hash);
  StoredItem* const held = stripe.MutableItem(partition, key.sort);  // changed only in place
  const StoredItem* existing = held;
  if (prepared.condition && !expr::Evaluate(*prepared.condition, existing)) {
    if (capacity_) {
      PARTSTORE_RETURN_IF_ERROR(capacity_->ChargeFailedWrite(
          key.hash, WriteHalfUnits(existing != nullptr ? existing->item_size() : 0),
          AccessOf(key, &request.key).access()));
    }
    return ConditionFailed(request.return_values_on_condition_check_failure, existing);
  }
  if (held != nullptr && indexes.empty() && context.rewrite == nullptr &&
      request.return_values != ReturnValue::kAllOld &&
      stream_.load(std::memory_order_acquire) == nullptr) {
    if (std::optional<expr::InPlaceUpdate> in_place =
            expr::PlanUpdateInPlace(prepared.update, *existing, key_schema_, wanted)) {
      CapacityCharge charge;
      PARTSTORE_RETURN_IF_ERROR(WriteInPlace(request, key, stripe, *held, *in_place, &charge));
      // ALL_NEW's version: a reference taken under the lock, before another writer may change it
      // (while it lives, the next update of the item makes a new version).
      StoredItem now = request.return_values == ReturnValue::kAllNew ? *held : StoredItem();
      lock.Unlock();
      AfterWrite();
      PARTSTORE_RETURN_IF_ERROR(Durable());
      if (now) result.attributes = now.ToItem();
      result.consumed_capacity = ReportCapacity(request.return_consumed_capacity, name_, charge);
      return result;
    }
  }
  PARTSTORE_ASSIGN_OR_RETURN(UpdatedItem updated,
                             UpdateItemVersion(prepared.update, existing, request.key, key_schema_,
                                               indexes, wanted, context.rewrite));
  const size_t old_size = existing != nullptr ? existing->item_size() : 0;
  CapacityCharge charge;
  if (updated.item) {
    const StoredItem& item = updated.item;
    const size_t new_size = item.item_size();
    if (!indexes.empty()) {
      PARTSTORE_RETURN_IF_ERROR(CheckItemCollectionLimit(
          indexes, key, stripe.Find(partition),
          static_cast<int64_t>(new_size) - static_cast<int64_t>(old_size)));
    }
    charge.table_half_units = WriteHalfUnits(std::max(old_size, new_size));
    IndexWritePlan plan;
    if (!indexes.empty()) plan = PlanIndexWrites(indexes, existing, &item, key);
    if (rejecting()) PARTSTORE_RETURN_IF_ERROR(AdmitWrite(GrowthOf(key, existing, item, plan)));
    if (capacity_) {
      PARTSTORE_RETURN_IF_ERROR(
          ChargeWrite(key, request.key, charge.table_half_units,
                      static_cast<int64_t>(new_size) - static_cast<int64_t>(old_size),
                      existing ? 0 : 1, plan, existing, &item));
    }
    stripe.Put(partition, StoredSortKey(key, item), item, &old);
    TouchCollection(stripe, partition);
    Emit(key.hash, old, item);
    if (!indexes.empty()) {
      ApplyIndexWrites(plan, &item, &charge);
      result.item_collection_metrics =
          CollectionMetrics(request.return_item_collection_metrics, indexes, key, request.key);
    }
  } else {
    // The update made nothing (REMOVE on a missing item): a write of nothing.
    charge.table_half_units = WriteHalfUnits(old_size);
    if (capacity_) {
      PARTSTORE_RETURN_IF_ERROR(
          ChargeWrite(key, request.key, charge.table_half_units, 0, 0, {}, nullptr, nullptr));
    }
  }
  lock.Unlock();
  AfterWrite();
  PARTSTORE_RETURN_IF_ERROR(Durable());

  // The trees ALL_OLD and ALL_NEW return are built after the lock.
  if (request.return_values == ReturnValue::kAllOld && old) result.attributes = old.ToItem();
  if (request.return_values == ReturnValue::kAllNew && updated.item) {
    result.attributes = updated.item.ToItem();
  }
  if ((wanted != expr::UpdatedAttributes::kNone) && !updated.attributes.empty()) {
    result.attributes = std::move(updated.attributes);
  }
  result.consumed_capacity = ReportCapacity(request.return_consumed_capacity, name_, charge);
  return result;
}

Status Table::WriteInPlace(const UpdateItemRequest& request, const EncodedKey& key, Stripe& stripe,
                           StoredItem& item, const expr::InPlaceUpdate& update,
                           CapacityCharge* charge) {
  // The item keeps its size, so the write is charged as one of that size; no index, no stream
  // record and no growth of memory (UpdateItem's conditions for this path).
  charge->table_half_units = WriteHalfUnits(item.item_size());
  if (capacity_) {
    PARTSTORE_RETURN_IF_ERROR(
        ChargeWrite(key, request.key, charge->table_half_units, 0, 0, {}, &item, &item));
  }
  expr::ApplyUpdateInPlace(item, update);
  TouchCollection(stripe, {key.hash, key.partition});
  // The log's record of the new version; a stream started since UpdateItem looked is after this
  // write (its records begin with the writes that find it).
  if (persist::WriteAheadLog* log = log_.load(std::memory_order_acquire)) {
    LogChange(*log, item, item, nullptr);
  }
  return Status::Ok();
}

Result<DeleteItemResult> Table::DeleteItem(const DeleteItemRequest& request) {
  PARTSTORE_ASSIGN_OR_RETURN(PreparedCondition prepared, PrepareDelete(request, name_, cache()));
  return DeleteItem(request, prepared);
}

Result<DeleteItemResult> Table::DeleteItem(const DeleteItemRequest& request,
                                           const PreparedCondition& prepared,
                                           WriteContext context) {
  PARTSTORE_ASSIGN_OR_RETURN(EncodedKey key, EncodeItemKey(request.key));
  const PartitionKeyRef partition{key.hash, key.partition};

  DeleteItemResult result;
  StoredItem old;
  // (The sweeper's own deletes, unmetered, delete what their condition names.)
  const Expiry expiry = context.unmetered ? Expiry() : CacheExpiry();
  Stripe& stripe = stripes_.ForHash(key.hash);
  Stripe::WriteLock lock(stripe);
  ReclaimExpired(key, expiry);
  const StoredItem* existing = stripe.FindItem(partition, key.sort);
  const size_t old_size = existing != nullptr ? existing->item_size() : 0;
  if (prepared.condition && !expr::Evaluate(*prepared.condition, existing)) {
    if (capacity_ && !context.unmetered) {
      PARTSTORE_RETURN_IF_ERROR(capacity_->ChargeFailedWrite(key.hash, WriteHalfUnits(old_size),
                                                             AccessOf(key, &request.key).access()));
    }
    return ConditionFailed(request.return_values_on_condition_check_failure, existing);
  }
  CapacityCharge charge;
  charge.table_half_units = WriteHalfUnits(old_size);
  const IndexList& indexes = WriterIndexes(key.hash);
  IndexWritePlan plan;
  if (existing != nullptr && !indexes.empty())
    plan = PlanIndexWrites(indexes, existing, nullptr, key);
  if (capacity_) {
    PARTSTORE_RETURN_IF_ERROR(ChargeWrite(
        key, request.key, charge.table_half_units, -static_cast<int64_t>(old_size),
        existing ? -1 : 0, plan, existing, nullptr,
        context.batch_item ? capacity::RequestCounting::kPartOfRequest
                           : capacity::RequestCounting::kCountRequest,
        context.unmetered ? capacity::Metering::kUnmetered : capacity::Metering::kMetered));
  }
  if (existing != nullptr) {
    stripe.Erase(partition, key.sort, &old);
    Emit(key.hash, old, StoredItem(), context.remover);
    if (!indexes.empty()) {
      ApplyIndexWrites(plan, nullptr, &charge);
      result.item_collection_metrics =
          CollectionMetrics(request.return_item_collection_metrics, indexes, key, request.key);
    }
  }
  lock.Unlock();
  PARTSTORE_RETURN_IF_ERROR(Durable());
  if (old && request.return_values == ReturnValue::kAllOld) result.attributes = old.ToItem();
  result.consumed_capacity = ReportCapacity(request.return_consumed_capacity, name_, charge);
  return result;
}

Item Table::KeyOf(const Item& item) const {
  Item key;
  key.reserve(key_schema_.sort ? 2 : 1);
  if (auto it = item.find(key_schema_.partition.name); it != item.end()) key.emplace(*it);
  if (key_schema_.sort) {
    if (auto it = item.find(key_schema_.sort->name); it != item.end()) key.emplace(*it);
  }
  return key;
}

Item Table::KeyOf(const StoredItem& item) const {
  // Every Query that stops at its Limit returns one: the entries are put in order and adopted,
  // with no search or move of an insert.
  Item::sequence_type entries;
  entries.reserve(key_schema_.sort ? 2 : 1);
  if (std::optional<ValueView> v = item.Find(key_schema_.partition.name)) {
    entries.emplace_back(key_schema_.partition.name, v->ToValue());
  }
  if (key_schema_.sort) {
    if (std::optional<ValueView> v = item.Find(key_schema_.sort->name)) {
      entries.emplace_back(key_schema_.sort->name, v->ToValue());
    }
  }
  if (entries.size() == 2 && entries[1].first < entries[0].first) {
    std::swap(entries[0], entries[1]);
  }
  Item key;
  key.adopt_sequence(boost::container::ordered_unique_range, std::move(entries));
  return key;
}

}  // namespace partstore
