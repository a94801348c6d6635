// Clock: where simulated capacity reads the time.
//
//   SystemClock  the machine's monotonic clock (std::chrono::steady_clock), from 0 at construction.
//   ManualClock  a time the caller sets and advances (starts at 0); with it, the same requests in
//                the same order give the same results, bit for bit.
//
// Time is an integer number of microseconds, never negative and never going back.
//
// Thread safety: both are safe for concurrent use (ManualClock is one atomic).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace partstore::capacity {

class Clock {
 public:
  virtual ~Clock() = default;
  virtual int64_t NowMicros() const = 0;
};

class SystemClock final : public Clock {
 public:
  SystemClock() : start_(std::chrono::steady_clock::now()) {}
  int64_t NowMicros() const override {
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() -
                                                                 start_)
        .count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
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
