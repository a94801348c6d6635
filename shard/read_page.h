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
// Stored items (the engine's reads) are taken as handles: Add only counts them and keeps the
// handle, so the stripe's lock covers nothing but the walk; the filter, the projection and the
// result's trees are built in Finish, after the lock is released. Trees (write sharding's merged
// pages) are filtered and projected as they are added. A page is fed one kind or the other.
//
// Thread safety: not thread-safe; one per request.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/expr/ast.h"
#include "core/expr/evaluate.h"
#include "core/expr/projection.h"
#include "core/item.h"
#include "core/stored_item.h"
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

  // Reads one stored item; returns its ItemSize. REQUIRES: !full().
  size_t Add(StoredItem item) {
    const size_t size = item.item_size();
    ++scanned_;
    bytes_ += size;
    read_.push_back(std::move(item));
    return size;
  }

  // Reads one item given as a tree (moved into the page when it is returned whole).
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

  // The result without LastEvaluatedKey and ConsumedCapacity (the caller adds them): the stored
  // items read are filtered and projected here, outside any lock.
  ReadPageResult Finish() && {
    for (const StoredItem& item : read_) {
      if (filter_ != nullptr && !expr::Evaluate(*filter_, &item)) continue;
      ++count_;
      if (!count_only_) {
        result_.items.push_back(projection_ != nullptr ? expr::Project(*projection_, item)
                                                       : item.ToItem());
      }
    }
    read_.clear();
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
  std::vector<StoredItem> read_;  // stored items read, filtered and built by Finish
  ReadPageResult result_;
};

}  // namespace partstore
