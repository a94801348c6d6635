#include "tools/simulator/workload.h"

namespace partstore::sim {

std::string_view OpKindName(OpKind kind) {
  switch (kind) {
    case OpKind::kGet:
      return "get";
    case OpKind::kPut:
      return "put";
    case OpKind::kUpdate:
      return "update";
    case OpKind::kDelete:
      return "delete";
    case OpKind::kQuery:
      return "query";
    case OpKind::kScan:
      return "scan";
    case OpKind::kBatchGet:
      return "batch_get";
    case OpKind::kBatchWrite:
      return "batch_write";
    case OpKind::kTransactWrite:
      return "transact_write";
    case OpKind::kTransactGet:
      return "transact_get";
  }
  return "unknown";
}

int64_t TotalMicros(const Workload& workload) {
  int64_t total = 0;
  for (const Phase& phase : workload.phases) total += phase.duration_micros;
  return total;
}

}  // namespace partstore::sim
