// Warm throughput's floor: a table can always serve at once what it is provisioned for, or
// on-demand's initial 12,000 read / 4,000 write units, so WarmThroughput never reports less
// (shard/table_settings.cc). UpdateTable refuses a lower value with DynamoDB's texts; a billing
// or throughput change that lifts the floor lifts the table's warm throughput with it, so a
// table's settings always pass CreateTable's checks again (snapshots and restores rebuild tables
// through CreateTable).
#pragma once

#include <cstdint>

#include "partstore/status.h"
#include "partstore/table_requests.h"

namespace partstore {

// The floor of `description`'s table for reads (`read`) or writes.
int64_t WarmThroughputFloor(const TableDescription& description, bool read);
// Each warm value of `description` raised to its floor.
void RaiseWarmThroughputToFloor(TableDescription* description);

}  // namespace partstore
