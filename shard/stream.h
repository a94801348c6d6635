// Stream: one stream of one table (partstore/streams.h has what users see): its shards, one per
// partition of the table, and their records.
//
// Writers append under the item's stripe lock (Table::Emit), so a key's records are in write
// order; the stream's own mutex is a leaf (taken under a stripe lock, never held while taking
// another lock), held for the append only. A sequence number comes from one counter per stream,
// drawn under that mutex, so it increases within every shard.
//
// Partitions: the stream starts with one open shard per partition the table has (hash ranges).
// When the table's simulated partitions split (capacity::ResourceCapacity::splits(), an append-only
// list), the table hands the new splits over (ApplySplits) before its next append: the shard
// whose range holds the split point closes and two children open. Appends find their shard by
// hash among the open ones, so a record lands in the shard of the partition its key has now.
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

namespace partstore {

struct StreamIdentity {
  std::string table_name;
  std::string table_arn;
  KeySchema key_schema;
  StreamViewType view_type = StreamViewType::kKeysOnly;
  std::shared_ptr<capacity::Clock> clock;  // never null
  double epoch_at_clock_zero = 0;          // Unix seconds at the clock's zero
  std::string last_label;                  // the table's previous stream label (labels are unique)
  // The table's partition splits from index `first` on (empty without capacity simulation, or
  // once the table is gone); readers bring the shards up to date with it. Takes only leaf locks.
  std::function<std::vector<capacity::PartitionSplit>(size_t first)> splits_since;
};

class Stream {
 public:
  // A new stream (ENABLED), with one shard per partition starting at `partition_starts` (sorted,
  // the first 0), after `splits_applied` of the table's splits.
  Stream(StreamIdentity identity, StreamOptions options, std::span<const uint64_t> partition_starts,
         size_t splits_applied);
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  const std::string& arn() const { return arn_; }
  const std::string& label() const { return label_; }
  const std::string& table_name() const { return identity_.table_name; }
  StreamViewType view_type() const { return identity_.view_type; }

  // A change of one item (`old_item` / `new_item` empty when there was or is none). Writes
  // nothing when both are empty or the item is unchanged. REQUIRES: the item's stripe held.
  void Append(uint64_t hash, const StoredItem& old_item, const StoredItem& new_item,
              StreamRemover remover);
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
  Result<GetRecordsResult> GetRecords(const Position& position, int64_t issued_micros,
                                      size_t limit);

  // The same position with a fresh issue time (a subscription renews what expired while it
  // idled). ValidationException for text that is not this stream's iterator.
  Result<std::string> RenewIterator(std::string_view text) const;
  // Iterators: "<stream ARN>|<shard id>|<next>|<issued>" (opaque to users).
  std::string EncodeIterator(const Position& position, int64_t issued_micros) const;
  struct DecodedIterator {
    std::string stream_arn;
    Position position;
    int64_t issued_micros = 0;
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
  };
  struct Shard {
    std::string id;
    std::string parent_id;        // empty: none
    uint64_t begin = 0, end = 0;  // hash range (inclusive)
    uint64_t starting = 0;
    uint64_t last = 0;               // the newest record's sequence number (0: none yet)
    std::optional<uint64_t> ending;  // set when closed
    int64_t closed_micros = 0;
    uint64_t trimmed_through = 0;  // the highest sequence number trimmed (0: none)
    std::deque<Entry> records;
  };
  static constexpr uint64_t kEntryOverhead = 64;

  int64_t Now() const { return identity_.clock->NowMicros(); }
  // The shards brought up to the table's splits (no lock held).
  void Sync();
  double EpochOf(int64_t micros) const { return identity_.epoch_at_clock_zero + micros / 1e6; }
  // REQUIRES: mu_ held, for all below.
  Shard& OpenShard(uint64_t begin, uint64_t end, std::string parent_id);
  void CloseShard(Shard& shard);
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
  std::string arn_, label_;
  double created_epoch_ = 0;

  mutable std::mutex mu_;  // guards everything below; a leaf
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
