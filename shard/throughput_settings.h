// The throughput settings of partstore/table_settings.h beyond provisioned throughput, for tables
// and GSIs alike (shard/table_settings.cc):
//
// - OnDemandThroughput: a maximum of at least 1 unit (-1 clears it on UpdateTable), on on-demand
//   tables and their GSIs only; a switch to provisioned drops it.
// - WarmThroughput's floor: a table or GSI can always serve at once what it is provisioned for,
//   or on-demand's initial 12,000 read / 4,000 write units, so WarmThroughput never reports less.
//   UpdateTable refuses a lower value, or one lower than the current, with DynamoDB's texts; a
//   billing or throughput change that lifts the floor lifts the warm throughput with it, so a
//   table's settings always pass CreateTable's checks again (snapshots and restores rebuild
//   tables through CreateTable).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "partstore/status.h"
#include "partstore/table_requests.h"

namespace partstore {

// The floor of `description`'s table for reads (`read`) or writes.
int64_t WarmThroughputFloor(const TableDescription& description, bool read);
// Each warm value of `description` raised to its floor.
void RaiseWarmThroughputToFloor(TableDescription* description);

// A GSI's floor: `provisioned` (its own throughput) on a provisioned table.
int64_t WarmThroughputFloor(BillingMode mode,
                            const std::optional<ProvisionedThroughput>& provisioned, bool read);
// Each warm value of `warm` raised to the GSI's floor.
void RaiseWarmThroughputToFloor(BillingMode mode,
                                const std::optional<ProvisionedThroughput>& provisioned,
                                std::optional<WarmThroughput>* warm);

// A GSI's OnDemandThroughput and WarmThroughput in CreateTable or a Create action (`current`
// absent) or an Update action (`current`: the index's warm throughput now; `mode` and
// `provisioned`: the index's after the request).
Status CheckIndexThroughputSettings(std::string_view index, BillingMode mode,
                                    const std::optional<ProvisionedThroughput>& provisioned,
                                    const std::optional<OnDemandThroughput>& on_demand,
                                    const std::optional<WarmThroughput>& warm, bool update,
                                    const std::optional<WarmThroughput>& current);

// `have` with an UpdateTable's `want` applied: a given member replaces, -1 clears; nothing left is
// no maximum.
std::optional<OnDemandThroughput> MergeOnDemandThroughput(
    const std::optional<OnDemandThroughput>& have, const OnDemandThroughput& want);
// `have` with `want`'s given members.
WarmThroughput MergeWarmThroughput(const std::optional<WarmThroughput>& have,
                                   const WarmThroughput& want);

}  // namespace partstore
