#include "shard/capacity/heavy_hitters.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace partstore::capacity {
namespace {

Item KeyItem(std::string_view key) { return Item{{"PK", Value(key)}}; }

void Add(HeavyHitters& sketch, std::string_view key, int64_t weight) {
  sketch.Add(key, weight, [key] { return KeyItem(key); });
}

// Keys 0..m-1 drawn with probability proportional to 1 / (i + 1)^s. Uses the generator's raw
// output only, so the stream is the same with every standard library.
class ZipfKeys {
 public:
  ZipfKeys(size_t m, double s, uint64_t seed) : rng_(seed) {
    double sum = 0;
    for (size_t i = 0; i < m; ++i) cdf_.push_back(sum += 1.0 / std::pow(double(i + 1), s));
    for (double& c : cdf_) c /= sum;
  }
  std::string Next() {
    const double u = double(rng_() >> 11) * 0x1.0p-53;
    const size_t i = std::lower_bound(cdf_.begin(), cdf_.end(), u) - cdf_.begin();
    return "key#" + std::to_string(std::min(i, cdf_.size() - 1));
  }
  int64_t NextWeight() { return int64_t(rng_() % 8); }  // 0..7, zero weights included

 private:
  std::mt19937_64 rng_;
  std::vector<double> cdf_;
};

// A trivially correct Filtered Space-Saving: linear scans, the same tie rule (smallest count,
// then the counter added to least recently) and the sketch's filter buckets. Counters are kept in
// a map by key.
class ModelSpaceSaving {
 public:
  explicit ModelSpaceSaving(const HeavyHitters& sketch)
      : sketch_(sketch), capacity_(sketch.capacity()), filter_(sketch.filter_buckets(), 0) {}
  void Add(const std::string& key, int64_t weight) {
    ++now_;
    if (auto it = counters_.find(key); it != counters_.end()) {
      it->second.count += weight;
      it->second.last = now_;
      return;
    }
    const size_t bucket = sketch_.BucketOf(key);
    const int64_t bound = filter_[bucket];
    if (counters_.size() < capacity_) {
      counters_[key] = {bound + weight, bound, now_, bucket};
      return;
    }
    auto min = counters_.begin();
    for (auto it = counters_.begin(); it != counters_.end(); ++it) {
      if (it->second.count < min->second.count ||
          (it->second.count == min->second.count && it->second.last < min->second.last)) {
        min = it;
      }
    }
    if (bound + weight < min->second.count) {
      filter_[bucket] += weight;
      return;
    }
    filter_[min->second.bucket] = std::max(filter_[min->second.bucket], min->second.count);
    counters_.erase(min);
    counters_[key] = {bound + weight, bound, now_, bucket};
  }
  // (key, count, error) by count descending, key ascending.
  std::vector<std::tuple<std::string, int64_t, int64_t>> Top() const {
    std::vector<std::tuple<std::string, int64_t, int64_t>> top;
    for (const auto& [key, c] : counters_) top.emplace_back(key, c.count, c.error);
    std::sort(top.begin(), top.end(), [](const auto& a, const auto& b) {
      if (std::get<1>(a) != std::get<1>(b)) return std::get<1>(a) > std::get<1>(b);
      return std::get<0>(a) < std::get<0>(b);
    });
    return top;
  }

 private:
  struct Counter {
    int64_t count;
    int64_t error;
    int64_t last;  // the Add that last touched it
    size_t bucket;
  };
  const HeavyHitters& sketch_;
  size_t capacity_;
  int64_t now_ = 0;
  std::map<std::string, Counter> counters_;
  std::vector<int64_t> filter_;
};

std::vector<std::tuple<std::string, int64_t, int64_t>> Flatten(
    const std::vector<HeavyHitters::Entry>& entries) {
  std::vector<std::tuple<std::string, int64_t, int64_t>> flat;
  for (const auto& e : entries) flat.emplace_back(e.key, e.count, e.error);
  return flat;
}

TEST(HeavyHittersTest, ExactWhileDistinctKeysFitCapacity) {
  HeavyHitters sketch(4);
  Add(sketch, "a", 5);
  Add(sketch, "b", 2);
  Add(sketch, "a", 1);
  Add(sketch, "c", 7);
  Add(sketch, "d", 0);
  Add(sketch, "b", 3);
  EXPECT_EQ(sketch.size(), 4u);
  EXPECT_EQ(sketch.total_weight(), 18);
  using T = std::tuple<std::string, int64_t, int64_t>;
  EXPECT_EQ(Flatten(sketch.Top(10)),
            (std::vector<T>{{"c", 7, 0}, {"a", 6, 0}, {"b", 5, 0}, {"d", 0, 0}}));
  EXPECT_EQ(sketch.Top(10)[0].display, KeyItem("c"));
}

TEST(HeavyHittersTest, AnUntrackedKeyTakesTheMinimumWhenItsBoundReachesIt) {
  HeavyHitters sketch(3);
  ASSERT_NE(sketch.BucketOf("b"), sketch.BucketOf("d"));
  Add(sketch, "a", 10);
  Add(sketch, "b", 3);
  Add(sketch, "c", 5);
  using T = std::tuple<std::string, int64_t, int64_t>;
  const std::vector<T> before{{"a", 10, 0}, {"c", 5, 0}, {"b", 3, 0}};
  Add(sketch, "d", 1);  // its bound, 1, is under the minimum (b, 3): only the bound grows
  EXPECT_EQ(Flatten(sketch.Top(10)), before);
  Add(sketch, "d", 1);  // 2
  EXPECT_EQ(Flatten(sketch.Top(10)), before);
  Add(sketch, "d", 1);  // 3: evicts b; d = 3, error 2 (the bound before this add)
  EXPECT_EQ(Flatten(sketch.Top(10)), (std::vector<T>{{"a", 10, 0}, {"c", 5, 0}, {"d", 3, 2}}));
  EXPECT_EQ(sketch.Top(3)[2].display, KeyItem("d"));
  Add(sketch, "b", 1);  // b's bound is its evicted count, 3: 3 + 1 evicts d (3); b = 4, error 3
  EXPECT_EQ(Flatten(sketch.Top(10)), (std::vector<T>{{"a", 10, 0}, {"c", 5, 0}, {"b", 4, 3}}));
  EXPECT_EQ(sketch.total_weight(), 22);
}

TEST(HeavyHittersTest, EvictionTiesTakeTheLeastRecentlyAddedTo) {
  HeavyHitters sketch(3);
  for (const char* key : {"z", "b", "x", "y"}) {
    ASSERT_NE(sketch.BucketOf("m"), sketch.BucketOf(key)) << key;
  }
  Add(sketch, "m", 2);
  Add(sketch, "z", 2);
  Add(sketch, "b", 2);
  Add(sketch, "x", 2);  // all at 2: evicts "m", the oldest
  using T = std::tuple<std::string, int64_t, int64_t>;
  EXPECT_EQ(Flatten(sketch.Top(10)), (std::vector<T>{{"b", 2, 0}, {"x", 2, 0}, {"z", 2, 0}}));
  Add(sketch, "z", 0);  // touched: now the newest at 2
  Add(sketch, "y", 2);  // evicts "b"
  EXPECT_EQ(Flatten(sketch.Top(10)), (std::vector<T>{{"x", 2, 0}, {"y", 2, 0}, {"z", 2, 0}}));
}

TEST(HeavyHittersTest, TopOrdersByCountThenKeyAndStopsAtN) {
  HeavyHitters sketch(8);
  for (const char* key : {"d", "b", "c", "a"}) Add(sketch, key, 5);
  Add(sketch, "e", 9);
  using T = std::tuple<std::string, int64_t, int64_t>;
  EXPECT_EQ(Flatten(sketch.Top(3)), (std::vector<T>{{"e", 9, 0}, {"a", 5, 0}, {"b", 5, 0}}));
  EXPECT_TRUE(sketch.Top(0).empty());
  EXPECT_EQ(sketch.Top(100).size(), 5u);
}

TEST(HeavyHittersTest, ZeroWeightTracksTheKey) {
  HeavyHitters sketch(2);
  Add(sketch, "a", 0);
  ASSERT_EQ(sketch.size(), 1u);
  EXPECT_EQ(sketch.Top(1)[0].key, "a");
  EXPECT_EQ(sketch.Top(1)[0].count, 0);
  EXPECT_EQ(sketch.total_weight(), 0);
}

TEST(HeavyHittersTest, ZeroCapacityMeansOne) {
  HeavyHitters sketch(0);
  EXPECT_EQ(sketch.capacity(), 1u);
  Add(sketch, "a", 1);
  Add(sketch, "b", 1);  // its bound (0) + 1 reaches a's count: b takes the counter
  ASSERT_EQ(sketch.size(), 1u);
  EXPECT_EQ(sketch.Top(1)[0].key, "b");
  EXPECT_EQ(sketch.Top(1)[0].count, 1);
  EXPECT_EQ(sketch.Top(1)[0].error, 0);
}

TEST(HeavyHittersTest, MakeDisplayIsCalledOnlyOnAssignment) {
  HeavyHitters sketch(2);
  int calls = 0;
  auto add = [&](std::string_view key) {
    sketch.Add(key, 1, [&] {
      ++calls;
      return KeyItem(key);
    });
  };
  add("a");
  add("a");
  add("b");
  add("a");
  add("b");
  EXPECT_EQ(calls, 2);  // a and b assigned once each
  add("c");             // its bound, 1, is under b's 2: not assigned
  EXPECT_EQ(calls, 2);
  add("c");  // 2: evicts b, assigned
  EXPECT_EQ(calls, 3);
  add("c");
  add("a");
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(sketch.Top(2)[1].display, KeyItem("c"));
}

TEST(HeavyHittersTest, AMovedSketchStillFindsItsKeys) {
  // The index holds views of the counters' keys (short ones stored inside the counters): a move
  // keeps the counters' array, so the keys are still found, added to and evicted.
  const std::string long_key(100, 'L');
  HeavyHitters original(3);
  Add(original, "a", 5);
  Add(original, long_key, 4);
  Add(original, "b", 3);
  HeavyHitters moved(std::move(original));
  Add(moved, "a", 1);
  Add(moved, long_key, 1);
  HeavyHitters assigned(1);
  assigned = std::move(moved);
  Add(assigned, "b", 1);
  Add(assigned, "c", 6);  // its bucket's bound (0) + 6 reaches the minimum, b's 4: evicts b
  using T = std::tuple<std::string, int64_t, int64_t>;
  EXPECT_EQ(assigned.size(), 3u);
  EXPECT_EQ(Flatten(assigned.Top(10)),
            (std::vector<T>{{"a", 6, 0}, {"c", 6, 0}, {long_key, 5, 0}}));
}

TEST(HeavyHittersTest, ClearForgetsEverything) {
  HeavyHitters sketch(2);
  Add(sketch, "a", 3);
  Add(sketch, "b", 4);
  Add(sketch, "c", 5);
  sketch.Clear();
  EXPECT_EQ(sketch.size(), 0u);
  EXPECT_EQ(sketch.total_weight(), 0);
  EXPECT_TRUE(sketch.Top(10).empty());
  Add(sketch, "c", 1);
  Add(sketch, "a", 2);
  using T = std::tuple<std::string, int64_t, int64_t>;
  EXPECT_EQ(Flatten(sketch.Top(10)), (std::vector<T>{{"a", 2, 0}, {"c", 1, 0}}));
}

// The guarantees on skewed random streams, and the exact counters of a trivially correct model
// with the same tie rule and filter.
TEST(HeavyHittersTest, SpaceSavingGuaranteesOnZipfStreams) {
  for (size_t capacity : {1, 2, 7, 32, 100}) {
    for (double s : {0.8, 1.1, 1.5}) {
      SCOPED_TRACE("capacity " + std::to_string(capacity) + " s " + std::to_string(s));
      ZipfKeys keys(2000, s, 42 + capacity);
      HeavyHitters sketch(capacity);
      ModelSpaceSaving model(sketch);
      std::map<std::string, int64_t> truth;
      int64_t total = 0;
      for (int i = 0; i < 20000; ++i) {
        const std::string key = keys.Next();
        const int64_t weight = keys.NextWeight();
        Add(sketch, key, weight);
        model.Add(key, weight);
        truth[key] += weight;
        total += weight;
        ASSERT_LE(sketch.size(), capacity);
      }
      ASSERT_EQ(sketch.total_weight(), total);
      const auto top = sketch.Top(capacity);
      ASSERT_EQ(Flatten(top), model.Top());

      std::map<std::string, const HeavyHitters::Entry*> tracked;
      int64_t sum_of_counts = 0;
      for (const auto& e : top) {
        tracked[e.key] = &e;
        sum_of_counts += e.count;
        const int64_t true_count = truth.at(e.key);
        EXPECT_LE(true_count, e.count) << e.key;
        EXPECT_LE(e.count, true_count + e.error) << e.key;
        EXPECT_LE(e.error * int64_t(capacity), total) << e.key;
        EXPECT_EQ(e.display, KeyItem(e.key));
      }
      EXPECT_LE(sum_of_counts, total);
      for (const auto& [key, true_count] : truth) {
        if (true_count * int64_t(capacity) > total) {
          EXPECT_TRUE(tracked.count(key)) << key;
        }
      }
    }
  }
}

TEST(HeavyHittersTest, Deterministic) {
  auto run = [] {
    ZipfKeys keys(5000, 1.0, 7);
    HeavyHitters sketch(50);
    for (int i = 0; i < 30000; ++i) Add(sketch, keys.Next(), keys.NextWeight());
    return sketch.Top(50);
  };
  const auto first = run();
  EXPECT_EQ(first.size(), 50u);
  EXPECT_EQ(first, run());
}

TEST(HeavyHittersTest, SizeStaysWithinCapacityUnderManyDistinctKeys) {
  HeavyHitters sketch(64);
  int64_t displays = 0;
  for (int i = 0; i < 100000; ++i) {
    const std::string key = "user#" + std::to_string(i);
    sketch.Add(key, 1 + i % 3, [&] {
      ++displays;
      return KeyItem(key);
    });
    ASSERT_LE(sketch.size(), 64u);
  }
  // Every key was new, but the filter gives a counter to few: the rest only raise its bounds.
  EXPECT_LT(displays, 100000 / 3);  // (24,078 with this stream)
  // Keys longer than the small-string buffer reuse re-keyed counters correctly.
  const std::string long_key(200, 'x');
  Add(sketch, long_key, 1000000);
  Add(sketch, long_key, 1);
  EXPECT_EQ(sketch.Top(1)[0].key, long_key);
  EXPECT_EQ(sketch.size(), 64u);
}

}  // namespace
}  // namespace partstore::capacity
