// Snapshots (partstore/snapshot.h): every type and table setting through SaveSnapshot and
// LoadSnapshot, the point in time under concurrent transactions, and damaged files refused with
// the database left as it was.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

#include "core/key_encoding.h"
#include "partstore/database.h"
#include "tests/shard/database_testutil.h"

namespace partstore {
namespace {

using testing::EveryType;
using testing::MustCreate;
using testing::MustGet;
using testing::MustPut;
using testing::N;
using testing::StringKeys;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void WriteFile(const std::string& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Orders: LSI, GSI, stream, TTL, a sharding policy; Counters: provisioned, a Number key; Blobs:
// a Binary key, no sort key.
void BuildDatabase(Database& db) {
  CreateTableRequest orders = SimpleTable("Orders", StringKeys());
  orders.attribute_definitions.push_back({"gpk", KeyType::kString});
  orders.attribute_definitions.push_back({"s", KeyType::kString});
  orders.global_secondary_indexes.push_back(
      {.index_name = "ByGroup",
       .key_schema = {{"gpk", KeyRoleName::kHash}, {"SK", KeyRoleName::kRange}},
       .projection = {.projection_type = ProjectionType::kAll, .non_key_attributes = {}},
       .provisioned_throughput = std::nullopt});
  orders.local_secondary_indexes.push_back(
      {.index_name = "ByText",
       .key_schema = {{"PK", KeyRoleName::kHash}, {"s", KeyRoleName::kRange}},
       .projection = {.projection_type = ProjectionType::kInclude,
                      .non_key_attributes = std::vector<std::string>{"n"}}});
  orders.stream_specification = StreamSpecification{
      .stream_enabled = true, .stream_view_type = StreamViewType::kNewAndOldImages};
  ASSERT_TRUE(db.CreateTable(orders).ok());
  ASSERT_TRUE(db.UpdateTimeToLive(
                    {.table_name = "Orders",
                     .time_to_live_specification = {.attribute_name = "expires", .enabled = true}})
                  .ok());
  sharding::ShardingPolicy policy;
  policy.key = "HOT";
  policy.shard_count = 4;
  ASSERT_TRUE(db.PutShardingPolicy({.table_name = "Orders", .policy = policy}).ok());

  CreateTableRequest counters;
  counters.table_name = "Counters";
  counters.attribute_definitions = {{"id", KeyType::kNumber}};
  counters.key_schema = {{"id", KeyRoleName::kHash}};
  counters.billing_mode = BillingMode::kProvisioned;
  counters.provisioned_throughput = ProvisionedThroughput{7, 9};
  ASSERT_TRUE(db.CreateTable(counters).ok());

  KeySchema blob_key;
  blob_key.partition = {"id", KeyType::kBinary};
  MustCreate(db, "Blobs", blob_key);

  for (int i = 0; i < 300; ++i) {
    MustPut(db, "Orders", EveryType("P" + std::to_string(i % 17), "S" + std::to_string(i)));
    MustPut(db, "Counters", Item{{"id", Value(N(std::to_string(i)))}, {"v", Value(N("1"))}});
  }
  MustPut(db, "Blobs", Item{{"id", Value(Bytes{std::string("\xff\x00", 2)})}});
}

TEST(SnapshotTest, EveryTypeAndTableSettingRoundTrip) {
  const std::string path = testing::TestDirectory() + "/db.snapshot";
  Database db;
  BuildDatabase(db);
  Result<SnapshotInfo> saved = db.SaveSnapshot(path);
  ASSERT_TRUE(saved.ok()) << saved.status().ToString();
  EXPECT_EQ(saved->tables, 3);
  EXPECT_EQ(saved->items, 601);
  EXPECT_EQ(saved->bytes, static_cast<int64_t>(std::filesystem::file_size(path)));

  Result<std::unique_ptr<Database>> loaded = Database::Open({}, path);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  Database& copy = **loaded;
  for (const char* table : {"Orders", "Counters", "Blobs"}) {
    SCOPED_TRACE(table);
    EXPECT_EQ(testing::SortedItems(copy, table), testing::SortedItems(db, table));
    TableDescription before = db.DescribeTable({table})->table;
    TableDescription after = copy.DescribeTable({table})->table;
    EXPECT_EQ(after.key_schema, before.key_schema);
    EXPECT_EQ(after.attribute_definitions, before.attribute_definitions);
    EXPECT_EQ(after.billing_mode, before.billing_mode);
    EXPECT_EQ(after.provisioned_throughput.read_capacity_units,
              before.provisioned_throughput.read_capacity_units);
    EXPECT_EQ(after.provisioned_throughput.write_capacity_units,
              before.provisioned_throughput.write_capacity_units);
    EXPECT_EQ(after.item_count, before.item_count);
    EXPECT_EQ(after.table_size_bytes, before.table_size_bytes);
    EXPECT_EQ(after.stream_specification, before.stream_specification);
    ASSERT_EQ(after.global_secondary_indexes.size(), before.global_secondary_indexes.size());
    for (size_t i = 0; i < after.global_secondary_indexes.size(); ++i) {
      EXPECT_EQ(after.global_secondary_indexes[i].index_name,
                before.global_secondary_indexes[i].index_name);
      EXPECT_EQ(after.global_secondary_indexes[i].projection,
                before.global_secondary_indexes[i].projection);
      EXPECT_EQ(after.global_secondary_indexes[i].item_count,
                before.global_secondary_indexes[i].item_count);
    }
    ASSERT_EQ(after.local_secondary_indexes.size(), before.local_secondary_indexes.size());
    for (size_t i = 0; i < after.local_secondary_indexes.size(); ++i) {
      EXPECT_EQ(after.local_secondary_indexes[i].projection,
                before.local_secondary_indexes[i].projection);
      EXPECT_EQ(after.local_secondary_indexes[i].index_size_bytes,
                before.local_secondary_indexes[i].index_size_bytes);
    }
  }
  // The restored stream is a new one; TTL and the sharding policy are back.
  EXPECT_NE(copy.DescribeTable({"Orders"})->table.latest_stream_arn, std::nullopt);
  auto ttl = copy.DescribeTimeToLive({"Orders"});
  ASSERT_TRUE(ttl.ok());
  EXPECT_EQ(ttl->time_to_live_description.attribute_name, "expires");
  auto policies = copy.DescribeShardingPolicies({"Orders"});
  ASSERT_TRUE(policies.ok());
  ASSERT_EQ(policies->policies.size(), 1u);
  EXPECT_EQ(policies->policies[0], db.DescribeShardingPolicies({"Orders"})->policies[0]);
  // The GSI's entries were rebuilt from the items.
  QueryRequest query;
  query.table_name = "Orders";
  query.index_name = "ByGroup";
  query.key_condition_expression = "gpk = :g";
  query.expression_attribute_values = AttributeMap{{":g", Value("group")}};
  query.select = Select::kCount;
  auto counted = copy.Query(query);
  ASSERT_TRUE(counted.ok()) << counted.status().ToString();
  EXPECT_EQ(counted->count, 300);
  // A restored stream starts empty: the load writes no records.
  auto streams = copy.ListStreams({.table_name = std::string("Orders")});
  ASSERT_TRUE(streams.ok());
  ASSERT_EQ(streams->streams.size(), 1u);
}

TEST(SnapshotTest, LeavesNoTemporaryFileAndReplacesTheOldSnapshot) {
  const std::string dir = testing::TestDirectory();
  const std::string path = dir + "/db.snapshot";
  Database db;
  MustCreate(db, "Orders", StringKeys());
  MustPut(db, "Orders", Item{{"PK", Value("a")}, {"SK", Value("1")}});
  ASSERT_TRUE(db.SaveSnapshot(path).ok());
  MustPut(db, "Orders", Item{{"PK", Value("b")}, {"SK", Value("2")}});
  ASSERT_TRUE(db.SaveSnapshot(path).ok());
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    ++files;
    EXPECT_EQ(entry.path().filename(), "db.snapshot");
  }
  EXPECT_EQ(files, 1);
  auto loaded = Database::Open({}, path);
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ((*loaded)->DescribeTable({"Orders"})->table.item_count, 2);
}

TEST(SnapshotTest, UnwritablePathIsAnErrorNamingTheFile) {
  Database db;
  MustCreate(db, "Orders", StringKeys());
  auto saved = db.SaveSnapshot("/nonexistent-dir/db.snapshot");
  ASSERT_FALSE(saved.ok());
  EXPECT_EQ(saved.status().code(), Code::kInternal);
  EXPECT_NE(saved.status().message().find("/nonexistent-dir/db.snapshot"), std::string::npos)
      << saved.status().message();
}

TEST(SnapshotTest, MissingFileAndForeignFile) {
  const std::string dir = testing::TestDirectory();
  Database db;
  auto missing = db.LoadSnapshot(dir + "/none");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), Code::kResourceNotFound);
  WriteFile(dir + "/text", "hello, this is not a snapshot");
  auto foreign = db.LoadSnapshot(dir + "/text");
  ASSERT_FALSE(foreign.ok());
  EXPECT_EQ(foreign.status().code(), Code::kValidation);
  EXPECT_EQ(foreign.status().message(),
            dir + "/text: not a partstore PSTSNAP file (its first bytes are not the magic number)");
}

// Every prefix and every single-bit change of a snapshot is refused with an error naming the file
// and an offset, and the database it was loaded into keeps only what it had.
TEST(SnapshotTest, TruncatedOrDamagedFilesAreRefusedAndChangeNothing) {
  const std::string dir = testing::TestDirectory();
  const std::string good = dir + "/good";
  {
    Database db;
    MustCreate(db, "Aaa", StringKeys());
    MustCreate(db, "Bbb", StringKeys(false));
    for (int i = 0; i < 5; ++i) {
      MustPut(db, "Aaa", EveryType("p" + std::to_string(i), "s"));
      MustPut(db, "Bbb", Item{{"PK", Value("k" + std::to_string(i))}, {"v", Value(N("7"))}});
    }
    ASSERT_TRUE(db.SaveSnapshot(good).ok());
  }
  const std::string bytes = ReadFile(good);
  ASSERT_GT(bytes.size(), 100u);
  const std::string bad = dir + "/bad";
  Database db;
  MustCreate(db, "Keep", StringKeys());
  MustPut(db, "Keep", Item{{"PK", Value("x")}, {"SK", Value("y")}});
  auto refused = [&](const std::string& content, const std::string& what) {
    WriteFile(bad, content);
    auto loaded = db.LoadSnapshot(bad);
    ASSERT_FALSE(loaded.ok()) << what;
    EXPECT_TRUE(loaded.status().code() == Code::kValidation)
        << what << ": " << loaded.status().ToString();
    EXPECT_EQ(loaded.status().message().rfind(bad + ": ", 0), 0u) << loaded.status().message();
    auto tables = db.ListTables({});
    ASSERT_EQ(tables->table_names, std::vector<std::string>{"Keep"}) << what;
  };
  for (size_t length = 0; length < bytes.size(); ++length) {
    refused(bytes.substr(0, length), "cut at " + std::to_string(length));
  }
  for (size_t at = 0; at < bytes.size(); ++at) {
    std::string damaged = bytes;
    damaged[at] = static_cast<char>(damaged[at] ^ (1 << (at % 8)));
    refused(damaged, "bit flipped at " + std::to_string(at));
  }
  refused(bytes + "x", "a byte after the end");
  EXPECT_EQ(MustGet(db, "Keep", Item{{"PK", Value("x")}, {"SK", Value("y")}}).has_value(), true);
  // The good file still loads.
  ASSERT_TRUE(db.LoadSnapshot(good).ok());
  EXPECT_EQ(db.DescribeTable({"Bbb"})->table.item_count, 5);
}

TEST(SnapshotTest, ATableThatExistsFailsTheLoadWhole) {
  const std::string path = testing::TestDirectory() + "/db.snapshot";
  {
    Database db;
    MustCreate(db, "Aaa", StringKeys());
    MustCreate(db, "Orders", StringKeys());
    MustPut(db, "Aaa", Item{{"PK", Value("a")}, {"SK", Value("1")}});
    ASSERT_TRUE(db.SaveSnapshot(path).ok());
  }
  Database db;
  MustCreate(db, "Orders", StringKeys());
  MustPut(db, "Orders", Item{{"PK", Value("mine")}, {"SK", Value("1")}});
  auto loaded = db.LoadSnapshot(path);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().code(), Code::kResourceInUse);
  EXPECT_EQ(db.ListTables({})->table_names, std::vector<std::string>{"Orders"});
  EXPECT_EQ(db.DescribeTable({"Orders"})->table.item_count, 1);
  EXPECT_TRUE(db.ListStreams({})->streams.empty());
}

TEST(SnapshotTest, TheMemoryLimitRefusesALoadTooLarge) {
  const std::string path = testing::TestDirectory() + "/db.snapshot";
  {
    Database db;
    MustCreate(db, "Orders", StringKeys());
    for (int i = 0; i < 2000; ++i) {
      MustPut(db, "Orders", EveryType("p" + std::to_string(i), "s"));
    }
    ASSERT_TRUE(db.SaveSnapshot(path).ok());
  }
  DatabaseOptions options;
  options.memory.limit_bytes = 64 << 10;
  Database db(options);
  auto loaded = db.LoadSnapshot(path);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().code(), Code::kMemoryLimitExceeded);
  EXPECT_TRUE(db.ListTables({})->table_names.empty());
}

// Capacity simulation on: the restored table's partitions hold its size again.
TEST(SnapshotTest, SimulatedPartitionsCountTheLoadedItems) {
  const std::string path = testing::TestDirectory() + "/db.snapshot";
  DatabaseOptions options;
  options.capacity.enabled = true;
  options.capacity.clock = std::make_shared<capacity::ManualClock>();
  {
    Database db(options);
    MustCreate(db, "Orders", StringKeys());
    for (int i = 0; i < 100; ++i) MustPut(db, "Orders", EveryType("p" + std::to_string(i), "s"));
    ASSERT_TRUE(db.SaveSnapshot(path).ok());
  }
  Database db(options);
  ASSERT_TRUE(db.LoadSnapshot(path).ok());
  auto partitions = db.DescribePartitions({.table_name = "Orders"});
  ASSERT_TRUE(partitions.ok()) << partitions.status().ToString();
  int64_t items = 0;
  for (const auto& partition : partitions->partitions) items += partition.item_count;
  EXPECT_EQ(items, 100);
}

// The point in time: transfers between accounts run in transactions while snapshots are taken;
// every snapshot's balances add up to the starting total.
TEST(SnapshotConcurrentTest, TransactionsAreInASnapshotWholeOrNotAtAll) {
  const std::string dir = testing::TestDirectory();
  // 16 stripes: ThreadSanitizer's deadlock detector follows at most 64 locks held by one thread,
  // and a snapshot holds every stripe at once.
  DatabaseOptions options;
  options.stripes_per_table = 16;
  Database db(options);
  MustCreate(db, "Accounts", StringKeys(false));
  constexpr int kAccounts = 16;
  for (int i = 0; i < kAccounts; ++i) {
    MustPut(db, "Accounts", Item{{"PK", Value("a" + std::to_string(i))}, {"v", Value(N("100"))}});
  }
  std::atomic<bool> stop{false};
  std::atomic<int64_t> committed{0};
  std::vector<std::thread> writers;
  for (int w = 0; w < 2; ++w) {
    writers.emplace_back([&, w] {
      uint64_t rng = 12345 + w;
      while (!stop.load()) {
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        const int from = static_cast<int>((rng >> 33) % kAccounts);
        const int to = (from + 1 + static_cast<int>((rng >> 45) % (kAccounts - 1))) % kAccounts;
        TransactWriteItemsRequest request;
        for (auto [account, delta] : {std::pair{from, "-1"}, std::pair{to, "1"}}) {
          TransactWriteItem action;
          UpdateItemRequest& update = action.update.emplace();
          update.table_name = "Accounts";
          update.key = Item{{"PK", Value("a" + std::to_string(account))}};
          update.update_expression = "ADD v :d";
          update.expression_attribute_values = AttributeMap{{":d", Value(N(delta))}};
          request.transact_items.push_back(std::move(action));
        }
        if (db.TransactWriteItems(request).ok()) committed.fetch_add(1);
      }
    });
  }
  for (int round = 0; round < 5; ++round) {
    // Transfers commit between snapshots (and, with two writers, during them).
    const int64_t seen = committed.load();
    while (committed.load() < seen + 50) std::this_thread::yield();
    const std::string path = dir + "/s" + std::to_string(round);
    ASSERT_TRUE(db.SaveSnapshot(path).ok());
    Database copy;
    ASSERT_TRUE(copy.LoadSnapshot(path).ok());
    int64_t total = 0;
    ScanRequest scan;
    scan.table_name = "Accounts";
    for (const StoredItem& item : copy.ScanAll(scan)) {
      total += std::stoll(std::string(item.Find("v")->number_text()));
    }
    EXPECT_EQ(total, 100 * kAccounts) << "round " << round;
  }
  stop = true;
  for (std::thread& writer : writers) writer.join();
}

}  // namespace
}  // namespace partstore
