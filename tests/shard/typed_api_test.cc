// The typed conveniences of the C++ API: key helpers (partstore/key_patterns.h), KeyCondition
// (partstore/key_condition.h: the same request as the string expression, so the same items and the
// same errors) and the paginating ranges QueryAll / ScanAll (partstore/item_range.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <ranges>
#include <string>
#include <vector>

#include "partstore/condition_builder.h"
#include "partstore/key_condition.h"
#include "partstore/key_patterns.h"
#include "partstore/update_builder.h"
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
  EXPECT_EQ(edge.ToItem("PK", "SK"),
            (Item{{"PK", Value("USER#alice")}, {"SK", Value("USER#bob")}}));
  EXPECT_EQ(KeyId("USER#alice", "USER"), std::optional<std::string_view>("alice"));
  EXPECT_EQ(KeyId("ORDER#2024-01-05#17", "ORDER"),
            std::optional<std::string_view>("2024-01-05#17"));
  EXPECT_EQ(KeyId("USER#", "USER"), std::optional<std::string_view>(""));
  EXPECT_FALSE(KeyId("USERS#alice", "USER"));
  EXPECT_FALSE(KeyId("USER", "USER"));
  EXPECT_FALSE(KeyId("POST#1", "USER"));
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
  EXPECT_EQ(*query.key_condition_expression, "#kc0 = :kc0 AND begins_with(#kc1, :kc1)");
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
  clash.expression_attribute_values = AttributeMap{{":kc0", Value("x")}};
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

TEST_F(TypedApiTest, ReadToEndPagesACountQueryToItsTotal) {
  QueryRequest query{.table_name = "Social", .select = Select::kCount, .limit = 4};
  ASSERT_TRUE(KeyCondition::Eq("PK", "USER#alice").ApplyTo(&query).ok());
  query.filter_expression = "attribute_exists(n)";
  ItemRange counted = db_.QueryAll(query);
  ASSERT_TRUE(counted.ReadToEnd().ok());
  EXPECT_EQ(counted.count(), 10);          // the followers (they have n)
  EXPECT_EQ(counted.scanned_count(), 12);  // every item of the collection
  EXPECT_EQ(counted.pages(), 4);  // 4 + 4 + 4 evaluated; the third was full, so a fourth, empty
  EXPECT_TRUE(counted.ReadToEnd().ok());  // nothing left: still OK, same totals
  EXPECT_EQ(counted.count(), 10);
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

// ---- Condition and Update --------------------------------------------------------------------

// Items of every shape the conditions look at: S, N, SS, L, missing attributes, a reserved word.
class BuilderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    MustCreate(db_, "Things", StringKeys(/*with_sort=*/false));
    MustPut(db_, "Things",
            {{"PK", Value("a")},
             {"status", Value("open")},
             {"n", N("3")},
             {"tags", Value(StringSet{"red", "blue"})},
             {"name", Value("alpha")}});
    MustPut(
        db_, "Things",
        {{"PK", Value("b")}, {"status", Value("closed")}, {"n", N("10")}, {"name", Value("beta")}});
    MustPut(db_, "Things",
            {{"PK", Value("c")}, {"n", N("7")}, {"list", Value(ValueList{Value("x")})}});
    MustPut(db_, "Things", {{"PK", Value("d")}, {"status", Value("open")}, {"n", Value("7")}});
  }

  // The partition keys a Scan with `filter` returns, sorted; or the error text.
  std::vector<std::string> Filtered(ScanRequest scan) {
    auto r = db_.Scan(scan);
    if (!r.ok()) return {"error: " + std::string(r.error().message())};
    std::vector<std::string> keys;
    for (const Item& item : r->items) keys.push_back(item.at("PK").as_string());
    std::sort(keys.begin(), keys.end());
    return keys;
  }

  void ExpectSameFilter(const Condition& condition, const std::string& expression,
                        AttributeMap values, expr::NameMap names = {}) {
    ScanRequest typed{.table_name = "Things"};
    ASSERT_TRUE(condition.ApplyFilterTo(&typed).ok());
    ScanRequest written{.table_name = "Things", .filter_expression = expression};
    if (!values.empty()) written.expression_attribute_values = std::move(values);
    if (!names.empty()) written.expression_attribute_names = std::move(names);
    const std::vector<std::string> expected = Filtered(written);
    ASSERT_TRUE(expected.empty() || !expected[0].starts_with("error")) << expected[0];
    EXPECT_EQ(Filtered(typed), expected) << *typed.filter_expression << " vs " << expression;
  }

  Database db_;
};

TEST_F(BuilderTest, EveryConditionFiltersAsItsStringExpression) {
  ExpectSameFilter(Condition::Exists("status"), "attribute_exists(#s)", {}, {{"#s", "status"}});
  ExpectSameFilter(Condition::NotExists("status"), "attribute_not_exists(#s)", {},
                   {{"#s", "status"}});
  ExpectSameFilter(Condition::Eq("status", "open"), "#s = :v", {{":v", Value("open")}},
                   {{"#s", "status"}});
  ExpectSameFilter(Condition::Ne("status", "open"), "#s <> :v", {{":v", Value("open")}},
                   {{"#s", "status"}});
  ExpectSameFilter(Condition::Lt("n", N("7")), "n < :v", {{":v", N("7")}});
  ExpectSameFilter(Condition::Le("n", N("7")), "n <= :v", {{":v", N("7")}});
  ExpectSameFilter(Condition::Gt("n", N("3")), "n > :v", {{":v", N("3")}});
  ExpectSameFilter(Condition::Ge("n", N("7")), "n >= :v", {{":v", N("7")}});
  ExpectSameFilter(Condition::Between("n", N("3"), N("7")), "n BETWEEN :a AND :b",
                   {{":a", N("3")}, {":b", N("7")}});
  ExpectSameFilter(Condition::In("n", {N("3"), N("10"), Value("7")}), "n IN (:a, :b, :c)",
                   {{":a", N("3")}, {":b", N("10")}, {":c", Value("7")}});
  ExpectSameFilter(Condition::BeginsWith("name", "al"), "begins_with(#n, :v)",
                   {{":v", Value("al")}}, {{"#n", "name"}});
  ExpectSameFilter(Condition::Contains("tags", "red"), "contains(tags, :v)",
                   {{":v", Value("red")}});
  ExpectSameFilter(Condition::Contains("list", "x"), "contains(#l, :v)", {{":v", Value("x")}},
                   {{"#l", "list"}});
  ExpectSameFilter(Condition::HasType("n", Type::kS), "attribute_type(n, :t)",
                   {{":t", Value("S")}});
  // Combinations, with the same attribute twice (one name placeholder).
  ExpectSameFilter(Condition::Eq("status", "open") && Condition::Gt("n", N("5")),
                   "#s = :a AND n > :b", {{":a", Value("open")}, {":b", N("5")}},
                   {{"#s", "status"}});
  ExpectSameFilter(Condition::Eq("status", "closed") || !Condition::Exists("status"),
                   "#s = :a OR attribute_not_exists(#s)", {{":a", Value("closed")}},
                   {{"#s", "status"}});
  ExpectSameFilter(!(Condition::Lt("n", N("5")) || Condition::Gt("n", N("8"))),
                   "NOT (n < :a OR n > :b)", {{":a", N("5")}, {":b", N("8")}});
  const Condition both = Condition::Ge("n", N("3")) && Condition::Le("n", N("7"));
  EXPECT_EQ(both.Expression(), "(#c0 >= :c0) AND (#c0 <= :c1)");
}

TEST_F(BuilderTest, ConditionsGuardWritesAndKeepTheRequestsOwnPlaceholders) {
  PutItemRequest put{.table_name = "Things", .item = {{"PK", Value("a")}}};
  ASSERT_TRUE(Condition::NotExists("PK").ApplyTo(&put).ok());
  EXPECT_EQ(db_.PutItem(put).status().code(), Code::kConditionalCheckFailed);
  put.item = {{"PK", Value("new")}};
  EXPECT_TRUE(db_.PutItem(put).ok());
  // A second condition on the same request is refused, the request unchanged.
  EXPECT_EQ(Condition::Exists("x").ApplyTo(&put).code(), Code::kValidation);
  EXPECT_EQ(*put.condition_expression, "attribute_not_exists(#c0)");
  // Delete and the transaction's ConditionCheck take conditions too.
  DeleteItemRequest del{.table_name = "Things", .key = {{"PK", Value("b")}}};
  ASSERT_TRUE(Condition::Eq("status", "open").ApplyTo(&del).ok());
  EXPECT_EQ(db_.DeleteItem(del).status().code(), Code::kConditionalCheckFailed);
  TransactWriteItem check;
  check.condition_check =
      ConditionCheckRequest{.table_name = "Things", .key = {{"PK", Value("a")}}};
  ASSERT_TRUE(Condition::Contains("tags", "blue").ApplyTo(&*check.condition_check).ok());
  TransactWriteItem write;
  write.put = PutItemRequest{.table_name = "Things", .item = {{"PK", Value("e")}}};
  EXPECT_TRUE(db_.TransactWriteItems({.transact_items = {check, write}}).ok());
  // A filter beside a key condition and the caller's own placeholders.
  MustCreate(db_, "Qtable", StringKeys());
  MustPut(db_, "Qtable", {{"PK", Value("p")}, {"SK", Value("1")}, {"v", N("1")}});
  MustPut(db_, "Qtable", {{"PK", Value("p")}, {"SK", Value("2")}, {"v", N("2")}});
  QueryRequest query{.table_name = "Qtable", .projection_expression = "#own"};
  query.expression_attribute_names = expr::NameMap{{"#own", "SK"}};
  ASSERT_TRUE(KeyCondition::Eq("PK", "p").ApplyTo(&query).ok());
  ASSERT_TRUE(Condition::Gt("v", N("1")).ApplyFilterTo(&query).ok());
  auto r = db_.Query(query);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->items.size(), 1u);
  EXPECT_EQ(r->items[0], (Item{{"SK", Value("2")}}));
  // A clash with the caller's placeholder.
  ScanRequest clash{.table_name = "Things"};
  clash.expression_attribute_values = AttributeMap{{":f0", Value("x")}};
  EXPECT_EQ(Condition::Eq("a", "b").ApplyFilterTo(&clash).code(), Code::kValidation);
  EXPECT_FALSE(clash.filter_expression);
}

// Updates item `pk` with `update` and a copy of it ("<pk>2") with `expression`: same items.
void ExpectSameUpdate(Database& db, const Update& update, const std::string& expression,
                      AttributeMap values = {}, expr::NameMap names = {}) {
  const Item original = {{"PK", Value("u")},
                         {"n", N("1")},
                         {"s", Value(StringSet{"a", "b"})},
                         {"l", Value(ValueList{Value("x")})},
                         {"gone", Value("y")}};
  Item copy = original;
  copy["PK"] = Value("u2");
  MustPut(db, "Things", original);
  MustPut(db, "Things", copy);
  UpdateItemRequest typed{.table_name = "Things", .key = {{"PK", Value("u")}}};
  ASSERT_TRUE(update.ApplyTo(&typed).ok());
  UpdateItemRequest written{
      .table_name = "Things", .key = {{"PK", Value("u2")}}, .update_expression = expression};
  if (!values.empty()) written.expression_attribute_values = std::move(values);
  if (!names.empty()) written.expression_attribute_names = std::move(names);
  auto a = db.UpdateItem(typed);
  auto b = db.UpdateItem(written);
  ASSERT_EQ(a.ok(), b.ok()) << a.status().ToString() << " / " << b.status().ToString();
  if (!a.ok()) {
    EXPECT_EQ(a.status().code(), b.status().code());
    return;
  }
  std::optional<Item> x = MustGet(db, "Things", {{"PK", Value("u")}});
  std::optional<Item> y = MustGet(db, "Things", {{"PK", Value("u2")}});
  ASSERT_TRUE(x && y);
  y->at("PK") = Value("u");
  EXPECT_EQ(*x, *y) << update.Expression() << " vs " << expression;
}

TEST_F(BuilderTest, EveryUpdateActionMatchesItsStringExpression) {
  ExpectSameUpdate(db_, Update().Set("status", "done"), "SET #s = :v", {{":v", Value("done")}},
                   {{"#s", "status"}});
  ExpectSameUpdate(db_, Update().SetIfNotExists("n", N("9")).SetIfNotExists("m", N("9")),
                   "SET n = if_not_exists(n, :v), m = if_not_exists(m, :v)", {{":v", N("9")}});
  ExpectSameUpdate(db_, Update().Append("l", Value(ValueList{Value("z")})),
                   "SET l = list_append(l, :v)", {{":v", Value(ValueList{Value("z")})}});
  ExpectSameUpdate(db_, Update().Add("n", N("5")).Add("s", Value(StringSet{"c"})), "ADD n :a, s :b",
                   {{":a", N("5")}, {":b", Value(StringSet{"c"})}});
  ExpectSameUpdate(db_, Update().Remove("gone").Delete("s", Value(StringSet{"a"})),
                   "REMOVE gone DELETE s :v", {{":v", Value(StringSet{"a"})}});
  // Every clause at once, in any order of calls.
  const Update all = Update().Remove("gone").Add("n", N("1")).Set("x", "y");
  EXPECT_EQ(all.Expression(), "SET #u2 = :u1 REMOVE #u0 ADD #u1 :u0");
  ExpectSameUpdate(db_, all, "SET x = :y REMOVE gone ADD n :one",
                   {{":y", Value("y")}, {":one", N("1")}});
  // The engine's errors: two actions on one attribute, ADD to a string.
  ExpectSameUpdate(db_, Update().Set("n", N("1")).Remove("n"), "SET n = :v REMOVE n",
                   {{":v", N("1")}});
  ExpectSameUpdate(db_, Update().Add("gone", N("1")), "ADD gone :v", {{":v", N("1")}});
  // (Both forms were refused above: the engine's checks run on the typed form too.)
  UpdateItemRequest overlap{.table_name = "Things", .key = {{"PK", Value("u")}}};
  ASSERT_TRUE(Update().Set("n", N("1")).Remove("n").ApplyTo(&overlap).ok());
  EXPECT_EQ(db_.UpdateItem(overlap).status().code(), Code::kValidation);
  UpdateItemRequest add_to_string{.table_name = "Things", .key = {{"PK", Value("u")}}};
  ASSERT_TRUE(Update().Add("gone", N("1")).ApplyTo(&add_to_string).ok());
  EXPECT_EQ(db_.UpdateItem(add_to_string).status().code(), Code::kValidation);
}

TEST_F(BuilderTest, UpdatesRefuseWhatCannotBeWritten) {
  UpdateItemRequest request{.table_name = "Things", .key = {{"PK", Value("a")}}};
  EXPECT_EQ(Update().ApplyTo(&request).code(), Code::kValidation);  // nothing to do
  EXPECT_FALSE(request.update_expression);
  ASSERT_TRUE(Update().Add("n", N("1")).ApplyTo(&request).ok());
  EXPECT_EQ(Update().Set("x", "y").ApplyTo(&request).code(), Code::kValidation);  // already set
  // With a condition: "c" and "u" placeholders side by side.
  ASSERT_TRUE(Condition::Eq("status", "open").ApplyTo(&request).ok());
  ASSERT_TRUE(db_.UpdateItem(request).ok());
  EXPECT_EQ(MustGet(db_, "Things", {{"PK", Value("a")}})->at("n"), N("4"));
  EXPECT_EQ(db_.UpdateItem(request).status().code(), Code::kOk);
  request.key = {{"PK", Value("b")}};  // closed: the condition fails
  EXPECT_EQ(db_.UpdateItem(request).status().code(), Code::kConditionalCheckFailed);
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
