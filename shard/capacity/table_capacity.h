// TableCapacity: the simulated capacity of one table and its GSIs (one ResourceCapacity each;
// LSIs live in the table's partitions and are charged to them), and the throttling errors.
//
// The engine calls it only when capacity simulation is on (CapacityOptions::enabled); a table
// without it holds a null pointer and pays nothing.
//
//   reads   AdmitRead before reading (throttled when the partition has no tokens left), then
//           ChargeRead with what was actually read; or Read after a read without side effects
//           (the same outcome, one lock);
//   writes  Write, under the item's stripe lock once the write's cost is known and before it
//           applies: it admits and charges the table's partition and every GSI partition the
//           write touches, all or nothing. A GSI that cannot pay throttles the base write (GSI
//           back-pressure, reference §3.3) with an Index... reason.
//
// A throttled request fails with ProvisionedThroughputExceededException (provisioned) or
// ThrottlingException (on-demand) carrying ThrottlingReasons: every limit it hit, with the ARN of
// the table or index. It is counted as one throttled request on the table and one throttle event
// per reason (CloudWatch's ThrottledRequests and ...ThrottleEvents).
//
// Thread safety: safe for concurrent use; one mutex guards everything. Lock order: it is a leaf
// (taken under a stripe lock by writes, never held while taking another lock).
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "partstore/capacity_options.h"
#include "partstore/status.h"
#include "shard/capacity/resource_capacity.h"
#include "shard/capacity/spin_lock.h"

namespace partstore::capacity {

// One GSI partition a write touches (a key change touches two: the old entry's and the new's).
struct IndexWriteCharge {
  std::string_view index;  // the GSI's name
  uint64_t hash = 0;       // of the entry's index partition key
  int64_t half_units = 0;
  int64_t bytes = 0;  // change of the index's stored size
  int64_t items = 0;  // change of its entry count
  KeyAccess key;
};

// kUnmetered: an import (Database::ImportItem) or a TTL deletion, counted in its partitions (sizes,
// item counts, size splits) but not consumed, recorded or throttled.
enum class Metering { kMetered, kUnmetered };

struct WriteCharge {
  uint64_t hash = 0;
  int64_t half_units = 0;  // the table's (LSI writes included)
  int64_t bytes = 0;
  int64_t items = 0;
  KeyAccess key;
  std::vector<IndexWriteCharge> indexes;
  // kPartOfRequest for a batch's writes: a throttle then counts events but no throttled request
  // (an admitted write still counts as a write request).
  RequestCounting counting = RequestCounting::kCountRequest;
  Metering metering = Metering::kMetered;
};

class TableCapacity {
 public:
  TableCapacity(const CapacityOptions& options, std::shared_ptr<Clock> clock, std::string table_arn,
                KeySchema key, ResourceSettings settings);

  // Whether Contributor Insights record keys for the table or any GSI (else a KeyAccess's item key
  // may be left empty).
  bool records_keys() const { return records_keys_.load(std::memory_order_relaxed); }
  // UpdateContributorInsights: on or off for the table (`index` empty) or a GSI; false when there
  // is no such index.
  bool SetInsights(std::string_view index, bool enabled);

  // The control plane.
  void AddIndex(std::string_view name, KeySchema key, ResourceSettings settings);
  void RemoveIndex(std::string_view name);
  // The table's throughput or billing mode (its GSIs are updated one by one, UpdateIndex).
  void Update(ResourceSettings settings);
  void UpdateIndex(std::string_view name, ResourceSettings settings);
  // Data an index backfill stored.
  void NoteIndexData(std::string_view index, uint64_t hash, int64_t bytes, int64_t items);

  // Reads of the table (`index` empty; LSIs too) or a GSI.
  Status AdmitRead(std::string_view index, uint64_t hash, const KeyAccess* key);
  // `key` may be null (Scan pages); kPartOfRequest for a Scan's further partitions (charged, but
  // no read request counted).
  void ChargeRead(std::string_view index, uint64_t hash, int64_t half_units, int64_t returned_items,
                  const KeyAccess* key, RequestCounting counting = RequestCounting::kCountRequest);
  // AdmitRead and ChargeRead in one step, for a read already done that has no effect when refused
  // (GetItem, BatchGetItem's gets): admitted when the partition had tokens left, then charged.
  // kPartOfRequest for a batch's gets (see WriteCharge::counting).
  Status Read(std::string_view index, uint64_t hash, int64_t half_units, int64_t returned_items,
              const KeyAccess* key, RequestCounting counting = RequestCounting::kCountRequest);
  // One throttled request of a batch all of whose requests were throttled (the table's count).
  void CountThrottledBatch(ThrottleOperation op);
  // The first hash of each partition of the table or GSI (Scan charges per partition).
  std::vector<uint64_t> PartitionStarts(std::string_view index) const;
  // Streams (shard/stream.h): the table's partition starts and how many splits made them (at one
  // instant); its splits from `first` on; how many there are (no lock taken).
  size_t TableLayout(std::vector<uint64_t>* starts) const;
  std::vector<PartitionSplit> TableSplits(size_t first) const;
  size_t table_split_count() const { return table_.split_count(); }

  // A write: admitted and charged, or throttled (nothing charged).
  Status Write(const WriteCharge& write);
  // A write that failed its condition: charged like a write (DynamoDB charges failed conditions)
  // when it can pay, else throttled. Data does not change.
  Status ChargeFailedWrite(uint64_t hash, int64_t half_units, const KeyAccess& key);

  // Runs `fn(const ResourceCapacity&, int64_t now)` on the table's (`index` empty) or a GSI's
  // capacity under the lock, after bringing it to now; false when there is no such index.
  template <class Fn>
  bool Inspect(std::string_view index, Fn&& fn) {
    std::lock_guard<SpinLock> lock(mu_);
    ResourceCapacity* resource = Find(index);
    if (resource == nullptr) return false;
    const int64_t now = clock_->NowMicros();
    resource->AdvanceTo(now);
    resource->RefillAll(now);
    fn(static_cast<const ResourceCapacity&>(*resource), now);
    return true;
  }

 private:
  // records_keys_ from the resources' flags. REQUIRES: mu_ held.
  void UpdateRecordsKeys();
  ResourceCapacity* Find(std::string_view index);
  const ResourceCapacity* Find(std::string_view index) const;
  Status Throttled(
      const std::vector<std::pair<const ResourceCapacity*, ThrottleReason>>& hits) const;

  const CapacityOptions options_;
  const std::shared_ptr<Clock> clock_;
  const std::string table_arn_;
  std::atomic<bool> records_keys_;  // written under mu_
  mutable SpinLock mu_;             // guards everything below; held for tens of nanoseconds
  ResourceCapacity table_;
  std::map<std::string, std::unique_ptr<ResourceCapacity>, std::less<>> indexes_;
};

}  // namespace partstore::capacity
