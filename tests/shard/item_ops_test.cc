// PutItem, GetItem, UpdateItem, DeleteItem: conditions, ReturnValues, key validation, limits and
// consumed capacity.
#include <gtest/gtest.h>

#include "tests/shard/database_testutil.h"

namespace partstore {
namespace {

using testing::ErrorText;
using testing::MustGet;
using testing::MustPut;
using testing::N;
using testing::StringKeys;

class ItemOpsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::MustCreate(db_, "Items", StringKeys());
    testing::MustCreate(db_, "HashOnly", StringKeys(false));
  }
  Database db_;
};

TEST_F(ItemOpsTest, PutGetRoundTripAndOverwrite) {
  MustPut(db_, "Items", {{"PK", "u#1"}, {"SK", "profile"}, {"name", "Ann"}});
  EXPECT_EQ(MustGet(db_, "Items", {{"PK", "u#1"}, {"SK", "profile"}}),
            (Item{{"PK", "u#1"}, {"SK", "profile"}, {"name", "Ann"}}));
  EXPECT_EQ(MustGet(db_, "Items", {{"PK", "u#1"}, {"SK", "other"}}), std::nullopt);

  PutItemRequest put;
  put.table_name = "Items";
  put.item = {{"PK", "u#1"}, {"SK", "profile"}, {"name", "Bob"}};
  put.return_values = ReturnValue::kAllOld;
  auto replaced = db_.PutItem(put);
  ASSERT_TRUE(replaced.ok());
  ASSERT_TRUE(replaced->attributes);
  EXPECT_EQ(replaced->attributes->at("name"), Value("Ann"));

  put.item = {{"PK", "u#2"}, {"SK", "profile"}};
  auto fresh = db_.PutItem(put);
  ASSERT_TRUE(fresh.ok());
  EXPECT_FALSE(fresh->attributes) << "ALL_OLD of a new item returns nothing";
  EXPECT_EQ(db_.DescribeTable({"Items"})->table.item_count, 2);
}

TEST_F(ItemOpsTest, HashOnlyTable) {
  MustPut(db_, "HashOnly", {{"PK", "k"}, {"v", 1}});
  EXPECT_EQ(MustGet(db_, "HashOnly", {{"PK", "k"}}), (Item{{"PK", "k"}, {"v", 1}}));
  GetItemRequest get;
  get.table_name = "HashOnly";
  get.key = {{"PK", "k"}, {"SK", "x"}};
  EXPECT_EQ(ErrorText(db_.GetItem(get)), "The provided key element does not match the schema");
}

TEST_F(ItemOpsTest, KeyValidation) {
  PutItemRequest put;
  put.table_name = "Items";
  put.item = {{"PK", "a"}};
  EXPECT_EQ(ErrorText(db_.PutItem(put)),
            "One or more parameter values were invalid: Missing the key SK in the item");
  put.item = {{"PK", "a"}, {"SK", 5}};
  EXPECT_EQ(ErrorText(db_.PutItem(put)),
            "One or more parameter values were invalid: Type mismatch for key SK expected: S "
            "actual: N");
  put.item = {{"PK", ""}, {"SK", "b"}};
  EXPECT_EQ(ErrorText(db_.PutItem(put)),
            "One or more parameter values are not valid. The AttributeValue for a key attribute "
            "cannot contain an empty string value. Key: PK");
  put.item = {{"PK", std::string(2049, 'x')}, {"SK", "b"}};
  EXPECT_EQ(ErrorText(db_.PutItem(put)),
            "One or more parameter values were invalid: Size of hashkey has exceeded the maximum "
            "size limit of2048 bytes");
  put.item = {{"PK", "a"}, {"SK", std::string(1025, 'x')}};
  EXPECT_EQ(ErrorText(db_.PutItem(put)),
            "One or more parameter values were invalid: Aggregated size of all range keys has "
            "exceeded the size limit of 1024 bytes");
  put.item = {{"PK", "a"}, {"SK", "b"}, {"big", std::string(400 * 1024, 'x')}};
  EXPECT_EQ(ErrorText(db_.PutItem(put)), "Item size has exceeded the maximum allowed size");

  for (Item key : {Item{{"PK", "a"}}, Item{{"PK", "a"}, {"SK", "b"}, {"x", 1}},
                   Item{{"PK", "a"}, {"SK", 1}}, Item{{"PK", "a"}, {"sk", "b"}}}) {
    GetItemRequest get;
    get.table_name = "Items";
    get.key = key;
    EXPECT_EQ(ErrorText(db_.GetItem(get)), "The provided key element does not match the schema");
    DeleteItemRequest del;
    del.table_name = "Items";
    del.key = key;
    EXPECT_EQ(ErrorText(db_.DeleteItem(del)),
              "The provided key element does not match the schema");
  }
  EXPECT_EQ(db_.DescribeTable({"Items"})->table.item_count, 0) << "nothing was written";
}

TEST_F(ItemOpsTest, RequestErrorsComeBeforeMissingTable) {
  PutItemRequest put;
  put.table_name = "Missing";
  put.item = {{"PK", "a"}, {"SK", "b"}};
  put.return_values = ReturnValue::kAllNew;
  EXPECT_EQ(ErrorText(db_.PutItem(put)), "ReturnValues can only be ALL_OLD or NONE");
  put.return_values = ReturnValue::kNone;
  put.condition_expression = "attribute_not_exists(";
  EXPECT_EQ(db_.PutItem(put).error().code(), Code::kValidation);
  put.condition_expression.reset();
  EXPECT_EQ(ErrorText(db_.PutItem(put)), "Requested resource not found");
  // Bad keys on a missing table: the table is reported.
  put.item = {};
  EXPECT_EQ(ErrorText(db_.PutItem(put)), "Requested resource not found");
}

TEST_F(ItemOpsTest, ConditionalWrites) {
  PutItemRequest put;
  put.table_name = "Items";
  put.item = {{"PK", "a"}, {"SK", "b"}, {"v", 1}};
  put.condition_expression = "attribute_not_exists(PK)";
  ASSERT_TRUE(db_.PutItem(put).ok());
  auto again = db_.PutItem(put);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().code(), Code::kConditionalCheckFailed);
  EXPECT_EQ(ErrorText(again), "The conditional request failed");
  EXPECT_EQ(again.error().detail(), nullptr) << "no Item without ALL_OLD";

  put.return_values_on_condition_check_failure = ReturnValuesOnConditionCheckFailure::kAllOld;
  put.item["v"] = 2;
  auto with_old = db_.PutItem(put);
  ASSERT_NE(with_old.error().detail(), nullptr);
  EXPECT_EQ(with_old.error().detail()->item, (Item{{"PK", "a"}, {"SK", "b"}, {"v", 1}}));
  EXPECT_EQ(MustGet(db_, "Items", {{"PK", "a"}, {"SK", "b"}})->at("v"), Value(1)) << "unchanged";

  DeleteItemRequest del;
  del.table_name = "Items";
  del.key = {{"PK", "a"}, {"SK", "b"}};
  del.condition_expression = "v = :two";
  del.expression_attribute_values = AttributeMap{{":two", 2}};
  del.return_values_on_condition_check_failure = ReturnValuesOnConditionCheckFailure::kAllOld;
  auto refused = db_.DeleteItem(del);
  EXPECT_EQ(refused.error().code(), Code::kConditionalCheckFailed);
  ASSERT_NE(refused.error().detail(), nullptr);
  del.expression_attribute_values = AttributeMap{{":two", 1}};
  del.return_values = ReturnValue::kAllOld;
  auto removed = db_.DeleteItem(del);
  ASSERT_TRUE(removed.ok()) << removed.status().ToString();
  EXPECT_EQ(removed->attributes->at("v"), Value(1));
  EXPECT_EQ(MustGet(db_, "Items", {{"PK", "a"}, {"SK", "b"}}), std::nullopt);

  // Legacy Expected works the same way.
  PutItemRequest legacy;
  legacy.table_name = "Items";
  legacy.item = {{"PK", "a"}, {"SK", "c"}};
  legacy.expected = std::vector<expr::ExpectedAttribute>{{.name = "PK", .exists = false}};
  ASSERT_TRUE(db_.PutItem(legacy).ok());
  EXPECT_EQ(db_.PutItem(legacy).error().code(), Code::kConditionalCheckFailed);
}

TEST_F(ItemOpsTest, UpdateItemUpsertsAndReturnsValues) {
  UpdateItemRequest update;
  update.table_name = "Items";
  update.key = {{"PK", "c"}, {"SK", "counter"}};
  update.update_expression = "ADD hits :one SET tag = :tag";
  update.expression_attribute_values = AttributeMap{{":one", 1}, {":tag", "x"}};
  update.return_values = ReturnValue::kUpdatedNew;
  auto first = db_.UpdateItem(update);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(first->attributes, (Item{{"hits", 1}, {"tag", "x"}}));
  update.return_values = ReturnValue::kAllNew;
  auto second = db_.UpdateItem(update);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->attributes,
            (Item{{"PK", "c"}, {"SK", "counter"}, {"hits", 2}, {"tag", "x"}}));
  update.return_values = ReturnValue::kUpdatedOld;
  auto third = db_.UpdateItem(update);
  EXPECT_EQ(third->attributes, (Item{{"hits", 2}, {"tag", "x"}}));
  update.return_values = ReturnValue::kAllOld;
  auto fourth = db_.UpdateItem(update);
  EXPECT_EQ(fourth->attributes->at("hits"), Value(3));

  UpdateItemRequest key_update;
  key_update.table_name = "Items";
  key_update.key = {{"PK", "c"}, {"SK", "counter"}};
  key_update.update_expression = "SET SK = :v";
  key_update.expression_attribute_values = AttributeMap{{":v", "y"}};
  EXPECT_EQ(ErrorText(db_.UpdateItem(key_update)),
            "One or more parameter values were invalid: Cannot update attribute SK. This attribute "
            "is part of the key");

  // REMOVE on a missing item creates nothing.
  UpdateItemRequest remove;
  remove.table_name = "Items";
  remove.key = {{"PK", "none"}, {"SK", "x"}};
  remove.update_expression = "REMOVE a";
  ASSERT_TRUE(db_.UpdateItem(remove).ok());
  EXPECT_EQ(MustGet(db_, "Items", {{"PK", "none"}, {"SK", "x"}}), std::nullopt);

  // Growing past 400 KB is refused and leaves the item as it was.
  UpdateItemRequest grow;
  grow.table_name = "Items";
  grow.key = {{"PK", "c"}, {"SK", "counter"}};
  grow.update_expression = "SET big = :big";
  grow.expression_attribute_values = AttributeMap{{":big", std::string(400 * 1024, 'x')}};
  EXPECT_EQ(ErrorText(db_.UpdateItem(grow)),
            "Item size to update has exceeded the maximum allowed size");
  EXPECT_EQ(MustGet(db_, "Items", {{"PK", "c"}, {"SK", "counter"}})->count("big"), 0u);
}

TEST_F(ItemOpsTest, ProjectionOnGetItem) {
  MustPut(db_, "Items", {{"PK", "a"}, {"SK", "b"}, {"m", AttributeMap{{"x", 1}, {"y", 2}}}, {"z", 3}});
  GetItemRequest get;
  get.table_name = "Items";
  get.key = {{"PK", "a"}, {"SK", "b"}};
  get.projection_expression = "m.y, #z";
  get.expression_attribute_names = expr::NameMap{{"#z", "z"}};
  auto got = db_.GetItem(get);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ(got->item, (Item{{"m", AttributeMap{{"y", 2}}}, {"z", 3}}));
  get.expression_attribute_names = expr::NameMap{{"#z", "z"}, {"#unused", "q"}};
  EXPECT_EQ(ErrorText(db_.GetItem(get)),
            "Value provided in ExpressionAttributeNames unused in expressions: keys: {#unused}");
}

TEST_F(ItemOpsTest, ConsumedCapacity) {
  auto units = [](const std::optional<ConsumedCapacity>& c) {
    return c ? c->CapacityUnits() : -1.0;
  };
  PutItemRequest put;
  put.table_name = "Items";
  put.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  // PK(2)+1 + SK(2)+1 + "big"(3) + 1500 = 1509 bytes -> 2 WCU.
  put.item = {{"PK", "a"}, {"SK", "b"}, {"big", std::string(1500, 'x')}};
  EXPECT_EQ(units(db_.PutItem(put)->consumed_capacity), 2.0);
  // Overwrite with a small item: max(old, new) -> still 2.
  put.item = {{"PK", "a"}, {"SK", "b"}};
  EXPECT_EQ(units(db_.PutItem(put)->consumed_capacity), 2.0);
  EXPECT_EQ(units(db_.PutItem(put)->consumed_capacity), 1.0);

  GetItemRequest get;
  get.table_name = "Items";
  get.key = {{"PK", "a"}, {"SK", "b"}};
  get.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  EXPECT_EQ(units(db_.GetItem(get)->consumed_capacity), 0.5);
  get.consistent_read = true;
  EXPECT_EQ(units(db_.GetItem(get)->consumed_capacity), 1.0);
  get.key = {{"PK", "missing"}, {"SK", "b"}};
  EXPECT_EQ(units(db_.GetItem(get)->consumed_capacity), 1.0) << "a miss still costs a unit";
  put.item = {{"PK", "a"}, {"SK", "b"}, {"big", std::string(9000, 'x')}};
  ASSERT_TRUE(db_.PutItem(put).ok());
  get.key = {{"PK", "a"}, {"SK", "b"}};
  EXPECT_EQ(units(db_.GetItem(get)->consumed_capacity), 3.0);  // 9009 B -> 3 x 4 KB

  get.return_consumed_capacity = ReturnConsumedCapacity::kIndexes;
  auto indexes = db_.GetItem(get);
  ASSERT_TRUE(indexes->consumed_capacity);
  EXPECT_EQ(indexes->consumed_capacity->table_name, "Items");
  EXPECT_EQ(indexes->consumed_capacity->table_half_units, 6);
  get.return_consumed_capacity = ReturnConsumedCapacity::kNone;
  EXPECT_FALSE(db_.GetItem(get)->consumed_capacity);

  DeleteItemRequest del;
  del.table_name = "Items";
  del.key = {{"PK", "nothing"}, {"SK", "b"}};
  del.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  EXPECT_EQ(units(db_.DeleteItem(del)->consumed_capacity), 1.0);
  del.key = {{"PK", "a"}, {"SK", "b"}};
  EXPECT_EQ(units(db_.DeleteItem(del)->consumed_capacity), 9.0);  // 9009 B -> 9 x 1 KB
}

TEST_F(ItemOpsTest, NumberKeysAreNormalized) {
  testing::MustCreate(db_, "Num", testing::NumberSortKeys());
  MustPut(db_, "Num", {{"PK", "p"}, {"n", N("1000")}, {"v", "first"}});
  MustPut(db_, "Num", {{"PK", "p"}, {"n", N("1e3")}, {"v", "second"}});
  EXPECT_EQ(db_.DescribeTable({"Num"})->table.item_count, 1);
  EXPECT_EQ(MustGet(db_, "Num", {{"PK", "p"}, {"n", N("1.000E3")}})->at("v"), Value("second"));
}

}  // namespace
}  // namespace partstore
