// ReadThrough: see partstore/read_through.h.
#include "partstore/read_through.h"

#include <condition_variable>
#include <cstdlib>
#include <utility>

#include "core/key_encoding.h"
#include "shard/database_state.h"

namespace partstore {

// One load in progress, which the callers missing the same key wait for.
struct ReadThrough::Flight {
  std::mutex mu;  // guards done and result
  std::condition_variable cv;
  bool done = false;
  Result<std::optional<Item>> result = Status::Internal("ReadThrough: load not finished");
};

namespace {

// The key's identity for the single flight: its attributes in name order, each name and its
// order-preserving encoding length-prefixed. REQUIRES: scalar values (GetItem checked the key).
std::string FlightKey(const Item& key) {
  std::string out;
  for (const auto& [name, value] : key) {
    std::string encoded;
    AppendKeyEncoding(value, &encoded);
    out += std::to_string(name.size()) + ':' + name + std::to_string(encoded.size()) + ':';
    out += encoded;
  }
  return out;
}

}  // namespace

ReadThrough::ReadThrough(Store& db, ReadThroughOptions options)
    : db_(db), options_(std::move(options)) {}

ReadThrough::~ReadThrough() = default;

bool ReadThrough::Expired(const Item& item) const {
  if (options_.ttl_attribute.empty()) return false;
  auto it = item.find(options_.ttl_attribute);
  if (it == item.end() || !it->second.is(Type::kN)) return false;
  const std::string text = it->second.as_number().ToString();
  return std::strtod(text.c_str(), nullptr) < db_.EpochSeconds();
}

Result<std::optional<Item>> ReadThrough::GetOrLoad(const Item& key, const Loader& load) {
  if (!(options_.ttl_seconds > 0)) {
    return Status::Validation("ReadThrough: ttl_seconds must be positive");
  }
  PARTSTORE_ASSIGN_OR_RETURN(GetItemResult got,
                             db_.GetItem({.table_name = options_.table_name, .key = key}));
  if (got.item) {
    if (!Expired(*got.item)) {
      hits_.fetch_add(1, std::memory_order_relaxed);
      return std::move(got.item);
    }
    expired_.fetch_add(1, std::memory_order_relaxed);
  }
  misses_.fetch_add(1, std::memory_order_relaxed);

  const std::string flight_key = FlightKey(key);
  std::shared_ptr<Flight> flight;
  bool leader = false;
  {
    std::lock_guard lock(mu_);
    auto [it, inserted] = flights_.try_emplace(flight_key);
    if (inserted) it->second = std::make_shared<Flight>();
    flight = it->second;
    leader = inserted;
  }
  if (!leader) {
    shared_loads_.fetch_add(1, std::memory_order_relaxed);
    std::unique_lock wait(flight->mu);
    flight->cv.wait(wait, [&] { return flight->done; });
    return flight->result;
  }
  // A load that finished between this caller's read and its flight stored the item: use it.
  Result<std::optional<Item>> result = Status::Internal("");
  Result<GetItemResult> again = db_.GetItem({.table_name = options_.table_name, .key = key});
  if (again.ok() && again->item && !Expired(*again->item)) {
    result = std::move(again->item);
  } else {
    result = Load(key, load);
  }
  {
    std::lock_guard lock(flight->mu);
    flight->result = result;
    flight->done = true;
  }
  flight->cv.notify_all();
  {
    std::lock_guard lock(mu_);
    flights_.erase(flight_key);
  }
  return result;
}

Result<std::optional<Item>> ReadThrough::Load(const Item& key, const Loader& load) {
  loads_.fetch_add(1, std::memory_order_relaxed);
  Result<std::optional<Item>> loaded = Status::Internal("ReadThrough: the loader threw");
  try {
    loaded = load(key);
  } catch (...) {
    // Every caller waiting on this load gets the error; none hangs.
  }
  if (!loaded.ok()) {
    load_errors_.fetch_add(1, std::memory_order_relaxed);
    return loaded;
  }
  if (!*loaded) return loaded;  // the source has no such item: nothing to store
  Item item = std::move(**loaded);
  for (const auto& [name, value] : key) {
    auto it = item.find(name);
    if (it == item.end() || it->second != value) {
      load_errors_.fetch_add(1, std::memory_order_relaxed);
      return Status::Validation("ReadThrough: the loaded item's " + name +
                                " is not the requested key's");
    }
  }
  if (!options_.ttl_attribute.empty()) {
    const double expires = db_.EpochSeconds() + options_.ttl_seconds;
    item[options_.ttl_attribute] = Value(static_cast<int64_t>(expires + 0.999999));
  }
  Result<PutItemResult> put = db_.PutItem({.table_name = options_.table_name, .item = item});
  if (!put.ok()) {
    load_errors_.fetch_add(1, std::memory_order_relaxed);
    return put.status();
  }
  return std::optional<Item>(std::move(item));
}

ReadThroughStats ReadThrough::stats() const {
  ReadThroughStats s;
  s.hits = hits_.load(std::memory_order_relaxed);
  s.misses = misses_.load(std::memory_order_relaxed);
  s.expired = expired_.load(std::memory_order_relaxed);
  s.loads = loads_.load(std::memory_order_relaxed);
  s.shared_loads = shared_loads_.load(std::memory_order_relaxed);
  s.load_errors = load_errors_.load(std::memory_order_relaxed);
  return s;
}

}  // namespace partstore
