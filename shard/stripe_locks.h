// StripeLocks: a set of stripes locked in the engine's global order (ascending address; the lock
// order in shard/table.h), exclusively (a transaction's base and index stripes) or shared (a
// snapshot's point in time: every base stripe of every table).
#pragma once

#include <algorithm>
#include <vector>

#include "core/thread_annotations.h"
#include "shard/stripe.h"

namespace partstore {

// Locks a set of stripes in the global order (by address), exclusively or shared. The analysis
// cannot follow locks taken in a loop: the functions run under them (Table::StageWrite,
// CommitStaged, ReadLocked) state the contract with Stripe::AssertHeld / AssertReaderHeld.
class StripeLocks {
 public:
  void Add(const Stripe* stripe) { stripes_.push_back(stripe); }
  void LockExclusive() PARTSTORE_NO_THREAD_SAFETY_ANALYSIS {
    Sort();
    for (const Stripe* stripe : stripes_) stripe->mutex().lock();
    exclusive_ = true;
    held_ = true;
  }
  void LockShared() PARTSTORE_NO_THREAD_SAFETY_ANALYSIS {
    Sort();
    for (const Stripe* stripe : stripes_) stripe->mutex().lock_shared();
    held_ = true;
  }
  void Unlock() PARTSTORE_NO_THREAD_SAFETY_ANALYSIS {
    if (!held_) return;
    for (auto it = stripes_.rbegin(); it != stripes_.rend(); ++it) {
      exclusive_ ? (*it)->mutex().unlock() : (*it)->mutex().unlock_shared();
    }
    held_ = false;
  }
  ~StripeLocks() { Unlock(); }

 private:
  void Sort() {
    std::sort(stripes_.begin(), stripes_.end());
    stripes_.erase(std::unique(stripes_.begin(), stripes_.end()), stripes_.end());
  }
  std::vector<const Stripe*> stripes_;
  bool exclusive_ = false;
  bool held_ = false;
};

}  // namespace partstore
