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
// Thread safety: one thread at a time per reader. The Database must outlive it.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "partstore/database.h"
#include "partstore/status.h"
#include "partstore/streams.h"

namespace partstore {

class Stream;

class ShardReader {
 public:
  // From `start` (AT_ / AFTER_SEQUENCE_NUMBER need `sequence_number`). GetShardIterator's errors.
  static Result<ShardReader> Open(Database& db, std::string_view stream_arn,
                                  std::string_view shard_id,
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
  ShardReader(Database& db, std::shared_ptr<Stream> stream, std::string shard_id,
              std::string iterator)
      : db_(&db),
        stream_(std::move(stream)),
        shard_id_(std::move(shard_id)),
        iterator_(std::move(iterator)) {}

  Database* db_;
  std::shared_ptr<Stream> stream_;
  std::string shard_id_;
  std::optional<std::string> iterator_;  // absent once finished
  std::optional<std::string> last_sequence_;
};

}  // namespace partstore
