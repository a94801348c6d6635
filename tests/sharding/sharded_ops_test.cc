// Sharding policies and the sharded single-item, batch and aggregate operations.
#include <gtest/gtest.h>

#include "shard/database_state.h"
#include "shard/sharding/sharding_policy.h"
#include "tests/shard/database_testutil.h"
#include "tests/sharding/sharding_testutil.h"

namespace partstore::testing {
namespace {

using sharding::KeyMatch;
using sharding::ShardStrategy;

class ShardedOpsTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(db_.CreateTable(ShardedTestTable("Social")).ok()); }

  std::optional<Item> Raw(const std::string& pk, const std::string& sk) {
    return MustGet(db_, "Social", {{"PK", pk}, {"SK", sk}});
  }
  int64_t RawCount(const std::string& pk) {
    auto page = db_.Query({.table_name = "Social",
                           .key_condition_expression = "PK = :pk",
                           .expression_attribute_values = AttributeMap{{":pk", pk}},
                           .select = Select::kCount});
    EXPECT_TRUE(page.ok());
    return page.ok() ? page->count : -1;
  }

  Database db_;
};

// ---- Policies ----

TEST_F(ShardedOpsTest, PolicyDefaultsAreFilledInAndDescribed) {
  auto set = db_.PutShardingPolicy(
      {"Social", Policy("USER#", 10, ShardStrategy::kRandom, KeyMatch::kPrefix)});
  ASSERT_TRUE(set.ok()) << set.status().ToString();
  EXPECT_EQ(set->policy.suffix_format, "#SHARD<n>");
  EXPECT_EQ(set->policy.logical_key_attribute, "LogicalPK");
  MustSetPolicy(
      db_, "Social",
      Policy("GROUP#1", 4, ShardStrategy::kCalculated, KeyMatch::kExact, std::string("GSI1")));
  auto described = db_.DescribeShardingPolicies({"Social"});
  ASSERT_TRUE(described.ok());
  ASSERT_EQ(described->policies.size(), 2u);
  EXPECT_EQ(described->policies[0].key, "USER#");
  EXPECT_EQ(described->policies[1].index_name, "GSI1");
  EXPECT_EQ(described->policies[1].logical_key_attribute, "LogicalGSI1PK");

  // Same index, key and match: replaced in place.
  MustSetPolicy(db_, "Social", Policy("USER#", 3, ShardStrategy::kRandom, KeyMatch::kPrefix));
  described = db_.DescribeShardingPolicies({"Social"});
  ASSERT_EQ(described->policies.size(), 2u);
  EXPECT_EQ(described->policies[0].shard_count, 3);

  auto removed = db_.DeleteShardingPolicy({"Social", std::nullopt, "USER#", KeyMatch::kPrefix});
  ASSERT_TRUE(removed.ok());
  EXPECT_EQ(removed->policy.shard_count, 3);
  EXPECT_EQ(db_.DescribeShardingPolicies({"Social"})->policies.size(), 1u);
  EXPECT_EQ(db_.DeleteShardingPolicy({"Social", std::nullopt, "USER#", KeyMatch::kPrefix})
                .status()
                .code(),
            Code::kResourceNotFound);
  EXPECT_EQ(db_.DescribeShardingPolicies({"Missing"}).status().code(), Code::kResourceNotFound);
  // A GSI's policy is removed by its IndexName (the name once dangled: ASan would see it).
  const std::string gsi_key = described->policies[1].key;
  auto gsi_removed = db_.DeleteShardingPolicy(
      {"Social", std::string("GSI1"), gsi_key, described->policies[1].match});
  ASSERT_TRUE(gsi_removed.ok()) << gsi_removed.status().ToString();
  EXPECT_EQ(gsi_removed->policy.index_name, "GSI1");
  EXPECT_TRUE(db_.DescribeShardingPolicies({"Social"})->policies.empty());
}

TEST_F(ShardedOpsTest, BadPoliciesAreRefusedWithAReason) {
  auto refused = [&](sharding::ShardingPolicy p) {
    return ErrorText(db_.PutShardingPolicy({"Social", std::move(p)}));
  };
  EXPECT_EQ(refused(Policy("K", 0, ShardStrategy::kRandom)),
            "ShardCount must be between 1 and 1000");
  EXPECT_EQ(refused(Policy("K", 1001, ShardStrategy::kRandom)),
            "ShardCount must be between 1 and 1000");
  EXPECT_EQ(refused(Policy("", 2, ShardStrategy::kRandom)), "Key must not be empty");
  auto p = Policy("K", 2, ShardStrategy::kRandom);
  p.suffix_format = "#SHARD";
  EXPECT_EQ(refused(p), "SuffixFormat must contain \"<n>\" exactly once");
  p.suffix_format = "<n><n>";
  EXPECT_EQ(refused(p), "SuffixFormat must contain \"<n>\" exactly once");
  p = Policy("K", 2, ShardStrategy::kRandom);
  p.calculated_from = "OrderId";
  EXPECT_EQ(refused(p), "CalculatedFrom applies to the CALCULATED strategy only");
  p = Policy("K", 2, ShardStrategy::kCalculated);
  p.calculated_from = "PK";
  EXPECT_EQ(refused(p), "CalculatedFrom cannot be the partition key it shards");
  p = Policy("K", 2, ShardStrategy::kRandom);
  p.logical_key_attribute = "GSI1SK";
  EXPECT_EQ(refused(p), "LogicalKeyAttribute must not be a key attribute: GSI1SK");
  EXPECT_EQ(refused(Policy("K", 2, ShardStrategy::kRandom, KeyMatch::kExact, std::string("Nope"))),
            "The table does not have the specified index: Nope");
  // Two key attributes cannot share one logical key attribute.
  p = Policy("K", 2, ShardStrategy::kRandom);
  p.logical_key_attribute = "Logical";
  MustSetPolicy(db_, "Social", p);
  p.index_name = "GSI1";
  EXPECT_EQ(refused(p), "LogicalKeyAttribute Logical already holds the logical value of PK");

  // Only string partition keys; calculated policies on hash-only keys need CalculatedFrom.
  KeySchema numeric;
  numeric.partition = {"id", KeyType::kNumber};
  MustCreate(db_, "Numbers", numeric);
  EXPECT_EQ(ErrorText(db_.PutShardingPolicy({"Numbers", Policy("1", 2, ShardStrategy::kRandom)})),
            "Only a string (S) partition key can be sharded; id is not");
  MustCreate(db_, "HashOnly", StringKeys(/*with_sort=*/false));
  EXPECT_EQ(
      ErrorText(db_.PutShardingPolicy({"HashOnly", Policy("K", 2, ShardStrategy::kCalculated)})),
      "A CALCULATED policy on a key schema without a sort key needs CalculatedFrom");
}

TEST(ShardingPolicy, ShardKeysRoundTripAndExactBeatsLongerPrefixBeatsShorter) {
  KeySchema schema = StringKeys();
  auto policy = [&](std::string key, KeyMatch match, std::string format = "#SHARD<n>") {
    sharding::ShardingPolicy p = Policy(std::move(key), 12, ShardStrategy::kRandom, match);
    p.suffix_format = std::move(format);
    return sharding::Policy::Make(p, schema, {"PK", "SK"}).value();
  };
  auto custom = policy("A", KeyMatch::kExact, ".<n>!");
  EXPECT_EQ(custom->ShardKey("A", 11), "A.11!");
  EXPECT_EQ(custom->ShardOf("A.11!", "A"), 11);
  EXPECT_EQ(custom->ShardOf("A.12!", "A"), -1);  // beyond ShardCount
  EXPECT_EQ(custom->ShardOf("A.011!", "A"), -1);
  EXPECT_EQ(custom->ShardOf("B.1!", "A"), -1);
  EXPECT_EQ(custom->ShardOf("A.1", "A"), -1);

  sharding::PolicySet set;
  set = set.With(policy("USER#", KeyMatch::kPrefix));
  set = set.With(policy("USER#VIP", KeyMatch::kPrefix));
  set = set.With(policy("USER#VIP1", KeyMatch::kExact));
  EXPECT_EQ(set.Find("", "USER#1")->definition().key, "USER#");
  EXPECT_EQ(set.Find("", "USER#VIP2")->definition().key, "USER#VIP");
  EXPECT_EQ(set.Find("", "USER#VIP1")->definition().key, "USER#VIP1");
  EXPECT_EQ(set.Find("", "ORG#1"), nullptr);
  EXPECT_EQ(set.Find("GSI1", "USER#1"), nullptr);
}

TEST(ShardingPolicy, RandomDrawsAreEvenAndTheSameInEveryRun) {
  auto make = [] {
    return sharding::Policy::Make(Policy("HOT", 10, ShardStrategy::kRandom), StringKeys(), {})
        .value();
  };
  auto a = make();
  auto b = make();
  std::vector<int> counts(10);
  for (int i = 0; i < 10000; ++i) {
    const int32_t shard = a->RandomShard();
    ASSERT_EQ(shard, b->RandomShard());
    ++counts[static_cast<size_t>(shard)];
  }
  for (int count : counts) EXPECT_NEAR(count, 1000, 120);
}

// ---- Writes and point reads ----

TEST_F(ShardedOpsTest, RandomPutKeepsTheLogicalKeyAndAPointReadProbesEveryShard) {
  MustSetPolicy(db_, "Social", Policy("USER#", 8, ShardStrategy::kRandom, KeyMatch::kPrefix));
  auto put = db_.ShardedPutItem(
      {.table_name = "Social", .item = {{"PK", "USER#1"}, {"SK", "PROFILE"}, {"name", "Ann"}}});
  ASSERT_TRUE(put.ok()) << put.status().ToString();
  ASSERT_TRUE(put->shards.sharded && put->shards.shard);
  const std::string physical = "USER#1#SHARD" + std::to_string(*put->shards.shard);
  std::optional<Item> raw = Raw(physical, "PROFILE");
  ASSERT_TRUE(raw);
  EXPECT_EQ(raw->at("LogicalPK"), Value("USER#1"));

  auto got = db_.ShardedGetItem({.table_name = "Social",
                                 .key = {{"PK", "USER#1"}, {"SK", "PROFILE"}},
                                 .return_consumed_capacity = ReturnConsumedCapacity::kTotal});
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->shards.shards_touched, 8);
  EXPECT_EQ(got->shards.shard, put->shards.shard);
  EXPECT_EQ(got->result.item, (Item{{"PK", "USER#1"}, {"SK", "PROFILE"}, {"name", "Ann"}}));
  EXPECT_EQ(got->result.consumed_capacity->CapacityUnits(), 8 * 0.5);  // 8 eventual reads

  // A projection applies to the presented item.
  auto projected =
      db_.ShardedGetItem({.table_name = "Social",
                          .key = {{"PK", "USER#1"}, {"SK", "PROFILE"}},
                          .projection_expression = "PK, #n",
                          .expression_attribute_names = expr::NameMap{{"#n", "name"}}});
  ASSERT_TRUE(projected.ok());
  EXPECT_EQ(projected->result.item, (Item{{"PK", "USER#1"}, {"name", "Ann"}}));

  // An item read raw and written back through the policy is not sharded twice.
  ASSERT_TRUE(db_.ShardedPutItem({.table_name = "Social", .item = *raw}).ok());
  EXPECT_EQ(RawCount(physical + "#SHARD0") + RawCount(physical + "#SHARD1"), 0);
  EXPECT_TRUE(Raw(physical, "PROFILE"));
}

TEST_F(ShardedOpsTest, CalculatedSuffixPointReadTouchesOneShard) {
  MustSetPolicy(db_, "Social", Policy("USER#", 8, ShardStrategy::kCalculated, KeyMatch::kPrefix));
  std::set<int32_t> shards;
  for (int i = 0; i < 40; ++i) {
    auto put =
        db_.ShardedPutItem({.table_name = "Social",
                            .item = {{"PK", "USER#1"}, {"SK", "FOLLOWER#" + std::to_string(i)}}});
    ASSERT_TRUE(put.ok());
    shards.insert(*put->shards.shard);
    auto got =
        db_.ShardedGetItem({.table_name = "Social",
                            .key = {{"PK", "USER#1"}, {"SK", "FOLLOWER#" + std::to_string(i)}},
                            .return_consumed_capacity = ReturnConsumedCapacity::kTotal});
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(got->shards.shards_touched, 1);
    EXPECT_EQ(got->shards.shard, put->shards.shard);
    ASSERT_TRUE(got->result.item);
    EXPECT_EQ(got->result.consumed_capacity->CapacityUnits(), 0.5);
  }
  EXPECT_GE(shards.size(), 6u);  // the sort keys spread over the shards
  auto missing = db_.ShardedGetItem(
      {.table_name = "Social", .key = {{"PK", "USER#1"}, {"SK", "FOLLOWER#999"}}});
  ASSERT_TRUE(missing.ok());
  EXPECT_FALSE(missing->result.item);
  EXPECT_EQ(missing->shards.shards_touched, 1);
}

TEST_F(ShardedOpsTest, CalculatedFromANonKeyAttributeNeedsItInTheKey) {
  auto p = Policy("DAY#2024-07-09", 20, ShardStrategy::kCalculated);
  p.calculated_from = "OrderId";
  MustSetPolicy(db_, "Social", p);
  auto put = db_.ShardedPutItem(
      {.table_name = "Social",
       .item = {{"PK", "DAY#2024-07-09"}, {"SK", "ORDER#1"}, {"OrderId", "o-1"}, {"n", 1}}});
  ASSERT_TRUE(put.ok());
  auto got = db_.ShardedGetItem(
      {.table_name = "Social",
       .key = {{"PK", "DAY#2024-07-09"}, {"SK", "ORDER#1"}, {"OrderId", "o-1"}}});
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ(got->shards.shards_touched, 1);
  ASSERT_TRUE(got->result.item);
  EXPECT_EQ(got->result.item->at("OrderId"), Value("o-1"));
  EXPECT_EQ(ErrorText(db_.ShardedGetItem(
                {.table_name = "Social", .key = {{"PK", "DAY#2024-07-09"}, {"SK", "ORDER#1"}}})),
            "The shard of DAY#2024-07-09 is calculated from OrderId, which must be given as a "
            "string, number or binary");
  EXPECT_EQ(ErrorText(db_.ShardedPutItem(
                {.table_name = "Social", .item = {{"PK", "DAY#2024-07-09"}, {"SK", "ORDER#2"}}})),
            "The shard of DAY#2024-07-09 is calculated from OrderId, which must be given as a "
            "string, number or binary");

  // An update may not move the item out of its shard; one that creates the item stores OrderId.
  UpdateItemRequest update{.table_name = "Social",
                           .key = {{"PK", "DAY#2024-07-09"}, {"SK", "ORDER#1"}, {"OrderId", "o-1"}},
                           .update_expression = "SET OrderId = :o",
                           .expression_attribute_values = AttributeMap{{":o", "o-2"}}};
  // (o-1 and o-2 must hash to different shards for the check to mean anything.)
  auto policy =
      internal::GetTable(db_, "Social").value()->sharding_policies()->Find("", "DAY#2024-07-09");
  ASSERT_NE(policy->CalculatedShard({{"OrderId", "o-1"}}).value(),
            policy->CalculatedShard({{"OrderId", "o-2"}}).value());
  EXPECT_EQ(ErrorText(db_.ShardedUpdateItem(update)),
            "The update changes OrderId, which the shard of DAY#2024-07-09 is calculated from");
  update.update_expression = "SET n = n + :one";
  update.expression_attribute_values = AttributeMap{{":one", 1}};
  update.return_values = ReturnValue::kAllNew;
  auto updated = db_.ShardedUpdateItem(update);
  ASSERT_TRUE(updated.ok()) << updated.status().ToString();
  EXPECT_EQ(updated->result.attributes->at("n"), N("2"));
  EXPECT_EQ(updated->result.attributes->at("PK"), Value("DAY#2024-07-09"));
  EXPECT_FALSE(updated->result.attributes->contains("LogicalPK"));

  UpdateItemRequest create{.table_name = "Social",
                           .key = {{"PK", "DAY#2024-07-09"}, {"SK", "ORDER#3"}, {"OrderId", "o-3"}},
                           .update_expression = "SET n = :one",
                           .expression_attribute_values = AttributeMap{{":one", 1}}};
  auto created = db_.ShardedUpdateItem(create);
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  std::optional<Item> raw =
      Raw("DAY#2024-07-09#SHARD" + std::to_string(*created->shards.shard), "ORDER#3");
  ASSERT_TRUE(raw);
  EXPECT_EQ(raw->at("OrderId"), Value("o-3"));
  EXPECT_EQ(raw->at("LogicalPK"), Value("DAY#2024-07-09"));
}

TEST_F(ShardedOpsTest, RandomUpdatesAreASumAggregateReadsBack) {
  MustSetPolicy(db_, "Social", Policy("COUNTER#likes", 10, ShardStrategy::kRandom));
  for (int i = 0; i < 200; ++i) {
    auto updated =
        db_.ShardedUpdateItem({.table_name = "Social",
                               .key = {{"PK", "COUNTER#likes"}, {"SK", "total"}},
                               .update_expression = "ADD #c :n",
                               .expression_attribute_names = expr::NameMap{{"#c", "count"}},
                               .expression_attribute_values = AttributeMap{{":n", i % 3}}});
    ASSERT_TRUE(updated.ok()) << updated.status().ToString();
    EXPECT_EQ(updated->shards.shards_touched, 1);
  }
  ShardedAggregateRequest aggregate{
      .query = {.table_name = "Social",
                .key_condition_expression = "PK = :pk",
                .expression_attribute_values = AttributeMap{{":pk", "COUNTER#likes"}},
                .return_consumed_capacity = ReturnConsumedCapacity::kTotal},
      .sum_attribute = "count"};
  auto total = db_.ShardedAggregate(aggregate);
  ASSERT_TRUE(total.ok()) << total.status().ToString();
  int expected = 0;
  for (int i = 0; i < 200; ++i) expected += i % 3;
  EXPECT_EQ(*total->sum, *Number::Parse(std::to_string(expected)));
  EXPECT_EQ(total->count, 10);  // one counter item per shard
  EXPECT_EQ(total->summed_items, 10);
  EXPECT_EQ(total->shards_queried, 10);
  EXPECT_EQ(total->shard_reads, 10);
  EXPECT_EQ(total->consumed_capacity->CapacityUnits(), 10 * 0.5);

  // A filter applies to the presented items; a non-number is counted but not summed.
  ASSERT_TRUE(
      db_.ShardedPutItem({.table_name = "Social",
                          .item = {{"PK", "COUNTER#likes"}, {"SK", "note"}, {"count", "n/a"}}})
          .ok());
  total = db_.ShardedAggregate(aggregate);
  EXPECT_EQ(total->count, 11);
  EXPECT_EQ(total->summed_items, 10);
  aggregate.query.filter_expression = "attribute_type(#c, :t)";
  aggregate.query.expression_attribute_names = expr::NameMap{{"#c", "count"}};
  aggregate.query.expression_attribute_values->emplace(":t", "S");
  total = db_.ShardedAggregate(aggregate);
  ASSERT_TRUE(total.ok()) << total.status().ToString();
  EXPECT_EQ(total->count, 1);
  EXPECT_EQ(total->scanned_count, 11);
  aggregate.query.exclusive_start_key = Item{{"PK", "COUNTER#likes#SHARD0"}, {"SK", "total"}};
  EXPECT_EQ(ErrorText(db_.ShardedAggregate(aggregate)),
            "ShardedAggregate reads every shard to its end: ExclusiveStartKey is not supported");
}

TEST_F(ShardedOpsTest, RandomDeleteRemovesTheKeyFromEveryShard) {
  MustSetPolicy(db_, "Social", Policy("USER#2", 4, ShardStrategy::kRandom));
  // Written twice: random suffixes can leave the same logical key in two shards.
  for (int shard : {1, 3}) {
    MustPut(
        db_, "Social",
        {{"PK", "USER#2#SHARD" + std::to_string(shard)}, {"SK", "F#9"}, {"LogicalPK", "USER#2"}});
  }
  DeleteItemRequest del{.table_name = "Social",
                        .key = {{"PK", "USER#2"}, {"SK", "F#9"}},
                        .return_values = ReturnValue::kAllOld,
                        .return_consumed_capacity = ReturnConsumedCapacity::kTotal};
  auto deleted = db_.ShardedDeleteItem(del);
  ASSERT_TRUE(deleted.ok()) << deleted.status().ToString();
  EXPECT_EQ(deleted->shards.shards_touched, 4);
  EXPECT_EQ(deleted->shards.shard, 1);  // the first shard it was found in
  EXPECT_EQ(deleted->result.attributes, (Item{{"PK", "USER#2"}, {"SK", "F#9"}}));
  EXPECT_EQ(deleted->result.consumed_capacity->CapacityUnits(), 4);  // 1 WCU per shard
  EXPECT_FALSE(Raw("USER#2#SHARD1", "F#9"));
  EXPECT_FALSE(Raw("USER#2#SHARD3", "F#9"));

  del.condition_expression = "attribute_exists(PK)";
  EXPECT_EQ(ErrorText(db_.ShardedDeleteItem(del)),
            "A condition cannot be checked on a random-suffix delete: the item may be in any of 4 "
            "shards");
}

TEST_F(ShardedOpsTest, CalculatedDeleteAndConditionsWorkOnTheOneShard) {
  MustSetPolicy(db_, "Social", Policy("USER#", 4, ShardStrategy::kCalculated, KeyMatch::kPrefix));
  ASSERT_TRUE(db_.ShardedPutItem(
                     {.table_name = "Social", .item = {{"PK", "USER#3"}, {"SK", "A"}, {"v", 1}}})
                  .ok());
  PutItemRequest again{.table_name = "Social",
                       .item = {{"PK", "USER#3"}, {"SK", "A"}, {"v", 2}},
                       .condition_expression = "attribute_not_exists(PK)"};
  EXPECT_EQ(db_.ShardedPutItem(again).status().code(), Code::kConditionalCheckFailed);
  DeleteItemRequest del{.table_name = "Social",
                        .key = {{"PK", "USER#3"}, {"SK", "A"}},
                        .condition_expression = "v = :one",
                        .expression_attribute_values = AttributeMap{{":one", 1}}};
  auto deleted = db_.ShardedDeleteItem(del);
  ASSERT_TRUE(deleted.ok()) << deleted.status().ToString();
  EXPECT_EQ(deleted->shards.shards_touched, 1);
  EXPECT_FALSE(db_.ShardedGetItem({.table_name = "Social", .key = {{"PK", "USER#3"}, {"SK", "A"}}})
                   ->result.item);
}

TEST_F(ShardedOpsTest, BatchWritesGoThroughThePoliciesAndExpandRandomDeletes) {
  MustSetPolicy(db_, "Social", Policy("USER#", 10, ShardStrategy::kRandom, KeyMatch::kPrefix));
  BatchWriteItemRequest batch;
  std::vector<WriteRequest> writes;
  for (int i = 0; i < 20; ++i) {
    writes.push_back(
        {WriteRequest::Kind::kPut, {{"PK", "USER#4"}, {"SK", "POST#" + std::to_string(i)}}});
  }
  batch.request_items.emplace_back("Social", writes);
  auto done = db_.ShardedBatchWriteItem(batch);
  ASSERT_TRUE(done.ok()) << done.status().ToString();
  EXPECT_EQ(done->physical_writes, 20);
  EXPECT_TRUE(done->result.unprocessed_items.empty());
  QueryRequest q{.table_name = "Social",
                 .key_condition_expression = "PK = :pk",
                 .expression_attribute_values = AttributeMap{{":pk", "USER#4"}}};
  EXPECT_EQ(db_.ShardedQuery(q)->result.count, 20);

  // Three random deletes: 30 physical deletes, in two BatchWriteItem calls.
  batch.request_items[0].second = {
      {WriteRequest::Kind::kDelete, {{"PK", "USER#4"}, {"SK", "POST#0"}}},
      {WriteRequest::Kind::kDelete, {{"PK", "USER#4"}, {"SK", "POST#1"}}},
      {WriteRequest::Kind::kDelete, {{"PK", "USER#4"}, {"SK", "POST#2"}}}};
  done = db_.ShardedBatchWriteItem(batch);
  ASSERT_TRUE(done.ok()) << done.status().ToString();
  EXPECT_EQ(done->physical_writes, 30);
  EXPECT_EQ(db_.ShardedQuery(q)->result.count, 17);

  batch.request_items[0].second.assign(26, writes[0]);
  EXPECT_EQ(ErrorText(db_.ShardedBatchWriteItem(batch)),
            "Too many items requested for the BatchWriteItem call");
}

TEST_F(ShardedOpsTest, GsiPoliciesShardTheIndexKeyOnPutsAndUpdates) {
  MustSetPolicy(
      db_, "Social",
      Policy("PRODUCT#", 4, ShardStrategy::kRandom, KeyMatch::kPrefix, std::string("GSI1")));
  for (int i = 0; i < 12; ++i) {
    ASSERT_TRUE(db_.ShardedPutItem({.table_name = "Social",
                                    .item = {{"PK", "ORDER#" + std::to_string(i)},
                                             {"SK", "LINE"},
                                             {"GSI1PK", "PRODUCT#7"},
                                             {"GSI1SK", "ORDER#" + std::to_string(i)}}})
                    .ok());
  }
  std::optional<Item> raw = Raw("ORDER#0", "LINE");  // the table key is not sharded
  ASSERT_TRUE(raw);
  EXPECT_TRUE(raw->at("GSI1PK").as_string().starts_with("PRODUCT#7#SHARD"));
  EXPECT_EQ(raw->at("LogicalGSI1PK"), Value("PRODUCT#7"));

  QueryRequest q{.table_name = "Social",
                 .index_name = "GSI1",
                 .key_condition_expression = "GSI1PK = :p",
                 .expression_attribute_values = AttributeMap{{":p", "PRODUCT#7"}}};
  auto page = db_.ShardedQuery(q);
  ASSERT_TRUE(page.ok()) << page.status().ToString();
  EXPECT_EQ(page->shards_queried, 4);
  ASSERT_EQ(page->result.count, 12);
  EXPECT_EQ(page->result.items[0].at("GSI1PK"), Value("PRODUCT#7"));
  EXPECT_EQ(page->result.items[0].at("GSI1SK"), Value("ORDER#0"));
  EXPECT_EQ(page->result.items[11].at("GSI1SK"), Value("ORDER#9"));  // string order

  // An update that leaves the GSI key alone keeps its shard; one that sets it shards it; one that
  // sets an uncovered value drops the logical attribute.
  UpdateItemRequest update{.table_name = "Social",
                           .key = {{"PK", "ORDER#0"}, {"SK", "LINE"}},
                           .update_expression = "SET qty = :q",
                           .expression_attribute_values = AttributeMap{{":q", 3}}};
  ASSERT_TRUE(db_.ShardedUpdateItem(update).ok());
  EXPECT_EQ(Raw("ORDER#0", "LINE")->at("GSI1PK"), raw->at("GSI1PK"));
  update.update_expression = "SET GSI1PK = :p";
  update.expression_attribute_values = AttributeMap{{":p", "PRODUCT#8"}};
  ASSERT_TRUE(db_.ShardedUpdateItem(update).ok());
  std::optional<Item> moved = Raw("ORDER#0", "LINE");
  EXPECT_TRUE(moved->at("GSI1PK").as_string().starts_with("PRODUCT#8#SHARD"));
  EXPECT_EQ(moved->at("LogicalGSI1PK"), Value("PRODUCT#8"));
  update.expression_attribute_values = AttributeMap{{":p", "BRAND#1"}};
  ASSERT_TRUE(db_.ShardedUpdateItem(update).ok());
  moved = Raw("ORDER#0", "LINE");
  EXPECT_EQ(moved->at("GSI1PK"), Value("BRAND#1"));
  EXPECT_FALSE(moved->contains("LogicalGSI1PK"));
  EXPECT_EQ(db_.ShardedQuery(q)->result.count, 11);
}

TEST_F(ShardedOpsTest, DeletingAGsiRemovesItsPolicies) {
  MustSetPolicy(
      db_, "Social",
      Policy("PRODUCT#", 4, ShardStrategy::kRandom, KeyMatch::kPrefix, std::string("GSI1")));
  MustSetPolicy(db_, "Social", Policy("USER#", 4, ShardStrategy::kRandom, KeyMatch::kPrefix));
  UpdateTableRequest update{.table_name = "Social"};
  GlobalSecondaryIndexUpdate remove;
  remove.remove = GlobalSecondaryIndexUpdate::Delete{"GSI1"};
  update.global_secondary_index_updates = std::vector<GlobalSecondaryIndexUpdate>{remove};
  ASSERT_TRUE(db_.UpdateTable(update).ok());
  auto described = db_.DescribeShardingPolicies({"Social"});
  ASSERT_EQ(described->policies.size(), 1u);
  EXPECT_EQ(described->policies[0].key, "USER#");
}

TEST_F(ShardedOpsTest, WithoutPoliciesTheShardedOperationsAreThePlainOnes) {
  auto put = db_.ShardedPutItem({.table_name = "Social", .item = {{"PK", "A"}, {"SK", "1"}}});
  ASSERT_TRUE(put.ok());
  EXPECT_FALSE(put->shards.sharded);
  EXPECT_TRUE(Raw("A", "1"));
  auto got = db_.ShardedGetItem({.table_name = "Social", .key = {{"PK", "A"}, {"SK", "1"}}});
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->shards.shards_touched, 1);
  EXPECT_TRUE(got->result.item);
  EXPECT_EQ(db_.ShardedPutItem({.table_name = "Missing", .item = {{"PK", "A"}}}).status().code(),
            Code::kResourceNotFound);
}

}  // namespace
}  // namespace partstore::testing

namespace partstore::testing {
namespace {

// Transactions through the policies: the seeds' follow edges on a celebrity sharded by a random
// suffix, a counter update on a random shard, a calculated-suffix condition check.
TEST(ShardedTransactions, FollowEdgesAndCountersGoThroughThePolicies) {
  Database db;
  ASSERT_TRUE(db.CreateTable(ShardedTestTable("Social")).ok());
  MustSetPolicy(db, "Social", Policy("USER#celebrity", 4, sharding::ShardStrategy::kRandom));
  MustSetPolicy(
      db, "Social",
      Policy("ORDERS#", 3, sharding::ShardStrategy::kCalculated, sharding::KeyMatch::kPrefix));
  auto follow = [&](const std::string& who, std::optional<std::string> token = std::nullopt) {
    TransactWriteItem edge, back, counter;
    edge.put = PutItemRequest{.table_name = "Social",
                              .item = {{"PK", "USER#celebrity"}, {"SK", "FOLLOWER#" + who}}};
    back.put = PutItemRequest{.table_name = "Social",
                              .item = {{"PK", "USER#" + who}, {"SK", "FOLLOWS#celebrity"}},
                              .condition_expression = "attribute_not_exists(PK)"};
    counter.update = UpdateItemRequest{.table_name = "Social",
                                       .key = {{"PK", "USER#celebrity"}, {"SK", "COUNT"}},
                                       .update_expression = "ADD n :one",
                                       .expression_attribute_values = AttributeMap{{":one", 1}}};
    return db.ShardedTransactWriteItems(
        {.transact_items = {edge, back, counter}, .client_request_token = std::move(token)});
  };
  for (const char* who : {"ann", "bob", "cat", "dan", "eve"}) {
    auto done = follow(who);
    ASSERT_TRUE(done.ok()) << done.status().ToString();
  }
  // A second follow: cancelled on the back edge, reported per logical action.
  auto again = follow("ann");
  ASSERT_EQ(again.status().code(), Code::kTransactionCanceled);
  std::vector<std::string> codes;
  for (const auto& r : again.status().detail()->cancellation_reasons) codes.push_back(r.code);
  EXPECT_EQ(codes, (std::vector<std::string>{"None", "ConditionalCheckFailed", "None"}));
  // A replayed token is the same logical request although the random shards drawn differ.
  ASSERT_TRUE(follow("fay", "tok").ok());
  ASSERT_TRUE(follow("fay", "tok").ok());

  ShardedAggregateRequest count{
      .query = {.table_name = "Social",
                .key_condition_expression = "PK = :pk AND begins_with(SK, :f)",
                .expression_attribute_values =
                    AttributeMap{{":pk", "USER#celebrity"}, {":f", "FOLLOWER#"}}}};
  EXPECT_EQ(db.ShardedAggregate(count)->count, 6);
  count.query.key_condition_expression = "PK = :pk AND SK = :c";
  count.query.expression_attribute_values =
      AttributeMap{{":pk", "USER#celebrity"}, {":c", "COUNT"}};
  count.sum_attribute = "n";
  EXPECT_EQ(*db.ShardedAggregate(count)->sum, *Number::Parse("6"));
  // The counter items carry the logical key.
  auto raw = db.Scan({.table_name = "Social"});
  int counters = 0;
  for (const Item& item : raw->items) {
    if (item.at("SK") == Value("COUNT")) {
      ++counters;
      EXPECT_EQ(item.at("LogicalPK"), Value("USER#celebrity"));
    }
  }
  EXPECT_GE(counters, 2);

  // Unfollow: a random-suffix delete becomes one delete per shard.
  TransactWriteItem unfollow;
  unfollow.del = DeleteItemRequest{.table_name = "Social",
                                   .key = {{"PK", "USER#celebrity"}, {"SK", "FOLLOWER#ann"}}};
  ASSERT_TRUE(db.ShardedTransactWriteItems({.transact_items = {unfollow}}).ok());
  count.query.key_condition_expression = "PK = :pk AND begins_with(SK, :f)";
  count.query.expression_attribute_values =
      AttributeMap{{":pk", "USER#celebrity"}, {":f", "FOLLOWER#"}};
  count.sum_attribute.reset();
  EXPECT_EQ(db.ShardedAggregate(count)->count, 5);
  unfollow.del->condition_expression = "attribute_exists(PK)";
  EXPECT_TRUE(ErrorText(db.ShardedTransactWriteItems({.transact_items = {unfollow}}))
                  .starts_with("A condition cannot be checked on a random-suffix key"));

  // A calculated suffix: a condition check goes to its one shard.
  ASSERT_TRUE(db.ShardedPutItem({.table_name = "Social",
                                 .item = {{"PK", "ORDERS#day"}, {"SK", "ORDER#1"}, {"paid", true}}})
                  .ok());
  TransactWriteItem check, ship;
  check.condition_check =
      ConditionCheckRequest{.table_name = "Social",
                            .key = {{"PK", "ORDERS#day"}, {"SK", "ORDER#1"}},
                            .condition_expression = "paid = :t",
                            .expression_attribute_values = AttributeMap{{":t", true}}};
  ship.put =
      PutItemRequest{.table_name = "Social", .item = {{"PK", "ORDERS#day"}, {"SK", "SHIPMENT#1"}}};
  auto checked = db.ShardedTransactWriteItems({.transact_items = {check, ship}});
  ASSERT_TRUE(checked.ok()) << checked.status().ToString();
  EXPECT_TRUE(db.ShardedGetItem(
                    {.table_name = "Social", .key = {{"PK", "ORDERS#day"}, {"SK", "SHIPMENT#1"}}})
                  ->result.item);
}

}  // namespace
}  // namespace partstore::testing
