// ReadThrough: a table used as a read-through cache in front of a slower source of truth.
//
//   partstore::ReadThrough users(db, {.table_name = "Users", .ttl_attribute = "expires_at",
//                                     .ttl_seconds = 300});
//   auto user = users.GetOrLoad({{"PK", partstore::Value("USER#42")}},
//                               [&](const partstore::Item& key) { return LoadFromPostgres(key); });
//   // user: Result<std::optional<Item>>: the item, std::nullopt when the source has none, or the
//   // error of the read or of the load.
//
// GetOrLoad reads the item; a hit is an item whose TTL attribute (when one is configured) has
// not passed, on the store's clock (Store::EpochSeconds(): partstore/time_to_live.h for the
// engine), whether or not the sweeper has deleted it yet: a cache never answers with an expired
// item. On a miss it calls the loader and stores what it returns with the TTL attribute set to now
// + ttl_seconds (enable TTL on the table with that attribute, UpdateTimeToLive, to have the sweeper
// reclaim them). Concurrent misses of one key load once: the first caller loads, the others wait
// for its result (single flight). A loader's error, or an exception it throws, is returned to every
// caller waiting on that load and nothing is stored; std::nullopt ("no such item") is returned and
// not stored.
//
// Any Store will do: the in-process engine, or a RemoteStore in front of DynamoDB.
//
// Thread safety: safe for concurrent use; the store must outlive it, the loader must be safe
// to call from any of the calling threads.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "partstore/item.h"
#include "partstore/status.h"
#include "partstore/store.h"

namespace partstore {

struct ReadThroughOptions {
  std::string table_name;
  // The attribute a loaded item's expiry is written to (epoch seconds, a Number); empty: loaded
  // items never expire and stored ones are never treated as expired.
  std::string ttl_attribute;
  // How long a loaded item is a hit. > 0.
  double ttl_seconds = 300;
};

struct ReadThroughStats {
  uint64_t hits = 0;          // answered from the table
  uint64_t misses = 0;        // not in the table, or expired
  uint64_t expired = 0;       // of the misses, found but past their TTL
  uint64_t loads = 0;         // loader calls
  uint64_t shared_loads = 0;  // misses that waited for another caller's load instead
  uint64_t load_errors = 0;   // loads that failed (an error, an exception, or a store refused)
};

class ReadThrough {
 public:
  // The item for `key` from the source of truth (with the key's attributes), std::nullopt when
  // there is none, or an error.
  using Loader = std::function<Result<std::optional<Item>>(const Item& key)>;

  ReadThrough(Store& db, ReadThroughOptions options);
  ~ReadThrough();
  ReadThrough(const ReadThrough&) = delete;
  ReadThrough& operator=(const ReadThrough&) = delete;

  // See the header comment. Errors: GetItem's (ValidationException for a key not matching the
  // schema, ResourceNotFoundException), PutItem's when the loaded item cannot be stored, a
  // ValidationException when it has another key than `key` or ttl_seconds is not positive, and
  // the loader's own.
  Result<std::optional<Item>> GetOrLoad(const Item& key, const Loader& load);

  ReadThroughStats stats() const;

 private:
  struct Flight;
  Result<std::optional<Item>> Load(const Item& key, const Loader& load);
  bool Expired(const Item& item) const;

  Store& db_;
  const ReadThroughOptions options_;
  std::mutex mu_;  // guards flights_ (a leaf: never held while calling the database or a loader)
  std::unordered_map<std::string, std::shared_ptr<Flight>> flights_;
  std::atomic<uint64_t> hits_{0}, misses_{0}, expired_{0}, loads_{0}, shared_loads_{0},
      load_errors_{0};
};

}  // namespace partstore
