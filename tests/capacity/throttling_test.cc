// Throttling as callers see it: GSI back-pressure, on-demand's 2x previous peak, batches that
// return throttled requests unprocessed, failed conditions that still consume capacity, and the
// zero-cost default (no simulation unless asked for).
#include <gtest/gtest.h>

#include "shard/database_state.h"
#include "tests/capacity/capacity_testutil.h"

namespace partstore::testing {
namespace {

// A provisioned table with GSI "ByOwner" (owner -> PK), the GSI with its own throughput.
CreateTableRequest WithIndex(int64_t table_wcu, int64_t index_wcu) {
  CreateTableRequest request = CapacityTable("Tab", 100, table_wcu);
  request.attribute_definitions.push_back({"owner", KeyType::kString});
  GlobalSecondaryIndex gsi;
  gsi.index_name = "ByOwner";
  gsi.key_schema = {{"owner", KeyRoleName::kHash}};
  gsi.projection.projection_type = ProjectionType::kKeysOnly;
  gsi.provisioned_throughput = ProvisionedThroughput{100, index_wcu};
  request.global_secondary_indexes.push_back(gsi);
  return request;
}

class ThrottlingTest : public CapacityTest {
 protected:
  Status PutOwned(const std::string& pk, std::optional<std::string> owner) {
    PutItemRequest request;
    request.table_name = "Tab";
    request.item = {{"PK", Value(pk)}};
    if (owner) request.item.emplace("owner", Value(*owner));
    return db_.PutItem(request).status();
  }
};

TEST_F(ThrottlingTest, UnderProvisionedIndexThrottlesTheBaseWrite) {
  Create(WithIndex(1000, 5));
  int64_t served = 0;
  Status throttled = Status::Ok();
  for (int i = 0; i < 20; ++i) {
    Status s = PutOwned("item" + std::to_string(i), "owner" + std::to_string(i));
    served += s.ok();
    if (!s.ok()) throttled = s;
  }
  EXPECT_EQ(served, 5);  // the index's one second of 5 WCU
  ASSERT_EQ(throttled.code(), Code::kProvisionedThroughputExceeded);
  EXPECT_EQ(ReasonNames(throttled),
            std::vector<std::string>{"IndexWriteProvisionedThroughputExceeded"});
  EXPECT_EQ(throttled.detail()->throttling_reasons[0].resource,
            "arn:aws:dynamodb:us-east-1:000000000000:table/Tab/index/ByOwner");
  EXPECT_EQ(throttled.message(),
            "The level of configured provisioned throughput for one or more global secondary "
            "indexes of the table was exceeded. Consider increasing your provisioning level for "
            "the under-provisioned global secondary indexes with the UpdateTable API");
  // Nothing of a throttled write was stored, in the table or the index.
  EXPECT_EQ(db_.Scan({.table_name = "Tab"})->count, 5);
  EXPECT_EQ(db_.Scan({.table_name = "Tab", .index_name = "ByOwner"})->count, 5);
  // Writes the index does not see (no owner) are not held back by it.
  EXPECT_TRUE(PutOwned("plain", std::nullopt).ok());
  // Sustained: the base write rate is the index's.
  Advance(1);
  const int64_t sustained = Drive(50, 20, [&](int64_t i) {
    return PutOwned("s" + std::to_string(i), "o" + std::to_string(i));
  });
  EXPECT_NEAR(sustained, 5 * 20, 6);
  // Metrics: the table counts the throttled requests, the index its own events.
  auto table = db_.GetMetrics({.table_name = "Tab", .period = 60});
  auto index = db_.GetMetrics({.table_name = "Tab", .index_name = "ByOwner", .period = 60});
  ASSERT_TRUE(table.ok() && index.ok());
  int64_t throttled_requests = 0, index_events = 0;
  for (const auto& p : table->points) throttled_requests += p.counters.throttled_write_requests;
  const int reason = ThrottleReason{ThrottleResource::kIndex, ThrottleOperation::kWrite,
                                    ThrottleLimit::kProvisionedThroughputExceeded}
                         .index();
  for (const auto& p : index->points) index_events += p.counters.throttle_events[reason];
  EXPECT_EQ(throttled_requests, 15 + (50 * 20 - sustained));
  EXPECT_EQ(index_events, throttled_requests);
}

TEST_F(ThrottlingTest, DescribePartitionsListsTheLastThrottledRequestsWithTheirKeys) {
  Create(WithIndex(1000, 5));
  for (int i = 0; i < 40; ++i) {
    (void)PutOwned("item" + std::to_string(i), "owner" + std::to_string(i));
  }
  auto index = db_.DescribePartitions({.table_name = "Tab", .index_name = "ByOwner"});
  ASSERT_TRUE(index.ok()) << index.status().ToString();
  // 35 were throttled by the index; the last 20 are kept, oldest first, with the index's key.
  ASSERT_EQ(index->recent_throttles.size(), 20u);
  EXPECT_EQ(index->recent_throttles.front().key, (Item{{"owner", Value("owner20")}}));
  EXPECT_EQ(index->recent_throttles.back().key, (Item{{"owner", Value("owner39")}}));
  for (const ThrottledRequestDescription& t : index->recent_throttles) {
    EXPECT_EQ(t.reason, "IndexWriteProvisionedThroughputExceeded");
    EXPECT_EQ(t.partition_id, index->partitions[0].partition_id);
  }
  // The table's own partitions throttled nothing.
  auto table = db_.DescribePartitions({.table_name = "Tab"});
  ASSERT_TRUE(table.ok());
  EXPECT_TRUE(table->recent_throttles.empty());
  // A read over the table's limit is listed with the table's key.
  Create(CapacityTable("Reads", 1, 1000));
  for (int i = 0; i < 10; ++i) {
    (void)db_.GetItem({.table_name = "Reads", .key = {{"PK", Value("hot")}}});
  }
  auto reads = db_.DescribePartitions({.table_name = "Reads"});
  ASSERT_TRUE(reads.ok());
  ASSERT_FALSE(reads->recent_throttles.empty());
  EXPECT_EQ(reads->recent_throttles.back().reason, "TableReadProvisionedThroughputExceeded");
  EXPECT_EQ(reads->recent_throttles.back().key, (Item{{"PK", Value("hot")}}));
}

TEST_F(ThrottlingTest, IndexGoingOnDemandKeepsItsProvisionedPeak) {
  Create(WithIndex(1000, 9999));
  UpdateTableRequest to_on_demand;
  to_on_demand.table_name = "Tab";
  to_on_demand.billing_mode = BillingMode::kPayPerRequest;
  ASSERT_TRUE(db_.UpdateTable(to_on_demand).ok());
  // The GSI's previous peak starts at half its own provisioned writes, as the table's does.
  DescribePartitionsResult index = Partitions("Tab", "ByOwner");
  EXPECT_EQ(index.billing_mode, "PAY_PER_REQUEST");
  EXPECT_DOUBLE_EQ(index.peak_write_units, 4999);
  // Its partitions (ceil(100 / 3000 + 9999 / 1000) = 11) stay: partitions never merge.
  EXPECT_EQ(index.partitions.size(), 11u);
}

TEST_F(ThrottlingTest, RaisingTheIndexThroughputReleasesTheTable) {
  Create(WithIndex(1000, 1));
  UpdateTableRequest update;
  update.table_name = "Tab";
  GlobalSecondaryIndexUpdate raise;
  raise.update = GlobalSecondaryIndexUpdate::Update{"ByOwner", ProvisionedThroughput{100, 1000}};
  update.global_secondary_index_updates = std::vector<GlobalSecondaryIndexUpdate>{raise};
  ASSERT_TRUE(db_.UpdateTable(update).ok());
  Advance(1);
  EXPECT_EQ(
      Drive(500, 5,
            [&](int64_t i) { return PutOwned("k" + std::to_string(i), "o" + std::to_string(i)); }),
      2500);
}

capacity::CapacityOptions ShortPeakDelay() {
  capacity::CapacityOptions options;
  options.on_demand_peak_delay_seconds = 60;  // 30 minutes in DynamoDB; shortened to keep it fast
  options.heat_split_seconds = 1'000'000;     // no split for heat: the peak rule alone
  return options;
}

class OnDemandTest : public CapacityTest {
 protected:
  OnDemandTest() : CapacityTest(ShortPeakDelay()) {}
};

TEST_F(ThrottlingTest, IndexQueriesSpendTheIndexReadCapacity) {
  CreateTableRequest request = WithIndex(1000, 1000);
  request.global_secondary_indexes[0].provisioned_throughput = ProvisionedThroughput{1, 1000};
  Create(request);
  ASSERT_TRUE(PutOwned("item", "alice").ok());
  QueryRequest query;
  query.table_name = "Tab";
  query.index_name = "ByOwner";
  query.key_condition_expression = "#o = :o";
  query.expression_attribute_names = expr::NameMap{{"#o", "owner"}};
  query.expression_attribute_values = Item{{":o", Value("alice")}};
  // 1 RCU: two eventually consistent 0.5-unit queries, then throttled on the index.
  EXPECT_TRUE(db_.Query(query).ok());
  EXPECT_TRUE(db_.Query(query).ok());
  Result<QueryResult> third = db_.Query(query);
  ASSERT_EQ(third.status().code(), Code::kProvisionedThroughputExceeded);
  EXPECT_EQ(ReasonNames(third.status()),
            std::vector<std::string>{"IndexReadProvisionedThroughputExceeded"});
  // The table's own reads are not held back by its index.
  GetItemRequest get;
  get.table_name = "Tab";
  get.key = {{"PK", Value("item")}};
  EXPECT_TRUE(db_.GetItem(get).ok());
}

TEST_F(OnDemandTest, AbsorbsTwiceThePreviousPeakAndThrottlesBeyond) {
  Create(CapacityTable("Tab"));  // on-demand: previous peak 2,000 WRU, so 4,000 at once
  auto uniform = [&](int64_t i) { return Put("Tab", "k" + std::to_string(i % 100000)); };
  EXPECT_GE(Drive(3600, 10, uniform), 3600 * 10 * 99 / 100);
  // 8,000 per second is beyond 2x the previous peak: the 4 partitions serve about 4,000 (after a
  // first second that spends their full buckets).
  Drive(8000, 1, uniform);
  const int64_t served = Drive(8000, 10, uniform);
  EXPECT_NEAR(served, 40000, 500);
  Status last = Status::Ok();
  for (int i = 0; i < 5000 && last.ok(); ++i) last = uniform(i);
  ASSERT_EQ(last.code(), Code::kThrottling);
  EXPECT_EQ(ReasonNames(last), std::vector<std::string>{"TableWriteKeyRangeThroughputExceeded"});
  // Sustained, the new peak (the first minute's average, about 3,900) counts once that minute is
  // a delay old: partitions for twice it appear.
  Drive(8000, 110, uniform);
  DescribePartitionsResult d = Partitions("Tab");
  EXPECT_GE(d.peak_write_units, 3800);
  EXPECT_GE(d.partitions.size(), 8u);
  EXPECT_LE(d.partitions.size(), 9u);
  EXPECT_EQ(d.splits.at(0).reason, "PEAK");
  EXPECT_GE(Drive(7200, 10, uniform), 7200 * 10 * 99 / 100);
}

TEST_F(ThrottlingTest, BatchWriteReturnsThrottledWritesUnprocessed) {
  Create(CapacityTable("Tab", 100, 10));  // one partition, 10 WCU: 10 writes now
  BatchWriteItemRequest batch;
  std::vector<WriteRequest> writes;
  for (int i = 0; i < 25; ++i) {
    writes.push_back({WriteRequest::Kind::kPut, {{"PK", Value("k" + std::to_string(i))}}});
  }
  batch.request_items.emplace_back("Tab", writes);
  auto first = db_.BatchWriteItem(batch);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  ASSERT_EQ(first->unprocessed_items.size(), 1u);
  EXPECT_EQ(first->unprocessed_items[0].second.size(), 15u);
  EXPECT_EQ(db_.Scan({.table_name = "Tab"})->count, 10);
  // Nothing left: every write throttled, so the batch fails.
  auto second = db_.BatchWriteItem(batch);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), Code::kProvisionedThroughputExceeded);
  // CloudWatch's counting: a batch is one throttled request only when all of it was throttled;
  // each throttled write is a throttle event.
  auto metrics = db_.GetMetrics({.table_name = "Tab", .period = 60});
  ASSERT_TRUE(metrics.ok());
  int64_t throttled_requests = 0, events = 0;
  for (const auto& p : metrics->points) {
    throttled_requests += p.counters.throttled_write_requests;
    for (int64_t e : p.counters.throttle_events) events += e;
  }
  EXPECT_EQ(throttled_requests, 1);
  EXPECT_EQ(events, 15 + 25);
  // A retry of the unprocessed ones after a second gets 10 more through.
  Advance(1);
  BatchWriteItemRequest retry;
  retry.request_items = first->unprocessed_items;
  auto third = db_.BatchWriteItem(retry);
  ASSERT_TRUE(third.ok());
  EXPECT_EQ(third->unprocessed_items.at(0).second.size(), 5u);
}

TEST_F(ThrottlingTest, BatchGetReturnsThrottledKeysUnprocessed) {
  Create(CapacityTable("Tab", 3, 100));  // 3 RCU: 3 strongly consistent reads now
  ASSERT_TRUE(Put("Tab", "a").ok());
  BatchGetItemRequest batch;
  KeysAndAttributes keys;
  for (int i = 0; i < 10; ++i) keys.keys.push_back({{"PK", Value("k" + std::to_string(i))}});
  keys.consistent_read = true;
  batch.request_items.emplace_back("Tab", keys);
  auto got = db_.BatchGetItem(batch);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_EQ(got->unprocessed_keys.size(), 1u);
  EXPECT_EQ(got->unprocessed_keys[0].second.keys.size(), 7u);
  EXPECT_TRUE(got->unprocessed_keys[0].second.consistent_read);
  auto again = db_.BatchGetItem(batch);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().code(), Code::kProvisionedThroughputExceeded);
  EXPECT_EQ(ReasonNames(again.status()),
            std::vector<std::string>{"TableReadProvisionedThroughputExceeded"});
}

TEST_F(ThrottlingTest, FailedConditionsConsumeCapacity) {
  Create(CapacityTable("Tab", 100, 5));
  PutItemRequest put;
  put.table_name = "Tab";
  put.item = {{"PK", Value("k")}};
  put.condition_expression = "attribute_exists(PK)";
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(db_.PutItem(put).status().code(), Code::kConditionalCheckFailed);
  }
  // The 5 WCU went on failed conditions: the next write is throttled, not checked.
  EXPECT_EQ(db_.PutItem(put).status().code(), Code::kProvisionedThroughputExceeded);
  auto metrics = db_.GetMetrics({.table_name = "Tab", .period = 1});
  ASSERT_TRUE(metrics.ok());
  ASSERT_EQ(metrics->points.size(), 1u);
  EXPECT_EQ(metrics->points[0].counters.consumed_write_half_units, 10);
  EXPECT_EQ(metrics->points[0].counters.throttled_write_requests, 1);
}

TEST_F(ThrottlingTest, QueriesAndScansAreChargedAndThrottled) {
  Create(CapacityTable("Tab", 10, 500));  // one partition
  for (int i = 0; i < 40; ++i) ASSERT_TRUE(Put("Tab", "k" + std::to_string(i), 3000).ok());
  Advance(2);
  // A strongly consistent Scan of 40 x ~3 KB = ~120 KB is 30 RCU: admitted with 10 allocated
  // + 20 saved, charged in full, leaving nothing for the next reads.
  auto scan = db_.Scan({.table_name = "Tab", .consistent_read = true});
  ASSERT_TRUE(scan.ok()) << scan.status().ToString();
  auto next = db_.Scan({.table_name = "Tab", .consistent_read = true});
  EXPECT_EQ(next.status().code(), Code::kProvisionedThroughputExceeded);
  QueryRequest query;
  query.table_name = "Tab";
  query.key_condition_expression = "PK = :k";
  query.expression_attribute_values = Item{{":k", Value("k1")}};
  EXPECT_EQ(db_.Query(query).status().code(), Code::kProvisionedThroughputExceeded);
  Advance(5);
  EXPECT_TRUE(db_.Query(query).ok());
  EXPECT_TRUE(Get("Tab", "k2").ok());  // CloudWatch's ReturnedItemCount counts Query and Scan only
  auto metrics = db_.GetMetrics({.table_name = "Tab", .period = 60});
  int64_t returned = 0;
  for (const auto& p : metrics->points) returned += p.counters.returned_item_count;
  EXPECT_EQ(returned, 41);
}

TEST(CapacityOffTest, TablesHaveNoSimulationAndTheExtensionsSaySo) {
  Database db;
  ASSERT_TRUE(db.CreateTable(CapacityTable("Tab", 1, 1)).ok());
  EXPECT_EQ((*internal::GetTable(db, "Tab"))->capacity(), nullptr);
  // 1 WCU, yet nothing is throttled.
  for (int i = 0; i < 100; ++i) {
    PutItemRequest put;
    put.table_name = "Tab";
    put.item = {{"PK", Value("k")}};
    ASSERT_TRUE(db.PutItem(put).ok());
  }
  auto partitions = db.DescribePartitions({"Tab", std::nullopt});
  ASSERT_FALSE(partitions.ok());
  EXPECT_EQ(partitions.status().code(), Code::kValidation);
  EXPECT_EQ(db.AdvanceClock({1}).status().code(), Code::kValidation);
}

TEST(HugeThroughputTest, IsSimulatedAtTheCeilingAndScansStayBounded) {
  // Capacity off: a Scan's per-partition minimum must not walk billions of partitions.
  Database off;
  ASSERT_TRUE(off.CreateTable(CapacityTable("Tab", 6'442'450'944'000, 1)).ok());
  auto scan =
      off.Scan({.table_name = "Tab", .return_consumed_capacity = ReturnConsumedCapacity::kTotal});
  ASSERT_TRUE(scan.ok());
  EXPECT_EQ(scan->consumed_capacity->CapacityUnits(), 4096 * 0.5);
  // Capacity on: INT64_MAX units are simulated as the ceiling, not an overflowed negative rate.
  auto clock = std::make_shared<capacity::ManualClock>();
  Database on(ManualCapacity(clock));
  ASSERT_TRUE(on.CreateTable(CapacityTable("Tab", INT64_MAX, INT64_MAX)).ok());
  for (int i = 0; i < 100; ++i) {
    PutItemRequest put;
    put.table_name = "Tab";
    put.item = {{"PK", Value("k" + std::to_string(i))}};
    ASSERT_TRUE(on.PutItem(put).ok());
  }
  auto partitions = on.DescribePartitions({"Tab", std::nullopt});
  ASSERT_TRUE(partitions.ok());
  EXPECT_EQ(partitions->partitions.size(), capacity::kCells);
  EXPECT_DOUBLE_EQ(partitions->partitions[0].max_write_units, 1000);
}

TEST_F(ThrottlingTest, ExtensionsValidateTheirInput) {
  Create(CapacityTable("Tab"));
  EXPECT_EQ(db_.AdvanceClock({-1}).status().code(), Code::kValidation);
  EXPECT_EQ(db_.GetMetrics({.table_name = "Tab", .period = 5}).status().code(), Code::kValidation);
  EXPECT_EQ(db_.GetContributorInsights({.table_name = "Tab", .top_n = 0}).status().code(),
            Code::kValidation);
  EXPECT_EQ(db_.DescribePartitions({"Nope", std::nullopt}).status().code(),
            Code::kResourceNotFound);
  EXPECT_EQ(db_.DescribePartitions({"Tab", "NoIndex"}).status().code(), Code::kResourceNotFound);
  auto advanced = db_.AdvanceClock({1.5});
  ASSERT_TRUE(advanced.ok());
  EXPECT_DOUBLE_EQ(advanced->now_seconds, 1.5);
  // The clock never wraps around: steps that would overflow it are refused.
  EXPECT_TRUE(db_.AdvanceClock({4e12}).ok());
  EXPECT_EQ(db_.AdvanceClock({4e12}).status().code(), Code::kValidation);
  EXPECT_GT(NowMicros(), 0);
}

}  // namespace
}  // namespace partstore::testing
