// Database::ImportItem: data loaded as DynamoDB's ImportTable loads it — stored, indexed and
// counted in its partitions, but no capacity consumed and nothing throttled.
#include <gtest/gtest.h>

#include "tests/capacity/capacity_testutil.h"

namespace partstore::testing {
namespace {

class ImportItemTest : public CapacityTest {};

TEST_F(ImportItemTest, StoresWithoutConsumingOrThrottling) {
  CreateTableRequest table = CapacityTable("Imported", 1, 1);
  table.attribute_definitions.push_back({"G", KeyType::kString});
  GlobalSecondaryIndex gsi;
  gsi.index_name = "ByG";
  gsi.key_schema = {{"G", KeyRoleName::kHash}};
  gsi.projection.projection_type = ProjectionType::kAll;
  gsi.provisioned_throughput = ProvisionedThroughput{1, 1};
  table.global_secondary_indexes.push_back(gsi);
  Create(table);
  // 1 WCU a second could not take 500 writes of 2 KB at one instant; an import does.
  for (int i = 0; i < 500; ++i) {
    ASSERT_TRUE(db_.ImportItem("Imported", {{"PK", Value("K" + std::to_string(i))},
                                            {"G", Value("G" + std::to_string(i % 7))},
                                            {"v", Value(std::string(2000, 'x'))}})
                    .ok());
  }
  auto partitions = db_.DescribePartitions({"Imported", std::nullopt});
  ASSERT_TRUE(partitions.ok());
  int64_t items = 0;
  double consumed = 0;
  for (const PartitionDescription& p : partitions->partitions) {
    items += p.item_count;
    consumed += p.consumed_write_units;
    EXPECT_EQ(p.throttled_write_requests, 0);
  }
  EXPECT_EQ(items, 500);
  EXPECT_EQ(consumed, 0);
  auto index = db_.DescribePartitions({"Imported", std::string("ByG")});
  ASSERT_TRUE(index.ok());
  items = 0;
  for (const PartitionDescription& p : index->partitions) items += p.item_count;
  EXPECT_EQ(items, 500);
  auto metrics = db_.GetMetrics({.table_name = "Imported", .period = 1});
  ASSERT_TRUE(metrics.ok());
  EXPECT_TRUE(metrics->points.empty()) << "an import records no requests";
  // The items are there, and the index has them.
  EXPECT_TRUE(Get("Imported", "K499").ok());
  QueryRequest query;
  query.table_name = "Imported";
  query.index_name = "ByG";
  query.key_condition_expression = "G = :g";
  query.expression_attribute_values = AttributeMap{{":g", Value("G3")}};
  auto found = db_.Query(query);
  ASSERT_TRUE(found.ok()) << found.status().ToString();
  EXPECT_EQ(found->count, 71);  // i % 7 == 3 for 71 of 0..499: 3, 10, ..., 493
  // Ordinary writes are metered as before: the bucket holds one second of 1 WCU.
  EXPECT_TRUE(Put("Imported", "K1").ok());
  EXPECT_EQ(Put("Imported", "K2").code(), Code::kProvisionedThroughputExceeded);
}

TEST_F(ImportItemTest, GoesThroughShardingPoliciesAndChecksItems) {
  Create(CapacityTable("Sharded"));
  sharding::ShardingPolicy policy;
  policy.key = "HOT";
  policy.shard_count = 4;
  policy.strategy = sharding::ShardStrategy::kCalculated;
  policy.calculated_from = "n";
  ASSERT_TRUE(db_.PutShardingPolicy({.table_name = "Sharded", .policy = policy}).ok());
  ASSERT_TRUE(db_.ImportItem("Sharded", {{"PK", Value("HOT")}, {"n", Value("a")}}).ok());
  auto got = db_.ShardedGetItem(
      {.table_name = "Sharded", .key = {{"PK", Value("HOT")}, {"n", Value("a")}}});
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_TRUE(got->result.item.has_value());
  EXPECT_TRUE(got->shards.sharded);
  EXPECT_EQ(db_.ImportItem("Sharded", {{"nokey", Value("x")}}).code(), Code::kValidation);
  EXPECT_EQ(db_.ImportItem("Missing", {{"PK", Value("x")}}).code(), Code::kResourceNotFound);
}

}  // namespace
}  // namespace partstore::testing
