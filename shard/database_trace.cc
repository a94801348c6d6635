// Request traces, the Database's side (shard/database_trace.h): table definitions described to
// the recorder, and the outcomes it keeps.
#include "shard/database_trace.h"

namespace partstore::internal {

void MakeKnown(DatabaseState& state, std::string_view table_name) {
  TraceRecorder* trace = state.trace();
  if (trace == nullptr || trace->Knows(table_name)) return;
  auto table = state.GetTable(table_name);
  if (!table.ok()) return;
  trace->RecordTable("CreateTable", (*table)->Describe(),
                     state.options_.capacity.clock->NowMicros());
}

void Finish(DatabaseState& state, TraceEvent& event, const Status& status) {
  switch (status.code()) {
    case Code::kOk:
      break;
    case Code::kConditionalCheckFailed:
    case Code::kTransactionCanceled:
    case Code::kProvisionedThroughputExceeded:
    case Code::kThrottling:
    case Code::kRequestLimitExceeded:
      event.error = CodeName(status.code());
      break;
    default:
      return;  // refused before it reached a table
  }
  state.trace()->Record(event, state.options_.capacity.clock->NowMicros());
}

void RecordTable(DatabaseState& state, std::string_view op, const TableDescription& table) {
  if (TraceRecorder* trace = state.trace()) {
    trace->RecordTable(op, table, state.options_.capacity.clock->NowMicros());
  }
}

}  // namespace partstore::internal
