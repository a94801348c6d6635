// One attempt of each operation kind (simulation_internal.h): the request built from the mix
// entry and the request's values, sent to the Database (its sharded calls when the workload has
// sharding policies; single-item operations and queries of an unsharded run go straight to the
// table looked up at set-up), and its answer classified as the client sees it: served, throttled
// (retried), throttled for good, a failed condition, or an error. A batch's unprocessed part is
// kept for its retry.
#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "partstore/error_detail.h"
#include "tools/simulator/simulation_internal.h"

namespace partstore::sim::internal {

Attempt Driver::Classify(const Status& status) {
  Attempt a;
  switch (status.code()) {
    case Code::kOk:
      a.outcome = Outcome::kServed;
      break;
    case Code::kProvisionedThroughputExceeded:
    case Code::kThrottling:
    case Code::kRequestLimitExceeded:
      a.outcome = Outcome::kThrottled;
      break;
    case Code::kConditionalCheckFailed:
      a.outcome = Outcome::kConditionFailed;
      break;
    case Code::kTransactionCanceled: {
      // The SDKs do not retry a cancelled transaction: throttled actions end it for good.
      a.outcome = Outcome::kConditionFailed;
      if (const ErrorDetail* detail = status.detail(); detail != nullptr) {
        for (const CancellationReason& r : detail->cancellation_reasons) {
          if (r.code == "ProvisionedThroughputExceeded" || r.code == "ThrottlingError") {
            a.outcome = Outcome::kThrottledFinal;
          }
        }
      }
      break;
    }
    default:
      a.outcome = Outcome::kError;
      a.error = std::string(CodeName(status.code())) + ": " + std::string(status.message());
      break;
  }
  return a;
}

Attempt Driver::Get(Entry& entry, const RequestSpec& spec) {
  GetItemRequest& request = entry.get;
  if (request.table_name.empty()) {
    request.table_name = entry.op->table;
    request.consistent_read = entry.op->consistent_read;
  }
  SetString(request.key, entry.table_keys.partition, entry.op->key, spec);
  if (entry.table_keys.sort && entry.op->sort) {
    SetString(request.key, *entry.table_keys.sort, *entry.op->sort, spec);
  }
  if (entry.cache != nullptr) return Classify(entry.cache->GetItemView(request).status());
  if (sharded_) return Classify(db_.ShardedGetItem(request).status());
  if (!entry.get_prepared) {
    Result<PreparedProjection> prepared = PrepareGet(request, request.table_name, nullptr);
    if (!prepared.ok()) return Classify(prepared.status());
    entry.get_prepared = *std::move(prepared);
  }
  // The item as stored (a handle, no copy): the run reads only its consumed capacity.
  return Classify(entry.table->GetItemView(request, *entry.get_prepared).status());
}

Attempt Driver::Put(Entry& entry, const RequestSpec& spec) {
  PutItemRequest& request = entry.put;
  const Operation& op = *entry.op;
  if (request.table_name.empty()) request.table_name = op.table;
  Item& item = request.item;
  SetString(item, entry.table_keys.partition, op.key, spec);
  if (entry.table_keys.sort && op.sort) SetString(item, *entry.table_keys.sort, *op.sort, spec);
  for (const auto& [name, value] : op.attributes) SetString(item, name, value, spec);
  // The padding: the drawn size less what the rest of the item takes.
  auto pad = item.find(kPaddingAttribute);
  if (pad == item.end())
    pad = item.insert_or_assign(std::string(kPaddingAttribute), Value(std::string())).first;
  std::string* data = pad->second.if_string();
  data->clear();  // not counted below
  // ItemSize of an item of string attributes, without its generic walk.
  int64_t rest = 0;
  for (const auto& [name, value] : item) {
    const std::string* text = value.if_string();
    rest += static_cast<int64_t>(name.size() + (text != nullptr ? text->size() : ValueSize(value)));
  }
  const int64_t bytes = spec.size;
  if (bytes > rest) FillPadding(entry.padding, static_cast<size_t>(bytes - rest), *data);
  if (data->empty()) item.erase(pad);
  if (entry.cache != nullptr) return Classify(entry.cache->PutItem(request).status());
  if (sharded_) return Classify(db_.ShardedPutItem(request).status());
  if (!entry.put_prepared) {
    Result<PreparedCondition> prepared = PreparePut(request, request.table_name, nullptr);
    if (!prepared.ok()) return Classify(prepared.status());
    entry.put_prepared = *std::move(prepared);
  }
  return Classify(entry.table->PutItem(request, *entry.put_prepared).status());
}

Attempt Driver::Update(Entry& entry, const RequestSpec& spec) {
  const Operation& op = *entry.op;
  UpdateItemRequest request{.table_name = op.table,
                            .key = KeyOf(entry, spec),
                            .update_expression = entry.update_expression};
  expr::NameMap names{{"#c", op.counter}};
  AttributeMap values{{":one", Value(1)}};
  for (size_t a = 0; a < op.attributes.size(); ++a) {
    names.emplace("#a" + std::to_string(a), op.attributes[a].first);
    Expand(op.attributes[a].second, spec, scratch_);
    values.insert_or_assign(":a" + std::to_string(a), Value(scratch_));
  }
  if (op.size) {
    names.emplace("#d", std::string(kPaddingAttribute));
    // The item's size is not known before the update: the drawn size is the data attribute's.
    std::string data;
    FillPadding(entry.padding, static_cast<size_t>(std::max<int64_t>(spec.size, 1)), data);
    values.insert_or_assign(":d", Value(std::move(data)));
  }
  request.expression_attribute_names = std::move(names);
  request.expression_attribute_values = std::move(values);
  if (entry.cache != nullptr) return Classify(entry.cache->UpdateItem(request).status());
  if (sharded_) return Classify(db_.ShardedUpdateItem(request).status());
  return Classify(entry.table->UpdateItem(request).status());
}

Attempt Driver::Delete(Entry& entry, const RequestSpec& spec) {
  DeleteItemRequest request{.table_name = entry.op->table, .key = KeyOf(entry, spec)};
  if (entry.cache != nullptr) return Classify(entry.cache->DeleteItem(request).status());
  if (sharded_) return Classify(db_.ShardedDeleteItem(request).status());
  return Classify(entry.table->DeleteItem(request).status());
}

Attempt Driver::Query(Entry& entry, const RequestSpec& spec) {
  const Operation& op = *entry.op;
  QueryRequest request;
  request.table_name = op.table;
  request.index_name = op.index;
  request.key_condition_expression = entry.query_expression;
  expr::NameMap names{{"#pk", entry.read_keys.partition}};
  AttributeMap values;
  Expand(op.key, spec, scratch_);
  values.insert_or_assign(":pk", Value(scratch_));
  if (op.sort_prefix && entry.read_keys.sort) {
    names.emplace("#sk", *entry.read_keys.sort);
    Expand(*op.sort_prefix, spec, scratch_);
    values.insert_or_assign(":sp", Value(scratch_));
  }
  request.expression_attribute_names = std::move(names);
  request.expression_attribute_values = std::move(values);
  if (op.limit > 0) request.limit = op.limit;
  request.scan_index_forward = op.scan_forward;
  request.consistent_read = op.consistent_read;
  if (entry.cache != nullptr) return Classify(entry.cache->QueryView(request).status());
  if (sharded_) return Classify(db_.ShardedQuery(request).status());
  return Classify(entry.table->Query(request).status());
}

Attempt Driver::Scan(Entry& entry) {
  const Operation& op = *entry.op;
  ScanRequest request;
  request.table_name = op.table;
  request.index_name = op.index;
  if (op.limit > 0) request.limit = op.limit;
  request.consistent_read = op.consistent_read;
  request.exclusive_start_key = entry.scan_cursor;
  Store& store = entry.cache != nullptr ? static_cast<Store&>(*entry.cache) : db_;
  auto scanned = store.Scan(request);
  if (scanned.ok()) entry.scan_cursor = std::move(scanned->last_evaluated_key);
  return Classify(scanned.status());
}

Attempt Driver::BatchWrite(Entry& entry, Pending& pending) {
  std::unique_ptr<BatchWriteItemRequest> request = std::move(pending.writes);
  if (request == nullptr) {
    request = std::make_unique<BatchWriteItemRequest>();
    std::vector<WriteRequest> writes;
    for (const RequestSpec& spec : pending.specs) {
      writes.push_back({WriteRequest::Kind::kPut, ItemOf(entry, spec)});
    }
    request->request_items.emplace_back(entry.op->table, std::move(writes));
  }
  Attempt a;
  BatchWriteItemResult result;
  if (sharded_) {
    auto written = db_.ShardedBatchWriteItem(*request);
    a = Classify(written.status());
    if (written.ok()) result = std::move(written->result);
  } else {
    Store& store = entry.cache != nullptr ? static_cast<Store&>(*entry.cache) : db_;
    auto written = store.BatchWriteItem(*request);
    a = Classify(written.status());
    if (written.ok()) result = std::move(*written);
  }
  if (a.outcome == Outcome::kThrottled) {
    a.unprocessed_writes = std::move(request);  // nothing was written: all of it again
  } else if (a.outcome == Outcome::kServed && !result.unprocessed_items.empty()) {
    a.outcome = Outcome::kThrottled;
    a.unprocessed_writes = std::make_unique<BatchWriteItemRequest>();
    a.unprocessed_writes->request_items = std::move(result.unprocessed_items);
  }
  return a;
}

Attempt Driver::BatchGet(Entry& entry, Pending& pending) {
  std::unique_ptr<BatchGetItemRequest> request = std::move(pending.reads);
  if (request == nullptr) {
    request = std::make_unique<BatchGetItemRequest>();
    KeysAndAttributes keys;
    keys.consistent_read = entry.op->consistent_read;
    for (const RequestSpec& spec : pending.specs) keys.keys.push_back(KeyOf(entry, spec));
    request->request_items.emplace_back(entry.op->table, std::move(keys));
  }
  Store& store = entry.cache != nullptr ? static_cast<Store&>(*entry.cache) : db_;
  auto read = store.BatchGetItem(*request);
  Attempt a = Classify(read.status());
  if (a.outcome == Outcome::kThrottled) {
    a.unprocessed_reads = std::move(request);
  } else if (a.outcome == Outcome::kServed && !read->unprocessed_keys.empty()) {
    a.outcome = Outcome::kThrottled;
    a.unprocessed_reads = std::make_unique<BatchGetItemRequest>();
    a.unprocessed_reads->request_items = std::move(read->unprocessed_keys);
  }
  return a;
}

Attempt Driver::TransactWrite(Entry& entry, const Pending& pending) {
  TransactWriteItemsRequest request;
  for (const RequestSpec& spec : pending.specs) {
    TransactWriteItem item;
    item.put = PutItemRequest{.table_name = entry.op->table, .item = ItemOf(entry, spec)};
    request.transact_items.push_back(std::move(item));
  }
  if (sharded_) return Classify(db_.ShardedTransactWriteItems(request).status());
  Store& store = entry.cache != nullptr ? static_cast<Store&>(*entry.cache) : db_;
  return Classify(store.TransactWriteItems(request).status());
}

Attempt Driver::TransactGet(Entry& entry, const Pending& pending) {
  TransactGetItemsRequest request;
  for (const RequestSpec& spec : pending.specs) {
    request.transact_items.push_back(
        {GetItemRequest{.table_name = entry.op->table, .key = KeyOf(entry, spec)}});
  }
  Store& store = entry.cache != nullptr ? static_cast<Store&>(*entry.cache) : db_;
  return Classify(store.TransactGetItems(request).status());
}

Attempt Driver::Execute(Entry& entry, Pending& pending) {
  if (pending.record >= 0) return Replayed(entry, pending);
  const RequestSpec& spec = pending.specs.front();
  switch (entry.op->kind) {
    case OpKind::kGet:
      return Get(entry, spec);
    case OpKind::kPut:
      return Put(entry, spec);
    case OpKind::kUpdate:
      return Update(entry, spec);
    case OpKind::kDelete:
      return Delete(entry, spec);
    case OpKind::kQuery:
      return Query(entry, spec);
    case OpKind::kScan:
      return Scan(entry);
    case OpKind::kBatchGet:
      return BatchGet(entry, pending);
    case OpKind::kBatchWrite:
      return BatchWrite(entry, pending);
    case OpKind::kTransactWrite:
      return TransactWrite(entry, pending);
    case OpKind::kTransactGet:
      return TransactGet(entry, pending);
  }
  return {};
}

}  // namespace partstore::sim::internal
