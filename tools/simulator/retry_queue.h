// RetryQueue: the simulated client's requests waiting for their retry, taken out in the order they
// are due; requests due at the same microsecond in the order they were scheduled.
//
// The heap orders 24-byte references; the requests themselves stay in slots that are reused, so a
// push or a pop moves one request, not one per level of the heap. A throttle-heavy run holds
// hundreds of thousands of retries: with the requests (136 bytes each) in the heap itself, moving
// them was a fifth of `partstore simulate ondemand-spike` (bench/README.md, "Retries that move
// 24 bytes").
//
// Not thread-safe (one simulation loop owns it).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace partstore::sim::internal {

template <typename T>
class RetryQueue {
 public:
  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }

  // Schedules `value` for `due`.
  void Push(int64_t due, T value) {
    uint32_t slot;
    if (free_.empty()) {
      slot = static_cast<uint32_t>(slots_.size());
      slots_.push_back(std::move(value));
    } else {
      slot = free_.back();
      free_.pop_back();
      slots_[slot] = std::move(value);
    }
    heap_.push_back({due, next_order_++, slot});
    std::push_heap(heap_.begin(), heap_.end(), Later());
  }

  // When the first request is due. REQUIRES: !empty().
  int64_t next_due() const { return heap_.front().due; }

  // Takes out the first request (the earliest due; of those, the first scheduled).
  // REQUIRES: !empty().
  T Pop() {
    std::pop_heap(heap_.begin(), heap_.end(), Later());
    const uint32_t slot = heap_.back().slot;
    heap_.pop_back();
    T out = std::move(slots_[slot]);  // the slot keeps a moved-from T until it is reused
    free_.push_back(slot);
    return out;
  }

  // Calls f(value) for every request still waiting, in no particular order.
  template <typename F>
  void ForEach(F&& f) const {
    for (const Ref& ref : heap_) f(slots_[ref.slot]);
  }

  void clear() {
    heap_.clear();
    slots_.clear();
    free_.clear();
  }

 private:
  struct Ref {
    int64_t due;
    uint64_t order;  // scheduling order: ties in `due` keep it
    uint32_t slot;
  };
  struct Later {
    bool operator()(const Ref& a, const Ref& b) const {
      return a.due != b.due ? a.due > b.due : a.order > b.order;
    }
  };

  std::vector<Ref> heap_;  // a heap by Later: the first due at the front
  std::vector<T> slots_;
  std::vector<uint32_t> free_;
  uint64_t next_order_ = 0;
};

}  // namespace partstore::sim::internal
