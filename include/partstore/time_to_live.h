// Time to Live: DynamoDB's UpdateTimeToLive and DescribeTimeToLive, and how this database expires
// items (docs/reference.md, Time to Live, has DynamoDB's rules and their sources).
//
//   db.UpdateTimeToLive({.table_name = "Sessions",
//                        .time_to_live_specification = {.attribute_name = "expires_at",
//                                                       .enabled = true}});
//
// With TTL on, an item whose TTL attribute is a top-level Number of Unix epoch seconds earlier
// than now is expired; a missing attribute, any other type, and a value more than five years in
// the past never expire. The sweeper deletes expired items: an ordinary delete (from the table,
// its GSIs and LSIs, ItemCount and TableSizeBytes) that consumes no capacity and is counted per
// table (`partstore serve`'s /metrics: partstore_expired_items_total). It runs in the background
// every sweep_interval_seconds on the system clock, after each AdvanceClock on the manual clock
// (so items expire at exact instants), and on demand (Database::DeleteExpiredItems).
//
// What an expired item looks like until the sweeper deletes it depends on the expiry mode:
//   - ExpiryMode::kDynamoDb (what `partstore serve` and `run` use): as on DynamoDB, it stays
//     visible to every read, condition and update, so tests can reproduce "expired but still
//     returned" and the filter DynamoDB users need (`#ttl > :now`).
//   - ExpiryMode::kCache (the C++ default, for an embedded cache): it is gone the instant it
//     expires. GetItem, BatchGetItem, TransactGetItems, Query and Scan (of the table and of its
//     indexes) skip it, and a write finds no item there: conditions see none, ReturnValues
//     returns none, and an update starts from an empty item. A write to its key reclaims it at
//     once (counted as expired, like a sweeper delete); otherwise the sweeper reclaims it.
//
// Time: the database's clock (DatabaseOptions::capacity.clock) plus epoch_at_clock_zero, so on
// the manual clock epoch time moves only with AdvanceClock.
//
// Thread safety: value types.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace partstore {

enum class ExpiryMode : uint8_t {
  kDynamoDb,  // expired items stay visible until deleted (DynamoDB's behaviour)
  kCache,     // expired items are invisible at once, and reclaimed lazily
};

struct TimeToLiveOptions {
  // What readers see of an expired item before it is deleted (above).
  ExpiryMode expiry_mode = ExpiryMode::kCache;
  // Unix time, in seconds, at the database clock's zero; 0: the system's wall-clock time when
  // the database opens (so epoch time follows the wall clock on the system clock, and starts
  // there on the manual clock).
  int64_t epoch_at_clock_zero = 0;
  // How often the background sweeper runs on the system clock (0: never in the background; the
  // thread starts with the first table that enables TTL). 0 or 0.01 .. 86400.
  double sweep_interval_seconds = 1.0;
  // How long after its expiry an item stays before the sweeper may delete it (DynamoDB takes
  // minutes to days; 0: at the first sweep; in cache mode it is invisible meanwhile). 0 .. 10
  // years.
  double expiry_delay_seconds = 0;
  // DynamoDB's limit on changing a table's TTL setting: a change within this many seconds of the
  // previous one fails with "Time to live has been modified multiple times within a fixed
  // interval" (DynamoDB documents up to one hour). 0 turns the limit off. 0 .. 86400.
  double change_interval_seconds = 3600;
};

struct TimeToLiveSpecification {
  std::string attribute_name;  // 1..255 bytes
  bool enabled = false;
};

struct UpdateTimeToLiveRequest {
  std::string table_name;
  TimeToLiveSpecification time_to_live_specification;
};
struct UpdateTimeToLiveResult {
  TimeToLiveSpecification time_to_live_specification;  // the request's, as DynamoDB echoes it
};

// DynamoDB's API has ENABLING and DISABLING too; DynamoDB reports ENABLED at once after enabling
// and DISABLED after disabling, and so does this database.
enum class TimeToLiveStatus : uint8_t { kEnabling, kDisabling, kEnabled, kDisabled };

struct DescribeTimeToLiveRequest {
  std::string table_name;
};
struct TimeToLiveDescription {
  TimeToLiveStatus time_to_live_status = TimeToLiveStatus::kDisabled;
  std::optional<std::string> attribute_name;  // while enabled
};
struct DescribeTimeToLiveResult {
  TimeToLiveDescription time_to_live_description;
};

}  // namespace partstore
