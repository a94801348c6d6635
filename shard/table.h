// Table: one table's definition and items, and the data-plane operations on it.
//
// Storage (shard/stripe.h): hash = XXH3_64(encoded partition key); the hash's top bits pick one
// of a power-of-two number of lock stripes, so stripe order is hash order. Each stripe maps its
// partition keys to ItemCollections (items sorted by encoded sort key) behind a reader/writer
// lock. Scan order is (hash, encoded partition key, encoded sort key): stable across calls and
// pages, which makes ExclusiveStartKey and parallel-scan segments (ranges of the hash space)
// work.
//
// Every operation validates its request first (DynamoDB's checks and messages, in its order),
// then locks exactly one stripe for a single-item operation (shared for reads, exclusive for
// writes), or one stripe at a time for Query / Scan pages and batches.
//
// Thread safety: safe for concurrent use. Single-item operations are linearizable (they run under
// their stripe's lock). A Query runs under one stripe's shared lock, so it sees one consistent
// state of its item collection. A Scan page takes one stripe's shared lock at a time: it sees
// each stripe consistently but not the table as a whole (DynamoDB gives no more). Batches are
// atomic per item. Lock order: a single-item operation, batch item, Query or Scan page holds at
// most one base stripe at a time, and takes index stripes only after it, one at a time. A
// transaction (shard/transaction.cc) is the one holder of several: all its base stripes (any
// tables) in ascending address order, then all the index stripes its writes touch, also in
// ascending address order; since nobody else holds two stripes at once, no cycle can form.
// Stripe locks are taken through Stripe::ReadLock / WriteLock, and what needs one held says so
// (clang checks it; a function run under a transaction's locks asserts them). The
// definition (name, key schema) is immutable; throughput settings are behind their own mutex;
// sharding_mu_ (the PolicySet pointer) is a leaf.
//
// Capacity simulation (shard/capacity/table_capacity.h; null when off): reads are admitted and
// charged outside the stripe locks (GetItem: after its read), writes under their stripe's
// exclusive lock, before anything changes (a throttled write changes nothing). Its lock is a
// leaf: taken last, never held while taking another. Table-level lock order: update_mu_, then
// description_mu_, then indexes_mu_; stripe locks are never taken while holding
// description_mu_ or indexes_mu_ exclusively. ttl_mu_ (the TTL setting) is a leaf: DeleteExpired
// copies the attribute name under it and releases it before taking any stripe, and deletes each
// expired item through DeleteItem with no lock of its own held. Eviction (shard/table_memory.cc)
// is a writer like the others: EvictCollection holds one base stripe exclusively and takes the
// index stripes after it; writers call AfterWrite (which may run the database's evictor) only
// once their own locks are released.
//
// Streams (shard/stream.h): a writer appends its change to the table's stream under its base
// stripe lock (Emit, after the item changed), so a key's records are in write order. Under the
// stream's mutex only the write-ahead log's (a leaf) is taken, to log the change with its record;
// before it a writer may take the capacity lock (a leaf too, released first) to learn of
// partition splits. The stream pointer is published under description_mu_, which may be held
// while a stream's mutex is taken (never the other way).
//
// Encoding an item may take the process's attribute-name table's mutex (a new name,
// core/attribute_name_table.h), under any of the locks above: it is a leaf, never held while
// taking another.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <span>
#include <string>
#include <vector>

#include "core/expr/cache.h"
#include "partstore/item_requests.h"
#include "partstore/key.h"
#include "partstore/read_requests.h"
#include "partstore/status.h"
#include "partstore/streams.h"
#include "partstore/table_requests.h"
#include "partstore/time_to_live.h"
#include "shard/capacity/table_capacity.h"
#include "shard/memory_budget.h"
#include "shard/prepared.h"
#include "shard/read_page.h"
#include "shard/secondary_index.h"
#include "shard/stream.h"
#include "shard/stripe.h"

namespace partstore {

namespace expr {
struct InPlaceUpdate;  // core/expr/update_stored.h
}  // namespace expr

struct TableOptions {
  size_t stripes = 64;                                      // rounded up to a power of two
  std::shared_ptr<expr::ExpressionCache> expression_cache;  // may be null: parse every time
  std::string arn_prefix = "arn:aws:dynamodb:us-east-1:000000000000:table/";
  // Capacity simulation (off unless capacity.enabled; then capacity.clock must be set).
  capacity::CapacityOptions capacity;
  // Tables with LSIs: the largest item collection (base items + LSI entries of one partition key)
  // a write may grow (ItemCollectionSizeLimitExceededException beyond it). Tests lower it.
  uint64_t item_collection_size_limit = kMaxItemCollectionBytes;
  // TTL's cache expiry mode (partstore/time_to_live.h, ExpiryMode::kCache): expired items are
  // invisible to reads and writes. Epoch time is capacity.clock (REQUIRES: set) plus
  // epoch_at_clock_zero seconds.
  bool cache_expiry = false;
  double epoch_at_clock_zero = 0;
  // The database's memory count and limit (shard/memory_budget.h); null: counted, not limited.
  std::shared_ptr<MemoryBudget> memory;
  // Streams (partstore/streams.h): their limits, and where the table's streams are registered
  // (null: a registry of the table's own).
  StreamOptions streams;
  std::shared_ptr<StreamRegistry> stream_registry;
};

// A write of a batch (BatchWriteItem): throttled alone, it counts a throttle event but not a
// throttled request (CloudWatch counts a batch once, when every request in it was throttled).
struct TableWriteContext {
  bool batch_item = false;
  // Write sharding (shard/sharding/): what UpdateItem does to the item it is about to store.
  const class ItemRewriter* rewrite = nullptr;
  // Stored, indexed and sized like any write, but no capacity is consumed and nothing is
  // throttled: an import (PutItem; Database::ImportItem), as with DynamoDB's ImportTable, and a
  // TTL deletion (DeleteItem; Table::DeleteExpired), as DynamoDB's TTL deletes.
  bool unmetered = false;
  // Who deletes (a DeleteItem's stream record names TTL deletions).
  StreamRemover remover = StreamRemover::kClient;
};

// A change UpdateItem makes to the item an update produced, before the item is validated and
// stored (write sharding keeps the logical key attribute and sharded GSI keys in step). Runs
// under the base stripe's exclusive lock: it must not take locks. An error fails the update with
// nothing changed.
class ItemRewriter {
 public:
  virtual ~ItemRewriter() = default;
  virtual Status Rewrite(Item* item) const = 0;
};

// How a Query starts: after ExclusiveStartKey (DynamoDB's), or at it (write sharding's
// scatter-gather resumes some shards at the key where the merge stopped).
struct TableQueryOptions {
  bool start_inclusive = false;
};

namespace sharding {
class PolicySet;
}
namespace persist {
class WriteAheadLog;
}

// Who takes the index stripe locks a Table function needs (ApplyIndexWrites, ItemCollectionBytes,
// CollectionMetrics): the function itself, or the caller (a transaction's commit), which already
// holds every stripe involved.
enum class StripeLocking { kTake, kHeldByCaller };

// The TTL value of `item` in Unix seconds, or nullopt when `attribute` is missing or not a
// top-level Number (such items never expire). shard/table_time_to_live.cc.
std::optional<double> TtlValueOf(const StoredItem& item, std::string_view attribute);

class Table : public std::enable_shared_from_this<Table> {
 public:
  using IndexList = std::vector<std::shared_ptr<SecondaryIndex>>;

  // Validates `request` (DynamoDB's CreateTable rules and messages) and builds the table.
  static Result<std::shared_ptr<Table>> Create(const CreateTableRequest& request,
                                               TableOptions options);
  ~Table();
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;

  const std::string& name() const { return name_; }
  const KeySchema& key_schema() const { return key_schema_; }

  // The table as DescribeTable reports it (item count and size summed over the stripes now).
  TableDescription Describe() const;
  // UpdateTable: throughput and billing mode (validated; DynamoDB's messages). `applied` runs once
  // the update is applied, before the next UpdateTable of the table may start (the log's record
  // of it: updates are logged in the order they were applied, after a stream's start they made).
  Status Update(const UpdateTableRequest& request, const std::function<void()>& applied = {});
  // Marks the description's status (DeleteTable reports DELETING).
  void set_status(TableStatus status);

  // The settings of partstore/table_settings.h (shard/table_settings.cc). CheckSettings: a
  // CreateTable's class, encryption, on-demand maximum and warm throughput (DynamoDB's texts).
  // An UpdateTable's are checked (each the only change of its request, as DynamoDB's) before
  // any part of the request is applied, and applied after the billing change (Update). The
  // tags: checked by CheckTags (shard/tags.h), replaced whole.
  static Status CheckSettings(const CreateTableRequest& request);
  bool deletion_protected() const;
  std::vector<Tag> tags() const;
  void set_tags(std::vector<Tag> tags);

  // Streams (shard/table_streams.cc). CreateTable's and UpdateTable's StreamSpecification checks
  // (DynamoDB's messages); the table's stream enabled (a new one) or disabled; DeleteTable
  // disables it. The current stream, or null.
  static Status CheckStreamSpecification(const StreamSpecification& spec);
  std::shared_ptr<Stream> stream() const;
  void DisableStream();
  // A CreateTable that failed after Create (the name taken): the table's stream is forgotten.
  void DiscardStreams();
  // Persistence of streams (shard/stream.h says what is kept). The current stream's image, for
  // the log's record of a new table (null: none); a stream restored from a snapshot or the log
  // (one the table has already, by label, is left as it is; an enabled one becomes the current
  // stream, reflecting the table's partition splits so far: later ones split its open shards,
  // where a logged split has not already); the table's streams; the stream numbered `number`
  // (null: none).
  std::optional<persist::StreamImage> CurrentStreamImage() const;
  Status AdoptStream(const persist::StreamImage& image);
  std::vector<std::shared_ptr<Stream>> Streams() const;
  std::shared_ptr<Stream> FindStream(uint64_t number) const;
  // The same as UpdateTable's "at least one of ... is required" check: whether `request` asks for
  // any change.
  static bool ChangesAnything(const UpdateTableRequest& request);

  // Data plane. request.table_name is checked for form but not looked at (the caller chose this
  // table). Each runs Prepare* (shard/prepared.h) and then the two-argument overload.
  Result<PutItemResult> PutItem(const PutItemRequest& request);
  Result<GetItemResult> GetItem(const GetItemRequest& request) const;
  Result<UpdateItemResult> UpdateItem(const UpdateItemRequest& request);
  Result<DeleteItemResult> DeleteItem(const DeleteItemRequest& request);
  Result<QueryResult> Query(const QueryRequest& request) const;
  Result<ScanResult> Scan(const ScanRequest& request) const;

  // The same with the request already prepared (the Database prepares before it looks the table
  // up, because DynamoDB reports request errors before a missing table). REQUIRES: `prepared`
  // came from the matching Prepare* for this very request.
  using WriteContext = TableWriteContext;
  Result<PutItemResult> PutItem(const PutItemRequest& request, const PreparedCondition& prepared,
                                WriteContext context = {});
  // PutItem of `item` (Database::PutStoredItem): request.item is not read. REQUIRES: `item` is
  // not empty.
  Result<PutItemResult> PutStoredItem(const PutItemRequest& request, StoredItem item,
                                      const PreparedCondition& prepared, WriteContext context = {});
  Result<GetItemResult> GetItem(const GetItemRequest& request,
                                const PreparedProjection& prepared) const;
  Result<UpdateItemResult> UpdateItem(const UpdateItemRequest& request,
                                      const PreparedUpdate& prepared, WriteContext context = {});
  Result<DeleteItemResult> DeleteItem(const DeleteItemRequest& request,
                                      const PreparedCondition& prepared, WriteContext context = {});
  Result<QueryResult> Query(const QueryRequest& request, const PreparedRead& prepared,
                            TableQueryOptions options = {}) const;
  Result<ScanResult> Scan(const ScanRequest& request, const PreparedRead& prepared) const;
  // The partition key a Query reads, as an item of that one attribute (of the table's or the
  // index's key schema); empty when the request does not name one (its error comes from Query).
  // For request traces (partstore/trace.h).
  Item QueryPartitionKey(const QueryRequest& request, const PreparedRead& prepared) const;

  // The reads again, answering with the items as the engine stores them (StoredItem views, no
  // tree built; see GetItemViewResult in partstore/item_requests.h). With a projection, the items
  // are buffers of the projected attributes.
  Result<GetItemViewResult> GetItemView(const GetItemRequest& request,
                                        const PreparedProjection& prepared) const;
  Result<QueryViewResult> QueryView(const QueryRequest& request, const PreparedRead& prepared,
                                    TableQueryOptions options = {}) const;
  Result<ScanViewResult> ScanView(const ScanRequest& request, const PreparedRead& prepared) const;

  // How a Query of the table (`index` empty) or of an index orders and resumes, for write
  // sharding's merge: the key it orders a partition's items by (the encoded sort key, or the
  // index entry key) for each of `items`, and the LastEvaluatedKey of a page ending at `item`
  // (which needs only the table's and the index's key attributes). ValidationException for an
  // unknown index or an item without the key attributes.
  Result<std::vector<std::string>> QueryOrderKeys(std::string_view index,
                                                  std::span<const Item> items) const;
  Result<Item> QueryLastEvaluatedKey(std::string_view index, const Item& item) const;
  // Query's rule that a FilterExpression names no key attribute (of `schema`, the table's or the
  // index's, nor of the table).
  Status CheckFilterNamesNoKey(const PreparedRead& prepared, const KeySchema& schema) const;

  // Write-sharding policies (shard/sharding/), replaced as a whole; never null.
  std::shared_ptr<const sharding::PolicySet> sharding_policies() const;
  void set_sharding_policies(std::shared_ptr<const sharding::PolicySet> policies);

  // The indexes' definitions, in the table's order (LSIs first, then GSIs as created).
  std::vector<IndexDefinition> index_definitions() const;
  // Every index's key checks for an item about to be written (batches validate before writing).
  Status CheckIndexKeysForWrite(const Item& item) const;
  // Every index's CheckItem for an item about to be written.
  static Status CheckIndexKeys(const IndexList& indexes, const Item& item);
  static Status CheckIndexKeys(const IndexList& indexes, const StoredItem& item);

  // Items and DynamoDB size (ItemSize, without the 100-byte overhead) summed over the stripes.
  int64_t item_count() const;
  int64_t size_bytes() const;

  // Loads `item` as a snapshot restore does: stored (replacing an item with its key) and indexed,
  // counted in the partitions' sizes, but no condition, no capacity consumed, no stream record.
  // ValidationException (DynamoDB's messages) for an item whose key or index keys the table
  // refuses; MemoryLimitExceededException under the reject policy (shard/table_load.cc).
  // `previous`: set to the item it replaced (empty: none).
  Status LoadItem(const StoredItem& item, StoredItem* previous = nullptr);
  // Deletes the item with the key attributes of `key_item` as a log replay does: no condition, no
  // capacity, no stream record (nothing when it is not there; `previous`: the item deleted).
  Status ReplayDelete(const StoredItem& key_item, StoredItem* previous = nullptr);
  // The item with the key attributes of `key_item` (empty: none).
  Result<StoredItem> ItemAt(const StoredItem& key_item) const;
  // Appends every item's handle to `out` (a point-in-time copy: stored items are immutable).
  // REQUIRES: every base stripe held, shared or exclusive (StripeLocks).
  void CopyItems(std::vector<StoredItem>* out) const;
  // The write-ahead log (shard/persist/write_ahead_log.h): the table's number in it and the log
  // its changes go to (null: none; attached while nothing writes: at creation, or by Open).
  uint64_t log_number() const { return log_number_.load(std::memory_order_relaxed); }
  void set_log_number(uint64_t number) { log_number_.store(number, std::memory_order_relaxed); }
  void AttachLog(persist::WriteAheadLog* log) { log_.store(log, std::memory_order_release); }
  // Waits until the changes this thread logged are durable (the log's sync mode); OK without a
  // log. Writers call it after their locks are released, before they answer.
  Status Durable() const;
  // Point-in-time recovery (partstore/continuous_backups.h): the recovery period in days while
  // enabled, 0 while disabled.
  int64_t recovery_period_days() const {
    return recovery_period_days_.load(std::memory_order_relaxed);
  }
  void set_recovery_period_days(int64_t days) {
    recovery_period_days_.store(days, std::memory_order_relaxed);
  }
  // The storage, for batches, tests and statistics.
  const StripeSet& stripes() const { return stripes_; }
  StripeSet& stripes() { return stripes_; }

  // Partitions the table's capacity is divided into: the simulated partition map's when capacity
  // simulation is on, else DynamoDB's initial count (4 for on-demand, ceil(RCU / 3000 +
  // WCU / 1000) for provisioned). Scan charges a minimum per partition it reads.
  int partition_count() const;
  // The first hash of each partition of the table (`index` empty) or a GSI: the simulated map's,
  // or partition_count() equal ranges when simulation is off.
  std::vector<uint64_t> PartitionStarts(std::string_view index) const;

  // Simulated capacity, or null when simulation is off.
  capacity::TableCapacity* capacity() const { return capacity_.get(); }

  // The encoded key of `key` (exactly the key attributes, right types and sizes), or DynamoDB's
  // "The provided key element does not match the schema" and friends.
  struct EncodedKey {
    uint64_t hash = 0;
    std::string partition;
    std::string sort;  // empty for hash-only tables
  };
  Result<EncodedKey> EncodeItemKey(const Item& key) const;
  // The sort key to store `item` under: its own sort key attribute's bytes when the key is an S or
  // a B written out in its buffer (its collection element then borrows them, shard/
  // collection_key.h), else key.sort.
  std::string_view StoredSortKey(const EncodedKey& key, const StoredItem& item) const;
  // The same for a whole item being written (key attributes present, right types; others ignored).
  Result<EncodedKey> EncodeItemKeyOfItem(const Item& item) const;
  // An ExclusiveStartKey: exactly the key attributes with the right types. DynamoDB's texts
  // differ by operation (see table.cc); a refused key value appends its message.
  enum class StartKeyUse : uint8_t { kQuery, kScan };
  Result<EncodedKey> DecodeStartKey(const Item& key, StartKeyUse use) const;
  // What DynamoDB checks of a Query's ExclusiveStartKey before its key condition: the number of
  // attributes (the table's and the index's keys), then the read's partition key attribute.
  Status CheckQueryStartKeyPartition(const Item& key, const SecondaryIndex* index) const;
  // The attributes a start key has: the table's key attributes and the index's others.
  size_t StartKeySize(const SecondaryIndex* index) const;
  // One key attribute of a start key: missing "The provided starting key is invalid", of the
  // wrong type "The provided key element does not match the schema".
  static Status CheckStartKeyAttribute(const Item& key, const KeyAttribute& attribute);
  // The key attributes of `item` (a LastEvaluatedKey, a batch's key).
  Item KeyOf(const Item& item) const;
  Item KeyOf(const StoredItem& item) const;
  // The encoded key of a stored item (its key attributes present, typed and sized), or
  // DynamoDB's messages for the item of a PutItem.
  Result<EncodedKey> EncodeStoredKey(const StoredItem& item) const;

  // The item stored under `key` (empty when there is none): a handle taken under the stripe's
  // shared lock, readable after it is released (BatchGetItem, index fetches).
  // `touch`: the read marks the collection used (eviction's LRU); a Scan's does not.
  StoredItem ReadItem(const EncodedKey& key, bool touch = true) const;

  // Time to Live (shard/table_time_to_live.cc; partstore/time_to_live.h has the rules).
  // UpdateTimeToLive applies DynamoDB's state rules, then its change limit: a change within
  // `change_interval_micros` of the previous one (both on the database clock) fails.
  // REQUIRES: the specification's form is checked (the attribute name's length).
  Status UpdateTimeToLive(const TimeToLiveSpecification& spec, int64_t now_micros,
                          int64_t change_interval_micros);
  TimeToLiveDescription DescribeTimeToLive() const;
  // Deletes the items whose TTL value is before `cutoff` and after `now_epoch` minus five years
  // (Unix seconds), each with an ordinary delete that consumes no capacity and happens only if the
  // item's TTL value is still the one read; the number deleted. Runs one stripe at a time (a
  // shared lock to find them, then one delete each).
  int64_t DeleteExpired(double now_epoch, double cutoff);
  // Items deleted by DeleteExpired since the table was created (and, in cache mode, expired items
  // a write reclaimed).
  uint64_t expired_items() const { return expired_items_.load(std::memory_order_relaxed); }

  // Cache expiry (TableOptions::cache_expiry): which items are invisible now. Inactive (nothing
  // expires) in DynamoDB mode and while TTL is off. Taken once per operation; lock-free.
  struct Expiry {
    const std::string* attribute = nullptr;  // the TTL attribute; null: inactive
    double now = 0;                          // Unix seconds
    explicit operator bool() const { return attribute != nullptr; }
    // Whether `item` is expired (false when inactive): its TTL value is a Number before now and
    // no more than five years before it (what the sweeper deletes).
    bool Expired(const StoredItem& item) const;
  };
  Expiry CacheExpiry() const;
  // In cache mode: when the item at `key` is expired, deletes it (and its index entries; no
  // capacity consumed; counted as expired) so that the write about to run finds no item.
  // REQUIRES: the key's stripe held exclusively (a transaction: all its base stripes; index
  // stripes are taken here, after them, as the lock order allows).
  void ReclaimExpired(const EncodedKey& key, const Expiry& expiry);
  // ---- Memory (partstore/memory.h; shard/table_memory.cc) ----
  // What the table's items, keys, structures and indexes hold.
  int64_t memory_bytes() const { return memory_->bytes(); }
  uint64_t evicted_items() const { return evicted_items_.load(std::memory_order_relaxed); }
  uint64_t evicted_collections() const {
    return evicted_collections_.load(std::memory_order_relaxed);
  }
  // A collection eviction may take: where it is, when it was last used, its nearest TTL expiry
  // (Unix seconds; +infinity when none or not asked for).
  struct EvictionCandidate {
    std::weak_ptr<Table> table;
    uint64_t hash = 0;
    std::string partition;
    uint32_t last_used = 0;
    double expiry = 0;
  };
  // Up to `count` collections of stripe `stripe`, after where the previous sample of that stripe
  // stopped. REQUIRES: called by the database's evictor only (it owns the cursors).
  void SampleForEviction(size_t stripe, size_t count, bool with_expiry,
                         std::vector<EvictionCandidate>* out);
  // Evicts the candidate's collection whole (every item and its index entries, under the stripe's
  // exclusive lock; no capacity consumed), unless it is gone or was used since it was sampled;
  // the number of items evicted.
  int64_t EvictCollection(const EvictionCandidate& candidate);
  // After a write, with no lock held: runs the database's evictor when the store is over its
  // limit (MemoryPolicy::kEvict).
  void AfterWrite() const {
    if (const MemoryBudget* budget = memory_->budget()) budget->EvictIfOver();
  }

  // Cache mode, after an index read's locks: drops from `page` the entries whose base items are
  // expired, when the index (null: the table) does not carry the TTL attribute (their own
  // expired entries were skipped as they were read).
  void DropExpiredEntries(const SecondaryIndex* index, const Expiry& expiry, ReadPage* page) const;

 private:
  Table(std::string name, KeySchema key_schema, TableOptions options);

  expr::ExpressionCache* cache() const { return options_.expression_cache.get(); }

  // PutItem and PutStoredItem after their item's key and checks: writes `item`, whose key is
  // `key`; `tree` is the item as a tree when the caller has one (PutItem), else null.
  Result<PutItemResult> Put(const PutItemRequest& request, const PreparedCondition& prepared,
                            WriteContext context, const EncodedKey& key, StoredItem item,
                            const Item* tree);

  // The reads up to their items: GetItem's item (unprojected; capacity charged and reported in
  // *consumed), a Query's or Scan's page (read, filtered and charged; built by the caller).
  Result<StoredItem> GetStored(const GetItemRequest& request,
                               std::optional<ConsumedCapacity>* consumed) const;
  Result<PendingPage> ReadQuery(const QueryRequest& request, const PreparedRead& prepared,
                                TableQueryOptions options) const;
  Result<PendingPage> ReadScan(const ScanRequest& request, const PreparedRead& prepared) const;

  const std::string name_;
  const KeySchema key_schema_;
  const TableOptions options_;
  const std::shared_ptr<MemoryAccount> memory_;  // the table's items and indexes
  StripeSet stripes_;

  // The indexes, two views of one list:
  //  - indexes_: what readers see (index queries, DescribeTable), under indexes_mu_;
  //  - stripe_indexes_[i]: what writers of base stripe i maintain, guarded by that stripe's lock
  //    (read on the write path without any other lock or atomic).
  // UpdateTable (serialized by update_mu_) changes them stripe by stripe: a new GSI is backfilled
  // from stripe i and installed in stripe_indexes_[i] under stripe i's exclusive lock, so every
  // item lands in it exactly once whatever writes run meanwhile, and is published to readers in
  // indexes_ once complete; a deleted GSI leaves indexes_ first. No thread ever holds more than
  // one base stripe for this (lock order: base stripe, then index stripes).
  mutable std::shared_mutex indexes_mu_;
  IndexList indexes_;
  std::vector<std::shared_ptr<const IndexList>> stripe_indexes_;
  std::mutex update_mu_;  // serializes UpdateTable (Update: its index and billing parts)
  // Time to Live: the attribute while enabled, and when the setting last changed (database clock);
  // guarded by ttl_mu_, a leaf.
  mutable std::mutex ttl_mu_;
  std::optional<std::string> ttl_attribute_;
  std::optional<int64_t> ttl_changed_micros_;
  std::atomic<int64_t> recovery_period_days_{0};
  // Cache mode: the enabled TTL attribute for lock-free readers (null while off). Names are kept
  // in ttl_names_ (guarded by ttl_mu_) for the table's life, so a reader's pointer stays valid.
  std::atomic<const std::string*> cache_ttl_attribute_{nullptr};
  std::vector<std::unique_ptr<const std::string>> ttl_names_;
  // Eviction: where each stripe's next sample starts (only the database's evictor, serialized by
  // its own mutex, touches them), and what was evicted.
  std::vector<Stripe::StoredKey> eviction_cursors_;
  std::atomic<uint64_t> evicted_items_{0};
  std::atomic<uint64_t> evicted_collections_{0};
  std::atomic<uint64_t> expired_items_{0};
  // Streams: the enabled stream for writers (null while none; kept alive by current_stream_ and
  // the registry), written under description_mu_.
  std::atomic<Stream*> stream_{nullptr};
  std::shared_ptr<Stream> current_stream_;  // guarded by description_mu_
  // Every stream the table had, kept for its life: a writer may still hold a disabled one's
  // pointer (guarded by description_mu_).
  std::vector<std::shared_ptr<Stream>> streams_;
  // The stream change of an UpdateTable, checked against the table as it is (DynamoDB's
  // messages), then applied. REQUIRES: description_mu_ held.
  Status CheckStreamChange(const StreamSpecification& spec) const;
  void ApplyStreamChange(const StreamSpecification& spec);
  void StartStream(StreamViewType view);  // REQUIRES: description_mu_ held
  uint64_t stream_count_ = 0;  // streams started or restored (guarded by description_mu_)
  // What a new stream is made with: its identity, numbered, and the partitions' starts now
  // (returns how many of the table's splits they reflect). REQUIRES: description_mu_ held.
  StreamIdentity NewStreamIdentity(StreamViewType view);
  size_t StreamPartitions(std::vector<uint64_t>* starts) const;
  // A new or restored stream's kStream record (nothing without a log).
  void LogStreamStart(const Stream& stream) const;
  // A split's shards, logged (stream.h's log_shards).
  void LogStreamShards(uint64_t number, const std::vector<persist::StreamShardImage>& shards) const;
  // A change of the item at `hash` for the stream (nothing when no stream is enabled).
  // REQUIRES: the item's stripe held exclusively.
  // The same change goes to the write-ahead log, when there is one (with the stream's record,
  // under the stream's mutex: shard/stream.h).
  void Emit(uint64_t hash, const StoredItem& old_item, const StoredItem& new_item,
            StreamRemover remover = StreamRemover::kClient) const {
    persist::WriteAheadLog* log = log_.load(std::memory_order_acquire);
    if (Stream* stream = stream_.load(std::memory_order_acquire)) {
      EmitTo(*stream, hash, old_item, new_item, remover, log);
    } else if (log != nullptr) {
      LogChange(*log, old_item, new_item, nullptr);
    }
  }
  // Returns whether the change is in the log (false: in the thread's transaction group).
  bool LogChange(persist::WriteAheadLog& log, const StoredItem& old_item,
                 const StoredItem& new_item, const persist::StreamMark* mark) const;
  std::atomic<uint64_t> log_number_{0};
  std::atomic<persist::WriteAheadLog*> log_{nullptr};
  void EmitTo(Stream& stream, uint64_t hash, const StoredItem& old_item, const StoredItem& new_item,
              StreamRemover remover, persist::WriteAheadLog* log) const;
  // The indexes writers of `hash`'s stripe maintain. REQUIRES: that stripe's lock held.
  const IndexList& WriterIndexes(uint64_t hash) const {
    return *stripe_indexes_[stripes_.IndexOf(hash)];
  }
  // The index named `name`, or null. Takes indexes_mu_ shared.
  std::shared_ptr<SecondaryIndex> FindIndex(std::string_view name) const;
  // Keeping the indexes in step with one item's change from `old_item` to `new_item` (either may
  // be null), in two steps so that capacity can be checked between them: the plan (what each
  // index must erase and store, and what that costs), then its application. Both under the base
  // stripe's exclusive lock; ApplyIndexWrites adds the charges to `charge`.
  struct IndexWrite {
    SecondaryIndex* index = nullptr;
    std::optional<SecondaryIndex::EntryKey> erase;  // the old entry, when the key changed or left
    std::optional<SecondaryIndex::EntryKey> put;    // the new entry
    bool replaces = false;                          // put replaces the entry at the same key
    bool old_shares = false;  // the old entry shares the old item's buffer (memory counting)
    bool repoint = false;     // the same entry, re-pointed at the new item's buffer: not a write
    size_t old_size = 0;      // entry sizes
    size_t new_size = 0;
    int64_t erase_half_units = 0;
    int64_t put_half_units = 0;
  };
  using IndexWritePlan = std::vector<IndexWrite>;
  // Deletes `item`, stored at `key`, with its index entries, consuming no capacity (the simulated
  // partitions' sizes follow): TTL reclaims and evictions. REQUIRES: the key's stripe held
  // exclusively; index stripes are taken here.
  // `emit`: write the change to the stream and the log (a replay's delete does not).
  void EraseUnmetered(Stripe& stripe, const EncodedKey& key, const StoredItem& item,
                      StreamRemover remover, bool emit = true) PARTSTORE_REQUIRES(stripe.mutex());
  // The growth in bytes a write of `item` over `existing` (may be null) with index changes `plan`
  // brings (partstore/memory.h: an estimate), and the reject policy's verdict on it.
  int64_t GrowthOf(const EncodedKey& key, const StoredItem* existing, const StoredItem& item,
                   const IndexWritePlan& plan) const;
  Status AdmitWrite(int64_t growth) const;
  // Stamps the collection of `partition` as used now, when eviction is on. REQUIRES: its stripe
  // held (shared is enough).
  void TouchCollection(const Stripe& stripe, PartitionKeyRef partition) const
      PARTSTORE_REQUIRES_SHARED(stripe.mutex()) {
    if (const uint32_t tick = memory_->Touch()) {
      if (const ItemCollection* collection = stripe.Find(partition)) collection->Touch(tick);
    }
  }
  IndexWritePlan PlanIndexWrites(const IndexList& indexes, const StoredItem* old_item,
                                 const StoredItem* new_item, const EncodedKey& key) const;
  // The stripes involved: every index stripe the plan touches.
  void ApplyIndexWrites(const IndexWritePlan& plan, const StoredItem* new_item,
                        CapacityCharge* charge, StripeLocking locking = StripeLocking::kTake);
  // With capacity simulation on: admits and charges a write of `half_units` to the table (LSIs
  // included) changing the stored size by `bytes` / `items`, and the GSI part of `plan` (the
  // base write is throttled when any part cannot pay). OK when simulation is off.
  Status ChargeWrite(const EncodedKey& key, const Item& key_source, int64_t half_units,
                     int64_t bytes, int64_t items, const IndexWritePlan& plan,
                     const StoredItem* old_item, const StoredItem* new_item,
                     capacity::RequestCounting counting = capacity::RequestCounting::kCountRequest,
                     capacity::Metering metering = capacity::Metering::kMetered);
  // The table's half units of a plan (its LSIs' part).
  static int64_t LocalHalfUnits(const IndexWritePlan& plan);
  // UpdateTable's GlobalSecondaryIndexUpdates: create (with a backfill of the existing items),
  // delete, or change an index's throughput; one create or delete per call. REQUIRES: update_mu_
  // held (Update holds it).
  Status UpdateIndexes(const UpdateTableRequest& request);
  // Update's index and billing parts. REQUIRES: update_mu_ held.
  Status UpdateIndexesAndBilling(const UpdateTableRequest& request, bool index_updates,
                                 bool billing_change);
  // The BillingMode / ProvisionedThroughput part of an UpdateTable against the table as it is:
  // DynamoDB's ValidationExceptions, or OK. REQUIRES: description_mu_ held.
  Status CheckBillingChange(const UpdateTableRequest& request) const;
  // Tables with LSIs: the bytes of `partition`'s item collection (base items + LSI entries).
  // REQUIRES: the base stripe of `partition` held.
  // The stripes involved: the LSI stripes of `key`.
  static uint64_t ItemCollectionBytes(const IndexList& indexes, const EncodedKey& key,
                                      const ItemCollection* base,
                                      StripeLocking locking = StripeLocking::kTake);
  static bool HasLocalIndexes(const IndexList& indexes);
  // ItemCollectionSizeLimitExceededException when a write that grows the collection by
  // `growth` bytes would pass the limit. REQUIRES: the base stripe held.
  Status CheckItemCollectionLimit(const IndexList& indexes, const EncodedKey& key,
                                  const ItemCollection* base, int64_t growth) const;
  // The metrics DynamoDB returns for the collection of `key` (`key_item` holds its key
  // attributes: the request's key or item). REQUIRES: the base stripe held.
  std::optional<ItemCollectionMetrics> CollectionMetrics(
      ReturnItemCollectionMetrics mode, const IndexList& indexes, const EncodedKey& key,
      const Item& key_item, StripeLocking locking = StripeLocking::kTake) const;
  // Reads of an index: no strongly consistent GSI reads, ALL_ATTRIBUTES only from a GSI that
  // projects everything.
  Status CheckIndexRead(const SecondaryIndex& index, const PreparedRead& prepared,
                        bool consistent_read) const;
  // An index ExclusiveStartKey (exactly the index and table key attributes, typed) as an entry
  // key: the wrong number "The provided starting key is invalid"; then the index's key
  // attributes (CheckStartKeyAttribute); then the table's, missing or mistyped "The provided
  // starting key is invalid: The provided key element does not match the schema".
  Result<SecondaryIndex::EntryKey> DecodeIndexStartKey(const SecondaryIndex& index,
                                                       const Item& key) const;
  // An index LastEvaluatedKey: the index keys and table keys of an entry.
  Item IndexKeyOf(const SecondaryIndex& index, const Item& entry) const;
  Item IndexKeyOf(const SecondaryIndex& index, const StoredItem& entry) const;
  // The base item an index entry points at (its own stripe lock, taken and released here), or
  // an empty handle.
  StoredItem ReadBaseItem(const StoredItem& entry, bool touch = true) const;
  // ConsumedCapacity of a read of the table (`index` null) or of an index (reported as the
  // index's part only, as DynamoDB does).
  std::optional<ConsumedCapacity> ReportReadCapacity(ReturnConsumedCapacity mode,
                                                     const SecondaryIndex* index,
                                                     int64_t half_units) const;

  // Simulated capacity (shard/capacity/table_capacity.h); null when simulation is off.
  std::unique_ptr<capacity::TableCapacity> capacity_;
  // The key a read or write is about, for Contributor Insights (the item key is partition + sort).
  struct KeyAccessBuffer {
    std::string item;  // encoded partition key + sort key
    std::string_view partition;
    const Item* source = nullptr;
    capacity::KeyAccess access() const { return {partition, item, source, nullptr}; }
  };
  // (The item key is built only when Contributor Insights are recorded.)
  KeyAccessBuffer AccessOf(const EncodedKey& key, const Item* source) const;
  // The table's capacity settings with OnDemandThroughput and WarmThroughput from the description
  // (REQUIRES: description_mu_ held, or the table not yet shared).
  capacity::ResourceSettings CapacitySettingsLocked() const;
  static capacity::ResourceSettings SettingsOf(BillingMode mode, int64_t read_units,
                                               int64_t write_units);
  // A GSI's capacity settings: its own throughput (or the table's `d`), on-demand maximum and
  // warm throughput.
  static capacity::ResourceSettings IndexCapacitySettings(const IndexDefinition& index,
                                                          const TableDescription& d);
  // Gives a GSI its simulated capacity (its own throughput, or the table's billing mode).
  void AddIndexCapacity(const SecondaryIndex& index);
  // After a billing-mode change to `d`: every GSI's settings to the new mode (a provisioned one
  // drops its on-demand maximum; warm throughput rises to its new floor) and its capacity.
  // REQUIRES: description_mu_ held.
  void UpdateIndexesForBilling(const TableDescription& d);

  mutable std::mutex sharding_mu_;  // guards sharding_ (a leaf)
  std::shared_ptr<const sharding::PolicySet> sharding_;
  // The settings parts of Create and Update (shard/table_settings.cc). REQUIRES: description_mu_
  // held (Create: the table not yet shared).
  void ApplyCreateSettings(const CreateTableRequest& request);
  Status CheckSettingsChange(const UpdateTableRequest& request) const;
  void ApplySettingsChange(const UpdateTableRequest& request);

  mutable std::mutex description_mu_;  // guards description_
  TableDescription description_;       // without item_count / table_size_bytes
  std::vector<Tag> tags_;              // guarded by description_mu_, sorted by key

 public:
  // ---- Transactions (shard/transaction.cc drives them; shard/table_transaction.cc) ----
  // A transaction holds the base stripes of all its items exclusively (in the lock order at the
  // top of this file: ascending stripe address), stages every action (the condition checked, the
  // new item and the index plan computed; nothing changed), charges capacity, then takes the
  // index stripes its writes touch (the same order, after every base stripe) and commits.
  struct StagedWrite {
    enum class Kind : uint8_t { kConditionCheck, kPut, kUpdate, kDelete };
    Kind kind = Kind::kConditionCheck;
    EncodedKey key;
    Item key_item;         // the key attributes (capacity, insights, metrics)
    StoredItem existing;   // the item there when it was staged (empty: none)
    StoredItem new_item;   // the item a put or update stores (empty: none)
    bool erase = false;    // a delete of an existing item
    bool existed = false;  // an item was there before
    size_t old_size = 0;
    size_t new_size = 0;
    int64_t half_units = 0;  // the base table's transactional units (2 per KB)
    IndexWritePlan plan;
  };
  // Stages one action. `condition` / `update` may be null; `put` is the item of a put.
  // REQUIRES: the stripe of `write->key` held exclusively by the caller. Errors:
  // ConditionalCheckFailed (with the existing item for ALL_OLD), ValidationException (the item),
  // ItemCollectionSizeLimitExceeded.
  // `rewrite` (may be null) changes the item an update produces (write sharding).
  Status StageWrite(StagedWrite* write, const PreparedCondition* condition,
                    const PreparedUpdate* update, const Item* put,
                    ReturnValuesOnConditionCheckFailure on_failure,
                    const ItemRewriter* rewrite = nullptr) const;
  // Capacity for a staged write (transactional units); OK when simulation is off.
  // REQUIRES: its base stripe held.
  Status ChargeStaged(const StagedWrite& write);
  // The index stripes a staged write's commit touches, for the caller to lock: those its index
  // writes change, and every LSI stripe of its partition (the item collection's size).
  void IndexStripesOf(const StagedWrite& write, std::vector<const Stripe*>* out) const;
  // Applies a staged write (its new item is moved into the table); its base stripe and every
  // index stripe it touches held exclusively by the caller. Adds what it consumed to `charge` and
  // returns the item collection metrics asked for (tables with LSIs).
  std::optional<ItemCollectionMetrics> CommitStaged(StagedWrite& write,
                                                    ReturnItemCollectionMetrics metrics,
                                                    CapacityCharge* charge);
  // The memory a staged write adds (put or update; 0 otherwise), and the reject policy's verdict
  // on a transaction's total.
  int64_t StagedGrowth(const StagedWrite& write) const;
  Status AdmitStaged(int64_t growth) const { return AdmitWrite(growth); }
  // Whether writes are checked against a memory limit (MemoryPolicy::kReject).
  bool rejecting() const {
    const MemoryBudget* budget = memory_->budget();
    return budget != nullptr && budget->rejecting();
  }
  // TransactGetItems' read of one item (empty when absent), its stripe held (shared or exclusive)
  // by the caller.
  StoredItem ReadLocked(const EncodedKey& key) const;
  // UpdateItem's write of `update` into `item` where it is (its conditions are in UpdateItem):
  // the capacity it consumes (added to *charge; a throttled write changes nothing), the write,
  // the log's record. REQUIRES: `item` is stored in `stripe` under `key`.
  Status WriteInPlace(const UpdateItemRequest& request, const EncodedKey& key, Stripe& stripe,
                      StoredItem& item, const expr::InPlaceUpdate& update, CapacityCharge* charge)
      PARTSTORE_REQUIRES(stripe.mutex());
  // Capacity for TransactGetItems' read of `half_units` (transactional) of the item at `key`;
  // OK when simulation is off.
  Status ChargeTransactionalRead(const EncodedKey& key, const Item& key_item,
                                 int64_t half_units) const;
};

}  // namespace partstore
