// Table: its side of capacity simulation — what a write costs each table and GSI partition it
// touches, handed to TableCapacity (shard/capacity/table_capacity.h) to admit or throttle.
#include <string>
#include <vector>

#include "shard/table.h"

namespace partstore {

int64_t Table::LocalHalfUnits(const IndexWritePlan& plan) {
  int64_t total = 0;
  for (const IndexWrite& write : plan) {
    if (!write.index->global()) total += write.erase_half_units + write.put_half_units;
  }
  return total;
}

Status Table::ChargeWrite(const EncodedKey& key, const Item& key_source, int64_t half_units,
                          int64_t bytes, int64_t items, const IndexWritePlan& plan,
                          const StoredItem* old_item, const StoredItem* new_item,
                          capacity::RequestCounting counting, capacity::Metering metering) {
  if (!capacity_) return Status::Ok();
  const KeyAccessBuffer base = AccessOf(key, &key_source);
  capacity::WriteCharge write;
  write.hash = key.hash;
  write.half_units = half_units + LocalHalfUnits(plan);
  write.bytes = bytes;
  write.items = items;
  write.key = base.access();
  write.counting = counting;
  write.metering = metering;
  // The GSI entries' item keys, reserved up front so that the views into them stay valid.
  std::vector<std::string> item_keys;
  if (!plan.empty()) item_keys.reserve(2 * plan.size());
  auto access = [&](const SecondaryIndex::EntryKey& entry, const StoredItem* source) {
    const std::string& item = item_keys.emplace_back(
        capacity_->records_keys() ? entry.partition + entry.entry : std::string());
    return capacity::KeyAccess{entry.partition, item, nullptr, source};
  };
  for (const IndexWrite& w : plan) {
    if (!w.index->global() || w.repoint) continue;
    if (w.erase) {
      write.indexes.push_back({w.index->name(), w.erase->hash, w.erase_half_units,
                               -static_cast<int64_t>(w.old_size), -1, access(*w.erase, old_item)});
    }
    if (w.put) {
      write.indexes.push_back(
          {w.index->name(), w.put->hash, w.put_half_units,
           static_cast<int64_t>(w.new_size) - static_cast<int64_t>(w.replaces ? w.old_size : 0),
           w.replaces ? 0 : 1, access(*w.put, new_item)});
    }
  }
  return capacity_->Write(write);
}

}  // namespace partstore
