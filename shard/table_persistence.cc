// A table's side of persistence: the write-ahead log's record of each change (LogChange), the
// wait for it (Durable), and the loads of a snapshot's items and a log's changes (LoadItem,
// ReplayDelete). A load is PutItem's write without what a client's write has: the item is already
// encoded and checked (StoredItem::Decode), so it is stored as it is, with no tree built, no
// condition, no capacity consumed and no stream record (the stream's records are restored on
// their own: table_streams.cc).
#include <algorithm>

#include "core/stored_item_projection.h"
#include "shard/persist/write_ahead_log.h"
#include "shard/table.h"

namespace partstore {

Status Table::LoadItem(const StoredItem& item, StoredItem* previous) {
  PARTSTORE_ASSIGN_OR_RETURN(EncodedKey key, EncodeStoredKey(item));
  const PartitionKeyRef partition{key.hash, key.partition};
  const size_t new_size = item.item_size();
  Stripe& stripe = stripes_.ForHash(key.hash);
  Stripe::WriteLock lock(stripe);
  const StoredItem* existing = stripe.FindItem(partition, key.sort);
  const size_t old_size = existing != nullptr ? existing->item_size() : 0;
  if (previous != nullptr) *previous = existing != nullptr ? *existing : StoredItem();
  const IndexList& indexes = WriterIndexes(key.hash);
  // No index's CheckItem: an item the table held may have an index key of the wrong type (the
  // index was added over it, and its backfill left it out, as DynamoDB's does); it stays out of
  // that index here too (KeyOf).
  IndexWritePlan plan;
  if (!indexes.empty()) plan = PlanIndexWrites(indexes, existing, &item, key);
  if (rejecting()) PARTSTORE_RETURN_IF_ERROR(AdmitWrite(GrowthOf(key, existing, item, plan)));
  if (capacity_) {
    PARTSTORE_RETURN_IF_ERROR(
        ChargeWrite(key, KeyOf(item), /*half_units=*/0,
                    static_cast<int64_t>(new_size) - static_cast<int64_t>(old_size),
                    existing ? 0 : 1, plan, existing, &item,
                    capacity::RequestCounting::kPartOfRequest, capacity::Metering::kUnmetered));
  }
  stripe.Put(partition, StoredSortKey(key, item), item);
  TouchCollection(stripe, partition);
  if (!indexes.empty()) {
    CapacityCharge charge;
    ApplyIndexWrites(plan, &item, &charge);
  }
  lock.Unlock();
  AfterWrite();
  return Status::Ok();
}

Result<StoredItem> Table::ItemAt(const StoredItem& key_item) const {
  PARTSTORE_ASSIGN_OR_RETURN(EncodedKey key, EncodeStoredKey(key_item));
  const Stripe& stripe = stripes_.ForHash(key.hash);
  Stripe::ReadLock lock(stripe);
  const StoredItem* existing = stripe.FindItem({key.hash, key.partition}, key.sort);
  return existing != nullptr ? *existing : StoredItem();
}

void Table::CopyItems(std::vector<StoredItem>* out) const {
  size_t total = out->size();
  for (size_t i = 0; i < stripes_.size(); ++i) {
    stripes_.at(i).AssertReaderHeld();
    total += static_cast<size_t>(stripes_.at(i).item_count());
  }
  out->reserve(total);
  for (size_t i = 0; i < stripes_.size(); ++i) {
    const Stripe& stripe = stripes_.at(i);
    stripe.AssertReaderHeld();
    stripe.ForEach([&](const Stripe::StoredKey&, const ItemCollection& collection) {
      ItemCollection::Cursor c = collection.NewCursor();
      for (c.SeekToFirst(); c.valid(); c.Next()) out->push_back(c.item());
    });
  }
}

Status Table::ReplayDelete(const StoredItem& key_item, StoredItem* previous) {
  PARTSTORE_ASSIGN_OR_RETURN(EncodedKey key, EncodeStoredKey(key_item));
  Stripe& stripe = stripes_.ForHash(key.hash);
  Stripe::WriteLock lock(stripe);
  const StoredItem* existing = stripe.FindItem({key.hash, key.partition}, key.sort);
  if (previous != nullptr) *previous = existing != nullptr ? *existing : StoredItem();
  if (existing == nullptr) return Status::Ok();
  const StoredItem item = *existing;
  EraseUnmetered(stripe, key, item, StreamRemover::kClient, /*emit=*/false);
  return Status::Ok();
}

bool Table::LogChange(persist::WriteAheadLog& log, const StoredItem& old_item,
                      const StoredItem& new_item, const persist::StreamMark* mark) const {
  const uint64_t number = log_number();
  if (new_item) {
    return persist::AppendChange(log, number, /*erase=*/false, new_item.PortableEncoding(), mark);
  }
  std::vector<std::string_view> names{key_schema_.partition.name};
  if (key_schema_.sort) names.push_back(key_schema_.sort->name);
  const StoredItem key = ProjectStoredItem(old_item, std::move(names));
  return persist::AppendChange(log, number, /*erase=*/true, key.PortableEncoding(), mark);
}

Status Table::Durable() const {
  persist::WriteAheadLog* log = log_.load(std::memory_order_acquire);
  if (log == nullptr) return Status::Ok();
  return log->Sync(persist::WriteAheadLog::last_position());
}

}  // namespace partstore
