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

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/expr/ast.h"
#include "core/expr/evaluate.h"
#include "core/expr/projection.h"
#include "partstore/item.h"
#include "partstore/read_requests.h"
#include "partstore/stored_item.h"

namespace partstore {

class ReadPage {
 public:
  ReadPage(const std::optional<expr::Condition>& filter,
           const std::optional<expr::ProjectionExpression>& projection, Select select,
           std::optional<int32_t> limit)
      : filter_(filter ? &*filter : nullptr),
        projection_(projection ? &*projection : nullptr),
        count_only_(select == Select::kCount),
        limit_(limit ? static_cast<int64_t>(*limit) : INT64_MAX) {
    // One allocation for a page of up to kReserved items instead of a vector grown 1, 2, 4, ...
    // (five allocations and four moves for a Query of 11 items).
    read_.reserve(static_cast<size_t>(std::min<int64_t>(limit_, kReserved)));
  }

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

  // Takes back the stored items read so far for which `drop` is true, as if never read (they
  // stay in bytes(): their reading is charged). REQUIRES: before Filter().
  template <typename Predicate>
  void DropIf(Predicate drop) {
    scanned_ -= static_cast<int64_t>(std::erase_if(read_, drop));
  }

  bool full() const { return scanned_ >= limit_ || bytes_ >= kMaxPageBytes; }
  uint64_t bytes() const { return bytes_; }

  // Applies the filter to the stored items read so far (call it after the lock is released);
  // count() is then final. Idempotent.
  void Filter() {
    if (filtered_) return;
    filtered_ = true;
    if (filter_ == nullptr) {
      count_ += static_cast<int64_t>(read_.size());
      return;
    }
    std::erase_if(read_,
                  [this](const StoredItem& item) { return !expr::Evaluate(*filter_, &item); });
    count_ += static_cast<int64_t>(read_.size());
  }
  // Items that passed the filter. REQUIRES: Filter() called, when stored items were added.
  int64_t count() const { return count_; }

  // The result without LastEvaluatedKey and ConsumedCapacity (the caller adds them), the items as
  // trees: stored items are filtered, projected and built here, outside any lock.
  ReadPageResult Finish() && {
    Filter();
    if (!count_only_) {
      for (const StoredItem& item : read_) {
        result_.items.push_back(projection_ != nullptr ? expr::Project(*projection_, item)
                                                       : item.ToItem());
      }
    }
    read_.clear();
    return std::move(*this).Counts(std::move(result_));
  }

  // The same with the items as stored: the engine's own buffers (no copy) or, with a projection,
  // buffers of the projected attributes. REQUIRES: only stored items were added.
  ReadPageViewResult FinishStored() && {
    Filter();
    ReadPageViewResult out;
    if (!count_only_) {
      if (projection_ != nullptr) {
        out.items.reserve(read_.size());
        for (const StoredItem& item : read_)
          out.items.push_back(expr::ProjectStored(*projection_, item));
      } else {
        out.items = std::move(read_);
      }
    }
    read_.clear();
    return std::move(*this).Counts(std::move(out));
  }

 private:
  static constexpr int64_t kReserved = 64;

  const expr::Condition* filter_;
  const expr::ProjectionExpression* projection_;
  bool count_only_;
  int64_t limit_;
  int64_t scanned_ = 0;
  int64_t count_ = 0;
  uint64_t bytes_ = 0;
  std::vector<StoredItem> read_;  // stored items read (after Filter(): those that passed)
  bool filtered_ = false;
  ReadPageResult result_;  // items added as trees

  template <typename Result>
  Result Counts(Result out) && {
    out.count = static_cast<int32_t>(count_);
    out.scanned_count = static_cast<int32_t>(scanned_);
    out.items_omitted = count_only_;
    return out;
  }
};

// A Query or Scan page whose items were read and filtered and whose capacity was charged, with
// its trees or views still to build (after every lock): Table::Query / Scan finish it one way,
// QueryViewResult / ScanViewResult the other.
struct PendingPage {
  ReadPage page;
  std::optional<Item> last_evaluated_key;
  std::optional<ConsumedCapacity> consumed_capacity;
  std::optional<int32_t> scanned_count;  // when not the page's own (an LSI fetch)

  ReadPageResult Finish() && { return std::move(*this).Complete(std::move(page).Finish()); }
  ReadPageViewResult FinishStored() && {
    return std::move(*this).Complete(std::move(page).FinishStored());
  }

 private:
  template <typename Result>
  Result Complete(Result result) && {
    if (scanned_count) result.scanned_count = *scanned_count;
    result.last_evaluated_key = std::move(last_evaluated_key);
    result.consumed_capacity = std::move(consumed_capacity);
    return result;
  }
};

}  // namespace partstore
