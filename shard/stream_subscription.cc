// StreamSubscription: see partstore/stream_subscription.h. Built on the Database's public
// stream operations; only the wait for an append uses the stream itself.
#include "partstore/stream_subscription.h"

#include <algorithm>
#include <utility>

#include "shard/database_state.h"

namespace partstore {

Result<std::unique_ptr<StreamSubscription>> StreamSubscription::Open(Database& db,
                                                                     std::string_view table,
                                                                     Options options,
                                                                     Callback callback) {
  PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> t, internal::GetTable(db, table));
  std::shared_ptr<Stream> stream = t->stream();
  if (!stream) {
    return Status::Validation("Table has no stream to subscribe to: TableName: " +
                              std::string(table));
  }
  std::unique_ptr<StreamSubscription> sub(
      new StreamSubscription(db, std::move(stream), options, std::move(callback)));
  PARTSTORE_RETURN_IF_ERROR(sub->Refresh());
  for (ShardState& shard : sub->shards_) {
    shard.initial = true;
    // LATEST is fixed now, not at the first Poll.
    if (options.start == Start::kLatest && !shard.done) {
      PARTSTORE_RETURN_IF_ERROR(sub->IteratorFor(shard));
    }
  }
  return sub;
}

StreamSubscription::StreamSubscription(Database& db, std::shared_ptr<Stream> stream,
                                       Options options, Callback callback)
    : db_(db),
      stream_(std::move(stream)),
      stream_arn_(stream_->arn()),
      options_(options),
      callback_(std::move(callback)) {}

StreamSubscription::~StreamSubscription() = default;

Status StreamSubscription::Refresh() {
  DescribeStreamRequest request{.stream_arn = stream_arn_};
  while (true) {
    PARTSTORE_ASSIGN_OR_RETURN(DescribeStreamResult page, db_.DescribeStream(request));
    for (StreamShard& s : page.stream_description.shards) {
      const bool known = std::any_of(shards_.begin(), shards_.end(),
                                     [&](const ShardState& k) { return k.id == s.shard_id; });
      if (!known) shards_.push_back({.id = s.shard_id, .parent = s.parent_shard_id});
    }
    if (!page.stream_description.last_evaluated_shard_id) break;
    request.exclusive_start_shard_id = page.stream_description.last_evaluated_shard_id;
  }
  return Status::Ok();
}

bool StreamSubscription::Ready(const ShardState& shard) const {
  if (shard.done) return false;
  if (!shard.parent) return true;
  for (const ShardState& other : shards_) {
    if (other.id == *shard.parent) return other.done;
  }
  return true;  // the parent is gone (trimmed): nothing of it is left to read
}

Status StreamSubscription::IteratorFor(ShardState& shard) {
  GetShardIteratorRequest request{.stream_arn = stream_arn_, .shard_id = shard.id};
  if (shard.last_sequence) {
    request.shard_iterator_type = ShardIteratorType::kAfterSequenceNumber;
    request.sequence_number = shard.last_sequence;
  } else if (shard.initial && options_.start == Start::kLatest) {
    request.shard_iterator_type = ShardIteratorType::kLatest;
  } else {
    request.shard_iterator_type = ShardIteratorType::kTrimHorizon;
  }
  Result<GetShardIteratorResult> got = db_.GetShardIterator(request);
  if (!got.ok() && got.status().code() == Code::kTrimmedDataAccess) {
    trimmed_ = got.status();  // reported by Poll; reading goes on from the oldest record kept
    shard.last_sequence.reset();
    shard.initial = false;
    request.shard_iterator_type = ShardIteratorType::kTrimHorizon;
    request.sequence_number.reset();
    got = db_.GetShardIterator(request);
  }
  if (!got.ok()) return got.status();
  shard.iterator = std::move(got->shard_iterator);
  shard.initial = false;  // (LATEST was fixed by this iterator; a renewal keeps its position)
  return Status::Ok();
}

Result<size_t> StreamSubscription::Poll() {
  PARTSTORE_RETURN_IF_ERROR(Refresh());
  size_t delivered = 0;
  // A shard finished in this pass may make its children ready: go round until nothing changes.
  for (bool progress = true; progress;) {
    progress = false;
    for (size_t i = 0; i < shards_.size(); ++i) {
      if (!Ready(shards_[i])) continue;
      if (!shards_[i].iterator) PARTSTORE_RETURN_IF_ERROR(IteratorFor(shards_[i]));
      while (true) {
        ShardState& shard = shards_[i];
        Result<GetRecordsResult> page =
            db_.GetRecords(GetRecordsRequest{.shard_iterator = *shard.iterator});
        if (!page.ok()) {
          const Code code = page.status().code();
          if (code == Code::kExpiredIterator) {
            // Expired while the subscription idled: the same position, issued now.
            PARTSTORE_ASSIGN_OR_RETURN(shard.iterator, stream_->RenewIterator(*shard.iterator));
            continue;
          }
          if (code == Code::kTrimmedDataAccess) {
            trimmed_ = page.status();
            shard.last_sequence.reset();
            shard.initial = false;
            PARTSTORE_RETURN_IF_ERROR(IteratorFor(shard));
            continue;
          }
          if (code == Code::kResourceNotFound) {  // the shard is gone (trimmed away)
            shard.done = true;
            progress = true;
            break;
          }
          return page.status();
        }
        for (const StreamRecord& record : page->records) {
          shard.last_sequence = record.sequence_number;
          callback_(record);
          ++delivered;
        }
        if (!page->next_shard_iterator) {
          shard.done = true;
          shard.iterator.reset();
          progress = true;
          break;
        }
        shard.iterator = std::move(page->next_shard_iterator);
        if (page->records.empty()) break;
      }
    }
  }
  if (!trimmed_.ok()) return std::exchange(trimmed_, Status::Ok());
  return delivered;
}

Result<size_t> StreamSubscription::Wait(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  const uint64_t seen = stream_->append_count();
  PARTSTORE_ASSIGN_OR_RETURN(size_t delivered, Poll());
  if (delivered > 0) return delivered;
  stream_->WaitForAppend(seen, deadline);
  return Poll();
}

Status StreamSubscription::Run(std::stop_token stop) {
  while (!stop.stop_requested()) {
    Result<size_t> delivered = Wait(std::chrono::milliseconds(100));
    if (!delivered.ok()) return delivered.status();
  }
  return Status::Ok();
}

}  // namespace partstore
