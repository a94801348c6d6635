#include "shard/table_lookup.h"

#include <atomic>
#include <cstdint>
#include <utility>

namespace partstore {

size_t TableLookup::ThreadSlot() {
  static std::atomic<uint32_t> next_thread{0};
  thread_local const size_t slot = next_thread.fetch_add(1, std::memory_order_relaxed) % kSlots;
  return slot;
}

std::shared_ptr<Table> TableLookup::Find(std::string_view name) {
  Slot& slot = slots_[ThreadSlot()];
  {
    MutexLock lock(&slot.mu);
    for (const Entry& entry : slot.entries) {
      // A copy of the slot's holder, pointing at its table: the count written is the holder's.
      if (entry.name == name) return std::shared_ptr<Table>(entry.holder, entry.holder->get());
    }
  }
  // A miss: the catalogue, with no slot's lock held (they are leaves: a caller may hold the
  // catalogue's lock, as a snapshot does). A Forget that starts meanwhile changes the generation;
  // the table found is then returned but not kept, since its removal may have missed this slot.
  const uint64_t generation = generation_.load();
  std::shared_ptr<Table> table = find_(name);
  if (table == nullptr) return nullptr;
  Entry entry{std::string(name), std::make_shared<std::shared_ptr<Table>>(table)};
  std::shared_ptr<Table> out(entry.holder, table.get());
  std::shared_ptr<std::shared_ptr<Table>> evicted;  // released after the slot's lock
  MutexLock lock(&slot.mu);
  if (generation_.load() != generation) return out;
  for (const Entry& held : slot.entries) {
    if (held.name == name) return out;  // another thread of the slot kept it meanwhile
  }
  if (slot.entries.size() < kTablesPerSlot) {
    slot.entries.push_back(std::move(entry));
  } else {
    Entry& victim = slot.entries[slot.next_victim];
    evicted = std::move(victim.holder);
    victim = std::move(entry);
    slot.next_victim = (slot.next_victim + 1) % kTablesPerSlot;
  }
  return out;
}

void TableLookup::Forget(std::string_view name) {
  // First the generation: a lookup that found the table before this call and keeps it only if
  // the generation is unchanged under its slot's lock either sees the change or is done before
  // that slot is cleaned below.
  generation_.fetch_add(1);
  for (Slot& slot : slots_) {
    std::shared_ptr<std::shared_ptr<Table>> dropped;  // released after the slot's lock
    MutexLock lock(&slot.mu);
    for (auto it = slot.entries.begin(); it != slot.entries.end(); ++it) {
      if (it->name != name) continue;
      dropped = std::move(it->holder);
      slot.entries.erase(it);
      slot.next_victim = 0;
      break;
    }
  }
}

}  // namespace partstore
