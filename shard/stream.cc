// Stream: see stream.h.
#include "shard/stream.h"

#include <fmt/format.h>
#include <xxhash.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <ctime>
#include <limits>

#include "core/stored_item_projection.h"

namespace partstore {

namespace {

// DynamoDB's stream label: the creation time, "2015-05-11T21:21:33.291" (UTC, milliseconds).
std::string LabelAt(double epoch_seconds) {
  const auto millis = static_cast<int64_t>(std::floor(epoch_seconds * 1000));
  const time_t seconds = static_cast<time_t>(millis / 1000);
  struct tm utc;
  gmtime_r(&seconds, &utc);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}", utc.tm_year + 1900,
                     utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                     millis % 1000);
}

}  // namespace

std::string_view StreamViewTypeName(StreamViewType type) {
  switch (type) {
    case StreamViewType::kKeysOnly:
      return "KEYS_ONLY";
    case StreamViewType::kNewImage:
      return "NEW_IMAGE";
    case StreamViewType::kOldImage:
      return "OLD_IMAGE";
    case StreamViewType::kNewAndOldImages:
      return "NEW_AND_OLD_IMAGES";
  }
  return "KEYS_ONLY";
}

std::optional<StreamViewType> ParseStreamViewType(std::string_view name) {
  for (StreamViewType t : {StreamViewType::kKeysOnly, StreamViewType::kNewImage,
                           StreamViewType::kOldImage, StreamViewType::kNewAndOldImages}) {
    if (StreamViewTypeName(t) == name) return t;
  }
  return std::nullopt;
}

std::string_view StreamStatusName(StreamStatus status) {
  switch (status) {
    case StreamStatus::kEnabling:
      return "ENABLING";
    case StreamStatus::kEnabled:
      return "ENABLED";
    case StreamStatus::kDisabling:
      return "DISABLING";
    case StreamStatus::kDisabled:
      return "DISABLED";
  }
  return "ENABLED";
}

std::string_view StreamEventNameText(StreamEventName name) {
  switch (name) {
    case StreamEventName::kInsert:
      return "INSERT";
    case StreamEventName::kModify:
      return "MODIFY";
    case StreamEventName::kRemove:
      return "REMOVE";
  }
  return "INSERT";
}

std::string_view ShardIteratorTypeName(ShardIteratorType type) {
  switch (type) {
    case ShardIteratorType::kTrimHorizon:
      return "TRIM_HORIZON";
    case ShardIteratorType::kLatest:
      return "LATEST";
    case ShardIteratorType::kAtSequenceNumber:
      return "AT_SEQUENCE_NUMBER";
    case ShardIteratorType::kAfterSequenceNumber:
      return "AFTER_SEQUENCE_NUMBER";
  }
  return "TRIM_HORIZON";
}

std::optional<ShardIteratorType> ParseShardIteratorType(std::string_view name) {
  for (ShardIteratorType t :
       {ShardIteratorType::kTrimHorizon, ShardIteratorType::kLatest,
        ShardIteratorType::kAtSequenceNumber, ShardIteratorType::kAfterSequenceNumber}) {
    if (ShardIteratorTypeName(t) == name) return t;
  }
  return std::nullopt;
}

std::string_view ShardFilterTypeName(ShardFilterType) { return "CHILD_SHARDS"; }

std::optional<ShardFilterType> ParseShardFilterType(std::string_view name) {
  if (name == "CHILD_SHARDS") return ShardFilterType::kChildShards;
  return std::nullopt;
}

std::string Stream::SequenceText(uint64_t n) { return fmt::format("1{:020}", n); }

std::optional<uint64_t> Stream::ParseSequence(std::string_view text) {
  if (text.size() != 21 || text[0] != '1') return std::nullopt;
  uint64_t n = 0;
  const auto [end, ec] = std::from_chars(text.data() + 1, text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return n;
}

Stream::Stream(StreamIdentity identity, StreamOptions options,
               std::span<const uint64_t> partition_starts, size_t splits_applied)
    : identity_(std::move(identity)),
      options_(options),
      zero_micros_(std::llround(identity_.epoch_at_clock_zero * 1e6)) {
  const int64_t now = Now();
  created_epoch_ = EpochOf(now);
  label_ = LabelAt(created_epoch_);
  // Two streams of one table in one millisecond (the manual clock): the later label moves on.
  double bumped = created_epoch_;
  while (label_ <= identity_.last_label && !identity_.last_label.empty()) {
    bumped += 0.001;
    label_ = LabelAt(bumped);
  }
  arn_ = identity_.table_arn + "/stream/" + label_;
  last_trim_micros_ = now;
  splits_applied_.store(splits_applied, std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(mu_);
  for (size_t i = 0; i < partition_starts.size(); ++i) {
    const uint64_t end = i + 1 < partition_starts.size() ? partition_starts[i + 1] - 1
                                                         : std::numeric_limits<uint64_t>::max();
    OpenShard(partition_starts[i], end, nullptr);
  }
}

Result<std::shared_ptr<Stream>> Stream::Restore(StreamIdentity identity, StreamOptions options,
                                                const persist::StreamImage& image,
                                                size_t splits_applied) {
  identity.number = image.number;
  identity.view_type = image.view_type;
  identity.key_schema = image.key_schema;
  // A table's stream is named after the table as it is now (a snapshot loaded into a database of
  // another region or account); a deleted table's, as it was.
  if (identity.table_arn.empty()) {
    identity.table_name = image.table_name;
    identity.table_arn = image.table_arn;
  }
  // (The image's label is taken as it is: the empty start-up list below makes no new one.)
  identity.last_label.clear();
  auto stream = std::shared_ptr<Stream>(
      new Stream(std::move(identity), options, std::span<const uint64_t>(), splits_applied));
  Stream& s = *stream;
  if (image.label.empty() || image.label.find('|') != std::string::npos) {
    return Status::Validation("stream label \"" + image.label + "\" is not one");
  }
  s.label_ = image.label;
  s.arn_ = s.identity_.table_arn + "/stream/" + s.label_;
  s.created_epoch_ = static_cast<double>(image.created_epoch_micros) / 1e6;
  std::lock_guard<std::mutex> lock(s.mu_);
  s.enabled_ = image.enabled;
  s.next_sequence_ = std::max<uint64_t>(image.next_sequence, 1);
  PARTSTORE_RETURN_IF_ERROR(s.RestoreShardsLocked(image.shards));
  return stream;
}

Status Stream::CheckShardsLocked() {
  if (!enabled_) {
    while (!open_.empty()) CloseShard(*open_.front());
    return Status::Ok();
  }
  // The open shards cover the hash space, one after the other.
  uint64_t expect = 0;
  for (size_t i = 0; i < open_.size(); ++i) {
    const Shard& shard = *open_[i];
    if (shard.begin != expect || (i + 1 == open_.size()) != (shard.end == UINT64_MAX)) {
      return Status::Validation("stream " + arn_ + ": its open shards do not cover the keys");
    }
    expect = shard.end + 1;
  }
  if (open_.empty()) return Status::Validation("stream " + arn_ + " has no open shard");
  return Status::Ok();
}

void Stream::AfterRestart() {
  std::lock_guard<std::mutex> lock(mu_);
  next_sequence_ += kRestartGap;
}

std::string Stream::ShardId(uint64_t starting) const {
  // "shardId-" + 20 digits + "-" + 8 hex digits, the form of DynamoDB's. The digits are the
  // starting sequence number, so shard ids sort in creation order (DescribeStream resumes after
  // a shard that is gone by them).
  const uint64_t tag = XXH3_64bits_withSeed(arn_.data(), arn_.size(), starting);
  return fmt::format("shardId-{:020}-{:08x}", starting, static_cast<uint32_t>(tag));
}

Stream::Shard& Stream::OpenShard(uint64_t begin, uint64_t end, const Shard* parent,
                                 uint64_t starting) {
  auto shard = std::make_unique<Shard>();
  shard->begin = begin;
  shard->end = end;
  if (parent != nullptr) {
    shard->parent_id = parent->id;
    shard->parent_starting = parent->starting;
  }
  shard->starting = starting != 0 ? starting : next_sequence_;
  next_sequence_ = std::max(next_sequence_, shard->starting + 1);
  shard->id = ShardId(shard->starting);
  Shard* raw = shard.get();
  by_id_.emplace(raw->id, raw);
  // Creation order is starting order (a restored shard goes where it was).
  auto place =
      std::upper_bound(shards_.begin(), shards_.end(), raw->starting,
                       [](uint64_t n, const std::unique_ptr<Shard>& s) { return n < s->starting; });
  shards_.insert(place, std::move(shard));
  auto at = std::lower_bound(open_.begin(), open_.end(), begin,
                             [](const Shard* s, uint64_t b) { return s->begin < b; });
  open_.insert(at, raw);
  return *raw;
}

Stream::Shard* Stream::ShardStarting(uint64_t starting) {
  auto it =
      std::lower_bound(shards_.begin(), shards_.end(), starting,
                       [](const std::unique_ptr<Shard>& s, uint64_t n) { return s->starting < n; });
  return it != shards_.end() && (*it)->starting == starting ? it->get() : nullptr;
}

persist::StreamShardImage Stream::ImageOf(const Shard& s) const {
  return {.starting = s.starting,
          .parent_starting = s.parent_starting,
          .begin = s.begin,
          .end = s.end,
          .last = s.last,
          .ending = s.ending,
          .closed_epoch_micros = s.ending ? EpochMicros(s.closed_micros) : 0,
          .trimmed_through = s.trimmed_through};
}

void Stream::CloseShard(Shard& shard) {
  if (shard.ending) return;
  shard.ending = std::max(shard.starting, shard.last);
  shard.closed_micros = Now();
  std::erase(open_, &shard);
}

void Stream::ApplySplits(std::span<const capacity::PartitionSplit> splits, size_t first) {
  std::lock_guard<std::mutex> lock(mu_);
  size_t applied = splits_applied_.load(std::memory_order_relaxed);
  for (size_t i = applied > first ? applied - first : 0; i < splits.size(); ++i) {
    if (first + i != applied) break;  // a gap: not ours to apply
    ++applied;
    if (!enabled_) continue;
    const uint64_t at = splits[i].at;
    auto it = std::upper_bound(open_.begin(), open_.end(), at,
                               [](uint64_t h, const Shard* s) { return h < s->begin; });
    if (it == open_.begin()) continue;
    Shard& parent = **(it - 1);
    if (at <= parent.begin || at > parent.end) continue;
    const uint64_t begin = parent.begin, end = parent.end;
    CloseShard(parent);
    const Shard& low = OpenShard(begin, at - 1, &parent);
    const Shard& high = OpenShard(at, end, &parent);
    if (identity_.log_shards) {
      identity_.log_shards(identity_.number, {ImageOf(parent), ImageOf(low), ImageOf(high)});
    }
  }
  splits_applied_.store(applied, std::memory_order_release);
}

void Stream::Sync() {
  if (!identity_.splits_since) return;
  const size_t first = splits_applied();
  std::vector<capacity::PartitionSplit> splits = identity_.splits_since(first);
  if (!splits.empty()) ApplySplits(splits, first);
}

Stream::Entry Stream::MakeEntry(const StoredItem& old_item, const StoredItem& new_item,
                                StreamRemover remover) const {
  Entry entry;
  entry.old_item = old_item;
  entry.new_item = new_item;
  entry.remover = new_item ? StreamRemover::kClient : remover;
  entry.event = !old_item  ? StreamEventName::kInsert
                : new_item ? StreamEventName::kModify
                           : StreamEventName::kRemove;
  // The record's size: its keys and the images its view type carries.
  const StoredItem& any = new_item ? new_item : old_item;
  size_t size = 0;
  for (const KeyAttribute* k :
       {&identity_.key_schema.partition,
        identity_.key_schema.sort ? &*identity_.key_schema.sort : nullptr}) {
    if (k == nullptr) continue;
    if (std::optional<ValueView> v = any.Find(k->name)) size += k->name.size() + v->Size();
  }
  const StreamViewType view = identity_.view_type;
  if ((view == StreamViewType::kNewImage || view == StreamViewType::kNewAndOldImages) && new_item)
    size += new_item.item_size();
  if ((view == StreamViewType::kOldImage || view == StreamViewType::kNewAndOldImages) && old_item)
    size += old_item.item_size();
  entry.size_bytes = static_cast<uint32_t>(size);
  // An image the view type does not carry is not kept; when it is the only one, its key
  // attributes are (in a buffer of their own: the record's keys are read from it).
  const bool keeps_new =
      view == StreamViewType::kNewImage || view == StreamViewType::kNewAndOldImages;
  const bool keeps_old =
      view == StreamViewType::kOldImage || view == StreamViewType::kNewAndOldImages;
  if (!keeps_new) entry.new_item = StoredItem();
  if (!keeps_old) entry.old_item = StoredItem();
  if (!entry.new_item && !entry.old_item) {
    std::vector<std::string_view> names{identity_.key_schema.partition.name};
    if (identity_.key_schema.sort) names.push_back(identity_.key_schema.sort->name);
    (new_item ? entry.new_item : entry.old_item) = ProjectStoredItem(any, std::move(names));
  }
  return entry;
}

std::optional<Stream::Unpublished> Stream::Append(uint64_t hash, const StoredItem& old_item,
                                                  const StoredItem& new_item, StreamRemover remover,
                                                  Logger* logger) {
  if (!old_item && !new_item) return std::nullopt;
  if (old_item && new_item && old_item.encoding() == new_item.encoding()) return std::nullopt;
  Entry entry = MakeEntry(old_item, new_item, remover);
  const int64_t now = Now();
  std::unique_lock<std::mutex> lock(mu_);
  if (!enabled_ || open_.empty()) return std::nullopt;
  auto it = std::upper_bound(open_.begin(), open_.end(), hash,
                             [](uint64_t h, const Shard* s) { return h < s->begin; });
  Shard& shard = **(it - 1);
  entry.sequence = next_sequence_++;
  entry.micros = now;
  std::optional<Unpublished> unpublished;
  if (logger != nullptr && !logger->Log({.stream = identity_.number,
                                         .sequence = entry.sequence,
                                         .shard = shard.starting,
                                         .epoch_micros = EpochMicros(now),
                                         .remover = entry.remover})) {
    entry.pending = true;
    unpublished = Unpublished{shard.starting, entry.sequence};
  }
  shard.last = entry.sequence;
  bytes_ += Cost(entry);
  shard.records.push_back(std::move(entry));
  if (bytes_ > options_.max_bytes || now - last_trim_micros_ >= 1'000'000) Trim(now);
  appends_.fetch_add(1, std::memory_order_release);
  const bool wake = waiters_ > 0;
  lock.unlock();
  if (wake) appended_.notify_all();
  return unpublished;
}

void Stream::Publish(Unpublished record) {
  std::unique_lock<std::mutex> lock(mu_);
  Shard* shard = ShardStarting(record.shard);
  if (shard == nullptr) return;  // (gone: trimmed)
  auto it = std::lower_bound(shard->records.begin(), shard->records.end(), record.sequence,
                             [](const Entry& e, uint64_t n) { return e.sequence < n; });
  if (it == shard->records.end() || it->sequence != record.sequence) return;
  it->pending = false;
  appends_.fetch_add(1, std::memory_order_release);
  const bool wake = waiters_ > 0;
  lock.unlock();
  if (wake) appended_.notify_all();
}

persist::StreamImage Stream::Image() const {
  persist::StreamImage image;
  image.number = identity_.number;
  image.table_name = identity_.table_name;
  image.table_arn = identity_.table_arn;
  image.key_schema = identity_.key_schema;
  image.view_type = identity_.view_type;
  image.label = label_;
  image.created_epoch_micros = std::llround(created_epoch_ * 1e6);
  std::lock_guard<std::mutex> lock(mu_);
  image.enabled = enabled_;
  image.next_sequence = next_sequence_;
  for (const auto& shard : shards_) image.shards.push_back(ImageOf(*shard));
  return image;
}

std::vector<std::pair<uint64_t, std::vector<persist::StreamRecordImage>>> Stream::Records() const {
  std::vector<std::pair<uint64_t, std::vector<persist::StreamRecordImage>>> out;
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& shard : shards_) {
    if (shard->records.empty()) continue;
    auto& records = out.emplace_back(shard->starting, std::vector<persist::StreamRecordImage>{});
    records.second.reserve(shard->records.size());
    for (const Entry& e : shard->records) {
      // (A record still waiting for its transaction's group: the group is logged after this cut,
      // and its replay writes the record.)
      if (e.pending) continue;
      records.second.push_back({.sequence = e.sequence,
                                .epoch_micros = EpochMicros(e.micros),
                                .event = e.event,
                                .remover = e.remover,
                                .size_bytes = e.size_bytes,
                                .old_item = e.old_item,
                                .new_item = e.new_item});
    }
  }
  return out;
}

Status Stream::RestoreShards(std::span<const persist::StreamShardImage> shards) {
  std::lock_guard<std::mutex> lock(mu_);
  return RestoreShardsLocked(shards);
}

Status Stream::RestoreShardsLocked(std::span<const persist::StreamShardImage> shards) {
  for (const persist::StreamShardImage& image : shards) {
    if (image.starting == 0 || image.begin > image.end ||
        (image.ending && *image.ending < image.starting) ||
        image.last > image.ending.value_or(UINT64_MAX)) {
      return Status::Validation("stream " + arn_ + ": shard " + std::to_string(image.starting) +
                                " is not well-formed");
    }
    Shard* shard = ShardStarting(image.starting);
    if (shard == nullptr) {
      const Shard* parent =
          image.parent_starting != 0 ? ShardStarting(image.parent_starting) : nullptr;
      for (const Shard* open : open_) {
        if (!image.ending && open->begin <= image.end && image.begin <= open->end) {
          return Status::Validation("stream " + arn_ + ": shard " + std::to_string(image.starting) +
                                    " overlaps an open shard");
        }
      }
      shard = &OpenShard(image.begin, image.end, parent, image.starting);
      if (parent == nullptr && image.parent_starting != 0) {
        // The parent is gone (trimmed): its id is made from its starting number all the same.
        shard->parent_id = ShardId(image.parent_starting);
        shard->parent_starting = image.parent_starting;
      }
      shard->last = image.last;
      shard->trimmed_through = image.trimmed_through;
    }
    if (image.ending && !shard->ending) {
      shard->ending = std::max(*image.ending, shard->last);
      shard->closed_micros = ClockMicros(image.closed_epoch_micros);
      std::erase(open_, shard);
    }
    next_sequence_ = std::max(next_sequence_, image.ending.value_or(image.last) + 1);
  }
  // (A disabled stream's shards are all closed: one a split opened as it was disabled, too.)
  return CheckShardsLocked();
}

bool Stream::Insert(Shard& shard, Entry entry) {
  auto it = std::lower_bound(shard.records.begin(), shard.records.end(), entry.sequence,
                             [](const Entry& e, uint64_t n) { return e.sequence < n; });
  if (it != shard.records.end() && it->sequence == entry.sequence) return false;
  if (entry.sequence <= shard.trimmed_through) return false;  // (trimmed before the restart)
  shard.last = std::max(shard.last, entry.sequence);
  // A closed shard's ending covers every record it got (one logged after the close, from a
  // writer that appended before it, included).
  if (shard.ending && *shard.ending < entry.sequence) shard.ending = entry.sequence;
  next_sequence_ = std::max(next_sequence_, entry.sequence + 1);
  bytes_ += Cost(entry);
  shard.records.insert(it, std::move(entry));
  appends_.fetch_add(1, std::memory_order_release);
  return true;
}

Status Stream::RestoreRecord(uint64_t shard_starting, persist::StreamRecordImage record) {
  std::lock_guard<std::mutex> lock(mu_);
  Shard* shard = ShardStarting(shard_starting);
  if (shard == nullptr || record.sequence < shard->starting) {
    return Status::Validation("stream " + arn_ + ": record " + std::to_string(record.sequence) +
                              " is not in a shard of the stream");
  }
  if (!record.old_item && !record.new_item) {
    return Status::Validation("stream " + arn_ + ": record " + std::to_string(record.sequence) +
                              " has no item");
  }
  Entry entry;
  entry.sequence = record.sequence;
  entry.micros = ClockMicros(record.epoch_micros);
  entry.old_item = std::move(record.old_item);
  entry.new_item = std::move(record.new_item);
  entry.event = record.event;
  entry.remover = record.remover;
  entry.size_bytes = record.size_bytes;
  Insert(*shard, std::move(entry));
  return Status::Ok();
}

Status Stream::Replay(const persist::StreamMark& mark, const StoredItem& old_item,
                      const StoredItem& new_item) {
  if (!old_item && !new_item) {
    return Status::Validation("stream " + arn_ + ": record " + std::to_string(mark.sequence) +
                              " replays a change of no item");
  }
  Entry entry = MakeEntry(old_item, new_item, mark.remover);
  entry.sequence = mark.sequence;
  entry.micros = ClockMicros(mark.epoch_micros);
  std::lock_guard<std::mutex> lock(mu_);
  Shard* shard = ShardStarting(mark.shard);
  if (shard == nullptr || mark.sequence < shard->starting) {
    return Status::Validation("stream " + arn_ + ": record " + std::to_string(mark.sequence) +
                              " names shard " + std::to_string(mark.shard) +
                              ", which the stream does not have");
  }
  Insert(*shard, std::move(entry));
  return Status::Ok();
}

void Stream::Trim(int64_t now) {
  last_trim_micros_ = now;
  const auto retention = static_cast<int64_t>(options_.retention_seconds * 1e6);
  const int64_t cutoff = now - retention;
  auto pop = [&](Shard& s) {
    bytes_ -= Cost(s.records.front());
    s.trimmed_through = s.records.front().sequence;
    s.records.pop_front();
  };
  for (auto& shard : shards_) {
    while (!shard->records.empty() && shard->records.front().micros < cutoff) pop(*shard);
  }
  while (bytes_ > options_.max_bytes) {
    Shard* oldest = nullptr;
    for (auto& shard : shards_) {
      if (!shard->records.empty() && (oldest == nullptr || shard->records.front().sequence <
                                                               oldest->records.front().sequence)) {
        oldest = shard.get();
      }
    }
    if (oldest == nullptr) break;
    pop(*oldest);
  }
  // A closed shard with nothing left, closed longer ago than the retention, is gone (as
  // DynamoDB's shards are, 24 hours after they close).
  std::erase_if(shards_, [&](const std::unique_ptr<Shard>& s) {
    if (!s->ending || !s->records.empty() || s->closed_micros >= cutoff) return false;
    by_id_.erase(s->id);
    return true;
  });
}

void Stream::Disable() {
  std::lock_guard<std::mutex> lock(mu_);
  if (!enabled_) return;
  enabled_ = false;
  while (!open_.empty()) CloseShard(*open_.front());
  appends_.fetch_add(1, std::memory_order_release);  // wakes waiters: the shards closed
  appended_.notify_all();
}

bool Stream::Finished() {
  std::lock_guard<std::mutex> lock(mu_);
  if (enabled_) return false;
  Trim(Now());
  return shards_.empty();
}

StreamSummary Stream::Summary() const { return StreamSummary{arn_, identity_.table_name, label_}; }

Stream::Shard* Stream::FindShard(std::string_view id) {
  auto it = by_id_.find(std::string(id));
  return it == by_id_.end() ? nullptr : it->second;
}

Result<StreamDescription> Stream::Describe(const DescribeStreamRequest& request) {
  StreamDescription d;
  d.stream_arn = arn_;
  d.stream_label = label_;
  d.stream_view_type = identity_.view_type;
  d.creation_request_date_time = std::floor(created_epoch_ * 1000) / 1000;
  d.table_name = identity_.table_name;
  d.key_schema.push_back({identity_.key_schema.partition.name, KeyRoleName::kHash});
  if (identity_.key_schema.sort) {
    d.key_schema.push_back({identity_.key_schema.sort->name, KeyRoleName::kRange});
  }
  const size_t limit = static_cast<size_t>(request.limit.value_or(100));
  Sync();
  std::lock_guard<std::mutex> lock(mu_);
  Trim(Now());
  d.stream_status = enabled_ ? StreamStatus::kEnabled : StreamStatus::kDisabled;
  // With a CHILD_SHARDS filter, only the named shard's children are listed (and paged).
  auto listed = [&](const Shard& s) {
    return !request.shard_filter || s.parent_id == request.shard_filter->shard_id;
  };
  auto it = shards_.begin();
  if (request.exclusive_start_shard_id) {
    it = std::find_if(shards_.begin(), shards_.end(),
                      [&](const auto& s) { return s->id == *request.exclusive_start_shard_id; });
    if (it != shards_.end()) {
      ++it;
    } else {
      // A shard that is not there (gone, or never was): the list goes on after it in id order,
      // which is creation order, and an id after every shard's gives none, as DynamoDB answers
      // (no error: Alternator's test_describe_stream_with_nonexistent_last_shard, run against
      // DynamoDB).
      const std::string_view id = *request.exclusive_start_shard_id;
      it = std::find_if(shards_.begin(), shards_.end(),
                        [&](const auto& s) { return std::string_view(s->id) > id; });
    }
  }
  for (; it != shards_.end(); ++it) {
    const Shard& s = **it;
    if (!listed(s)) continue;
    if (d.shards.size() == limit) {
      d.last_evaluated_shard_id = d.shards.back().shard_id;
      break;
    }
    StreamShard out;
    out.shard_id = s.id;
    if (!s.parent_id.empty()) out.parent_shard_id = s.parent_id;
    out.sequence_number_range.starting_sequence_number = SequenceText(s.starting);
    if (s.ending) out.sequence_number_range.ending_sequence_number = SequenceText(*s.ending);
    d.shards.push_back(std::move(out));
  }
  return d;
}

std::string Stream::EncodeIterator(const Position& position, int64_t issued_micros) const {
  return fmt::format("{}|{}|{}|{}", arn_, position.shard_id, position.next,
                     EpochMicros(issued_micros));
}

Result<std::string> Stream::RenewIterator(std::string_view text) const {
  PARTSTORE_ASSIGN_OR_RETURN(DecodedIterator decoded, DecodeIterator(text));
  if (decoded.stream_arn != arn_) return Status::Validation("Invalid ShardIterator");
  return EncodeIterator(decoded.position, Now());
}

Result<Stream::DecodedIterator> Stream::DecodeIterator(std::string_view text) {
  const Status invalid = Status::Validation("Invalid ShardIterator");
  DecodedIterator out;
  std::string_view parts[4];
  for (int i = 3; i >= 1; --i) {
    const size_t bar = text.rfind('|');
    if (bar == std::string_view::npos) return invalid;
    parts[i] = text.substr(bar + 1);
    text = text.substr(0, bar);
  }
  parts[0] = text;
  if (parts[0].empty() || parts[1].empty()) return invalid;
  auto number = [](std::string_view s, auto* value) {
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *value);
    return !s.empty() && ec == std::errc() && end == s.data() + s.size();
  };
  if (!number(parts[2], &out.position.next) || !number(parts[3], &out.issued_epoch_micros)) {
    return invalid;
  }
  out.stream_arn = std::string(parts[0]);
  out.position.shard_id = std::string(parts[1]);
  return out;
}

Result<std::string> Stream::GetShardIterator(const GetShardIteratorRequest& request) {
  const bool by_sequence = request.shard_iterator_type == ShardIteratorType::kAtSequenceNumber ||
                           request.shard_iterator_type == ShardIteratorType::kAfterSequenceNumber;
  std::optional<uint64_t> sequence;
  if (by_sequence) {
    if (!request.sequence_number) {
      return Status::Validation(
          "Must specify SequenceNumber for AT_SEQUENCE_NUMBER or AFTER_SEQUENCE_NUMBER "
          "iterator type");
    }
    sequence = ParseSequence(*request.sequence_number);
    if (!sequence) {
      return Status::Validation(
          fmt::format("Invalid SequenceNumber: {}", *request.sequence_number));
    }
  } else if (request.sequence_number) {
    return Status::Validation(
        "Must not specify SequenceNumber for TRIM_HORIZON or LATEST iterator type");
  }
  Sync();
  const int64_t now = Now();
  std::lock_guard<std::mutex> lock(mu_);
  Trim(now);
  Shard* shard = FindShard(request.shard_id);
  if (shard == nullptr) {
    // DynamoDB's text, without the shard's id (opensearch-project/data-prepper#4401, a live log).
    return Status::ResourceNotFound("Requested resource not found: Shard does not exist");
  }
  Position position{shard->id, 0};
  switch (request.shard_iterator_type) {
    case ShardIteratorType::kTrimHorizon:
      position.next = std::max(shard->starting, shard->trimmed_through + 1);
      break;
    case ShardIteratorType::kLatest:
      position.next = shard->ending ? *shard->ending + 1 : next_sequence_;
      break;
    case ShardIteratorType::kAtSequenceNumber:
    case ShardIteratorType::kAfterSequenceNumber: {
      const uint64_t last = shard->ending ? *shard->ending : next_sequence_ - 1;
      if (*sequence < shard->starting || *sequence > last) {
        return Status::Validation(fmt::format("Invalid SequenceNumber {} for shard {}",
                                              *request.sequence_number, shard->id));
      }
      position.next = request.shard_iterator_type == ShardIteratorType::kAtSequenceNumber
                          ? *sequence
                          : *sequence + 1;
      if (position.next <= shard->trimmed_through) {
        return Status(Code::kTrimmedDataAccess,
                      fmt::format("Sequence number {} is beyond the trim horizon of shard {}",
                                  *request.sequence_number, shard->id));
      }
      break;
    }
  }
  return EncodeIterator(position, now);
}

StreamRecord Stream::ToRecord(const Entry& e) const {
  StreamRecord r;
  XXH128_hash_t id = XXH3_128bits_withSeed(arn_.data(), arn_.size(), e.sequence);
  r.event_id = fmt::format("{:016x}{:016x}", id.high64, id.low64);
  r.event_name = e.event;
  r.remover = e.remover;
  r.sequence_number = SequenceText(e.sequence);
  r.approximate_creation_date_time = std::floor(EpochOf(e.micros));
  const StoredItem& any = e.new_item ? e.new_item : e.old_item;
  const KeySchema& key = identity_.key_schema;
  if (std::optional<ValueView> v = any.Find(key.partition.name)) {
    r.keys.emplace(key.partition.name, v->ToValue());
  }
  if (key.sort) {
    if (std::optional<ValueView> v = any.Find(key.sort->name)) {
      r.keys.emplace(key.sort->name, v->ToValue());
    }
  }
  const StreamViewType view = identity_.view_type;
  r.stream_view_type = view;
  if ((view == StreamViewType::kNewImage || view == StreamViewType::kNewAndOldImages) &&
      e.event != StreamEventName::kRemove) {
    r.new_image = e.new_item;
  }
  if ((view == StreamViewType::kOldImage || view == StreamViewType::kNewAndOldImages) &&
      e.event != StreamEventName::kInsert) {
    r.old_image = e.old_item;
  }
  r.size_bytes = e.size_bytes;
  return r;
}

Result<GetRecordsResult> Stream::GetRecords(const Position& position, int64_t issued_epoch_micros,
                                            size_t limit) {
  const int64_t now = Now();
  // An iterator from before a restart was issued on that process's clock, which may be ahead of
  // this one's by what the wall clock and the monotonic one drifted apart (a few milliseconds;
  // more if the wall clock was set back): a few seconds ahead are taken as now.
  constexpr int64_t kClockSkewMicros = 5'000'000;
  const int64_t issued_micros = ClockMicros(issued_epoch_micros);
  if (issued_epoch_micros < 0 || issued_micros > now + kClockSkewMicros) {
    return Status::Validation("Invalid ShardIterator");
  }
  if (now - issued_micros > static_cast<int64_t>(options_.iterator_lifetime_seconds * 1e6)) {
    return Status(Code::kExpiredIterator, "The provided iterator exceeds the maximum age allowed.");
  }
  constexpr size_t kMaxPageBytes = 1 << 20;
  Sync();
  GetRecordsResult result;
  std::vector<Entry> page;
  uint64_t next = position.next;
  bool at_end = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    Trim(now);
    Shard* shard = FindShard(position.shard_id);
    if (shard == nullptr) {
      return Status::ResourceNotFound("Requested resource not found: Shard does not exist");
    }
    if (position.next < shard->starting) return Status::Validation("Invalid ShardIterator");
    if (position.next <= shard->trimmed_through) {
      return Status(Code::kTrimmedDataAccess,
                    fmt::format("The iterator of shard {} points at records already trimmed "
                                "(older than the stream's retention)",
                                shard->id));
    }
    auto it = std::lower_bound(shard->records.begin(), shard->records.end(), position.next,
                               [](const Entry& e, uint64_t n) { return e.sequence < n; });
    size_t bytes = 0;
    for (; it != shard->records.end() && page.size() < limit; ++it) {
      if (it->pending) break;  // (its transaction is not yet in the log: the next call reads it)
      if (!page.empty() && bytes + it->size_bytes > kMaxPageBytes) break;
      bytes += it->size_bytes;
      page.push_back(*it);
      next = it->sequence + 1;
    }
    at_end = shard->ending && it == shard->records.end();
  }
  result.records.reserve(page.size());
  for (const Entry& e : page) result.records.push_back(ToRecord(e));
  if (!at_end) result.next_shard_iterator = EncodeIterator({position.shard_id, next}, now);
  return result;
}

void Stream::WaitForAppend(uint64_t seen, std::chrono::steady_clock::time_point deadline) {
  std::unique_lock<std::mutex> lock(mu_);
  ++waiters_;
  appended_.wait_until(lock, deadline, [&] { return append_count() != seen; });
  --waiters_;
}

void StreamRegistry::Add(std::shared_ptr<Stream> stream) {
  std::lock_guard<std::mutex> lock(mu_);
  streams_.push_back(std::move(stream));
}

void StreamRegistry::Remove(const Stream* stream) {
  std::lock_guard<std::mutex> lock(mu_);
  std::erase_if(streams_, [&](const auto& s) { return s.get() == stream; });
}

std::string StreamRegistry::LatestLabel(std::string_view table) const {
  std::lock_guard<std::mutex> lock(mu_);
  std::string latest;
  for (const auto& stream : streams_) {
    if (stream->table_name() == table) latest = std::max(latest, stream->label());
  }
  return latest;
}

std::shared_ptr<Stream> StreamRegistry::Find(std::string_view arn) const {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& stream : streams_) {
    if (stream->arn() == arn) return stream;
  }
  return nullptr;
}

std::vector<std::shared_ptr<Stream>> StreamRegistry::List() {
  std::vector<std::shared_ptr<Stream>> all;
  {
    std::lock_guard<std::mutex> lock(mu_);
    all = streams_;
  }
  std::sort(all.begin(), all.end(),
            [](const auto& a, const auto& b) { return a->arn() < b->arn(); });
  std::vector<std::shared_ptr<Stream>> live;
  std::vector<const Stream*> finished;
  for (auto& stream : all) {
    if (stream->Finished()) {
      finished.push_back(stream.get());
    } else {
      live.push_back(std::move(stream));
    }
  }
  if (!finished.empty()) {
    std::lock_guard<std::mutex> lock(mu_);
    std::erase_if(streams_, [&](const auto& s) {
      return std::find(finished.begin(), finished.end(), s.get()) != finished.end();
    });
  }
  return live;
}

}  // namespace partstore
