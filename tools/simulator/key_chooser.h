// KeyChooser: draws keys (indexes in [0, count)) from a KeyDistribution (workload.h).
//
// Zipfian draws are exact for the 4,096 hottest ranks (a cumulative table, entered through a guide
// table of equal slices of its total: a lookup and a short scan instead of a bisection) and follow
// the continuous power law beyond them (inverse transform), so a billion-key space costs the same
// to set up as a small one. Rank r (0-based) has weight 1 / (r + 1)^theta.
//
// Thread safety: const after construction; the Random passed in is the caller's.
#pragma once

#include <cstdint>
#include <vector>

#include "tools/simulator/random.h"
#include "tools/simulator/workload.h"

namespace partstore::sim {

class KeyChooser {
 public:
  KeyChooser() : KeyChooser(KeyDistribution{}) {}
  explicit KeyChooser(const KeyDistribution& distribution);
  // A key for a request at `elapsed_micros` since the run began.
  int64_t Next(Random& random, int64_t elapsed_micros) const;

 private:
  int64_t NextZipfian(Random& random) const;

  KeyDistribution d_;
  int64_t hot_count_ = 0;  // kHotspot: keys [0, hot_count_) are hot
  // kZipfian: cumulative weights of the head ranks, and the tail's continuous part.
  std::vector<double> head_cdf_;
  // Slice j of [0, head_weight_) starts at guide_bound_[j]; guide_[j] is the first rank whose
  // cumulative weight exceeds that bound (where the search for any u of the slice starts).
  std::vector<double> guide_bound_;
  std::vector<uint32_t> guide_;
  double guide_scale_ = 0;  // slices per unit of weight
  double head_weight_ = 0;
  double tail_lo_pow_ = 0;  // tail_lo_^(1 - theta)
  double inverse_e_ = 0;    // 1 / (1 - theta)
  double tail_weight_ = 0;
  double tail_lo_ = 0;  // the tail spans ranks' x in [tail_lo_, tail_hi_) (x = rank + 1 - 0.5)
  double tail_hi_ = 0;
};

}  // namespace partstore::sim
