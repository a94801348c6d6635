// The bench's items and keys (target.h) as the engine's Items: what the targets that speak
// DynamoDB's data model (the engine, a DynamoDB endpoint) write and look up.
#pragma once

#include "partstore/item.h"
#include "tools/bench/target.h"

namespace partstore::bench {

// Every attribute as an S value.
Item ToItem(const BenchItem& item);
// The key attributes of `table` (the partition key, and the sort key when the table has one).
Item KeyOf(const TableSpec& table, ItemKey key);

}  // namespace partstore::bench
