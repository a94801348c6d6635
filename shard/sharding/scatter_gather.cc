#include "shard/sharding/scatter_gather.h"

#include <algorithm>
#include <deque>
#include <future>
#include <memory>
#include <queue>

#include "core/expr/evaluate.h"
#include "core/expr/key_condition.h"
#include "shard/read_page.h"
#include "shard/sharding/item_routing.h"

namespace partstore::sharding {

void AddConsumedCapacity(const std::optional<ConsumedCapacity>& part,
                         std::optional<ConsumedCapacity>* total) {
  if (!part) return;
  if (!*total) {
    *total = part;
    return;
  }
  ConsumedCapacity& sum = **total;
  sum.total_half_units += part->total_half_units;
  if (part->table_half_units) {
    sum.table_half_units = sum.table_half_units.value_or(0) + *part->table_half_units;
  }
  for (const auto& [name, units] : part->global_secondary_indexes) {
    sum.global_secondary_indexes[name] += units;
  }
  for (const auto& [name, units] : part->local_secondary_indexes) {
    sum.local_secondary_indexes[name] += units;
  }
}

namespace {

// The per-shard form of a sharded read: a copy of the request whose partition key value is
// switched from shard to shard, prepared once, without the filter and projection (they apply to
// the merged stream).
struct ShardReader {
  const Table* table = nullptr;
  const Policy* policy = nullptr;  // null: the key is not sharded (read as it is)
  std::string index;               // the index queried, or empty
  std::string key_attribute;       // the partition key attribute queried
  std::vector<std::string> key_attributes;  // the table's and the index's key attributes
  std::string logical;
  QueryRequest request;
  PreparedRead prepared;
  Value* partition_value = nullptr;  // in request.expression_attribute_values
  int32_t reads = 0;
  std::optional<ConsumedCapacity> consumed;

  int32_t shard_count() const { return policy ? policy->shard_count() : 1; }

  // One Query of `shard` from `start` (exclusive, or inclusive) for at most `limit` items.
  Result<QueryResult> Read(int32_t shard, const std::optional<Item>& start, bool inclusive,
                           std::optional<int32_t> limit) {
    if (policy != nullptr) *partition_value = Value(policy->ShardKey(logical, shard));
    request.exclusive_start_key = start;
    request.limit = limit;
    ++reads;
    PARTSTORE_ASSIGN_OR_RETURN(QueryResult page,
                               table->Query(request, prepared, {.start_inclusive = inclusive}));
    AddConsumedCapacity(page.consumed_capacity, &consumed);
    return page;
  }

  // The item as the unsharded Query would return it (before the filter and projection).
  void Present(const PolicySet& policies, Item* item) const {
    sharding::Present(policies, item);
    if (policy == nullptr) return;
    // Index entries that do not carry the logical key attribute still have the key queried.
    if (auto it = item->find(key_attribute); it != item->end()) it->second = Value(logical);
  }
};

Result<std::unique_ptr<ShardReader>> MakeReader(const Table& table, const PolicySet& policies,
                                                const QueryRequest& request,
                                                const PreparedRead& prepared,
                                                expr::ExpressionCache* cache) {
  if (request.key_conditions || request.query_filter || request.attributes_to_get ||
      request.conditional_operator) {
    return Status::Validation(
        "Sharded reads take KeyConditionExpression, FilterExpression and ProjectionExpression; "
        "the legacy KeyConditions, QueryFilter, AttributesToGet and ConditionalOperator are not "
        "supported");
  }
  if (!prepared.key_condition) {
    return Status::Validation(
        "Either the KeyConditions or KeyConditionExpression parameter must be specified in the "
        "request.");
  }
  auto reader = std::make_unique<ShardReader>();
  reader->table = &table;
  KeySchema schema = table.key_schema();
  bool global = false;
  if (request.index_name) {
    bool found = false;
    for (const IndexDefinition& definition : table.index_definitions()) {
      if (definition.name != *request.index_name) continue;
      found = true;
      global = definition.kind == IndexKind::kGlobal;
      schema = definition.key;
      if (!global) schema.partition = table.key_schema().partition;
    }
    if (!found) {
      return Status::Validation("The table does not have the specified index: " +
                                *request.index_name);
    }
    reader->index = *request.index_name;
  }
  PARTSTORE_ASSIGN_OR_RETURN(expr::KeyCondition keys,
                             expr::AnalyzeKeyCondition(*prepared.key_condition, schema));
  PARTSTORE_RETURN_IF_ERROR(table.CheckFilterNamesNoKey(prepared, schema));

  reader->request = request;
  PARTSTORE_ASSIGN_OR_RETURN(reader->prepared,
                             PrepareQuery(reader->request, request.table_name, cache));
  reader->prepared.filter.reset();
  reader->prepared.projection.reset();
  reader->prepared.select = request.index_name && prepared.select != Select::kAllAttributes
                                ? Select::kAllProjectedAttributes
                                : Select::kAllAttributes;

  reader->key_attribute = schema.partition.name;
  for (const KeySchema* keys_of : {&table.key_schema(), static_cast<const KeySchema*>(&schema)}) {
    for (const KeyAttribute* a : {&keys_of->partition, keys_of->sort ? &*keys_of->sort : nullptr}) {
      if (a != nullptr && std::find(reader->key_attributes.begin(), reader->key_attributes.end(),
                                    a->name) == reader->key_attributes.end()) {
        reader->key_attributes.push_back(a->name);
      }
    }
  }
  if (!keys.partition->is(Type::kS)) return reader;
  reader->logical = keys.partition->as_string();
  reader->policy = policies.Find(global ? reader->index : "", reader->logical);
  if (reader->policy == nullptr) return reader;
  if (keys.sort_low == keys.partition || keys.sort_high == keys.partition) {
    return Status::Validation(
        "A sharded read needs the partition key's value in its own ExpressionAttributeValues "
        "placeholder (the sort key condition uses the same one)");
  }
  for (auto& [name, value] : *request.expression_attribute_values) {
    if (&value == keys.partition) {
      reader->partition_value = &reader->request.expression_attribute_values->find(name)->second;
    }
  }
  return reader;
}

// One shard's side of the merge.
struct Cursor {
  struct Entry {
    std::string order;
    Item item;  // physical
  };
  std::deque<Entry> buffer;
  std::optional<Item> start;
  bool inclusive = false;
  bool done = false;
  int32_t next_read = 1;
};

// Reads the next page of `shard` into its cursor.
Status Refill(ShardReader& reader, Cursor& cursor, int32_t shard, int32_t limit, int32_t cap) {
  PARTSTORE_ASSIGN_OR_RETURN(QueryResult page,
                             reader.Read(shard, cursor.start, cursor.inclusive, limit));
  PARTSTORE_ASSIGN_OR_RETURN(std::vector<std::string> orders,
                             reader.table->QueryOrderKeys(reader.index, page.items));
  for (size_t i = 0; i < page.items.size(); ++i) {
    cursor.buffer.push_back({std::move(orders[i]), std::move(page.items[i])});
  }
  cursor.start = std::move(page.last_evaluated_key);
  cursor.inclusive = false;
  cursor.done = !cursor.start.has_value();
  cursor.next_read = std::min(cap, cursor.next_read * 2);
  return Status::Ok();
}

// Refills until the cursor has an item or its shard is read to the end.
Status Fill(ShardReader& reader, Cursor& cursor, int32_t shard, int32_t limit, int32_t cap) {
  while (cursor.buffer.empty() && !cursor.done) {
    PARTSTORE_RETURN_IF_ERROR(Refill(reader, cursor, shard, limit, cap));
  }
  return Status::Ok();
}

}  // namespace

Result<ShardedQueryResult> ScatterGatherQuery(const Table& table, const PolicySet& policies,
                                              const QueryRequest& request,
                                              const PreparedRead& prepared,
                                              expr::ExpressionCache* cache,
                                              ShardedQueryOptions options) {
  PARTSTORE_ASSIGN_OR_RETURN(std::unique_ptr<ShardReader> reader,
                             MakeReader(table, policies, request, prepared, cache));
  ShardedQueryResult out;
  if (policies.empty()) {
    PARTSTORE_ASSIGN_OR_RETURN(out.result, table.Query(request, prepared));
    return out;
  }
  // An unsharded key is one shard (its items may still carry sharded GSI keys to present).
  const Policy* policy = reader->policy;
  const int32_t n = reader->shard_count();
  const bool forward = request.scan_index_forward.value_or(true);
  const int64_t limit = request.limit ? *request.limit : INT64_MAX;
  // First reads: a share of the Limit with room for skew; 64 items without a Limit.
  // Reads double up to `cap` items (a page stops at 1 MB anyway).
  const int32_t cap = request.limit ? std::min<int32_t>(*request.limit, 4096) : 1024;
  const int32_t first_read =
      request.limit
          ? static_cast<int32_t>(std::min<int64_t>(
                cap, std::max<int64_t>(2, (3 * int64_t{*request.limit}) / (2 * n) + 1)))
          : 64;

  std::vector<Cursor> cursors(static_cast<size_t>(n));
  for (Cursor& cursor : cursors) cursor.next_read = first_read;
  if (request.exclusive_start_key) {
    const Item& start = *request.exclusive_start_key;
    auto it = start.find(reader->key_attribute);
    int32_t last_shard = 0;
    if (policy != nullptr) {
      last_shard = it != start.end() && it->second.is(Type::kS)
                       ? policy->ShardOf(it->second.as_string(), reader->logical)
                       : -1;
    }
    if (last_shard < 0) {
      return Status::Validation(
          "The provided starting key is outside query boundaries based on provided conditions");
    }
    for (int32_t shard = 0; shard < n; ++shard) {
      Cursor& cursor = cursors[static_cast<size_t>(shard)];
      cursor.start = start;
      if (policy != nullptr) {
        cursor.start->insert_or_assign(reader->key_attribute,
                                       Value(policy->ShardKey(reader->logical, shard)));
      }
      cursor.inclusive = forward ? shard > last_shard : shard < last_shard;
    }
  }

  // The first read of every shard: in turn, or one thread per shard (each with its own reader).
  if (options.concurrent_first_reads && n > 1) {
    std::vector<std::future<Status>> reads;
    std::vector<std::unique_ptr<ShardReader>> readers(static_cast<size_t>(n));
    for (int32_t shard = 0; shard < n; ++shard) {
      PARTSTORE_ASSIGN_OR_RETURN(readers[static_cast<size_t>(shard)],
                                 MakeReader(table, policies, request, prepared, cache));
    }
    for (int32_t shard = 0; shard < n; ++shard) {
      reads.push_back(std::async(std::launch::async, [&, shard] {
        return Fill(*readers[static_cast<size_t>(shard)], cursors[static_cast<size_t>(shard)],
                    shard, first_read, cap);
      }));
    }
    Status first_error = Status::Ok();
    for (auto& read : reads) {
      Status status = read.get();
      if (first_error.ok() && !status.ok()) first_error = std::move(status);
    }
    PARTSTORE_RETURN_IF_ERROR(first_error);
    for (const auto& shard_reader : readers) {
      reader->reads += shard_reader->reads;
      AddConsumedCapacity(shard_reader->consumed, &reader->consumed);
    }
  } else {
    for (int32_t shard = 0; shard < n; ++shard) {
      PARTSTORE_RETURN_IF_ERROR(
          Fill(*reader, cursors[static_cast<size_t>(shard)], shard, first_read, cap));
    }
  }

  // The merge: a heap of shards by their next item, (order, shard) ascending (descending
  // backward); the top is the next item of the merged stream.
  auto after = [&](int32_t a, int32_t b) {  // whether a's head comes after b's
    const std::string& x = cursors[static_cast<size_t>(a)].buffer.front().order;
    const std::string& y = cursors[static_cast<size_t>(b)].buffer.front().order;
    if (x != y) return forward ? x > y : x < y;
    return forward ? a > b : a < b;
  };
  std::priority_queue<int32_t, std::vector<int32_t>, decltype(after)> heap(after);
  for (int32_t shard = 0; shard < n; ++shard) {
    if (!cursors[static_cast<size_t>(shard)].buffer.empty()) heap.push(shard);
  }

  ReadPage page(prepared.filter, prepared.projection, prepared.select, request.limit);
  int64_t merged = 0;
  Item last;  // the key attributes of the last item merged, physical
  while (!page.full() && !heap.empty()) {
    const int32_t shard = heap.top();
    heap.pop();
    Cursor& cursor = cursors[static_cast<size_t>(shard)];
    Item item = std::move(cursor.buffer.front().item);
    cursor.buffer.pop_front();
    last.clear();
    for (const std::string& name : reader->key_attributes) {
      if (auto it = item.find(name); it != item.end()) last.emplace(name, it->second);
    }
    reader->Present(policies, &item);
    page.Add(std::move(item));
    ++merged;
    if (cursor.buffer.empty() && !cursor.done && !page.full()) {
      const int64_t room = limit - merged;
      PARTSTORE_RETURN_IF_ERROR(Fill(
          *reader, cursor, shard,
          static_cast<int32_t>(std::min<int64_t>(cursor.next_read, room)), cap));
    }
    if (!cursor.buffer.empty()) heap.push(shard);
  }
  // As Query: a full page (Limit or 1 MB) has a LastEvaluatedKey, even when nothing is left.
  const bool full = page.full();
  out.result = std::move(page).Finish();
  if (full) {
    PARTSTORE_ASSIGN_OR_RETURN(out.result.last_evaluated_key,
                               table.QueryLastEvaluatedKey(reader->index, last));
  }
  out.result.consumed_capacity = std::move(reader->consumed);
  out.shards_queried = n;
  out.shard_reads = reader->reads;
  return out;
}

Result<ShardedAggregateResult> AggregateShards(const Table& table, const PolicySet& policies,
                                               const ShardedAggregateRequest& request,
                                               const PreparedRead& prepared,
                                               expr::ExpressionCache* cache) {
  PARTSTORE_ASSIGN_OR_RETURN(std::unique_ptr<ShardReader> reader,
                             MakeReader(table, policies, request.query, prepared, cache));
  ShardedAggregateResult out;
  if (request.sum_attribute) {
    if (request.sum_attribute->empty()) {
      return Status::Validation("SumAttribute must not be empty");
    }
    out.sum = Number();
  }
  if (request.query.exclusive_start_key) {
    return Status::Validation(
        "ShardedAggregate reads every shard to its end: ExclusiveStartKey is not supported");
  }
  const int32_t n = reader->shard_count();
  for (int32_t shard = 0; shard < n; ++shard) {
    std::optional<Item> start;
    do {
      PARTSTORE_ASSIGN_OR_RETURN(QueryResult page, reader->Read(shard, start, false, std::nullopt));
      for (Item& item : page.items) {
        ++out.scanned_count;
        reader->Present(policies, &item);
        if (prepared.filter && !expr::Evaluate(*prepared.filter, &item)) continue;
        ++out.count;
        if (!out.sum) continue;
        auto it = item.find(*request.sum_attribute);
        if (it == item.end() || !it->second.is(Type::kN)) continue;
        PARTSTORE_ASSIGN_OR_RETURN(*out.sum, Number::Add(*out.sum, it->second.as_number()));
        ++out.summed_items;
      }
      start = std::move(page.last_evaluated_key);
    } while (start);
  }
  out.shards_queried = n;
  out.shard_reads = reader->reads;
  out.consumed_capacity = std::move(reader->consumed);
  return out;
}

}  // namespace partstore::sharding
