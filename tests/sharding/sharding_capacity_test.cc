// Write sharding against the capacity simulation (manual clock): one hot logical key written at
// 5,000 WCU/s. Unsharded, its partition's 1,000 WCU/s limit serves about 1,000 writes a second;
// spread over 10 random shards on a table whose partitions can carry the load, about 5,000.
//
// Setup, written down:
//   - a provisioned table of 40,000 WCU / 40,000 RCU keyed by PK (S) + SK (S): 54 partitions
//     (ceil(40000 / 3000 + 40000 / 1000)), each able to take 1,000 WCU/s;
//   - items of about 100 bytes (1 WCU each), every write a new SK;
//   - 5 writes per simulated millisecond: one second to start, then 10 simulated seconds measured
//     (50,000 writes offered);
//   - sharded: a RANDOM policy of 10 shards on the exact key "HOT" (keys HOT#SHARD0..9);
//   - the test checks, from the partition map, that the shard keys' partitions can carry the
//     load (the sum over partitions of min(1,000, 500 x shard keys in it) is 5,000: with this
//     table the 10 keys land in 10 different partitions).
#include <gtest/gtest.h>

#include <map>

#include "shard/database_state.h"
#include "tests/capacity/capacity_testutil.h"
#include "tests/sharding/sharding_testutil.h"

namespace partstore::testing {
namespace {

constexpr int kSeconds = 10;
constexpr int kWritesPerMs = 5;

class HotKeyTest : public ::testing::Test {
 protected:
  HotKeyTest() : clock_(std::make_shared<capacity::ManualClock>()), db_(ManualCapacity(clock_)) {}

  void SetUp() override {
    KeySchema key;
    key.partition = {"PK", KeyType::kString};
    key.sort = KeyAttribute{"SK", KeyType::kString};
    CreateTableRequest request = SimpleTable("Events", key);
    request.billing_mode = BillingMode::kProvisioned;
    request.provisioned_throughput = ProvisionedThroughput{40000, 40000};
    ASSERT_TRUE(db_.CreateTable(request).ok());
  }

  // Offers 5,000 writes a second for `seconds`; returns the writes served.
  int64_t Offer(bool sharded, int seconds = kSeconds) {
    int64_t served = 0;
    int64_t throttled = 0;
    for (int ms = 0; ms < seconds * 1000; ++ms) {
      for (int i = 0; i < kWritesPerMs; ++i) {
        PutItemRequest put{.table_name = "Events",
                           .item = {{"PK", "HOT"},
                                    {"SK", "EVENT#" + std::to_string(n++)},
                                    {"payload", std::string(60, 'x')}}};
        Status status = sharded ? db_.ShardedPutItem(put).status() : db_.PutItem(put).status();
        if (status.ok()) {
          ++served;
        } else {
          EXPECT_EQ(status.code(), Code::kProvisionedThroughputExceeded) << status.ToString();
          ++throttled;
        }
      }
      EXPECT_TRUE(db_.AdvanceClock({.seconds = 0.001}).ok());
    }
    EXPECT_EQ(served + throttled, seconds * 1000 * kWritesPerMs);
    return served;
  }

  // Shard keys per partition of the table's simulated map.
  std::map<int, int> ShardKeysPerPartition(int shards) {
    std::vector<uint64_t> starts = internal::GetTable(db_, "Events").value()->PartitionStarts("");
    std::map<int, int> out;
    for (int s = 0; s < shards; ++s) {
      const uint64_t h = HashOfKey("HOT#SHARD" + std::to_string(s));
      int partition =
          static_cast<int>(std::upper_bound(starts.begin(), starts.end(), h) - starts.begin()) - 1;
      ++out[partition];
    }
    return out;
  }

  std::shared_ptr<capacity::ManualClock> clock_;
  Database db_;
  int64_t n = 0;  // items written so far (each write a new SK)
};

TEST_F(HotKeyTest, UnshardedServesOnePartitionsThousandWritesASecond) {
  // The first second also spends the partition's one second of tokens it starts with: measured
  // after it.
  Offer(/*sharded=*/false, 1);
  const int64_t served = Offer(/*sharded=*/false);
  EXPECT_NEAR(served / static_cast<double>(kSeconds), 1000, 20);
}

TEST_F(HotKeyTest, TenRandomShardsServeTheOfferedFiveThousand) {
  sharding::ShardingPolicy policy = Policy("HOT", 10, sharding::ShardStrategy::kRandom);
  MustSetPolicy(db_, "Events", policy);
  const std::map<int, int> placement = ShardKeysPerPartition(10);
  double capacity = 0;  // what the partitions holding the shard keys can serve per second
  for (const auto& [partition, keys] : placement) capacity += std::min(1000.0, 500.0 * keys);
  ASSERT_GE(capacity, 5000.0) << "the shard keys share partitions; pick another setup";
  Offer(/*sharded=*/true, 1);
  const int64_t served = Offer(/*sharded=*/true);
  // Random draws put 500 +- 22 writes a second on each shard, far below a partition's 1,000.
  EXPECT_NEAR(served / static_cast<double>(kSeconds), 5000, 50);
  // Every shard took its share of the writes.
  for (int s = 0; s < 10; ++s) {
    QueryRequest q{
        .table_name = "Events",
        .key_condition_expression = "PK = :pk",
        .expression_attribute_values = AttributeMap{{":pk", "HOT#SHARD" + std::to_string(s)}},
        .select = Select::kCount};
    auto count = db_.Query(q);
    ASSERT_TRUE(count.ok());
    EXPECT_NEAR(count->count, (served + 5000) / 10.0, served / 10.0 * 0.1) << "shard " << s;
  }
}

}  // namespace
}  // namespace partstore::testing
