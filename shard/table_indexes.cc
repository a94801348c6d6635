// Table: keeping secondary indexes in step with the base table (synchronous maintenance).
//
// A write computes each index's old and new entry under its base stripe's exclusive lock, then
// takes each affected index stripe's exclusive lock in turn (base stripe first, then index
// stripes; never the other way round), so when the write returns every entry is in place.
//
// Index write capacity (reference §2.4), per index, in 1 KB units of the *entry* (projection):
// an item entering the index 1 put; leaving it 1 delete; changing index key 2 (delete + put);
// staying with changed projected attributes 1 update (max(old, new) entry size); unchanged or
// never in the index 0.
#include <algorithm>
#include <mutex>
#include <shared_mutex>

#include "shard/table.h"

namespace partstore {

std::shared_ptr<SecondaryIndex> Table::FindIndex(std::string_view name) const {
  std::shared_lock lock(indexes_mu_);
  for (const auto& index : indexes_) {
    if (index->name() == name) return index;
  }
  return nullptr;
}

Status Table::CheckIndexKeys(const Item& item) const {
  for (const auto& index : indexes_) PARTSTORE_RETURN_IF_ERROR(index->CheckItem(item));
  return Status::Ok();
}

Status Table::CheckIndexRead(const SecondaryIndex& index, const PreparedRead& prepared,
                             bool consistent_read) const {
  if (index.global() && consistent_read) {
    return Status::Validation("Consistent reads are not supported on global secondary indexes");
  }
  if (index.global() && prepared.select == Select::kAllAttributes &&
      index.definition().projection != ProjectionType::kAll) {
    return Status::Validation(
        "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported "
        "for global secondary index " +
        index.name() + " because its projection type is not ALL");
  }
  return Status::Ok();
}

Result<SecondaryIndex::EntryKey> Table::DecodeIndexStartKey(const SecondaryIndex& index,
                                                            const Item& key) const {
  const Status invalid = Status::Validation("The provided starting key is invalid");
  // Exactly the union of the table's and the index's key attributes, each of its key type.
  std::vector<const KeyAttribute*> wanted{&key_schema_.partition};
  if (key_schema_.sort) wanted.push_back(&*key_schema_.sort);
  for (const KeyAttribute* a : {&index.definition().key.partition,
                                index.definition().key.sort ? &*index.definition().key.sort
                                                            : nullptr}) {
    if (a == nullptr) continue;
    bool seen = false;
    for (const KeyAttribute* w : wanted) seen = seen || w->name == a->name;
    if (!seen) wanted.push_back(a);
  }
  if (key.size() != wanted.size()) return invalid;
  for (const KeyAttribute* a : wanted) {
    auto it = key.find(a->name);
    if (it == key.end() || it->second.type() != ValueTypeOf(a->type)) return invalid;
  }
  Item table_key = KeyOf(key);
  Result<EncodedKey> encoded = EncodeItemKey(table_key);
  if (!encoded.ok()) {
    return Status::Validation("The provided starting key is invalid: " +
                              std::string(encoded.error().message()));
  }
  std::optional<SecondaryIndex::EntryKey> entry =
      index.KeyOf(key, encoded->partition, encoded->sort);
  if (!entry) return invalid;
  return *entry;
}

Item Table::IndexKeyOf(const SecondaryIndex& index, const Item& entry) const {
  Item out = KeyOf(entry);
  for (const KeyAttribute* a : {&index.definition().key.partition,
                                index.definition().key.sort ? &*index.definition().key.sort
                                                            : nullptr}) {
    if (a == nullptr) continue;
    if (auto it = entry.find(a->name); it != entry.end()) out.insert_or_assign(it->first, it->second);
  }
  return out;
}

std::optional<Item> Table::ReadBaseItem(const Item& entry) const {
  Result<EncodedKey> key = EncodeItemKey(KeyOf(entry));
  if (!key.ok()) return std::nullopt;
  const Stripe& stripe = stripes_.ForHash(key->hash);
  std::shared_lock lock(stripe.mu);
  const ItemCollection* collection = stripe.Find({key->hash, key->partition});
  const Item* item = collection != nullptr ? collection->Find(key->sort) : nullptr;
  if (item == nullptr) return std::nullopt;
  return *item;
}

std::optional<ConsumedCapacity> Table::ReportReadCapacity(ReturnConsumedCapacity mode,
                                                          const SecondaryIndex* index,
                                                          int64_t half_units) const {
  CapacityCharge charge;
  if (index == nullptr) {
    charge.table_half_units = half_units;
    return ReportCapacity(mode, name_, charge);
  }
  (index->global() ? charge.global_secondary_indexes : charge.local_secondary_indexes)[index->name()] =
      half_units;
  std::optional<ConsumedCapacity> out = ReportCapacity(mode, name_, charge);
  if (out) out->table_half_units.reset();  // an index read reports the index part only
  return out;
}

namespace {

int64_t EntryWriteHalfUnits(size_t bytes) { return 2 * WriteUnits(bytes, WriteKind::kStandard); }

void AddIndexCharge(const SecondaryIndex& index, int64_t half_units, CapacityCharge* charge) {
  if (charge == nullptr || half_units == 0) return;
  auto& map = index.global() ? charge->global_secondary_indexes : charge->local_secondary_indexes;
  map[index.name()] += half_units;
}

// Removes the entry at `key`; returns its size (0 if there was none).
size_t EraseEntry(SecondaryIndex& index, const SecondaryIndex::EntryKey& key) {
  Stripe& stripe = index.stripes().ForHash(key.hash);
  std::unique_lock lock(stripe.mu);
  ItemCollection* collection = stripe.Find({key.hash, key.partition});
  if (collection == nullptr) return 0;
  const Item* entry = collection->Find(key.entry);
  if (entry == nullptr) return 0;
  const size_t size = ItemSize(*entry);
  collection->Erase(key.entry, nullptr, size);
  --stripe.item_count;
  stripe.size_bytes -= static_cast<int64_t>(size);
  stripe.EraseIfEmpty({key.hash, key.partition});
  return size;
}

// Stores `entry` at `key`; returns the size of the entry it replaced (0 if none).
size_t PutEntry(SecondaryIndex& index, const SecondaryIndex::EntryKey& key, Item entry,
                size_t size) {
  Stripe& stripe = index.stripes().ForHash(key.hash);
  std::unique_lock lock(stripe.mu);
  ItemCollection& collection = stripe.FindOrCreate({key.hash, key.partition});
  const Item* existing = collection.Find(key.entry);
  const size_t old_size = existing != nullptr ? ItemSize(*existing) : 0;
  auto [stored, inserted] = collection.InsertOrAssign(
      key.entry, std::move(entry), nullptr,
      KnownItemSizes{.item = size, .old = existing != nullptr ? old_size : kUnknownItemSize});
  (void)stored;
  if (inserted) ++stripe.item_count;
  stripe.size_bytes += static_cast<int64_t>(size) - static_cast<int64_t>(old_size);
  return old_size;
}

}  // namespace

void Table::MaintainIndexes(const Item* old_item, const Item* new_item, const EncodedKey& key,
                            CapacityCharge* charge) {
  for (const auto& index_ptr : indexes_) {
    SecondaryIndex& index = *index_ptr;
    std::optional<SecondaryIndex::EntryKey> old_key, new_key;
    if (old_item != nullptr) old_key = index.KeyOf(*old_item, key.partition, key.sort);
    if (new_item != nullptr) new_key = index.KeyOf(*new_item, key.partition, key.sort);
    if (!old_key && !new_key) continue;
    if (old_key && new_key && *old_key == *new_key) {
      Item old_entry = index.Project(*old_item);
      Item new_entry = index.Project(*new_item);
      if (old_entry == new_entry) continue;  // nothing the index carries changed
      const size_t new_size = ItemSize(new_entry);
      const size_t old_size = PutEntry(index, *new_key, std::move(new_entry), new_size);
      AddIndexCharge(index, EntryWriteHalfUnits(std::max(old_size, new_size)), charge);
      continue;
    }
    if (old_key) {
      const size_t old_size = EraseEntry(index, *old_key);
      AddIndexCharge(index, EntryWriteHalfUnits(old_size), charge);
    }
    if (new_key) {
      Item entry = index.Project(*new_item);
      const size_t size = ItemSize(entry);
      PutEntry(index, *new_key, std::move(entry), size);
      AddIndexCharge(index, EntryWriteHalfUnits(size), charge);
    }
  }
}

}  // namespace partstore
