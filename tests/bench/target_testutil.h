// The contract every bench Target keeps (tools/bench/target.h), as one check each target's test
// runs: the same items, the same operations, the same answers, whatever the target's idiom.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tools/bench/target.h"

namespace partstore::bench::testing {

inline TableSpec ContractHashTable() {
  TableSpec t;
  t.name = "partstore-bench-contract-hash";
  t.partition_key = "YCSB_KEY";
  return t;
}
inline TableSpec ContractPairTable() {
  TableSpec t;
  t.name = "partstore-bench-contract-pair";
  t.partition_key = "PK";
  t.sort_key = "SK";
  t.gsi_name = "GSI1";
  t.gsi_partition_key = "GSI1PK";
  t.gsi_sort_key = "GSI1SK";
  return t;
}

inline BenchItem ContractItem(std::vector<Attribute> attributes) { return {std::move(attributes)}; }

// Prepares both tables, loads them, and checks Get, Put, Update, Query (table and GSI, prefix,
// limit, order by count) and Scan. Call it twice on one target to check that Prepare starts over.
inline void CheckTargetContract(Target& target) {
  const TableSpec hash = ContractHashTable();
  const TableSpec pair = ContractPairTable();
  const std::vector<TableSpec> tables = {hash, pair};
  ASSERT_TRUE(target.Prepare(tables).ok());
  auto session_or = target.NewSession();
  ASSERT_TRUE(session_or.ok()) << session_or.status().ToString();
  Session& s = **session_or;

  std::vector<BenchItem> users;
  for (int i = 0; i < 50; ++i) {
    std::string key = "user" + std::to_string(1000 + i);
    users.push_back(ContractItem({{"YCSB_KEY", key},
                                  {"field0", std::string(100, static_cast<char>('a' + i % 26))},
                                  {"field1", std::string(100, 'z')}}));
  }
  ASSERT_TRUE(s.Load(hash, users).ok());
  std::vector<BenchItem> pairs;
  // USER#1: a profile and 30 followers; ORDER#1: the order and 3 lines, the order on GSI1 under
  // USER#1.
  pairs.push_back(ContractItem({{"PK", "USER#1"}, {"SK", "USER#1"}, {"name", "Ann"}}));
  for (int f = 0; f < 30; ++f) {
    char sk[32];
    std::snprintf(sk, sizeof sk, "FOLLOWER#%03d", f);
    pairs.push_back(ContractItem({{"PK", "USER#1"}, {"SK", sk}, {"since", "2026-01-01"}}));
  }
  pairs.push_back(ContractItem({{"PK", "ORDER#1"},
                                {"SK", "ORDER#1"},
                                {"GSI1PK", "USER#1"},
                                {"GSI1SK", "ORDER#2026-01-02"},
                                {"total", "12.50"}}));
  for (int l = 0; l < 3; ++l) {
    std::string product = "PRODUCT#" + std::to_string(l);
    pairs.push_back(ContractItem({{"PK", "ORDER#1"},
                                  {"SK", product},
                                  {"GSI1PK", product},
                                  {"GSI1SK", "ORDER#1"},
                                  {"quantity", "1"}}));
  }
  ASSERT_TRUE(s.Load(pair, pairs).ok());

  // Get: found (with every attribute's bytes), not found.
  ReadOutcome got;
  ASSERT_TRUE(s.Get(hash, {"user1003", ""}, &got).ok());
  EXPECT_EQ(got.items, 1);
  EXPECT_EQ(got.bytes, (8 + 8) + (6 + 100) + (6 + 100));
  ReadOutcome missing;
  ASSERT_TRUE(s.Get(hash, {"user9999", ""}, &missing).ok());
  EXPECT_EQ(missing.items, 0);
  ReadOutcome profile;
  ASSERT_TRUE(s.Get(pair, {"USER#1", "USER#1"}, &profile).ok());
  EXPECT_EQ(profile.items, 1);
  EXPECT_EQ(profile.bytes, (2 + 6) + (2 + 6) + (4 + 3));

  // Update one attribute; Put replaces the whole item.
  ASSERT_TRUE(s.Update(hash, {"user1003", ""}, "field1", "short").ok());
  ReadOutcome updated;
  ASSERT_TRUE(s.Get(hash, {"user1003", ""}, &updated).ok());
  EXPECT_EQ(updated.bytes, (8 + 8) + (6 + 100) + (6 + 5));
  // A second update on the same table, of another item, attribute and value, then one on the
  // other table: each changes only its own item (a target that reuses its request must rewrite
  // every part of it).
  ASSERT_TRUE(s.Update(hash, {"user1004", ""}, "extra", "Bo").ok());
  ReadOutcome extended;
  ASSERT_TRUE(s.Get(hash, {"user1004", ""}, &extended).ok());
  EXPECT_EQ(extended.bytes, (8 + 8) + (6 + 100) + (6 + 100) + (5 + 2));
  ASSERT_TRUE(s.Update(pair, {"USER#1", "USER#1"}, "name", "Bo").ok());
  ReadOutcome renamed;
  ASSERT_TRUE(s.Get(pair, {"USER#1", "USER#1"}, &renamed).ok());
  EXPECT_EQ(renamed.bytes, (2 + 6) + (2 + 6) + (4 + 2));
  ReadOutcome unchanged;
  ASSERT_TRUE(s.Get(hash, {"user1003", ""}, &unchanged).ok());
  EXPECT_EQ(unchanged.bytes, updated.bytes);
  ASSERT_TRUE(s.Put(hash, ContractItem({{"YCSB_KEY", "user1003"}, {"field0", "x"}})).ok());
  ReadOutcome replaced;
  ASSERT_TRUE(s.Get(hash, {"user1003", ""}, &replaced).ok());
  EXPECT_EQ(replaced.bytes, (8 + 8) + (6 + 1));
  ASSERT_TRUE(s.Put(hash, ContractItem({{"YCSB_KEY", "user2000"}, {"field0", "new"}})).ok());
  ReadOutcome inserted;
  ASSERT_TRUE(s.Get(hash, {"user2000", ""}, &inserted).ok());
  EXPECT_EQ(inserted.items, 1);

  // Query: the whole collection, a prefix, a limit, the GSI.
  ReadOutcome all;
  ASSERT_TRUE(s.Query(pair, false, "USER#1", "", 100, &all).ok());
  EXPECT_EQ(all.items, 31);
  ReadOutcome page;
  ASSERT_TRUE(s.Query(pair, false, "USER#1", "FOLLOWER#", 25, &page).ok());
  EXPECT_EQ(page.items, 25);
  // The first 25 followers in sort-key order: FOLLOWER#000..024, each (2+6)+(2+12)+(5+10) bytes.
  EXPECT_EQ(page.bytes, 25u * ((2 + 6) + (2 + 12) + (5 + 10)));
  // The same page, keeping each item's sort key: the values read, in order, and the same count.
  std::vector<std::string> sort_keys;
  ReadOutcome collected{.collect = "SK", .values = &sort_keys};
  ASSERT_TRUE(s.Query(pair, false, "USER#1", "FOLLOWER#", 25, &collected).ok());
  EXPECT_EQ(collected.items, 25);
  EXPECT_EQ(collected.bytes, page.bytes);
  ASSERT_EQ(sort_keys.size(), 25u);
  EXPECT_EQ(sort_keys.front(), "FOLLOWER#000");
  EXPECT_EQ(sort_keys.back(), "FOLLOWER#024");
  EXPECT_TRUE(std::is_sorted(sort_keys.begin(), sort_keys.end()));
  // Another prefix on the same partition (a target that reuses its request must rewrite it).
  ReadOutcome profile_only;
  ASSERT_TRUE(s.Query(pair, false, "USER#1", "USER#", 25, &profile_only).ok());
  EXPECT_EQ(profile_only.items, 1);
  ReadOutcome order;
  ASSERT_TRUE(s.Query(pair, false, "ORDER#1", "", 100, &order).ok());
  EXPECT_EQ(order.items, 4);
  ReadOutcome user_orders;
  ASSERT_TRUE(s.Query(pair, true, "USER#1", "ORDER#", 10, &user_orders).ok());
  EXPECT_EQ(user_orders.items, 1);
  ReadOutcome product_orders;
  ASSERT_TRUE(s.Query(pair, true, "PRODUCT#2", "", 10, &product_orders).ok());
  EXPECT_EQ(product_orders.items, 1);
  ReadOutcome none;
  ASSERT_TRUE(s.Query(pair, false, "USER#404", "", 10, &none).ok());
  EXPECT_EQ(none.items, 0);

  // Scan: from an existing key, at most `limit` items, at least one (51 items, the start is not
  // the last in any order when limit is small... unless it is: then the scan may return 0).
  ReadOutcome scanned;
  ASSERT_TRUE(s.Scan(hash, "user1010", 10, &scanned).ok());
  EXPECT_LE(scanned.items, 10);
  ReadOutcome scanned_all;
  ASSERT_TRUE(s.Scan(hash, "", 100, &scanned_all).ok());
  EXPECT_EQ(scanned_all.items, 51);  // from the beginning: every item
}

}  // namespace partstore::bench::testing
