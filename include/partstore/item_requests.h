// The single-item requests and results: PutItem, GetItem, UpdateItem, DeleteItem. Each struct
// mirrors DynamoDB's operation member for member (snake_case), the legacy parameters (Expected,
// ConditionalOperator, AttributesToGet, AttributeUpdates) included, so the JSON protocol is a
// one-to-one translation. A std::optional member is one DynamoDB tells apart when absent (an
// empty ExpressionAttributeNames map is an error, an absent one is not).
//
// Thread safety: value types.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "partstore/consumed_capacity.h"
#include "partstore/expression_parameters.h"
#include "partstore/item.h"
#include "partstore/stored_item.h"

namespace partstore {

enum class ReturnValue : uint8_t { kNone, kAllOld, kUpdatedOld, kAllNew, kUpdatedNew };
enum class ReturnValuesOnConditionCheckFailure : uint8_t { kNone, kAllOld };
enum class ReturnItemCollectionMetrics : uint8_t { kNone, kSize };

// "NONE", "ALL_OLD", "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW".
std::string_view ReturnValueName(ReturnValue value);

// ItemCollectionMetrics (tables with local secondary indexes, ReturnItemCollectionMetrics=SIZE):
// the item collection's partition key and an estimate of its size (base items + LSI entries) in
// GB, as a [lower, upper] range.
struct ItemCollectionMetrics {
  Item item_collection_key{};
  double size_estimate_range_gb[2] = {0, 1};
  friend bool operator==(const ItemCollectionMetrics&, const ItemCollectionMetrics&) = default;
};

// The item collection limit of tables with LSIs, as DynamoDB documents it: 10 GB per partition key
// (base items + LSI entries); a write past it fails with ItemCollectionSizeLimitExceededException
// (in a transaction, it cancels with that reason).
inline constexpr uint64_t kMaxItemCollectionBytes = 10ull * 1024 * 1024 * 1024;

struct PutItemRequest {
  std::string table_name{};
  Item item{};
  std::optional<std::string> condition_expression{};
  std::optional<expr::NameMap> expression_attribute_names{};
  std::optional<AttributeMap> expression_attribute_values{};
  std::optional<std::vector<expr::ExpectedAttribute>> expected{};   // legacy
  std::optional<expr::ConditionalOperator> conditional_operator{};  // legacy
  ReturnValue return_values = ReturnValue::kNone;                   // NONE or ALL_OLD
  ReturnValuesOnConditionCheckFailure return_values_on_condition_check_failure =
      ReturnValuesOnConditionCheckFailure::kNone;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
  ReturnItemCollectionMetrics return_item_collection_metrics = ReturnItemCollectionMetrics::kNone;
};
struct PutItemResult {
  std::optional<ItemCollectionMetrics> item_collection_metrics{};
  std::optional<Item> attributes{};  // ALL_OLD, when an item was replaced
  std::optional<ConsumedCapacity> consumed_capacity{};
};

struct GetItemRequest {
  std::string table_name{};
  Item key{};
  std::optional<std::string> projection_expression{};
  std::optional<expr::NameMap> expression_attribute_names{};
  std::optional<std::vector<std::string>> attributes_to_get{};  // legacy
  bool consistent_read = false;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
};
// GetItem's answer, with the item as a tree (GetItemResult) or as the engine stores it
// (GetItemViewResult: a StoredItem read in place through its views, partstore/stored_item.h;
// ToItem() gives the tree). The view is the engine's own buffer, shared, never copied; it stays
// readable and unchanged however the table changes afterwards.
template <typename ItemT>
struct BasicGetItemResult {
  std::optional<ItemT> item{};  // absent when no item has the key
  std::optional<ConsumedCapacity> consumed_capacity{};
};
using GetItemResult = BasicGetItemResult<Item>;
using GetItemViewResult = BasicGetItemResult<StoredItem>;

struct UpdateItemRequest {
  std::string table_name{};
  Item key{};
  std::optional<std::string> update_expression{};
  std::optional<std::string> condition_expression{};
  std::optional<expr::NameMap> expression_attribute_names{};
  std::optional<AttributeMap> expression_attribute_values{};
  std::optional<std::vector<expr::AttributeUpdate>> attribute_updates{};  // legacy
  std::optional<std::vector<expr::ExpectedAttribute>> expected{};         // legacy
  std::optional<expr::ConditionalOperator> conditional_operator{};        // legacy
  ReturnValue return_values = ReturnValue::kNone;
  ReturnValuesOnConditionCheckFailure return_values_on_condition_check_failure =
      ReturnValuesOnConditionCheckFailure::kNone;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
  ReturnItemCollectionMetrics return_item_collection_metrics = ReturnItemCollectionMetrics::kNone;
};
struct UpdateItemResult {
  std::optional<ItemCollectionMetrics> item_collection_metrics{};
  std::optional<Item> attributes{};
  std::optional<ConsumedCapacity> consumed_capacity{};
};

struct DeleteItemRequest {
  std::string table_name{};
  Item key{};
  std::optional<std::string> condition_expression{};
  std::optional<expr::NameMap> expression_attribute_names{};
  std::optional<AttributeMap> expression_attribute_values{};
  std::optional<std::vector<expr::ExpectedAttribute>> expected{};   // legacy
  std::optional<expr::ConditionalOperator> conditional_operator{};  // legacy
  ReturnValue return_values = ReturnValue::kNone;                   // NONE or ALL_OLD
  ReturnValuesOnConditionCheckFailure return_values_on_condition_check_failure =
      ReturnValuesOnConditionCheckFailure::kNone;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
  ReturnItemCollectionMetrics return_item_collection_metrics = ReturnItemCollectionMetrics::kNone;
};
struct DeleteItemResult {
  std::optional<ItemCollectionMetrics> item_collection_metrics{};
  std::optional<Item> attributes{};  // ALL_OLD, when an item was deleted
  std::optional<ConsumedCapacity> consumed_capacity{};
};

}  // namespace partstore
