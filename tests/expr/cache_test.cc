// ExpressionCache: hits return the tree of the first parse, failures are cached as answers, the
// bound holds, and concurrent use (also run under ThreadSanitizer) returns correct trees.
#include "core/expr/cache.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/expr/parser.h"
#include "tests/expr/expr_testutil.h"

namespace partstore::expr {
namespace {

using testing::Show;

TEST(ExpressionCacheTest, HitReturnsTheSameTree) {
  ExpressionCache cache(64);
  auto first = cache.GetCondition("a = :v AND attribute_exists(b)", ExpressionKind::kCondition);
  ASSERT_TRUE(first.ok());
  auto second = cache.GetCondition("a = :v AND attribute_exists(b)", ExpressionKind::kCondition);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(first->get(), second->get());
  EXPECT_EQ(Show(**second), "((a = :v) AND attribute_exists(b))");
  EXPECT_EQ(cache.stats().misses, 1u);
  EXPECT_EQ(cache.size(), 1u);
  // Another thread finds it in the shared table: the same tree again.
  std::thread([&] {
    auto other = cache.GetCondition("a = :v AND attribute_exists(b)", ExpressionKind::kCondition);
    ASSERT_TRUE(other.ok());
    EXPECT_EQ(other->get(), first->get());
  }).join();
  EXPECT_EQ(cache.stats().hits, 1u);
  EXPECT_EQ(cache.stats().misses, 1u);
}

TEST(ExpressionCacheTest, KindIsPartOfTheKey) {
  ExpressionCache cache(64);
  auto condition = cache.GetCondition("a", ExpressionKind::kCondition);
  auto filter = cache.GetCondition("a", ExpressionKind::kFilter);
  auto projection = cache.GetProjection("a");
  ASSERT_FALSE(condition.ok());
  ASSERT_FALSE(filter.ok());
  ASSERT_TRUE(projection.ok());
  EXPECT_EQ(condition.error().message(),
            "Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \"a\"");
  EXPECT_EQ(filter.error().message(),
            "Invalid FilterExpression: Syntax error; token: \"<EOF>\", near: \"a\"");
  EXPECT_EQ(Show(**projection), "a");
  EXPECT_EQ(cache.size(), 3u);
}

TEST(ExpressionCacheTest, FailuresAreCachedAnswers) {
  ExpressionCache cache(64);
  for (int i = 0; i < 3; ++i) {
    auto update = cache.GetUpdate("SET a = :v SET b = :w");
    ASSERT_FALSE(update.ok());
    EXPECT_EQ(update.error(), ParseUpdate("SET a = :v SET b = :w").error());
  }
  EXPECT_EQ(cache.stats().misses, 1u);
}

TEST(ExpressionCacheTest, BoundIsRespectedAndLeastRecentlyUsedGoes) {
  ExpressionCache cache(40);
  for (int i = 0; i < 400; ++i) {
    ASSERT_TRUE(cache.GetProjection("a" + std::to_string(i)).ok());
    ASSERT_LE(cache.size(), 40u);
  }
  EXPECT_GE(cache.stats().evictions, 360u);

  ExpressionCache one(1);
  auto a = one.GetUpdate("SET a = :v");
  auto b = one.GetUpdate("SET b = :v");
  EXPECT_EQ(one.size(), 1u);
  EXPECT_EQ(one.stats().evictions, 1u);
  // A thread with an empty front table sees the shared table: b is there, a was evicted.
  std::thread([&] {
    auto b_again = one.GetUpdate("SET b = :v");
    EXPECT_EQ(b->get(), b_again->get());
    auto a_again = one.GetUpdate("SET a = :v");
    EXPECT_NE(a->get(), a_again->get());
    EXPECT_EQ(Show(**a_again), "SET a = :v");
  }).join();
  EXPECT_EQ(one.stats().hits, 1u);
  EXPECT_EQ(one.stats().misses, 3u);
  EXPECT_EQ(one.stats().evictions, 2u);
}

TEST(ExpressionCacheTest, CachesDoNotShareEntries) {
  auto first = std::make_unique<ExpressionCache>(8);
  ExpressionCache second(8);
  auto a = first->GetProjection("x, y");
  auto b = second.GetProjection("x, y");
  EXPECT_NE(a->get(), b->get());
  first.reset();
  first = std::make_unique<ExpressionCache>(8);  // possibly at the same address
  auto c = first->GetProjection("x, y");
  EXPECT_NE(a->get(), c->get());
  EXPECT_EQ(Show(**a), "x, y");  // still alive: the holder owns it
}

TEST(ExpressionCacheTest, TreesOutliveTheirThreadAndCache) {
  std::shared_ptr<const UpdateExpression> kept;
  {
    ExpressionCache cache(4);
    std::thread([&] { kept = *cache.GetUpdate("SET a = list_append(a, :v)"); }).join();
  }
  EXPECT_EQ(Show(*kept), "SET a = list_append(a, :v)");
}

TEST(ExpressionCacheTest, EvictedTreesStayAliveForTheirHolders) {
  ExpressionCache cache(1);
  auto held = cache.GetCondition("a < :v", ExpressionKind::kCondition);
  ASSERT_TRUE(held.ok());
  ASSERT_TRUE(cache.GetCondition("b < :v", ExpressionKind::kCondition).ok());
  EXPECT_EQ(Show(**held), "(a < :v)");
}

TEST(ExpressionCacheTest, ZeroCapacityParsesEveryTime) {
  ExpressionCache cache(0);
  auto a = cache.GetProjection("a, b");
  auto b = cache.GetProjection("a, b");
  ASSERT_TRUE(a.ok());
  ASSERT_TRUE(b.ok());
  EXPECT_NE(a->get(), b->get());
  EXPECT_EQ(cache.size(), 0u);
}

TEST(ExpressionCacheTest, OversizedTextsAreNotCached) {
  ExpressionCache cache(8);
  const std::string huge(100000, 'x');
  auto parsed = cache.GetProjection(huge);
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().message(),
            "Invalid ProjectionExpression: Expression size has exceeded the maximum allowed size;");
  EXPECT_EQ(cache.size(), 0u);
}

TEST(ExpressionCacheTest, WrongKindForCondition) {
  ExpressionCache cache(8);
  EXPECT_EQ(cache.GetCondition("a = :v", ExpressionKind::kUpdate).error().code(), Code::kInternal);
}

TEST(ExpressionCacheTest, ConcurrentLookups) {
  // More distinct texts than slots, so hits, misses, inserts races and evictions all happen.
  constexpr int kTexts = 96;
  constexpr int kThreads = 8;
  constexpr int kRounds = 1500;
  std::vector<std::string> texts;
  std::vector<std::string> expected;
  for (int i = 0; i < kTexts; ++i) {
    texts.push_back("attr" + std::to_string(i) + " = :v OR size(list" + std::to_string(i) +
                    ") > :n");
    expected.push_back("((attr" + std::to_string(i) + " = :v) OR (size(list" + std::to_string(i) +
                       ") > :n))");
  }
  ExpressionCache cache(64);
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      uint32_t state = 12345 + t;
      for (int r = 0; r < kRounds; ++r) {
        state = state * 1664525u + 1013904223u;
        const int i = static_cast<int>((state >> 8) % kTexts);
        auto parsed = cache.GetCondition(texts[i], ExpressionKind::kFilter);
        if (!parsed.ok() || Show(**parsed) != expected[i]) failures.fetch_add(1);
        if (r % 97 == 0) {
          auto bad = cache.GetUpdate("SET a = :v SET b = :w");
          if (bad.ok()) failures.fetch_add(1);
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_LE(cache.size(), 64u);
  const ExpressionCache::Stats stats = cache.stats();
  EXPECT_GE(stats.misses, static_cast<uint64_t>(kTexts));
  EXPECT_GT(stats.evictions, 0u);
  EXPECT_LE(stats.hits + stats.misses,
            static_cast<uint64_t>(kThreads) * (kRounds + (kRounds + 96) / 97));
}

}  // namespace
}  // namespace partstore::expr
