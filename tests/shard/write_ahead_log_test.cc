// The write-ahead log (partstore/persistence.h): every change and control-plane step replayed from
// the log after a close without a snapshot, in each sync mode; a torn last record dropped (and
// reported: file, offset, bytes, why); damage
// elsewhere refused; a transaction all or nothing; CreateSnapshot truncating the log; concurrent
// writers whose every acknowledged write comes back.
#include "shard/persist/write_ahead_log.h"

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

using testing::MustCreate;
using testing::MustGet;
using testing::MustPut;
using testing::N;
using testing::StringKeys;

std::unique_ptr<Database> OpenDir(const std::string& dir, std::optional<WalSync> wal) {
  DatabaseOptions options;
  // 16 stripes: ThreadSanitizer's deadlock detector follows at most 64 locks held by one thread,
  // and a snapshot holds every stripe at once.
  options.stripes_per_table = 16;
  options.persistence = {.data_dir = dir, .wal = wal};
  auto db = Database::Open(options);
  EXPECT_TRUE(db.ok()) << db.status().ToString();
  return db.ok() ? std::move(*db) : nullptr;
}

Item Row(std::string pk, std::string sk, int v) {
  return Item{{"PK", Value(std::move(pk))},
              {"SK", Value(std::move(sk))},
              {"v", Value(N(std::to_string(v)))},
              {"g", Value("G")}};
}

// Every kind of change, then the database is dropped without a snapshot: only the log has them.
void Exercise(Database& db) {
  MustCreate(db, "Orders", StringKeys());
  MustCreate(db, "Gone", StringKeys(false));
  MustPut(db, "Gone", Item{{"PK", Value("x")}});
  for (int i = 0; i < 50; ++i)
    MustPut(db, "Orders", Row("P" + std::to_string(i % 7), "S" + std::to_string(i), i));
  ASSERT_TRUE(
      db.UpdateItem({.table_name = "Orders",
                     .key = Item{{"PK", Value("P1")}, {"SK", Value("S1")}},
                     .update_expression = "SET v = v + :one, added = :s",
                     .expression_attribute_values =
                         AttributeMap{{":one", Value(N("1"))}, {":s", Value(StringSet{"a"})}}})
          .ok());
  ASSERT_TRUE(
      db.DeleteItem({.table_name = "Orders", .key = Item{{"PK", Value("P2")}, {"SK", Value("S2")}}})
          .ok());
  BatchWriteItemRequest batch;
  batch.request_items.push_back({"Orders",
                                 {{.kind = WriteRequest::Kind::kPut, .item = Row("B", "1", 1)},
                                  {.kind = WriteRequest::Kind::kDelete,
                                   .item = Item{{"PK", Value("P3")}, {"SK", Value("S3")}}}}});
  ASSERT_TRUE(db.BatchWriteItem(batch).ok());
  TransactWriteItemsRequest transaction;
  transaction.transact_items.push_back(
      {.put = PutItemRequest{.table_name = "Orders", .item = Row("T", "1", 10)}});
  transaction.transact_items.push_back(
      {.del = DeleteItemRequest{.table_name = "Orders",
                                .key = Item{{"PK", Value("P4")}, {"SK", Value("S4")}}}});
  ASSERT_TRUE(db.TransactWriteItems(transaction).ok());
  // The control plane: a GSI added (backfilled), a stream, TTL, a sharding policy set and one
  // removed, a table deleted.
  UpdateTableRequest add_index;
  add_index.table_name = "Orders";
  add_index.attribute_definitions = {{"g", KeyType::kString}, {"SK", KeyType::kString}};
  add_index.global_secondary_index_updates = std::vector<GlobalSecondaryIndexUpdate>{
      {.create = GlobalSecondaryIndex{
           .index_name = "ByG",
           .key_schema = {{"g", KeyRoleName::kHash}, {"SK", KeyRoleName::kRange}},
           .projection = {.projection_type = ProjectionType::kKeysOnly, .non_key_attributes = {}},
           .provisioned_throughput = std::nullopt}}};
  auto added = db.UpdateTable(add_index);
  ASSERT_TRUE(added.ok()) << added.status().ToString();
  UpdateTableRequest add_stream;
  add_stream.table_name = "Orders";
  add_stream.stream_specification = StreamSpecification{true, StreamViewType::kNewImage};
  ASSERT_TRUE(db.UpdateTable(add_stream).ok());
  ASSERT_TRUE(db.UpdateTimeToLive(
                    {.table_name = "Orders",
                     .time_to_live_specification = {.attribute_name = "exp", .enabled = true}})
                  .ok());
  sharding::ShardingPolicy kept;
  kept.key = "HOT";
  kept.shard_count = 3;
  ASSERT_TRUE(db.PutShardingPolicy({.table_name = "Orders", .policy = kept}).ok());
  sharding::ShardingPolicy dropped = kept;
  dropped.key = "WARM";
  ASSERT_TRUE(db.PutShardingPolicy({.table_name = "Orders", .policy = dropped}).ok());
  ASSERT_TRUE(db.DeleteShardingPolicy({.table_name = "Orders", .key = "WARM"}).ok());
  ASSERT_TRUE(db.DeleteTable({"Gone"}).ok());
  MustPut(db, "Orders", Row("after", "index", 99));  // (in the new GSI too)
}

class WriteAheadLogModeTest : public ::testing::TestWithParam<WalSync> {};

TEST_P(WriteAheadLogModeTest, EveryChangeComesBackFromTheLog) {
  const std::string dir = testing::TestDirectory();
  std::vector<Item> expected;
  {
    std::unique_ptr<Database> db = OpenDir(dir, GetParam());
    ASSERT_TRUE(db);
    Exercise(*db);
    expected = testing::SortedItems(*db, "Orders");
  }  // closed: no snapshot, the log has everything since the one Open took
  std::unique_ptr<Database> db = OpenDir(dir, GetParam());
  ASSERT_TRUE(db);
  EXPECT_EQ(db->ListTables({})->table_names, std::vector<std::string>{"Orders"});
  EXPECT_EQ(testing::SortedItems(*db, "Orders"), expected);
  TableDescription table = db->DescribeTable({"Orders"})->table;
  ASSERT_EQ(table.global_secondary_indexes.size(), 1u);
  EXPECT_EQ(table.global_secondary_indexes[0].item_count, static_cast<int64_t>(expected.size()));
  ASSERT_TRUE(table.stream_specification.has_value());
  EXPECT_EQ(table.stream_specification->stream_view_type, StreamViewType::kNewImage);
  EXPECT_EQ(db->DescribeTimeToLive({"Orders"})->time_to_live_description.attribute_name, "exp");
  auto policies = db->DescribeShardingPolicies({"Orders"});
  ASSERT_EQ(policies->policies.size(), 1u);
  EXPECT_EQ(policies->policies[0].key, "HOT");
  // And it keeps logging: a third open sees a change made after the replay.
  MustPut(*db, "Orders", Row("third", "open", 3));
  db.reset();
  db = OpenDir(dir, GetParam());
  ASSERT_TRUE(db);
  EXPECT_TRUE(MustGet(*db, "Orders", Item{{"PK", Value("third")}, {"SK", Value("open")}}));
}

INSTANTIATE_TEST_SUITE_P(Modes, WriteAheadLogModeTest,
                         ::testing::Values(WalSync::kAlways, WalSync::kEverySecond, WalSync::kOff));

TEST(WriteAheadLogTest, WithoutALogOnlyTheSnapshotIsKept) {
  const std::string dir = testing::TestDirectory();
  {
    std::unique_ptr<Database> db = OpenDir(dir, std::nullopt);
    MustCreate(*db, "Orders", StringKeys());
    MustPut(*db, "Orders", Row("a", "1", 1));
    ASSERT_TRUE(db->CreateSnapshot({}).ok());
    MustPut(*db, "Orders", Row("b", "2", 2));  // lost: no log, no snapshot after it
  }
  std::unique_ptr<Database> db = OpenDir(dir, std::nullopt);
  EXPECT_EQ(testing::SortedItems(*db, "Orders").size(), 1u);
  EXPECT_TRUE(persist::WriteAheadLog::Segments(dir).empty());
}

TEST(WriteAheadLogTest, CreateSnapshotTruncatesTheLog) {
  const std::string dir = testing::TestDirectory();
  std::unique_ptr<Database> db = OpenDir(dir, WalSync::kAlways);
  MustCreate(*db, "Orders", StringKeys());
  for (int i = 0; i < 20; ++i) MustPut(*db, "Orders", Row("p", std::to_string(i), i));
  const std::vector<uint64_t> before = persist::WriteAheadLog::Segments(dir);
  ASSERT_EQ(before.size(), 1u);
  ASSERT_TRUE(db->CreateSnapshot({}).ok());
  const std::vector<uint64_t> after = persist::WriteAheadLog::Segments(dir);
  ASSERT_EQ(after.size(), 1u);
  EXPECT_EQ(after[0], before[0] + 1);
  EXPECT_LT(std::filesystem::file_size(persist::WriteAheadLog::SegmentPath(dir, after[0])), 20u);
  MustPut(*db, "Orders", Row("p", "after", 1));
  db.reset();
  db = OpenDir(dir, WalSync::kAlways);
  EXPECT_EQ(testing::SortedItems(*db, "Orders").size(), 21u);
}

// The last segment's path and bytes, after `writes` puts logged (the last one a transaction of
// two puts when `transaction`).
std::string LogWith(const std::string& dir, int writes, bool transaction) {
  std::unique_ptr<Database> db = OpenDir(dir, WalSync::kAlways);
  MustCreate(*db, "Orders", StringKeys());
  for (int i = 0; i < writes; ++i) MustPut(*db, "Orders", Row("p", std::to_string(i), i));
  if (transaction) {
    TransactWriteItemsRequest request;
    for (const char* sk : {"x", "y"}) {
      request.transact_items.push_back(
          {.put = PutItemRequest{.table_name = "Orders", .item = Row("t", sk, 1)}});
    }
    EXPECT_TRUE(db->TransactWriteItems(request).ok());
  }
  db.reset();
  return persist::WriteAheadLog::SegmentPath(dir, persist::WriteAheadLog::Segments(dir).back());
}

TEST(WriteAheadLogTest, ATornLastRecordIsDroppedAndTheLogGoesOn) {
  const std::string dir = testing::TestDirectory();
  const std::string segment = LogWith(dir, 10, /*transaction=*/true);
  const auto size = std::filesystem::file_size(segment);
  // Cut inside the transaction's record: neither of its puts comes back.
  std::filesystem::resize_file(segment, size - 20);
  std::unique_ptr<Database> db = OpenDir(dir, WalSync::kAlways);
  ASSERT_TRUE(db);
  std::vector<Item> items = testing::SortedItems(*db, "Orders");
  EXPECT_EQ(items.size(), 10u);
  for (const Item& item : items) EXPECT_NE(item.at("PK"), Value("t"));
  MustPut(*db, "Orders", Row("later", "1", 1));
  db.reset();
  db = OpenDir(dir, WalSync::kAlways);
  EXPECT_EQ(testing::SortedItems(*db, "Orders").size(), 11u);
}

// A damaged last record is not dropped without a word: Open reports it (DescribePersistence: the
// file, the offset, the bytes and why; `partstore serve` prints it and counts it in /metrics).
TEST(WriteAheadLogTest, ADroppedLastRecordIsCountedAndNamed) {
  struct Damage {
    const char* name;
    bool truncate;  // cut 7 bytes into the record; else flip a byte of its payload
    std::string why;
  };
  for (const Damage& damage :
       {Damage{"cut short", true, "truncated block (its payload is cut short)"},
        Damage{"flipped byte", false, "checksum mismatch (the block is damaged)"}}) {
    SCOPED_TRACE(damage.name);
    const std::string dir = testing::TestDirectory();
    std::string segment;
    uint64_t offset = 0;  // of the last record
    {
      std::unique_ptr<Database> db = OpenDir(dir, WalSync::kAlways);
      ASSERT_TRUE(db);
      EXPECT_EQ(db->DescribePersistence().wal_records_dropped, 0u);  // a clean start
      EXPECT_TRUE(db->DescribePersistence().wal_drops.empty());
      MustCreate(*db, "Orders", StringKeys());
      for (int i = 0; i < 10; ++i) MustPut(*db, "Orders", Row("p", std::to_string(i), i));
      segment =
          persist::WriteAheadLog::SegmentPath(dir, persist::WriteAheadLog::Segments(dir).back());
      offset = std::filesystem::file_size(segment);
      MustPut(*db, "Orders", Row("last", "1", 1));
    }
    const uint64_t size = std::filesystem::file_size(segment);
    ASSERT_GT(size, offset + 20);
    if (damage.truncate) {
      std::filesystem::resize_file(segment, offset + 7);
    } else {
      std::fstream file(segment, std::ios::binary | std::ios::in | std::ios::out);
      file.seekg(static_cast<std::streamoff>(offset + 10));
      const char byte = static_cast<char>(file.get() ^ 0x04);
      file.seekp(static_cast<std::streamoff>(offset + 10));
      file.put(byte);
    }
    const uint64_t dropped = damage.truncate ? 7 : size - offset;

    std::unique_ptr<Database> db = OpenDir(dir, WalSync::kAlways);
    ASSERT_TRUE(db);
    // What came before the damage is there; the damaged record's put is not.
    std::vector<Item> items = testing::SortedItems(*db, "Orders");
    EXPECT_EQ(items.size(), 10u);
    for (const Item& item : items) EXPECT_NE(item.at("PK"), Value("last"));
    const PersistenceStats stats = db->DescribePersistence();
    EXPECT_EQ(stats.wal_records_dropped, 1u);
    EXPECT_EQ(stats.wal_bytes_dropped, dropped);
    ASSERT_EQ(stats.wal_drops.size(), 1u);
    EXPECT_EQ(stats.wal_drops[0], segment + ": dropped the last record (" +
                                      std::to_string(dropped) + " bytes at offset " +
                                      std::to_string(offset) + "): " + damage.why);
    // Counted per Open: the next start finds a clean log.
    db.reset();
    db = OpenDir(dir, WalSync::kAlways);
    ASSERT_TRUE(db);
    EXPECT_EQ(db->DescribePersistence().wal_records_dropped, 0u);
    EXPECT_EQ(testing::SortedItems(*db, "Orders").size(), 10u);
  }
}

TEST(WriteAheadLogTest, DamageBeforeTheLastRecordIsRefused) {
  const std::string dir = testing::TestDirectory();
  const std::string segment = LogWith(dir, 10, /*transaction=*/false);
  std::string bytes;
  {
    std::ifstream in(segment, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  // A bit of an item in a record near the middle (a name's byte: inside the checksummed payload,
  // not a block's framing).
  const size_t at = bytes.find("PK", bytes.size() / 2);
  ASSERT_NE(at, std::string::npos);
  ASSERT_LT(at, bytes.size() * 3 / 4);
  bytes[at] ^= 0x20;
  {
    std::ofstream out(segment, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  DatabaseOptions options;
  options.persistence = {.data_dir = dir, .wal = WalSync::kAlways};
  auto db = Database::Open(options);
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.status().code(), Code::kValidation);
  EXPECT_EQ(db.status().message().rfind(segment + ": checksum mismatch", 0), 0u)
      << db.status().message();
  // The segment is left as it was, for a person to look at.
  EXPECT_EQ(std::filesystem::file_size(segment), bytes.size());
}

// A refused LoadSnapshot into a database with a log: the tables it had created are gone after a
// restart too (their creation was logged, and so is their removal).
TEST(WriteAheadLogTest, ARefusedLoadLeavesNoTableBehindAfterARestart) {
  const std::string dir = testing::TestDirectory();
  const std::string snapshot = dir + "/other.snapshot";
  {
    Database other;
    MustCreate(other, "Aaa", StringKeys());
    MustCreate(other, "Orders", StringKeys());
    ASSERT_TRUE(other.SaveSnapshot(snapshot).ok());
  }
  {
    std::unique_ptr<Database> db = OpenDir(dir + "/data", WalSync::kAlways);
    MustCreate(*db, "Orders", StringKeys());
    auto loaded = db->LoadSnapshot(snapshot);
    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.status().code(), Code::kResourceInUse);
  }
  std::unique_ptr<Database> db = OpenDir(dir + "/data", WalSync::kAlways);
  EXPECT_EQ(db->ListTables({})->table_names, std::vector<std::string>{"Orders"});
}

// An index added over an item whose index key has the wrong type leaves it out (DynamoDB's
// backfill violation); the item stays in the table, and comes back, still outside the index, from
// the log and then from the snapshot the replaying Open took (found by wal_replay_fuzz: the
// snapshot's load refused the item).
TEST(WriteAheadLogTest, AnItemTheIndexLeftOutComesBackFromTheLogAndTheSnapshot) {
  const std::string dir = testing::TestDirectory();
  {
    std::unique_ptr<Database> db = OpenDir(dir, WalSync::kAlways);
    MustCreate(*db, "Orders", StringKeys());
    MustPut(*db, "Orders", Row("p", "typed", 1));
    MustPut(*db, "Orders", Item{{"PK", Value("p")}, {"SK", Value("n")}, {"g", Value(N("7"))}});
    UpdateTableRequest add_index;
    add_index.table_name = "Orders";
    add_index.attribute_definitions = {{"g", KeyType::kNumber}};
    add_index.global_secondary_index_updates = std::vector<GlobalSecondaryIndexUpdate>{
        {.create = GlobalSecondaryIndex{
             .index_name = "ByG",
             .key_schema = {{"g", KeyRoleName::kHash}},
             .projection = {.projection_type = ProjectionType::kAll, .non_key_attributes = {}},
             .provisioned_throughput = std::nullopt}}};
    auto added = db->UpdateTable(add_index);
    ASSERT_TRUE(added.ok()) << added.status().ToString();
  }
  for (const char* from : {"the log", "the snapshot"}) {
    SCOPED_TRACE(from);
    std::unique_ptr<Database> db = OpenDir(dir, WalSync::kAlways);
    ASSERT_TRUE(db);
    EXPECT_EQ(testing::SortedItems(*db, "Orders").size(), 2u);
    TableDescription table = db->DescribeTable({"Orders"})->table;
    ASSERT_EQ(table.global_secondary_indexes.size(), 1u);
    EXPECT_EQ(table.global_secondary_indexes[0].item_count, 1);
    // A client's write of such an item is still refused.
    EXPECT_EQ(db->PutItem({.table_name = "Orders", .item = Row("q", "typed", 2)}).status().code(),
              Code::kValidation);
  }
}

TEST(WriteAheadLogTest, AWalNeedsADataDirectory) {
  DatabaseOptions options;
  options.persistence.wal = WalSync::kAlways;
  auto db = Database::Open(options);
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.status().code(), Code::kValidation);
}

// Writers on two threads while snapshots truncate the log: after a close, every write each
// thread had acknowledged is there, at its latest value.
TEST(WriteAheadLogConcurrentTest, AcknowledgedWritesSurviveSnapshotsBetweenThem) {
  const std::string dir = testing::TestDirectory();
  constexpr int kKeys = 50;
  std::vector<std::vector<int>> acknowledged(2, std::vector<int>(kKeys, -1));
  {
    std::unique_ptr<Database> db = OpenDir(dir, WalSync::kEverySecond);
    MustCreate(*db, "Orders", StringKeys());
    std::vector<std::thread> writers;
    for (int w = 0; w < 2; ++w) {
      writers.emplace_back([&, w] {
        for (int round = 0; round < 20; ++round) {
          for (int k = 0; k < kKeys; ++k) {
            if (db->PutItem({.table_name = "Orders",
                             .item = Row("w" + std::to_string(w), std::to_string(k), round)})
                    .ok()) {
              acknowledged[w][k] = round;
            }
          }
        }
      });
    }
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(db->CreateSnapshot({}).ok());
    for (std::thread& writer : writers) writer.join();
  }
  std::unique_ptr<Database> db = OpenDir(dir, WalSync::kEverySecond);
  for (int w = 0; w < 2; ++w) {
    for (int k = 0; k < kKeys; ++k) {
      auto item =
          MustGet(*db, "Orders",
                  Item{{"PK", Value("w" + std::to_string(w))}, {"SK", Value(std::to_string(k))}});
      ASSERT_TRUE(item.has_value());
      EXPECT_EQ(item->at("v"), Value(N(std::to_string(acknowledged[w][k]))));
    }
  }
}

}  // namespace
}  // namespace partstore
