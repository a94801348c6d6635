// ShardReader: a pull iterator over one shard of a stream (partstore/streams.h), the C++ form of
// GetShardIterator + GetRecords that keeps its own position.
//
//   auto reader = partstore::ShardReader::Open(db, stream_arn, shard_id);
//   while (!reader->finished()) {
//     auto records = reader->Next();            // what is there now (maybe nothing)
//     if (!records.ok()) break;                 // e.g. TrimmedDataAccessException
//     for (const partstore::StreamRecord& r : *records) { ... }
//   }
//
// Records come in shard order (for one item, its write order). An open shard never finishes:
// Next returns an empty batch until more is written. A closed shard finishes once read to its
// end; read its children (DescribeStream's ParentShardId) after it. An iterator that expired
// between calls (15 minutes: StreamOptions::iterator_lifetime_seconds) is renewed at the same
// position. Records trimmed before they were read make Next fail with TrimmedDataAccessException
// once; the reader then goes on from the oldest record kept.
//
// Any Store will do (partstore/store.h). On the engine (a Database) an expired iterator is renewed
// at its exact position; on a RemoteStore it is renewed with GetShardIterator after the last
// record returned (before any: at the reader's start again, which for LATEST means records
// written in between are skipped, as with any DynamoDB Streams client).
//
// Thread safety: one thread at a time per reader. The store must outlive it.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "partstore/status.h"
#include "partstore/store.h"
#include "partstore/streams.h"

namespace partstore {

class Stream;

class ShardReader {
 public:
  // From `start` (AT_ / AFTER_SEQUENCE_NUMBER need `sequence_number`). GetShardIterator's errors.
  static Result<ShardReader> Open(Store& db, std::string_view stream_arn, std::string_view shard_id,
                                  ShardIteratorType start = ShardIteratorType::kTrimHorizon,
                                  std::optional<std::string> sequence_number = std::nullopt);

  // The next records: up to `limit` (1..1000) or 1 MB, an empty batch when none are there now.
  Result<std::vector<StreamRecord>> Next(int32_t limit = 1000);
  // The shard is closed and every record of it was returned.
  bool finished() const { return !iterator_; }
  const std::string& shard_id() const { return shard_id_; }
  // The newest record returned, if any.
  const std::optional<std::string>& last_sequence_number() const { return last_sequence_; }

 private:
  ShardReader(Store& db, std::shared_ptr<Stream> stream, std::string stream_arn,
              std::string shard_id, std::string iterator, ShardIteratorType start,
              std::optional<std::string> start_sequence)
      : db_(&db),
        stream_(std::move(stream)),
        stream_arn_(std::move(stream_arn)),
        shard_id_(std::move(shard_id)),
        iterator_(std::move(iterator)),
        start_(start),
        start_sequence_(std::move(start_sequence)) {}
  // A new iterator at this reader's position (see the header comment).
  Result<std::string> Renew();

  Store* db_;
  std::shared_ptr<Stream> stream_;  // the engine's stream; null on a remote store
  std::string stream_arn_;
  std::string shard_id_;
  std::optional<std::string> iterator_;  // absent once finished
  std::optional<std::string> last_sequence_;
  ShardIteratorType start_;
  std::optional<std::string> start_sequence_;
};

}  // namespace partstore
