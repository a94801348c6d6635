// Linearizability of a register history, key by key (linearizability is compositional: a history
// is linearizable exactly when each key's is). For each key, the Wing & Gong search as Porcupine
// runs it: take the operations in invocation order, try to linearize one whose invocation comes
// before every pending completion, and backtrack when a completion is reached with the operation
// not yet linearized; a cache of (operations linearized, state) pairs seen prunes the search
// (Lowe's refinement). Unknown operations complete at kNever, so they may take effect at any
// point after their invocation, or (placed last) never.
//
// A search has a budget of steps per key: a history past it is reported as an anomaly ("could
// not decide"), never as linearizable.
#pragma once

#include <cstdint>
#include <vector>

#include "tests/consistency/history_testutil.h"

namespace partstore::consistency {

CheckReport CheckRegisters(const std::vector<RegisterOp>& history,
                           uint64_t max_steps_per_key = 50'000'000);

}  // namespace partstore::consistency
