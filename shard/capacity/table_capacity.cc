#include "shard/capacity/table_capacity.h"

#include <algorithm>
#include <boost/container/small_vector.hpp>
#include <utility>

#include "partstore/error_detail.h"

namespace partstore::capacity {

namespace {

// DynamoDB's texts (live error bodies quoted by users; see the README's capacity section).
constexpr std::string_view kTableProvisioned =
    "The level of configured provisioned throughput for the table was exceeded. Consider "
    "increasing your provisioning level with the UpdateTable API.";
constexpr std::string_view kIndexProvisioned =
    "The level of configured provisioned throughput for one or more global secondary indexes of "
    "the table was exceeded. Consider increasing your provisioning level for the "
    "under-provisioned global secondary indexes with the UpdateTable API";
constexpr std::string_view kTableOnDemand =
    "Throughput exceeds the current capacity of your table or index. DynamoDB is automatically "
    "scaling your table or index so please try again shortly. If exceptions persist, check if "
    "you have a hot key: "
    "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/"
    "bp-partition-key-design.html.";
constexpr std::string_view kIndexOnDemand =
    "Throughput exceeds the current capacity for one or more global secondary indexes. DynamoDB "
    "is automatically scaling your index so please try again shortly.";

}  // namespace

TableCapacity::TableCapacity(const CapacityOptions& options, std::shared_ptr<Clock> clock,
                             std::string table_arn, KeySchema key, ResourceSettings settings)
    : options_(options),
      clock_(std::move(clock)),
      table_arn_(std::move(table_arn)),
      records_keys_(options.contributor_insights),
      table_(ThrottleResource::kTable, table_arn_, std::move(key), settings, options_,
             clock_->NowMicros()) {}

bool TableCapacity::SetInsights(std::string_view index, bool enabled) {
  std::lock_guard<SpinLock> lock(mu_);
  ResourceCapacity* resource = Find(index);
  if (resource == nullptr) return false;
  resource->set_insights_enabled(enabled);
  UpdateRecordsKeys();
  return true;
}

void TableCapacity::UpdateRecordsKeys() {
  bool any = table_.insights_enabled();
  for (const auto& [name, gsi] : indexes_) any = any || gsi->insights_enabled();
  records_keys_.store(any, std::memory_order_relaxed);
}

ResourceCapacity* TableCapacity::Find(std::string_view index) {
  if (index.empty()) return &table_;
  auto it = indexes_.find(index);
  return it == indexes_.end() ? nullptr : it->second.get();
}

const ResourceCapacity* TableCapacity::Find(std::string_view index) const {
  return const_cast<TableCapacity*>(this)->Find(index);
}

void TableCapacity::AddIndex(std::string_view name, KeySchema key, ResourceSettings settings) {
  std::lock_guard<SpinLock> lock(mu_);
  indexes_.insert_or_assign(
      std::string(name), std::make_unique<ResourceCapacity>(
                             ThrottleResource::kIndex, table_arn_ + "/index/" + std::string(name),
                             std::move(key), settings, options_, clock_->NowMicros()));
  UpdateRecordsKeys();
}

void TableCapacity::RemoveIndex(std::string_view name) {
  std::lock_guard<SpinLock> lock(mu_);
  if (auto it = indexes_.find(name); it != indexes_.end()) indexes_.erase(it);
  UpdateRecordsKeys();
}

void TableCapacity::Update(ResourceSettings settings) {
  std::lock_guard<SpinLock> lock(mu_);
  table_.Update(settings, clock_->NowMicros());
}

void TableCapacity::UpdateIndex(std::string_view name, ResourceSettings settings) {
  std::lock_guard<SpinLock> lock(mu_);
  if (ResourceCapacity* index = Find(name); index != nullptr && !name.empty()) {
    index->Update(settings, clock_->NowMicros());
  }
}

void TableCapacity::NoteIndexData(std::string_view name, uint64_t hash, int64_t bytes,
                                  int64_t items) {
  std::lock_guard<SpinLock> lock(mu_);
  if (ResourceCapacity* index = Find(name); index != nullptr && !name.empty()) {
    const int64_t now = clock_->NowMicros();
    index->AdvanceTo(now);
    index->NoteData(hash, bytes, items, now);
  }
}

Status TableCapacity::Throttled(
    const std::vector<std::pair<const ResourceCapacity*, ThrottleReason>>& hits) const {
  const bool on_demand = hits.front().first->settings().on_demand;
  bool index = false;
  auto detail = std::make_shared<ErrorDetail>();
  for (const auto& [resource, reason] : hits) {
    index = index || reason.resource == ThrottleResource::kIndex;
    detail->throttling_reasons.push_back({reason, resource->arn()});
  }
  std::string_view message = on_demand ? (index ? kIndexOnDemand : kTableOnDemand)
                                       : (index ? kIndexProvisioned : kTableProvisioned);
  return Status(on_demand ? Code::kThrottling : Code::kProvisionedThroughputExceeded,
                std::string(message))
      .WithDetail(std::move(detail));
}

Status TableCapacity::AdmitRead(std::string_view index, uint64_t hash, const KeyAccess* key) {
  std::lock_guard<SpinLock> lock(mu_);
  ResourceCapacity* resource = Find(index);
  if (resource == nullptr) return Status::Ok();  // an index being dropped: nothing to charge
  const int64_t now = clock_->NowMicros();
  resource->AdvanceTo(now);
  const size_t p = resource->Locate(hash, ThrottleOperation::kRead, now);
  const std::optional<ThrottleLimit> limit = resource->Check(p, ThrottleOperation::kRead, 1);
  if (!limit) return Status::Ok();
  const ThrottleReason reason{resource->kind(), ThrottleOperation::kRead, *limit};
  resource->CountThrottleEvent(p, reason, now);
  resource->CountThrottledRequest(p, ThrottleOperation::kRead, now);
  resource->RecordThrottle(p, reason, key, now);
  if (key != nullptr) resource->RecordKey(*key, 0, KeyAccessOutcome::kThrottled, now);
  return Throttled({{resource, reason}});
}

void TableCapacity::ChargeRead(std::string_view index, uint64_t hash, int64_t half_units,
                               int64_t returned_items, const KeyAccess* key,
                               RequestCounting counting) {
  std::lock_guard<SpinLock> lock(mu_);
  ResourceCapacity* resource = Find(index);
  if (resource == nullptr) return;
  const int64_t now = clock_->NowMicros();
  resource->AdvanceTo(now);
  resource->Charge(resource->Locate(hash, ThrottleOperation::kRead, now), ThrottleOperation::kRead,
                   HalfUnitsToTokens(half_units), hash, returned_items, counting, now);
  if (key != nullptr) resource->RecordKey(*key, half_units, KeyAccessOutcome::kServed, now);
}

Status TableCapacity::Read(std::string_view index, uint64_t hash, int64_t half_units,
                           int64_t returned_items, const KeyAccess* key, RequestCounting counting) {
  std::lock_guard<SpinLock> lock(mu_);
  ResourceCapacity* resource = Find(index);
  if (resource == nullptr) return Status::Ok();
  const int64_t now = clock_->NowMicros();
  resource->AdvanceTo(now);
  const size_t p = resource->Locate(hash, ThrottleOperation::kRead, now);
  if (const std::optional<ThrottleLimit> limit = resource->Check(p, ThrottleOperation::kRead, 1)) {
    const ThrottleReason reason{resource->kind(), ThrottleOperation::kRead, *limit};
    resource->CountThrottleEvent(p, reason, now);
    if (counting == RequestCounting::kCountRequest) {
      resource->CountThrottledRequest(p, ThrottleOperation::kRead, now);
    }
    resource->RecordThrottle(p, reason, key, now);
    if (key != nullptr) resource->RecordKey(*key, 0, KeyAccessOutcome::kThrottled, now);
    return Throttled({{resource, reason}});
  }
  resource->Charge(p, ThrottleOperation::kRead, HalfUnitsToTokens(half_units), hash, returned_items,
                   RequestCounting::kCountRequest, now);
  if (key != nullptr) resource->RecordKey(*key, half_units, KeyAccessOutcome::kServed, now);
  return Status::Ok();
}

void TableCapacity::CountThrottledBatch(ThrottleOperation op) {
  std::lock_guard<SpinLock> lock(mu_);
  const int64_t now = clock_->NowMicros();
  table_.AdvanceTo(now);
  table_.CountThrottledRequest(std::nullopt, op, now);
}

std::vector<uint64_t> TableCapacity::PartitionStarts(std::string_view index) const {
  std::lock_guard<SpinLock> lock(mu_);
  std::vector<uint64_t> out;
  if (const ResourceCapacity* resource = Find(index)) {
    for (const Partition& p : resource->partitions()) out.push_back(p.begin);
  }
  if (out.empty()) out.push_back(0);
  return out;
}

size_t TableCapacity::TableLayout(std::vector<uint64_t>* starts) const {
  std::lock_guard<SpinLock> lock(mu_);
  for (const Partition& p : table_.partitions()) starts->push_back(p.begin);
  return table_.splits().size();
}

std::vector<PartitionSplit> TableCapacity::TableSplits(size_t first) const {
  std::lock_guard<SpinLock> lock(mu_);
  const auto& all = table_.splits();
  if (first >= all.size()) return {};
  return std::vector<PartitionSplit>(all.begin() + static_cast<std::ptrdiff_t>(first), all.end());
}

Status TableCapacity::Write(const WriteCharge& write) {
  std::lock_guard<SpinLock> lock(mu_);
  const int64_t now = clock_->NowMicros();
  table_.AdvanceTo(now);
  if (write.metering == Metering::kUnmetered) {
    table_.NoteData(write.hash, write.bytes, write.items, now);
    for (const IndexWriteCharge& charge : write.indexes) {
      ResourceCapacity* index = charge.index.empty() ? nullptr : Find(charge.index);
      if (index == nullptr) continue;
      index->AdvanceTo(now);
      index->NoteData(charge.hash, charge.bytes, charge.items, now);
    }
    return Status::Ok();
  }
  // What must pay: the table's partition, and each GSI partition the write touches (a key change
  // touches two partitions of one GSI, or one partition twice: then their parts add up).
  struct Target {
    ResourceCapacity* resource;
    size_t partition;
    int64_t tokens;
    const KeyAccess* key;  // the key of the item there (for the recent throttles)
  };
  const size_t p = table_.Locate(write.hash, ThrottleOperation::kWrite, now);
  boost::container::small_vector<Target, 4> targets{
      {&table_, p, HalfUnitsToTokens(write.half_units), &write.key}};
  for (const IndexWriteCharge& charge : write.indexes) {
    ResourceCapacity* index = charge.index.empty() ? nullptr : Find(charge.index);
    if (index == nullptr) continue;
    index->AdvanceTo(now);
    const size_t q = index->Locate(charge.hash, ThrottleOperation::kWrite, now);
    auto same = std::find_if(targets.begin(), targets.end(), [&](const Target& t) {
      return t.resource == index && t.partition == q;
    });
    if (same != targets.end()) {
      same->tokens += HalfUnitsToTokens(charge.half_units);
    } else {
      targets.push_back({index, q, HalfUnitsToTokens(charge.half_units), &charge.key});
    }
  }
  std::vector<std::pair<const ResourceCapacity*, ThrottleReason>> hits;  // limits hit
  for (const Target& t : targets) {
    const auto limit = t.resource->Check(t.partition, ThrottleOperation::kWrite, t.tokens);
    if (!limit) continue;
    const ThrottleReason reason{t.resource->kind(), ThrottleOperation::kWrite, *limit};
    hits.emplace_back(t.resource, reason);
    t.resource->CountThrottleEvent(t.partition, reason, now);
    t.resource->RecordThrottle(t.partition, reason, t.key, now);
    // The table also counts its GSIs' events.
    if (t.resource != &table_) table_.CountThrottleEvent(std::nullopt, reason, now);
  }
  if (!hits.empty()) {
    if (write.counting == RequestCounting::kCountRequest) {
      table_.CountThrottledRequest(p, ThrottleOperation::kWrite, now);
    }
    table_.RecordKey(write.key, 0, KeyAccessOutcome::kThrottled, now);
    for (const IndexWriteCharge& charge : write.indexes) {
      if (ResourceCapacity* index = Find(charge.index); index != nullptr && !charge.index.empty()) {
        index->RecordKey(charge.key, 0, KeyAccessOutcome::kThrottled, now);
      }
    }
    return Throttled(hits);
  }
  table_.Charge(p, ThrottleOperation::kWrite, HalfUnitsToTokens(write.half_units), write.hash, 0,
                RequestCounting::kCountRequest, now);
  table_.RecordKey(write.key, 3 * write.half_units, KeyAccessOutcome::kServed, now);
  if (write.bytes != 0 || write.items != 0) {
    table_.NoteData(p, write.hash, write.bytes, write.items, now);
  }
  for (const IndexWriteCharge& charge : write.indexes) {
    ResourceCapacity* index = Find(charge.index);
    if (index == nullptr || charge.index.empty()) continue;
    index->Charge(index->Locate(charge.hash, ThrottleOperation::kWrite, now),
                  ThrottleOperation::kWrite, HalfUnitsToTokens(charge.half_units), charge.hash, 0,
                  RequestCounting::kCountRequest, now);
    index->RecordKey(charge.key, 3 * charge.half_units, KeyAccessOutcome::kServed, now);
    if (charge.bytes != 0 || charge.items != 0) {
      index->NoteData(charge.hash, charge.bytes, charge.items, now);
    }
  }
  return Status::Ok();
}

Status TableCapacity::ChargeFailedWrite(uint64_t hash, int64_t half_units, const KeyAccess& key) {
  WriteCharge write;
  write.hash = hash;
  write.half_units = half_units;
  write.key = key;
  return Write(write);
}

}  // namespace partstore::capacity
