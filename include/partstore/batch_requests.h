// The batch requests and results: BatchGetItem and BatchWriteItem. Tables appear in the order
// the request lists them (the JSON object's member order), which is the order DynamoDB checks
// and reports them in.
//
// Batches are atomic per item, not as a unit (as DynamoDB documents: a batch is not a
// transaction): each put, delete or get is its own linearizable operation. One invalid request
// rejects the whole batch before anything is done.
//
// Thread safety: value types.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "partstore/consumed_capacity.h"
#include "partstore/expression_parameters.h"
#include "partstore/item.h"
#include "partstore/item_requests.h"

namespace partstore {

inline constexpr size_t kMaxBatchGetKeys = 100;
inline constexpr size_t kMaxBatchWriteRequests = 25;
inline constexpr uint64_t kMaxBatchResponseBytes = 16 * 1024 * 1024;

// KeysAndAttributes: the keys to read from one table and how.
struct KeysAndAttributes {
  std::vector<Item> keys{};
  std::optional<std::string> projection_expression{};
  std::optional<expr::NameMap> expression_attribute_names{};
  std::optional<std::vector<std::string>> attributes_to_get{};  // legacy
  bool consistent_read = false;
};

struct BatchGetItemRequest {
  std::vector<std::pair<std::string, KeysAndAttributes>> request_items{};
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
};
struct BatchGetItemResult {
  // Per table (request order), the items found, in no particular order (DynamoDB's note).
  std::vector<std::pair<std::string, std::vector<Item>>> responses{};
  // The keys not read because the response reached 16 MB; same shape as the request.
  std::vector<std::pair<std::string, KeysAndAttributes>> unprocessed_keys{};
  std::vector<ConsumedCapacity> consumed_capacity{};  // one per table, when asked for
};

// WriteRequest: exactly one of PutRequest{Item} or DeleteRequest{Key}.
struct WriteRequest {
  enum class Kind : uint8_t { kPut, kDelete };
  Kind kind = Kind::kPut;
  Item item{};  // the item for a put, the key for a delete
};

struct BatchWriteItemRequest {
  std::vector<std::pair<std::string, std::vector<WriteRequest>>> request_items{};
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
  ReturnItemCollectionMetrics return_item_collection_metrics = ReturnItemCollectionMetrics::kNone;
};
struct BatchWriteItemResult {
  std::vector<std::pair<std::string, std::vector<WriteRequest>>> unprocessed_items{};
  // Per table (tables with LSIs, ReturnItemCollectionMetrics=SIZE): one entry per item collection
  // written.
  std::vector<std::pair<std::string, std::vector<ItemCollectionMetrics>>> item_collection_metrics{};
  std::vector<ConsumedCapacity> consumed_capacity{};  // one per table, when asked for
};

}  // namespace partstore
