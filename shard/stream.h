// Stream: one stream of one table (partstore/streams.h has what users see): its shards, one per
// partition of the table, and their records.
//
// Writers append under the item's stripe lock (Table::Emit), so a key's records are in write
// order; the stream's own mutex is taken under a stripe lock and held for the append only; the
// one lock taken under it is the write-ahead log's (a leaf), to log the change with its record. A
// sequence number comes from one counter per stream, drawn under that mutex, so it increases within
// every shard.
//
// Partitions: the stream starts with one open shard per partition the table has (hash ranges).
// When the table's simulated partitions split (capacity::ResourceCapacity::splits(), an append-only
// list), the table hands the new splits over (ApplySplits) before its next append: the shard
// whose range holds the split point closes and two children open. Appends find their shard by
// hash among the open ones, so a record lands in the shard of the partition its key has now.
//
// Persistence (shard/persist/stream_image.h): with a write-ahead log, a record is logged with its
// item change under this mutex (Append's Logger), so the log holds every record a reader can
// see, with its sequence number and shard; a transaction's change goes into its group and its
// record stays unreadable (Publish) until the group is in the log. Splits are logged as they are
// applied. A snapshot keeps the stream whole (Image, Records); opening a data directory restores
// it (Restore, RestoreRecord) and replays the log (RestoreShards, Replay).
//
// Retention (StreamOptions): records older than retention_seconds, and the oldest beyond
// max_bytes, are trimmed; reads and appends trim (appends at most once per clock second unless
// over the byte cap). Iterators are opaque strings naming the stream, the shard, the position
// (the next sequence number to read) and when they were issued.
//
// Thread safety: safe for concurrent use.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "partstore/clock.h"
#include "partstore/key.h"
#include "partstore/status.h"
#include "partstore/stored_item.h"
#include "partstore/streams.h"
#include "partstore/table_requests.h"
#include "shard/capacity/resource_capacity.h"
#include "shard/persist/stream_image.h"

namespace partstore {

struct StreamIdentity {
  std::string table_name;
  std::string table_arn;
  KeySchema key_schema;
  StreamViewType view_type = StreamViewType::kKeysOnly;
  std::shared_ptr<capacity::Clock> clock;  // never null
  double epoch_at_clock_zero = 0;          // Unix seconds at the clock's zero
  std::string last_label;                  // the table's previous stream label (labels are unique)
  uint64_t number = 0;                     // the table's n-th stream (what the log names)
  // The table's partition splits from index `first` on (empty without capacity simulation, or
  // once the table is gone); readers bring the shards up to date with it. Takes only leaf locks.
  std::function<std::vector<capacity::PartitionSplit>(size_t first)> splits_since;
  // Logs the shards a split closed and opened (null: no log); called under the stream's mutex,
  // takes only the log's (a leaf).
  std::function<void(uint64_t number, const std::vector<persist::StreamShardImage>& shards)>
      log_shards;
};

class Stream {
 public:
  // A new stream (ENABLED), with one shard per partition starting at `partition_starts` (sorted,
  // the first 0), after `splits_applied` of the table's splits.
  Stream(StreamIdentity identity, StreamOptions options, std::span<const uint64_t> partition_starts,
         size_t splits_applied);
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  // A stream as a data directory kept it (`identity` the table's, as for a new stream), after
  // `splits_applied` of the table's splits. ValidationException naming what is inconsistent.
  static Result<std::shared_ptr<Stream>> Restore(StreamIdentity identity, StreamOptions options,
                                                 const persist::StreamImage& image,
                                                 size_t splits_applied);

  const std::string& arn() const { return arn_; }
  const std::string& label() const { return label_; }
  const std::string& table_name() const { return identity_.table_name; }
  uint64_t number() const { return identity_.number; }
  StreamViewType view_type() const { return identity_.view_type; }

  // Logs a change with its record, under the stream's mutex: true when the change is in the log,
  // false when it went into the thread's transaction group (the record waits for Publish).
  class Logger {
   public:
    virtual bool Log(const persist::StreamMark& mark) = 0;

   protected:
    ~Logger() = default;
  };
  struct Unpublished {
    uint64_t shard = 0;  // starting sequence number
    uint64_t sequence = 0;
  };
  // A change of one item (`old_item` / `new_item` empty when there was or is none). Writes
  // nothing (and does not call `logger`) when both are empty, the item is unchanged, or the
  // stream is disabled. A record the logger did not log at once is returned: Publish it once its
  // group is logged. REQUIRES: the item's stripe held.
  std::optional<Unpublished> Append(uint64_t hash, const StoredItem& old_item,
                                    const StoredItem& new_item, StreamRemover remover,
                                    Logger* logger = nullptr);
  void Publish(Unpublished record);

  // Persistence. The stream's identity, state and shards; each shard's records (by starting
  // sequence number); the restore of a logged split (shards already there are left as they
  // are); a logged change's record, made as Append made it (nothing when it is already there).
  persist::StreamImage Image() const;
  std::vector<std::pair<uint64_t, std::vector<persist::StreamRecordImage>>> Records() const;
  Status RestoreShards(std::span<const persist::StreamShardImage> shards);
  Status RestoreRecord(uint64_t shard, persist::StreamRecordImage record);
  Status Replay(const persist::StreamMark& mark, const StoredItem& old_item,
                const StoredItem& new_item);
  // Once a restore is done: the next sequence number moves on by kRestartGap, so that no number
  // handed out before the restart is handed out again (one whose change the log did not keep, a
  // LATEST iterator's, a transaction's not yet logged). Sequence numbers need not be dense.
  static constexpr uint64_t kRestartGap = uint64_t{1} << 32;
  void AfterRestart();

  // How many of the table's partition splits the shards reflect, and the next ones: `splits` are
  // the table's splits from index splits_applied() on (ones already applied by another thread
  // are skipped).
  size_t splits_applied() const { return splits_applied_.load(std::memory_order_acquire); }
  void ApplySplits(std::span<const capacity::PartitionSplit> splits, size_t first);
  // The table's stream was disabled (or the table deleted): every shard closes; DISABLED.
  void Disable();
  // Disabled, and nothing left to read (every record trimmed): the database may forget it.
  bool Finished();

  StreamSummary Summary() const;
  // Identifies the stream (ListStreams orders by ARN; it is unique in the registry).
  Result<StreamDescription> Describe(const DescribeStreamRequest& request);
  Result<std::string> GetShardIterator(const GetShardIteratorRequest& request);
  // REQUIRES: `position` came from this stream's iterator (DecodeIterator).
  struct Position {
    std::string shard_id;
    uint64_t next = 0;  // the next sequence number to read
  };
  Result<GetRecordsResult> GetRecords(const Position& position, int64_t issued_epoch_micros,
                                      size_t limit);

  // The same position with a fresh issue time (a subscription renews what expired while it
  // idled). ValidationException for text that is not this stream's iterator.
  Result<std::string> RenewIterator(std::string_view text) const;
  // Iterators: "<stream ARN>|<shard id>|<next>|<issued, Unix microseconds>" (opaque to users;
  // one issued before a restart goes on after it). `issued_micros` is on the database clock.
  std::string EncodeIterator(const Position& position, int64_t issued_micros) const;
  struct DecodedIterator {
    std::string stream_arn;
    Position position;
    int64_t issued_epoch_micros = 0;
  };
  // ValidationException for text that is not an iterator.
  static Result<DecodedIterator> DecodeIterator(std::string_view text);

  // Sequence numbers as text ("1" and 20 digits) and back.
  static std::string SequenceText(uint64_t n);
  static std::optional<uint64_t> ParseSequence(std::string_view text);

  // Blocks until a record is appended after `seen` (append_count()) or `deadline_micros` on the
  // system's steady clock passes; for subscriptions.
  uint64_t append_count() const { return appends_.load(std::memory_order_acquire); }
  void WaitForAppend(uint64_t seen, std::chrono::steady_clock::time_point deadline);

 private:
  struct Entry {
    uint64_t sequence = 0;
    int64_t micros = 0;  // database clock
    StoredItem old_item, new_item;
    StreamEventName event = StreamEventName::kInsert;
    StreamRemover remover = StreamRemover::kClient;
    uint32_t size_bytes = 0;
    bool pending = false;  // logged in a transaction's group not yet in the log: not readable
  };
  struct Shard {
    std::string id;
    std::string parent_id;         // empty: none
    uint64_t parent_starting = 0;  // 0: none
    uint64_t begin = 0, end = 0;   // hash range (inclusive)
    uint64_t starting = 0;
    uint64_t last = 0;               // the newest record's sequence number (0: none yet)
    std::optional<uint64_t> ending;  // set when closed
    int64_t closed_micros = 0;
    uint64_t trimmed_through = 0;  // the highest sequence number trimmed (0: none)
    std::deque<Entry> records;
  };
  static constexpr uint64_t kEntryOverhead = 64;

  int64_t Now() const { return identity_.clock->NowMicros(); }
  // Database clock microseconds and Unix microseconds.
  int64_t EpochMicros(int64_t micros) const { return zero_micros_ + micros; }
  int64_t ClockMicros(int64_t epoch_micros) const { return epoch_micros - zero_micros_; }
  // The record of a change, as Append writes it (no sequence number or time yet).
  Entry MakeEntry(const StoredItem& old_item, const StoredItem& new_item,
                  StreamRemover remover) const;
  std::string ShardId(uint64_t starting) const;
  // The shards brought up to the table's splits (no lock held).
  void Sync();
  double EpochOf(int64_t micros) const { return identity_.epoch_at_clock_zero + micros / 1e6; }
  // REQUIRES: mu_ held, for all below.
  // A new shard; `starting`: the restored one's (0: the next sequence number).
  Shard& OpenShard(uint64_t begin, uint64_t end, const Shard* parent, uint64_t starting = 0);
  void CloseShard(Shard& shard);
  Shard* ShardStarting(uint64_t starting);
  Status RestoreShardsLocked(std::span<const persist::StreamShardImage> shards);
  // An enabled stream's open shards cover the hash space (ValidationException otherwise); a
  // disabled one's are closed.
  Status CheckShardsLocked();
  persist::StreamShardImage ImageOf(const Shard& shard) const;
  // Puts a restored record in its shard, in sequence order (false: one is there already).
  bool Insert(Shard& shard, Entry entry);
  void Trim(int64_t now);
  Shard* FindShard(std::string_view id);
  StreamRecord ToRecord(const Entry& entry) const;
  // What a record holds: its fixed part and the buffers it keeps (which may outlive the item).
  static uint64_t Cost(const Entry& e) {
    return kEntryOverhead + (e.old_item ? e.old_item.footprint() : 0) +
           (e.new_item ? e.new_item.footprint() : 0);
  }

  const StreamIdentity identity_;
  const StreamOptions options_;
  const int64_t zero_micros_;  // the database clock's zero, in Unix microseconds
  std::string arn_, label_;
  double created_epoch_ = 0;

  mutable std::mutex mu_;  // guards everything below; only the log's mutex is taken under it
  std::condition_variable appended_;
  std::atomic<uint64_t> appends_{0};
  std::atomic<size_t> splits_applied_{0};
  bool enabled_ = true;
  uint64_t next_sequence_ = 1;
  uint64_t bytes_ = 0;
  int64_t last_trim_micros_ = 0;
  int waiters_ = 0;
  std::deque<std::unique_ptr<Shard>> shards_;  // creation order (parents before children)
  std::vector<Shard*> open_;                   // sorted by begin; cover the hash space
  std::unordered_map<std::string, Shard*> by_id_;
};

// Every stream the database has or had (ListStreams, DescribeStream and the iterators find them
// by ARN), in creation order; a finished one (Stream::Finished) is dropped when listed. Its mutex
// is a leaf.
class StreamRegistry {
 public:
  void Add(std::shared_ptr<Stream> stream);
  // Forgets a stream at once (a CreateTable that failed after making its table's stream).
  void Remove(const Stream* stream);
  // The newest label of `table`'s streams (live or not yet dropped), or "": a new stream's label
  // must be later, so that its ARN is unique even when a table is deleted and created again in
  // one millisecond.
  std::string LatestLabel(std::string_view table) const;
  std::shared_ptr<Stream> Find(std::string_view arn) const;
  std::vector<std::shared_ptr<Stream>> List();

 private:
  mutable std::mutex mu_;  // guards streams_
  std::vector<std::shared_ptr<Stream>> streams_;
};

}  // namespace partstore
