// Catalog: what the cache knows of each upstream table it has served (its key schema, its indexes'
// key schemas, its stream), and the local tables that hold its cached items and pages, in the
// cache's own engine (a private partstore::Database with ExpiryMode::kCache, a memory limit and
// LRU eviction).
//
// A table is described once, on first use (DescribeTable upstream). Forget drops the table's
// entry and its local tables, so the next use describes it again with empty caches (after
// UpdateTable, DeleteTable, a PartiQL write, Clear).
//
// Local items and pages carry hidden attributes the cache strips before answering:
// kExpiresAttribute (when the entry stops being fresh, on the cache's clock: Expired) and, for
// "no such item" entries, kAbsentAttribute. Expired entries are not read again; the memory limit's
// LRU eviction reclaims them (as Redis reclaims expired keys it is not asked for). The engine's
// own TTL is not used: its check parses a Number on every read, this one reads 8 bytes.
//
// Thread safety: safe for concurrent use. Lock order: mu_ is a leaf (never held while calling
// the upstream or the local engine).
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include "partstore/consumed_capacity.h"
#include "partstore/database.h"
#include "partstore/key.h"
#include "partstore/store.h"
#include "partstore/stored_item.h"

namespace partstore {
class Table;
}  // namespace partstore

namespace partstore::cache {

// Short, so that they cost a cached item few bytes; ESC first, so that they sort before every
// other name (and no DynamoDB user writes such a name).
inline constexpr std::string_view kExpiresAttribute =
    "\x1b"
    "e";
inline constexpr std::string_view kAbsentAttribute =
    "\x1b"
    "a";

// Whether `name` is one of the hidden names (two bytes each: compared without a call).
inline bool IsHiddenName(std::string_view name, char which) {
  return name.size() == 2 && name[0] == '\x1b' && name[1] == which;
}
inline bool IsExpiresName(std::string_view name) { return IsHiddenName(name, 'e'); }
inline bool IsAbsentName(std::string_view name) { return IsHiddenName(name, 'a'); }

// The expiry attribute's value: `micros` on the cache's clock, as 8 bytes.
Value ExpiryValue(int64_t micros);
// Whether `stored` is past its expiry at `now_micros` (an entry without one is).
bool Expired(const StoredItem& stored, int64_t now_micros);

// What a hit reports when the caller asked for ConsumedCapacity: 0 units of `table` (it was not
// read); nullopt when not asked.
std::optional<ConsumedCapacity> ZeroCapacity(std::string_view table, ReturnConsumedCapacity asked);

struct CachedIndex {
  std::string name;
  KeySchema key;
};

struct CachedTable {
  std::string name;  // the upstream's
  KeySchema key;
  std::vector<CachedIndex> indexes;  // GSIs, then LSIs
  // The stream, when the table has one (empty: none), and what its records carry.
  std::string stream_arn;
  bool stream_has_new_images = false;
  bool stream_has_old_images = false;
  // The local tables: cached items (the upstream's key schema) and pages (c, r: binary).
  std::string items_name, pages_name;
  std::shared_ptr<Table> items, pages;
  // Generations of the table's pages: [0] the base table's, [1 + i] index i's. A page records
  // them when it is read from the upstream and is valid while they are unchanged.
  std::unique_ptr<std::atomic<uint64_t>[]> generations;
  // The stream follower's first look at the stream (stream_follower.h), once; `followed` when it
  // is done (or not needed), so that the hit path can skip StreamFollower::Follow.
  std::once_flag stream_once;
  std::atomic<bool> followed{false};

  // The index named `name`'s position in indexes, or -1.
  int FindIndex(std::string_view index_name) const;
};

class Catalog {
 public:
  Catalog(Store& upstream, Database& local);

  // The table named `name`, described and set up on first use; null when the upstream does not
  // describe it (the caller then passes its request through, so the upstream's error answers).
  std::shared_ptr<CachedTable> Get(std::string_view name);
  // The table if it is set up already (no upstream call); null otherwise.
  std::shared_ptr<CachedTable> Find(std::string_view name) const;
  // The same for the hit path, without the lock and the reference count: the calling thread
  // keeps the table alive (a few thread-local slots, checked against the catalog's version) until
  // its next Pinned call. REQUIRES: no Pinned call of any Catalog on this thread while the
  // pointer is used (the hit path calls neither the upstream nor another cache).
  CachedTable* Pinned(std::string_view name) const;
  // Forgets `name` (no-op when unknown), or every table.
  void Forget(std::string_view name);
  void ForgetAll();
  // Every table set up now.
  std::vector<std::shared_ptr<CachedTable>> Tables() const;

 private:
  Result<std::shared_ptr<CachedTable>> SetUp(const TableDescription& description);
  void DropLocal(const CachedTable& table);

  Store& upstream_;
  Database& local_;
  const uint64_t id_;  // unique in the process: Pinned's slots name their catalog by it
  std::atomic<uint64_t> version_{0};  // changes whenever tables_ does
  mutable std::shared_mutex mu_;      // guards tables_ and next_id_
  std::map<std::string, std::shared_ptr<CachedTable>, std::less<>> tables_;
  uint64_t next_id_ = 0;
};

}  // namespace partstore::cache
