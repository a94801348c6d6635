// The live view: what the page at GET /ui shows while an application runs against `partstore
// serve --capacity on` (or while `partstore simulate --live` runs), as one JSON document served at
// GET /ui/data. Read from the engine when asked and never otherwise: with nobody watching, it
// costs nothing.
//
// The document (README, "Capacity simulation", "The live page", documents it for scripts):
//   {"now": <database clock, s>, "capacity": <bool>, "tables_total": N, "tables_shown": M,
//    "window_seconds": W, "resources": [<one per table and GSI>]}
// and each resource:
//   {"table", "index" (absent for a table), "billing_mode", "provisioned": {"read", "write"}
//    (provisioned only), "throttled_requests": {"read", "write"} (since the start, over the table's
//    and its GSIs' partitions, as /metrics counts them; tables only),
//    "partitions": [{"id", "read_units", "write_units" (consumed in the last whole second),
//                    "read_limit", "write_limit" (units a second it may serve now),
//                    "read_share", "write_share" (units / limit), "throttled" (that second),
//                    "items", "bytes"}],
//    "splits": [{"time", "parent", "left", "right", "reason"}],
//    "series": {"start": <first second>, "read": [...], "write": [...], "throttled": [...]}
//              (per second over the window: consumed units and throttled requests),
//    "throttles": [{"reason", "meaning", "per_second": [...], "total"}] (reasons seen in the
//              window), "top_keys": [{"rule", "keys": [{"key", "value"}]}] (Contributor Insights),
//    "recent_throttles": [{"time", "partition", "reason", "key"}]}
// Keys are DynamoDB JSON (AttributeValue maps).
//
// Thread safety: reads the Database, which is thread-safe.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "partstore/cached_store.h"
#include "partstore/database.h"
#include "partstore/status.h"

namespace partstore::live {

struct LiveViewOptions {
  // Only this table (and its GSIs); a table that does not exist is ResourceNotFoundException.
  std::optional<std::string> table{};
  // At most this many tables, the busiest first (the rest are counted in tables_total): the
  // document stays small with hundreds of tables.
  size_t max_tables = 20;
  // The seconds of history in each series (1..600).
  int window_seconds = 120;
  // Keys per Contributor Insights rule.
  int top_keys = 5;
};

// The document, or a ValidationException for options out of range.
Result<std::string> LiveViewJson(Database& db, const LiveViewOptions& options);

// The document of a cache in front of another endpoint (`serve --upstream`): no engine, so no
// partitions ("capacity": false, no resources), and its counters since it opened as "cache":
//   {"item_hits", "negative_hits", "item_misses", "query_hits", "query_misses", "hit_ratio" (hits
//    over hits and misses, items and pages together), "passed_through", "writes",
//    "upstream_calls", "upstream_ms_per_call", "memory_bytes", "evicted_items",
//    "stream_records", "stream_lag_seconds"}
// (the page turns the counters into rates per second between two readings).
std::string CacheViewJson(const CacheStats& stats);

}  // namespace partstore::live
