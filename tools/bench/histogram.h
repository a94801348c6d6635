// Histogram: latencies in nanoseconds, log-linear buckets (HdrHistogram's layout with 32
// sub-buckets per power of two: every recorded value is known to within 1/32, about 3%), so
// recording is a few instructions and percentiles need no stored samples.
//
// Thread safety: none; each thread records into its own and the runner merges them.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

namespace partstore::bench {

class Histogram {
 public:
  void Record(uint64_t nanos) {
    ++counts_[Bucket(nanos)];
    ++count_;
    sum_ += nanos;
    if (nanos > max_) max_ = nanos;
  }
  void Merge(const Histogram& other) {
    for (size_t i = 0; i < counts_.size(); ++i) counts_[i] += other.counts_[i];
    count_ += other.count_;
    sum_ += other.sum_;
    if (other.max_ > max_) max_ = other.max_;
  }
  uint64_t count() const { return count_; }
  uint64_t max() const { return max_; }
  double mean() const { return count_ == 0 ? 0 : static_cast<double>(sum_) / count_; }
  // The smallest bucket's upper bound below which at least `q` (in [0, 1]) of the values lie
  // (capped at the maximum seen); 0 when empty.
  uint64_t Percentile(double q) const {
    if (count_ == 0) return 0;
    const double target = q * static_cast<double>(count_);
    uint64_t seen = 0;
    for (size_t i = 0; i < counts_.size(); ++i) {
      seen += counts_[i];
      if (seen > 0 && static_cast<double>(seen) >= target) {
        if (i + 1 == counts_.size()) return max_;  // the last bucket holds everything beyond
        const uint64_t upper = UpperBound(i);
        return upper < max_ ? upper : max_;
      }
    }
    return max_;
  }

 private:
  static constexpr int kSubBits = 5;  // 32 sub-buckets per power of two
  static constexpr uint64_t kSub = uint64_t{1} << kSubBits;
  static constexpr int kMaxExponent = 44;  // values up to 2^44 ns (~4.9 hours) are exact enough

  static size_t Bucket(uint64_t v) {
    if (v < kSub) return static_cast<size_t>(v);
    int exponent = std::bit_width(v) - 1;  // >= kSubBits
    if (exponent > kMaxExponent) {
      exponent = kMaxExponent;
      v = (uint64_t{1} << (kMaxExponent + 1)) - 1;
    }
    const uint64_t sub = (v >> (exponent - kSubBits)) & (kSub - 1);
    return static_cast<size_t>(kSub + (exponent - kSubBits) * kSub + sub);
  }
  // The largest value that falls in bucket `i`.
  static uint64_t UpperBound(size_t i) {
    if (i < kSub) return i;
    const uint64_t exponent = (i - kSub) / kSub + kSubBits;
    const uint64_t sub = (i - kSub) % kSub;
    const uint64_t width = uint64_t{1} << (exponent - kSubBits);
    return (uint64_t{1} << exponent) + (sub + 1) * width - 1;
  }

  std::array<uint64_t, kSub + (kMaxExponent - kSubBits + 1) * kSub> counts_{};
  uint64_t count_ = 0;
  uint64_t sum_ = 0;
  uint64_t max_ = 0;
};

}  // namespace partstore::bench
