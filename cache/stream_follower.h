// StreamFollower: keeps a CachedStore coherent with other writers by tailing each cached table's
// DynamoDB stream (DescribeStream, GetShardIterator, GetRecords), which DAX does not do.
//
// The first time a table with a stream is used through the cache, Follow positions an iterator
// at LATEST in each of the stream's open shards before the caller reads (so no write after the
// cache's first read of the table goes unseen). A background thread then polls every interval:
// GetRecords on each shard, records applied in order (a record's new image refreshes a cached
// item, a REMOVE caches "no such item", a record without images forgets the key; every record
// drops the pages of its partition key, of the index keys its images carry, or of the whole index
// when an image is unknown). A closed shard (a split, or DynamoDB's rollover) is followed by its
// children from TRIM_HORIZON, parents before children. Throttled GetRecords back off
// exponentially (up to 10 s) and are counted; the lag metric says how far behind the cache is. An
// expired iterator resumes after the last sequence number applied; records lost to trimming, or
// a stream that is gone, forget the table's cache (its TTLs then bound staleness again).
//
// DynamoDB throttles more than two readers per shard: one cache (one process, or one `partstore
// serve --upstream` proxy per host that the processes on it read through) is one reader.
//
// Thread safety: safe for concurrent use. Lock order: poll_mu_ (one poll at a time; held while
// calling the upstream and the caches) before mu_ (the registry; a leaf).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cache/catalog.h"
#include "cache/item_cache.h"
#include "cache/query_cache.h"
#include "partstore/store.h"

namespace partstore::cache {

struct CacheCounters;

class StreamFollower {
 public:
  StreamFollower(Store& upstream, Catalog& catalog, ItemCache& items, QueryCache& pages,
                 CacheCounters& counters, std::chrono::milliseconds interval, bool enabled);
  ~StreamFollower();
  StreamFollower(const StreamFollower&) = delete;
  StreamFollower& operator=(const StreamFollower&) = delete;

  // Starts following `table`'s stream, when it has one and following is enabled (once per
  // table; cheap after the first call).
  void Follow(CachedTable& table);
  // One round: every followed shard read once (and drained up to a few pages).
  void PollOnce();
  // How far the slowest stream is behind, in seconds (see CacheStats::stream_lag_seconds).
  double LagSeconds() const;

 private:
  struct Shard {
    std::string iterator;
    std::string last_sequence;
  };
  struct Followed {
    std::string table_name;
    std::string arn;
    std::map<std::string, Shard> shards;  // open shards being read, by id
    std::vector<std::string> finished;    // closed shards read to their end
    bool discover = false;                // look for new shards at the next poll
    std::chrono::steady_clock::time_point resume_at{};
    std::chrono::milliseconds backoff{0};
    std::atomic<double> lag_seconds{0};
  };

  void Position(Followed& followed, bool initial);
  void Read(Followed& followed);
  void Apply(const std::string& table_name, const StreamRecord& record);
  void Lost(Followed& followed);
  void Run();

  Store& upstream_;
  Catalog& catalog_;
  ItemCache& items_;
  QueryCache& pages_;
  CacheCounters& counters_;
  const std::chrono::milliseconds interval_;
  const bool enabled_;

  std::mutex poll_mu_;     // one poll at a time; guards every Followed's contents
  mutable std::mutex mu_;  // guards followed_, stop_, thread_
  std::condition_variable wake_;
  std::map<std::string, std::shared_ptr<Followed>> followed_;  // by stream ARN
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace partstore::cache
