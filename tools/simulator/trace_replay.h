// Trace replay: a request trace (partstore/trace.h: what `partstore serve --record` writes) read
// into what Simulate runs instead of a workload's phases: the tables, one phase named "trace" as
// long as the trace (at `speed` times its pace), and each recorded request at its time.
//
//   auto replay = ReadTrace(file, "load.trace.jsonl", {.speed = 50});
//   Simulate(replay->workload, {.replay = &*replay});
//
// How a recorded request is sent again (the trace has keys and sizes, not items):
//   - a write puts an item of the recorded key attributes (the table's and its GSIs'), padded to
//     the recorded size; an update whose new item was not recorded sets one small attribute; a
//     write that failed its condition is sent with a condition that fails;
//   - a GetItem, DeleteItem or batch / transaction member reads or deletes the recorded key;
//   - a Query reads the recorded partition key with Limit = its ScannedCount (so it reads as many
//     items), in its direction; a Scan continues one cursor with Limit = its ScannedCount;
//   - the items reads saw that no earlier write of the trace made (data the application had before
//     the recording) are preloaded, sized from the capacity the read consumed (not for a GetItem
//     recorded as "missing": it found nothing).
// Keys are strings in the replay's tables (numbers by their text, binary as hex), so hashed keys
// (TraceOptions::hash_keys) replay alike. The tables are the trace's CreateTable records, or
// `tables` (a workload file's, with its preload, sharding, retries and auto scaling).
//
// Errors: ValidationException naming the source and line (bad JSON, a missing or mistyped
// member, over the limits below, a request on a table nothing defines).
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "partstore/item.h"
#include "partstore/status.h"
#include "tools/simulator/workload.h"

namespace partstore::sim {

// Limits on what a trace may hold.
inline constexpr size_t kMaxTraceLineBytes = 1 << 20;
inline constexpr size_t kMaxTraceItemsPerRequest = 100;
inline constexpr int64_t kMaxTraceRequests = 100'000'000;
inline constexpr double kMaxReplaySpeed = 1e6;

// One item of a recorded request.
struct ReplayItem {
  std::string table;
  std::string action;  // "put", "update", "delete", "get", "check" (from the operation when single)
  std::vector<std::pair<std::string, std::string>> key;  // attribute -> its text (or hash)
  int64_t size = -1;                                     // a write's bytes (-1: not recorded)
};

struct ReplayRequest {
  int64_t micros = 0;  // when it is sent, from the start of the replay (already divided by speed)
  OpKind kind = OpKind::kGet;
  int32_t entry = 0;  // its mix entry in the "trace" phase (one per operation, table and index)
  std::string index;  // Query, Scan
  std::vector<ReplayItem> items;
  double units = 0;  // the capacity units it consumed when recorded
  int32_t scanned = -1;
  bool consistent = false;
  bool backward = false;
  bool missing = false;  // a GetItem that found no item (nothing to preload for it)
  bool condition_failed = false;
};

struct Replay {
  Workload workload;                    // tables, client settings, and the one "trace" phase
  std::vector<ReplayRequest> requests;  // in time order
  // Items to preload: what the recorded reads found that no earlier write of the trace made.
  std::vector<std::pair<std::string, Item>> preload;
  int64_t skipped = 0;  // table definitions after the first of their name (not replayed)
};

struct ReplayOptions {
  double speed = 1;  // > 0: 50 replays the trace 50 times faster than it was recorded
  // A workload file's tables (and preload, sharding, retries, auto scaling) instead of the
  // trace's table definitions.
  std::optional<Workload> tables{};
};

Result<Replay> ReadTrace(std::istream& in, std::string_view source, const ReplayOptions& options);

// "50x", "50", "0.5x" -> 50, 50, 0.5; an error unless in (0, kMaxReplaySpeed].
Result<double> ParseSpeed(std::string_view text);

}  // namespace partstore::sim
