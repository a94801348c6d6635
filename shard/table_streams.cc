// A table's stream (partstore/streams.h): enabling, disabling, and handing each change over.
#include <fmt/format.h>

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

void Table::StartStream(StreamViewType view) {
  // The partitions as they are now: the simulated map with its split count, or the initial
  // count (description_ is read directly: description_mu_ is held).
  std::vector<uint64_t> starts;
  size_t splits = 0;
  if (capacity_) {
    splits = capacity_->TableLayout(&starts);
  } else {
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
      starts.push_back(static_cast<uint64_t>((static_cast<unsigned __int128>(i) << 64) / n));
    }
  }
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
  if (capacity_) {
    identity.splits_since = [weak = weak_from_this()](size_t first) {
      std::shared_ptr<const Table> table = weak.lock();
      return table ? table->capacity_->TableSplits(first) : std::vector<capacity::PartitionSplit>{};
    };
  }
  auto stream = std::make_shared<Stream>(std::move(identity), options_.streams, starts, splits);
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
                   const StoredItem& new_item, StreamRemover remover) const {
  // Splits of the simulated partitions since the stream last looked: its shards follow first.
  if (capacity_ && capacity_->table_split_count() != stream.splits_applied()) {
    const size_t first = stream.splits_applied();
    stream.ApplySplits(capacity_->TableSplits(first), first);
  }
  stream.Append(hash, old_item, new_item, remover);
}

}  // namespace partstore
