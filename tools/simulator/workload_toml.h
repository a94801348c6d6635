// ParseWorkload: a workload file (TOML, read with toml++) -> a checked Workload (workload.h).
//
// The format is documented in the README ("Workload files"); the built-in scenarios under
// tools/scenarios/ are examples of every part of it. Unknown keys are errors (a typo must not
// silently change a simulation), and so is any value outside its documented range.
//
// Errors are ValidationExceptions whose message starts with "<source>:<line>:<column>: " when the
// problem has a place in the file (TOML syntax errors always do).
//
// Thread safety: a pure function.
#pragma once

#include <cstdint>
#include <string_view>

#include "partstore/status.h"
#include "tools/simulator/workload.h"

namespace partstore::sim {

// kEverything: at least one phase is required. kTables: phases are optional (`partstore simulate
// --trace --tables FILE` takes a workload file's tables, preload, sharding and client settings,
// and replays the trace instead of phases).
enum class WorkloadParts : uint8_t { kEverything, kTables };
Result<Workload> ParseWorkload(std::string_view toml, std::string_view source_name,
                               WorkloadParts parts = WorkloadParts::kEverything);

}  // namespace partstore::sim
