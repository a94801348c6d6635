// UpdateItem's write in place (Table::WriteInPlace): an update that gives attributes values
// of the same encoded length and size, on an item no one else holds, in a table with no index and
// no stream, writes the new bytes into the item's own buffer. What must hold: the same answers as
// a new version would give (values, ALL_NEW, ALL_OLD, consumed capacity); a reader's handle never
// changes under it (the write makes a new version instead); a throttled write changes nothing; a
// stream's old image is the old item; the log replays it. The readers-and-writers test runs under
// ThreadSanitizer in CI (its name holds "Concurrent").
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "partstore/stored_item.h"
#include "tests/capacity/capacity_testutil.h"
#include "tests/shard/database_testutil.h"

namespace partstore {
namespace {

using testing::MustCreate;
using testing::MustGet;
using testing::MustPut;
using testing::N;
using testing::StringKeys;

Item Key(const std::string& pk) { return Item{{"PK", Value(pk)}, {"SK", Value("S")}}; }

Item Row(const std::string& pk) {
  Item item = Key(pk);
  item.insert_or_assign("a", Value("aaaa"));
  item.insert_or_assign("b", Value("bbbb"));
  item.insert_or_assign("n", N("123"));
  item.insert_or_assign("z", Value(std::string(300, 'z') + "!"));
  return item;
}

UpdateItemRequest SetA(const std::string& pk, const std::string& value) {
  return {.table_name = "Items",
          .key = Key(pk),
          .update_expression = "SET a = :v",
          .expression_attribute_values = AttributeMap{{":v", Value(value)}}};
}

// Where the item's bytes are: the same buffer before and after means it was written in place.
const char* BufferOf(Database& db, const std::string& pk, const std::string& table = "Items") {
  auto got = db.GetItemView({.table_name = table, .key = Key(pk)});
  EXPECT_TRUE(got.ok() && got->item);
  return got.ok() && got->item ? got->item->encoding().data() : nullptr;
}

class UpdateInPlaceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    MustCreate(db_, "Items", StringKeys());
    MustPut(db_, "Items", Row("p"));
  }
  Database db_;
};

TEST_F(UpdateInPlaceTest, ASameLengthUpdateOfAnUnsharedItemKeepsItsBuffer) {
  const char* before = BufferOf(db_, "p");
  ASSERT_TRUE(db_.UpdateItem(SetA("p", "AAAA")).ok());
  EXPECT_EQ(BufferOf(db_, "p"), before);
  Item expected = Row("p");
  expected.insert_or_assign("a", Value("AAAA"));
  EXPECT_EQ(MustGet(db_, "Items", Key("p")), expected);
  // Two attributes at once, a number of the same length and size among them.
  UpdateItemRequest both{
      .table_name = "Items",
      .key = Key("p"),
      .update_expression = "SET b = :b, n = :n",
      .expression_attribute_values = AttributeMap{{":b", Value("BBBB")}, {":n", N("345")}}};
  ASSERT_TRUE(db_.UpdateItem(both).ok());
  EXPECT_EQ(BufferOf(db_, "p"), before);
  expected.insert_or_assign("b", Value("BBBB"));
  expected.insert_or_assign("n", N("345"));
  EXPECT_EQ(MustGet(db_, "Items", Key("p")), expected);
}

TEST_F(UpdateInPlaceTest, OtherUpdatesMakeANewVersion) {
  // Each changes the layout or the size, or removes or adds: the general path, the same answers.
  const std::vector<UpdateItemRequest> updates = {
      SetA("p", "longer value"),
      {.table_name = "Items",
       .key = Key("p"),
       .update_expression = "SET n = :n",  // same length, another size (one significant digit)
       .expression_attribute_values = AttributeMap{{":n", N("100")}}},
      {.table_name = "Items", .key = Key("p"), .update_expression = "REMOVE b"},
      {.table_name = "Items",
       .key = Key("p"),
       .update_expression = "SET c = :v",
       .expression_attribute_values = AttributeMap{{":v", Value("cccc")}}},
  };
  ASSERT_NE(ValueSize(N("100")), ValueSize(N("123")));
  Item expected = Row("p");
  for (const UpdateItemRequest& update : updates) {
    const char* before = BufferOf(db_, "p");
    ASSERT_TRUE(db_.UpdateItem(update).ok());
    EXPECT_NE(BufferOf(db_, "p"), before) << update.update_expression.value_or("");
  }
  expected.insert_or_assign("a", Value("longer value"));
  expected.insert_or_assign("n", N("100"));
  expected.erase("b");
  expected.insert_or_assign("c", Value("cccc"));
  EXPECT_EQ(MustGet(db_, "Items", Key("p")), expected);
}

TEST_F(UpdateInPlaceTest, AReadersHandleNeverChanges) {
  auto held = db_.GetItemView({.table_name = "Items", .key = Key("p")});
  ASSERT_TRUE(held.ok() && held->item);
  const Item before = held->item->ToItem();
  ASSERT_TRUE(db_.UpdateItem(SetA("p", "AAAA")).ok());
  EXPECT_TRUE(*held->item == before);
  EXPECT_EQ(MustGet(db_, "Items", Key("p"))->at("a"), Value("AAAA"));
  // The handle let go, the next update writes where the new version is.
  const char* now = BufferOf(db_, "p");
  EXPECT_NE(now, held->item->encoding().data());
  held->item.reset();
  ASSERT_TRUE(db_.UpdateItem(SetA("p", "CCCC")).ok());
  EXPECT_EQ(BufferOf(db_, "p"), now);
}

TEST_F(UpdateInPlaceTest, ReturnValuesAndCapacityAreThoseOfANewVersion) {
  UpdateItemRequest request = SetA("p", "AAAA");
  request.return_values = ReturnValue::kAllNew;
  request.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  auto updated = db_.UpdateItem(request);
  ASSERT_TRUE(updated.ok()) << updated.status().ToString();
  EXPECT_EQ(updated->attributes->at("a"), Value("AAAA"));
  EXPECT_EQ(updated->attributes->at("z"), Row("p").at("z"));
  ASSERT_TRUE(updated->consumed_capacity.has_value());
  EXPECT_EQ(updated->consumed_capacity->CapacityUnits(), 1.0);  // a 330-byte item: 1 WCU
  // ALL_OLD keeps the old version, so it is not written in place.
  request = SetA("p", "BBBB");
  request.return_values = ReturnValue::kAllOld;
  const char* before = BufferOf(db_, "p");
  updated = db_.UpdateItem(request);
  ASSERT_TRUE(updated.ok());
  EXPECT_EQ(updated->attributes->at("a"), Value("AAAA"));
  EXPECT_NE(BufferOf(db_, "p"), before);
  EXPECT_EQ(MustGet(db_, "Items", Key("p"))->at("a"), Value("BBBB"));
}

TEST_F(UpdateInPlaceTest, AFailedConditionChangesNothing) {
  UpdateItemRequest request = SetA("p", "AAAA");
  request.condition_expression = "b = :no";
  request.expression_attribute_values->insert_or_assign(":no", Value("nope"));
  EXPECT_EQ(db_.UpdateItem(request).status().code(), Code::kConditionalCheckFailed);
  EXPECT_EQ(MustGet(db_, "Items", Key("p")), Row("p"));
}

class UpdateInPlaceCapacityTest : public testing::CapacityTest {};

TEST_F(UpdateInPlaceCapacityTest, AThrottledUpdateChangesNothing) {
  Create(testing::CapacityTable("Cap", 10, 1));  // 1 WCU
  ASSERT_TRUE(Put("Cap", "k", 100).ok());
  auto update = [&](const std::string& value) {
    return db_.UpdateItem({.table_name = "Cap",
                           .key = Item{{"PK", Value("k")}},
                           .update_expression = "SET v = :v",
                           .expression_attribute_values = AttributeMap{{":v", Value(value)}}});
  };
  std::string accepted(100, 'a');
  auto buffer = [&] {
    auto got = db_.GetItemView({.table_name = "Cap", .key = Item{{"PK", Value("k")}}});
    return got.ok() && got->item ? got->item->encoding().data() : nullptr;
  };
  Advance(5);  // a few seconds of unused capacity banked (burst)
  const char* before = buffer();
  Result<UpdateItemResult> last = update(std::string(100, 'a'));
  ASSERT_TRUE(last.ok()) << last.status().ToString();
  ASSERT_EQ(buffer(), before);  // written in place: the path under test
  for (int i = 0; i < 1000 && last.ok(); ++i) {
    const std::string value = std::string(99, 'b') + std::to_string(i % 10);
    last = update(value);
    if (last.ok()) accepted = value;
  }
  ASSERT_EQ(last.status().code(), Code::kProvisionedThroughputExceeded);
  // The refused update's value is not there: the last accepted one is.
  Advance(10);
  auto got = db_.GetItem({.table_name = "Cap", .key = Item{{"PK", Value("k")}}});
  ASSERT_TRUE(got.ok() && got->item) << got.status().ToString();
  EXPECT_EQ(got->item->at("v").as_string(), accepted);
}

TEST(UpdateInPlaceStreamTest, AStreamsOldImageIsTheOldItem) {
  Database db;
  CreateTableRequest table = SimpleTable("Items", StringKeys());
  table.stream_specification = StreamSpecification{true, StreamViewType::kNewAndOldImages};
  auto created = db.CreateTable(table);
  ASSERT_TRUE(created.ok());
  MustPut(db, "Items", Row("p"));
  ASSERT_TRUE(db.UpdateItem(SetA("p", "AAAA")).ok());
  const std::string arn = created->table_description.latest_stream_arn.value();
  auto described = db.DescribeStream({.stream_arn = arn});
  ASSERT_TRUE(described.ok());
  std::vector<StreamRecord> records;
  for (const StreamShard& shard : described->stream_description.shards) {
    auto it = db.GetShardIterator({arn, shard.shard_id, ShardIteratorType::kTrimHorizon, {}});
    ASSERT_TRUE(it.ok());
    auto page = db.GetRecords({it->shard_iterator});
    ASSERT_TRUE(page.ok());
    for (auto& r : page->records) records.push_back(std::move(r));
  }
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[1].event_name, StreamEventName::kModify);
  EXPECT_EQ(records[1].old_image->ToItem().at("a"), Value("aaaa"));
  EXPECT_EQ(records[1].new_image->ToItem().at("a"), Value("AAAA"));
}

TEST(UpdateInPlaceLogTest, TheLogReplaysAnUpdateWrittenInPlace) {
  const std::string dir = testing::TestDirectory();
  DatabaseOptions options;
  options.persistence = {.data_dir = dir, .wal = WalSync::kAlways};
  {
    auto db = Database::Open(options);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    MustCreate(**db, "Items", StringKeys());
    MustPut(**db, "Items", Row("p"));
    const char* before = BufferOf(**db, "p");
    ASSERT_TRUE((*db)->UpdateItem(SetA("p", "AAAA")).ok());
    ASSERT_EQ(BufferOf(**db, "p"), before);  // the path under test
  }
  auto reopened = Database::Open(options);
  ASSERT_TRUE(reopened.ok()) << reopened.status().ToString();
  EXPECT_EQ(MustGet(**reopened, "Items", Key("p"))->at("a"), Value("AAAA"));
}

// Writers update two attributes of a few items to equal values of one length (so each write is
// in place whenever no reader holds the item); readers take handles and check that each shows
// the two equal, and unchanged when read again after the writers went on.
TEST(UpdateInPlaceConcurrentTest, ReadersHandlesNeverChangeWhileWritersUpdateInPlace) {
  Database db;
  MustCreate(db, "Items", StringKeys());
  constexpr int kKeys = 3;
  constexpr int kWrites = 3000;
  for (int k = 0; k < kKeys; ++k) {
    Item row = Row("k" + std::to_string(k));
    row.insert_or_assign("b", row.at("a"));
    MustPut(db, "Items", std::move(row));
  }
  std::atomic<bool> done{false};
  std::atomic<int> readers_started{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < 2; ++w) {
    threads.emplace_back([&, w] {
      while (readers_started.load() < 2) std::this_thread::yield();
      for (int i = 0; i < kWrites; ++i) {
        char v[5];
        std::snprintf(v, sizeof v, "%d%03d", w, i % 1000);
        ASSERT_TRUE(db.UpdateItem({.table_name = "Items",
                                   .key = Key("k" + std::to_string(i % kKeys)),
                                   .update_expression = "SET a = :v, b = :v",
                                   .expression_attribute_values = AttributeMap{{":v", Value(v)}}})
                        .ok());
      }
    });
  }
  auto consistent = [](const StoredItem& item) { return *item.Find("a") == *item.Find("b"); };
  for (int r = 0; r < 2; ++r) {
    threads.emplace_back([&] {
      std::vector<std::pair<StoredItem, Item>> held;
      readers_started.fetch_add(1);
      int n = 0;
      while (!done.load(std::memory_order_relaxed)) {
        auto got =
            db.GetItemView({.table_name = "Items", .key = Key("k" + std::to_string(n++ % kKeys))});
        ASSERT_TRUE(got.ok() && got->item);
        if (n % 2 == 0) {  // read and let go: the writers may then write in place
          const Item copy = got->item->ToItem();
          ASSERT_EQ(copy.at("a"), copy.at("b"));
          continue;
        }
        ASSERT_TRUE(consistent(*got->item));
        if (held.size() < 500) held.emplace_back(*got->item, got->item->ToItem());
      }
      for (const auto& [item, copy] : held) {
        ASSERT_TRUE(item == copy) << item.ToItem().at("a").as_string() << " "
                                  << copy.at("a").as_string() << " refs " << item.use_count();
      }
    });
  }
  threads[0].join();
  threads[1].join();
  done.store(true);
  threads[2].join();
  threads[3].join();
  for (int k = 0; k < kKeys; ++k) {
    const std::optional<Item> item = MustGet(db, "Items", Key("k" + std::to_string(k)));
    ASSERT_TRUE(item.has_value());
    EXPECT_EQ(item->at("a"), item->at("b"));
    EXPECT_EQ(item->at("z"), Row("p").at("z"));
  }
}

}  // namespace
}  // namespace partstore
