// ModelTable: a trivially correct model of one partstore table, for the model-based randomized
// tests (model_test.cc). Header-only (tests/CMakeLists.txt compiles only *_test.cc and
// *_testutil.cc files).
//
// Storage is two nested std::maps ordered by partstore's one value order (Compare,
// partstore/value.h): partition key -> sort key -> item. A hash-only table keeps each item under an
// empty sort key. Nothing here shares code with the engine's storage (no key encoding, no hashing,
// no collections): the point of the model is storage, Query ranges and paging, and capacity.
//
// Reused from core/, because they are tested on their own (tests/expr): condition evaluation
// (ConditionExpression, FilterExpression) and update semantics (ApplyUpdate). Sort-key conditions,
// projections of top-level names, paging (Limit = items evaluated, the 1 MB budget, where
// LastEvaluatedKey is set) and capacity are written out here by hand.
//
// Rules modelled (shared/reference/dynamodb-semantics.md):
//   - Query: items of one partition key in sort-key order (reversed when ScanIndexForward=false),
//     after ExclusiveStartKey; each item read counts toward Limit and toward 1 MB (sum of ItemSize;
//     the item that reaches 1 MB is included); the page stops at whichever comes first, and then
//     LastEvaluatedKey is that item's key, even if nothing is left. The filter is applied after.
//     Capacity: the sizes of all items read, summed, rounded up to 4 KB once (0 items: one unit);
//     eventual x0.5 (§2.2).
//   - GetItem: ceil(size / 4 KB), at least 1; eventual x0.5.
//   - Writes: ceil(max(old, new) / 1 KB), at least 1 (deleting a missing item: 1) (§2.3).
//   - Batches: each write / read rounded separately, then summed (a missing key: one unit).
// Also here: the helpers that compare the engine's results with the model's (ExpectSame*).
//
// Thread safety: not thread-safe.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/capacity_units.h"
#include "core/expr/evaluate.h"
#include "core/expr/key_condition.h"
#include "core/expr/parser.h"
#include "core/expr/resolve.h"
#include "core/expr/update.h"
#include "partstore/batch_requests.h"
#include "partstore/error_detail.h"
#include "partstore/item.h"
#include "partstore/item_requests.h"
#include "partstore/key.h"
#include "partstore/read_requests.h"
#include "partstore/status.h"
#include "partstore/value.h"

namespace partstore::testing {

// Orders key values of one type (S, N or B) as DynamoDB does.
struct ValueLess {
  bool operator()(const Value& a, const Value& b) const { return Compare(a, b) < 0; }
};

// A sort-key condition, in structured form (the test also writes it as KeyConditionExpression
// text for the engine).
struct ModelSortCondition {
  expr::SortKeyOp op = expr::SortKeyOp::kNone;
  Value low;   // operand of =, <, <=, >, >=, begins_with; BETWEEN's lower bound
  Value high;  // BETWEEN's upper bound

  bool Matches(const Value& sk) const {
    switch (op) {
      case expr::SortKeyOp::kNone:
        return true;
      case expr::SortKeyOp::kEq:
        return Compare(sk, low) == 0;
      case expr::SortKeyOp::kLt:
        return Compare(sk, low) < 0;
      case expr::SortKeyOp::kLe:
        return Compare(sk, low) <= 0;
      case expr::SortKeyOp::kGt:
        return Compare(sk, low) > 0;
      case expr::SortKeyOp::kGe:
        return Compare(sk, low) >= 0;
      case expr::SortKeyOp::kBetween:
        return Compare(sk, low) >= 0 && Compare(sk, high) <= 0;
      case expr::SortKeyOp::kBeginsWith: {
        const std::string& prefix = low.is(Type::kS) ? low.as_string() : low.as_binary();
        const std::string& s = sk.is(Type::kS) ? sk.as_string() : sk.as_binary();
        return s.compare(0, prefix.size(), prefix) == 0;
      }
    }
    return false;
  }
};

// One page of a Query, as the model computes it.
struct ModelPage {
  std::vector<Item> items;
  int32_t count = 0;
  int32_t scanned_count = 0;
  std::optional<Item> last_evaluated_key;
  int64_t half_units = 0;  // what ConsumedCapacity must report
};

// Top-level attribute names of a ProjectionExpression such as "a, #b" (names resolved through
// `names`); nested paths are not modelled.
inline std::vector<std::string> ProjectedNames(const std::string& projection,
                                               const std::optional<expr::NameMap>& names) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= projection.size()) {
    size_t end = projection.find(',', start);
    if (end == std::string::npos) end = projection.size();
    std::string name = projection.substr(start, end - start);
    name.erase(0, name.find_first_not_of(' '));
    name.erase(name.find_last_not_of(' ') + 1);
    if (!name.empty() && name[0] == '#' && names) name = names->at(name);
    out.push_back(name);
    start = end + 1;
  }
  return out;
}

inline Item ProjectTopLevel(const Item& item, const std::vector<std::string>& names) {
  Item out;
  for (const std::string& name : names) {
    if (auto it = item.find(name); it != item.end()) out.insert_or_assign(name, it->second);
  }
  return out;
}

class ModelTable {
 public:
  using SortMap = std::map<Value, Item, ValueLess>;
  using PartitionMap = std::map<Value, SortMap, ValueLess>;

  explicit ModelTable(KeySchema schema) : schema_(std::move(schema)) {}

  const KeySchema& schema() const { return schema_; }
  const PartitionMap& partitions() const { return data_; }

  // The key attributes of `item`.
  Item KeyOf(const Item& item) const {
    Item key{{schema_.partition.name, item.at(schema_.partition.name)}};
    if (schema_.sort) key.insert_or_assign(schema_.sort->name, item.at(schema_.sort->name));
    return key;
  }

  // Orders items (or keys) by their key: partition key, then sort key.
  bool KeyBefore(const Item& a, const Item& b) const {
    const auto c = Compare(a.at(schema_.partition.name), b.at(schema_.partition.name));
    if (c != 0) return c < 0;
    return schema_.sort && Compare(SortValue(a), SortValue(b)) < 0;
  }

  // The sort keys of partition `pk`, for failure messages.
  std::string SortKeysOf(const Value& pk) const {
    auto p = data_.find(pk);
    if (p == data_.end()) return "(no such partition)";
    std::string out;
    for (const auto& [sk, item] : p->second) out += DebugString(sk) + " ";
    return out;
  }

  const Item* Find(const Item& key) const {
    auto p = data_.find(key.at(schema_.partition.name));
    if (p == data_.end()) return nullptr;
    auto s = p->second.find(SortValue(key));
    return s == p->second.end() ? nullptr : &s->second;
  }

  std::vector<Item> AllItems() const {
    std::vector<Item> out;
    for (const auto& [pk, items] : data_) {
      for (const auto& [sk, item] : items) out.push_back(item);
    }
    return out;
  }
  int64_t item_count() const {
    int64_t n = 0;
    for (const auto& [pk, items] : data_) n += static_cast<int64_t>(items.size());
    return n;
  }
  int64_t size_bytes() const {
    int64_t n = 0;
    for (const auto& [pk, items] : data_) {
      for (const auto& [sk, item] : items) n += static_cast<int64_t>(ItemSize(item));
    }
    return n;
  }

  // ---- Single-item operations: the engine's request structs, DynamoDB's results ----

  Result<PutItemResult> PutItem(const PutItemRequest& request) {
    const Item* old = Find(request.item);
    PARTSTORE_RETURN_IF_ERROR(CheckCondition(request.condition_expression,
                                             request.expression_attribute_names,
                                             request.expression_attribute_values, old,
                                             request.return_values_on_condition_check_failure));
    PutItemResult result;
    result.consumed_capacity =
        WriteCapacity(request.return_consumed_capacity,
                      std::max(old ? ItemSize(*old) : 0, ItemSize(request.item)));
    if (old && request.return_values == ReturnValue::kAllOld) result.attributes = *old;
    Store(request.item);
    return result;
  }

  Result<GetItemResult> GetItem(const GetItemRequest& request) const {
    GetItemResult result;
    const Item* item = Find(request.key);
    if (item) {
      result.item = request.projection_expression
                        ? ProjectTopLevel(*item, ProjectedNames(*request.projection_expression,
                                                                request.expression_attribute_names))
                        : *item;
    }
    if (request.return_consumed_capacity != ReturnConsumedCapacity::kNone) {
      result.consumed_capacity.emplace();
      result.consumed_capacity->table_name = request.table_name;
      result.consumed_capacity->total_half_units =
          ReadHalfUnits(item ? ItemSize(*item) : 0, Consistency(request.consistent_read));
    }
    return result;
  }

  Result<UpdateItemResult> UpdateItem(const UpdateItemRequest& request) {
    const Item* found = Find(request.key);
    const std::optional<Item> old = found ? std::optional<Item>(*found) : std::nullopt;
    const Item* old_ptr = old ? &*old : nullptr;
    expr::Resolver resolver(
        request.expression_attribute_names ? &*request.expression_attribute_names : nullptr,
        request.expression_attribute_values ? &*request.expression_attribute_values : nullptr);
    PARTSTORE_ASSIGN_OR_RETURN(expr::UpdateExpression parsed,
                               expr::ParseUpdate(request.update_expression.value()));
    PARTSTORE_ASSIGN_OR_RETURN(expr::UpdateExpression update, resolver.Resolve(parsed));
    PARTSTORE_RETURN_IF_ERROR(CheckConditionWith(&resolver, request.condition_expression, old_ptr,
                                                 request.return_values_on_condition_check_failure));
    const expr::UpdatedAttributes wanted =
        request.return_values == ReturnValue::kUpdatedOld   ? expr::UpdatedAttributes::kUpdatedOld
        : request.return_values == ReturnValue::kUpdatedNew ? expr::UpdatedAttributes::kUpdatedNew
                                                            : expr::UpdatedAttributes::kNone;
    PARTSTORE_ASSIGN_OR_RETURN(expr::UpdateOutcome outcome,
                               expr::ApplyUpdate(update, old_ptr, schema_, wanted));
    size_t new_size = 0;
    if (outcome.exists) {
      for (const auto& [name, value] : request.key) outcome.item.insert_or_assign(name, value);
      PARTSTORE_RETURN_IF_ERROR(ValidateItem(outcome.item));
      new_size = ItemSize(outcome.item);
    }
    UpdateItemResult result;
    result.consumed_capacity = WriteCapacity(request.return_consumed_capacity,
                                             std::max(old ? ItemSize(*old) : 0, new_size));
    switch (request.return_values) {
      case ReturnValue::kNone:
        break;
      case ReturnValue::kAllOld:
        result.attributes = old;
        break;
      case ReturnValue::kAllNew:
        if (outcome.exists) result.attributes = outcome.item;
        break;
      case ReturnValue::kUpdatedOld:
      case ReturnValue::kUpdatedNew:
        if (!outcome.attributes.empty()) result.attributes = outcome.attributes;
        break;
    }
    if (outcome.exists) Store(outcome.item);
    return result;
  }

  Result<DeleteItemResult> DeleteItem(const DeleteItemRequest& request) {
    const Item* old = Find(request.key);
    PARTSTORE_RETURN_IF_ERROR(CheckCondition(request.condition_expression,
                                             request.expression_attribute_names,
                                             request.expression_attribute_values, old,
                                             request.return_values_on_condition_check_failure));
    DeleteItemResult result;
    result.consumed_capacity =
        WriteCapacity(request.return_consumed_capacity, old ? ItemSize(*old) : 0);
    if (old && request.return_values == ReturnValue::kAllOld) result.attributes = *old;
    if (old) Erase(request.key);
    return result;
  }

  // ---- Batches (one table's part) ----

  // BatchWriteItem: each put or delete unconditional. Returns the capacity in half units: each
  // write rounded up to 1 KB separately, then summed (§2.3).
  int64_t BatchWrite(const std::vector<WriteRequest>& writes) {
    int64_t half_units = 0;
    for (const WriteRequest& write : writes) {
      const Item* old = Find(write.item);
      size_t bytes = old ? ItemSize(*old) : 0;
      if (write.kind == WriteRequest::Kind::kPut) {
        bytes = std::max(bytes, ItemSize(write.item));
        Store(write.item);
      } else if (old) {
        Erase(write.item);
      }
      half_units += 2 * WriteUnits(bytes, WriteKind::kStandard);
    }
    return half_units;
  }

  // BatchGetItem: the items found, in key order, and the capacity in half units: each read
  // rounded up to 4 KB separately (a missing key costs one unit too), then summed (§2.2).
  std::pair<std::vector<Item>, int64_t> BatchGet(const KeysAndAttributes& keys) const {
    std::pair<std::vector<Item>, int64_t> out{{}, 0};
    for (const Item& key : keys.keys) {
      const Item* item = Find(key);
      out.second += ReadHalfUnits(item ? ItemSize(*item) : 0, Consistency(keys.consistent_read));
      if (item) out.first.push_back(*item);
    }
    std::sort(out.first.begin(), out.first.end(),
              [this](const Item& a, const Item& b) { return KeyBefore(a, b); });
    return out;
  }

  // ---- Query ----

  // One page of the Query `request` whose key condition is `partition` and `sort` (the request's
  // KeyConditionExpression text is not read). Uses limit, scan_index_forward, exclusive_start_key,
  // filter_expression (+ names, values), projection_expression (top-level names), select COUNT,
  // consistent_read and return_consumed_capacity.
  Result<ModelPage> Query(const QueryRequest& request, const Value& partition,
                          const ModelSortCondition& sort) const {
    std::optional<expr::Condition> filter;
    if (request.filter_expression) {
      expr::Resolver resolver(
          request.expression_attribute_names ? &*request.expression_attribute_names : nullptr,
          request.expression_attribute_values ? &*request.expression_attribute_values : nullptr);
      PARTSTORE_ASSIGN_OR_RETURN(
          expr::Condition parsed,
          expr::ParseCondition(*request.filter_expression, expr::ExpressionKind::kFilter));
      PARTSTORE_ASSIGN_OR_RETURN(filter, resolver.Resolve(parsed, expr::ExpressionKind::kFilter));
    }
    const bool forward = request.scan_index_forward.value_or(true);
    std::vector<const Item*> range;  // matching items in the order read
    if (auto p = data_.find(partition); p != data_.end()) {
      const Value* start =
          request.exclusive_start_key ? &SortValue(*request.exclusive_start_key) : nullptr;
      for (const auto& [sk, item] : p->second) {
        if (!sort.Matches(sk)) continue;
        if (start && (forward ? Compare(sk, *start) <= 0 : Compare(sk, *start) >= 0)) continue;
        range.push_back(&item);
      }
    }
    if (!forward) std::reverse(range.begin(), range.end());
    std::optional<std::vector<std::string>> projection;
    if (request.projection_expression) {
      projection =
          ProjectedNames(*request.projection_expression, request.expression_attribute_names);
    }
    const bool count_only = request.select == Select::kCount;
    ModelPage page;
    uint64_t bytes = 0;
    for (const Item* item : range) {
      ++page.scanned_count;
      bytes += ItemSize(*item);
      if (!filter || expr::Evaluate(*filter, item)) {
        ++page.count;
        if (!count_only)
          page.items.push_back(projection ? ProjectTopLevel(*item, *projection) : *item);
      }
      if ((request.limit && page.scanned_count >= *request.limit) || bytes >= kMaxPageBytes) {
        page.last_evaluated_key = KeyOf(*item);
        break;
      }
    }
    page.half_units = ReadHalfUnits(bytes, Consistency(request.consistent_read));
    return page;
  }

 private:
  static ReadConsistency Consistency(bool consistent_read) {
    return consistent_read ? ReadConsistency::kStrong : ReadConsistency::kEventual;
  }

  // The sort-key value of a key or item (an empty S for hash-only tables).
  const Value& SortValue(const Item& key) const {
    static const Value kNoSortKey{std::string()};
    return schema_.sort ? key.at(schema_.sort->name) : kNoSortKey;
  }

  void Store(const Item& item) { data_[item.at(schema_.partition.name)][SortValue(item)] = item; }
  void Erase(const Item& key) {
    auto p = data_.find(key.at(schema_.partition.name));
    p->second.erase(SortValue(key));
    if (p->second.empty()) data_.erase(p);
  }

  std::optional<ConsumedCapacity> WriteCapacity(ReturnConsumedCapacity mode, size_t bytes) const {
    if (mode == ReturnConsumedCapacity::kNone) return std::nullopt;
    ConsumedCapacity capacity;  // table_name: the caller compares it
    capacity.total_half_units = 2 * WriteUnits(bytes, WriteKind::kStandard);
    return capacity;
  }

  static Status ConditionFailed(const Item* old, ReturnValuesOnConditionCheckFailure mode) {
    Status status(Code::kConditionalCheckFailed, "The conditional request failed");
    if (old && mode == ReturnValuesOnConditionCheckFailure::kAllOld) {
      status =
          std::move(status).WithDetail(std::make_shared<ErrorDetail>(ErrorDetail{.item = *old}));
    }
    return status;
  }

  Status CheckConditionWith(expr::Resolver* resolver, const std::optional<std::string>& text,
                            const Item* old, ReturnValuesOnConditionCheckFailure mode) const {
    if (!text) return Status::Ok();
    PARTSTORE_ASSIGN_OR_RETURN(expr::Condition parsed,
                               expr::ParseCondition(*text, expr::ExpressionKind::kCondition));
    PARTSTORE_ASSIGN_OR_RETURN(expr::Condition condition,
                               resolver->Resolve(parsed, expr::ExpressionKind::kCondition));
    if (!expr::Evaluate(condition, old)) return ConditionFailed(old, mode);
    return Status::Ok();
  }

  Status CheckCondition(const std::optional<std::string>& text,
                        const std::optional<expr::NameMap>& names,
                        const std::optional<AttributeMap>& values, const Item* old,
                        ReturnValuesOnConditionCheckFailure mode) const {
    expr::Resolver resolver(names ? &*names : nullptr, values ? &*values : nullptr);
    return CheckConditionWith(&resolver, text, old, mode);
  }

  KeySchema schema_;
  PartitionMap data_;
};

// ---- Comparing the engine's results with the model's ----------------------------------------

inline std::string Show(const Item& item) {
  std::string s = DebugString(Value(item));
  if (s.size() > 300) s = s.substr(0, 300) + "...(" + std::to_string(s.size()) + " chars)";
  return s;
}
inline std::string Show(const std::optional<Item>& item) { return item ? Show(*item) : "(none)"; }

// The same items in the same order. The pointer form compares items held elsewhere without
// copying them (model_test.cc's scans of items of hundreds of KB).
inline void ExpectSameItems(const std::vector<const Item*>& got,
                            const std::vector<const Item*>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_TRUE(*got[i] == *want[i])
        << "item " << i << "\n  engine: " << Show(*got[i]) << "\n  model:  " << Show(*want[i]);
  }
}
inline std::vector<const Item*> Pointers(const std::vector<Item>& items) {
  std::vector<const Item*> out;
  out.reserve(items.size());
  for (const Item& item : items) out.push_back(&item);
  return out;
}
inline void ExpectSameItems(const std::vector<Item>& got, const std::vector<Item>& want) {
  ExpectSameItems(Pointers(got), Pointers(want));
}

// The engine's error must be the model's: same code, and for a failed condition the same old
// item (ReturnValuesOnConditionCheckFailure=ALL_OLD).
inline void ExpectSameError(const Status& got, const Status& want) {
  ASSERT_EQ(got.code(), want.code())
      << "engine: " << got.ToString() << "\nmodel: " << want.ToString();
  if (want.code() != Code::kConditionalCheckFailed) return;
  std::optional<Item> got_item = got.detail() ? got.detail()->item : std::nullopt;
  std::optional<Item> want_item = want.detail() ? want.detail()->item : std::nullopt;
  EXPECT_TRUE(got_item == want_item)
      << "engine: " << Show(got_item) << "\nmodel: " << Show(want_item);
}

// A Query page against the model's.
inline void ExpectSamePage(const ReadPageResult& got, const ModelPage& want, bool count_only) {
  ExpectSameItems(got.items, want.items);
  EXPECT_EQ(got.count, want.count);
  EXPECT_EQ(got.scanned_count, want.scanned_count);
  EXPECT_TRUE(got.last_evaluated_key == want.last_evaluated_key)
      << "engine: " << Show(got.last_evaluated_key) << "\nmodel: " << Show(want.last_evaluated_key);
  EXPECT_EQ(got.items_omitted, count_only);
}

// A Scan page (no filter, no projection) checked on its own, since the model cannot know the
// engine's hash order: Count = ScannedCount = items, at most `limit` items, none after the one
// that reaches 1 MB, LastEvaluatedKey set exactly when the page stopped at Limit or at 1 MB and
// then the last item's key. Capacity: what was read rounded up to 4 KB per simulated partition
// passed through, each at least one unit (§2.2), so between one rounding of the total and that
// plus one unit per partition. Returns the bytes read.
inline uint64_t ExpectScanPageRules(const ReadPageResult& page, std::optional<int32_t> limit,
                                    bool consistent_read, int64_t partitions,
                                    const KeySchema& schema) {
  EXPECT_EQ(page.count, static_cast<int32_t>(page.items.size()));
  EXPECT_EQ(page.scanned_count, page.count);
  uint64_t bytes = 0;
  for (size_t i = 0; i < page.items.size(); ++i) {
    EXPECT_LT(bytes, kMaxPageBytes) << "page continued past 1 MB at item " << i;
    bytes += ItemSize(page.items[i]);
  }
  if (limit) {
    EXPECT_LE(page.scanned_count, *limit);
  }
  const bool full = (limit && page.scanned_count >= *limit) || bytes >= kMaxPageBytes;
  EXPECT_EQ(page.last_evaluated_key.has_value(), full)
      << "bytes " << bytes << ", LastEvaluatedKey " << Show(page.last_evaluated_key);
  if (page.last_evaluated_key && !page.items.empty()) {
    EXPECT_TRUE(*page.last_evaluated_key == ModelTable(schema).KeyOf(page.items.back()))
        << Show(page.last_evaluated_key);
  }
  const ReadConsistency consistency =
      consistent_read ? ReadConsistency::kStrong : ReadConsistency::kEventual;
  EXPECT_TRUE(page.consumed_capacity.has_value());
  if (page.consumed_capacity) {
    const int64_t least = ReadHalfUnits(bytes, consistency);
    EXPECT_GE(page.consumed_capacity->total_half_units, least);
    EXPECT_LE(page.consumed_capacity->total_half_units,
              least + partitions * ReadHalfUnits(1, consistency));
  }
  return bytes;
}

}  // namespace partstore::testing
