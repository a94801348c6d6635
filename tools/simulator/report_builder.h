// BuildReport: the Report of a finished run, from the client's tally and the engine's partitions,
// metrics and Contributor Insights (the Partstore.DescribePartitions / GetMetrics /
// GetContributorInsights operations, called in-process).
//
// Thread safety: reads `db`, which no one else may be writing meanwhile (the run has ended).
#pragma once

#include "partstore/database.h"
#include "partstore/status.h"
#include "tools/simulator/client_tally.h"
#include "tools/simulator/report.h"
#include "tools/simulator/workload.h"

namespace partstore::sim {

Result<Report> BuildReport(Database& db, const Workload& workload, const ClientTally& tally);

}  // namespace partstore::sim
