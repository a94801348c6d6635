// ReadPage: the paging rules Query and Scan share (reference §4.3), fed one item at a time in
// the order the operation reads them.
//
//   - An item read counts toward ScannedCount and the 1 MB budget (ItemSize, before the filter
//     and the projection; the item that reaches 1 MB is included).
//   - It counts toward Count and is returned (projected, unless Select=COUNT) if the filter
//     passes.
//   - The page is full after `limit` items read or 1 MB; LastEvaluatedKey is then the last read
//     item's key, whether or not anything is left (DynamoDB's behaviour).
//
// Thread safety: not thread-safe; one per request. Items are copied out, so the caller's lock
// may be released after each Add.
#pragma once

#include <cstdint>
#include <optional>

#include "core/expr/ast.h"
#include "core/expr/evaluate.h"
#include "core/expr/projection.h"
#include "core/item.h"
#include "shard/read_requests.h"

namespace partstore {

class ReadPage {
 public:
  ReadPage(const std::optional<expr::Condition>& filter,
           const std::optional<expr::ProjectionExpression>& projection, Select select,
           std::optional<int32_t> limit)
      : filter_(filter ? &*filter : nullptr),
        projection_(projection ? &*projection : nullptr),
        count_only_(select == Select::kCount),
        limit_(limit ? static_cast<int64_t>(*limit) : INT64_MAX) {}

  // Reads one item; returns its ItemSize. REQUIRES: !full().
  size_t Add(const Item& item) {
    const size_t size = ItemSize(item);
    ++scanned_;
    bytes_ += size;
    if (filter_ == nullptr || expr::Evaluate(*filter_, &item)) {
      ++count_;
      if (!count_only_) {
        result_.items.push_back(projection_ != nullptr ? expr::Project(*projection_, item) : item);
      }
    }
    return size;
  }

  // The same, taking the item (moved into the page when it is returned whole).
  size_t Add(Item&& item) {
    const size_t size = ItemSize(item);
    ++scanned_;
    bytes_ += size;
    if (filter_ == nullptr || expr::Evaluate(*filter_, &item)) {
      ++count_;
      if (!count_only_) {
        result_.items.push_back(projection_ != nullptr ? expr::Project(*projection_, item)
                                                       : std::move(item));
      }
    }
    return size;
  }

  bool full() const { return scanned_ >= limit_ || bytes_ >= kMaxPageBytes; }
  uint64_t bytes() const { return bytes_; }
  // Items that passed the filter so far.
  int64_t count() const { return count_; }

  // The result without LastEvaluatedKey and ConsumedCapacity (the caller adds them).
  ReadPageResult Finish() && {
    result_.count = static_cast<int32_t>(count_);
    result_.scanned_count = static_cast<int32_t>(scanned_);
    result_.items_omitted = count_only_;
    return std::move(result_);
  }

 private:
  const expr::Condition* filter_;
  const expr::ProjectionExpression* projection_;
  bool count_only_;
  int64_t limit_;
  int64_t scanned_ = 0;
  int64_t count_ = 0;
  uint64_t bytes_ = 0;
  ReadPageResult result_;
};

}  // namespace partstore
