// QueryCache: the query cache of a CachedStore (partstore/cached_store.h): Query and Scan pages
// keyed by their whole request, in each table's local pages table (catalog.h).
//
// A page is filed under its group: for a Query, the table (or index) and the partition key it
// reads; for a Scan, the table (or index). Its key is (c: a hash of the group, r: a hash of the
// request's JSON, every member included). Invalidation never searches for pages: each group hashes
// to one of kSlots generations, and each table and index has a generation of its own
// (CachedTable::generations); a page records both when it is read from the upstream and is a hit
// only while both are unchanged. Dropping a group or a whole index is one increment; stale pages
// are left for the TTL and the memory limit to reclaim. A fill records the generations before
// the upstream read, so a page read before a write that finished meanwhile is never a hit.
//
// Thread safety: safe for concurrent use (atomics; the local engine's own locks).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cache/catalog.h"
#include "cache/image.h"
#include "core/expr/cache.h"
#include "partstore/clock.h"
#include "partstore/read_requests.h"
#include "partstore/store.h"

namespace partstore::cache {

struct CacheCounters;

class QueryCache {
 public:
  static constexpr size_t kSlots = 65536;

  QueryCache(Store& upstream, const capacity::Clock& clock, CacheCounters& counters,
             expr::ExpressionCache& expressions, double ttl);

  // The page from memory, or from the upstream (then kept). nullopt: the cache does not read
  // this request (it finds it invalid, or cannot tell its partition key): pass it through.
  // REQUIRES: !request.consistent_read.
  std::optional<Result<QueryResult>> Query(const CachedTable& table, const QueryRequest& request);
  std::optional<Result<QueryViewResult>> QueryView(const CachedTable& table,
                                                   const QueryRequest& request);
  std::optional<Result<ScanResult>> Scan(const CachedTable& table, const ScanRequest& request);
  std::optional<Result<ScanViewResult>> ScanView(const CachedTable& table,
                                                 const ScanRequest& request);

  // Invalidation. `index`: -1 for the table, else the position in CachedTable::indexes.
  void DropPartition(const CachedTable& table, int index, const Value& partition);
  void DropScans(const CachedTable& table);  // of the table and of every index
  void DropIndex(const CachedTable& table, int index);
  // What a write of the item at `key` can have changed: the pages of its partition key, the
  // table's Scan pages, and in each index the pages of the index keys the item had before and
  // has after (all the index's pages when one of them is unknown and the write may have changed
  // the index's key attributes). `touched`: the top-level attributes the write may have changed;
  // null: any.
  void DropWrite(const CachedTable& table, const Item& key, const Image& before, const Image& after,
                 const std::vector<std::string>* touched);

 private:
  struct Group;
  template <typename Page, typename Request, typename Read>
  std::optional<Result<Page>> Run(const CachedTable& table, const Request& request,
                                  const Group& group, const std::string& request_json, Read read);
  std::optional<Group> QueryGroup(const CachedTable& table, const QueryRequest& request);
  std::optional<Group> ScanGroup(const CachedTable& table, const ScanRequest& request);
  void Bump(const std::string& group_key);

  Store& upstream_;
  const capacity::Clock& clock_;
  CacheCounters& counters_;
  expr::ExpressionCache& expressions_;
  const int64_t ttl_micros_;
  std::unique_ptr<std::atomic<uint64_t>[]> slots_;
};

}  // namespace partstore::cache
