// Database: TransactWriteItems and TransactGetItems (reference §4.2, §7).
//
// A transaction runs in five steps:
//   1. the request is checked (DynamoDB's whole-request ValidationExceptions: counts, the token,
//      one operation per action, the expressions, duplicate items, the payload), the tables are
//      found and every key encoded (a bad key cancels with ValidationError on its action);
//   2. the ClientRequestToken is looked up (a replay within 10 minutes answers as the first
//      request did; other parameters give IdempotentParameterMismatchException);
//   3. the base stripes of every item are locked exclusively, in the global order (stripe
//      address; the same for every transaction, and single-item operations hold one stripe at a
//      time, so no cycle can form);
//   4. every action is staged (all conditions evaluated, none short-circuits); any failure
//      cancels with one CancellationReason per action; then capacity is charged action by action
//      (a throttled action cancels; the units of the actions before it stay consumed, as the
//      prepare phase's do in DynamoDB);
//   5. the index stripes the writes touch are locked (the same order, after all base stripes),
//      every write is applied, and all locks are released.
// TransactGetItems locks the base stripes shared in the same order, reads, charges, releases.
//
// Isolation: serializable against PutItem / UpdateItem / DeleteItem / GetItem and other
// transactions (they wait for the stripe locks: partstore serializes conflicting requests where
// DynamoDB would cancel one with TransactionConflict). A Query sees one stripe at a time, so it
// sees a transaction's writes in its own item collection all or none; a Scan or a batch sees
// each stripe before or after a transaction, so across stripes it may see part of one
// (read-committed, as DynamoDB documents for Scan, Query and the batch operations).
#include <xxhash.h>

#include <algorithm>
#include <mutex>
#include <set>
#include <shared_mutex>

#include "core/capacity_units.h"
#include "core/expr/projection.h"
#include "partstore/error_detail.h"
#include "shard/constraints.h"
#include "shard/database_state.h"
#include "shard/database_trace.h"
#include "shard/persist/write_ahead_log.h"
#include "shard/stripe_locks.h"

namespace partstore {

namespace {

using Kind = Table::StagedWrite::Kind;

}  // namespace

Status TransactionCanceledError(std::vector<CancellationReason> reasons) {
  std::string message =
      "Transaction cancelled, please refer cancellation reasons for specific reasons [";
  for (size_t i = 0; i < reasons.size(); ++i) {
    if (i > 0) message += ", ";
    message += reasons[i].code;
  }
  message += "]";
  auto detail = std::make_shared<ErrorDetail>();
  detail->cancellation_reasons = std::move(reasons);
  return Status(Code::kTransactionCanceled, std::move(message)).WithDetail(std::move(detail));
}

namespace {

Status Canceled(std::vector<CancellationReason> reasons) {
  return TransactionCanceledError(std::move(reasons));
}

// The reason an action failed with `status`.
CancellationReason ReasonOf(const Status& status) {
  CancellationReason reason;
  reason.message = std::string(status.message());
  switch (status.code()) {
    case Code::kConditionalCheckFailed:
      reason.code = "ConditionalCheckFailed";
      if (status.detail() != nullptr) reason.item = status.detail()->item;
      break;
    case Code::kItemCollectionSizeLimitExceeded:
      reason.code = "ItemCollectionSizeLimitExceeded";
      break;
    case Code::kProvisionedThroughputExceeded:
      reason.code = "ProvisionedThroughputExceeded";
      break;
    case Code::kThrottling:
    case Code::kRequestLimitExceeded:
      reason.code = "ThrottlingError";
      break;
    default:
      reason.code = "ValidationError";
      break;
  }
  return reason;
}

// Cancels with `failed` on action `index` and None on the others.
Status CanceledAt(size_t count, size_t index, const Status& failed) {
  std::vector<CancellationReason> reasons(count);
  reasons[index] = ReasonOf(failed);
  return Canceled(std::move(reasons));
}

Status LengthViolation(std::string_view member, std::string_view value, bool too_long,
                       size_t bound) {
  return Status::Validation(
      std::string("1 validation error detected: Value '") + std::string(value) + "' at '" +
      std::string(member) + "' failed to satisfy constraint: Member must have length " +
      (too_long ? "less than or equal to " : "greater than or equal to ") + std::to_string(bound));
}

// One write action, resolved.
struct Action {
  Kind kind = Kind::kConditionCheck;
  const std::string* table_name = nullptr;
  std::shared_ptr<Table> table;
  PreparedCondition condition;
  PreparedUpdate update;
  const Item* put = nullptr;
  // A ConditionCheck as the delete it is prepared like (`condition` points into its values).
  DeleteItemRequest check_request;
  ReturnValuesOnConditionCheckFailure on_failure = ReturnValuesOnConditionCheckFailure::kNone;
  Table::StagedWrite staged;
};

// A digest of everything a TransactWriteItems request asks for (the token excluded).
uint64_t Fingerprint(const TransactWriteItemsRequest& request) {
  std::string text;
  auto add = [&text](std::string_view part) {
    text += std::to_string(part.size());
    text += ':';
    text += part;
  };
  auto add_map = [&](const std::optional<AttributeMap>& map) {
    add(map ? DebugString(Value(*map)) : "-");
  };
  auto add_names = [&](const std::optional<expr::NameMap>& names) {
    if (!names) return add("-");
    for (const auto& [placeholder, name] : *names) {
      add(placeholder);
      add(name);
    }
  };
  auto add_optional = [&](const std::optional<std::string>& s) { add(s ? *s : "\x01"); };
  for (const TransactWriteItem& action : request.transact_items) {
    if (action.condition_check) {
      const ConditionCheckRequest& c = *action.condition_check;
      add("C");
      add(c.table_name);
      add(DebugString(Value(c.key)));
      add_optional(c.condition_expression);
      add_names(c.expression_attribute_names);
      add_map(c.expression_attribute_values);
      add(std::to_string(static_cast<int>(c.return_values_on_condition_check_failure)));
    }
    if (action.put) {
      const PutItemRequest& p = *action.put;
      add("P");
      add(p.table_name);
      add(DebugString(Value(p.item)));
      add_optional(p.condition_expression);
      add_names(p.expression_attribute_names);
      add_map(p.expression_attribute_values);
      add(std::to_string(static_cast<int>(p.return_values_on_condition_check_failure)));
    }
    if (action.del) {
      const DeleteItemRequest& d = *action.del;
      add("D");
      add(d.table_name);
      add(DebugString(Value(d.key)));
      add_optional(d.condition_expression);
      add_names(d.expression_attribute_names);
      add_map(d.expression_attribute_values);
      add(std::to_string(static_cast<int>(d.return_values_on_condition_check_failure)));
    }
    if (action.update) {
      const UpdateItemRequest& u = *action.update;
      add("U");
      add(u.table_name);
      add(DebugString(Value(u.key)));
      add_optional(u.update_expression);
      add_optional(u.condition_expression);
      add_names(u.expression_attribute_names);
      add_map(u.expression_attribute_values);
      add(std::to_string(static_cast<int>(u.return_values_on_condition_check_failure)));
    }
  }
  add(std::to_string(static_cast<int>(request.return_consumed_capacity)));
  add(std::to_string(static_cast<int>(request.return_item_collection_metrics)));
  return XXH3_64bits(text.data(), text.size());
}

// The request payload DynamoDB limits to 4 MB: the items, keys and expression values sent.
uint64_t PayloadBytes(const TransactWriteItemsRequest& request) {
  uint64_t bytes = 0;
  auto values = [](const std::optional<AttributeMap>& map) {
    return map ? ItemSize(*map) : size_t{0};
  };
  for (const TransactWriteItem& action : request.transact_items) {
    if (action.condition_check) {
      bytes += ItemSize(action.condition_check->key) +
               values(action.condition_check->expression_attribute_values);
    }
    if (action.put)
      bytes += ItemSize(action.put->item) + values(action.put->expression_attribute_values);
    if (action.del)
      bytes += ItemSize(action.del->key) + values(action.del->expression_attribute_values);
    if (action.update) {
      bytes += ItemSize(action.update->key) + values(action.update->expression_attribute_values);
    }
  }
  return bytes;
}

Status NoLegacy(bool legacy) {
  if (!legacy) return Status::Ok();
  return Status::Validation(
      "Transactions take expressions only: Expected, ConditionalOperator and AttributeUpdates are "
      "not supported");
}

}  // namespace

Result<TransactWriteItemsResult> Database::TransactWriteItems(
    const TransactWriteItemsRequest& request) {
  auto run = [this](const TransactWriteItemsRequest& r) {
    return state_->ShownIfRefused(state_->RunTransaction(r, {}, nullptr));
  };
  return internal::Tracing(*state_) ? internal::Traced(*state_, request, run) : run(request);
}

namespace {

// Every action's table name, checked as DynamoDB's model checks them before anything else: one
// message for all of them, each at 'transactItems.<n>.member.<action>.tableName' (n from 1), as
// the wire's decoder reports them (tools/protocol/transaction_json.cc).
Status CheckActionTableNames(const TransactWriteItemsRequest& request) {
  ConstraintViolations violations;
  for (size_t i = 0; i < request.transact_items.size(); ++i) {
    const TransactWriteItem& item = request.transact_items[i];
    const std::string prefix = "transactItems." + std::to_string(i + 1) + ".member.";
    if (item.condition_check) {
      violations.TableName(item.condition_check->table_name, prefix + "conditionCheck.tableName");
    }
    if (item.put) violations.TableName(item.put->table_name, prefix + "put.tableName");
    if (item.del) violations.TableName(item.del->table_name, prefix + "delete.tableName");
    if (item.update) violations.TableName(item.update->table_name, prefix + "update.tableName");
  }
  return violations.ToStatus();
}

Status CheckActionTableNames(const TransactGetItemsRequest& request) {
  ConstraintViolations violations;
  for (size_t i = 0; i < request.transact_items.size(); ++i) {
    violations.TableName(request.transact_items[i].get.table_name,
                         "transactItems." + std::to_string(i + 1) + ".member.get.tableName");
  }
  return violations.ToStatus();
}

}  // namespace

Result<TransactWriteItemsResult> internal::DatabaseState::RunTransaction(
    const TransactWriteItemsRequest& request, const std::vector<const ItemRewriter*>& rewriters,
    const TransactWriteItemsRequest* logical) {
  // 1. The request.
  const size_t count = request.transact_items.size();
  if (count == 0) return LengthViolation("transactItems", "[]", false, 1);
  if (count > kMaxTransactionActions) {
    return LengthViolation("transactItems", "[" + std::to_string(count) + " transact items]", true,
                           kMaxTransactionActions);
  }
  if (request.client_request_token) {
    const std::string& token = *request.client_request_token;
    if (token.empty()) return LengthViolation("clientRequestToken", token, false, 1);
    if (token.size() > kMaxClientRequestTokenLength) {
      return LengthViolation("clientRequestToken", token, true, kMaxClientRequestTokenLength);
    }
  }
  PARTSTORE_RETURN_IF_ERROR(CheckActionTableNames(request));
  std::vector<Action> actions(count);
  for (size_t i = 0; i < count; ++i) {
    const TransactWriteItem& item = request.transact_items[i];
    Action& action = actions[i];
    const int set = item.condition_check.has_value() + item.put.has_value() + item.del.has_value() +
                    item.update.has_value();
    if (set != 1) {
      return Status::Validation(
          "TransactItems can only contain one of Check, Put, Update or Delete");
    }
    if (item.condition_check) {
      const ConditionCheckRequest& check = *item.condition_check;
      if (!check.condition_expression) {
        return Status::Validation(
            "The ConditionExpression parameter is required for a ConditionCheck action");
      }
      action.check_request =
          DeleteItemRequest{.table_name = check.table_name,
                            .key = check.key,
                            .condition_expression = check.condition_expression,
                            .expression_attribute_names = check.expression_attribute_names,
                            .expression_attribute_values = check.expression_attribute_values};
      PARTSTORE_ASSIGN_OR_RETURN(
          action.condition, PrepareDelete(action.check_request, check.table_name, cache_.get()));
      action.kind = Kind::kConditionCheck;
      action.table_name = &check.table_name;
      action.staged.key_item = check.key;
      action.on_failure = check.return_values_on_condition_check_failure;
    } else if (item.put) {
      const PutItemRequest& put = *item.put;
      PARTSTORE_RETURN_IF_ERROR(NoLegacy(put.expected || put.conditional_operator));
      PARTSTORE_ASSIGN_OR_RETURN(action.condition, PreparePut(put, put.table_name, cache_.get()));
      action.kind = Kind::kPut;
      action.table_name = &put.table_name;
      action.put = &put.item;
      action.on_failure = put.return_values_on_condition_check_failure;
    } else if (item.del) {
      const DeleteItemRequest& del = *item.del;
      PARTSTORE_RETURN_IF_ERROR(NoLegacy(del.expected || del.conditional_operator));
      PARTSTORE_ASSIGN_OR_RETURN(action.condition,
                                 PrepareDelete(del, del.table_name, cache_.get()));
      action.kind = Kind::kDelete;
      action.table_name = &del.table_name;
      action.staged.key_item = del.key;
      action.on_failure = del.return_values_on_condition_check_failure;
    } else {
      const UpdateItemRequest& update = *item.update;
      PARTSTORE_RETURN_IF_ERROR(
          NoLegacy(update.expected || update.conditional_operator || update.attribute_updates));
      if (!update.update_expression) {
        return Status::Validation(
            "The UpdateExpression parameter is required for an Update action");
      }
      PARTSTORE_ASSIGN_OR_RETURN(action.update,
                                 PrepareUpdate(update, update.table_name, cache_.get()));
      action.kind = Kind::kUpdate;
      action.table_name = &update.table_name;
      action.staged.key_item = update.key;
      action.on_failure = update.return_values_on_condition_check_failure;
    }
    action.staged.kind = action.kind;
  }
  if (PayloadBytes(request) > kMaxTransactionPayloadBytes) {
    return Status::Validation("Transaction request size exceeded the maximum allowed size of 4 MB");
  }
  for (Action& action : actions) {
    PARTSTORE_ASSIGN_OR_RETURN(action.table, GetTable(*action.table_name));
  }
  // Keys: a bad key cancels on its action (the first one only, as DynamoDB reports).
  for (size_t i = 0; i < count; ++i) {
    Action& action = actions[i];
    Result<Table::EncodedKey> key = action.kind == Kind::kPut
                                        ? action.table->EncodeItemKeyOfItem(*action.put)
                                        : action.table->EncodeItemKey(action.staged.key_item);
    if (!key.ok()) return CanceledAt(count, i, key.status());
    action.staged.key = std::move(*key);
    if (action.kind == Kind::kPut) action.staged.key_item = action.table->KeyOf(*action.put);
  }
  std::set<std::tuple<const Table*, std::string_view, std::string_view>> seen;
  for (const Action& action : actions) {
    if (!seen.emplace(action.table.get(), action.staged.key.partition, action.staged.key.sort)
             .second) {
      return Status::Validation(
          "Transaction request cannot include multiple operations on one item");
    }
  }

  // 2. The token.
  const uint64_t fingerprint =
      request.client_request_token ? Fingerprint(logical != nullptr ? *logical : request) : 0;
  if (request.client_request_token) {
    const int64_t now = options_.capacity.clock->NowMicros();
    std::lock_guard lock(tokens_mu_);
    const auto window = static_cast<int64_t>(kClientRequestTokenSeconds * 1e6);
    while (!token_expiry_.empty() && now - token_expiry_.front().first > window) {
      auto expired = tokens_.find(token_expiry_.front().second);
      if (expired != tokens_.end() && !expired->second.in_flight &&
          expired->second.finished_micros == token_expiry_.front().first) {
        tokens_.erase(expired);
      }
      token_expiry_.pop_front();
    }
    auto it = tokens_.find(*request.client_request_token);
    // (One past the window that the queue has not reached yet is forgotten here.)
    if (it != tokens_.end() && !it->second.in_flight && now - it->second.finished_micros > window) {
      tokens_.erase(it);
      it = tokens_.end();
    }
    if (it != tokens_.end()) {
      if (it->second.fingerprint != fingerprint) {
        return Status(Code::kIdempotentParameterMismatch,
                      "The request uses the same client token as a previous, but non-identical "
                      "request. Please use a different client token.");
      }
      if (it->second.in_flight) {
        return Status(Code::kTransactionInProgress,
                      "A transaction with this ClientRequestToken is in progress");
      }
      return it->second.result;
    }
    tokens_.emplace(*request.client_request_token, TokenRecord{.fingerprint = fingerprint});
  }
  auto forget_token = [&] {
    if (!request.client_request_token) return;
    std::lock_guard lock(tokens_mu_);
    tokens_.erase(*request.client_request_token);
  };

  // 3. The base stripes.
  StripeLocks base;
  for (const Action& action : actions)
    base.Add(&action.table->stripes().ForHash(action.staged.key.hash));
  base.LockExclusive();
  // Cache expiry: expired items under the keys are gone before anything looks at them.
  for (Action& action : actions) {
    action.table->ReclaimExpired(action.staged.key, action.table->CacheExpiry());
  }

  // 4. Stage everything, then charge.
  std::vector<CancellationReason> reasons(count);
  bool failed = false;
  for (size_t i = 0; i < count; ++i) {
    Action& action = actions[i];
    Status staged = action.table->StageWrite(
        &action.staged, action.kind == Kind::kUpdate ? nullptr : &action.condition,
        action.kind == Kind::kUpdate ? &action.update : nullptr, action.put, action.on_failure,
        i < rewriters.size() ? rewriters[i] : nullptr);
    if (!staged.ok()) {
      reasons[i] = ReasonOf(staged);
      failed = true;
    }
  }
  if (failed) {
    base.Unlock();
    forget_token();
    return Canceled(std::move(reasons));
  }
  // Memory (the reject policy): the transaction's growth as a whole (every table of a database
  // shares one budget), admitted or refused with nothing changed.
  if (!actions.empty() && actions.front().table->rejecting()) {
    int64_t growth = 0;
    for (const Action& action : actions) growth += action.table->StagedGrowth(action.staged);
    if (Status admitted = actions.front().table->AdmitStaged(growth); !admitted.ok()) {
      base.Unlock();
      forget_token();
      return admitted;
    }
  }
  for (size_t i = 0; i < count; ++i) {
    Status charged = actions[i].table->ChargeStaged(actions[i].staged);
    if (!charged.ok()) {
      base.Unlock();
      forget_token();
      return CanceledAt(count, i, charged);
    }
  }

  // 5. The index stripes, then every write.
  StripeLocks index_stripes;
  {
    std::vector<const Stripe*> touched;
    for (const Action& action : actions) action.table->IndexStripesOf(action.staged, &touched);
    for (const Stripe* stripe : touched) index_stripes.Add(stripe);
  }
  index_stripes.LockExclusive();
  std::vector<std::pair<std::string, CapacityCharge>> charges;
  TransactWriteItemsResult result;
  // The write-ahead log gets the transaction's changes as one record, under its locks.
  std::optional<persist::WalGroup> logged;
  if (wal_) logged.emplace();
  if (logged && request.client_request_token) {
    logged->AddToken({.token = *request.client_request_token,
                      .fingerprint = fingerprint,
                      .finished_epoch_micros = static_cast<int64_t>(EpochSeconds() * 1e6)});
  }
  for (Action& action : actions) {
    const std::string& name = action.table->name();
    auto charge = std::find_if(charges.begin(), charges.end(),
                               [&](const auto& c) { return c.first == name; });
    if (charge == charges.end()) charge = charges.insert(charges.end(), {name, CapacityCharge{}});
    std::optional<ItemCollectionMetrics> metrics = action.table->CommitStaged(
        action.staged, request.return_item_collection_metrics, &charge->second);
    if (metrics) {
      auto table =
          std::find_if(result.item_collection_metrics.begin(), result.item_collection_metrics.end(),
                       [&](const auto& m) { return m.first == name; });
      if (table == result.item_collection_metrics.end()) {
        table =
            result.item_collection_metrics.insert(result.item_collection_metrics.end(), {name, {}});
      }
      table->second.push_back(std::move(*metrics));
    }
  }
  if (logged) {
    logged->Commit(*wal_);
    if (request.client_request_token) {
      // Under the stripe locks: a snapshot's cut of the log, which takes them, carries it.
      std::lock_guard lock(tokens_mu_);
      tokens_[*request.client_request_token].logged = true;
    }
  }
  index_stripes.Unlock();
  base.Unlock();
  if (!actions.empty()) {
    actions.front().table->AfterWrite();  // (one budget for every table)
    if (Status durable = actions.front().table->Durable(); !durable.ok()) return durable;
  }

  for (const auto& [name, charge] : charges) {
    if (auto reported = ReportCapacity(request.return_consumed_capacity, name, charge)) {
      result.consumed_capacity.push_back(std::move(*reported));
    }
  }
  if (request.client_request_token) {
    std::lock_guard lock(tokens_mu_);
    TokenRecord& record = tokens_[*request.client_request_token];
    record.in_flight = false;
    record.finished_micros = options_.capacity.clock->NowMicros();
    record.result = result;
    token_expiry_.emplace_back(record.finished_micros, *request.client_request_token);
  }
  return result;
}

void internal::DatabaseState::RestoreToken(const persist::LoggedToken& token) {
  const auto finished =
      token.finished_epoch_micros - static_cast<int64_t>(epoch_at_clock_zero_ * 1e6);
  std::lock_guard lock(tokens_mu_);
  TokenRecord& record = tokens_[token.token];
  record = {.fingerprint = token.fingerprint,
            .in_flight = false,
            .logged = true,
            .finished_micros = finished};
  token_expiry_.emplace_back(finished, token.token);
}

std::vector<persist::LoggedToken> internal::DatabaseState::LiveTokens() {
  const auto epoch_micros = static_cast<int64_t>(epoch_at_clock_zero_ * 1e6);
  const int64_t now = options_.capacity.clock->NowMicros();
  const auto window = static_cast<int64_t>(kClientRequestTokenSeconds * 1e6);
  std::vector<persist::LoggedToken> live;
  {
    std::lock_guard lock(tokens_mu_);
    for (const auto& [token, record] : tokens_) {
      // (A logged one still in flight finishes in a moment: its time is about now.)
      const int64_t finished = record.in_flight ? now : record.finished_micros;
      if (!record.logged || now - finished > window) continue;
      live.push_back({.token = token,
                      .fingerprint = record.fingerprint,
                      .finished_epoch_micros = epoch_micros + finished});
    }
  }
  // In the order they finished: a replay queues them for expiry in the order it reads them.
  std::sort(live.begin(), live.end(), [](const auto& a, const auto& b) {
    return a.finished_epoch_micros < b.finished_epoch_micros;
  });
  return live;
}

Result<TransactGetItemsResult> Database::TransactGetItems(const TransactGetItemsRequest& request) {
  auto run = [&]() -> Result<TransactGetItemsResult> {
    if (internal::Tracing(*state_)) {
      return internal::Traced(*state_, request, [this](const TransactGetItemsRequest& r) {
        return TransactGetItems(r);
      });
    }
    const size_t count = request.transact_items.size();
    if (count == 0) return LengthViolation("transactItems", "[]", false, 1);
    if (count > kMaxTransactionActions) {
      return LengthViolation("transactItems", "[" + std::to_string(count) + " transact items]",
                             true, kMaxTransactionActions);
    }
    struct Get {
      std::shared_ptr<Table> table;
      PreparedProjection projection;
      Table::EncodedKey key;
    };
    PARTSTORE_RETURN_IF_ERROR(CheckActionTableNames(request));
    std::vector<Get> gets(count);
    for (size_t i = 0; i < count; ++i) {
      const GetItemRequest& get = request.transact_items[i].get;
      if (get.attributes_to_get) {
        return Status::Validation(
            "Transactions take ProjectionExpression; AttributesToGet is not "
            "supported");
      }
      PARTSTORE_ASSIGN_OR_RETURN(gets[i].projection,
                                 PrepareGet(get, get.table_name, state_->cache_.get()));
    }
    for (size_t i = 0; i < count; ++i) {
      PARTSTORE_ASSIGN_OR_RETURN(gets[i].table,
                                 state_->GetTable(request.transact_items[i].get.table_name));
    }
    for (size_t i = 0; i < count; ++i) {
      Result<Table::EncodedKey> key =
          gets[i].table->EncodeItemKey(request.transact_items[i].get.key);
      if (!key.ok()) return CanceledAt(count, i, key.status());
      gets[i].key = std::move(*key);
    }
    std::set<std::tuple<const Table*, std::string_view, std::string_view>> seen;
    for (const Get& get : gets) {
      if (!seen.emplace(get.table.get(), get.key.partition, get.key.sort).second) {
        return Status::Validation(
            "Transaction request cannot include multiple operations on one item");
      }
    }

    TransactGetItemsResult result;
    result.responses.resize(count);
    std::vector<size_t> sizes(count, 0);
    std::vector<StoredItem> read(count);  // handles taken under the locks, built after them
    {
      StripeLocks locks;
      for (const Get& get : gets) locks.Add(&get.table->stripes().ForHash(get.key.hash));
      locks.LockShared();
      for (size_t i = 0; i < count; ++i) {
        read[i] = gets[i].table->ReadLocked(gets[i].key);
        if (read[i]) sizes[i] = read[i].item_size();
      }
    }
    std::vector<std::pair<std::string, CapacityCharge>> charges;
    for (size_t i = 0; i < count; ++i) {
      const int64_t half_units = ReadHalfUnits(sizes[i], ReadConsistency::kTransactional);
      Status charged = gets[i].table->ChargeTransactionalRead(
          gets[i].key, request.transact_items[i].get.key, half_units);
      if (!charged.ok()) return CanceledAt(count, i, charged);
      const std::string& name = gets[i].table->name();
      auto charge = std::find_if(charges.begin(), charges.end(),
                                 [&](const auto& c) { return c.first == name; });
      if (charge == charges.end()) charge = charges.insert(charges.end(), {name, CapacityCharge{}});
      charge->second.table_half_units += half_units;
      if (read[i]) {
        result.responses[i] = gets[i].projection.projection
                                  ? expr::Project(*gets[i].projection.projection, read[i])
                                  : read[i].ToItem();
      }
    }
    for (const auto& [name, charge] : charges) {
      if (auto reported = ReportCapacity(request.return_consumed_capacity, name, charge)) {
        result.consumed_capacity.push_back(std::move(*reported));
      }
    }
    return result;
  };
  return state_->Shown(run());
}

}  // namespace partstore
