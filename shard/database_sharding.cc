// Database: write sharding (shard/sharding/). Policies live on their table (Table::
// sharding_policies); the sharded operations route logical keys to physical ones
// (item_routing.h), run the plain operations on them, and present what they return as unsharded.
#include <algorithm>
#include <set>

#include "core/expr/projection.h"
#include "shard/database_state.h"
#include "shard/database_trace.h"
#include "shard/persist/byte_codec.h"
#include "shard/persist/table_settings.h"
#include "shard/sharding/item_routing.h"
#include "shard/sharding/scatter_gather.h"

namespace partstore {

namespace {

using sharding::KeyRoute;
using sharding::KeyUse;
using sharding::PolicySet;

void PresentOptional(const PolicySet& policies, std::optional<Item>* item) {
  if (*item) sharding::Present(policies, &**item);
}

// The key attributes of the table and of every index: a logical key attribute must not be one.
std::vector<std::string> KeyAttributeNames(const Table& table) {
  std::vector<std::string> names = {table.key_schema().partition.name};
  if (table.key_schema().sort) names.push_back(table.key_schema().sort->name);
  for (const IndexDefinition& index : table.index_definitions()) {
    names.push_back(index.key.partition.name);
    if (index.key.sort) names.push_back(index.key.sort->name);
  }
  return names;
}

}  // namespace

Result<PutShardingPolicyResult> Database::PutShardingPolicy(
    const PutShardingPolicyRequest& request) {
  std::shared_lock control(state_->control_mu_);
  PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table, state_->GetTable(request.table_name));
  KeySchema schema = table->key_schema();
  if (request.policy.index_name) {
    bool found = false;
    for (const IndexDefinition& index : table->index_definitions()) {
      if (index.name != *request.policy.index_name) continue;
      if (index.kind != IndexKind::kGlobal) {
        return Status::Validation(
            "Sharding policies apply to a table or a global secondary index; " + index.name +
            " is a local secondary index (it shares the table's partition key: shard the table)");
      }
      found = true;
      schema = index.key;
    }
    if (!found) {
      return Status::Validation("The table does not have the specified index: " +
                                *request.policy.index_name);
    }
  }
  PARTSTORE_ASSIGN_OR_RETURN(
      std::shared_ptr<const sharding::Policy> policy,
      sharding::Policy::Make(request.policy, schema, KeyAttributeNames(*table)));

  std::unique_lock lock(state_->sharding_mu_);
  std::shared_ptr<const PolicySet> policies = table->sharding_policies();
  for (const auto& other : policies->policies()) {
    if (other->logical_attribute() == policy->logical_attribute() &&
        other->key_attribute() != policy->key_attribute()) {
      return Status::Validation("LogicalKeyAttribute " + policy->logical_attribute() +
                                " already holds the logical value of " + other->key_attribute());
    }
  }
  PutShardingPolicyResult result{policy->definition()};
  table->set_sharding_policies(std::make_shared<const PolicySet>(policies->With(policy)));
  if (state_->wal_) {
    std::string body;
    persist::EncodeShardingPolicy(request.policy, &body);
    state_->LogControl(persist::WalRecord::kPutShardingPolicy, table->log_number(), body);
  }
  lock.unlock();
  PARTSTORE_RETURN_IF_ERROR(state_->Durable());
  return result;
}

Result<DeleteShardingPolicyResult> Database::DeleteShardingPolicy(
    const DeleteShardingPolicyRequest& request) {
  std::shared_lock control(state_->control_mu_);
  PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table, state_->GetTable(request.table_name));
  // (Both arms string_view: "cond ? std::string : \"\"" would make a temporary std::string.)
  const std::string_view index =
      request.index_name ? std::string_view(*request.index_name) : std::string_view();
  std::unique_lock lock(state_->sharding_mu_);
  std::shared_ptr<const PolicySet> policies = table->sharding_policies();
  const sharding::Policy* policy = policies->FindDefinition(index, request.key, request.match);
  if (policy == nullptr) return Status::ResourceNotFound("Sharding policy not found");
  DeleteShardingPolicyResult result{policy->definition()};
  table->set_sharding_policies(
      std::make_shared<const PolicySet>(policies->Without(index, request.key, request.match)));
  if (state_->wal_) {
    std::string body;
    persist::ByteWriter writer(&body);
    writer.Bool(request.index_name.has_value());
    if (request.index_name) writer.String(*request.index_name);
    writer.String(request.key);
    writer.Byte(static_cast<uint8_t>(request.match));
    state_->LogControl(persist::WalRecord::kDeleteShardingPolicy, table->log_number(), body);
  }
  lock.unlock();
  PARTSTORE_RETURN_IF_ERROR(state_->Durable());
  return result;
}

void internal::DatabaseState::DropShardingPolicies(Table& table, std::string_view index) {
  std::lock_guard lock(sharding_mu_);
  std::shared_ptr<const PolicySet> policies = table.sharding_policies();
  PolicySet::PolicyList kept;
  for (const auto& policy : policies->policies()) {
    if (policy->index() != index) kept.push_back(policy);
  }
  if (kept.size() != policies->policies().size()) {
    table.set_sharding_policies(std::make_shared<const PolicySet>(std::move(kept)));
  }
}

Result<DescribeShardingPoliciesResult> Database::DescribeShardingPolicies(
    const DescribeShardingPoliciesRequest& request) {
  PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table, state_->GetTable(request.table_name));
  DescribeShardingPoliciesResult result;
  for (const auto& policy : table->sharding_policies()->policies()) {
    result.policies.push_back(policy->definition());
  }
  return result;
}

Result<ShardedPutItemResult> Database::ShardedPutItem(const PutItemRequest& request) {
  auto run = [&]() -> Result<ShardedPutItemResult> {
    PARTSTORE_ASSIGN_OR_RETURN(PreparedCondition prepared,
                               PreparePut(request, request.table_name, state_->cache_.get()));
    PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table, state_->GetTable(request.table_name));
    std::shared_ptr<const PolicySet> policies = table->sharding_policies();
    ShardedPutItemResult out;
    if (policies->empty()) {
      PARTSTORE_ASSIGN_OR_RETURN(out.result, table->PutItem(request, prepared));
      return out;
    }
    PutItemRequest physical = request;
    std::optional<int32_t> shard;
    PARTSTORE_ASSIGN_OR_RETURN(
        physical.item,
        sharding::ShardItem(*policies, table->key_schema(), std::move(physical.item), &shard));
    PARTSTORE_ASSIGN_OR_RETURN(out.result, table->PutItem(physical, prepared));
    PresentOptional(*policies, &out.result.attributes);
    out.shards = {.sharded = shard.has_value(), .shards_touched = 1, .shard = shard};
    return out;
  };
  return state_->ShownIfRefused(run());
}

Status Database::ImportItem(std::string_view table_name, Item item) {
  PutItemRequest request{.table_name = std::string(table_name), .item = std::move(item)};
  PARTSTORE_ASSIGN_OR_RETURN(PreparedCondition prepared,
                             PreparePut(request, request.table_name, state_->cache_.get()));
  PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table, state_->GetTable(request.table_name));
  std::shared_ptr<const PolicySet> policies = table->sharding_policies();
  if (!policies->empty()) {
    std::optional<int32_t> shard;
    PARTSTORE_ASSIGN_OR_RETURN(request.item, sharding::ShardItem(*policies, table->key_schema(),
                                                                 std::move(request.item), &shard));
  }
  return table->PutItem(request, prepared, {.unmetered = true}).status();
}

Result<ShardedGetItemResult> Database::ShardedGetItem(const GetItemRequest& request) {
  auto run = [&]() -> Result<ShardedGetItemResult> {
    PARTSTORE_ASSIGN_OR_RETURN(PreparedProjection prepared,
                               PrepareGet(request, request.table_name, state_->cache_.get()));
    PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table, state_->GetTable(request.table_name));
    std::shared_ptr<const PolicySet> policies = table->sharding_policies();
    PARTSTORE_ASSIGN_OR_RETURN(KeyRoute route, sharding::RouteKey(*policies, table->key_schema(),
                                                                  request.key, KeyUse::kRead));
    ShardedGetItemResult out;
    if (route.policy == nullptr && policies->empty()) {
      PARTSTORE_ASSIGN_OR_RETURN(out.result, table->GetItem(request, prepared));
      return out;
    }
    // Whole items are read (GetItem charges the whole item whatever the projection), presented,
    // then projected.
    GetItemRequest physical = request;
    physical.projection_expression.reset();
    physical.expression_attribute_names.reset();
    physical.attributes_to_get.reset();
    for (int32_t shard : route.shards) {
      physical.key = route.PhysicalKey(shard);
      PARTSTORE_ASSIGN_OR_RETURN(GetItemResult read,
                                 table->GetItem(physical, PreparedProjection{}));
      sharding::AddConsumedCapacity(read.consumed_capacity, &out.result.consumed_capacity);
      if (read.item && !out.result.item) {
        out.result.item = std::move(read.item);
        out.shards.shard = route.policy ? std::optional<int32_t>(shard) : std::nullopt;
      }
    }
    if (out.result.item) {
      sharding::Present(*policies, &*out.result.item);
      if (prepared.projection) {
        out.result.item = expr::Project(*prepared.projection, *out.result.item);
      }
    }
    out.shards.sharded = route.policy != nullptr;
    out.shards.shards_touched = static_cast<int32_t>(route.shards.size());
    if (route.policy && route.shards.size() == 1) out.shards.shard = route.shards.front();
    return out;
  };
  return state_->Shown(run());
}

Result<ShardedUpdateItemResult> Database::ShardedUpdateItem(const UpdateItemRequest& request) {
  auto run = [&]() -> Result<ShardedUpdateItemResult> {
    PARTSTORE_ASSIGN_OR_RETURN(PreparedUpdate prepared,
                               PrepareUpdate(request, request.table_name, state_->cache_.get()));
    PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table, state_->GetTable(request.table_name));
    std::shared_ptr<const PolicySet> policies = table->sharding_policies();
    ShardedUpdateItemResult out;
    if (policies->empty()) {
      PARTSTORE_ASSIGN_OR_RETURN(out.result, table->UpdateItem(request, prepared));
      return out;
    }
    PARTSTORE_ASSIGN_OR_RETURN(KeyRoute route, sharding::RouteKey(*policies, table->key_schema(),
                                                                  request.key, KeyUse::kUpdate));
    UpdateItemRequest physical = request;
    physical.key = route.PhysicalKey(route.shards.front());
    sharding::UpdateRewriter rewriter(*policies, route);
    PARTSTORE_ASSIGN_OR_RETURN(out.result,
                               table->UpdateItem(physical, prepared, {.rewrite = &rewriter}));
    PresentOptional(*policies, &out.result.attributes);
    if (route.policy) out.shards = {.sharded = true, .shards_touched = 1, .shard = route.shards[0]};
    return out;
  };
  return state_->ShownIfRefused(run());
}

Result<ShardedDeleteItemResult> Database::ShardedDeleteItem(const DeleteItemRequest& request) {
  auto run = [&]() -> Result<ShardedDeleteItemResult> {
    PARTSTORE_ASSIGN_OR_RETURN(PreparedCondition prepared,
                               PrepareDelete(request, request.table_name, state_->cache_.get()));
    PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table, state_->GetTable(request.table_name));
    std::shared_ptr<const PolicySet> policies = table->sharding_policies();
    PARTSTORE_ASSIGN_OR_RETURN(KeyRoute route, sharding::RouteKey(*policies, table->key_schema(),
                                                                  request.key, KeyUse::kDelete));
    ShardedDeleteItemResult out;
    if (route.policy == nullptr) {
      PARTSTORE_ASSIGN_OR_RETURN(out.result, table->DeleteItem(request, prepared));
      PresentOptional(*policies, &out.result.attributes);
      return out;
    }
    if (route.shards.size() > 1 && prepared.condition) {
      return Status::Validation(
          "A condition cannot be checked on a random-suffix delete: the item may be in any of " +
          std::to_string(route.shards.size()) + " shards");
    }
    DeleteItemRequest physical = request;
    for (int32_t shard : route.shards) {
      physical.key = route.PhysicalKey(shard);
      PARTSTORE_ASSIGN_OR_RETURN(DeleteItemResult deleted, table->DeleteItem(physical, prepared));
      sharding::AddConsumedCapacity(deleted.consumed_capacity, &out.result.consumed_capacity);
      if (deleted.attributes && !out.result.attributes) {
        out.result.attributes = std::move(deleted.attributes);
        out.shards.shard = shard;
      }
      if (deleted.item_collection_metrics) {
        out.result.item_collection_metrics = std::move(deleted.item_collection_metrics);
      }
    }
    PresentOptional(*policies, &out.result.attributes);
    out.shards.sharded = true;
    out.shards.shards_touched = static_cast<int32_t>(route.shards.size());
    if (route.shards.size() == 1) out.shards.shard = route.shards.front();
    return out;
  };
  return state_->ShownIfRefused(run());
}

Result<ShardedBatchWriteItemResult> Database::ShardedBatchWriteItem(
    const BatchWriteItemRequest& request) {
  // Not recorded in a trace, as the other extensions (partstore/trace.h): its BatchWriteItem
  // chunks are not either.
  const internal::TracedCall untraced;
  // The logical requests become physical ones (a random-suffix delete becomes one per shard),
  // sent in BatchWriteItem calls of at most 25; unprocessed physical requests are reported as
  // their logical ones.
  struct Physical {
    size_t table = 0;    // index into request.request_items
    size_t logical = 0;  // index into that table's writes
    WriteRequest write;
  };
  std::vector<Physical> physical;
  size_t total = 0;
  for (const auto& [name, writes] : request.request_items) total += writes.size();
  if (total > kMaxBatchWriteRequests) {
    return Status::Validation("Too many items requested for the BatchWriteItem call");
  }
  for (size_t t = 0; t < request.request_items.size(); ++t) {
    const auto& [name, writes] = request.request_items[t];
    PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table, state_->GetTable(name));
    std::shared_ptr<const PolicySet> policies = table->sharding_policies();
    for (size_t w = 0; w < writes.size(); ++w) {
      const WriteRequest& write = writes[w];
      if (write.kind == WriteRequest::Kind::kPut) {
        std::optional<int32_t> shard;
        PARTSTORE_ASSIGN_OR_RETURN(
            Item item, sharding::ShardItem(*policies, table->key_schema(), write.item, &shard));
        physical.push_back({t, w, {WriteRequest::Kind::kPut, std::move(item)}});
        continue;
      }
      PARTSTORE_ASSIGN_OR_RETURN(KeyRoute route, sharding::RouteKey(*policies, table->key_schema(),
                                                                    write.item, KeyUse::kDelete));
      for (int32_t shard : route.shards) {
        physical.push_back({t, w, {WriteRequest::Kind::kDelete, route.PhysicalKey(shard)}});
      }
    }
  }

  ShardedBatchWriteItemResult out;
  out.physical_writes = static_cast<int32_t>(physical.size());
  std::set<std::pair<size_t, size_t>> unprocessed;
  for (size_t begin = 0; begin < physical.size(); begin += kMaxBatchWriteRequests) {
    const size_t end = std::min(physical.size(), begin + kMaxBatchWriteRequests);
    BatchWriteItemRequest chunk;
    chunk.return_consumed_capacity = request.return_consumed_capacity;
    chunk.return_item_collection_metrics = request.return_item_collection_metrics;
    for (size_t i = begin; i < end; ++i) {
      const std::string& name = request.request_items[physical[i].table].first;
      if (chunk.request_items.empty() || chunk.request_items.back().first != name) {
        chunk.request_items.emplace_back(name, std::vector<WriteRequest>());
      }
      chunk.request_items.back().second.push_back(physical[i].write);
    }
    PARTSTORE_ASSIGN_OR_RETURN(BatchWriteItemResult done, BatchWriteItem(chunk));
    for (const auto& [name, writes] : done.unprocessed_items) {
      for (const WriteRequest& write : writes) {
        for (size_t i = begin; i < end; ++i) {
          if (request.request_items[physical[i].table].first == name &&
              physical[i].write.kind == write.kind && physical[i].write.item == write.item) {
            unprocessed.insert({physical[i].table, physical[i].logical});
          }
        }
      }
    }
    for (auto& [name, metrics] : done.item_collection_metrics) {
      out.result.item_collection_metrics.emplace_back(name, std::move(metrics));
    }
    for (ConsumedCapacity& consumed : done.consumed_capacity) {
      auto same = std::find_if(
          out.result.consumed_capacity.begin(), out.result.consumed_capacity.end(),
          [&](const ConsumedCapacity& c) { return c.table_name == consumed.table_name; });
      if (same == out.result.consumed_capacity.end()) {
        out.result.consumed_capacity.push_back(std::move(consumed));
      } else {
        std::optional<ConsumedCapacity> total = std::move(*same);
        sharding::AddConsumedCapacity(consumed, &total);
        *same = std::move(*total);
      }
    }
  }
  for (const auto& [t, w] : unprocessed) {
    const auto& [name, writes] = request.request_items[t];
    if (out.result.unprocessed_items.empty() || out.result.unprocessed_items.back().first != name) {
      out.result.unprocessed_items.emplace_back(name, std::vector<WriteRequest>());
    }
    out.result.unprocessed_items.back().second.push_back(writes[w]);
  }
  return out;
}

Result<TransactWriteItemsResult> Database::ShardedTransactWriteItems(
    const TransactWriteItemsRequest& request) {
  auto run = [&]() -> Result<TransactWriteItemsResult> {
    TransactWriteItemsRequest physical;
    physical.client_request_token = request.client_request_token;
    physical.return_consumed_capacity = request.return_consumed_capacity;
    physical.return_item_collection_metrics = request.return_item_collection_metrics;
    std::vector<size_t> logical_of;                             // physical action -> logical action
    std::vector<std::shared_ptr<const PolicySet>> policies_of;  // per physical action
    std::vector<std::unique_ptr<KeyRoute>> routes;
    std::vector<std::unique_ptr<sharding::UpdateRewriter>> rewriter_store;
    std::vector<const ItemRewriter*> rewriters;
    auto add = [&](size_t logical, TransactWriteItem action,
                   std::shared_ptr<const PolicySet> policies, const ItemRewriter* rewriter) {
      physical.transact_items.push_back(std::move(action));
      logical_of.push_back(logical);
      policies_of.push_back(std::move(policies));
      rewriters.push_back(rewriter);
    };
    for (size_t i = 0; i < request.transact_items.size(); ++i) {
      const TransactWriteItem& action = request.transact_items[i];
      const std::string* table_name = action.put               ? &action.put->table_name
                                      : action.update          ? &action.update->table_name
                                      : action.del             ? &action.del->table_name
                                      : action.condition_check ? &action.condition_check->table_name
                                                               : nullptr;
      const int set = action.condition_check.has_value() + action.put.has_value() +
                      action.del.has_value() + action.update.has_value();
      if (table_name == nullptr || set != 1) {
        add(i, action, nullptr, nullptr);  // the transaction reports the malformed action
        continue;
      }
      PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table, state_->GetTable(*table_name));
      std::shared_ptr<const PolicySet> policies = table->sharding_policies();
      const KeySchema& schema = table->key_schema();
      if (action.put) {
        TransactWriteItem put = action;
        std::optional<int32_t> shard;
        PARTSTORE_ASSIGN_OR_RETURN(
            put.put->item,
            sharding::ShardItem(*policies, schema, std::move(put.put->item), &shard));
        add(i, std::move(put), policies, nullptr);
      } else if (action.update) {
        auto route = std::make_unique<KeyRoute>();
        PARTSTORE_ASSIGN_OR_RETURN(
            *route, sharding::RouteKey(*policies, schema, action.update->key, KeyUse::kUpdate));
        TransactWriteItem update = action;
        update.update->key = route->PhysicalKey(route->shards.front());
        rewriter_store.push_back(std::make_unique<sharding::UpdateRewriter>(*policies, *route));
        routes.push_back(std::move(route));
        add(i, std::move(update), policies, rewriter_store.back().get());
      } else {
        const Item& key = action.del ? action.del->key : action.condition_check->key;
        PARTSTORE_ASSIGN_OR_RETURN(
            KeyRoute route, sharding::RouteKey(*policies, schema, key,
                                               action.del ? KeyUse::kDelete : KeyUse::kRead));
        const bool conditioned =
            action.condition_check ||
            (action.del->condition_expression.has_value() || action.del->expected.has_value());
        if (route.shards.size() > 1 && conditioned) {
          return Status::Validation(
              "A condition cannot be checked on a random-suffix key: the item may be in any of " +
              std::to_string(route.shards.size()) + " shards");
        }
        for (int32_t shard : route.shards) {
          TransactWriteItem one = action;
          (one.del ? one.del->key : one.condition_check->key) = route.PhysicalKey(shard);
          add(i, std::move(one), policies, nullptr);
        }
      }
    }
    Result<TransactWriteItemsResult> result = state_->RunTransaction(physical, rewriters, &request);
    if (result.ok() || result.status().code() != Code::kTransactionCanceled ||
        result.status().detail() == nullptr) {
      return result;
    }
    // The reasons per logical action: the first that is not None among its physical actions.
    const auto& physical_reasons = result.status().detail()->cancellation_reasons;
    std::vector<CancellationReason> reasons(request.transact_items.size());
    for (size_t j = 0; j < physical_reasons.size() && j < logical_of.size(); ++j) {
      CancellationReason& reason = reasons[logical_of[j]];
      if (reason.code != "None" || physical_reasons[j].code == "None") continue;
      reason = physical_reasons[j];
      if (reason.item && policies_of[j]) sharding::Present(*policies_of[j], &*reason.item);
    }
    return TransactionCanceledError(std::move(reasons));
  };
  return state_->ShownIfRefused(run());
}

Result<ShardedQueryResult> Database::ShardedQuery(const QueryRequest& request,
                                                  ShardedQueryOptions options) {
  auto run = [&]() -> Result<ShardedQueryResult> {
    PARTSTORE_ASSIGN_OR_RETURN(PreparedRead prepared,
                               PrepareQuery(request, request.table_name, state_->cache_.get()));
    PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table, state_->GetTable(request.table_name));
    return sharding::ScatterGatherQuery(*table, *table->sharding_policies(), request, prepared,
                                        state_->cache_.get(), options);
  };
  return state_->Shown(run());
}

Result<ShardedAggregateResult> Database::ShardedAggregate(const ShardedAggregateRequest& request) {
  auto run = [&]() -> Result<ShardedAggregateResult> {
    PARTSTORE_ASSIGN_OR_RETURN(
        PreparedRead prepared,
        PrepareQuery(request.query, request.query.table_name, state_->cache_.get()));
    PARTSTORE_ASSIGN_OR_RETURN(std::shared_ptr<Table> table,
                               state_->GetTable(request.query.table_name));
    return sharding::AggregateShards(*table, *table->sharding_policies(), request, prepared,
                                     state_->cache_.get());
  };
  return state_->Shown(run());
}

}  // namespace partstore
