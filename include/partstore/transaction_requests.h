// The transaction requests and results: TransactWriteItems and TransactGetItems. As DynamoDB's,
// a transaction is all or nothing over up to 100 distinct items (limits below), a cancelled one
// reports one reason per action, and a ClientRequestToken makes a TransactWriteItems idempotent
// for 10 minutes. Each action reuses the single-item operation's request struct; only the members
// DynamoDB allows in a transaction action are read (TableName, Key / Item, the expressions, their
// names and values, ReturnValuesOnConditionCheckFailure). The legacy parameters (Expected,
// AttributeUpdates, AttributesToGet) do not exist in transactions: set, they are refused.
//
// Thread safety: value types.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "partstore/consumed_capacity.h"
#include "partstore/error_detail.h"
#include "partstore/item_requests.h"
#include "partstore/status.h"

namespace partstore {

inline constexpr size_t kMaxTransactionActions = 100;
inline constexpr uint64_t kMaxTransactionPayloadBytes = 4 * 1024 * 1024;
inline constexpr size_t kMaxClientRequestTokenLength = 36;
// How long a ClientRequestToken is remembered after its transaction finished.
inline constexpr double kClientRequestTokenSeconds = 600;

// A ConditionCheck action: a condition on one item, no write.
struct ConditionCheckRequest {
  std::string table_name{};
  Item key{};
  std::optional<std::string> condition_expression{};  // required
  std::optional<expr::NameMap> expression_attribute_names{};
  std::optional<AttributeMap> expression_attribute_values{};
  ReturnValuesOnConditionCheckFailure return_values_on_condition_check_failure =
      ReturnValuesOnConditionCheckFailure::kNone;
};

// One action of TransactWriteItems: exactly one member set.
struct TransactWriteItem {
  std::optional<ConditionCheckRequest> condition_check{};
  std::optional<PutItemRequest> put{};
  std::optional<DeleteItemRequest> del{};  // DynamoDB's "Delete"
  std::optional<UpdateItemRequest> update{};
};

struct TransactWriteItemsRequest {
  std::vector<TransactWriteItem> transact_items{};
  std::optional<std::string> client_request_token{};
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
  ReturnItemCollectionMetrics return_item_collection_metrics = ReturnItemCollectionMetrics::kNone;
};
struct TransactWriteItemsResult {
  std::vector<ConsumedCapacity> consumed_capacity{};  // one per table, when asked for
  // Per table (tables with LSIs, ReturnItemCollectionMetrics=SIZE): one entry per item written.
  std::vector<std::pair<std::string, std::vector<ItemCollectionMetrics>>> item_collection_metrics{};
};

// One action of TransactGetItems: a Get (TableName, Key, ProjectionExpression,
// ExpressionAttributeNames).
struct TransactGetItem {
  GetItemRequest get{};
};

struct TransactGetItemsRequest {
  std::vector<TransactGetItem> transact_items{};
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
};
struct TransactGetItemsResult {
  // One per action, in order: the item, or nullopt when there is none (an entry without Item).
  std::vector<std::optional<Item>> responses{};
  std::vector<ConsumedCapacity> consumed_capacity{};  // one per table, when asked for
};

}  // namespace partstore
