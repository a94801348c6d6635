// TransactWriteItems and TransactGetItems: all or nothing, cancellation reasons, validation,
// ClientRequestToken idempotency (manual clock), capacity, and the seeds' follow / unfollow edges.
#include <gtest/gtest.h>

#include "partstore/clock.h"
#include "partstore/error_detail.h"
#include "tests/shard/database_testutil.h"
#include "tests/sharding/sharding_testutil.h"

namespace partstore::testing {
namespace {

TransactWriteItem Put(const std::string& table, Item item,
                      std::optional<std::string> condition = std::nullopt,
                      std::optional<AttributeMap> values = std::nullopt) {
  TransactWriteItem out;
  out.put = PutItemRequest{.table_name = table,
                           .item = std::move(item),
                           .condition_expression = std::move(condition),
                           .expression_attribute_values = std::move(values)};
  return out;
}

TransactWriteItem Update(const std::string& table, Item key, std::string update,
                         std::optional<std::string> condition, AttributeMap values) {
  TransactWriteItem out;
  out.update = UpdateItemRequest{.table_name = table,
                                 .key = std::move(key),
                                 .update_expression = std::move(update),
                                 .condition_expression = std::move(condition),
                                 .expression_attribute_values = std::move(values)};
  return out;
}

TransactWriteItem Delete(const std::string& table, Item key,
                         std::optional<std::string> condition = std::nullopt) {
  TransactWriteItem out;
  out.del = DeleteItemRequest{
      .table_name = table, .key = std::move(key), .condition_expression = std::move(condition)};
  return out;
}

TransactWriteItem Check(const std::string& table, Item key, std::string condition) {
  TransactWriteItem out;
  out.condition_check = ConditionCheckRequest{
      .table_name = table, .key = std::move(key), .condition_expression = std::move(condition)};
  return out;
}

std::vector<std::string> Codes(const Status& status) {
  std::vector<std::string> out;
  if (status.detail() == nullptr) return out;
  for (const CancellationReason& reason : status.detail()->cancellation_reasons) {
    out.push_back(reason.code);
  }
  return out;
}

class TransactionTest : public ::testing::Test {
 protected:
  TransactionTest() : clock_(std::make_shared<capacity::ManualClock>()), db_(Options(clock_)) {}
  static DatabaseOptions Options(std::shared_ptr<capacity::ManualClock> clock) {
    DatabaseOptions options;
    options.capacity.clock = std::move(clock);  // for ClientRequestTokens; simulation stays off
    return options;
  }
  void SetUp() override {
    MustCreate(db_, "Accounts", StringKeys(/*with_sort=*/false));
    MustCreate(db_, "Social", StringKeys());
  }
  Result<TransactWriteItemsResult> Write(std::vector<TransactWriteItem> items,
                                         std::optional<std::string> token = std::nullopt) {
    return db_.TransactWriteItems(
        {.transact_items = std::move(items), .client_request_token = std::move(token)});
  }

  std::shared_ptr<capacity::ManualClock> clock_;
  Database db_;
};

TEST_F(TransactionTest, WritesAcrossTablesAllOrNothing) {
  auto done = Write({Put("Accounts", {{"PK", "alice"}, {"balance", 100}}),
                     Put("Social", {{"PK", "USER#alice"}, {"SK", "PROFILE"}})});
  ASSERT_TRUE(done.ok()) << done.status().ToString();
  EXPECT_TRUE(MustGet(db_, "Accounts", {{"PK", "alice"}}));
  EXPECT_TRUE(MustGet(db_, "Social", {{"PK", "USER#alice"}, {"SK", "PROFILE"}}));

  // One false condition: nothing happens, and every action has its reason, in order.
  auto cancelled = Write(
      {Update("Accounts", {{"PK", "alice"}}, "SET balance = balance - :a", "balance >= :a",
              {{":a", 30}}),
       Put("Accounts", {{"PK", "bob"}, {"balance", 30}}, "attribute_exists(PK)"),
       Check("Social", {{"PK", "USER#alice"}, {"SK", "PROFILE"}}, "attribute_not_exists(PK)")});
  ASSERT_EQ(cancelled.status().code(), Code::kTransactionCanceled);
  EXPECT_EQ(ErrorText(cancelled),
            "Transaction cancelled, please refer cancellation reasons for specific reasons [None, "
            "ConditionalCheckFailed, ConditionalCheckFailed]");
  EXPECT_EQ(MustGet(db_, "Accounts", {{"PK", "alice"}})->at("balance"), N("100"));
  EXPECT_FALSE(MustGet(db_, "Accounts", {{"PK", "bob"}}));
  const auto& reasons = cancelled.status().detail()->cancellation_reasons;
  EXPECT_FALSE(reasons[0].message);
  EXPECT_EQ(reasons[1].message, "The conditional request failed");
}

TEST_F(TransactionTest, AllOldReturnsTheItemOfAFailedCondition) {
  MustPut(db_, "Accounts", {{"PK", "carol"}, {"balance", 5}});
  TransactWriteItem check = Check("Accounts", {{"PK", "carol"}}, "balance > :n");
  check.condition_check->expression_attribute_values = AttributeMap{{":n", 10}};
  check.condition_check->return_values_on_condition_check_failure =
      ReturnValuesOnConditionCheckFailure::kAllOld;
  auto cancelled = Write({check, Put("Accounts", {{"PK", "dave"}})});
  ASSERT_EQ(Codes(cancelled.status()),
            (std::vector<std::string>{"ConditionalCheckFailed", "None"}));
  EXPECT_EQ(cancelled.status().detail()->cancellation_reasons[0].item,
            (Item{{"PK", "carol"}, {"balance", 5}}));
}

TEST_F(TransactionTest, UpdateDeleteAndConditionCheckApplyTogether) {
  MustPut(db_, "Accounts", {{"PK", "a"}, {"balance", 10}});
  MustPut(db_, "Accounts", {{"PK", "b"}, {"balance", 0}});
  MustPut(db_, "Accounts", {{"PK", "gone"}});
  auto done = Write(
      {Update("Accounts", {{"PK", "a"}}, "SET balance = balance - :x", "balance >= :x",
              {{":x", 10}}),
       Update("Accounts", {{"PK", "b"}}, "SET balance = balance + :x", std::nullopt, {{":x", 10}}),
       Delete("Accounts", {{"PK", "gone"}}, "attribute_exists(PK)"),
       Check("Social", {{"PK", "x"}, {"SK", "y"}}, "attribute_not_exists(PK)")});
  ASSERT_TRUE(done.ok()) << done.status().ToString();
  EXPECT_EQ(MustGet(db_, "Accounts", {{"PK", "a"}})->at("balance"), N("0"));
  EXPECT_EQ(MustGet(db_, "Accounts", {{"PK", "b"}})->at("balance"), N("10"));
  EXPECT_FALSE(MustGet(db_, "Accounts", {{"PK", "gone"}}));
  // An Update creating its item.
  ASSERT_TRUE(
      Write({Update("Accounts", {{"PK", "new"}}, "SET balance = :z", std::nullopt, {{":z", 1}})})
          .ok());
  EXPECT_EQ(MustGet(db_, "Accounts", {{"PK", "new"}}), (Item{{"PK", "new"}, {"balance", 1}}));
}

TEST_F(TransactionTest, RequestErrorsAreValidationExceptionsKeyErrorsCancel) {
  EXPECT_EQ(ErrorText(Write({})),
            "1 validation error detected: Value '[]' at 'transactItems' failed to satisfy "
            "constraint: Member must have length greater than or equal to 1");
  std::vector<TransactWriteItem> many;
  for (int i = 0; i < 101; ++i) many.push_back(Put("Accounts", {{"PK", std::to_string(i)}}));
  EXPECT_TRUE(
      ErrorText(Write(many)).ends_with("Member must have length less than or equal to 100"));
  many.pop_back();
  EXPECT_TRUE(Write(many).ok());  // 100 is the limit

  EXPECT_EQ(ErrorText(Write({Put("Accounts", {{"PK", "x"}}), Delete("Accounts", {{"PK", "x"}})})),
            "Transaction request cannot include multiple operations on one item");
  TransactWriteItem two = Put("Accounts", {{"PK", "y"}});
  two.del = DeleteItemRequest{.table_name = "Accounts", .key = {{"PK", "y"}}};
  EXPECT_EQ(ErrorText(Write({two})),
            "TransactItems can only contain one of Check, Put, Update or Delete");
  TransactWriteItem no_condition;
  no_condition.condition_check =
      ConditionCheckRequest{.table_name = "Accounts", .key = {{"PK", "y"}}};
  EXPECT_EQ(ErrorText(Write({no_condition})),
            "The ConditionExpression parameter is required for a ConditionCheck action");
  // An expression error is the whole request's.
  EXPECT_EQ(Write({Put("Accounts", {{"PK", "z"}}, "attribute_exists(#nope)")}).status().code(),
            Code::kValidation);
  EXPECT_EQ(Write({Put("Missing", {{"PK", "z"}})}).status().code(), Code::kResourceNotFound);
  // A key of the wrong shape cancels on its action.
  auto bad_key = Write({Put("Accounts", {{"PK", "ok"}}), Delete("Accounts", {{"PK", 5}}),
                        Delete("Accounts", {{"nope", "x"}})});
  ASSERT_EQ(bad_key.status().code(), Code::kTransactionCanceled);
  EXPECT_EQ(Codes(bad_key.status()), (std::vector<std::string>{"None", "ValidationError", "None"}));
  EXPECT_FALSE(MustGet(db_, "Accounts", {{"PK", "ok"}}));

  // The 4 MB payload: 11 items of 390 KB are refused whole (10 pass), nothing written.
  std::vector<TransactWriteItem> big;
  for (int i = 0; i < 11; ++i) {
    big.push_back(Put("Accounts",
                      {{"PK", "big" + std::to_string(i)}, {"blob", std::string(390 * 1024, 'x')}}));
  }
  EXPECT_EQ(ErrorText(Write(big)),
            "Transaction request size exceeded the maximum allowed size of 4 MB");
  EXPECT_FALSE(MustGet(db_, "Accounts", {{"PK", "big0"}}));
  big.pop_back();
  EXPECT_TRUE(Write(big).ok());

  EXPECT_TRUE(ErrorText(Write({Put("Accounts", {{"PK", "t"}})}, std::string(37, 't')))
                  .ends_with("Member must have length less than or equal to 36"));
  EXPECT_TRUE(Write({Put("Accounts", {{"PK", "t"}})}, std::string(36, 't')).ok());
}

TEST_F(TransactionTest, ClientRequestTokenReplaysWithinTenMinutesOnTheClock) {
  MustPut(db_, "Accounts", {{"PK", "counter"}, {"n", 0}});
  auto increment = [&](const std::string& token) {
    return Write(
        {Update("Accounts", {{"PK", "counter"}}, "SET n = n + :one", std::nullopt, {{":one", 1}})},
        token);
  };
  auto n = [&] { return MustGet(db_, "Accounts", {{"PK", "counter"}})->at("n"); };
  ASSERT_TRUE(increment("tok-1").ok());
  EXPECT_EQ(n(), N("1"));
  clock_->Advance(599'000'000);  // 9 min 59 s later: a replay, not applied again
  ASSERT_TRUE(increment("tok-1").ok());
  EXPECT_EQ(n(), N("1"));
  // The same token with other parameters.
  auto mismatch = Write({Put("Accounts", {{"PK", "other"}})}, "tok-1");
  EXPECT_EQ(mismatch.status().code(), Code::kIdempotentParameterMismatch);
  EXPECT_FALSE(MustGet(db_, "Accounts", {{"PK", "other"}}));
  clock_->Advance(2'000'000);  // over 10 minutes after the first finished: a new transaction
  ASSERT_TRUE(increment("tok-1").ok());
  EXPECT_EQ(n(), N("2"));
  // A cancelled transaction does not keep its token.
  auto cancelled = Write({Put("Accounts", {{"PK", "c"}}, "attribute_exists(PK)")}, "tok-2");
  EXPECT_EQ(cancelled.status().code(), Code::kTransactionCanceled);
  EXPECT_TRUE(Write({Put("Accounts", {{"PK", "c"}})}, "tok-2").ok());
}

TEST_F(TransactionTest, TransactionalUnitsAreTwiceTheStandardOnes) {
  // Live DynamoDB: two small Puts report ConsumedCapacity 4.0 (reference §2.3).
  auto done = db_.TransactWriteItems(
      {.transact_items = {Put("Accounts", {{"PK", "p1"}}), Put("Accounts", {{"PK", "p2"}})},
       .return_consumed_capacity = ReturnConsumedCapacity::kTotal});
  ASSERT_TRUE(done.ok());
  ASSERT_EQ(done->consumed_capacity.size(), 1u);
  EXPECT_EQ(done->consumed_capacity[0].table_name, "Accounts");
  EXPECT_EQ(done->consumed_capacity[0].CapacityUnits(), 4.0);
  // Reads: 2 RCU per 4 KB, a missing item included.
  auto read = db_.TransactGetItems(
      {.transact_items = {{GetItemRequest{.table_name = "Accounts", .key = {{"PK", "p1"}}}},
                          {GetItemRequest{.table_name = "Accounts", .key = {{"PK", "none"}}}}},
       .return_consumed_capacity = ReturnConsumedCapacity::kTotal});
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->consumed_capacity[0].CapacityUnits(), 4.0);
  ASSERT_EQ(read->responses.size(), 2u);
  EXPECT_EQ(read->responses[0], (Item{{"PK", "p1"}}));
  EXPECT_FALSE(read->responses[1]);
}

TEST_F(TransactionTest, TransactGetItemsProjectsAndValidates) {
  MustPut(db_, "Social", {{"PK", "USER#a"}, {"SK", "PROFILE"}, {"name", "Ann"}, {"age", 30}});
  TransactGetItem get{GetItemRequest{.table_name = "Social",
                                     .key = {{"PK", "USER#a"}, {"SK", "PROFILE"}},
                                     .projection_expression = "#n",
                                     .expression_attribute_names = expr::NameMap{{"#n", "name"}}}};
  auto read = db_.TransactGetItems({.transact_items = {get}});
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->responses[0], (Item{{"name", "Ann"}}));
  EXPECT_EQ(db_.TransactGetItems({}).status().code(), Code::kValidation);
  get.get.key = {{"PK", "USER#a"}};  // no sort key
  EXPECT_EQ(Codes(db_.TransactGetItems({.transact_items = {get}}).status()),
            (std::vector<std::string>{"ValidationError"}));
}

TEST_F(TransactionTest, TransactGetItemsRefusesTheSameItemTwice) {
  // DynamoDB's text, as for TransactWriteItems (the conformance suite verified against DynamoDB).
  TransactGetItem get{
      GetItemRequest{.table_name = "Social", .key = {{"PK", "USER#a"}, {"SK", "PROFILE"}}}};
  TransactGetItem other = get;
  other.get.key = {{"PK", "USER#a"}, {"SK", "OTHER"}};
  EXPECT_TRUE(db_.TransactGetItems({.transact_items = {get, other}}).ok());
  EXPECT_EQ(ErrorText(db_.TransactGetItems({.transact_items = {get, other, get}})),
            "Transaction request cannot include multiple operations on one item");
}

TEST_F(TransactionTest, IndexesChangeWithTheTransaction) {
  ASSERT_TRUE(db_.CreateTable(ShardedTestTable("Orders")).ok());  // GSI1 on GSI1PK / GSI1SK
  MustPut(db_, "Orders", {{"PK", "ORDER#1"}, {"SK", "A"}, {"GSI1PK", "open"}, {"GSI1SK", "1"}});
  auto done = Write(
      {Update("Orders", {{"PK", "ORDER#1"}, {"SK", "A"}}, "SET GSI1PK = :s", std::nullopt,
              {{":s", "shipped"}}),
       Put("Orders", {{"PK", "ORDER#2"}, {"SK", "A"}, {"GSI1PK", "shipped"}, {"GSI1SK", "2"}}),
       Put("Orders", {{"PK", "ORDER#3"}, {"SK", "A"}, {"GSI1PK", "open"}, {"GSI1SK", "3"}})});
  ASSERT_TRUE(done.ok()) << done.status().ToString();
  auto count = [&](const std::string& status) {
    auto page = db_.Query({.table_name = "Orders",
                           .index_name = "GSI1",
                           .key_condition_expression = "GSI1PK = :s",
                           .expression_attribute_values = AttributeMap{{":s", status}},
                           .select = Select::kCount});
    EXPECT_TRUE(page.ok());
    return page.ok() ? page->count : -1;
  };
  EXPECT_EQ(count("shipped"), 2);
  EXPECT_EQ(count("open"), 1);
  auto del = Write({Delete("Orders", {{"PK", "ORDER#2"}, {"SK", "A"}})});
  ASSERT_TRUE(del.ok());
  EXPECT_EQ(count("shipped"), 1);
}

// The seeds' adjacency list: following is two edges (USER#a FOLLOWS#b and USER#b FOLLOWER#a),
// written together or not at all; a second follow is refused by its conditions.
TEST_F(TransactionTest, FollowAndUnfollowWriteBothEdgesOrNeither) {
  auto follow = [&](const std::string& a, const std::string& b) {
    return Write(
        {Put("Social", {{"PK", "USER#" + a}, {"SK", "FOLLOWS#" + b}}, "attribute_not_exists(PK)"),
         Put("Social", {{"PK", "USER#" + b}, {"SK", "FOLLOWER#" + a}}, "attribute_not_exists(PK)"),
         Update("Social", {{"PK", "USER#" + b}, {"SK", "PROFILE"}}, "ADD followers :one",
                std::nullopt, {{":one", 1}})});
  };
  auto unfollow = [&](const std::string& a, const std::string& b) {
    return Write(
        {Delete("Social", {{"PK", "USER#" + a}, {"SK", "FOLLOWS#" + b}}, "attribute_exists(PK)"),
         Delete("Social", {{"PK", "USER#" + b}, {"SK", "FOLLOWER#" + a}}, "attribute_exists(PK)"),
         Update("Social", {{"PK", "USER#" + b}, {"SK", "PROFILE"}}, "ADD followers :minus",
                std::nullopt, {{":minus", -1}})});
  };
  ASSERT_TRUE(follow("ann", "bob").ok());
  ASSERT_TRUE(follow("cat", "bob").ok());
  auto again = follow("ann", "bob");
  EXPECT_EQ(Codes(again.status()),
            (std::vector<std::string>{"ConditionalCheckFailed", "ConditionalCheckFailed", "None"}));
  EXPECT_EQ(MustGet(db_, "Social", {{"PK", "USER#bob"}, {"SK", "PROFILE"}})->at("followers"),
            N("2"));
  ASSERT_TRUE(unfollow("ann", "bob").ok());
  EXPECT_FALSE(MustGet(db_, "Social", {{"PK", "USER#ann"}, {"SK", "FOLLOWS#bob"}}));
  EXPECT_FALSE(MustGet(db_, "Social", {{"PK", "USER#bob"}, {"SK", "FOLLOWER#ann"}}));
  EXPECT_EQ(unfollow("ann", "bob").status().code(), Code::kTransactionCanceled);
  EXPECT_EQ(MustGet(db_, "Social", {{"PK", "USER#bob"}, {"SK", "PROFILE"}})->at("followers"),
            N("1"));
}

}  // namespace
}  // namespace partstore::testing
