// Memory: what a database holds, and a limit on it (DatabaseOptions::memory; `partstore serve
// --memory-limit 2GiB --memory-policy evict`).
//
//   DatabaseOptions options;
//   options.memory = {.limit_bytes = 2ull << 30, .policy = MemoryPolicy::kEvict};
//
// The count is of what the store allocates for its data: item buffers, sort and partition key
// strings, each item collection's arrays and each stripe's hash map (by capacity), and the same
// for every index; heap blocks are rounded up to the allocator's size classes. It leaves out the
// program around the store (connections, requests in flight, the expression cache), a fixed
// overhead the limit does not cover. Database::DescribeMemory reports it, per table too, and
// `partstore serve`'s /metrics as partstore_memory_used_bytes.
//
// With a limit (limit_bytes > 0), a write that grows the store past it:
//   - MemoryPolicy::kReject: fails with MemoryLimitExceededException (Code::kMemoryLimitExceeded,
//     HTTP 400, not retried by the SDKs) and changes nothing (a transaction is checked whole; a
//     BatchWriteItem is atomic per item: the items before the refused one are written). Deletes
//     and writes that shrink the store always succeed. The check is made before the write, on
//     an estimate of its growth (the item, its index entries, a stripe's hash map doubling), and
//     concurrent writes are checked independently, so the store may end a few writes past the
//     limit. An UpdateTable that adds an index is not refused; its entries count.
//   - MemoryPolicy::kEvict: succeeds, and then whole item collections (every item of one
//     partition key, with their index entries, under the key's stripe lock, so a Query sees all
//     of a collection or none of it) are evicted until the store is within the limit. The victim
//     is chosen as Redis chooses: `eviction_samples` collections sampled at random, a pool of the
//     16 best candidates kept across rounds, and the least recently used evicted (reads and writes
//     of a collection mark it used; Scans do not). With ttl_first, collections holding an item
//     with a TTL value go first, the nearest expiry first (eviction samples up to ten more rounds
//     to find one). Evictions consume no capacity and are counted per table. After an
//     UpdateTable that adds an index, the evictor runs too.
//
// Thread safety: value types.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace partstore {

enum class MemoryPolicy : uint8_t {
  kReject,  // refuse a write that would pass the limit
  kEvict,   // evict least recently used item collections
};

struct MemoryOptions {
  // 0: no limit (the store is counted all the same). Otherwise at least 1 MiB.
  uint64_t limit_bytes = 0;
  MemoryPolicy policy = MemoryPolicy::kReject;
  // kEvict: collections sampled per eviction round (Redis's maxmemory-samples). 1..64.
  int eviction_samples = 5;
  // kEvict: prefer collections with the nearest TTL expiry (Redis's volatile-ttl, then LRU).
  bool ttl_first = false;
};

struct DescribeMemoryRequest {};  // (Partstore.DescribeMemory over the wire)

struct TableMemory {
  std::string table_name;
  int64_t bytes = 0;           // the table's items, keys, structures and indexes
  uint64_t evicted_items = 0;  // since the table was created
  uint64_t evicted_collections = 0;
  uint64_t expired_items = 0;  // deleted by TTL (partstore/time_to_live.h)
};

struct DescribeMemoryResult {
  uint64_t limit_bytes = 0;  // 0: none
  MemoryPolicy policy = MemoryPolicy::kReject;
  int64_t used_bytes = 0;  // every table's bytes
  uint64_t rejected_writes = 0;
  std::vector<TableMemory> tables;  // by name
};

}  // namespace partstore
