// ItemCache: see item_cache.h.
#include "cache/item_cache.h"

#include <fmt/format.h>
#include <xxhash.h>

#include <string_view>
#include <utility>
#include <vector>

#include "cache/counters.h"
#include "core/key_encoding.h"
#include "core/stored_item_projection.h"
#include "shard/prepared.h"
#include "shard/table.h"

namespace partstore::cache {
namespace {

// The key's attributes in schema order, each order-preserving encoded and length-prefixed,
// after the local table's name: the key's identity in this cache.
std::string KeyIdentity(const CachedTable& table, const Item& key) {
  std::string out = table.items_name;
  out.push_back('\0');
  auto append = [&](const std::string& name) {
    auto it = key.find(name);
    if (it == key.end()) return;
    std::string encoded;
    AppendKeyEncoding(it->second, &encoded);
    out += std::to_string(encoded.size());
    out.push_back(':');
    out += encoded;
  };
  append(table.key.partition.name);
  if (table.key.sort) append(table.key.sort->name);
  return out;
}

}  // namespace

ItemCache::ItemCache(Store& upstream, const capacity::Clock& clock, CacheCounters& counters,
                     double item_ttl, double negative_ttl)
    : upstream_(upstream),
      clock_(clock),
      counters_(counters),
      item_ttl_micros_(static_cast<int64_t>(item_ttl * 1e6)),
      negative_ttl_micros_(static_cast<int64_t>(negative_ttl * 1e6)),
      slots_(std::make_unique<Slot[]>(kSlots)) {}

size_t ItemCache::SlotOf(const CachedTable& table, const Item& key) const {
  const std::string identity = KeyIdentity(table, key);
  return XXH3_64bits(identity.data(), identity.size()) % kSlots;
}

uint64_t ItemCache::Generation(const CachedTable& table, const Item& key) const {
  Slot& slot = slots_[SlotOf(table, key)];
  std::lock_guard lock(slot.mu);
  return slot.generation;
}

Result<std::optional<std::optional<StoredItem>>> ItemCache::Peek(
    const CachedTable& table, const GetItemRequest& request) const {
  // The local table reads the caller's key as it is (no copy of the request). One read in
  // kTouchEvery marks the entry's collection used for the LRU eviction (a stamp from a counter
  // every core shares, written into the collection): an approximate LRU, as Redis's sampled one
  // is, that keeps the hit path off that shared counter. Writes and fills always stamp.
  PARTSTORE_ASSIGN_OR_RETURN(Table::EncodedKey key, table.items->EncodeItemKey(request.key));
  thread_local uint32_t reads = 0;
  StoredItem item = table.items->ReadItem(key, ++reads % kTouchEvery == 0);
  if (!item || Expired(item, clock_.NowMicros())) {
    return std::optional<std::optional<StoredItem>>();
  }
  // The hidden names start with ESC, so they sort before any other: "no such item" is entry 0.
  const MapView attributes = item.attributes();
  if (!attributes.empty() && IsAbsentName(attributes.at(0).name)) {
    return std::optional<std::optional<StoredItem>>(std::optional<StoredItem>());
  }
  return std::optional<std::optional<StoredItem>>(std::move(item));
}

std::optional<ItemRead> ItemCache::Hit(const CachedTable& table, const GetItemRequest& request) {
  Result<std::optional<std::optional<StoredItem>>> peeked = Peek(table, request);
  if (!peeked.ok() || !*peeked) return std::nullopt;
  std::optional<StoredItem>& cached = **peeked;
  if (cached) {
    counters_.item_hits.Add();
  } else {
    counters_.negative_hits.Add();
  }
  return ItemRead{.item = std::move(cached),
                  .consumed_capacity = ZeroCapacity(table.name, request.return_consumed_capacity)};
}

Result<ItemRead> ItemCache::Read(const CachedTable& table, const GetItemRequest& request) {
  const Item& key = request.key;
  const ReturnConsumedCapacity return_consumed_capacity = request.return_consumed_capacity;
  Result<std::optional<std::optional<StoredItem>>> peeked = Peek(table, request);
  if (!peeked.ok()) return ItemRead{.refused = true};
  std::optional<std::optional<StoredItem>>& cached = *peeked;
  if (cached) {
    if (*cached) {
      counters_.item_hits.Add();
    } else {
      counters_.negative_hits.Add();
    }
    return ItemRead{.item = std::move(*cached),
                    .consumed_capacity = ZeroCapacity(table.name, return_consumed_capacity)};
  }
  CacheCounters::Add(counters_.item_misses);

  const std::string identity = KeyIdentity(table, key);
  std::shared_ptr<Flight> flight;
  bool leader = false;
  {
    std::lock_guard lock(flights_mu_);
    auto [it, inserted] = flights_.try_emplace(identity);
    if (inserted) it->second = std::make_shared<Flight>();
    flight = it->second;
    leader = inserted;
  }
  if (!leader) {
    CacheCounters::Add(counters_.shared_loads);
    std::unique_lock wait(flight->mu);
    flight->cv.wait(wait, [&] { return flight->done; });
    if (flight->abandoned) {
      wait.unlock();
      return Load(table, key, return_consumed_capacity);  // the batch that led it could not read it
    }
    Result<ItemRead> shared = flight->result;
    if (shared.ok()) {
      shared->consumed_capacity = ZeroCapacity(table.name, return_consumed_capacity);
    }
    return shared;
  }
  Result<ItemRead> result = Load(table, key, return_consumed_capacity);
  Finish(identity, flight, result, /*abandoned=*/false);
  return result;
}

void ItemCache::Finish(const std::string& identity, const std::shared_ptr<Flight>& flight,
                       Result<ItemRead> result, bool abandoned) {
  {
    std::lock_guard lock(flight->mu);
    flight->result = std::move(result);
    flight->abandoned = abandoned;
    flight->done = true;
  }
  flight->cv.notify_all();
  std::lock_guard lock(flights_mu_);
  auto it = flights_.find(identity);
  if (it != flights_.end() && it->second == flight) flights_.erase(it);
}

ItemCache::FlightTicket ItemCache::JoinOrLead(const CachedTable& table, const Item& key) {
  FlightTicket ticket;
  ticket.identity_ = KeyIdentity(table, key);
  std::lock_guard lock(flights_mu_);
  auto [it, inserted] = flights_.try_emplace(ticket.identity_);
  if (inserted) it->second = std::make_shared<Flight>();
  ticket.flight_ = it->second;
  ticket.leader_ = inserted;
  if (!inserted) CacheCounters::Add(counters_.shared_loads);
  return ticket;
}

void ItemCache::Complete(FlightTicket& ticket, const std::optional<Item>& item) {
  ItemRead read;
  if (item) read.item = StoredItem::Encode(*item);
  Finish(ticket.identity_, std::static_pointer_cast<Flight>(ticket.flight_), std::move(read),
         /*abandoned=*/false);
}

void ItemCache::Abandon(FlightTicket& ticket) {
  Finish(ticket.identity_, std::static_pointer_cast<Flight>(ticket.flight_),
         Status::Internal("abandoned"), /*abandoned=*/true);
}

std::optional<std::optional<StoredItem>> ItemCache::Await(FlightTicket& ticket) {
  auto flight = std::static_pointer_cast<Flight>(ticket.flight_);
  std::unique_lock wait(flight->mu);
  flight->cv.wait(wait, [&] { return flight->done; });
  if (flight->abandoned || !flight->result.ok()) return std::nullopt;
  return std::optional<std::optional<StoredItem>>(flight->result->item);
}

Result<ItemRead> ItemCache::Load(const CachedTable& table, const Item& key,
                                 ReturnConsumedCapacity return_consumed_capacity) {
  const uint64_t generation = Generation(table, key);
  Result<GetItemResult> got = TimedCall(counters_, [&] {
    return upstream_.GetItem({.table_name = table.name,
                              .key = key,
                              .return_consumed_capacity = return_consumed_capacity});
  });
  if (!got.ok()) return got.status();
  Fill(table, key, got->item, generation);
  ItemRead read;
  if (got->item) read.item = StoredItem::Encode(*got->item);
  read.consumed_capacity = std::move(got->consumed_capacity);
  return read;
}

void ItemCache::Fill(const CachedTable& table, const Item& key, const std::optional<Item>& item,
                     uint64_t generation) {
  Slot& slot = slots_[SlotOf(table, key)];
  std::lock_guard lock(slot.mu);
  if (slot.generation != generation) return;
  StoreLocked(table, key, item ? &*item : nullptr);
}

void ItemCache::StoreLocked(const CachedTable& table, const Item& key, const Item* item) {
  PutItemRequest put{.table_name = table.items_name, .item = item != nullptr ? *item : key};
  const int64_t ttl = item != nullptr ? item_ttl_micros_ : negative_ttl_micros_;
  put.item.insert_or_assign(std::string(kExpiresAttribute), ExpiryValue(clock_.NowMicros() + ttl));
  if (item == nullptr) put.item.insert_or_assign(std::string(kAbsentAttribute), Value(true));
  // An item the local table cannot hold (its size with the expiry past 400 KB) is not cached;
  // an older entry of the key must not stay either.
  if (!table.items->PutItem(put).ok()) ForgetLocked(table, key);
}

void ItemCache::ForgetLocked(const CachedTable& table, const Item& key) {
  (void)table.items->DeleteItem({.table_name = table.items_name, .key = key});
}

ItemCache::WriteGuard ItemCache::BeginWrite(std::shared_ptr<CachedTable> table, Item key) {
  return WriteGuard(this, std::move(table), std::move(key));
}

ItemCache::WriteGuard::WriteGuard(ItemCache* cache, std::shared_ptr<CachedTable> table, Item key)
    : cache_(cache), table_(std::move(table)), key_(std::move(key)) {
  slot_ = cache_->SlotOf(*table_, key_);
  Slot& slot = cache_->slots_[slot_];
  std::lock_guard lock(slot.mu);
  if (slot.writes_in_flight > 0) slot.contended = true;
  ++slot.writes_in_flight;
}

ItemCache::WriteGuard::WriteGuard(WriteGuard&& other) noexcept
    : cache_(other.cache_),
      table_(std::move(other.table_)),
      key_(std::move(other.key_)),
      slot_(other.slot_),
      finished_(std::exchange(other.finished_, true)) {}

ItemCache::WriteGuard::~WriteGuard() {
  if (!finished_) Finish(Image::Unknown());
}

void ItemCache::WriteGuard::Finish(const Image& after) {
  if (finished_) return;
  finished_ = true;
  Slot& slot = cache_->slots_[slot_];
  std::lock_guard lock(slot.mu);
  ++slot.generation;
  if (slot.contended || after.kind == Image::Kind::kUnknown) {
    cache_->ForgetLocked(*table_, key_);
  } else {
    cache_->StoreLocked(*table_, key_, after.kind == Image::Kind::kItem ? &after.item : nullptr);
  }
  CacheCounters::Add(cache_->counters_.item_invalidations);
  if (--slot.writes_in_flight == 0) slot.contended = false;
}

void ItemCache::Refresh(const CachedTable& table, const Item& key, const Image& after) {
  Slot& slot = slots_[SlotOf(table, key)];
  std::lock_guard lock(slot.mu);
  ++slot.generation;
  if (slot.writes_in_flight > 0) slot.contended = true;
  Result<std::optional<std::optional<StoredItem>>> cached =
      Peek(table, {.table_name = table.items_name, .key = key});
  if (!cached.ok() || !*cached) return;  // not cached: nothing to refresh
  CacheCounters::Add(counters_.item_invalidations);
  if (after.kind == Image::Kind::kUnknown || slot.writes_in_flight > 0) {
    ForgetLocked(table, key);
  } else {
    StoreLocked(table, key, after.kind == Image::Kind::kItem ? &after.item : nullptr);
  }
}

Item ItemCache::ToItem(const StoredItem& stored) {
  // The entries in name order, the hidden ones (first: they start with ESC) left out; sorted and
  // unique, so the map adopts them with no search or compare (as MapView::ToMap does).
  const MapView attributes = stored.attributes();
  Item::sequence_type entries;
  entries.reserve(attributes.size());
  for (const MapEntry& entry : attributes) {
    if (IsExpiresName(entry.name) || IsAbsentName(entry.name)) continue;
    entries.emplace_back(std::string(entry.name), entry.value.ToValue());
  }
  Item item;
  item.adopt_sequence(boost::container::ordered_unique_range, std::move(entries));
  return item;
}

StoredItem ItemCache::Strip(const StoredItem& stored) {
  if (!stored.Find(kExpiresAttribute)) return stored;
  std::vector<std::string_view> names;
  names.reserve(stored.attribute_count());
  for (const MapEntry& entry : stored.attributes()) {
    if (!IsExpiresName(entry.name) && !IsAbsentName(entry.name)) {
      names.push_back(entry.name);
    }
  }
  return ProjectStoredItem(stored, std::move(names));
}

}  // namespace partstore::cache
