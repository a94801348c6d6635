// ItemRange: every item a Query or Scan returns, page after page, as one range.
//
//   auto followers = db.QueryAll(query);           // nothing is read yet
//   for (const StoredItem& f : followers) { ... }   // reads page 1, then follows LastEvaluatedKey
//   if (!followers.status().ok()) { ... }           // why it stopped early, if it did
//
// Each page is one Query (or Scan) call with the request as given (its Limit is the page size,
// its ExclusiveStartKey where the first page starts) and the previous page's LastEvaluatedKey as
// the next ExclusiveStartKey, so a range reads what the same loop written by hand would, consumes
// the same capacity, and meets the same errors: the first error (a ValidationException for a bad
// request, a ProvisionedThroughputExceededException when capacity simulation throttles a page)
// ends the range, and status() says which. Throttled pages are not retried: a caller that wants
// the SDKs' retries resumes from last_evaluated_key().
//
// The items are the stored items themselves (StoredItem: see GetItemViewResult); ToItem() gives
// a tree. A page's items stay valid after the range moves on (each is its own reference).
//
// A single-pass input range: begin() once; moving the range invalidates its iterators. Not
// synchronized; the Database it reads must outlive it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <optional>
#include <utility>

#include "partstore/read_requests.h"
#include "partstore/status.h"
#include "partstore/stored_item.h"

namespace partstore {

class ItemRange {
 public:
  // Reads one page: with `start` unset, the page the request itself names; else the page after
  // `start` (a LastEvaluatedKey).
  using FetchPage = std::function<Result<ReadPageViewResult>(std::optional<Item> start)>;

  explicit ItemRange(FetchPage fetch) : fetch_(std::move(fetch)) {}
  ItemRange(ItemRange&&) = default;
  ItemRange& operator=(ItemRange&&) = default;

  class iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = StoredItem;
    using difference_type = std::ptrdiff_t;
    using pointer = const StoredItem*;
    using reference = const StoredItem&;

    iterator() = default;
    reference operator*() const { return range_->page_.items[range_->index_]; }
    pointer operator->() const { return &**this; }
    iterator& operator++() {
      range_->Advance();
      return *this;
    }
    void operator++(int) { ++*this; }
    friend bool operator==(const iterator& it, std::default_sentinel_t) { return it.at_end(); }

   private:
    friend class ItemRange;
    explicit iterator(ItemRange* range) : range_(range) {}
    bool at_end() const { return range_ == nullptr || range_->done_; }
    ItemRange* range_ = nullptr;
  };

  // Reads up to the first item (fetching as many pages as it takes). Call once.
  iterator begin() {
    if (!started_) {
      started_ = true;
      Fetch(std::nullopt);
    }
    return iterator(this);
  }
  std::default_sentinel_t end() const { return {}; }

  // Reads the remaining pages, their items unseen (a Select=COUNT query has none), and returns
  // status(): with count() it pages a COUNT query to its total.
  Status ReadToEnd() {
    for (iterator it = begin(); it != end(); ++it) {
    }
    return status_;
  }

  // OK while reading and after the last page; the error that ended the range otherwise.
  const Status& status() const { return status_; }
  // Pages read so far, and the sums of their Count (items after the filter; what Select=COUNT
  // asks for) and ScannedCount (items evaluated).
  int pages() const { return pages_; }
  int64_t count() const { return count_; }
  int64_t scanned_count() const { return scanned_count_; }
  // The LastEvaluatedKey of the last page read: after an error, where to resume (as the next
  // request's ExclusiveStartKey); unset once the last page was read, and when the first page
  // failed (resume with the request's own ExclusiveStartKey).
  const std::optional<Item>& last_evaluated_key() const { return page_.last_evaluated_key; }

 private:
  // Past the current item; fetches the next page when this one is used up.
  void Advance() {
    if (++index_ < page_.items.size()) return;
    if (!page_.last_evaluated_key) {
      done_ = true;
      return;
    }
    Fetch(page_.last_evaluated_key);
  }
  // Reads pages from `start` until one has an item or none is left.
  void Fetch(std::optional<Item> start) {
    for (;;) {
      Result<ReadPageViewResult> page = fetch_(std::move(start));
      if (!page.ok()) {
        status_ = page.status();
        done_ = true;
        return;
      }
      ++pages_;
      count_ += page->count;
      scanned_count_ += page->scanned_count;
      page_ = std::move(*page);
      index_ = 0;
      if (!page_.items.empty()) return;
      if (!page_.last_evaluated_key) {
        done_ = true;
        return;
      }
      start = page_.last_evaluated_key;
    }
  }

  FetchPage fetch_;
  ReadPageViewResult page_;
  size_t index_ = 0;
  bool started_ = false;
  bool done_ = false;
  int pages_ = 0;
  int64_t count_ = 0;
  int64_t scanned_count_ = 0;
  Status status_;
};

}  // namespace partstore
