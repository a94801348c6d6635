// TokenBucket: a rate in capacity units per second, spent by requests and refilled continuously.
//
// Amounts are integers in tokens: one *half* capacity unit is kTokensPerHalfUnit tokens (so 0.5
// RCU eventually consistent reads stay exact and a partition's share of a table, such as 400 / 3
// WCU, loses at most a token per second). Refill is computed from the time elapsed, so a bucket
// costs nothing while idle. Tokens may go below zero: a read is admitted while tokens remain and
// then charged what it actually read (reference §3.6), leaving a debt the refill pays first.
//
// Thread safety: a value type; the owner serializes access.
#pragma once

#include <algorithm>
#include <cstdint>

namespace partstore::capacity {

inline constexpr int64_t kTokensPerHalfUnit = 1'000'000;
inline constexpr int64_t kMicrosPerSecond = 1'000'000;

// The largest throughput the arithmetic holds (units per second; tokens per second stay below
// 2^63 / 4). Callers clamp to it.
inline constexpr int64_t kMaxUnitsPerSecond = 1'000'000'000'000;

// Tokens per second for `units` capacity units per second.
constexpr int64_t UnitsPerSecondToRate(int64_t units) { return units * 2 * kTokensPerHalfUnit; }
constexpr int64_t HalfUnitsToTokens(int64_t half_units) { return half_units * kTokensPerHalfUnit; }

struct TokenBucket {
  int64_t rate = 0;      // tokens added per second
  int64_t capacity = 0;  // the most tokens held
  int64_t tokens = 0;    // may be negative (debt)
  int64_t updated = 0;   // microseconds of the last refill

  // Adds what accrued since the last refill, up to `capacity`; returns the tokens that did not fit
  // (a partition's unused capacity, which goes to its burst bucket).
  int64_t Refill(int64_t now) {
    if (now <= updated) return 0;
    // 64-bit arithmetic when it cannot overflow (a division by a constant is a multiply); 128-bit
    // after long idle times or at huge rates.
    int64_t product;
    const __int128 accrued = __builtin_mul_overflow(rate, now - updated, &product)
                                 ? static_cast<__int128>(rate) * (now - updated) / kMicrosPerSecond
                                 : static_cast<__int128>(product / kMicrosPerSecond);
    updated = now;
    const __int128 total = static_cast<__int128>(tokens) + accrued;
    if (total <= capacity) {
      tokens = static_cast<int64_t>(total);
      return 0;
    }
    const __int128 overflow = total - std::max<__int128>(tokens, capacity);
    tokens = std::max(tokens, capacity);
    return static_cast<int64_t>(std::min<__int128>(overflow, INT64_MAX / 4));
  }
  // Adds `amount` tokens up to `capacity`.
  void Fill(int64_t amount) {
    if (tokens < capacity)
      tokens = static_cast<int64_t>(
          std::min<__int128>(static_cast<__int128>(tokens) + amount, capacity));
  }
  int64_t available() const { return std::max<int64_t>(tokens, 0); }
};

}  // namespace partstore::capacity
