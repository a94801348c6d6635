// StreamSubscription: see partstore/stream_subscription.h. Built on the store's public stream
// operations; only the engine's wait for an append uses the stream itself.
#include "partstore/stream_subscription.h"

#include <algorithm>
#include <thread>
#include <utility>

#include "shard/database_state.h"

namespace partstore {

Result<std::unique_ptr<StreamSubscription>> StreamSubscription::Open(Store& db,
                                                                     std::string_view table,
                                                                     Options options,
                                                                     Callback callback) {
  const Status no_stream =
      Status::Validation("Table has no stream to subscribe to: TableName: " + std::string(table));
  std::shared_ptr<Stream> stream;
  std::string arn;
  if (auto* engine = dynamic_cast<Database*>(&db)) {
    PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> t, internal::GetTable(*engine, table));
    stream = t->stream();
    if (!stream) return no_stream;
    arn = stream->arn();
  } else {
    PARTSTORE_ASSIGN_OR_RETURN(DescribeTableResult described,
                               db.DescribeTable({.table_name = std::string(table)}));
    const TableDescription& t = described.table;
    if (!t.stream_specification || !t.stream_specification->stream_enabled ||
        !t.latest_stream_arn) {
      return no_stream;
    }
    arn = *t.latest_stream_arn;
  }
  std::unique_ptr<StreamSubscription> sub(
      new StreamSubscription(db, std::move(stream), std::move(arn), options, std::move(callback)));
  PARTSTORE_RETURN_IF_ERROR(sub->Refresh());
  for (ShardState& shard : sub->shards_) {
    shard.initial = true;
    // LATEST is fixed now, not at the first Poll.
    if (options.start == Start::kLatest) PARTSTORE_RETURN_IF_ERROR(sub->OpenReader(shard));
  }
  return sub;
}

StreamSubscription::StreamSubscription(Store& db, std::shared_ptr<Stream> stream,
                                       std::string stream_arn, Options options, Callback callback)
    : db_(db),
      stream_(std::move(stream)),
      stream_arn_(std::move(stream_arn)),
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
      if (!known) {
        ShardState state;
        state.id = s.shard_id;
        state.parent = s.parent_shard_id;
        shards_.push_back(std::move(state));
      }
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

Status StreamSubscription::OpenReader(ShardState& shard) {
  const ShardIteratorType start = shard.initial && options_.start == Start::kLatest
                                      ? ShardIteratorType::kLatest
                                      : ShardIteratorType::kTrimHorizon;
  Result<ShardReader> reader = ShardReader::Open(db_, stream_arn_, shard.id, start);
  if (!reader.ok()) {
    if (reader.status().code() != Code::kResourceNotFound) return reader.status();
    shard.done = true;  // the shard is gone (trimmed away): nothing of it is left to read
    return Status::Ok();
  }
  shard.reader.emplace(std::move(*reader));
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
      if (!shards_[i].reader) PARTSTORE_RETURN_IF_ERROR(OpenReader(shards_[i]));
      ShardState& shard = shards_[i];
      while (!shard.done) {
        Result<std::vector<StreamRecord>> records = shard.reader->Next();
        if (!records.ok()) {
          if (records.status().code() == Code::kTrimmedDataAccess) {
            trimmed_ = records.status();  // reported once; reading goes on
            continue;
          }
          if (records.status().code() != Code::kResourceNotFound) return records.status();
          shard.done = true;  // the shard is gone (trimmed away)
          progress = true;
          break;
        }
        for (const StreamRecord& record : *records) {
          callback_(record);
          ++delivered;
        }
        if (shard.reader->finished()) {
          shard.done = true;
          progress = true;
        } else if (records->empty()) {
          break;
        }
      }
    }
  }
  if (!trimmed_.ok()) return std::exchange(trimmed_, Status::Ok());
  return delivered;
}

Result<size_t> StreamSubscription::Wait(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  if (!stream_) {  // a remote store: poll until a record comes or the time is up
    for (;;) {
      PARTSTORE_ASSIGN_OR_RETURN(size_t delivered, Poll());
      const auto now = std::chrono::steady_clock::now();
      if (delivered > 0 || now >= deadline) return delivered;
      std::this_thread::sleep_for(
          std::min<std::chrono::steady_clock::duration>(options_.poll_interval, deadline - now));
    }
  }
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
