// Table::Scan: the whole table in (hash, partition key, sort key) order, or one segment of it.
//
// Segments (parallel scan): segment s of n covers the hashes [s * 2^64 / n, (s + 1) * 2^64 / n),
// so every item is in exactly one segment whatever n is, and a segment is a contiguous run of
// stripes' key ranges. A page visits one stripe at a time under its shared lock, walking the
// stripe's partition keys in scan order (Stripe::Ordered) and each collection in sort-key order,
// resuming after ExclusiveStartKey.
//
// Capacity (reference §2.2): the items read (before filter and projection), rounded up to 4 KB
// per simulated partition the page passed through, with a minimum of one 4 KB unit per partition,
// empty ones included (a fresh on-demand table has 4 partitions: a full Scan of one tiny item
// costs 4.0 strongly consistent, 2.0 eventually, as DynamoDB reports).
#include <algorithm>
#include <vector>

#include "core/capacity_units.h"
#include "core/key_encoding.h"
#include "shard/prepared.h"
#include "shard/read_page.h"
#include "shard/table.h"

namespace partstore {

namespace {

using uint128 = unsigned __int128;

// The first hash of segment `s` of `n` (s == n gives 2^64, returned as nullopt).
std::optional<uint64_t> SegmentStart(int64_t s, int64_t n) {
  if (s >= n) return std::nullopt;
  return static_cast<uint64_t>((static_cast<uint128>(s) << 64) / static_cast<uint128>(n));
}

}  // namespace

Result<ScanResult> Table::Scan(const ScanRequest& request) const {
  PARTSTORE_ASSIGN_OR_RETURN(PreparedRead prepared, PrepareScan(request, name_, cache()));
  return Scan(request, prepared);
}

Result<ScanResult> Table::Scan(const ScanRequest& request, const PreparedRead& prepared) const {
  PARTSTORE_ASSIGN_OR_RETURN(PendingPage page, ReadScan(request, prepared));
  return std::move(page).Finish();
}

Result<ScanViewResult> Table::ScanView(const ScanRequest& request,
                                       const PreparedRead& prepared) const {
  PARTSTORE_ASSIGN_OR_RETURN(PendingPage page, ReadScan(request, prepared));
  return std::move(page).FinishStored();
}

Result<PendingPage> Table::ReadScan(const ScanRequest& request,
                                    const PreparedRead& prepared) const {
  // What is read: the table, or an index's entries.
  std::shared_ptr<SecondaryIndex> index;
  if (request.index_name) {
    index = FindIndex(*request.index_name);
    if (index == nullptr) {
      return Status::Validation("The table does not have the specified index: " +
                                *request.index_name);
    }
    PARTSTORE_RETURN_IF_ERROR(CheckIndexRead(*index, prepared, request.consistent_read));
  }
  const StripeSet& stripes_read = index ? index->stripes() : stripes_;

  // The hash range [first, last] to scan.
  const int64_t segment = request.segment.value_or(0);
  const int64_t total = request.total_segments.value_or(1);
  const uint64_t first = *SegmentStart(segment, total);
  const std::optional<uint64_t> next = SegmentStart(segment + 1, total);
  const uint64_t last = next ? *next - 1 : UINT64_MAX;

  std::optional<EncodedKey> start;  // hash, partition, key within the partition
  if (request.exclusive_start_key && index) {
    PARTSTORE_ASSIGN_OR_RETURN(SecondaryIndex::EntryKey entry,
                               DecodeIndexStartKey(*index, *request.exclusive_start_key));
    start = EncodedKey{entry.hash, std::move(entry.partition), std::move(entry.entry)};
  } else if (request.exclusive_start_key) {
    PARTSTORE_ASSIGN_OR_RETURN(start,
                               DecodeStartKey(*request.exclusive_start_key, StartKeyUse::kScan));
  }
  if (start && (start->hash < first || start->hash > last)) {
    // A key of another segment: dynalite test/scan.js, recorded against DynamoDB.
    return Status::Validation(
        "The provided starting key is invalid: Invalid ExclusiveStartKey. Please use "
        "ExclusiveStartKey with correct Segment. TotalSegments: " +
        std::to_string(total) + " Segment: " + std::to_string(segment));
  }

  // Simulated partitions (the map's when capacity simulation is on): a page is charged per
  // partition it passed through.
  const std::string_view capacity_name =
      index && index->global() ? std::string_view(index->name()) : std::string_view();
  const std::vector<uint64_t> starts = PartitionStarts(capacity_name);
  auto partition_of = [&](uint64_t hash) {
    return static_cast<size_t>(std::upper_bound(starts.begin(), starts.end(), hash) -
                               starts.begin()) -
           1;
  };
  std::vector<uint64_t> partition_bytes;  // per partition touched, from the first one
  const size_t first_partition = partition_of(start ? start->hash : first);
  auto account = [&](uint64_t hash, size_t bytes) {
    const size_t index = partition_of(hash) - first_partition;
    if (partition_bytes.size() <= index) partition_bytes.resize(index + 1, 0);
    partition_bytes[index] += bytes;
  };
  if (capacity_) {
    PARTSTORE_RETURN_IF_ERROR(
        capacity_->AdmitRead(capacity_name, starts[first_partition], nullptr));
  }

  ReadPage page(prepared.filter, prepared.projection, prepared.select, request.limit);
  const Expiry expiry = CacheExpiry();
  StoredItem last_item;  // the item a full page stopped at
  const bool rebuild = index && index->entries_are_keys();
  StoredItem rebuilt;
  uint64_t stopped_at = last;
  const uint64_t from = start ? start->hash : first;
  for (size_t s = stripes_read.IndexOf(from); s < stripes_read.size() && !page.full(); ++s) {
    if (stripes_read.FirstHash(s) > last) break;
    const Stripe& stripe = stripes_read.at(s);
    Stripe::ReadLock lock(stripe);
    const std::vector<const Stripe::Entry*>& order = stripe.Ordered();
    auto it = order.begin();
    if (start) {
      const PartitionKeyRef position{start->hash, start->partition};
      it = std::lower_bound(
          order.begin(), order.end(), position,
          [](const Stripe::Entry* e, const PartitionKeyRef& p) { return e->first.ref() < p; });
    } else {
      it = std::lower_bound(order.begin(), order.end(), first,
                            [](const Stripe::Entry* e, uint64_t h) { return e->first.hash < h; });
    }
    for (; it != order.end() && !page.full(); ++it) {
      const Stripe::Entry& entry = **it;
      if (entry.first.hash > last) break;
      const ItemCollection& collection = entry.second;
      ItemCollection::Cursor cursor = collection.NewCursor();
      if (start && entry.first.ref() == PartitionKeyRef{start->hash, start->partition}) {
        if (key_schema_.sort || index) {
          cursor.SeekAfter(start->sort);
        } else {
          continue;  // the start key's (only) item was read on the previous page
        }
      } else {
        cursor.SeekToFirst();
      }
      for (; cursor.valid() && !page.full(); cursor.Next()) {
        // A KEYS_ONLY index's entries are rebuilt from their keys.
        const StoredItem& item =
            rebuild ? (rebuilt = index->EntryItem(entry.first.key, cursor.key(), cursor.item()))
                    : cursor.item();
        if (expiry.Expired(item)) continue;  // cache mode: gone
        account(entry.first.hash, page.Add(item));
        if (page.full()) {
          last_item = item;
          stopped_at = entry.first.hash;
        }
      }
    }
  }

  // After the locks: index entries whose expiry only their base items show (cache mode), the
  // filter (the count is charged), then the key to resume from.
  DropExpiredEntries(index.get(), expiry, &page);
  page.Filter();
  std::optional<Item> last_key;
  if (last_item) last_key = index ? IndexKeyOf(*index, last_item) : KeyOf(last_item);

  // Partitions passed through: from the start's to the one the page stopped in (all of the
  // range's when it ran to the end), each at least one 4 KB unit.
  const size_t last_partition = partition_of(stopped_at);
  const ReadConsistency consistency =
      request.consistent_read ? ReadConsistency::kStrong : ReadConsistency::kEventual;
  CapacityCharge charge;
  for (size_t p = first_partition; p <= last_partition; ++p) {
    const size_t index = p - first_partition;
    const int64_t half_units =
        ReadHalfUnits(index < partition_bytes.size() ? partition_bytes[index] : 0, consistency);
    charge.table_half_units += half_units;
    if (capacity_) {
      // The page is one request, counted on its first partition; its items are reported there.
      capacity_->ChargeRead(capacity_name, starts[p], half_units,
                            p == first_partition ? page.count() : 0, nullptr,
                            p == first_partition ? capacity::RequestCounting::kCountRequest
                                                 : capacity::RequestCounting::kPartOfRequest);
    }
  }

  return PendingPage{
      std::move(page), std::move(last_key),
      ReportReadCapacity(request.return_consumed_capacity, index.get(), charge.table_half_units),
      std::nullopt};
}

}  // namespace partstore
