// The Database's table lookups through per-thread slots (shard/table_lookup.h): a slot never
// answers with a table the catalogue no longer holds, never keeps one alive, and holds any number
// of tables in turn. The tests with threads are named *Concurrent* so that CI runs them under
// ThreadSanitizer too; the races of lookups with CreateTable / DeleteTable are
// DatabaseConcurrentTest.CreateDeleteDescribeRaceWithItemOperations.
#include "shard/table_lookup.h"

#include <gtest/gtest.h>

#include <atomic>
#include <latch>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "shard/database_state.h"
#include "tests/shard/database_testutil.h"

namespace partstore {
namespace {

using testing::MustCreate;
using testing::MustGet;
using testing::MustPut;
using testing::StringKeys;

// Runs `body` once on each of `n` threads, all alive together (so each has a slot of its own).
template <typename Body>
void OnSeveralThreads(int n, Body body) {
  std::latch ready(n);
  std::vector<std::thread> threads;
  for (int i = 0; i < n; ++i) {
    threads.emplace_back([&] {
      ready.arrive_and_wait();
      body();
    });
  }
  for (std::thread& t : threads) t.join();
}

TEST(TableLookupConcurrentTest, ADeletedTableIsFreedOnceDeleteTableReturns) {
  Database db;
  MustCreate(db, "Gone", StringKeys(false));
  MustPut(db, "Gone", Item{{"PK", "a"}});
  std::weak_ptr<Table> weak;
  {
    auto table = internal::GetTable(db, "Gone");
    ASSERT_TRUE(table.ok());
    weak = *table;
  }
  // Every thread's slot (and this thread's) now holds the table.
  OnSeveralThreads(4, [&] { EXPECT_TRUE(MustGet(db, "Gone", Item{{"PK", "a"}}).has_value()); });
  EXPECT_TRUE(MustGet(db, "Gone", Item{{"PK", "a"}}).has_value());
  ASSERT_FALSE(weak.expired());
  ASSERT_TRUE(db.DeleteTable({.table_name = "Gone"}).ok());
  // No slot kept a reference: the table's items are freed now, not when a thread looks up again.
  EXPECT_TRUE(weak.expired());
}

TEST(TableLookupConcurrentTest, EveryThreadFindsTheTableThatReplacedADeletedOne) {
  Database db;
  MustCreate(db, "Reborn", StringKeys(false));
  MustPut(db, "Reborn", Item{{"PK", "a"}, {"v", "old"}});
  std::latch looked_up(4), replaced(1);
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&] {
      EXPECT_TRUE(MustGet(db, "Reborn", Item{{"PK", "a"}}).has_value());  // slot: the old table
      looked_up.count_down();
      replaced.wait();
      // The new table is empty: the old one's item must not be found.
      EXPECT_FALSE(MustGet(db, "Reborn", Item{{"PK", "a"}}).has_value());
    });
  }
  looked_up.wait();
  ASSERT_TRUE(db.DeleteTable({.table_name = "Reborn"}).ok());
  MustCreate(db, "Reborn", StringKeys(false));
  replaced.count_down();
  for (std::thread& t : threads) t.join();
  EXPECT_FALSE(MustGet(db, "Reborn", Item{{"PK", "a"}}).has_value());
}

// Readers race with a table dropped and created again under the same name, its key attribute
// named differently each time. A read that began and ended while one version stood (no DeleteTable
// or CreateTable running meanwhile) must reach that version: a slot holding an older one would
// answer "The provided key element does not match the schema".
TEST(TableLookupConcurrentTest, NoReaderFindsAVersionDroppedBeforeItsRead) {
  Database db;
  auto schema_of = [](uint64_t version) {
    KeySchema schema;
    schema.partition = {version % 2 == 0 ? "even" : "odd", KeyType::kString};
    return schema;
  };
  ASSERT_TRUE(db.CreateTable(SimpleTable("Flip", schema_of(0))).ok());
  // state: the version standing, times two, plus one while a DeleteTable / CreateTable runs.
  std::atomic<uint64_t> state{0};
  std::atomic<bool> done{false};
  std::atomic<int> checked{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < 3; ++r) {
    readers.emplace_back([&] {
      while (!done.load()) {
        const uint64_t before = state.load();
        if (before % 2 == 1) continue;
        const uint64_t version = before / 2;
        const std::string name = schema_of(version).partition.name;
        auto got = db.GetItem({.table_name = "Flip", .key = Item{{name, "k"}}});
        if (state.load() != before) continue;  // a change ran meanwhile: any answer will do
        ASSERT_TRUE(got.ok()) << "version " << version << ": " << got.status().ToString();
        ++checked;
      }
    });
  }
  for (uint64_t version = 1; version <= 200; ++version) {
    state.store(2 * (version - 1) + 1);
    ASSERT_TRUE(db.DeleteTable({.table_name = "Flip"}).ok());
    ASSERT_TRUE(db.CreateTable(SimpleTable("Flip", schema_of(version))).ok());
    state.store(2 * version);
    std::this_thread::yield();
  }
  done = true;
  for (std::thread& t : readers) t.join();
  EXPECT_GT(checked.load(), 0);
}

TEST(TableLookupTest, MoreTablesThanASlotHoldsEachAnswerForItself) {
  Database db;
  constexpr int kTables = 3 * static_cast<int>(TableLookup::kTablesPerSlot) + 1;
  for (int i = 0; i < kTables; ++i) {
    const std::string name = "Table" + std::to_string(i);
    MustCreate(db, name, StringKeys(false));
    MustPut(db, name, Item{{"PK", "k"}, {"owner", name}});
  }
  // Round after round in one thread: every lookup past the slot's size evicts another table.
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < kTables; ++i) {
      const std::string name = "Table" + std::to_string(i);
      std::optional<Item> item = MustGet(db, name, Item{{"PK", "k"}});
      ASSERT_TRUE(item.has_value()) << name;
      EXPECT_EQ(item->at("owner"), Value(name));
    }
  }
  // Deleting one leaves the others (evicted or held) answering.
  ASSERT_TRUE(db.DeleteTable({.table_name = "Table3"}).ok());
  EXPECT_EQ(db.GetItem({.table_name = "Table3", .key = Item{{"PK", "k"}}}).status().code(),
            Code::kResourceNotFound);
  EXPECT_EQ(MustGet(db, "Table4", Item{{"PK", "k"}})->at("owner"), Value("Table4"));
}

TEST(TableLookupTest, AResultOutlivesItsSlotsEntry) {
  Database db;
  MustCreate(db, "Held", StringKeys(false));
  auto held = internal::GetTable(db, "Held");
  ASSERT_TRUE(held.ok());
  ASSERT_TRUE(db.DeleteTable({.table_name = "Held"}).ok());  // the slot forgets it
  // The pointer the lookup returned still owns the table.
  EXPECT_TRUE((*held)->PutItem({.item = Item{{"PK", "x"}}}).ok());
  EXPECT_TRUE((*held)->GetItem({.key = Item{{"PK", "x"}}})->item.has_value());
}

}  // namespace
}  // namespace partstore
