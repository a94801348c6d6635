// SpinLock: a lock for critical sections of tens of nanoseconds (TableCapacity's bookkeeping).
//
// std::mutex parks a waiting thread in the kernel (a futex system call, about a microsecond each
// way) as soon as it finds the lock taken: for a section this short, waiting in user space is
// far cheaper. After a bounded number of spins the waiter yields its core, so a holder that was
// preempted (a busy shared machine) gets to run.
//
// Satisfies Lockable (std::lock_guard works). Not recursive.
//
// Thread safety: that is its job.
#pragma once

#include <atomic>
#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace partstore::capacity {

class SpinLock {
 public:
  void lock() {
    for (int spins = 0; locked_.exchange(true, std::memory_order_acquire); ++spins) {
      while (locked_.load(std::memory_order_relaxed)) {
        if (++spins > 64) {
          std::this_thread::yield();
          spins = 0;
        } else {
          Pause();
        }
      }
    }
  }
  bool try_lock() { return !locked_.exchange(true, std::memory_order_acquire); }
  void unlock() { locked_.store(false, std::memory_order_release); }

 private:
  static void Pause() {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#endif
  }
  std::atomic<bool> locked_{false};
};

}  // namespace partstore::capacity
