// The ceiling: a bare concurrent hash map doing the same operations with nothing DynamoDB asks for
// (no typed values, no validation, no expressions, no item size, no capacity): 64 stripes of
// std::shared_mutex + std::unordered_map, the layout the engine's own stripes have.
//
//   table without sort key   partition key -> attributes
//   table with sort key      partition key -> std::map sort key -> attributes
//   its GSI                  GSI partition key -> std::map (GSI sort key, 0x1f, key) -> a copy
//
// Get copies the item out (as the engine returns a copy); Query walks the ordered map from the
// prefix; Scan walks the stripes in hash order from the start key (unordered_map's own order,
// the analogue of DynamoDB's hash order).
//
// Lock order: a table's stripe, then (for tables with a GSI) a GSI stripe; never two of one kind.
// Thread safety: Prepare alone; sessions from any number of threads after it.
#pragma once

#include <memory>
#include <string>

#include "tools/bench/target.h"

namespace partstore::bench {

std::unique_ptr<Target> MakeBareMapTarget(std::string name);

}  // namespace partstore::bench
