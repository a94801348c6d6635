// The multi-item read requests and results: Query and Scan. Each struct mirrors DynamoDB's
// operation member for member (snake_case), legacy parameters included (KeyConditions,
// QueryFilter, ScanFilter, ConditionalOperator, AttributesToGet).
//
// Paging, as DynamoDB's: a page stops after `limit` items evaluated or 1 MB of items read
// (before the filter), whichever comes first; `last_evaluated_key` is then set (even if nothing
// is left) and is the key to pass as `exclusive_start_key` to continue.
//
// Thread safety: value types.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "partstore/consumed_capacity.h"
#include "partstore/expression_parameters.h"
#include "partstore/item.h"
#include "partstore/stored_item.h"

namespace partstore {

enum class Select : uint8_t {
  kAllAttributes,
  kAllProjectedAttributes,
  kSpecificAttributes,
  kCount,
};

// "ALL_ATTRIBUTES", "ALL_PROJECTED_ATTRIBUTES", "SPECIFIC_ATTRIBUTES", "COUNT".
std::string_view SelectName(Select select);

// The page budget: 1 MB of items read.
inline constexpr uint64_t kMaxPageBytes = 1024 * 1024;

struct QueryRequest {
  std::string table_name{};
  std::optional<std::string> index_name{};
  std::optional<std::string> key_condition_expression{};
  std::optional<std::string> filter_expression{};
  std::optional<std::string> projection_expression{};
  std::optional<expr::NameMap> expression_attribute_names{};
  std::optional<AttributeMap> expression_attribute_values{};
  std::optional<std::vector<expr::AttributeCondition>> key_conditions{};  // legacy
  std::optional<std::vector<expr::AttributeCondition>> query_filter{};    // legacy
  std::optional<expr::ConditionalOperator> conditional_operator{};        // legacy
  std::optional<std::vector<std::string>> attributes_to_get{};            // legacy
  std::optional<Select> select{};
  std::optional<int32_t> limit{};
  std::optional<bool> scan_index_forward{};  // absent: true
  bool consistent_read = false;
  std::optional<Item> exclusive_start_key{};
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
};

struct ScanRequest {
  std::string table_name{};
  std::optional<std::string> index_name{};
  std::optional<std::string> filter_expression{};
  std::optional<std::string> projection_expression{};
  std::optional<expr::NameMap> expression_attribute_names{};
  std::optional<AttributeMap> expression_attribute_values{};
  std::optional<std::vector<expr::AttributeCondition>> scan_filter{};  // legacy
  std::optional<expr::ConditionalOperator> conditional_operator{};     // legacy
  std::optional<std::vector<std::string>> attributes_to_get{};         // legacy
  std::optional<Select> select{};
  std::optional<int32_t> limit{};
  std::optional<int32_t> segment{};
  std::optional<int32_t> total_segments{};
  bool consistent_read = false;
  std::optional<Item> exclusive_start_key{};
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
};

// Query and Scan answer alike, with the items as trees (ReadPageResult) or as the engine stores
// them (ReadPageViewResult: StoredItems, see GetItemViewResult).
template <typename ItemT>
struct BasicReadPageResult {
  std::vector<ItemT> items{};  // empty (and not reported) for Select=COUNT
  int32_t count = 0;           // items after the filter
  int32_t scanned_count = 0;   // items evaluated
  std::optional<Item> last_evaluated_key{};
  std::optional<ConsumedCapacity> consumed_capacity{};
  // Select=COUNT: the wire response has no Items member.
  bool items_omitted = false;
};
using ReadPageResult = BasicReadPageResult<Item>;
using ReadPageViewResult = BasicReadPageResult<StoredItem>;
using QueryResult = ReadPageResult;
using ScanResult = ReadPageResult;
using QueryViewResult = ReadPageViewResult;
using ScanViewResult = ReadPageViewResult;

}  // namespace partstore
