// The Database's table lookups through per-thread slots (shard/table_lookup.h): a slot never
// answers with a table the catalogue no longer holds, never keeps one alive, and holds any number
// of tables in turn. The tests with threads are named *Concurrent* so that CI runs them under
// ThreadSanitizer too; the races of lookups with CreateTable / DeleteTable are
// DatabaseConcurrentTest.CreateDeleteDescribeRaceWithItemOperations.
#include "shard/table_lookup.h"

#include <gtest/gtest.h>

#include <latch>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "shard/database_state.h"
#include "tests/shard/database_testutil.h"

// Requests are built with designated initializers, naming only the members that matter.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

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
