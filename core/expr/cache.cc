#include "core/expr/cache.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <functional>
#include <list>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

#include "core/mutex.h"
#include "core/thread_annotations.h"

namespace partstore::expr {

namespace {

constexpr size_t kMaxShards = 16;

size_t KeyHash(ExpressionKind kind, std::string_view text) {
  const size_t h = std::hash<std::string_view>{}(text);
  return h ^ (static_cast<size_t>(kind) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
}

}  // namespace

// One cached answer: a tree or the Status of the failed parse, with its key.
struct ExpressionCache::Entry {
  ExpressionKind kind;
  std::string text;
  Status error;
  std::shared_ptr<const void> tree;  // a Condition, UpdateExpression or ProjectionExpression
};

namespace {

std::atomic<uint64_t> next_cache_id{1};

// A thread's front table, shared by every ExpressionCache the thread uses: direct-mapped by the
// key's hash. `local` is owned by this thread alone: it holds a reference to the shared entry,
// and the trees handed out share its control block, so a hit writes only this thread's memory.
struct FrontSlot {
  uint64_t cache = 0;  // ExpressionCache::id_; 0 for an empty slot
  size_t hash = 0;
  const void* entry = nullptr;  // the ExpressionCache::Entry, kept alive by `local`
  std::shared_ptr<const void> local;
};

std::array<FrontSlot, ExpressionCache::kFrontSlots>& FrontTable() {
  thread_local std::array<FrontSlot, ExpressionCache::kFrontSlots> table;
  return table;
}

}  // namespace

// One lock stripe: an LRU list of entries and an index into it.
class ExpressionCache::Shard {
 public:
  explicit Shard(size_t capacity) : capacity_(capacity) {}

  // The entry for the key, marked most recently used; null on a miss.
  std::shared_ptr<const Entry> Find(ExpressionKind kind, std::string_view text, size_t hash) {
    MutexLock lock(&mu_);
    auto it = index_.find(Key{kind, text, hash});
    if (it == index_.end()) {
      ++misses_;
      return nullptr;
    }
    ++hits_;
    if (it->second != lru_.begin()) lru_.splice(lru_.begin(), lru_, it->second);
    return it->second->entry;
  }

  // Inserts the entry unless another thread did first; returns the entry now cached.
  std::shared_ptr<const Entry> Insert(size_t hash, std::shared_ptr<const Entry> entry) {
    MutexLock lock(&mu_);
    auto it = index_.find(Key{entry->kind, entry->text, hash});
    if (it != index_.end()) return it->second->entry;
    lru_.push_front(Node{hash, std::move(entry)});
    const Node& node = lru_.front();
    index_.emplace(Key{node.entry->kind, node.entry->text, hash}, lru_.begin());
    while (lru_.size() > capacity_) {
      const Node& victim = lru_.back();
      index_.erase(Key{victim.entry->kind, victim.entry->text, victim.hash});
      lru_.pop_back();
      ++evictions_;
    }
    return node.entry;
  }

  size_t size() {
    MutexLock lock(&mu_);
    return lru_.size();
  }

  void AddStats(Stats* stats) {
    MutexLock lock(&mu_);
    stats->hits += hits_;
    stats->misses += misses_;
    stats->evictions += evictions_;
  }

 private:
  struct Node {
    size_t hash;
    std::shared_ptr<const Entry> entry;
  };
  // Views into an Entry's text (entries never change), or into the caller's text for lookups.
  struct Key {
    ExpressionKind kind;
    std::string_view text;
    size_t hash;
    friend bool operator==(const Key& a, const Key& b) {
      return a.kind == b.kind && a.text == b.text;
    }
  };
  struct KeyHasher {
    size_t operator()(const Key& key) const { return key.hash; }
  };

  const size_t capacity_;
  Mutex mu_;
  std::list<Node> lru_ PARTSTORE_GUARDED_BY(mu_);  // most recently used first
  std::unordered_map<Key, std::list<Node>::iterator, KeyHasher> index_ PARTSTORE_GUARDED_BY(mu_);
  uint64_t hits_ PARTSTORE_GUARDED_BY(mu_) = 0;
  uint64_t misses_ PARTSTORE_GUARDED_BY(mu_) = 0;
  uint64_t evictions_ PARTSTORE_GUARDED_BY(mu_) = 0;
};

ExpressionCache::ExpressionCache(size_t capacity)
    : id_(next_cache_id.fetch_add(1, std::memory_order_relaxed)), capacity_(capacity) {
  const size_t shards = std::min(kMaxShards, capacity);
  shards_.reserve(shards);
  for (size_t i = 0; i < shards; ++i) {
    // Shares that add up to `capacity` exactly.
    const size_t share = capacity / shards + (i < capacity % shards ? 1 : 0);
    shards_.push_back(std::make_unique<Shard>(share));
  }
}

ExpressionCache::~ExpressionCache() = default;

ExpressionCache::Found ExpressionCache::Lookup(std::string_view text, ExpressionKind kind) {
  auto parse = [&]() {
    auto entry = std::make_shared<Entry>();
    entry->kind = kind;
    entry->text.assign(text);
    switch (kind) {
      case ExpressionKind::kUpdate: {
        Result<UpdateExpression> parsed = ParseUpdate(text);
        if (parsed.ok()) {
          entry->tree = std::make_shared<const UpdateExpression>(std::move(parsed).value());
        } else {
          entry->error = parsed.error();
        }
        break;
      }
      case ExpressionKind::kProjection: {
        Result<ProjectionExpression> parsed = ParseProjection(text);
        if (parsed.ok()) {
          entry->tree = std::make_shared<const ProjectionExpression>(std::move(parsed).value());
        } else {
          entry->error = parsed.error();
        }
        break;
      }
      default: {
        Result<Condition> parsed = ParseCondition(text, kind);
        if (parsed.ok()) {
          entry->tree = std::make_shared<const Condition>(std::move(parsed).value());
        } else {
          entry->error = parsed.error();
        }
        break;
      }
    }
    return std::shared_ptr<const Entry>(std::move(entry));
  };
  // Oversized texts fail their size check; they are not worth a slot (or their memory).
  if (shards_.empty() || text.size() > kMaxExpressionSize) {
    std::shared_ptr<const Entry> entry = parse();
    const Entry* raw = entry.get();
    return Found{raw, std::move(entry)};
  }
  const size_t hash = KeyHash(kind, text);
  FrontSlot& slot = FrontTable()[hash % kFrontSlots];
  if (slot.cache == id_ && slot.hash == hash) {
    const auto* entry = static_cast<const Entry*>(slot.entry);
    if (entry->kind == kind && entry->text == text) return Found{entry, slot.local};
  }
  Shard& shard = *shards_[(hash >> 7) % shards_.size()];
  std::shared_ptr<const Entry> entry = shard.Find(kind, text, hash);
  if (entry == nullptr) entry = shard.Insert(hash, parse());
  const Entry* raw = entry.get();
  slot.cache = id_;
  slot.hash = hash;
  slot.entry = raw;
  slot.local = std::make_shared<const std::shared_ptr<const Entry>>(std::move(entry));
  return Found{raw, slot.local};
}

template <typename T>
Result<std::shared_ptr<const T>> ExpressionCache::Get(std::string_view text, ExpressionKind kind) {
  Found found = Lookup(text, kind);
  if (!found.entry->error.ok()) return found.entry->error;
  // Shares `owner`'s control block and points into the entry's tree.
  return std::shared_ptr<const T>(std::move(found.owner),
                                  static_cast<const T*>(found.entry->tree.get()));
}

Result<std::shared_ptr<const Condition>> ExpressionCache::GetCondition(std::string_view text,
                                                                       ExpressionKind kind) {
  if (kind == ExpressionKind::kUpdate || kind == ExpressionKind::kProjection) {
    return Status::Internal("ExpressionCache::GetCondition: not a condition expression kind");
  }
  return Get<Condition>(text, kind);
}

Result<std::shared_ptr<const UpdateExpression>> ExpressionCache::GetUpdate(std::string_view text) {
  return Get<UpdateExpression>(text, ExpressionKind::kUpdate);
}

Result<std::shared_ptr<const ProjectionExpression>> ExpressionCache::GetProjection(
    std::string_view text) {
  return Get<ProjectionExpression>(text, ExpressionKind::kProjection);
}

size_t ExpressionCache::size() const {
  size_t total = 0;
  for (const auto& shard : shards_) total += shard->size();
  return total;
}

ExpressionCache::Stats ExpressionCache::stats() const {
  Stats stats;
  for (const auto& shard : shards_) shard->AddStats(&stats);
  return stats;
}

}  // namespace partstore::expr
