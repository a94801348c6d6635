// ItemCache: the item cache of a CachedStore (partstore/cached_store.h). Entries live in each
// table's local items table (catalog.h): the whole item as the upstream returned it, or "no such
// item", each with its expiry.
//
// Coherence with concurrent fills and writes. Keys hash to one of kSlots slots, each with a
// mutex, a generation and a count of writes in flight:
//   - a fill (a miss read from the upstream) records its slot's generation before the read and
//     stores only if it is unchanged after it, so a fill can never store what a write (or a
//     stream record) that finished meanwhile has replaced;
//   - a write holds a WriteGuard from before it is sent upstream until its outcome is applied:
//     Finish bumps the generation and stores the new item, "no such item", or forgets the key,
//     under the slot's mutex. When two writes of one slot overlap in time, their order upstream
//     is unknown, so each of them forgets the key instead of storing its item.
// Concurrent misses of one key load once: the first caller reads, the others wait for its result.
//
// Thread safety: safe for concurrent use. Lock order: a flight's mutex and flights_mu_ are
// leaves; a slot's mutex is held while the local engine is written (the engine's locks come
// after it), never while the upstream is called.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "cache/catalog.h"
#include "cache/image.h"
#include "partstore/clock.h"
#include "partstore/item_requests.h"
#include "partstore/store.h"
#include "partstore/stored_item.h"

namespace partstore::cache {

struct CacheCounters;

// The outcome of a read through the item cache: the whole item (hidden attributes possibly
// included: see Strip), or none, with the upstream's consumed capacity on a miss.
struct ItemRead {
  std::optional<StoredItem> item{};
  std::optional<ConsumedCapacity> consumed_capacity{};
  // The local table refused the key (it does not fit the schema): the caller passes its request
  // through, so that the upstream's error answers.
  bool refused = false;
};

class ItemCache {
 public:
  static constexpr size_t kSlots = 4096;
  // One hit in this many marks its entry used for the LRU eviction (Peek).
  static constexpr uint32_t kTouchEvery = 8;

  ItemCache(Store& upstream, const capacity::Clock& clock, CacheCounters& counters, double item_ttl,
            double negative_ttl);

  // The cached entry of request.key, or the upstream's item on a miss (then cached). Of the
  // request only the key and return_consumed_capacity are read (the caller applies the
  // projection; strongly consistent reads never come here). Errors: the upstream's.
  Result<ItemRead> Read(const CachedTable& table, const GetItemRequest& request);
  // Read's hit: the entry when memory holds one (counted as a hit), else nullopt (nothing
  // counted; the caller goes on to Read). Touches nothing but the local table.
  std::optional<ItemRead> Hit(const CachedTable& table, const GetItemRequest& request);
  // Only what memory holds for request.key: an entry (item, or none for "no such item"), or
  // nullopt on a miss. Errors as Read's.
  Result<std::optional<std::optional<StoredItem>>> Peek(const CachedTable& table,
                                                        const GetItemRequest& request) const;
  // BatchGetItem's part in the single flight. For each key it misses, a batch either leads a
  // load (it reads the key itself: Lead returns a ticket to Complete or Abandon after its upstream
  // call) or joins the load in flight (Join returns one to Await after the batch's own call).
  // A batch completes every load it leads before it awaits the ones it joined, so no two batches
  // wait for each other. An abandoned load (an unprocessed key, a failed call) sends the callers
  // waiting on it to read the key themselves.
  class FlightTicket {
   public:
    bool leader() const { return leader_; }

   private:
    friend class ItemCache;
    std::string identity_;
    std::shared_ptr<void> flight_;
    bool leader_ = false;
  };
  FlightTicket JoinOrLead(const CachedTable& table, const Item& key);
  // The leader's outcome: the item (or none) it read.
  void Complete(FlightTicket& ticket, const std::optional<Item>& item);
  void Abandon(FlightTicket& ticket);
  // A joined load's outcome: the entry (item or none), or nullopt when it was abandoned or
  // failed (the batch then hands the key back as unprocessed).
  std::optional<std::optional<StoredItem>> Await(FlightTicket& ticket);

  // Stores an item (or "no such item") read from the upstream by a caller that recorded
  // `generation` (Generation) before the read; nothing when a write finished meanwhile.
  void Fill(const CachedTable& table, const Item& key, const std::optional<Item>& item,
            uint64_t generation);
  uint64_t Generation(const CachedTable& table, const Item& key) const;

  // A write of one key in flight (see the header comment).
  class WriteGuard {
   public:
    WriteGuard(ItemCache* cache, std::shared_ptr<CachedTable> table, Item key);
    WriteGuard(WriteGuard&& other) noexcept;
    WriteGuard& operator=(WriteGuard&&) = delete;
    ~WriteGuard();  // without Finish: forgets the key
    // Applies the write's outcome: the item after it, when known.
    void Finish(const Image& after);

   private:
    ItemCache* cache_;
    std::shared_ptr<CachedTable> table_;
    Item key_;
    size_t slot_;
    bool finished_ = false;
  };
  WriteGuard BeginWrite(std::shared_ptr<CachedTable> table, Item key);

  // A change another writer made (a stream record): refreshes the key's entry when the cache
  // holds one (`after` known) or forgets it.
  void Refresh(const CachedTable& table, const Item& key, const Image& after);

  // Removes the hidden attributes from a cached item.
  static Item ToItem(const StoredItem& stored);
  static StoredItem Strip(const StoredItem& stored);

 private:
  struct Slot {
    std::mutex mu;
    uint64_t generation = 0;
    uint32_t writes_in_flight = 0;
    bool contended = false;
  };
  struct Flight {
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
    bool abandoned = false;  // no result: a waiting GetItem reads the key itself
    Result<ItemRead> result = Status::Internal("the item cache's load did not finish");
  };
  void Finish(const std::string& identity, const std::shared_ptr<Flight>& flight,
              Result<ItemRead> result, bool abandoned);

  size_t SlotOf(const CachedTable& table, const Item& key) const;
  // Writes the entry to the local table (slot held). `item` null: "no such item".
  void StoreLocked(const CachedTable& table, const Item& key, const Item* item);
  void ForgetLocked(const CachedTable& table, const Item& key);
  Result<ItemRead> Load(const CachedTable& table, const Item& key,
                        ReturnConsumedCapacity return_consumed_capacity);

  Store& upstream_;
  const capacity::Clock& clock_;
  CacheCounters& counters_;
  const int64_t item_ttl_micros_, negative_ttl_micros_;
  std::unique_ptr<Slot[]> slots_;
  std::mutex flights_mu_;  // guards flights_
  absl::flat_hash_map<std::string, std::shared_ptr<Flight>> flights_;
};

}  // namespace partstore::cache
