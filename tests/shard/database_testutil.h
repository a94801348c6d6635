// Helpers for the engine's unit tests: a Database with the seed-like tables, and short builders.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "core/key_encoding.h"
#include "partstore/database.h"
#include "partstore/error_detail.h"

namespace partstore::testing {

// KeySchema of PK (S) + SK (S), or of PK alone.
inline KeySchema StringKeys(bool with_sort = true) {
  KeySchema schema;
  schema.partition = {"PK", KeyType::kString};
  if (with_sort) schema.sort = KeyAttribute{"SK", KeyType::kString};
  return schema;
}

inline KeySchema NumberSortKeys() {
  KeySchema schema;
  schema.partition = {"PK", KeyType::kString};
  schema.sort = KeyAttribute{"n", KeyType::kNumber};
  return schema;
}

inline Value N(std::string_view text) { return Value(Number::Parse(text).value()); }

// Creates `name` with `schema` (on-demand) or fails the test.
inline void MustCreate(Database& db, const std::string& name, const KeySchema& schema) {
  auto created = db.CreateTable(SimpleTable(name, schema));
  ASSERT_TRUE(created.ok()) << created.status().ToString();
}

inline void MustPut(Database& db, const std::string& table, Item item) {
  PutItemRequest request;
  request.table_name = table;
  request.item = std::move(item);
  auto put = db.PutItem(request);
  ASSERT_TRUE(put.ok()) << put.status().ToString();
}

inline std::optional<Item> MustGet(Database& db, const std::string& table, Item key) {
  GetItemRequest request;
  request.table_name = table;
  request.key = std::move(key);
  request.consistent_read = true;
  auto got = db.GetItem(request);
  EXPECT_TRUE(got.ok()) << got.status().ToString();
  return got.ok() ? got->item : std::nullopt;
}

// An item holding every type (and a GSI key "gpk"), keyed PK / SK.
inline Item EveryType(std::string pk, std::string sk) {
  AttributeMap nested{{"deep", Value(ValueList{Value(N("1")), Value("x"), Value(Null{})})}};
  return Item{{"PK", Value(std::move(pk))},
              {"SK", Value(std::move(sk))},
              {"s", Value("text")},
              {"n", Value(N("-12.5e3"))},
              {"b", Value(Bytes{std::string("\0\1\2", 3)})},
              {"t", Value(true)},
              {"f", Value(false)},
              {"z", Value(Null{})},
              {"m", Value(std::move(nested))},
              {"l", Value(ValueList{Value("a"), Value(N("2"))})},
              {"ss", Value(StringSet{"x", "y"})},
              {"ns", Value(NumberSet{Number::Parse("1").value(), Number::Parse("3.5").value()})},
              {"bs", Value(BinarySet{Bytes{"a"}, Bytes{"b"}})},
              {"gpk", Value("group")}};
}

// An empty directory of this test's own (under gtest's temporary directory), for files.
inline std::string TestDirectory() {
  std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  for (char& c : name) {
    if (c == '/') c = '_';
  }
  const std::string dir =
      std::string(::testing::TempDir()) + "partstore_" + std::to_string(::getpid()) + "_" + name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// Every item of `table`, ordered by the key attributes named PK, SK or id (whole-table
// comparisons).
inline std::vector<Item> SortedItems(Database& db, const std::string& table) {
  std::vector<Item> items;
  ScanRequest scan;
  scan.table_name = table;
  for (const StoredItem& item : db.ScanAll(scan)) items.push_back(item.ToItem());
  auto order = [](const Item& item) {
    std::string key;
    for (const char* name : {"PK", "SK", "id"}) {
      if (auto it = item.find(name); it != item.end()) key += EncodeKey(it->second) + '\0';
    }
    return key;
  };
  std::sort(items.begin(), items.end(),
            [&](const Item& a, const Item& b) { return order(a) < order(b); });
  return items;
}

// The status message, for EXPECT_EQ on DynamoDB's texts.
template <typename T>
std::string ErrorText(const Result<T>& result) {
  return result.ok() ? std::string("OK") : std::string(result.error().message());
}

}  // namespace partstore::testing
