// BatchGetItem and BatchWriteItem: limits, duplicates, all-or-nothing validation, capacity.
#include <gtest/gtest.h>

#include "tests/shard/database_testutil.h"

namespace partstore {
namespace {

using testing::ErrorText;
using testing::MustGet;
using testing::MustPut;

class BatchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::MustCreate(db_, "TableA", testing::StringKeys());
    testing::MustCreate(db_, "TableB", testing::StringKeys(false));
  }
  Database db_;
};

WriteRequest Put(Item item) { return {WriteRequest::Kind::kPut, std::move(item)}; }
WriteRequest Delete(Item key) { return {WriteRequest::Kind::kDelete, std::move(key)}; }

TEST_F(BatchTest, WritesAndReadsAcrossTables) {
  MustPut(db_, "TableA", {{"PK", "old"}, {"SK", "1"}});
  BatchWriteItemRequest write;
  write.request_items = {{"TableA",
                          {Put({{"PK", "a"}, {"SK", "1"}, {"v", std::string(1500, 'x')}}),
                           Put({{"PK", "a"}, {"SK", "2"}}), Delete({{"PK", "old"}, {"SK", "1"}})}},
                         {"TableB", {Put({{"PK", "a"}}), Delete({{"PK", "missing"}})}}};
  write.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  auto written = db_.BatchWriteItem(write);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  EXPECT_TRUE(written->unprocessed_items.empty());
  ASSERT_EQ(written->consumed_capacity.size(), 2u);
  EXPECT_EQ(written->consumed_capacity[0].table_name, "TableA");
  EXPECT_EQ(written->consumed_capacity[0].CapacityUnits(), 2.0 + 1.0 + 1.0);
  EXPECT_EQ(written->consumed_capacity[1].CapacityUnits(), 2.0);
  EXPECT_EQ(MustGet(db_, "TableA", {{"PK", "old"}, {"SK", "1"}}), std::nullopt);

  BatchGetItemRequest get;
  KeysAndAttributes a;
  a.keys = {{{"PK", "a"}, {"SK", "1"}}, {{"PK", "a"}, {"SK", "2"}}, {{"PK", "a"}, {"SK", "3"}}};
  a.projection_expression = "SK";
  KeysAndAttributes b;
  b.keys = {{{"PK", "a"}}};
  b.consistent_read = true;
  get.request_items = {{"TableA", a}, {"TableB", b}};
  get.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  auto read = db_.BatchGetItem(get);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  ASSERT_EQ(read->responses.size(), 2u);
  EXPECT_EQ(read->responses[0].second.size(), 2u);
  EXPECT_EQ(read->responses[0].second[0], (Item{{"SK", "1"}}));
  EXPECT_EQ(read->responses[1].second.size(), 1u);
  EXPECT_TRUE(read->unprocessed_keys.empty());
  ASSERT_EQ(read->consumed_capacity.size(), 2u);
  EXPECT_EQ(read->consumed_capacity[0].CapacityUnits(), 1.5);  // 3 eventual reads, one a miss
  EXPECT_EQ(read->consumed_capacity[1].CapacityUnits(), 1.0);
}

TEST_F(BatchTest, OneInvalidRequestRejectsTheBatch) {
  BatchWriteItemRequest write;
  write.request_items = {{"TableA", {Put({{"PK", "x"}, {"SK", "1"}}), Put({{"PK", "x"}})}}};
  EXPECT_EQ(ErrorText(db_.BatchWriteItem(write)),
            "One or more parameter values were invalid: Missing the key SK in the item");
  write.request_items = {
      {"TableA", {Put({{"PK", "x"}, {"SK", "1"}}), Put({{"PK", "x"}, {"SK", 1}})}}};
  EXPECT_EQ(ErrorText(db_.BatchWriteItem(write)),
            "The provided key element does not match the schema");
  write.request_items = {
      {"TableA", {Put({{"PK", "x"}, {"SK", "1"}}), Delete({{"PK", "x"}, {"SK", "1"}})}}};
  EXPECT_EQ(ErrorText(db_.BatchWriteItem(write)), "Provided list of item keys contains duplicates");
  write.request_items = {{"TableA", {Put({{"PK", "x"}, {"SK", "1"}})}},
                         {"Nope", {Put({{"PK", "x"}})}}};
  EXPECT_EQ(ErrorText(db_.BatchWriteItem(write)), "Requested resource not found");
  EXPECT_EQ(MustGet(db_, "TableA", {{"PK", "x"}, {"SK", "1"}}), std::nullopt) << "nothing written";

  write.request_items.clear();
  EXPECT_EQ(ErrorText(db_.BatchWriteItem(write)),
            "The requestItems parameter is required for BatchWriteItem");
  std::vector<WriteRequest> many;
  for (int i = 0; i < 26; ++i) many.push_back(Put({{"PK", std::to_string(i)}}));
  write.request_items = {{"TableB", many}};
  EXPECT_TRUE(ErrorText(db_.BatchWriteItem(write))
                  .find("Member must have length less than or equal to 25") != std::string::npos);
  many.pop_back();
  write.request_items = {{"TableB", many}};
  EXPECT_TRUE(db_.BatchWriteItem(write).ok());
  EXPECT_EQ(db_.DescribeTable({"TableB"})->table.item_count, 25);
}

TEST_F(BatchTest, BatchGetLimits) {
  BatchGetItemRequest get;
  EXPECT_EQ(ErrorText(db_.BatchGetItem(get)),
            "The requestItems parameter is required for BatchGetItem");
  KeysAndAttributes keys;
  for (int i = 0; i < 60; ++i) keys.keys.push_back({{"PK", std::to_string(i)}});
  KeysAndAttributes more = keys;
  for (auto& key : more.keys) key["SK"] = "s";
  get.request_items = {{"TableB", keys}, {"TableA", more}};
  EXPECT_EQ(ErrorText(db_.BatchGetItem(get)), "Too many items requested for the BatchGetItem call");
  // 101 for one table: the list's own constraint, as DynamoDB words it today.
  KeysAndAttributes over;
  for (int i = 0; i < 101; ++i) over.keys.push_back({{"PK", std::to_string(i)}});
  get.request_items = {{"TableB", over}};
  EXPECT_EQ(ErrorText(db_.BatchGetItem(get)),
            "1 validation error detected: Value at 'RequestItems.TableB.member.Keys' failed to "
            "satisfy constraint: Member must have length less than or equal to 100");
  keys.keys.push_back({{"PK", "0"}});
  get.request_items = {{"TableB", keys}};
  EXPECT_EQ(ErrorText(db_.BatchGetItem(get)), "Provided list of item keys contains duplicates");
  get.request_items = {{"Nope", keys}};
  EXPECT_EQ(ErrorText(db_.BatchGetItem(get)), "Requested resource not found");
}

TEST_F(BatchTest, BatchGetStopsAtSixteenMegabytes) {
  // 60 items of ~390 KB = ~23 MB: the response stops after 16 MB and the rest are unprocessed.
  const std::string blob(390 * 1024, 'x');
  KeysAndAttributes keys;
  for (int i = 0; i < 60; ++i) {
    MustPut(db_, "TableB", {{"PK", std::to_string(i)}, {"blob", blob}});
    keys.keys.push_back({{"PK", std::to_string(i)}});
  }
  keys.consistent_read = true;
  BatchGetItemRequest get;
  get.request_items = {{"TableB", keys}};
  auto read = db_.BatchGetItem(get);
  ASSERT_TRUE(read.ok());
  const size_t returned = read->responses[0].second.size();
  ASSERT_EQ(read->unprocessed_keys.size(), 1u);
  EXPECT_EQ(returned + read->unprocessed_keys[0].second.keys.size(), 60u);
  EXPECT_EQ(returned, 43u);  // the item that reaches 16 MB is the last one returned
  EXPECT_TRUE(read->unprocessed_keys[0].second.consistent_read);
}

}  // namespace
}  // namespace partstore
