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

// A thread's memo of the short names it asked for last. Every item of a table carries the same
// few names, so most asks repeat one; a memo hit is one compare of bytes already in the cache,
// where the table costs a hash and two or three dependent loads (a snapshot's load asks for
// every name of every item: BM_Snapshot_Load, bench/README.md). An answer never changes (a name
// keeps its number, and a full table stays full), so the memo is never stale.
constexpr size_t kMemoNameLength = 16;
// A name of 1..16 bytes as two words that, with its length, hold every byte: its first and last
// 8 bytes (overlapping) from 8 bytes on, its first and last 4 from 4, else the bytes one by one.
struct Words {
  uint64_t first = 0;
  uint64_t last = 0;
  friend bool operator==(const Words&, const Words&) = default;
};
Words WordsOf(std::string_view name) {
  Words w;
  const char* p = name.data();
  const size_t n = name.size();
  if (n >= 8) {
    std::memcpy(&w.first, p, 8);
    std::memcpy(&w.last, p + n - 8, 8);
  } else if (n >= 4) {
    uint32_t a;
    uint32_t b;
    std::memcpy(&a, p, 4);
    std::memcpy(&b, p + n - 4, 4);
    w.first = a;
    w.last = b;
  } else {
    for (size_t i = 0; i < n; ++i) w.first |= uint64_t{static_cast<uint8_t>(p[i])} << (8 * i);
  }
  return w;
}
struct MemoEntry {
  Words words;
  uint32_t length = 0;  // 0: empty (no name is empty)
  uint32_t id = kNone;
};
// Two ways of 128 sets (6 KiB a thread): a table's few dozen names rarely evict each other.
constexpr int kMemoSetBits = 7;
struct MemoSet {
  MemoEntry way[2];  // way[0] the most recently filled
};
thread_local MemoSet memo[size_t{1} << kMemoSetBits];

MemoSet& MemoOf(const Words& words, size_t length) {
  constexpr uint64_t kMix = 0x9E3779B97F4A7C15ULL;  // 2^64 / the golden ratio
  const uint64_t mixed = (words.first ^ (words.last * kMix) ^ length) * kMix;
  return memo[mixed >> (64 - kMemoSetBits)];
}

uint32_t InternInTable(std::string_view name);

}  // namespace

uint32_t Intern(std::string_view name) {
  if (name.empty()) return kNone;  // never numbered (and an empty memo slot has length 0)
  if (name.size() > kMemoNameLength) return InternInTable(name);
  const Words words = WordsOf(name);
  MemoSet& set = MemoOf(words, name.size());
  for (const MemoEntry& entry : set.way) {
    if (entry.length == name.size() && entry.words == words) return entry.id;
  }
  const uint32_t id = InternInTable(name);
  set.way[1] = set.way[0];
  set.way[0] = MemoEntry{words, static_cast<uint32_t>(name.size()), id};
  return id;
}

namespace {

uint32_t InternInTable(std::string_view name) {
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

}  // namespace

uint32_t size() { return count.load(std::memory_order_relaxed); }

}  // namespace attribute_name_table
}  // namespace partstore
