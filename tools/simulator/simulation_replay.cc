// Replay (simulation_internal.h, trace_replay.h): a recorded request offered at its time and sent
// as the engine request that consumes what the recorded one did: the recorded keys, items padded
// to the recorded sizes, a Query's or Scan's Limit at the recorded ScannedCount. Retries, the
// tally and the report are the simulated client's, as for a workload's requests.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tools/simulator/simulation_internal.h"

namespace partstore::sim::internal {

namespace {

// An attribute no replayed item has: a condition on it fails (attribute_exists) or holds
// (attribute_not_exists) without reading anything else.
constexpr std::string_view kAbsent = "partstore_replay_absent";
// What an update whose new item was not recorded sets.
constexpr std::string_view kTouched = "partstore_replay";

}  // namespace

Item Driver::ReplayedItem(const ReplayItem& item, bool table_key_only, int64_t size) const {
  const KeyNames keys = NamesOf(item.table, std::nullopt);
  Item out;
  for (const auto& [name, text] : item.key) {
    if (table_key_only && name != keys.partition && (!keys.sort || name != *keys.sort)) continue;
    out.insert_or_assign(name, Value(text));
  }
  // A key attribute the trace lacks (a Query's or a hashed key's): one stand-in value.
  if (out.find(keys.partition) == out.end()) out.insert_or_assign(keys.partition, Value("-"));
  if (keys.sort && out.find(*keys.sort) == out.end()) out.insert_or_assign(*keys.sort, Value("-"));
  if (size > 0) PadTo(out, size, PaddingOf(item.table));
  return out;
}

void Driver::OfferRecord(int64_t record, int64_t now) {
  const ReplayRequest& r = replay_->requests[static_cast<size_t>(record)];
  Pending pending;
  pending.phase = 0;
  pending.entry = r.entry;
  pending.first_micros = now;
  pending.record = record;
  ++tally_.operations[0][r.entry].offered;
  ++tally_.Second(now).offered;
  Send(std::move(pending), now);
}

Attempt Driver::Replayed(Entry& entry, Pending& pending) {
  const ReplayRequest& r = replay_->requests[static_cast<size_t>(pending.record)];
  const ReplayItem& first = r.items.front();
  auto failing = [&](auto& request) {  // a write whose recorded condition failed
    if (!r.condition_failed) return;
    request.condition_expression = "attribute_exists(#absent)";
    if (!request.expression_attribute_names) request.expression_attribute_names.emplace();
    request.expression_attribute_names->insert_or_assign("#absent", std::string(kAbsent));
  };
  auto update = [&](const ReplayItem& item) {
    UpdateItemRequest request{.table_name = item.table,
                              .key = ReplayedItem(item, true),
                              .update_expression = "SET #touched = :one"};
    request.expression_attribute_names = expr::NameMap{{"#touched", std::string(kTouched)}};
    request.expression_attribute_values = AttributeMap{{":one", Value(1)}};
    return request;
  };
  switch (r.kind) {
    case OpKind::kPut:
    case OpKind::kUpdate: {
      if (r.kind == OpKind::kUpdate && first.size < 0) {
        UpdateItemRequest request = update(first);
        failing(request);
        return Classify(sharded_ ? db_.ShardedUpdateItem(request).status()
                                 : entry.table->UpdateItem(request).status());
      }
      PutItemRequest request{.table_name = first.table,
                             .item = ReplayedItem(first, false, first.size)};
      failing(request);
      return Classify(sharded_ ? db_.ShardedPutItem(request).status()
                               : entry.table->PutItem(request).status());
    }
    case OpKind::kDelete: {
      DeleteItemRequest request{.table_name = first.table, .key = ReplayedItem(first, true)};
      failing(request);
      return Classify(sharded_ ? db_.ShardedDeleteItem(request).status()
                               : entry.table->DeleteItem(request).status());
    }
    case OpKind::kGet: {
      GetItemRequest request{.table_name = first.table, .key = ReplayedItem(first, true)};
      request.consistent_read = r.consistent;
      return Classify(sharded_ ? db_.ShardedGetItem(request).status()
                               : entry.table->GetItem(request).status());
    }
    case OpKind::kQuery: {
      QueryRequest request;
      request.table_name = first.table;
      if (!r.index.empty()) request.index_name = r.index;
      request.key_condition_expression = "#pk = :pk";
      request.expression_attribute_names = expr::NameMap{{"#pk", entry.read_keys.partition}};
      std::string pk = "-";
      for (const auto& [name, text] : first.key) {
        if (name == entry.read_keys.partition) pk = text;
      }
      request.expression_attribute_values = AttributeMap{{":pk", Value(pk)}};
      request.limit = std::max(r.scanned, 1);
      request.scan_index_forward = !r.backward;
      request.consistent_read = r.consistent;
      return Classify(sharded_ ? db_.ShardedQuery(request).status()
                               : entry.table->Query(request).status());
    }
    case OpKind::kScan: {
      ScanRequest request;
      request.table_name = first.table;
      if (!r.index.empty()) request.index_name = r.index;
      request.limit = std::max(r.scanned, 1);
      request.consistent_read = r.consistent;
      request.exclusive_start_key = entry.scan_cursor;
      auto scanned = db_.Scan(request);
      if (scanned.ok()) entry.scan_cursor = std::move(scanned->last_evaluated_key);
      return Classify(scanned.status());
    }
    case OpKind::kBatchWrite: {
      if (pending.writes == nullptr) {
        pending.writes = std::make_unique<BatchWriteItemRequest>();
        std::map<std::string, std::vector<WriteRequest>> tables;
        for (const ReplayItem& item : r.items) {
          if (item.action == "delete") {
            tables[item.table].push_back({WriteRequest::Kind::kDelete, ReplayedItem(item, true)});
          } else {
            tables[item.table].push_back(
                {WriteRequest::Kind::kPut, ReplayedItem(item, false, item.size)});
          }
        }
        for (auto& [table, writes] : tables) {
          pending.writes->request_items.emplace_back(table, std::move(writes));
        }
      }
      return BatchWrite(entry, pending);
    }
    case OpKind::kBatchGet: {
      if (pending.reads == nullptr) {
        pending.reads = std::make_unique<BatchGetItemRequest>();
        std::map<std::string, KeysAndAttributes> tables;
        for (const ReplayItem& item : r.items) {
          KeysAndAttributes& keys = tables[item.table];
          keys.consistent_read = r.consistent;
          keys.keys.push_back(ReplayedItem(item, true));
        }
        for (auto& [table, keys] : tables) {
          pending.reads->request_items.emplace_back(table, std::move(keys));
        }
      }
      return BatchGet(entry, pending);
    }
    case OpKind::kTransactWrite: {
      TransactWriteItemsRequest request;
      for (const ReplayItem& item : r.items) {
        TransactWriteItem action;
        if (item.action == "delete") {
          action.del = DeleteItemRequest{.table_name = item.table, .key = ReplayedItem(item, true)};
        } else if (item.action == "check") {
          ConditionCheckRequest check{.table_name = item.table, .key = ReplayedItem(item, true)};
          check.condition_expression = "attribute_not_exists(#absent)";
          check.expression_attribute_names = expr::NameMap{{"#absent", std::string(kAbsent)}};
          action.condition_check = std::move(check);
        } else if (item.action == "update" && item.size < 0) {
          action.update = update(item);
        } else {
          action.put = PutItemRequest{.table_name = item.table,
                                      .item = ReplayedItem(item, false, item.size)};
        }
        request.transact_items.push_back(std::move(action));
      }
      return Classify(sharded_ ? db_.ShardedTransactWriteItems(request).status()
                               : db_.TransactWriteItems(request).status());
    }
    case OpKind::kTransactGet: {
      TransactGetItemsRequest request;
      for (const ReplayItem& item : r.items) {
        request.transact_items.push_back(
            {GetItemRequest{.table_name = item.table, .key = ReplayedItem(item, true)}});
      }
      return Classify(db_.TransactGetItems(request).status());
    }
  }
  return {};
}

}  // namespace partstore::sim::internal
