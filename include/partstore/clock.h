// Clock: where simulated capacity reads the time.
//
//   SystemClock  the machine's monotonic clock (at the kernel tick's resolution), from 0 at
//                construction.
//   ManualClock  a time the caller sets and advances (starts at 0); with it, the same requests in
//                the same order give the same results, bit for bit.
//
// Time is an integer number of microseconds, never negative and never going back.
//
// Thread safety: both are safe for concurrent use (ManualClock is one atomic).
#pragma once

#include <time.h>

#include <algorithm>
#include <atomic>
#include <cstdint>

namespace partstore::capacity {

class Clock {
 public:
  virtual ~Clock() = default;
  virtual int64_t NowMicros() const = 0;
};

// The monotonic clock at the kernel tick's resolution (CLOCK_MONOTONIC_COARSE: 1 to 4 ms, read
// in a few nanoseconds instead of about 20). Capacity is enforced per second, and a bucket refills
// by the time elapsed, so a coarse tick only groups refills: rates stay exact.
class SystemClock final : public Clock {
 public:
  SystemClock() : start_(Raw()) {}
  int64_t NowMicros() const override { return std::max<int64_t>(Raw() - start_, 0); }

 private:
  static int64_t Raw() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    return static_cast<int64_t>(ts.tv_sec) * 1'000'000 + ts.tv_nsec / 1000;
  }
  int64_t start_;
};

class ManualClock final : public Clock {
 public:
  int64_t NowMicros() const override { return now_.load(std::memory_order_acquire); }
  // Moves the time forward. REQUIRES: micros >= 0.
  void Advance(int64_t micros) { now_.fetch_add(micros, std::memory_order_acq_rel); }

 private:
  std::atomic<int64_t> now_{0};
};

}  // namespace partstore::capacity
