// TraceEvent: what the Database tells its TraceRecorder (partstore/trace.h) about one request,
// borrowed from the request and its result for the length of the Record call.
//
// Thread safety: a value type.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "partstore/item.h"

namespace partstore::internal {

// One item a request is about.
struct TraceItem {
  std::string_view table;
  // Batches and transactions: "put", "update", "delete", "get" or "check"; empty for the
  // single-item operations (the operation says it).
  std::string_view action;
  // Its key attributes, or the whole item (the recorder keeps the key attributes of the table and
  // its GSIs). Null: a Query or Scan with no partition key to show.
  const Item* item = nullptr;
  int64_t size = -1;  // the bytes of the item written (-1: not known, or not a write)
};

struct TraceEvent {
  std::string_view op{};           // "PutItem", ..., as DynamoDB names the operation
  std::string_view index{};        // Query and Scan of an index
  std::vector<TraceItem> items{};  // one for the single-item operations, a Query and a Scan
  int64_t half_units = 0;          // the capacity consumed, tables and indexes, in half units
  int32_t scanned = -1;            // Query, Scan: ScannedCount
  bool consistent = false;
  bool backward = false;     // Query: ScanIndexForward = false
  bool missing = false;      // GetItem: no item had the key
  std::string_view error{};  // empty when it succeeded, else the error's name
};

}  // namespace partstore::internal
