// PartiQL: ExecuteStatement, BatchExecuteStatement and ExecuteTransaction, member for member as
// DynamoDB's (snake_case). A statement is DynamoDB's PartiQL dialect (SELECT, INSERT, UPDATE,
// DELETE; EXISTS in transactions) with `?` parameters bound, in order, to `parameters`. The engine
// compiles each statement into the request of the operation it stands for (Query, Scan, GetItem,
// PutItem, UpdateItem, DeleteItem, TransactGetItems, TransactWriteItems) and runs that: the same
// expressions, checks, capacity and errors. README.md, "PartiQL", lists what is supported.
//
// Limits (DynamoDB's model constraints): a statement is 1..8192 characters, parameters at least
// one when present, Limit at least 1, a batch 1..25 statements, a transaction 1..100.
//
// Thread safety: value types.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "partstore/consumed_capacity.h"
#include "partstore/item.h"
#include "partstore/item_requests.h"

namespace partstore {

inline constexpr size_t kMaxStatementLength = 8192;
inline constexpr size_t kMaxBatchStatements = 25;
inline constexpr size_t kMaxTransactStatements = 100;

struct ExecuteStatementRequest {
  std::string statement{};
  std::optional<std::vector<Value>> parameters{};
  bool consistent_read = false;
  // From the previous page's result: the SELECT continues where it stopped.
  std::optional<std::string> next_token{};
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
  // SELECT: the most items to evaluate (not to return), as Query's and Scan's Limit.
  std::optional<int32_t> limit{};
  ReturnValuesOnConditionCheckFailure return_values_on_condition_check_failure =
      ReturnValuesOnConditionCheckFailure::kNone;
};
struct ExecuteStatementResult {
  // SELECT: the page's items; UPDATE / DELETE with RETURNING: the item returned; else empty.
  std::vector<Item> items{};
  // Set when a SELECT has more to read: pass it as the next request's next_token.
  std::optional<std::string> next_token{};
  std::optional<ConsumedCapacity> consumed_capacity{};
  std::optional<Item> last_evaluated_key{};
};

// One statement of a batch (DynamoDB's BatchStatementRequest).
struct BatchStatementRequest {
  std::string statement{};
  std::optional<std::vector<Value>> parameters{};
  bool consistent_read = false;
  ReturnValuesOnConditionCheckFailure return_values_on_condition_check_failure =
      ReturnValuesOnConditionCheckFailure::kNone;
};
struct BatchExecuteStatementRequest {
  std::vector<BatchStatementRequest> statements{};
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
};
// A statement's failure: DynamoDB's BatchStatementError codes (ConditionalCheckFailed,
// ValidationError, ResourceNotFound, DuplicateItem, ProvisionedThroughputExceeded, ...).
struct BatchStatementError {
  std::string code{};
  std::string message{};
  std::optional<Item> item{};  // ReturnValuesOnConditionCheckFailure=ALL_OLD
};
struct BatchStatementResponse {
  std::optional<BatchStatementError> error{};
  std::optional<std::string> table_name{};
  std::optional<Item> item{};  // a read that found its item
};
struct BatchExecuteStatementResult {
  std::vector<BatchStatementResponse> responses{};    // one per statement, in order
  std::vector<ConsumedCapacity> consumed_capacity{};  // one per table, when asked for
};

// One statement of a transaction (DynamoDB's ParameterizedStatement).
struct ParameterizedStatement {
  std::string statement{};
  std::optional<std::vector<Value>> parameters{};
  ReturnValuesOnConditionCheckFailure return_values_on_condition_check_failure =
      ReturnValuesOnConditionCheckFailure::kNone;
};
struct ExecuteTransactionRequest {
  std::vector<ParameterizedStatement> transact_statements{};
  std::optional<std::string> client_request_token{};
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
};
struct ExecuteTransactionResult {
  // A read transaction: one entry per statement, the item or nullopt. A write transaction: none
  // (the wire response has no Responses member).
  std::optional<std::vector<std::optional<Item>>> responses{};
  std::vector<ConsumedCapacity> consumed_capacity{};  // one per table, when asked for
};

}  // namespace partstore
