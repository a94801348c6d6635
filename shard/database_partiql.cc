// Database::ExecuteStatement, BatchExecuteStatement, ExecuteTransaction: PartiQL statements parsed
// (core/partiql), compiled into the engine's requests (shard/partiql_compile.h) and run through
// the operations those requests belong to. Nothing here reads or writes items itself.
//
// Order of checks, per request: the model constraints (lengths, counts, Limit; all violations in
// one "N validation errors detected" message), then per statement: parse, the table
// (ResourceNotFoundException), compile (parameters, keys, ...), then the operation's own checks.
//
// Sources of DynamoDB's texts: the PartiQL validation messages of DynamoDB Local (its
// ValidationExceptionMessages: "Where clause does not contain a mandatory equality on all key
// attributes", "Number of parameters in request and statement don't match.", the ORDER BY, EXISTS,
// RETURNING, bag and transaction-read texts, "Invalid NextToken", "NextToken does not match
// request"), which emulators checked against DynamoDB reproduce alike; "Duplicate primary key
// exists in table" as DuplicateItemException (AWS CLI examples, LocalStack, moto); the
// BatchStatementError codes and the request / response members from the API reference
// (ExecuteStatement, BatchExecuteStatement, ExecuteTransaction, BatchStatementError); "Statement
// wasn't well formed, can't be processed: Expected data manipulation" from SDK users' reports of
// live DynamoDB (awsdocs/aws-sdk-for-javascript-v3#98, passren/PyDynamoDB#26).
#include <fmt/format.h>

#include <map>

#include "core/partiql/parser.h"
#include "partstore/database.h"
#include "partstore/error_detail.h"
#include "shard/constraints.h"
#include "shard/database_state.h"
#include "shard/partiql_compile.h"

namespace partstore {
namespace {

using internal::partiql::CompiledStatement;
using internal::partiql::Context;
using internal::partiql::ContinuationToken;

constexpr std::string_view kDuplicateItem = "Duplicate primary key exists in table";

void StatementConstraints(ConstraintViolations& v, const std::string& statement,
                          const std::optional<std::vector<Value>>& parameters,
                          const std::string& prefix) {
  v.Length(statement, 1, kMaxStatementLength, prefix + "statement");
  if (parameters) {
    v.CollectionLength("[]", parameters->size(), 1, SIZE_MAX, prefix + "parameters");
  }
}

// Parse, describe the table, compile.
Result<CompiledStatement> Prepare(Database& db, const std::string& text,
                                  const std::optional<std::vector<Value>>& parameters,
                                  Context context) {
  PARTSTORE_ASSIGN_OR_RETURN(partiql::Statement statement, partiql::ParseStatement(text));
  const std::string& table_name = internal::partiql::TableOf(statement);
  if (!IsValidName(table_name)) {
    return Status::Validation(
        "Table name should be within the length [3, 255] and only contain 'a-z', 'A-Z', '0-9', "
        "'-', '_', '.'.");
  }
  Result<DescribeTableResult> table = db.DescribeTable({.table_name = table_name});
  if (!table.ok()) {
    // The data plane's text (DescribeTable's names the table).
    if (table.error().code() == Code::kResourceNotFound) return Status::ResourceNotFound();
    return table.error();
  }
  static const std::vector<Value> kNone;
  return internal::partiql::Compile(statement, parameters ? *parameters : kNone, table->table,
                                    context);
}

void AddCapacity(std::optional<ConsumedCapacity>& into,
                 const std::optional<ConsumedCapacity>& from) {
  if (!from) return;
  if (!into) {
    into = from;
    return;
  }
  into->total_half_units += from->total_half_units;
  if (from->table_half_units)
    into->table_half_units = into->table_half_units.value_or(0) + *from->table_half_units;
  for (const auto& [name, units] : from->global_secondary_indexes) {
    into->global_secondary_indexes[name] += units;
  }
  for (const auto& [name, units] : from->local_secondary_indexes) {
    into->local_secondary_indexes[name] += units;
  }
}

// One ConsumedCapacity per table, in the order tables were first touched.
void AddTableCapacity(std::vector<ConsumedCapacity>& list,
                      const std::optional<ConsumedCapacity>& c) {
  if (!c) return;
  for (ConsumedCapacity& existing : list) {
    if (existing.table_name == c->table_name) {
      std::optional<ConsumedCapacity> sum = existing;
      AddCapacity(sum, c);
      existing = *sum;
      return;
    }
  }
  list.push_back(*c);
}

// An INSERT's condition (attribute_not_exists on the partition key) failing means the key exists.
Status InsertError(Status status) {
  if (status.code() != Code::kConditionalCheckFailed) return status;
  return Status(Code::kDuplicateItem, std::string(kDuplicateItem));
}

// A write statement run on its own; the item its RETURNING asked for, if any.
Result<std::optional<Item>> RunWrite(Database& db, CompiledStatement& c,
                                     ReturnConsumedCapacity capacity,
                                     ReturnValuesOnConditionCheckFailure on_failure,
                                     std::optional<ConsumedCapacity>* consumed) {
  switch (c.kind) {
    case CompiledStatement::Kind::kPut: {
      c.put.return_consumed_capacity = capacity;
      c.put.return_values_on_condition_check_failure = on_failure;
      Result<PutItemResult> r = db.PutItem(c.put);
      if (!r.ok()) return InsertError(r.error());
      *consumed = r->consumed_capacity;
      return std::optional<Item>();
    }
    case CompiledStatement::Kind::kUpdate: {
      c.update.return_consumed_capacity = capacity;
      c.update.return_values_on_condition_check_failure = on_failure;
      PARTSTORE_ASSIGN_OR_RETURN(UpdateItemResult r, db.UpdateItem(c.update));
      *consumed = r.consumed_capacity;
      return std::move(r.attributes);
    }
    case CompiledStatement::Kind::kDelete: {
      c.del.return_consumed_capacity = capacity;
      c.del.return_values_on_condition_check_failure = on_failure;
      PARTSTORE_ASSIGN_OR_RETURN(DeleteItemResult r, db.DeleteItem(c.del));
      *consumed = r.consumed_capacity;
      return std::move(r.attributes);
    }
    default:
      return Status::Internal("not a write statement");
  }
}

// A SELECT page: Query (per partition value, IN) or Scan, resumed from the token.
Result<ExecuteStatementResult> RunSelect(Database& db, CompiledStatement& c,
                                         const ExecuteStatementRequest& request) {
  ContinuationToken token;
  if (request.next_token) {
    PARTSTORE_ASSIGN_OR_RETURN(
        token, internal::partiql::DecodeNextToken(request.statement, *request.next_token));
  }
  ExecuteStatementResult out;
  std::optional<ContinuationToken> next;
  if (c.kind == CompiledStatement::Kind::kScan) {
    c.scan.consistent_read = request.consistent_read;
    c.scan.limit = request.limit;
    c.scan.return_consumed_capacity = request.return_consumed_capacity;
    c.scan.exclusive_start_key = token.exclusive_start_key;
    PARTSTORE_ASSIGN_OR_RETURN(ScanResult r, db.Scan(c.scan));
    out.items = std::move(r.items);
    for (Item& item : out.items) item = SelectedItem(c, std::move(item));
    out.consumed_capacity = r.consumed_capacity;
    if (r.last_evaluated_key) next = ContinuationToken{.exclusive_start_key = r.last_evaluated_key};
  } else {
    if (token.partition_index >= c.partition_values.size()) {
      return Status::Validation("Invalid NextToken");
    }
    std::optional<int32_t> remaining = request.limit;
    std::optional<Item> start = token.exclusive_start_key;
    for (size_t i = token.partition_index; i < c.partition_values.size(); ++i) {
      QueryRequest q = c.query;
      (*q.expression_attribute_values)[":p"] = c.partition_values[i];
      q.consistent_read = request.consistent_read;
      q.limit = remaining;
      q.return_consumed_capacity = request.return_consumed_capacity;
      q.exclusive_start_key = std::move(start);
      start.reset();
      PARTSTORE_ASSIGN_OR_RETURN(QueryResult r, db.Query(q));
      for (Item& item : r.items) out.items.push_back(SelectedItem(c, std::move(item)));
      AddCapacity(out.consumed_capacity, r.consumed_capacity);
      if (r.last_evaluated_key) {
        next = ContinuationToken{.partition_index = i, .exclusive_start_key = r.last_evaluated_key};
        break;
      }
      if (remaining) {
        *remaining -= r.scanned_count;
        if (*remaining <= 0) {
          if (i + 1 < c.partition_values.size()) next = ContinuationToken{.partition_index = i + 1};
          break;
        }
      }
    }
  }
  if (next) {
    out.last_evaluated_key = next->exclusive_start_key;
    out.next_token = internal::partiql::EncodeNextToken(request.statement, *next);
  }
  return out;
}

std::string BatchErrorCode(Code code) {
  switch (code) {
    case Code::kConditionalCheckFailed:
      return "ConditionalCheckFailed";
    case Code::kItemCollectionSizeLimitExceeded:
      return "ItemCollectionSizeLimitExceeded";
    case Code::kRequestLimitExceeded:
      return "RequestLimitExceeded";
    case Code::kValidation:
      return "ValidationError";
    case Code::kProvisionedThroughputExceeded:
      return "ProvisionedThroughputExceeded";
    case Code::kTransactionConflict:
      return "TransactionConflict";
    case Code::kThrottling:
      return "ThrottlingError";
    case Code::kResourceNotFound:
      return "ResourceNotFound";
    case Code::kDuplicateItem:
      return "DuplicateItem";
    default:
      return "InternalServerError";
  }
}

BatchStatementError BatchError(const Status& status) {
  BatchStatementError error{.code = BatchErrorCode(status.code()),
                            .message = std::string(status.message())};
  if (const ErrorDetail* detail = status.detail(); detail != nullptr && detail->item) {
    error.item = detail->item;
  }
  return error;
}

}  // namespace

Result<ExecuteStatementResult> Database::ExecuteStatement(const ExecuteStatementRequest& request) {
  auto run = [&]() -> Result<ExecuteStatementResult> {
    ConstraintViolations v;
    StatementConstraints(v, request.statement, request.parameters, "");
    if (request.limit) v.Range(*request.limit, 1, INT32_MAX, "limit");
    PARTSTORE_RETURN_IF_ERROR(v.ToStatus());

    PARTSTORE_ASSIGN_OR_RETURN(CompiledStatement c, Prepare(*this, request.statement,
                                                            request.parameters, Context::kSingle));
    if (c.is_read()) return RunSelect(*this, c, request);
    ExecuteStatementResult out;
    PARTSTORE_ASSIGN_OR_RETURN(
        std::optional<Item> returned,
        RunWrite(*this, c, request.return_consumed_capacity,
                 request.return_values_on_condition_check_failure, &out.consumed_capacity));
    if (returned) out.items.push_back(std::move(*returned));
    return out;
  };
  return state_->Shown(run());
}

Result<BatchExecuteStatementResult> Database::BatchExecuteStatement(
    const BatchExecuteStatementRequest& request) {
  auto run = [&]() -> Result<BatchExecuteStatementResult> {
    ConstraintViolations v;
    v.CollectionLength(fmt::format("[{} statements]", request.statements.size()),
                       request.statements.size(), 1, kMaxBatchStatements, "statements");
    for (size_t i = 0; i < request.statements.size(); ++i) {
      const BatchStatementRequest& s = request.statements[i];
      StatementConstraints(v, s.statement, s.parameters,
                           fmt::format("statements.{}.member.", i + 1));
    }
    PARTSTORE_RETURN_IF_ERROR(v.ToStatus());

    // Compile every statement first: a batch is all reads or all writes.
    std::vector<Result<CompiledStatement>> compiled;
    compiled.reserve(request.statements.size());
    bool reads = false, writes = false;
    for (const BatchStatementRequest& s : request.statements) {
      compiled.push_back(Prepare(*this, s.statement, s.parameters, Context::kBatch));
      if (compiled.back().ok()) (compiled.back()->is_read() ? reads : writes) = true;
    }
    if (reads && writes) {
      return Status::Validation(
          "Unsupported operation: A batch must consist of either read statements or write "
          "statements, not both");
    }

    BatchExecuteStatementResult out;
    for (size_t i = 0; i < compiled.size(); ++i) {
      BatchStatementResponse response;
      if (!compiled[i].ok()) {
        response.error = BatchError(compiled[i].error());
        out.responses.push_back(std::move(response));
        continue;
      }
      CompiledStatement& c = *compiled[i];
      const BatchStatementRequest& s = request.statements[i];
      response.table_name = c.table_name;
      std::optional<ConsumedCapacity> consumed;
      if (c.kind == CompiledStatement::Kind::kGet) {
        c.get.consistent_read = s.consistent_read;
        c.get.return_consumed_capacity = request.return_consumed_capacity;
        Result<GetItemResult> r = GetItem(c.get);
        if (r.ok()) {
          if (r->item) r->item = SelectedItem(c, std::move(*r->item));
          response.item = std::move(r->item);
          consumed = r->consumed_capacity;
        } else {
          response.error = BatchError(r.error());
        }
      } else {
        Result<std::optional<Item>> r =
            RunWrite(*this, c, request.return_consumed_capacity,
                     s.return_values_on_condition_check_failure, &consumed);
        if (!r.ok()) response.error = BatchError(r.error());
      }
      AddTableCapacity(out.consumed_capacity, consumed);
      out.responses.push_back(std::move(response));
    }
    return out;
  };
  return state_->Shown(run());
}

Result<ExecuteTransactionResult> Database::ExecuteTransaction(
    const ExecuteTransactionRequest& request) {
  auto run = [&]() -> Result<ExecuteTransactionResult> {
    ConstraintViolations v;
    v.CollectionLength(fmt::format("[{} statements]", request.transact_statements.size()),
                       request.transact_statements.size(), 1, kMaxTransactStatements,
                       "transactStatements");
    for (size_t i = 0; i < request.transact_statements.size(); ++i) {
      const ParameterizedStatement& s = request.transact_statements[i];
      StatementConstraints(v, s.statement, s.parameters,
                           fmt::format("transactStatements.{}.member.", i + 1));
    }
    if (request.client_request_token) {
      v.Length(*request.client_request_token, 1, kMaxClientRequestTokenLength,
               "clientRequestToken");
    }
    PARTSTORE_RETURN_IF_ERROR(v.ToStatus());

    std::vector<CompiledStatement> compiled;
    compiled.reserve(request.transact_statements.size());
    bool reads = false, writes = false;
    for (const ParameterizedStatement& s : request.transact_statements) {
      PARTSTORE_ASSIGN_OR_RETURN(CompiledStatement c,
                                 Prepare(*this, s.statement, s.parameters, Context::kTransaction));
      (c.is_read() ? reads : writes) = true;
      compiled.push_back(std::move(c));
    }
    if (reads && writes) {
      return Status::Validation(
          "Unsupported operation: A transaction must consist of either read statements or write "
          "statements, not both");
    }

    ExecuteTransactionResult out;
    if (reads) {
      TransactGetItemsRequest get{.return_consumed_capacity = request.return_consumed_capacity};
      for (CompiledStatement& c : compiled) get.transact_items.push_back({.get = std::move(c.get)});
      PARTSTORE_ASSIGN_OR_RETURN(TransactGetItemsResult r, TransactGetItems(get));
      for (size_t i = 0; i < r.responses.size() && i < compiled.size(); ++i) {
        if (r.responses[i]) r.responses[i] = SelectedItem(compiled[i], std::move(*r.responses[i]));
      }
      out.responses = std::move(r.responses);
      out.consumed_capacity = std::move(r.consumed_capacity);
      return out;
    }

    TransactWriteItemsRequest write{.client_request_token = request.client_request_token,
                                    .return_consumed_capacity = request.return_consumed_capacity};
    for (size_t i = 0; i < compiled.size(); ++i) {
      CompiledStatement& c = compiled[i];
      const ReturnValuesOnConditionCheckFailure on_failure =
          request.transact_statements[i].return_values_on_condition_check_failure;
      TransactWriteItem item;
      switch (c.kind) {
        case CompiledStatement::Kind::kPut:
          c.put.return_values_on_condition_check_failure = on_failure;
          item.put = std::move(c.put);
          break;
        case CompiledStatement::Kind::kUpdate:
          if (c.update.return_values != ReturnValue::kNone) {
            return Status::Validation("Unsupported clause: RETURNING in a transaction");
          }
          c.update.return_values_on_condition_check_failure = on_failure;
          item.update = std::move(c.update);
          break;
        case CompiledStatement::Kind::kDelete:
          if (c.del.return_values != ReturnValue::kNone) {
            return Status::Validation("Unsupported clause: RETURNING in a transaction");
          }
          c.del.return_values_on_condition_check_failure = on_failure;
          item.del = std::move(c.del);
          break;
        default:
          c.check.return_values_on_condition_check_failure = on_failure;
          item.condition_check = std::move(c.check);
          break;
      }
      write.transact_items.push_back(std::move(item));
    }
    Result<TransactWriteItemsResult> r = TransactWriteItems(write);
    if (!r.ok()) {
      const Status& error = r.error();
      const ErrorDetail* detail = error.detail();
      if (error.code() != Code::kTransactionCanceled || detail == nullptr) return error;
      // An INSERT's failed condition is DynamoDB's DuplicateItem reason.
      std::vector<CancellationReason> reasons = detail->cancellation_reasons;
      for (size_t i = 0; i < reasons.size() && i < compiled.size(); ++i) {
        if (compiled[i].kind == CompiledStatement::Kind::kPut &&
            reasons[i].code == "ConditionalCheckFailed") {
          reasons[i].code = "DuplicateItem";
          reasons[i].message = std::string(kDuplicateItem);
        }
      }
      return TransactionCanceledError(std::move(reasons));
    }
    out.consumed_capacity = std::move(r->consumed_capacity);
    return out;
  };
  return state_->Shown(run());
}

}  // namespace partstore
