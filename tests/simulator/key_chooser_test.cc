// KeyChooser and Random (tools/simulator/): the key distributions a workload names.
#include "tools/simulator/key_chooser.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace partstore::sim {
namespace {

std::vector<int64_t> Histogram(const KeyDistribution& d, int draws, uint64_t seed = 1) {
  KeyChooser chooser(d);
  Random random(seed);
  std::vector<int64_t> counts(static_cast<size_t>(d.count), 0);
  for (int i = 0; i < draws; ++i) {
    const int64_t key = chooser.Next(random, 0);
    EXPECT_GE(key, 0);
    EXPECT_LT(key, d.count);
    if (key >= 0 && key < d.count) ++counts[static_cast<size_t>(key)];
  }
  return counts;
}

TEST(RandomTest, IsDeterministicAndUniformEnough) {
  Random a(42), b(42), c(43);
  for (int i = 0; i < 100; ++i) {
    const uint64_t x = a.Next();
    EXPECT_EQ(x, b.Next());
    EXPECT_NE(x, c.Next());
  }
  Random r(7);
  double sum = 0;
  for (int i = 0; i < 100000; ++i) {
    const double u = r.Uniform();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    sum += u;
  }
  EXPECT_NEAR(sum / 100000, 0.5, 0.01);
  for (int i = 0; i < 1000; ++i) EXPECT_LT(r.Below(3), 3u);
}

TEST(KeyChooserTest, UniformCoversTheSpaceEvenly) {
  const auto counts = Histogram({.kind = KeyDistribution::Kind::kUniform, .count = 10}, 100000);
  for (int64_t c : counts) EXPECT_NEAR(c, 10000, 500);
}

TEST(KeyChooserTest, ZipfianFollowsThePowerLaw) {
  // Over 1,000 keys with theta 0.99, P(rank r) = (r + 1)^-0.99 / H, H = sum over 1..1000.
  KeyDistribution d{.kind = KeyDistribution::Kind::kZipfian, .count = 1000, .theta = 0.99};
  double h = 0;
  for (int r = 1; r <= 1000; ++r) h += std::pow(r, -0.99);
  const int draws = 400000;
  const auto counts = Histogram(d, draws);
  for (int r : {0, 1, 9, 99}) {
    const double expected = draws * std::pow(r + 1, -0.99) / h;
    EXPECT_NEAR(counts[r], expected, 5 * std::sqrt(expected) + 1) << "rank " << r;
  }
  EXPECT_GT(counts[0], counts[1]);
  EXPECT_GT(counts[1], counts[10]);
}

TEST(KeyChooserTest, ZipfianHeadDrawsAreTheBisectionsOfTheCumulativeTable) {
  // The guide table is only a faster search: every draw within the exact table is the rank a
  // bisection of the cumulative weights gives for the same uniform number.
  for (const double theta : {0.99, 0.5, 1.4}) {
    for (const int64_t count : {1, 7, 1000, 4096}) {
      KeyDistribution d{.kind = KeyDistribution::Kind::kZipfian, .count = count, .theta = theta};
      std::vector<double> cdf;
      double sum = 0;
      for (int64_t r = 0; r < count; ++r) cdf.push_back(sum += std::pow(r + 1.0, -theta));
      KeyChooser chooser(d);
      Random drawn(11), reference(11);
      for (int i = 0; i < 200000; ++i) {
        const double u = reference.Uniform() * sum;
        const int64_t expected =
            std::min<int64_t>(std::upper_bound(cdf.begin(), cdf.end(), u) - cdf.begin(), count - 1);
        ASSERT_EQ(chooser.Next(drawn, 0), expected) << "theta " << theta << " count " << count;
      }
    }
  }
}

TEST(KeyChooserTest, ZipfianBeyondTheExactTableKeepsItsTail) {
  // 10 million keys: the head is exact, the tail continuous. The tail's share is its integral.
  KeyDistribution d{.kind = KeyDistribution::Kind::kZipfian, .count = 10'000'000, .theta = 0.8};
  KeyChooser chooser(d);
  Random random(3);
  const int draws = 200000;
  int tail = 0;
  for (int i = 0; i < draws; ++i) {
    const int64_t key = chooser.Next(random, 0);
    ASSERT_GE(key, 0);
    ASSERT_LT(key, d.count);
    if (key >= 4096) ++tail;
  }
  double head = 0;
  for (int r = 1; r <= 4096; ++r) head += std::pow(r, -0.8);
  const double tail_weight = (std::pow(10'000'000.5, 0.2) - std::pow(4096.5, 0.2)) / 0.2;
  const double expected = draws * tail_weight / (head + tail_weight);
  EXPECT_NEAR(tail, expected, 5 * std::sqrt(expected));
}

TEST(KeyChooserTest, HotspotPutsItsShareOnTheHotKeys) {
  KeyDistribution d{
      .kind = KeyDistribution::Kind::kHotspot, .count = 100, .hot_keys = 0.1, .hot_traffic = 0.9};
  const auto counts = Histogram(d, 100000);
  int64_t hot = 0;
  for (int i = 0; i < 10; ++i) hot += counts[i];
  EXPECT_NEAR(hot, 90000, 600);
  for (int i = 10; i < 100; ++i) EXPECT_GT(counts[i], 0);
}

TEST(KeyChooserTest, TimeOrderedAndHotKey) {
  Random random(1);
  KeyChooser time({.kind = KeyDistribution::Kind::kTimeOrdered, .bucket_micros = 60'000'000});
  EXPECT_EQ(time.Next(random, 0), 0);
  EXPECT_EQ(time.Next(random, 59'999'999), 0);
  EXPECT_EQ(time.Next(random, 60'000'000), 1);
  EXPECT_EQ(time.Next(random, 3'600'000'000), 60);
  KeyChooser hot({.kind = KeyDistribution::Kind::kHotKey, .hot_key = 42});
  for (int i = 0; i < 10; ++i) EXPECT_EQ(hot.Next(random, i * 1000), 42);
}

}  // namespace
}  // namespace partstore::sim
