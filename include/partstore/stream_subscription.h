// StreamSubscription: a table's stream delivered to a callback, on a thread of the caller's
// choosing: the thread that calls Poll / Wait, or the one Run occupies (a std::jthread).
//
//   auto sub = partstore::StreamSubscription::Open(db, "Orders", {},
//       [&](const partstore::StreamRecord& r) { cache.Invalidate(r.keys); });
//   std::jthread consumer([&](std::stop_token stop) { (void)(*sub)->Run(stop); });
//
// It reads the stream that is the table's at Open (a later disable and re-enable makes a new
// stream, which needs a new subscription), through the same shards and iterators as the
// dynamodbstreams API (partstore/streams.h; a ShardReader per shard, partstore/shard_reader.h),
// and follows the shard lineage: a shard is read only
// once its parent has been read to its end.
//
// Ordering: the records of one item are delivered in the order the item was written; records of
// different items in one shard in shard order; across shards no order. Each record once, unless
// the callback's Poll fails midway (a record is counted delivered when its callback returns).
//
// Errors: a record trimmed before it was read (retention, the stream's byte cap) makes Poll return
// TrimmedDataAccessException once; the subscription then goes on from the oldest record kept.
// An iterator that expired while the subscription idled is renewed at the same position.
//
// Any Store will do (partstore/store.h): on the engine, Wait wakes as soon as a record is
// written; on a RemoteStore (any DynamoDB Streams endpoint) it polls GetRecords every
// Options::poll_interval until the timeout.
//
// Thread safety: one thread at a time per subscription (Poll, Wait and Run are not reentrant and
// must not be called from the callback); different subscriptions are independent. The store
// must outlive the subscription.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "partstore/shard_reader.h"
#include "partstore/status.h"
#include "partstore/store.h"
#include "partstore/streams.h"

namespace partstore {

class Stream;

class StreamSubscription {
 public:
  enum class Start : uint8_t {
    kLatest,       // records written after Open
    kTrimHorizon,  // every record the stream still keeps
  };
  struct Options {
    Start start = Start::kLatest;
    // A remote store: the pause between two polls of its shards while Wait waits (DynamoDB
    // advises at most 5 GetRecords calls a second per shard). Unused on the engine.
    std::chrono::milliseconds poll_interval{200};
  };
  using Callback = std::function<void(const StreamRecord&)>;

  // ResourceNotFoundException for a missing table; ValidationException when it has no stream.
  static Result<std::unique_ptr<StreamSubscription>> Open(Store& db, std::string_view table,
                                                          Options options, Callback callback);
  ~StreamSubscription();
  StreamSubscription(const StreamSubscription&) = delete;
  StreamSubscription& operator=(const StreamSubscription&) = delete;

  const std::string& stream_arn() const { return stream_arn_; }

  // Delivers every record available now; the number delivered.
  Result<size_t> Poll();
  // The same, waiting up to `timeout` for a record when none is available.
  Result<size_t> Wait(std::chrono::milliseconds timeout);
  // Waits and delivers until `stop` is requested (checked at least every 100 ms); the first error.
  Status Run(std::stop_token stop);

 private:
  struct ShardState {
    std::string id;
    std::optional<std::string> parent;
    std::optional<ShardReader> reader;  // from the first read on
    bool initial = false;  // listed at Open (Start applies); later shards start at their start
    bool done = false;
  };
  StreamSubscription(Store& db, std::shared_ptr<Stream> stream, std::string stream_arn,
                     Options options, Callback callback);
  Status Refresh();
  Status OpenReader(ShardState& shard);
  bool Ready(const ShardState& shard) const;

  Store& db_;
  std::shared_ptr<Stream> stream_;  // the engine's stream (for Wait); null on a remote store
  std::string stream_arn_;
  Options options_;
  Callback callback_;
  std::vector<ShardState> shards_;  // in the stream's order (parents first)
  Status trimmed_;                  // a trim met since the last Poll returned (reported once)
};

}  // namespace partstore
