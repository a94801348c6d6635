// Concurrency tests of secondary indexes: writers move items between index keys (and in and out
// of sparse indexes) while readers query and scan the indexes. CI runs them under
// ThreadSanitizer (`ctest -R Concurrent`), so every test name contains "Concurrent" and each
// stays under ~3 s there. Checked:
//   - no torn entries: every write gives all of an item's non-key attributes (index keys
//     included) values derived from one version number unique to that write, so an entry whose
//     attributes disagree about the version mixes two writes (or an index key with another
//     write's projected attributes);
//   - an entry is found under the index key its attributes name, pages are in index order, and
//     one page holds at most one entry per item and index partition (maintenance removes the old
//     entry before it puts the new one, under the base item's lock; a partition is read under
//     one stripe lock);
//   - at quiescence every index equals its recomputation from a Scan of the base table
//     (ModelIndex, index_model.h): Scans of the index (each entry once) and Queries of each
//     index partition (order included), and DescribeTable's per-index ItemCount.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <iostream>
#include <latch>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "partstore/database.h"
#include "partstore/item.h"
#include "partstore/value.h"
#include "tests/shard/index_model.h"

namespace partstore {
namespace {

using testing::ModelIndex;
using testing::ModelIndexSpec;
using testing::Show;

constexpr char kMovingTable[] = "Moving";

template <typename Body>
void RunIndexThreads(int n, Body body) {
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

int64_t IndexToInt(const Value& v) { return std::stoll(v.as_number().ToString()); }

// ---- Versions --------------------------------------------------------------------------------
//
// Version v of an item: a = b = c = v, ts = ls = v (N), st = "S<v % 3>" (absent when v % 5 == 0:
// the item leaves the sparse index byState), ow = "O<v % 2>".

constexpr int kStates = 3;
constexpr int kOwners = 2;

std::string State(int64_t v) { return "S" + std::to_string(v % kStates); }
std::string Owner(int64_t v) { return "O" + std::to_string(v % kOwners); }
bool HasState(int64_t v) { return v % 5 != 0; }

Item VersionedItem(const Item& key, int64_t v) {
  Item item = key;
  for (const char* name : {"a", "b", "c", "ts", "ls"}) item.insert_or_assign(name, Value(v));
  if (HasState(v)) item.insert_or_assign("st", Value(State(v)));
  item.insert_or_assign("ow", Value(Owner(v)));
  return item;
}

// The version all of `item`'s attributes agree on, or nullopt (with the reason in `why`) when
// they do not. `whole`: every version attribute must be present (a base item; an ALL entry).
std::optional<int64_t> VersionOf(const Item& item, bool whole, std::string* why) {
  std::optional<int64_t> v;
  for (const char* name : {"a", "b", "c", "ts", "ls"}) {
    auto it = item.find(name);
    if (it == item.end()) {
      if (whole) {
        *why = std::string("missing ") + name;
        return std::nullopt;
      }
      continue;
    }
    const int64_t x = IndexToInt(it->second);
    if (v && *v != x) {
      *why = std::string("attribute ") + name + " of another version";
      return std::nullopt;
    }
    v = x;
  }
  if (!v) {
    *why = "no version attribute";
    return std::nullopt;
  }
  if (auto it = item.find("st"); it != item.end() && it->second.as_string() != State(*v)) {
    *why = "st of another version";
    return std::nullopt;
  }
  if (whole && item.contains("st") != HasState(*v)) {
    *why = "st present or absent against the version";
    return std::nullopt;
  }
  if (auto it = item.find("ow"); it != item.end() && it->second.as_string() != Owner(*v)) {
    *why = "ow of another version";
    return std::nullopt;
  }
  return v;
}

KeySchema TableKey() {
  KeySchema key;
  key.partition = {"pk", KeyType::kString};
  key.sort = KeyAttribute{"sk", KeyType::kString};
  return key;
}

// byState: st / ts, INCLUDE a, b (sparse). byOwner: ow, no sort key, ALL. byLs (LSI): ls, INCLUDE
// c. byTsKeys: ts / pk, KEYS_ONLY.
std::vector<ModelIndexSpec> Specs() {
  return {
      {.name = "byState",
       .global = true,
       .partition = {"st", KeyType::kString},
       .sort = KeyAttribute{"ts", KeyType::kNumber},
       .projection = ProjectionType::kInclude,
       .include = {"a", "b"}},
      {.name = "byOwner",
       .global = true,
       .partition = {"ow", KeyType::kString},
       .projection = ProjectionType::kAll},
      {.name = "byLs",
       .global = false,
       .partition = {"pk", KeyType::kString},
       .sort = KeyAttribute{"ls", KeyType::kNumber},
       .projection = ProjectionType::kInclude,
       .include = {"c"}},
  };
}

CreateTableRequest CreateRequest() {
  CreateTableRequest request{.table_name = kMovingTable};
  request.billing_mode = BillingMode::kPayPerRequest;
  request.attribute_definitions = {{"pk", KeyType::kString}, {"sk", KeyType::kString},
                                   {"st", KeyType::kString}, {"ts", KeyType::kNumber},
                                   {"ow", KeyType::kString}, {"ls", KeyType::kNumber}};
  request.key_schema = {{"pk", KeyRoleName::kHash}, {"sk", KeyRoleName::kRange}};
  for (const ModelIndexSpec& spec : Specs()) {
    std::vector<KeySchemaElement> key{{spec.partition.name, KeyRoleName::kHash}};
    if (spec.sort) key.push_back({spec.sort->name, KeyRoleName::kRange});
    Projection projection{.projection_type = spec.projection};
    if (spec.projection == ProjectionType::kInclude) projection.non_key_attributes = spec.include;
    if (spec.global) {
      request.global_secondary_indexes.push_back(
          {.index_name = spec.name, .key_schema = key, .projection = projection});
    } else {
      request.local_secondary_indexes.push_back(
          {.index_name = spec.name, .key_schema = key, .projection = projection});
    }
  }
  return request;
}

const std::vector<std::string> kPartitions = {"p0", "p1", "p2"};
const std::vector<std::string> kSorts = {"s0", "s1", "s2", "s3"};

// One writer's operation on a random key, with version `v`.
bool WriteOnce(Database& db, std::mt19937_64& rng, int64_t v) {
  auto pick = [&](const std::vector<std::string>& from) { return from[rng() % from.size()]; };
  const Item key{{"pk", pick(kPartitions)}, {"sk", pick(kSorts)}};
  switch (rng() % 8) {
    case 0:
    case 1:
    case 2:
      return db.PutItem({.table_name = kMovingTable, .item = VersionedItem(key, v)}).ok();
    case 3:
    case 4:
    case 5: {
      // Every version attribute at once; st removed when the version has none.
      UpdateItemRequest update{.table_name = kMovingTable, .key = key};
      AttributeMap values{{":v", Value(v)}, {":ow", Value(Owner(v))}};
      std::string text = "SET a = :v, b = :v, c = :v, ts = :v, ls = :v, ow = :ow";
      if (HasState(v)) {
        text += ", st = :st";
        values[":st"] = Value(State(v));
      } else {
        text += " REMOVE st";
      }
      update.update_expression = text;
      update.expression_attribute_values = values;
      return db.UpdateItem(update).ok();
    }
    case 6:
      return db.DeleteItem({.table_name = kMovingTable, .key = key}).ok();
    default: {
      BatchWriteItemRequest batch;
      std::vector<WriteRequest> writes;
      for (const std::string& sk : {std::string("s0"), std::string("s3")}) {
        writes.push_back({.kind = WriteRequest::Kind::kPut,
                          .item = VersionedItem(Item{{"pk", key.at("pk")}, {"sk", sk}}, v)});
      }
      batch.request_items.emplace_back(kMovingTable, std::move(writes));
      return db.BatchWriteItem(batch).ok();
    }
  }
}

// Checks one page of an index read: every entry consistent, under the queried partition, in
// order, each item at most once.
void CheckPage(const ModelIndex& index, const std::optional<Value>& partition, bool forward,
               const std::vector<Item>& items, bool fetched) {
  std::set<std::pair<std::string, std::string>> items_seen;
  for (size_t i = 0; i < items.size(); ++i) {
    const Item& entry = items[i];
    std::string why;
    const bool whole = fetched || index.spec().projection == ProjectionType::kAll;
    ASSERT_TRUE(VersionOf(entry, whole, &why).has_value())
        << index.name() << " entry " << Show(entry) << ": " << why;
    if (!fetched) {
      for (const KeyAttribute* a : index.KeyAttributes()) {
        ASSERT_TRUE(entry.contains(a->name)) << index.name() << " entry without " << a->name;
      }
      EXPECT_TRUE(index.Project(entry) == entry) << "not a projection: " << Show(entry);
    }
    if (partition) {
      EXPECT_TRUE(entry.at(index.spec().partition.name) == *partition)
          << index.name() << " entry " << Show(entry) << " under " << DebugString(*partition);
    }
    // One index partition is read under one stripe lock, so an item is in it at most once per
    // page. (A Scan page of several stripes may meet an item twice, in two partitions: it moved
    // from a stripe the page had not reached yet to one it had.)
    const std::string where =
        fetched ? std::string() : DebugString(entry.at(index.spec().partition.name));
    EXPECT_TRUE(
        items_seen.emplace(where + "|" + entry.at("pk").as_string(), entry.at("sk").as_string())
            .second)
        << index.name() << ": item twice in one page of one partition: " << Show(entry);
    if (i > 0 && partition && !fetched) {
      const Item& before = forward ? items[i - 1] : entry;
      const Item& after = forward ? entry : items[i - 1];
      EXPECT_TRUE(index.Before(before, after))
          << index.name() << " out of order: " << Show(items[i - 1]) << " then " << Show(entry);
    }
  }
}

// Every index equals its recomputation from the base table.
void ExpectIndexesMatchBase(Database& db) {
  std::vector<Item> base;
  ScanRequest scan{.table_name = kMovingTable};
  for (;;) {
    auto page = db.Scan(scan);
    ASSERT_TRUE(page.ok()) << page.status().ToString();
    base.insert(base.end(), page->items.begin(), page->items.end());
    if (!page->last_evaluated_key) break;
    scan.exclusive_start_key = page->last_evaluated_key;
  }
  for (const Item& item : base) {
    std::string why;
    ASSERT_TRUE(VersionOf(item, true, &why).has_value())
        << "torn base item " << Show(item) << ": " << why;
  }
  auto described = db.DescribeTable({.table_name = kMovingTable});
  ASSERT_TRUE(described.ok());
  for (const ModelIndexSpec& spec : Specs()) {
    SCOPED_TRACE("index " + spec.name);
    const ModelIndex index(spec, TableKey());
    const ModelIndex::Partitions want = index.Build(base);
    // Scan of the index, in 3 segments with a Limit: the same set.
    std::map<std::pair<std::string, std::string>, Item> want_entries, got_entries;
    for (const auto& [partition, entries] : want) {
      for (const Item& e : entries)
        want_entries[{e.at("pk").as_string(), e.at("sk").as_string()}] = e;
    }
    for (int segment = 0; segment < 3; ++segment) {
      ScanRequest request{.table_name = kMovingTable,
                          .index_name = spec.name,
                          .limit = 3,
                          .segment = segment,
                          .total_segments = 3};
      for (;;) {
        auto page = db.Scan(request);
        ASSERT_TRUE(page.ok()) << page.status().ToString();
        for (const Item& e : page->items) {
          EXPECT_TRUE(
              got_entries.emplace(std::make_pair(e.at("pk").as_string(), e.at("sk").as_string()), e)
                  .second)
              << "scanned twice: " << Show(e);
        }
        if (!page->last_evaluated_key) break;
        request.exclusive_start_key = page->last_evaluated_key;
      }
    }
    EXPECT_EQ(got_entries.size(), want_entries.size());
    EXPECT_TRUE(got_entries == want_entries) << "index Scan differs from the recomputed index";
    // Each partition by Query: the same entries in the same order.
    for (const auto& [partition, entries] : want) {
      auto got = db.Query({.table_name = kMovingTable,
                           .index_name = spec.name,
                           .key_condition_expression = "#p = :p",
                           .expression_attribute_names = expr::NameMap{{"#p", spec.partition.name}},
                           .expression_attribute_values = AttributeMap{{":p", partition}}});
      ASSERT_TRUE(got.ok()) << got.status().ToString();
      ASSERT_EQ(got->items.size(), entries.size()) << "partition " << DebugString(partition);
      for (size_t i = 0; i < entries.size(); ++i) {
        EXPECT_TRUE(got->items[i] == entries[i])
            << "partition " << DebugString(partition) << " entry " << i
            << "\n  engine: " << Show(got->items[i]) << "\n  model:  " << Show(entries[i]);
      }
    }
    int64_t described_count = -1;
    for (const auto& d : described->table.global_secondary_indexes) {
      if (d.index_name == spec.name) described_count = d.item_count;
    }
    for (const auto& d : described->table.local_secondary_indexes) {
      if (d.index_name == spec.name) described_count = d.item_count;
    }
    EXPECT_EQ(described_count, static_cast<int64_t>(want_entries.size()));
  }
}

// Writers move items between index keys (and in and out of the sparse index) while readers
// Query every index (paged, both directions, LSI fetches included) and Scan them; at quiescence
// every index is its recomputation from the base table. Several rounds, each ending quiescent.
TEST(IndexConcurrentTest, ReadersSeeOnlyCommittedEntriesWhileWritersMoveItems) {
  constexpr int kWriters = 3;
  constexpr int kReaders = 2;
  constexpr int kRounds = 3;
  constexpr int kWritesPerRound = 400;
  for (size_t stripes : {size_t{1}, size_t{8}}) {
    SCOPED_TRACE("stripes " + std::to_string(stripes));
    Database db(DatabaseOptions{.stripes_per_table = stripes});
    auto created = db.CreateTable(CreateRequest());
    ASSERT_TRUE(created.ok()) << created.status().ToString();
    std::vector<ModelIndex> indexes;
    for (const ModelIndexSpec& spec : Specs()) indexes.emplace_back(spec, TableKey());
    std::atomic<int64_t> entries_read{0};
    std::atomic<int64_t> pages_read{0};
    for (int round = 0; round < kRounds; ++round) {
      SCOPED_TRACE("round " + std::to_string(round));
      std::atomic<int> writers_left{kWriters};
      RunIndexThreads(kWriters + kReaders, [&](int t) {
        std::mt19937_64 rng(static_cast<uint64_t>(t * 7919 + round * 104729 + stripes));
        if (t < kWriters) {
          for (int i = 0; i < kWritesPerRound; ++i) {
            // Unique per write: writer, round, write.
            const int64_t v = (static_cast<int64_t>(t + 1) * 100 + round) * 100000 + i;
            const bool ok = WriteOnce(db, rng, v);
            EXPECT_TRUE(ok) << "writer " << t << " write " << i;
            if (!ok) break;
          }
          --writers_left;
          return;
        }
        while (writers_left.load() > 0 && !::testing::Test::HasFailure()) {
          const ModelIndex& index = indexes[rng() % indexes.size()];
          if (rng() % 6 == 0) {
            // A Scan page of the index (no partition to check, order is hash order).
            ScanRequest request{.table_name = kMovingTable,
                                .index_name = index.name(),
                                .limit = static_cast<int32_t>(1 + rng() % 6)};
            for (int page = 0; page < 50; ++page) {
              auto got = db.Scan(request);
              ASSERT_TRUE(got.ok()) << got.status().ToString();
              CheckPage(index, std::nullopt, true, got->items, false);
              entries_read += static_cast<int64_t>(got->items.size());
              ++pages_read;
              if (!got->last_evaluated_key) break;
              request.exclusive_start_key = got->last_evaluated_key;
            }
            continue;
          }
          Value partition;
          const std::string& name = index.spec().partition.name;
          if (name == "st")
            partition = Value("S" + std::to_string(rng() % kStates));
          else if (name == "ow")
            partition = Value("O" + std::to_string(rng() % kOwners));
          else
            partition = Value(kPartitions[rng() % kPartitions.size()]);
          QueryRequest request{.table_name = kMovingTable,
                               .index_name = index.name(),
                               .key_condition_expression = "#p = :p",
                               .expression_attribute_names = expr::NameMap{{"#p", name}},
                               .expression_attribute_values = AttributeMap{{":p", partition}}};
          if (rng() % 2 == 0) request.limit = static_cast<int32_t>(1 + rng() % 5);
          const bool forward = rng() % 2 == 0;
          request.scan_index_forward = forward;
          // The LSI: sometimes ALL_ATTRIBUTES (entries carry only c: the base items are fetched)
          // and sometimes strongly consistent.
          const bool fetch = !index.global() && rng() % 3 == 0;
          if (fetch) request.select = Select::kAllAttributes;
          if (!index.global()) request.consistent_read = rng() % 2 == 0;
          for (int page = 0; page < 50; ++page) {
            auto got = db.Query(request);
            ASSERT_TRUE(got.ok()) << got.status().ToString();
            CheckPage(index, partition, forward, got->items, fetch);
            entries_read += static_cast<int64_t>(got->items.size());
            ++pages_read;
            if (::testing::Test::HasFailure() || !got->last_evaluated_key) break;
            request.exclusive_start_key = got->last_evaluated_key;
          }
        }
      });
      if (::testing::Test::HasFailure()) return;
      ExpectIndexesMatchBase(db);
      if (::testing::Test::HasFailure()) return;
    }
    EXPECT_GT(entries_read.load(), 0);
    std::cout << "stripes " << stripes << ": " << pages_read.load() << " index pages, "
              << entries_read.load() << " entries read\n";
  }
}

// Writers race on few keys that all share one GSI partition and hop between few index sort key
// values, so entries of one partition are erased and inserted under readers' feet; a reader
// paging through the partition sees each entry consistent and pages in order; at quiescence the
// index is the recomputation. (The GSI without a sort key orders by table key alone.)
TEST(IndexConcurrentTest, OnePartitionChurnsUnderPagingReaders) {
  Database db(DatabaseOptions{.stripes_per_table = 4});
  ASSERT_TRUE(db.CreateTable(CreateRequest()).ok());
  std::vector<ModelIndex> indexes;
  for (const ModelIndexSpec& spec : Specs()) indexes.emplace_back(spec, TableKey());
  std::atomic<int> writers_left{2};
  RunIndexThreads(4, [&](int t) {
    std::mt19937_64 rng(static_cast<uint64_t>(t) * 31337);
    if (t < 2) {
      for (int i = 0; i < 800; ++i) {
        // Versions 3k+1 stay in S1 (and never miss st unless v % 5 == 0); ts hops.
        const int64_t v = ((t + 1) * 1000000 + i) * kStates + 1;
        const Item key{{"pk", "p0"}, {"sk", kSorts[rng() % kSorts.size()]}};
        const bool ok =
            rng() % 4 == 0 ? db.DeleteItem({.table_name = kMovingTable, .key = key}).ok()
                           : db.PutItem({.table_name = kMovingTable, .item = VersionedItem(key, v)}).ok();
        EXPECT_TRUE(ok);
        if (!ok) break;
      }
      --writers_left;
      return;
    }
    while (writers_left.load() > 0 && !::testing::Test::HasFailure()) {
      const ModelIndex& index = indexes[t == 2 ? 0 : 1];  // byState, byOwner
      const Value partition = t == 2 ? Value("S1") : Value("O" + std::to_string(rng() % kOwners));
      QueryRequest request{
          .table_name = kMovingTable,
          .index_name = index.name(),
          .key_condition_expression = "#p = :p",
          .expression_attribute_names = expr::NameMap{{"#p", index.spec().partition.name}},
          .expression_attribute_values = AttributeMap{{":p", partition}},
          .limit = static_cast<int32_t>(1 + rng() % 3)};
      const bool forward = rng() % 2 == 0;
      request.scan_index_forward = forward;
      std::optional<Item> previous_last;
      for (int page = 0; page < 50; ++page) {
        auto got = db.Query(request);
        ASSERT_TRUE(got.ok()) << got.status().ToString();
        CheckPage(index, partition, forward, got->items, false);
        // Pages continue strictly after the start key.
        if (previous_last && !got->items.empty()) {
          EXPECT_TRUE(forward ? index.Before(*previous_last, got->items.front())
                              : index.Before(got->items.front(), *previous_last))
              << "page " << page << " does not continue after " << Show(previous_last);
        }
        if (::testing::Test::HasFailure() || !got->last_evaluated_key) break;
        previous_last = got->last_evaluated_key;
        request.exclusive_start_key = got->last_evaluated_key;
      }
    }
  });
  if (::testing::Test::HasFailure()) return;
  ExpectIndexesMatchBase(db);
}

}  // namespace
}  // namespace partstore
