// The attribute-name table (core/attribute_name_table.h): an open-addressing hash table of
// numbers, never removed from, read without a lock.
#include "core/attribute_name_table.h"

#include <atomic>
#include <cstring>

#include "core/mutex.h"
#include "partstore/stored_item.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace partstore {

namespace stored_item_internal {
// Written once per number, under the table's mutex, before the number is published.
std::string_view attribute_names[attribute_name_table::kMaxNames];
}  // namespace stored_item_internal

namespace attribute_name_table {
namespace {

// Twice the names: probes stay short (the table is at most half full).
constexpr size_t kSlots = 2 * kMaxNames;
constexpr size_t kMask = kSlots - 1;
static_assert((kSlots & kMask) == 0);

// A slot: 0 when empty, else the name's hash's upper 32 bits and its number + 1.
std::atomic<uint64_t> slots[kSlots];
std::atomic<uint32_t> count{0};
Mutex mu;

uint64_t Slot(uint64_t hash, uint32_t id) { return (hash & 0xFFFFFFFF00000000ULL) | (id + 1); }

// Where `name` is, or the empty slot where it would go (hash's probe sequence).
size_t Probe(std::string_view name, uint64_t hash, uint32_t* id) {
  for (size_t i = hash & kMask;; i = (i + 1) & kMask) {
    const uint64_t slot = slots[i].load(std::memory_order_acquire);
    if (slot == 0) {
      *id = kNone;
      return i;
    }
    if ((slot >> 32) == (hash >> 32)) {
      const auto candidate = static_cast<uint32_t>(slot) - 1;
      if (stored_item_internal::attribute_names[candidate] == name) {
        *id = candidate;
        return i;
      }
    }
  }
}

}  // namespace

uint32_t Intern(std::string_view name) {
  if (name.size() > kMaxNameLength) return kNone;
  const uint64_t hash = XXH3_64bits(name.data(), name.size());
  uint32_t id = kNone;
  Probe(name, hash, &id);
  if (id != kNone) return id;
  MutexLock lock(&mu);
  const size_t at = Probe(name, hash, &id);  // another thread may have added it meanwhile
  if (id != kNone) return id;
  const uint32_t next = count.load(std::memory_order_relaxed);
  if (next == kMaxNames) return kNone;  // full, for good
  char* bytes = new char[name.size()];  // kept for the process: encodings hold its number
  std::memcpy(bytes, name.data(), name.size());
  stored_item_internal::attribute_names[next] = std::string_view(bytes, name.size());
  slots[at].store(Slot(hash, next), std::memory_order_release);
  count.store(next + 1, std::memory_order_relaxed);
  return next;
}

uint32_t size() { return count.load(std::memory_order_relaxed); }

}  // namespace attribute_name_table
}  // namespace partstore
