// Time to Live through the C++ API (partstore/time_to_live.h): DynamoDB's state rules and
// messages (docs/reference.md, Time to Live), and the sweeper on the manual clock: exact expiry
// instants, GSI entries and counts removed, no capacity consumed, what never expires, an item moved
// into the future survives, the delay keeps expired items visible; the background sweeper on the
// system clock.
#include <gtest/gtest.h>

#include <chrono>
#include <ctime>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "partstore/database.h"
#include "shard/database_state.h"
#include "tests/shard/database_testutil.h"

namespace partstore::testing {
namespace {

constexpr int64_t kTtlEpoch = 1'800'000'000;  // Unix seconds at the manual clock's zero

class TimeToLiveTest : public ::testing::Test {
 protected:
  explicit TimeToLiveTest(double expiry_delay = 0)
      : clock_(MakeClock()), db_(Options(expiry_delay)) {
    CreateTableRequest table = SimpleTable("Sessions", StringKeys(/*with_sort=*/false));
    table.attribute_definitions.push_back({"G", KeyType::kString});
    GlobalSecondaryIndex gsi;
    gsi.index_name = "ByG";
    gsi.key_schema = {{"G", KeyRoleName::kHash}};
    gsi.projection.projection_type = ProjectionType::kAll;
    table.global_secondary_indexes.push_back(gsi);
    auto created = db_.CreateTable(table);
    EXPECT_TRUE(created.ok()) << created.status().ToString();
  }

  std::shared_ptr<capacity::ManualClock> MakeClock() {
    return std::make_shared<capacity::ManualClock>();
  }
  DatabaseOptions Options(double expiry_delay) {
    DatabaseOptions options;
    options.capacity.enabled = true;  // AdvanceClock needs the simulation on
    options.capacity.clock = clock_;
    options.time_to_live.epoch_at_clock_zero = kTtlEpoch;
    options.time_to_live.expiry_delay_seconds = expiry_delay;
    // DynamoDB's behaviour (cache mode: tests/shard/cache_expiry_test.cc).
    options.time_to_live.expiry_mode = ExpiryMode::kDynamoDb;
    return options;
  }

  Status Update(const std::string& attribute, bool enabled, const std::string& table = "Sessions") {
    return db_.UpdateTimeToLive({table, {attribute, enabled}}).status();
  }
  TimeToLiveDescription Describe() {
    auto described = db_.DescribeTimeToLive({"Sessions"});
    EXPECT_TRUE(described.ok()) << described.status().ToString();
    return described.ok() ? described->time_to_live_description : TimeToLiveDescription{};
  }
  void Advance(double seconds) {
    auto advanced = db_.AdvanceClock({seconds});
    ASSERT_TRUE(advanced.ok()) << advanced.status().ToString();
  }
  void Put(const std::string& pk, std::optional<Value> expiry, const std::string& g = "g") {
    Item item{{"PK", Value(pk)}, {"G", Value(g)}};
    if (expiry) item["exp"] = *expiry;
    MustPut(db_, "Sessions", std::move(item));
  }
  bool Exists(const std::string& pk) {
    auto got = db_.GetItem({.table_name = "Sessions", .key = {{"PK", Value(pk)}}});
    EXPECT_TRUE(got.ok()) << got.status().ToString();
    return got.ok() && got->item.has_value();
  }
  int64_t IndexCount() {
    QueryRequest query;
    query.table_name = "Sessions";
    query.index_name = "ByG";
    query.key_condition_expression = "G = :g";
    query.expression_attribute_values = AttributeMap{{":g", Value("g")}};
    auto found = db_.Query(query);
    EXPECT_TRUE(found.ok()) << found.status().ToString();
    return found.ok() ? found->count : -1;
  }
  int64_t ItemCount() {
    auto described = db_.DescribeTable({"Sessions"});
    return described.ok() ? described->table.item_count : -1;
  }
  uint64_t Expired() { return internal::GetTable(db_, "Sessions").value()->expired_items(); }
  static Value Epoch(double offset) {
    return Value(Number::Parse(std::to_string(static_cast<double>(kTtlEpoch) + offset)).value());
  }

  std::shared_ptr<capacity::ManualClock> clock_;
  Database db_;
};

TEST_F(TimeToLiveTest, StateRulesAndMessagesAsDynamoDb) {
  EXPECT_EQ(Describe().time_to_live_status, TimeToLiveStatus::kDisabled);
  EXPECT_FALSE(Describe().attribute_name);
  // Disabling what was never enabled.
  EXPECT_EQ(Update("exp", false).message(), "TimeToLive is already disabled");

  auto enabled = db_.UpdateTimeToLive({"Sessions", {"exp", true}});
  ASSERT_TRUE(enabled.ok()) << enabled.status().ToString();
  EXPECT_EQ(enabled->time_to_live_specification.attribute_name, "exp");
  EXPECT_TRUE(enabled->time_to_live_specification.enabled);
  EXPECT_EQ(Describe().time_to_live_status, TimeToLiveStatus::kEnabled);
  EXPECT_EQ(Describe().attribute_name, "exp");

  // The state rules come before the change limit.
  Status again = Update("exp", true);
  EXPECT_EQ(again.code(), Code::kValidation);
  EXPECT_EQ(again.message(), "TimeToLive is already enabled");
  EXPECT_EQ(Update("other", true).message(),
            "TimeToLive is active on a different AttributeName: current AttributeName is exp");
  EXPECT_EQ(Update("other", false).message(),
            "TimeToLive is active on a different AttributeName: current AttributeName is exp");
  // Within the hour of the last change.
  EXPECT_EQ(Update("exp", false).message(),
            "Time to live has been modified multiple times within a fixed interval");
  Advance(3599);
  EXPECT_EQ(Update("exp", false).message(),
            "Time to live has been modified multiple times within a fixed interval");
  Advance(1);
  auto disabled = db_.UpdateTimeToLive({"Sessions", {"exp", false}});
  ASSERT_TRUE(disabled.ok()) << disabled.status().ToString();
  EXPECT_FALSE(disabled->time_to_live_specification.enabled);
  EXPECT_EQ(Describe().time_to_live_status, TimeToLiveStatus::kDisabled);
  EXPECT_FALSE(Describe().attribute_name);
  EXPECT_EQ(Update("exp", false).message(), "TimeToLive is already disabled");
}

TEST_F(TimeToLiveTest, RequestChecks) {
  Status empty = Update("", true);
  EXPECT_EQ(empty.code(), Code::kValidation);
  EXPECT_EQ(empty.message(),
            "1 validation error detected: Value '' at 'timeToLiveSpecification.attributeName' "
            "failed to satisfy constraint: Member must have length greater than or equal to 1");
  Status long_name = Update(std::string(256, 'a'), true);
  EXPECT_NE(long_name.message().find("Member must have length less than or equal to 255"),
            std::string::npos)
      << long_name.message();
  EXPECT_TRUE(Update(std::string(255, 'a'), true).ok());

  Status missing = Update("exp", true, "Nope");
  EXPECT_EQ(missing.code(), Code::kResourceNotFound);
  EXPECT_EQ(missing.message(), "Requested resource not found: Table: Nope not found");
  EXPECT_EQ(Update("exp", true, "ab").code(), Code::kValidation);
  auto described = db_.DescribeTimeToLive({"Nope"});
  EXPECT_EQ(described.status().code(), Code::kResourceNotFound);
}

TEST_F(TimeToLiveTest, ChangeLimitCanBeTurnedOff) {
  DatabaseOptions options;
  options.time_to_live.change_interval_seconds = 0;
  Database db(options);
  ASSERT_TRUE(db.CreateTable(SimpleTable("Tbl", StringKeys(false))).ok());
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(db.UpdateTimeToLive({"Tbl", {"exp", true}}).ok());
    ASSERT_TRUE(db.UpdateTimeToLive({"Tbl", {"exp", false}}).ok());
  }
}

TEST_F(TimeToLiveTest, ItemsExpireAtTheirInstantOnTheManualClock) {
  ASSERT_TRUE(Update("exp", true).ok());
  Put("a", Epoch(10));
  Put("b", Epoch(20.5));                                     // fractional seconds count
  Put("string", Value(std::to_string(kTtlEpoch)));              // not a Number: never expires
  Put("none", std::nullopt);                                 // no attribute: never
  Put("old", Epoch(-6 * 365.25 * 86400));                    // more than five years ago: never
  Put("set", Value(NumberSet{Number::Parse("1").value()}));  // not a top-level N: never
  Put("moved", Epoch(30));
  const int64_t before = ItemCount();
  ASSERT_EQ(before, 7);
  ASSERT_EQ(IndexCount(), 7);

  Advance(10);  // now == a's expiry: not yet before now
  EXPECT_TRUE(Exists("a"));
  Advance(0.001);
  EXPECT_FALSE(Exists("a"));
  EXPECT_EQ(ItemCount(), 6);
  EXPECT_EQ(IndexCount(), 6) << "the GSI entry leaves with the item";
  EXPECT_EQ(Expired(), 1u);

  Advance(10.4);  // 20.401: b (20.5) stays
  EXPECT_TRUE(Exists("b"));
  // An item moved into the future before its sweep survives it.
  UpdateItemRequest move;
  move.table_name = "Sessions";
  move.key = {{"PK", Value("moved")}};
  move.update_expression = "SET #e = :later";
  move.expression_attribute_names = expr::NameMap{{"#e", "exp"}};
  move.expression_attribute_values = AttributeMap{{":later", Epoch(1000)}};
  ASSERT_TRUE(db_.UpdateItem(move).ok());
  Advance(10);  // 30.401
  EXPECT_FALSE(Exists("b"));
  EXPECT_TRUE(Exists("moved"));
  for (const char* kept : {"string", "none", "old", "set"}) EXPECT_TRUE(Exists(kept)) << kept;
  EXPECT_EQ(Expired(), 2u);
  EXPECT_EQ(db_.DeleteExpiredItems(), 0);
  Advance(1000);
  EXPECT_FALSE(Exists("moved"));
  EXPECT_EQ(ItemCount(), 4);
}

TEST_F(TimeToLiveTest, DeletionsConsumeNoCapacity) {
  ASSERT_TRUE(Update("exp", true).ok());
  for (int i = 0; i < 50; ++i) Put("k" + std::to_string(i), Epoch(5));
  auto consumed = [&] {
    double units = 0;
    for (const auto& index : {std::optional<std::string>(), std::optional<std::string>("ByG")}) {
      auto partitions = db_.DescribePartitions({"Sessions", index});
      EXPECT_TRUE(partitions.ok()) << partitions.status().ToString();
      for (const PartitionDescription& p : partitions->partitions) {
        units += p.consumed_write_units;
      }
    }
    return units;
  };
  const double before = consumed();
  Advance(6);
  EXPECT_EQ(ItemCount(), 0);
  EXPECT_EQ(Expired(), 50u);
  EXPECT_EQ(consumed(), before) << "TTL deletes are not metered";
}

// The sweeper's delete of an item changed since it was read fails its condition: unmetered, that
// consumes nothing either (a metered one does, as DynamoDB charges a failed condition).
TEST_F(TimeToLiveTest, AnUnmeteredDeleteWhoseConditionFailsConsumesNothing) {
  Put("x", Epoch(5));
  std::shared_ptr<Table> table = internal::GetTable(db_, "Sessions").value();
  DeleteItemRequest request;
  request.table_name = "Sessions";
  request.key = {{"PK", Value("x")}};
  request.condition_expression = "#t = :t";
  request.expression_attribute_names = expr::NameMap{{"#t", "exp"}};
  request.expression_attribute_values = AttributeMap{{":t", Epoch(6)}};  // not the stored value
  auto consumed = [&] {
    double units = 0;
    // The result is kept: a range-for over a member of a temporary would outlive it.
    auto partitions = db_.DescribePartitions({"Sessions", {}});
    for (const PartitionDescription& p : partitions->partitions) units += p.consumed_write_units;
    return units;
  };
  Result<PreparedCondition> prepared = PrepareDelete(request, "Sessions", nullptr);
  ASSERT_TRUE(prepared.ok());
  const double before = consumed();
  EXPECT_EQ(table->DeleteItem(request, *prepared, {.unmetered = true}).status().code(),
            Code::kConditionalCheckFailed);
  EXPECT_EQ(consumed(), before);
  EXPECT_EQ(table->DeleteItem(request, *prepared).status().code(), Code::kConditionalCheckFailed);
  EXPECT_GT(consumed(), before) << "a metered failed condition is charged";
  EXPECT_TRUE(Exists("x"));
}

TEST_F(TimeToLiveTest, DisabledTablesKeepTheirItems) {
  Put("a", Epoch(1));
  Advance(2);
  EXPECT_TRUE(Exists("a"));
  ASSERT_TRUE(Update("exp", true).ok());  // items written before TTL was on count too
  EXPECT_EQ(db_.DeleteExpiredItems(), 1);
  EXPECT_FALSE(Exists("a"));
}

class TimeToLiveDelayTest : public TimeToLiveTest {
 protected:
  TimeToLiveDelayTest() : TimeToLiveTest(/*expiry_delay=*/60) {}
};

TEST_F(TimeToLiveDelayTest, ExpiredItemsStayVisibleUntilTheSweep) {
  ASSERT_TRUE(Update("exp", true).ok());
  Put("a", Epoch(10));
  Advance(15);
  // Expired, and still returned, as on DynamoDB: readers filter on the attribute.
  EXPECT_TRUE(Exists("a"));
  ScanRequest scan;
  scan.table_name = "Sessions";
  scan.filter_expression = "#e > :now";
  scan.expression_attribute_names = expr::NameMap{{"#e", "exp"}};
  scan.expression_attribute_values = AttributeMap{{":now", Epoch(15)}};
  auto live = db_.Scan(scan);
  ASSERT_TRUE(live.ok());
  EXPECT_EQ(live->count, 0);
  Advance(54);  // 69: 59 s after expiry
  EXPECT_TRUE(Exists("a"));
  Advance(2);
  EXPECT_FALSE(Exists("a"));
}

TEST(TimeToLiveSystemClockTest, TheBackgroundSweeperDeletes) {
  DatabaseOptions options;
  options.time_to_live.sweep_interval_seconds = 0.02;
  Database db(options);
  ASSERT_TRUE(db.CreateTable(SimpleTable("Tbl", StringKeys(false))).ok());
  ASSERT_TRUE(db.UpdateTimeToLive({"Tbl", {"exp", true}}).ok());
  const auto now = static_cast<int64_t>(time(nullptr));
  MustPut(db, "Tbl", {{"PK", Value("gone")}, {"exp", Value(now - 1)}});
  MustPut(db, "Tbl", {{"PK", Value("kept")}, {"exp", Value(now + 3600)}});
  bool deleted = false;
  for (int i = 0; i < 500 && !deleted; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    auto got = db.GetItem({.table_name = "Tbl", .key = {{"PK", Value("gone")}}});
    ASSERT_TRUE(got.ok());
    deleted = !got->item.has_value();
  }
  EXPECT_TRUE(deleted) << "the sweeper did not delete an expired item within 5 s";
  auto kept = db.GetItem({.table_name = "Tbl", .key = {{"PK", Value("kept")}}});
  ASSERT_TRUE(kept.ok());
  EXPECT_TRUE(kept->item.has_value());
}

// The background sweeper deleting while writers put, overwrite and read (ThreadSanitizer runs
// this): every item written with a past expiry is deleted, no other one is.
TEST(TimeToLiveConcurrentTest, SweeperRacesWritersAndReaders) {
  DatabaseOptions options;
  options.time_to_live.sweep_interval_seconds = 0.01;
  Database db(options);
  ASSERT_TRUE(db.CreateTable(SimpleTable("Tbl", StringKeys(false))).ok());
  ASSERT_TRUE(db.UpdateTimeToLive({"Tbl", {"exp", true}}).ok());
  const auto now = static_cast<int64_t>(time(nullptr));
  constexpr int kItems = 400;
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 3; ++round) {
        for (int i = t; i < kItems; i += 2) {
          // Even keys expired, odd ones an hour ahead; rewritten each round.
          const int64_t exp = i % 2 == 0 ? now - 10 - round : now + 3600 + round;
          MustPut(db, "Tbl", {{"PK", Value("k" + std::to_string(i))}, {"exp", Value(exp)}});
          (void)db.GetItem({.table_name = "Tbl", .key = {{"PK", Value("k" + std::to_string(i))}}});
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  db.DeleteExpiredItems();  // whatever the background sweeper has not reached yet
  for (int i = 0; i < kItems; ++i) {
    auto got = db.GetItem({.table_name = "Tbl", .key = {{"PK", Value("k" + std::to_string(i))}}});
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(got->item.has_value(), i % 2 == 1) << i;
  }
}

TEST(TimeToLiveOptionsTest, OutOfRangeOptionsAreRefused) {
  DatabaseOptions options;
  options.time_to_live.sweep_interval_seconds = 0.001;
  auto opened = Database::Open(options);
  ASSERT_FALSE(opened.ok());
  EXPECT_NE(opened.status().message().find("time_to_live.sweep_interval_seconds"),
            std::string::npos);
  options = {};
  options.time_to_live.expiry_delay_seconds = -1;
  EXPECT_FALSE(Database::Open(options).ok());
  options = {};
  options.time_to_live.change_interval_seconds = 90000;
  EXPECT_FALSE(Database::Open(options).ok());
  options = {};
  options.time_to_live.sweep_interval_seconds = 0;  // no background sweeper: allowed
  EXPECT_TRUE(Database::Open(options).ok());
}

}  // namespace
}  // namespace partstore::testing
