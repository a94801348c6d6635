// Concurrency tests of partstore::Database: several threads of mixed operations on overlapping
// keys. CI runs them under ThreadSanitizer (`ctest -R Concurrent`), so every test name contains
// "Concurrent" and each stays well under 5 s there; in a plain build they double as smoke tests
// of linearizability:
//   - UpdateItem ADD from several threads sums exactly; conditional updates are atomic;
//   - no torn items: every writer writes items whose attributes all carry one writer-specific
//     value, and GetItem, BatchGetItem, Query and Scan never see a mix;
//   - CreateTable / DeleteTable / DescribeTable racing with item operations;
//   - Scan pages racing with inserts and deletes of other partition keys still see every
//     untouched item exactly once;
//   - a paged Query racing with inserts into its own (growing, segmented) collection.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <latch>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "partstore/database.h"
#include "partstore/item.h"
#include "partstore/value.h"
#include "shard/database_state.h"

namespace partstore {
namespace {

KeySchema Schema(KeyType partition, std::optional<KeyType> sort) {
  KeySchema schema;
  schema.partition = {"pk", partition};
  if (sort) schema.sort = KeyAttribute{"sk", *sort};
  return schema;
}

// Runs `body(thread_index)` on `n` threads released together.
template <typename Body>
void RunThreads(int n, Body body) {
  std::latch start(n);
  std::vector<std::thread> threads;
  for (int i = 0; i < n; ++i) {
    threads.emplace_back([&, i] {
      start.arrive_and_wait();
      body(i);
    });
  }
  for (std::thread& t : threads) t.join();
}

int64_t ToInt(const Value& v) { return std::stoll(v.as_number().ToString()); }

TEST(DatabaseConcurrentTest, AddFromSeveralThreadsSumsExactly) {
  Database db(DatabaseOptions{.stripes_per_table = 4});
  ASSERT_TRUE(
      db.CreateTable(SimpleTable("Counters", Schema(KeyType::kString, KeyType::kNumber))).ok());
  constexpr int kThreads = 4;
  constexpr int kIterations = 2000;
  constexpr int kKeys = 3;  // every thread hits every key
  RunThreads(kThreads, [&](int t) {
    for (int i = 0; i < kIterations; ++i) {
      const int k = (i + t) % kKeys;
      UpdateItemRequest request{
          .table_name = "Counters",
          .key = Item{{"pk", "c"}, {"sk", k}},
          .update_expression = "ADD n :one, m :two",
          .expression_attribute_values = AttributeMap{{":one", 1}, {":two", 2}}};
      if (i % 5 == 0) request.return_values = ReturnValue::kUpdatedNew;
      auto result = db.UpdateItem(request);
      ASSERT_TRUE(result.ok()) << result.status().ToString();
      if (i % 5 == 0) {
        // UPDATED_NEW is the state right after this very update: n and m moved together.
        ASSERT_TRUE(result->attributes.has_value());
        EXPECT_EQ(2 * ToInt(result->attributes->at("n")), ToInt(result->attributes->at("m")));
      }
    }
  });
  int64_t total = 0;
  for (int k = 0; k < kKeys; ++k) {
    auto got = db.GetItem(
        {.table_name = "Counters", .key = Item{{"pk", "c"}, {"sk", k}}, .consistent_read = true});
    ASSERT_TRUE(got.ok() && got->item.has_value());
    EXPECT_EQ(2 * ToInt(got->item->at("n")), ToInt(got->item->at("m")));
    total += ToInt(got->item->at("n"));
  }
  EXPECT_EQ(total, kThreads * kIterations);
}

// Optimistic concurrency: read v, then SET v = v + 1 only if v is still what was read. Every
// successful update must be counted exactly once in the final v (a condition checked outside
// the write's lock would let two threads succeed from the same v).
TEST(DatabaseConcurrentTest, ConditionalUpdatesAreAtomic) {
  Database db;
  ASSERT_TRUE(db.CreateTable(SimpleTable("Versions", Schema(KeyType::kString, std::nullopt))).ok());
  ASSERT_TRUE(db.PutItem({.table_name = "Versions", .item = Item{{"pk", "x"}, {"v", 0}}}).ok());
  std::atomic<int> successes{0};
  std::atomic<int> conflicts{0};
  RunThreads(3, [&](int t) {
    for (int i = 0; i < 400; ++i) {
      auto read =
          db.GetItem({.table_name = "Versions", .key = Item{{"pk", "x"}}, .consistent_read = true});
      ASSERT_TRUE(read.ok() && read->item.has_value());
      const Value old = read->item->at("v");
      auto updated =
          db.UpdateItem({.table_name = "Versions",
                         .key = Item{{"pk", "x"}},
                         .update_expression = "SET v = v + :one",
                         .condition_expression = "v = :old",
                         .expression_attribute_values = AttributeMap{{":one", 1}, {":old", old}}});
      if (updated.ok()) {
        ++successes;
      } else {
        ASSERT_EQ(updated.status().code(), Code::kConditionalCheckFailed);
        ++conflicts;
      }
    }
  });
  auto final_item = db.GetItem({.table_name = "Versions", .key = Item{{"pk", "x"}}});
  ASSERT_TRUE(final_item.ok() && final_item->item.has_value());
  EXPECT_EQ(ToInt(final_item->item->at("v")), successes.load());
  EXPECT_EQ(successes.load() + conflicts.load(), 3 * 400);
}

// ---- Torn items ----------------------------------------------------------------------------

constexpr const char* kTornAttributes[] = {"a", "b", "c", "d"};

// A writer's value: distinct per writer, and of a distinct length.
Value WriterValue(int writer) { return Value(std::string(40 + 30 * writer, 'A' + writer)); }

Item WriterItem(const Item& key, int writer) {
  Item item = key;
  for (const char* name : kTornAttributes) item.insert_or_assign(name, WriterValue(writer));
  return item;
}

// Whether a, b, c and d are present and all equal (one writer's item, whole).
bool Whole(const Item& item) {
  auto a = item.find("a");
  if (a == item.end()) return false;
  for (const char* name : kTornAttributes) {
    auto it = item.find(name);
    if (it == item.end() || !(it->second == a->second)) return false;
  }
  return true;
}

TEST(DatabaseConcurrentTest, ReadersNeverSeeTornItems) {
  Database db(DatabaseOptions{.stripes_per_table = 2});
  ASSERT_TRUE(db.CreateTable(SimpleTable("Torn", Schema(KeyType::kString, KeyType::kString))).ok());
  constexpr int kWriters = 2;
  constexpr int kReaders = 2;
  constexpr int kWrites = 2000;
  const std::vector<std::string> partitions = {"p0", "p1"};
  const std::vector<std::string> sorts = {"s0", "s1", "s2", "s3", "s4"};
  std::atomic<int> writers_left{kWriters};
  std::atomic<int64_t> items_read{0};
  RunThreads(kWriters + kReaders, [&](int t) {
    std::mt19937_64 rng(static_cast<uint64_t>(t) * 7919);
    auto pick = [&](const std::vector<std::string>& v) { return v[rng() % v.size()]; };
    if (t < kWriters) {
      for (int i = 0; i < kWrites; ++i) {
        const Item key{{"pk", pick(partitions)}, {"sk", pick(sorts)}};
        bool ok = true;
        switch (rng() % 5) {
          case 0:
          case 1:
            ok = db.PutItem({.table_name = "Torn", .item = WriterItem(key, t)}).ok();
            break;
          case 2: {
            UpdateItemRequest update{
                .table_name = "Torn",
                .key = key,
                .update_expression = "SET a = :w, b = :w, c = :w, d = :w",
                .expression_attribute_values = AttributeMap{{":w", WriterValue(t)}}};
            ok = db.UpdateItem(update).ok();
            break;
          }
          case 3:
            ok = db.DeleteItem({.table_name = "Torn", .key = key}).ok();
            break;
          default: {
            BatchWriteItemRequest batch;
            std::vector<WriteRequest> writes;
            for (const char* sk : {"s0", "s3"}) {
              writes.push_back({.kind = WriteRequest::Kind::kPut,
                                .item = WriterItem(Item{{"pk", key.at("pk")}, {"sk", sk}}, t)});
            }
            batch.request_items.emplace_back("Torn", std::move(writes));
            ok = db.BatchWriteItem(batch).ok();
            break;
          }
        }
        EXPECT_TRUE(ok) << "writer " << t << " op " << i;
        if (!ok) break;
      }
      --writers_left;
      return;
    }
    // Readers: until the writers are done, and at least a few rounds.
    for (int round = 0; round < 20 || writers_left.load() > 0; ++round) {
      const std::string pk = pick(partitions);
      auto got = db.GetItem({.table_name = "Torn",
                             .key = Item{{"pk", pk}, {"sk", pick(sorts)}},
                             .consistent_read = (round % 2) == 0});
      ASSERT_TRUE(got.ok()) << got.status().ToString();
      if (got->item) {
        EXPECT_TRUE(Whole(*got->item)) << "GetItem: " << DebugString(Value(*got->item));
      }
      KeysAndAttributes keys;
      for (const std::string& sk : sorts) keys.keys.push_back(Item{{"pk", pk}, {"sk", sk}});
      BatchGetItemRequest batch_get;
      batch_get.request_items.emplace_back("Torn", std::move(keys));
      auto batch = db.BatchGetItem(batch_get);
      ASSERT_TRUE(batch.ok()) << batch.status().ToString();
      for (const auto& [table, items] : batch->responses) {
        for (const Item& item : items) {
          EXPECT_TRUE(Whole(item)) << "BatchGetItem: " << DebugString(Value(item));
        }
      }
      QueryRequest query{.table_name = "Torn",
                         .key_condition_expression = "pk = :p",
                         .expression_attribute_values = AttributeMap{{":p", pk}},
                         .scan_index_forward = (round % 3) != 0};
      auto page = db.Query(query);
      ASSERT_TRUE(page.ok()) << page.status().ToString();
      for (size_t i = 0; i < page->items.size(); ++i) {
        const Item& item = page->items[i];
        EXPECT_TRUE(Whole(item)) << "Query: " << DebugString(Value(item));
        if (i > 0) {  // one consistent, ordered view of the collection
          const auto c = Compare(page->items[i - 1].at("sk"), item.at("sk"));
          EXPECT_TRUE(*query.scan_index_forward ? c < 0 : c > 0);
        }
      }
      ScanRequest scan{.table_name = "Torn", .limit = 3};
      for (int p = 0; p < 100; ++p) {
        auto scanned = db.Scan(scan);
        ASSERT_TRUE(scanned.ok()) << scanned.status().ToString();
        for (const Item& item : scanned->items) {
          EXPECT_TRUE(Whole(item)) << "Scan: " << DebugString(Value(item));
        }
        items_read += static_cast<int64_t>(scanned->items.size() + page->items.size());
        if (!scanned->last_evaluated_key) break;
        scan.exclusive_start_key = scanned->last_evaluated_key;
      }
      if (::testing::Test::HasFailure()) return;
    }
  });
  EXPECT_GT(items_read.load(), 0);
}

// ---- Table lifecycle -----------------------------------------------------------------------

TEST(DatabaseConcurrentTest, CreateDeleteDescribeRaceWithItemOperations) {
  Database db;
  const KeySchema schema = Schema(KeyType::kString, std::nullopt);
  ASSERT_TRUE(db.CreateTable(SimpleTable("Stable", schema)).ok());
  // A table deleted while a caller holds it: operations through the pointer keep working.
  ASSERT_TRUE(db.CreateTable(SimpleTable("Orphan", schema)).ok());
  auto orphan = internal::GetTable(db, "Orphan");
  ASSERT_TRUE(orphan.ok());
  constexpr int kCycles = 150;
  constexpr int kUserOps = 400;
  std::atomic<bool> admin_done{false};
  std::atomic<int> stable_adds{0};
  RunThreads(3, [&](int t) {
    if (t == 0) {  // admin: create / describe / delete "Churn" over and over
      for (int i = 0; i < kCycles; ++i) {
        auto created = db.CreateTable(SimpleTable("Churn", schema));
        ASSERT_TRUE(created.ok()) << created.status().ToString();
        EXPECT_EQ(created->table_description.table_status, TableStatus::kCreating);
        auto described = db.DescribeTable({.table_name = "Churn"});
        ASSERT_TRUE(described.ok()) << described.status().ToString();
        EXPECT_EQ(described->table.table_status, TableStatus::kActive);
        auto again = db.CreateTable(SimpleTable("Churn", schema));
        EXPECT_EQ(again.status().code(), Code::kResourceInUse);
        if (i == kCycles / 2) {
          EXPECT_TRUE(db.DeleteTable({.table_name = "Orphan"}).ok());
        }
        auto deleted = db.DeleteTable({.table_name = "Churn"});
        ASSERT_TRUE(deleted.ok()) << deleted.status().ToString();
        EXPECT_EQ(deleted->table_description.table_status, TableStatus::kDeleting);
        EXPECT_EQ(db.GetItem({.table_name = "Churn", .key = Item{{"pk", "k"}}}).status().code(),
                  Code::kResourceNotFound);
        EXPECT_EQ(db.DeleteTable({.table_name = "Churn"}).status().code(), Code::kResourceNotFound);
      }
      admin_done = true;
      return;
    }
    // Users: item operations on "Churn" succeed or find no table; "Stable" and the orphan always
    // work.
    for (int i = 0; i < kUserOps || !admin_done.load(); ++i) {
      const std::string key = "k" + std::to_string(i % 7);
      auto expect_ok_or_missing = [&](const Status& status, const char* what) {
        EXPECT_TRUE(status.ok() || status.code() == Code::kResourceNotFound)
            << what << ": " << status.ToString();
      };
      expect_ok_or_missing(
          db.PutItem({.table_name = "Churn", .item = Item{{"pk", key}, {"t", t}}}).status(),
          "PutItem");
      auto got = db.GetItem({.table_name = "Churn", .key = Item{{"pk", key}}});
      expect_ok_or_missing(got.status(), "GetItem");
      auto described = db.DescribeTable({.table_name = "Churn"});
      expect_ok_or_missing(described.status(), "DescribeTable");
      if (described.ok()) {
        EXPECT_EQ(described->table.table_name, "Churn");
      }
      expect_ok_or_missing(db.Scan({.table_name = "Churn", .limit = 5}).status(), "Scan");
      EXPECT_TRUE(db.ListTables({}).ok());
      auto added = db.UpdateItem({.table_name = "Stable",
                                  .key = Item{{"pk", "counter"}},
                                  .update_expression = "ADD n :one",
                                  .expression_attribute_values = AttributeMap{{":one", 1}}});
      EXPECT_TRUE(added.ok()) << added.status().ToString();
      ++stable_adds;
      EXPECT_TRUE((*orphan)->PutItem({.item = Item{{"pk", key}, {"t", t}}}).ok());
      EXPECT_TRUE((*orphan)->GetItem({.key = Item{{"pk", key}}}).ok());
      if (::testing::Test::HasFailure()) return;
    }
  });
  auto counter = db.GetItem({.table_name = "Stable", .key = Item{{"pk", "counter"}}});
  ASSERT_TRUE(counter.ok() && counter->item.has_value());
  EXPECT_EQ(ToInt(counter->item->at("n")), stable_adds.load());
  EXPECT_EQ(db.DescribeTable({.table_name = "Orphan"}).status().code(), Code::kResourceNotFound);
  EXPECT_EQ((*orphan)->item_count(), 7);
}

// ---- Scans racing with new partition keys --------------------------------------------------

TEST(DatabaseConcurrentTest, ScanSeesEachUntouchedItemOnceWhileKeysComeAndGo) {
  Database db(DatabaseOptions{.stripes_per_table = 8});
  ASSERT_TRUE(db.CreateTable(SimpleTable("Race", Schema(KeyType::kString, KeyType::kNumber))).ok());
  constexpr int kOld = 150;  // pre-existing partition keys, two items each
  for (int i = 0; i < kOld; ++i) {
    for (int s = 0; s < 2; ++s) {
      ASSERT_TRUE(db.PutItem({.table_name = "Race",
                              .item = Item{{"pk", "old#" + std::to_string(i)}, {"sk", s}}})
                      .ok());
    }
  }
  constexpr int kScanners = 2;
  constexpr int kScansEach = 10;
  constexpr int kKept = 20;  // new#0 .. new#19 are inserted before the scans and never deleted
  std::atomic<int> scanners_left{kScanners};
  std::atomic<int> inserted{0};
  RunThreads(kScanners + 1, [&](int t) {
    if (t == kScanners) {  // inserts new partition keys and deletes them again, until done
      for (int n = 0; scanners_left.load() > 0 && n < 200000; ++n) {
        EXPECT_TRUE(db.PutItem({.table_name = "Race",
                                .item = Item{{"pk", "new#" + std::to_string(n)}, {"sk", 0}}})
                        .ok());
        if (n >= 2 * kKept) {
          EXPECT_TRUE(
              db.DeleteItem({.table_name = "Race",
                             .key = Item{{"pk", "new#" + std::to_string(n - kKept)}, {"sk", 0}}})
                  .ok());
        }
        inserted.store(n + 1);
      }
      return;
    }
    while (inserted.load() < kKept) std::this_thread::yield();
    std::mt19937_64 rng(static_cast<uint64_t>(t) + 1);
    for (int round = 0; round < kScansEach; ++round) {
      const int total = 1 + static_cast<int>(rng() % 4);
      const int32_t limit = 1 + static_cast<int32_t>(rng() % 40);
      std::map<std::string, int> seen;  // "pk/sk" -> times
      for (int segment = 0; segment < total; ++segment) {
        ScanRequest scan{.table_name = "Race", .limit = limit};
        if (total > 1) {
          scan.segment = segment;
          scan.total_segments = total;
        }
        for (int page = 0; page < 100000; ++page) {
          auto got = db.Scan(scan);
          ASSERT_TRUE(got.ok()) << got.status().ToString();
          for (const Item& item : got->items) {
            ++seen[item.at("pk").as_string() + "/" + item.at("sk").as_number().ToString()];
          }
          if (!got->last_evaluated_key) break;
          scan.exclusive_start_key = got->last_evaluated_key;
        }
      }
      // Every key is seen at most once; the untouched ones exactly once.
      int untouched = 0;
      for (const auto& [key, times] : seen) {
        EXPECT_EQ(times, 1) << key << " (segments " << total << ", limit " << limit << ")";
        const bool kept = key.starts_with("new#") && std::stoi(key.substr(4)) < kKept;
        if (key.starts_with("old#") || kept) ++untouched;
      }
      EXPECT_EQ(untouched, 2 * kOld + kKept) << "segments " << total << ", limit " << limit;
      if (::testing::Test::HasFailure()) break;
    }
    --scanners_left;
  });
}

// ---- Query racing with inserts into its own collection -------------------------------------

TEST(DatabaseConcurrentTest, PagedQueryWhileItsCollectionGrows) {
  Database db(DatabaseOptions{.stripes_per_table = 1});
  ASSERT_TRUE(db.CreateTable(SimpleTable("Grow", Schema(KeyType::kString, KeyType::kNumber))).ok());
  // Sort keys inserted in a random order, so inserts land everywhere in the collection and its
  // segments split (past 512 items) while queries page through it.
  constexpr int kItems = 1500;
  std::vector<int> order(kItems);
  for (int i = 0; i < kItems; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937_64(42));
  std::atomic<int> inserted{0};
  RunThreads(3, [&](int t) {
    if (t == 0) {
      for (int i = 0; i < kItems; ++i) {
        EXPECT_TRUE(
            db.PutItem({.table_name = "Grow", .item = Item{{"pk", "p"}, {"sk", order[i]}}}).ok());
        inserted.store(i + 1);
      }
      return;
    }
    const bool forward = t == 1;
    while (true) {
      const int before = inserted.load();
      QueryRequest query{.table_name = "Grow",
                         .key_condition_expression = "pk = :p",
                         .expression_attribute_values = AttributeMap{{":p", "p"}},
                         .limit = 97,
                         .scan_index_forward = forward};
      std::vector<int> seen;
      for (int page = 0; page < 10000; ++page) {
        auto got = db.Query(query);
        ASSERT_TRUE(got.ok()) << got.status().ToString();
        for (const Item& item : got->items) {
          seen.push_back(static_cast<int>(ToInt(item.at("sk"))));
        }
        if (!got->last_evaluated_key) break;
        query.exclusive_start_key = got->last_evaluated_key;
      }
      // Strictly ordered across pages (no repeats, nothing out of place)...
      for (size_t i = 1; i < seen.size(); ++i) {
        ASSERT_TRUE(forward ? seen[i - 1] < seen[i] : seen[i - 1] > seen[i])
            << "positions " << i - 1 << ", " << i << ": " << seen[i - 1] << ", " << seen[i];
      }
      // ...and every item inserted before the query began is there.
      std::vector<int> expected(order.begin(), order.begin() + before);
      std::sort(expected.begin(), expected.end());
      std::vector<int> got_sorted = seen;
      std::sort(got_sorted.begin(), got_sorted.end());
      ASSERT_TRUE(
          std::includes(got_sorted.begin(), got_sorted.end(), expected.begin(), expected.end()))
          << "a query that began after " << before << " inserts missed some of them";
      if (before == kItems) break;
    }
  });
}

}  // namespace
}  // namespace partstore
