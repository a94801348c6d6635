// StreamFollower: see stream_follower.h.
#include "cache/stream_follower.h"

#include <algorithm>
#include <utility>

#include "cache/counters.h"

namespace partstore::cache {
namespace {

constexpr int kRecordsPerCall = 1000;
constexpr int kPagesPerPoll = 8;  // full pages read from one shard in one poll
constexpr std::chrono::milliseconds kMaxBackoff{10000};

bool Throttled(const Status& status) {
  switch (status.code()) {
    case Code::kLimitExceeded:
    case Code::kProvisionedThroughputExceeded:
    case Code::kThrottling:
    case Code::kRequestLimitExceeded:
      return true;
    default:
      return false;
  }
}

}  // namespace

StreamFollower::StreamFollower(Store& upstream, Catalog& catalog, ItemCache& items,
                               QueryCache& pages, CacheCounters& counters,
                               std::chrono::milliseconds interval, bool enabled)
    : upstream_(upstream),
      catalog_(catalog),
      items_(items),
      pages_(pages),
      counters_(counters),
      interval_(interval),
      enabled_(enabled) {}

StreamFollower::~StreamFollower() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void StreamFollower::Follow(CachedTable& table) {
  if (table.followed.load(std::memory_order_acquire)) return;
  if (!enabled_ || table.stream_arn.empty()) {
    table.followed.store(true, std::memory_order_release);
    return;
  }
  std::call_once(table.stream_once, [&] {
    {
      std::lock_guard lock(mu_);
      if (followed_.count(table.stream_arn) != 0) return;
    }
    auto followed = std::make_shared<Followed>();
    followed->table_name = table.name;
    followed->arn = table.stream_arn;
    {
      std::lock_guard poll(poll_mu_);
      Position(*followed, /*initial=*/true);
    }
    std::lock_guard lock(mu_);
    followed_.emplace(followed->arn, std::move(followed));
    if (!thread_.joinable() && !stop_) thread_ = std::thread([this] { Run(); });
  });
  table.followed.store(true, std::memory_order_release);
}

void StreamFollower::Position(Followed& f, bool initial) {
  f.discover = false;
  std::optional<std::string> start;
  do {
    Result<DescribeStreamResult> described = TimedCall(counters_, [&] {
      return upstream_.DescribeStream({.stream_arn = f.arn, .exclusive_start_shard_id = start});
    });
    if (!described.ok()) {
      CacheCounters::Add(Throttled(described.status()) ? counters_.stream_throttles
                                                       : counters_.stream_errors);
      f.discover = true;
      return;
    }
    const StreamDescription& d = described->stream_description;
    for (const StreamShard& shard : d.shards) {
      const bool known =
          f.shards.count(shard.shard_id) != 0 ||
          std::find(f.finished.begin(), f.finished.end(), shard.shard_id) != f.finished.end();
      if (known) continue;
      const bool closed = shard.sequence_number_range.ending_sequence_number.has_value();
      if (initial && closed) {
        f.finished.push_back(shard.shard_id);  // history from before the cache
        continue;
      }
      if (!initial && shard.parent_shard_id && f.shards.count(*shard.parent_shard_id) != 0) {
        f.discover = true;  // the parent's records first
        continue;
      }
      Result<GetShardIteratorResult> iterator = TimedCall(counters_, [&] {
        return upstream_.GetShardIterator(
            {.stream_arn = f.arn,
             .shard_id = shard.shard_id,
             .shard_iterator_type =
                 initial ? ShardIteratorType::kLatest : ShardIteratorType::kTrimHorizon});
      });
      if (!iterator.ok()) {
        CacheCounters::Add(counters_.stream_errors);
        f.discover = true;
        continue;
      }
      f.shards[shard.shard_id] = Shard{std::move(iterator->shard_iterator), ""};
    }
    start = d.last_evaluated_shard_id;
  } while (start);
}

void StreamFollower::Lost(Followed& f) {
  catalog_.Forget(f.table_name);
  f.shards.clear();
  f.finished.clear();
  Position(f, /*initial=*/true);
}

void StreamFollower::Read(Followed& f) {
  const auto now = std::chrono::steady_clock::now();
  if (now < f.resume_at) return;
  if (f.discover) Position(f, /*initial=*/false);
  std::vector<std::string> ids;
  for (const auto& [id, shard] : f.shards) ids.push_back(id);
  bool any_records = false;
  for (const std::string& id : ids) {
    for (int page = 0; page < kPagesPerPoll; ++page) {
      Shard& shard = f.shards[id];
      Result<GetRecordsResult> got = TimedCall(counters_, [&] {
        return upstream_.GetRecords({.shard_iterator = shard.iterator, .limit = kRecordsPerCall});
      });
      if (!got.ok()) {
        const Status& status = got.status();
        if (Throttled(status)) {
          CacheCounters::Add(counters_.stream_throttles);
          f.backoff = std::min(kMaxBackoff, std::max(interval_, f.backoff * 2));
          f.resume_at = std::chrono::steady_clock::now() + f.backoff;
          return;
        }
        CacheCounters::Add(counters_.stream_errors);
        if (status.code() == Code::kExpiredIterator && !shard.last_sequence.empty()) {
          Result<GetShardIteratorResult> again = TimedCall(counters_, [&] {
            return upstream_.GetShardIterator(
                {.stream_arn = f.arn,
                 .shard_id = id,
                 .shard_iterator_type = ShardIteratorType::kAfterSequenceNumber,
                 .sequence_number = shard.last_sequence});
          });
          if (again.ok()) {
            shard.iterator = std::move(again->shard_iterator);
            continue;
          }
        }
        if (status.code() == Code::kExpiredIterator || status.code() == Code::kTrimmedDataAccess ||
            status.code() == Code::kResourceNotFound) {
          Lost(f);  // records may be missing: start over with nothing cached
          return;
        }
        break;  // another error: the next poll tries again
      }
      f.backoff = std::chrono::milliseconds(0);
      for (const StreamRecord& record : got->records) {
        Apply(f.table_name, record);
        shard.last_sequence = record.sequence_number;
      }
      if (!got->records.empty()) {
        any_records = true;
        CacheCounters::Add(counters_.stream_records, got->records.size());
        f.lag_seconds = std::max(
            0.0, upstream_.EpochSeconds() - got->records.back().approximate_creation_date_time);
      }
      if (!got->next_shard_iterator) {
        f.finished.push_back(id);
        f.shards.erase(id);
        f.discover = true;
        break;
      }
      shard.iterator = std::move(*got->next_shard_iterator);
      if (got->records.size() < static_cast<size_t>(kRecordsPerCall)) break;
    }
  }
  if (!any_records) f.lag_seconds = 0;
  if (f.discover) Position(f, /*initial=*/false);
}

void StreamFollower::Apply(const std::string& table_name, const StreamRecord& record) {
  std::shared_ptr<CachedTable> table = catalog_.Find(table_name);
  if (!table) return;  // nothing cached for it
  Image after, before;
  if (record.event_name == StreamEventName::kRemove) {
    after = Image::Absent();
  } else if (record.new_image) {
    after = Image::Of(record.new_image->ToItem());
  }
  if (record.event_name == StreamEventName::kInsert) {
    before = Image::Absent();
  } else if (record.old_image) {
    before = Image::Of(record.old_image->ToItem());
  }
  items_.Refresh(*table, record.keys, after);
  pages_.DropWrite(*table, record.keys, before, after, nullptr);
}

void StreamFollower::PollOnce() {
  std::vector<std::shared_ptr<Followed>> all;
  {
    std::lock_guard lock(mu_);
    for (const auto& [arn, f] : followed_) all.push_back(f);
  }
  std::lock_guard poll(poll_mu_);
  for (const std::shared_ptr<Followed>& f : all) Read(*f);
}

double StreamFollower::LagSeconds() const {
  std::vector<std::shared_ptr<Followed>> all;
  {
    std::lock_guard lock(mu_);
    for (const auto& [arn, f] : followed_) all.push_back(f);
  }
  double lag = 0;
  for (const auto& f : all) lag = std::max(lag, f->lag_seconds.load());
  return lag;
}

void StreamFollower::Run() {
  std::unique_lock lock(mu_);
  while (!stop_) {
    wake_.wait_for(lock, interval_, [&] { return stop_; });
    if (stop_) break;
    lock.unlock();
    PollOnce();
    lock.lock();
  }
}

}  // namespace partstore::cache
