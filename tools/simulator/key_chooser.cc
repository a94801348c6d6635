#include "tools/simulator/key_chooser.h"

#include <algorithm>
#include <cmath>

namespace partstore::sim {
namespace {

// 4,096 ranks: the table (32 KB) stays in the L1/L2 cache; beyond it the continuous tail is
// accurate to well under a part in a thousand per rank.
constexpr int64_t kExactRanks = 4096;
// Slices of the head's guide table.
constexpr size_t kGuideSlices = 4096;

// The integral of x^-theta from lo to hi (theta != 1).
double PowerIntegral(double lo, double hi, double theta) {
  const double e = 1.0 - theta;
  return (std::pow(hi, e) - std::pow(lo, e)) / e;
}

}  // namespace

KeyChooser::KeyChooser(const KeyDistribution& distribution) : d_(distribution) {
  d_.count = std::max<int64_t>(d_.count, 1);
  switch (d_.kind) {
    case KeyDistribution::Kind::kHotspot:
      hot_count_ = std::clamp<int64_t>(
          static_cast<int64_t>(std::llround(d_.hot_keys * static_cast<double>(d_.count))), 1,
          d_.count);
      break;
    case KeyDistribution::Kind::kZipfian: {
      const int64_t head = std::min(d_.count, kExactRanks);
      head_cdf_.resize(static_cast<size_t>(head));
      double sum = 0;
      for (int64_t r = 0; r < head; ++r) {
        sum += std::pow(static_cast<double>(r + 1), -d_.theta);
        head_cdf_[static_cast<size_t>(r)] = sum;
      }
      head_weight_ = sum;
      guide_scale_ = static_cast<double>(kGuideSlices) / head_weight_;
      guide_bound_.resize(kGuideSlices);
      guide_.resize(kGuideSlices);
      for (size_t j = 0; j < kGuideSlices; ++j) {
        guide_bound_[j] = static_cast<double>(j) / guide_scale_;
        guide_[j] = static_cast<uint32_t>(
            std::upper_bound(head_cdf_.begin(), head_cdf_.end(), guide_bound_[j]) -
            head_cdf_.begin());
      }
      if (d_.count > head) {
        tail_lo_ = static_cast<double>(head) + 0.5;
        tail_hi_ = static_cast<double>(d_.count) + 0.5;
        tail_weight_ = PowerIntegral(tail_lo_, tail_hi_, d_.theta);
        tail_lo_pow_ = std::pow(tail_lo_, 1.0 - d_.theta);
        inverse_e_ = 1.0 / (1.0 - d_.theta);
      }
      break;
    }
    default:
      break;
  }
}

int64_t KeyChooser::Next(Random& random, int64_t elapsed_micros) const {
  switch (d_.kind) {
    case KeyDistribution::Kind::kUniform:
      return static_cast<int64_t>(random.Below(static_cast<uint64_t>(d_.count)));
    case KeyDistribution::Kind::kZipfian:
      return NextZipfian(random);
    case KeyDistribution::Kind::kHotspot: {
      const bool hot = hot_count_ == d_.count || random.Uniform() < d_.hot_traffic;
      if (hot) return static_cast<int64_t>(random.Below(static_cast<uint64_t>(hot_count_)));
      return hot_count_ +
             static_cast<int64_t>(random.Below(static_cast<uint64_t>(d_.count - hot_count_)));
    }
    case KeyDistribution::Kind::kTimeOrdered:
      return elapsed_micros / std::max<int64_t>(d_.bucket_micros, 1);
    case KeyDistribution::Kind::kHotKey:
      return d_.hot_key;
  }
  return 0;
}

int64_t KeyChooser::NextZipfian(Random& random) const {
  const double u = random.Uniform() * (head_weight_ + tail_weight_);
  if (u < head_weight_) {
    // The first rank whose cumulative weight exceeds u (std::upper_bound's answer), from the
    // guide: every rank before guide_[j] has a cumulative weight <= guide_bound_[j] <= u.
    size_t j = std::min(static_cast<size_t>(u * guide_scale_), kGuideSlices - 1);
    while (j > 0 && guide_bound_[j] > u) --j;  // rounding of u * guide_scale_
    size_t rank = guide_[j];
    const size_t last = head_cdf_.size() - 1;
    while (rank < last && head_cdf_[rank] <= u) ++rank;
    return static_cast<int64_t>(rank);
  }
  // Inverse transform of x^-theta on [tail_lo_, tail_hi_).
  const double e = 1.0 - d_.theta;
  const double target = tail_lo_pow_ + (u - head_weight_) * e;
  const double x = std::pow(std::max(target, 0.0), inverse_e_);
  const int64_t rank = static_cast<int64_t>(std::floor(x + 0.5)) - 1;
  return std::clamp<int64_t>(rank, static_cast<int64_t>(head_cdf_.size()), d_.count - 1);
}

}  // namespace partstore::sim
