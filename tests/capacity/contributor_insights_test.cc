#include "shard/capacity/contributor_insights.h"

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

namespace partstore::capacity {
namespace {

using Row = std::tuple<std::string, int64_t, int64_t>;  // (display, value, minute)

// Test keys: partition key "P", item key "P|S". The display is the key text itself.
Item Display(std::string_view key) { return Item{{"key", Value(key)}}; }

// One request on partition key `pk` and, if `sk` is not empty, sort key `sk`.
void Record(ContributorInsights& insights, int64_t now, std::string_view pk, std::string_view sk,
            int64_t half_units, bool throttled = false) {
  const std::string item = sk.empty() ? std::string(pk) : std::string(pk) + "|" + std::string(sk);
  insights.Record(
      now, pk, item, half_units, throttled, [pk] { return Display(pk); },
      [&item] { return Display(item); });
}

std::vector<Row> Rows(const ContributorInsights& insights, InsightsRule rule, size_t n = 100) {
  std::vector<Row> rows;
  for (const auto& c : insights.Top(rule, n)) {
    rows.emplace_back(c.key.at("key").as_string(), c.value, c.minute);
    EXPECT_EQ(c.error, 0);  // every test here fits the sketches
  }
  return rows;
}

constexpr int64_t kWrite = 6;  // 1 WCU: 3 x 1 x 2 half units
constexpr int64_t kRead = 2;   // 1 strongly consistent RCU: 2 half units

TEST(ContributorInsightsTest, WithoutASortKeyTheItemRulesAreThePartitionKeyRules) {
  // The same stream (item key = partition key, as for a table without a sort key) into a sketch
  // that records all four rules and one that records only the partition-key rules.
  ContributorInsights four;
  ContributorInsights two(InsightsOptions{.items_are_partition_keys = true});
  for (int i = 0; i < 600; ++i) {
    const std::string pk = "k" + std::to_string(i % 7);
    Record(four, i / 5, pk, "", i % 3 == 0 ? kWrite : kRead, i % 11 == 0);
    Record(two, i / 5, pk, "", i % 3 == 0 ? kWrite : kRead, i % 11 == 0);
  }
  for (size_t r = 0; r < kInsightsRuleCount; ++r) {
    const auto rule = static_cast<InsightsRule>(r);
    EXPECT_EQ(Rows(two, rule), Rows(four, rule)) << InsightsRuleName(rule);
    EXPECT_FALSE(Rows(two, rule).empty());
  }
  EXPECT_EQ(2 * two.retained_entries(), four.retained_entries());  // half the sketches' work
}

TEST(ContributorInsightsTest, RuleNames) {
  EXPECT_EQ(InsightsRuleName(InsightsRule::kAccessedPartitionKeys), "MostAccessedPartitionKeys");
  EXPECT_EQ(InsightsRuleName(InsightsRule::kAccessedItems), "MostAccessedItems");
  EXPECT_EQ(InsightsRuleName(InsightsRule::kThrottledPartitionKeys), "MostThrottledPartitionKeys");
  EXPECT_EQ(InsightsRuleName(InsightsRule::kThrottledItems), "MostThrottledItems");
}

TEST(ContributorInsightsTest, RanksByPerMinuteMaximumAndNamesItsMinute) {
  ContributorInsights insights;
  for (int i = 0; i < 10; ++i) Record(insights, 5 + i, "A", "", kRead);    // A: 20 in minute 0
  Record(insights, 30, "B", "", kRead);                                    // B: 2 in minute 0
  Record(insights, 70, "A", "", kRead);                                    // A: 2 in minute 1
  for (int i = 0; i < 4; ++i) Record(insights, 125 + i, "B", "", kWrite);  // B: 24 in minute 2
  Record(insights, 130, "A", "", kWrite);                                  // A: 6 in minute 2
  EXPECT_EQ(Rows(insights, InsightsRule::kAccessedPartitionKeys),
            (std::vector<Row>{{"B", 24, 120}, {"A", 20, 0}}));
  EXPECT_EQ(Rows(insights, InsightsRule::kAccessedPartitionKeys, 1),
            (std::vector<Row>{{"B", 24, 120}}));
  EXPECT_TRUE(Rows(insights, InsightsRule::kThrottledPartitionKeys).empty());
  EXPECT_EQ(insights.current_minute(), 120);
}

TEST(ContributorInsightsTest, TiesReportTheEarliestMinuteAndRankByKey) {
  ContributorInsights insights;
  Record(insights, 0, "B", "", kWrite);
  Record(insights, 60, "B", "", kWrite);
  Record(insights, 61, "A", "", kWrite);
  EXPECT_EQ(Rows(insights, InsightsRule::kAccessedPartitionKeys),
            (std::vector<Row>{{"A", 6, 60}, {"B", 6, 0}}));
}

TEST(ContributorInsightsTest, WritesWeighThreeTimesReads) {
  ContributorInsights insights;
  Record(insights, 0, "reader", "", kRead);
  Record(insights, 1, "reader", "", kRead);
  Record(insights, 2, "writer", "", kWrite);
  Record(insights, 3, "eventual", "", 1);  // 0.5 RCU stays exact
  EXPECT_EQ(Rows(insights, InsightsRule::kAccessedPartitionKeys),
            (std::vector<Row>{{"writer", 6, 0}, {"reader", 4, 0}, {"eventual", 1, 0}}));
}

TEST(ContributorInsightsTest, MinutesOutsideTheWindowFallOut) {
  ContributorInsights insights({.kept_minutes = 3});
  Record(insights, 10, "A", "", 100);  // minute 0
  Record(insights, 70, "B", "", 50);   // minute 1
  Record(insights, 130, "C", "", 10);  // minute 2: window 0..2
  EXPECT_EQ(Rows(insights, InsightsRule::kAccessedPartitionKeys),
            (std::vector<Row>{{"A", 100, 0}, {"B", 50, 60}, {"C", 10, 120}}));
  Record(insights, 190, "C", "", 1);  // minute 3: window 1..3, A leaves
  EXPECT_EQ(Rows(insights, InsightsRule::kAccessedPartitionKeys),
            (std::vector<Row>{{"B", 50, 60}, {"C", 10, 120}}));
  insights.AdvanceTo(300);  // minute 5: window 3..5
  EXPECT_EQ(Rows(insights, InsightsRule::kAccessedPartitionKeys),
            (std::vector<Row>{{"C", 1, 180}}));
  insights.AdvanceTo(100000);  // long quiet: nothing left
  EXPECT_TRUE(Rows(insights, InsightsRule::kAccessedPartitionKeys).empty());
  EXPECT_EQ(insights.retained_entries(), 0u);
  insights.AdvanceTo(10);  // earlier: no change
  EXPECT_EQ(insights.current_minute(), 99960);
}

TEST(ContributorInsightsTest, EarlierTimesCountInTheCurrentMinute) {
  ContributorInsights insights;
  Record(insights, 125, "A", "", 4);
  Record(insights, 30, "A", "", 4);  // late: counted in minute 2
  EXPECT_EQ(Rows(insights, InsightsRule::kAccessedPartitionKeys),
            (std::vector<Row>{{"A", 8, 120}}));
}

TEST(ContributorInsightsTest, ThrottledRulesCountRequests) {
  ContributorInsights insights;
  for (int i = 0; i < 3; ++i) Record(insights, 1, "hot", "x", 0, /*throttled=*/true);
  Record(insights, 2, "hot", "y", 0, /*throttled=*/true);
  Record(insights, 3, "cold", "z", 0, /*throttled=*/true);
  Record(insights, 4, "cold", "z", kRead);  // accessed only
  EXPECT_EQ(Rows(insights, InsightsRule::kThrottledPartitionKeys),
            (std::vector<Row>{{"hot", 4, 0}, {"cold", 1, 0}}));
  EXPECT_EQ(Rows(insights, InsightsRule::kThrottledItems),
            (std::vector<Row>{{"hot|x", 3, 0}, {"cold|z", 1, 0}, {"hot|y", 1, 0}}));
  // Throttled requests with no units stay out of the accessed rules.
  EXPECT_EQ(Rows(insights, InsightsRule::kAccessedPartitionKeys),
            (std::vector<Row>{{"cold", 2, 0}}));
  // A throttled request that did consume units counts in both.
  Record(insights, 5, "hot", "x", 4, /*throttled=*/true);
  EXPECT_EQ(Rows(insights, InsightsRule::kAccessedItems),
            (std::vector<Row>{{"hot|x", 4, 0}, {"cold|z", 2, 0}}));
  EXPECT_EQ(Rows(insights, InsightsRule::kThrottledItems, 1), (std::vector<Row>{{"hot|x", 4, 0}}));
}

TEST(ContributorInsightsTest, ZeroUnitUnthrottledRequestsRecordNothing) {
  ContributorInsights insights;
  Record(insights, 0, "A", "s", 0);
  for (size_t r = 0; r < kInsightsRuleCount; ++r) {
    EXPECT_TRUE(Rows(insights, static_cast<InsightsRule>(r)).empty());
  }
  EXPECT_EQ(insights.retained_entries(), 0u);
}

TEST(ContributorInsightsTest, ItemRulesSeparateSortKeysOfOnePartition) {
  ContributorInsights insights;
  Record(insights, 0, "P1", "a", kWrite);
  Record(insights, 1, "P1", "b", kWrite);
  Record(insights, 2, "P1", "c", kRead);
  Record(insights, 3, "P2", "a", 10);
  EXPECT_EQ(Rows(insights, InsightsRule::kAccessedPartitionKeys),
            (std::vector<Row>{{"P1", 14, 0}, {"P2", 10, 0}}));
  EXPECT_EQ(Rows(insights, InsightsRule::kAccessedItems),
            (std::vector<Row>{{"P2|a", 10, 0}, {"P1|a", 6, 0}, {"P1|b", 6, 0}, {"P1|c", 2, 0}}));
}

TEST(ContributorInsightsTest, ItemRulesWorkWithoutASortKey) {
  ContributorInsights insights;
  Record(insights, 0, "P1", "", kWrite);
  Record(insights, 1, "P2", "", kRead);
  const std::vector<Row> expected{{"P1", 6, 0}, {"P2", 2, 0}};
  EXPECT_EQ(Rows(insights, InsightsRule::kAccessedPartitionKeys), expected);
  EXPECT_EQ(Rows(insights, InsightsRule::kAccessedItems), expected);
}

TEST(ContributorInsightsTest, DisplaysAreBuiltOnlyWhenACounterIsAssigned) {
  ContributorInsights insights;
  int partition_calls = 0;
  int item_calls = 0;
  auto record = [&](int64_t now, bool throttled) {
    insights.Record(
        now, "P", "P|S", throttled ? 0 : kRead, throttled,
        [&] {
          ++partition_calls;
          return Display("P");
        },
        [&] {
          ++item_calls;
          return Display("P|S");
        });
  };
  for (int i = 0; i < 5; ++i) record(i, false);
  EXPECT_EQ(partition_calls, 1);
  EXPECT_EQ(item_calls, 1);
  for (int i = 0; i < 5; ++i) record(10 + i, true);  // the throttled sketches assign once
  EXPECT_EQ(partition_calls, 2);
  EXPECT_EQ(item_calls, 2);
  record(60, false);  // a new minute starts with empty sketches
  EXPECT_EQ(partition_calls, 3);
  EXPECT_EQ(item_calls, 3);
}

TEST(ContributorInsightsTest, KeptPerMinuteLimitsEachMinute) {
  ContributorInsights insights({.kept_per_minute = 2});
  Record(insights, 0, "A", "", 3);
  Record(insights, 0, "B", "", 2);
  Record(insights, 0, "C", "", 1);
  // The current minute is cut the same way as a closed one will be.
  EXPECT_EQ(Rows(insights, InsightsRule::kAccessedPartitionKeys),
            (std::vector<Row>{{"A", 3, 0}, {"B", 2, 0}}));
  Record(insights, 60, "C", "", 1);
  EXPECT_EQ(Rows(insights, InsightsRule::kAccessedPartitionKeys),
            (std::vector<Row>{{"A", 3, 0}, {"B", 2, 0}, {"C", 1, 60}}));
}

TEST(ContributorInsightsTest, MemoryStaysBoundedUnderManyDistinctKeys) {
  const InsightsOptions options{.sketch_capacity = 32, .kept_minutes = 5, .kept_per_minute = 8};
  ContributorInsights insights(options);
  const size_t bound = kInsightsRuleCount * options.sketch_capacity +
                       (options.kept_minutes - 1) * kInsightsRuleCount * options.kept_per_minute;
  for (int i = 0; i < 100000; ++i) {
    const std::string pk = "user#" + std::to_string(i);
    // 10 minutes of traffic; "hot" gets a steady share and must top every rule.
    Record(insights, i / 10000 * 60, i % 4 == 0 ? "hot" : pk, "s" + std::to_string(i % 7), kRead,
           i % 3 == 0);
    ASSERT_LE(insights.retained_entries(), bound);
  }
  for (size_t r = 0; r < kInsightsRuleCount; ++r) {
    const auto top = insights.Top(static_cast<InsightsRule>(r), 1000);
    EXPECT_LE(top.size(), options.kept_minutes * options.kept_per_minute);
  }
  const auto top = insights.Top(InsightsRule::kAccessedPartitionKeys, 1);
  ASSERT_EQ(top.size(), 1u);
  EXPECT_EQ(top[0].key, Display("hot"));
  EXPECT_EQ(top[0].value, 2500 * kRead);  // exact: sketch error cannot reach the hot key's share
  EXPECT_EQ(top[0].error, 0);
}

TEST(ContributorInsightsTest, ClearForgetsEverything) {
  ContributorInsights insights;
  Record(insights, 0, "A", "", kRead);
  Record(insights, 60, "B", "", kRead, true);
  insights.Clear();
  EXPECT_EQ(insights.current_minute(), -1);
  EXPECT_EQ(insights.retained_entries(), 0u);
  EXPECT_TRUE(Rows(insights, InsightsRule::kAccessedPartitionKeys).empty());
  Record(insights, 5, "C", "", kRead);
  EXPECT_EQ(Rows(insights, InsightsRule::kAccessedPartitionKeys), (std::vector<Row>{{"C", 2, 0}}));
}

}  // namespace
}  // namespace partstore::capacity
