// A table's stream (partstore/streams.h): enabling, disabling, and handing each change over.
#include <fmt/format.h>

#include "shard/persist/byte_codec.h"
#include "shard/persist/write_ahead_log.h"
#include "shard/table.h"

namespace partstore {

Status Table::CheckStreamSpecification(const StreamSpecification& spec) {
  // DynamoDB's UpdateTable texts (docs/reference.md, Streams); CreateTable's are taken to match.
  if (spec.stream_enabled && !spec.stream_view_type) {
    return Status::Validation(
        "One or more parameter values were invalid: If stream is being enabled then "
        "UpdateViewType is required");
  }
  if (!spec.stream_enabled && spec.stream_view_type) {
    return Status::Validation(
        "One or more parameter values were invalid: If stream is being disabled, then "
        "UpdateViewType must not be specified");
  }
  return Status::Ok();
}

std::shared_ptr<Stream> Table::stream() const {
  std::lock_guard<std::mutex> lock(description_mu_);
  return current_stream_;
}

Status Table::CheckStreamChange(const StreamSpecification& spec) const {
  PARTSTORE_RETURN_IF_ERROR(CheckStreamSpecification(spec));
  if (spec.stream_enabled && current_stream_) {
    return Status::Validation("Table already has an enabled stream: TableName: " + name_);
  }
  if (!spec.stream_enabled && !current_stream_) {
    return Status::Validation("Table has no stream to disable: TableName: " + name_);
  }
  return Status::Ok();
}

size_t Table::StreamPartitions(std::vector<uint64_t>* starts) const {
  // The partitions as they are now: the simulated map with its split count, or the initial
  // count (description_ is read directly: description_mu_ is held).
  if (capacity_) return capacity_->TableLayout(starts);
  int n = 4;
  if (description_.billing_mode == BillingMode::kProvisioned) {
    const auto& t = description_.provisioned_throughput;
    const int64_t parts =
        t.read_capacity_units / 3000 + t.write_capacity_units / 1000 +
        (t.read_capacity_units % 3000 * 1000 + t.write_capacity_units % 1000 * 3000 + 2999999) /
            3000000;
    n = static_cast<int>(std::clamp<int64_t>(parts, 1, capacity::kCells));
  }
  for (int i = 0; i < n; ++i) {
    starts->push_back(static_cast<uint64_t>((static_cast<unsigned __int128>(i) << 64) / n));
  }
  return 0;
}

StreamIdentity Table::NewStreamIdentity(StreamViewType view) {
  StreamIdentity identity;
  identity.table_name = name_;
  identity.table_arn = description_.table_arn;
  identity.key_schema = key_schema_;
  identity.view_type = view;
  identity.clock = options_.capacity.clock;
  if (!identity.clock) identity.clock = std::make_shared<capacity::SystemClock>();
  identity.epoch_at_clock_zero = options_.epoch_at_clock_zero;
  if (!options_.capacity.clock && identity.epoch_at_clock_zero == 0) {
    identity.epoch_at_clock_zero = static_cast<double>(time(nullptr));
  }
  identity.last_label = std::max(description_.latest_stream_label.value_or(""),
                                 options_.stream_registry->LatestLabel(name_));
  identity.number = ++stream_count_;
  if (capacity_) {
    identity.splits_since = [weak = weak_from_this()](size_t first) {
      std::shared_ptr<const Table> table = weak.lock();
      return table ? table->capacity_->TableSplits(first) : std::vector<capacity::PartitionSplit>{};
    };
  }
  identity.log_shards = [weak = weak_from_this()](
                            uint64_t number, const std::vector<persist::StreamShardImage>& shards) {
    if (std::shared_ptr<const Table> table = weak.lock()) table->LogStreamShards(number, shards);
  };
  return identity;
}

void Table::LogStreamShards(uint64_t number,
                            const std::vector<persist::StreamShardImage>& shards) const {
  persist::WriteAheadLog* log = log_.load(std::memory_order_acquire);
  if (log == nullptr) return;
  std::string payload;
  persist::ByteWriter writer(&payload);
  writer.Varint(log_number());
  writer.Varint(number);
  persist::EncodeShardImages(shards, writer);
  // (Straight to the log, past a transaction's group: the split comes before any record of the
  // shards it opened, whichever thread logs that record.)
  log->Append(persist::WalRecord::kStreamShards, payload);
}

void Table::LogStreamStart(const Stream& stream) const {
  persist::WriteAheadLog* log = log_.load(std::memory_order_acquire);
  if (log == nullptr) return;
  std::string payload;
  persist::ByteWriter writer(&payload);
  writer.Varint(log_number());
  persist::EncodeStreamImage(stream.Image(), writer);
  log->Append(persist::WalRecord::kStream, payload);
}

void Table::StartStream(StreamViewType view) {
  std::vector<uint64_t> starts;
  const size_t splits = StreamPartitions(&starts);
  auto stream = std::make_shared<Stream>(NewStreamIdentity(view), options_.streams, starts, splits);
  // The log has the new stream before anything else of it: a record (a writer logs its record
  // after it finds the stream, published below) or a split (logged by whoever applies it, once
  // the stream is found in the registry). A new table's stream is logged with the table
  // (CreateTable).
  LogStreamStart(*stream);
  options_.stream_registry->Add(stream);
  streams_.push_back(stream);
  description_.stream_specification = StreamSpecification{true, view};
  description_.latest_stream_arn = stream->arn();
  description_.latest_stream_label = stream->label();
  stream_.store(stream.get(), std::memory_order_release);
  current_stream_ = std::move(stream);
}

void Table::ApplyStreamChange(const StreamSpecification& spec) {
  if (spec.stream_enabled) {
    StartStream(*spec.stream_view_type);
    return;
  }
  stream_.store(nullptr, std::memory_order_release);
  if (current_stream_) current_stream_->Disable();
  current_stream_.reset();
  description_.stream_specification.reset();
}

void Table::DiscardStreams() {
  std::lock_guard<std::mutex> lock(description_mu_);
  if (current_stream_) ApplyStreamChange(StreamSpecification{});
  for (const auto& stream : streams_) options_.stream_registry->Remove(stream.get());
}

void Table::DisableStream() {
  std::lock_guard<std::mutex> lock(description_mu_);
  if (current_stream_) ApplyStreamChange(StreamSpecification{});
}

void Table::EmitTo(Stream& stream, uint64_t hash, const StoredItem& old_item,
                   const StoredItem& new_item, StreamRemover remover,
                   persist::WriteAheadLog* log) const {
  // Splits of the simulated partitions since the stream last looked: its shards follow first.
  if (capacity_ && capacity_->table_split_count() != stream.splits_applied()) {
    const size_t first = stream.splits_applied();
    stream.ApplySplits(capacity_->TableSplits(first), first);
  }
  if (log == nullptr) {
    stream.Append(hash, old_item, new_item, remover);
    return;
  }
  // The change is logged with its record, under the stream's mutex: a reader never sees a
  // record the log does not have (or has not been handed, in a transaction's group).
  class ChangeLogger final : public Stream::Logger {
   public:
    ChangeLogger(const Table& table, persist::WriteAheadLog& log, const StoredItem& old_item,
                 const StoredItem& new_item)
        : table_(table), log_(log), old_item_(old_item), new_item_(new_item) {}
    bool Log(const persist::StreamMark& mark) override {
      called = true;
      return table_.LogChange(log_, old_item_, new_item_, &mark);
    }
    bool called = false;

   private:
    const Table& table_;
    persist::WriteAheadLog& log_;
    const StoredItem& old_item_;
    const StoredItem& new_item_;
  };
  ChangeLogger logger(*this, *log, old_item, new_item);
  std::optional<Stream::Unpublished> unpublished =
      stream.Append(hash, old_item, new_item, remover, &logger);
  if (!logger.called) {
    LogChange(*log, old_item, new_item, nullptr);
    return;
  }
  if (unpublished) {
    // (The table keeps its streams for its life, past the transaction.)
    persist::WalGroup::current()->AfterCommit(
        [&stream, record = *unpublished] { stream.Publish(record); });
  }
}

std::optional<persist::StreamImage> Table::CurrentStreamImage() const {
  std::lock_guard<std::mutex> lock(description_mu_);
  if (!current_stream_) return std::nullopt;
  return current_stream_->Image();
}

std::vector<std::shared_ptr<Stream>> Table::Streams() const {
  std::lock_guard<std::mutex> lock(description_mu_);
  return streams_;
}

std::shared_ptr<Stream> Table::FindStream(uint64_t number) const {
  std::lock_guard<std::mutex> lock(description_mu_);
  for (const auto& stream : streams_) {
    if (stream->number() == number) return stream;
  }
  return nullptr;
}

Status Table::AdoptStream(const persist::StreamImage& image) {
  std::lock_guard<std::mutex> lock(description_mu_);
  for (const auto& stream : streams_) {
    if (stream->label() == image.label) return Status::Ok();  // restored already
  }
  if (image.enabled && current_stream_) {
    return Status::Validation("table " + name_ + " has an enabled stream already");
  }
  if (image.key_schema != key_schema_ || image.table_name != name_) {
    return Status::Validation("stream " + image.label + " is not of table " + name_);
  }
  std::vector<uint64_t> starts;
  const size_t splits = StreamPartitions(&starts);
  StreamIdentity identity = NewStreamIdentity(image.view_type);
  PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Stream> stream,
                             Stream::Restore(std::move(identity), options_.streams, image, splits));
  stream_count_ = std::max(stream_count_, image.number);
  // (A snapshot loaded into a database with a log: its records are in the snapshot the load ends
  // with; until then the log knows the stream its changes name.)
  LogStreamStart(*stream);
  options_.stream_registry->Add(stream);
  streams_.push_back(stream);
  if (stream->label() >= description_.latest_stream_label.value_or("")) {
    description_.latest_stream_arn = stream->arn();
    description_.latest_stream_label = stream->label();
  }
  if (image.enabled) {
    description_.stream_specification = StreamSpecification{true, image.view_type};
    stream_.store(stream.get(), std::memory_order_release);
    current_stream_ = std::move(stream);
  }
  return Status::Ok();
}

}  // namespace partstore
