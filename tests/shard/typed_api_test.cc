// The typed conveniences of the C++ API: key helpers (shard/key_patterns.h), KeyCondition
// (shard/key_condition.h: the same request as the string expression, so the same items and the
// same errors) and the paginating ranges QueryAll / ScanAll (shard/item_range.h).
#include <gtest/gtest.h>

#include <iterator>
#include <ranges>
#include <string>
#include <vector>

#include "shard/key_condition.h"
#include "shard/key_patterns.h"
#include "tests/capacity/capacity_testutil.h"
#include "tests/shard/database_testutil.h"

namespace partstore::testing {
namespace {

static_assert(std::input_iterator<ItemRange::iterator>);
static_assert(std::ranges::input_range<ItemRange>);

TEST(KeyPatterns, BuildTheSeedsKeys) {
  EXPECT_EQ(EntityKey("USER", "alice"), "USER#alice");
  EXPECT_EQ(CompositeKey({"ORDER", "2024-01-05", "17"}), "ORDER#2024-01-05#17");
  EXPECT_EQ(CompositeKey({"FOLLOWER", "bob"}), "FOLLOWER#bob");
  EXPECT_EQ(CompositeKey({"ONE"}), "ONE");
  EXPECT_EQ(CompositeKey({}), "");
  EXPECT_EQ(CompositeKey({"", "x", ""}), "#x#");  // empty parts keep their place
  EXPECT_EQ(KeyPrefix("POST"), "POST#");
  EXPECT_TRUE(EntityKey("POST", "1").starts_with(KeyPrefix("POST")));
  const AdjacencyKey edge = AdjacencyKeys("USER#alice", "USER#bob");
  EXPECT_EQ(edge.pk, "USER#alice");
  EXPECT_EQ(edge.sk, "USER#bob");
  EXPECT_EQ(AdjacencyKeys("USER#bob", "USER#alice"), (AdjacencyKey{"USER#bob", "USER#alice"}));
}

// A table of PK/SK strings: USER#alice holds 12 items (FOLLOWER#f00..f09, PROFILE, POST#1), and
// a table with a number sort key.
class TypedApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    MustCreate(db_, "Social", StringKeys());
    for (int i = 0; i < 10; ++i) {
      MustPut(db_, "Social",
              {{"PK", Value(EntityKey("USER", "alice"))},
               {"SK", Value(CompositeKey({"FOLLOWER", "f0" + std::to_string(i)}))},
               {"n", N(std::to_string(i))}});
    }
    MustPut(db_, "Social", {{"PK", Value("USER#alice")}, {"SK", Value("PROFILE")}});
    MustPut(db_, "Social", {{"PK", Value("USER#alice")}, {"SK", Value("POST#1")}});
    MustPut(db_, "Social", {{"PK", Value("USER#bob")}, {"SK", Value("PROFILE")}});
    MustCreate(db_, "Scores", NumberSortKeys());
    for (int i = 0; i < 20; ++i) {
      MustPut(db_, "Scores", {{"PK", Value("p")}, {"n", N(std::to_string(i * 5))}});
    }
  }

  // The sort keys (or "n" numbers) a query returns, or the error text.
  std::vector<std::string> Run(QueryRequest request) {
    auto r = db_.Query(request);
    if (!r.ok()) return {"error: " + std::string(r.error().message())};
    std::vector<std::string> out;
    for (const Item& item : r->items) {
      auto sk = item.find("SK");
      out.push_back(sk != item.end() ? sk->second.as_string()
                                     : item.at("n").as_number().ToString());
    }
    return out;
  }

  // The same query written as a string expression and built by `condition`: same result.
  void ExpectSame(const std::string& table, const KeyCondition& condition,
                  const std::string& expression, AttributeMap values, expr::NameMap names = {}) {
    QueryRequest typed{.table_name = table};
    ASSERT_TRUE(condition.ApplyTo(&typed).ok());
    QueryRequest written{.table_name = table};
    written.key_condition_expression = expression;
    written.expression_attribute_values = std::move(values);
    if (!names.empty()) written.expression_attribute_names = std::move(names);
    const std::vector<std::string> expected = Run(written);
    EXPECT_EQ(Run(typed), expected) << condition.Expression() << " vs " << expression;
    EXPECT_FALSE(expected.empty());
  }

  Database db_;
};

TEST_F(TypedApiTest, EveryKeyConditionMatchesItsStringExpression) {
  const Value alice("USER#alice");
  ExpectSame("Social", KeyCondition::Eq("PK", alice), "PK = :p", {{":p", alice}});
  ExpectSame("Social", KeyCondition::Eq("PK", alice).BeginsWith("SK", KeyPrefix("FOLLOWER")),
             "PK = :p AND begins_with(SK, :s)", {{":p", alice}, {":s", Value("FOLLOWER#")}});
  ExpectSame("Social", KeyCondition::Eq("PK", alice).SortEq("SK", "PROFILE"), "PK = :p AND SK = :s",
             {{":p", alice}, {":s", Value("PROFILE")}});
  ExpectSame("Social", KeyCondition::Eq("PK", alice).Between("SK", "FOLLOWER#f03", "FOLLOWER#f06"),
             "PK = :p AND SK BETWEEN :a AND :b",
             {{":p", alice}, {":a", Value("FOLLOWER#f03")}, {":b", Value("FOLLOWER#f06")}});
  const Value p("p");
  ExpectSame("Scores", KeyCondition::Eq("PK", p).Lt("n", N("20")), "PK = :p AND n < :v",
             {{":p", p}, {":v", N("20")}});
  ExpectSame("Scores", KeyCondition::Eq("PK", p).Le("n", N("20")), "PK = :p AND n <= :v",
             {{":p", p}, {":v", N("20")}});
  ExpectSame("Scores", KeyCondition::Eq("PK", p).Gt("n", N("80")), "PK = :p AND n > :v",
             {{":p", p}, {":v", N("80")}});
  ExpectSame("Scores", KeyCondition::Eq("PK", p).Ge("n", N("80")), "PK = :p AND n >= :v",
             {{":p", p}, {":v", N("80")}});
}

TEST_F(TypedApiTest, KeyConditionKeepsTheRequestsOwnNamesAndValues) {
  QueryRequest query{.table_name = "Social"};
  query.filter_expression = "#n >= :min";
  query.expression_attribute_names = expr::NameMap{{"#n", "n"}};
  query.expression_attribute_values = AttributeMap{{":min", N("7")}};
  ASSERT_TRUE(
      KeyCondition::Eq("PK", "USER#alice").BeginsWith("SK", "FOLLOWER#").ApplyTo(&query).ok());
  EXPECT_EQ(Run(query), (std::vector<std::string>{"FOLLOWER#f07", "FOLLOWER#f08", "FOLLOWER#f09"}));
  EXPECT_EQ(query.expression_attribute_names->at("#n"), "n");
  EXPECT_EQ(*query.key_condition_expression, "#kc_pk = :kc_pk AND begins_with(#kc_sk, :kc_sk)");
}

TEST_F(TypedApiTest, KeyConditionRefusesWhatDynamoDBWouldNotTake) {
  // Two sort-key conditions.
  QueryRequest query{.table_name = "Social"};
  KeyCondition twice = KeyCondition::Eq("PK", "USER#alice");
  twice.BeginsWith("SK", "F").Lt("SK", "G");
  Status s = twice.ApplyTo(&query);
  EXPECT_EQ(s.code(), Code::kValidation);
  EXPECT_FALSE(query.key_condition_expression);  // unchanged
  // A request that already has a key condition, or uses the builder's placeholders.
  QueryRequest written{.table_name = "Social", .key_condition_expression = "PK = :p"};
  EXPECT_EQ(KeyCondition::Eq("PK", "x").ApplyTo(&written).code(), Code::kValidation);
  QueryRequest clash{.table_name = "Social"};
  clash.expression_attribute_values = AttributeMap{{":kc_sk", Value("x")}};
  EXPECT_EQ(KeyCondition::Eq("PK", "x").ApplyTo(&clash).code(), Code::kValidation);
  EXPECT_FALSE(clash.key_condition_expression);
  // Wrong types are the engine's to refuse, with the same error as the string query.
  QueryRequest typed{.table_name = "Scores"};
  ASSERT_TRUE(KeyCondition::Eq("PK", "p").BeginsWith("n", N("1")).ApplyTo(&typed).ok());
  QueryRequest written_bad{.table_name = "Scores",
                           .key_condition_expression = "PK = :p AND begins_with(n, :v)"};
  written_bad.expression_attribute_values = AttributeMap{{":p", Value("p")}, {":v", N("1")}};
  const std::vector<std::string> error = Run(written_bad);
  ASSERT_EQ(error.size(), 1u);
  EXPECT_TRUE(error[0].starts_with("error: ")) << error[0];
  EXPECT_EQ(Run(typed).at(0).substr(0, 7), "error: ");
  // A name that is a reserved word needs no escaping: it is always a placeholder.
  MustCreate(db_, "Reserved",
             KeySchema{.partition = {"name", KeyType::kString},
                       .sort = KeyAttribute{"data", KeyType::kString}});
  MustPut(db_, "Reserved", {{"name", Value("a")}, {"data", Value("b")}, {"SK", Value("b")}});
  QueryRequest reserved{.table_name = "Reserved"};
  ASSERT_TRUE(KeyCondition::Eq("name", "a").SortEq("data", "b").ApplyTo(&reserved).ok());
  EXPECT_EQ(Run(reserved), std::vector<std::string>{"b"});
}

// The sort keys of a range's items, in order.
std::vector<std::string> SortKeys(ItemRange& range) {
  std::vector<std::string> out;
  for (const StoredItem& item : range) out.push_back(std::string(item.Find("SK")->as_string()));
  return out;
}

TEST_F(TypedApiTest, QueryAllFollowsLastEvaluatedKeyPageByPage) {
  QueryRequest query{.table_name = "Social", .limit = 3};
  ASSERT_TRUE(
      KeyCondition::Eq("PK", "USER#alice").BeginsWith("SK", "FOLLOWER#").ApplyTo(&query).ok());
  ItemRange all = db_.QueryAll(query);
  EXPECT_EQ(all.pages(), 0);  // nothing read before begin()
  const std::vector<std::string> keys = SortKeys(all);
  ASSERT_EQ(keys.size(), 10u);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(keys[i], "FOLLOWER#f0" + std::to_string(i));
  EXPECT_TRUE(all.status().ok());
  EXPECT_EQ(all.pages(), 4);  // 3 + 3 + 3 + 1
  EXPECT_FALSE(all.last_evaluated_key());
  // Limit 5 of 10: the second page is full and carries a LastEvaluatedKey; the third is empty.
  query.limit = 5;
  ItemRange fives = db_.QueryAll(query);
  EXPECT_EQ(SortKeys(fives).size(), 10u);
  EXPECT_EQ(fives.pages(), 3);
  // Backwards, starting after a key the caller gives.
  query.scan_index_forward = false;
  query.exclusive_start_key = Item{{"PK", Value("USER#alice")}, {"SK", Value("FOLLOWER#f05")}};
  ItemRange back = db_.QueryAll(query);
  EXPECT_EQ(SortKeys(back),
            (std::vector<std::string>{"FOLLOWER#f04", "FOLLOWER#f03", "FOLLOWER#f02",
                                      "FOLLOWER#f01", "FOLLOWER#f00"}));
}

TEST_F(TypedApiTest, RangesSkipPagesTheFilterEmptied) {
  // Limit 2 with a filter that keeps only f08 and f09: the first four pages return no item and
  // the range reads on; the fifth is full, so it carries a LastEvaluatedKey, and a sixth, empty
  // page ends the range.
  QueryRequest query{.table_name = "Social", .limit = 2};
  query.filter_expression = "n >= :eight";
  query.expression_attribute_values = AttributeMap{{":eight", N("8")}};
  ASSERT_TRUE(
      KeyCondition::Eq("PK", "USER#alice").BeginsWith("SK", "FOLLOWER#").ApplyTo(&query).ok());
  ItemRange filtered = db_.QueryAll(query);
  EXPECT_EQ(SortKeys(filtered), (std::vector<std::string>{"FOLLOWER#f08", "FOLLOWER#f09"}));
  EXPECT_EQ(filtered.pages(), 6);
  // A filter that keeps nothing: an empty range, every page read, OK.
  (*query.expression_attribute_values)[":eight"] = N("100");
  ItemRange none = db_.QueryAll(query);
  EXPECT_TRUE(SortKeys(none).empty());
  EXPECT_TRUE(none.status().ok()) << none.status().ToString();
  EXPECT_EQ(none.pages(), 6);
}

TEST_F(TypedApiTest, ScanAllReadsTheWholeTable) {
  ItemRange all = db_.ScanAll({.table_name = "Social", .limit = 4});
  EXPECT_EQ(std::ranges::distance(all.begin(), all.end()), 13);
  EXPECT_TRUE(all.status().ok());
  EXPECT_GE(all.pages(), 4);
  ItemRange segment =
      db_.ScanAll({.table_name = "Scores", .limit = 3, .segment = 1, .total_segments = 2});
  ItemRange other =
      db_.ScanAll({.table_name = "Scores", .limit = 3, .segment = 0, .total_segments = 2});
  EXPECT_EQ(std::ranges::distance(segment.begin(), segment.end()) +
                std::ranges::distance(other.begin(), other.end()),
            20);
}

TEST_F(TypedApiTest, AnErrorEndsTheRangeWithItsStatus) {
  ItemRange missing =
      db_.QueryAll({.table_name = "Nope",
                    .key_condition_expression = "PK = :p",
                    .expression_attribute_values = AttributeMap{{":p", Value("x")}}});
  EXPECT_TRUE(missing.begin() == missing.end());
  EXPECT_EQ(missing.status().code(), Code::kResourceNotFound);
  EXPECT_EQ(missing.pages(), 0);
  ItemRange bad = db_.ScanAll({.table_name = "Social", .limit = 0});
  EXPECT_TRUE(bad.begin() == bad.end());
  EXPECT_EQ(bad.status().code(), Code::kValidation);
}

class RangeThrottleTest : public CapacityTest {};

TEST_F(RangeThrottleTest, AThrottledPageEndsTheRangeWhereItCanResume) {
  Create(CapacityTable("Big", 1, 10000));  // 1 RCU: pages of 100 KB items run out of capacity
  for (int i = 0; i < 60; ++i) {
    ASSERT_TRUE(Put("Big", "k" + std::to_string(i), 100 * 1024).ok());
  }
  ItemRange all = db_.ScanAll({.table_name = "Big", .limit = 1});
  const auto read = std::ranges::distance(all.begin(), all.end());
  ASSERT_EQ(all.status().code(), Code::kProvisionedThroughputExceeded) << all.status().ToString();
  EXPECT_GT(read, 0);
  EXPECT_LT(read, 60);
  ASSERT_TRUE(all.last_evaluated_key());  // where a retry resumes
  // Resuming from there after the capacity refills, as often as it takes, reads the rest, each
  // item once.
  std::optional<Item> start = all.last_evaluated_key();
  auto total = read;
  for (int attempt = 0; start && attempt < 100; ++attempt) {
    Advance(60);
    ItemRange rest = db_.ScanAll({.table_name = "Big", .limit = 1, .exclusive_start_key = start});
    total += std::ranges::distance(rest.begin(), rest.end());
    if (rest.status().ok()) {
      EXPECT_FALSE(rest.last_evaluated_key());
      start.reset();
    } else {
      ASSERT_EQ(rest.status().code(), Code::kProvisionedThroughputExceeded);
      // Unset when the first page failed: the same start again.
      if (rest.last_evaluated_key()) start = rest.last_evaluated_key();
    }
  }
  EXPECT_FALSE(start);
  EXPECT_EQ(total, 60);
}

}  // namespace
}  // namespace partstore::testing
