// A bounded cache of parsed expressions, keyed by (expression kind, text).
//
// Stage 1 (parser.h) depends on the text alone, so a tree parsed once serves every later request
// with the same text. Failed parses are cached too: their Status is the answer for that text.
// The kind is part of the key because the kinds differ in grammar and in the parameter name that
// prefixes every message (ConditionExpression vs FilterExpression share a grammar, not a text).
//
// Returned trees are std::shared_ptr<const T>: immutable, shared by every caller, alive as long
// as any caller holds them (eviction only drops the cache's reference). A hit returns the same
// pointer the first parse produced.
//
// Bound: at most `capacity` entries in the shared table, each shard holding at most its share
// and evicting its least recently used entry. Each thread also keeps its last kFrontSlots
// entries in a private front table (see below), which may keep an entry the shared table has
// evicted alive, so memory is bounded by capacity + kFrontSlots per thread. Texts longer than
// kMaxExpressionSize are rejected by the size check without being cached, so an entry holds at
// most 4 KB of text plus its tree.
//
// Thread safety: safe for concurrent use. The shared table is spread over up to 16 shards by
// the key's hash; each shard has its own mutex, held only to look up, insert or move one entry.
// Parsing happens outside any lock (two threads that miss on the same text both parse it; the
// first to insert wins and both get its tree). A hit in the calling thread's front table takes
// no lock and writes only thread-private memory: the returned shared_ptr shares a control block
// owned by that thread, so threads reusing the same hot expressions do not contend.
// Lock order: a thread holds at most one shard mutex at a time and never calls out while
// holding it, so there is no order to respect.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "core/expr/ast.h"
#include "core/expr/parser.h"
#include "partstore/status.h"

namespace partstore::expr {

class ExpressionCache {
 public:
  // capacity == 0 disables caching (every call parses).
  explicit ExpressionCache(size_t capacity);
  ~ExpressionCache();
  ExpressionCache(const ExpressionCache&) = delete;
  ExpressionCache& operator=(const ExpressionCache&) = delete;

  // ParseCondition(text, kind), cached. REQUIRES: kind is kCondition, kFilter or kKeyCondition.
  Result<std::shared_ptr<const Condition>> GetCondition(std::string_view text, ExpressionKind kind);
  // ParseUpdate(text), cached.
  Result<std::shared_ptr<const UpdateExpression>> GetUpdate(std::string_view text);
  // ParseProjection(text), cached.
  Result<std::shared_ptr<const ProjectionExpression>> GetProjection(std::string_view text);

  // Entries per thread in the private front table.
  static constexpr size_t kFrontSlots = 256;

  size_t capacity() const { return capacity_; }
  // Entries currently in the shared table (a snapshot; takes each shard's lock in turn).
  size_t size() const;

  // Counters of the shared table, summed over the shards (a snapshot). Hits in a thread's
  // front table are not counted: counting them would bring back the shared writes it avoids.
  struct Stats {
    uint64_t hits = 0;       // found in the shared table
    uint64_t misses = 0;     // parsed
    uint64_t evictions = 0;  // dropped from the shared table
  };
  Stats stats() const;

 private:
  struct Entry;
  class Shard;
  struct Found {
    const Entry* entry;
    std::shared_ptr<const void> owner;  // keeps *entry alive
  };

  // The cached entry for (kind, text), parsing and inserting it on a miss.
  Found Lookup(std::string_view text, ExpressionKind kind);
  template <typename T>
  Result<std::shared_ptr<const T>> Get(std::string_view text, ExpressionKind kind);

  const uint64_t id_;  // tells this cache's entries apart in the threads' front tables
  size_t capacity_;
  std::vector<std::unique_ptr<Shard>> shards_;
};

}  // namespace partstore::expr
