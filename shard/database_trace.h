// The Database's side of request traces (partstore/trace.h): each traced operation runs on a copy
// of its request that asks for the consumed capacity (and, for UpdateItem, the new item), records
// what the recorder needs, and gives the caller the result it asked for. Untraced operations
// (DatabaseOptions::trace null) do not come here.
//
//   return internal::Tracing(state) ? internal::Traced(state, request, run) : run(request);
//
// Tracing is false inside a traced call on the same thread: the batches and transactions trace by
// calling themselves again (through Traced), and that inner call must not record; a write-sharding
// extension marks itself the same way (TracedCall), so the chunks ShardedBatchWriteItem sends
// through BatchWriteItem are not recorded (partstore/trace.h: the extensions are not).
//
// Recorded outcomes: success, a failed condition, a cancelled transaction and throttling (what
// reached a table); other errors are not recorded.
//
// Thread safety: as the Database (the recorder has its own mutex).
#pragma once

#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "partstore/database.h"
#include "shard/database_state.h"
#include "shard/trace_event.h"

namespace partstore::internal {

// Traced calls in progress on this thread.
inline thread_local int traced_calls = 0;
// Whether to trace a call: a recorder, and not inside a traced call on this thread. Inline: an
// untraced Database pays one pointer test.
inline bool Tracing(const DatabaseState& state) {
  return state.trace() != nullptr && traced_calls == 0;
}
// Marks the calling thread as inside a traced call while it lives.
class TracedCall {
 public:
  TracedCall() { ++traced_calls; }
  ~TracedCall() { --traced_calls; }
  TracedCall(const TracedCall&) = delete;
  TracedCall& operator=(const TracedCall&) = delete;
};

// Describes `table` to the recorder when it has not seen it (restored, imported, loaded).
void MakeKnown(DatabaseState& state, std::string_view table);
// Records `event` when `status` is an outcome traces keep (above); `event.error` is filled in.
void Finish(DatabaseState& state, TraceEvent& event, const Status& status);
// The table definition after a successful CreateTable / UpdateTable / DeleteTable.
void RecordTable(DatabaseState& state, std::string_view op, const TableDescription& table);

// The capacity mode a traced copy asks for: at least TOTAL.
inline ReturnConsumedCapacity Wider(ReturnConsumedCapacity asked) {
  return asked == ReturnConsumedCapacity::kNone ? ReturnConsumedCapacity::kTotal : asked;
}
inline int64_t HalfUnits(const std::optional<ConsumedCapacity>& c) {
  return c ? c->total_half_units : 0;
}
inline int64_t HalfUnits(const std::vector<ConsumedCapacity>& all) {
  int64_t total = 0;
  for (const ConsumedCapacity& c : all) total += c.total_half_units;
  return total;
}
inline void Narrow(std::optional<ConsumedCapacity>& c, ReturnConsumedCapacity asked) {
  if (asked == ReturnConsumedCapacity::kNone) c.reset();
}
inline void Narrow(std::vector<ConsumedCapacity>& c, ReturnConsumedCapacity asked) {
  if (asked == ReturnConsumedCapacity::kNone) c.clear();
}

// The single-item operations, Scan, the batches and the transactions (Query is traced in
// Database::Query, which needs the prepared key condition).
template <typename Request, typename Run>
auto Traced(DatabaseState& state, const Request& request, Run&& run) -> decltype(run(request)) {
  Request copy = request;
  copy.return_consumed_capacity = Wider(request.return_consumed_capacity);
  TraceEvent event;
  std::optional<Item> new_item;  // UpdateItem's, asked for when the caller asked for nothing
  constexpr bool kUpdate = std::is_same_v<Request, UpdateItemRequest>;
  if constexpr (kUpdate) {
    if (request.return_values == ReturnValue::kNone) copy.return_values = ReturnValue::kAllNew;
  }
  auto result = [&] {
    TracedCall inside;
    return run(copy);
  }();
  auto item = [&](std::string_view table, std::string_view action, const Item* it,
                  int64_t size = -1) {
    event.items.push_back({table, action, it, size});
  };
  if constexpr (std::is_same_v<Request, PutItemRequest>) {
    event.op = "PutItem";
    MakeKnown(state, request.table_name);
    item(request.table_name, "", &request.item, static_cast<int64_t>(ItemSize(request.item)));
  } else if constexpr (kUpdate) {
    event.op = "UpdateItem";
    MakeKnown(state, request.table_name);
    if (result.ok() && copy.return_values == ReturnValue::kAllNew && result->attributes) {
      new_item = std::move(result->attributes);
      result->attributes.reset();
      if (request.return_values == ReturnValue::kAllNew) result->attributes = new_item;
      item(request.table_name, "", &*new_item, static_cast<int64_t>(ItemSize(*new_item)));
    } else {
      item(request.table_name, "", &request.key);
    }
  } else if constexpr (std::is_same_v<Request, DeleteItemRequest>) {
    event.op = "DeleteItem";
    MakeKnown(state, request.table_name);
    item(request.table_name, "", &request.key);
  } else if constexpr (std::is_same_v<Request, GetItemRequest>) {
    event.op = "GetItem";
    MakeKnown(state, request.table_name);
    item(request.table_name, "", &request.key);
    event.consistent = request.consistent_read;
    event.missing = result.ok() && !result->item;
  } else if constexpr (std::is_same_v<Request, ScanRequest>) {
    event.op = "Scan";
    MakeKnown(state, request.table_name);
    item(request.table_name, "", nullptr);
    if (request.index_name) event.index = *request.index_name;
    event.consistent = request.consistent_read;
    if (result.ok()) event.scanned = result->scanned_count;
  } else if constexpr (std::is_same_v<Request, BatchGetItemRequest>) {
    event.op = "BatchGetItem";
    for (const auto& [table, keys] : request.request_items) {
      MakeKnown(state, table);
      for (const Item& key : keys.keys) item(table, "get", &key);
      event.consistent = event.consistent || keys.consistent_read;
    }
  } else if constexpr (std::is_same_v<Request, BatchWriteItemRequest>) {
    event.op = "BatchWriteItem";
    for (const auto& [table, writes] : request.request_items) {
      MakeKnown(state, table);
      for (const WriteRequest& w : writes) {
        if (w.kind == WriteRequest::Kind::kPut) {
          item(table, "put", &w.item, static_cast<int64_t>(ItemSize(w.item)));
        } else {
          item(table, "delete", &w.item);
        }
      }
    }
  } else if constexpr (std::is_same_v<Request, TransactGetItemsRequest>) {
    event.op = "TransactGetItems";
    for (const TransactGetItem& g : request.transact_items) {
      MakeKnown(state, g.get.table_name);
      item(g.get.table_name, "get", &g.get.key);
    }
  } else if constexpr (std::is_same_v<Request, TransactWriteItemsRequest>) {
    event.op = "TransactWriteItems";
    for (const TransactWriteItem& a : request.transact_items) {
      if (a.put) {
        MakeKnown(state, a.put->table_name);
        item(a.put->table_name, "put", &a.put->item, static_cast<int64_t>(ItemSize(a.put->item)));
      } else if (a.update) {
        MakeKnown(state, a.update->table_name);
        item(a.update->table_name, "update", &a.update->key);
      } else if (a.del) {
        MakeKnown(state, a.del->table_name);
        item(a.del->table_name, "delete", &a.del->key);
      } else if (a.condition_check) {
        MakeKnown(state, a.condition_check->table_name);
        item(a.condition_check->table_name, "check", &a.condition_check->key);
      }
    }
  } else {
    static_assert(sizeof(Request) == 0, "an operation traces do not know");
  }
  if (result.ok()) {
    event.half_units = HalfUnits(result->consumed_capacity);
    Narrow(result->consumed_capacity, request.return_consumed_capacity);
  }
  Finish(state, event, result.status());
  return result;
}

// Query (Query and QueryView): `run(request, &key)` sets `key` to the partition key it reads.
template <typename Run>
auto TracedQuery(DatabaseState& state, const QueryRequest& request, Run&& run)
    -> decltype(run(request, nullptr)) {
  QueryRequest copy = request;
  copy.return_consumed_capacity = Wider(request.return_consumed_capacity);
  Item key;
  auto result = [&] {
    TracedCall inside;
    return run(copy, &key);
  }();
  MakeKnown(state, request.table_name);
  TraceEvent event{.op = "Query"};
  if (request.index_name) event.index = *request.index_name;
  event.items.push_back({request.table_name, "", &key, -1});
  event.consistent = request.consistent_read;
  event.backward = !request.scan_index_forward;
  if (result.ok()) {
    event.scanned = result->scanned_count;
    event.half_units = HalfUnits(result->consumed_capacity);
    Narrow(result->consumed_capacity, request.return_consumed_capacity);
  }
  Finish(state, event, result.status());
  return result;
}

}  // namespace partstore::internal
