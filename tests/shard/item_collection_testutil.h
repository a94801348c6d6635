// Helpers of the ItemCollection tests (item_collection_test.cc: the model and the collection's
// behaviour; item_collection_layout_test.cc: how it holds its items): a std::map model, inserts
// that mix keys lent by their items with copied ones, and a full comparison of the two.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "partstore/item.h"
#include "partstore/stored_item.h"
#include "shard/item_collection.h"

namespace partstore::collection_testing {

using Model = std::map<std::string, Item>;

// Stores `item` (encoded) under `key`. A key of even length is lent by the item (its "SK"
// attribute's bytes, as a table lends its items' sort keys: shard/collection_key.h), one of odd
// length is copied, so that every test below mixes both.
inline std::pair<const StoredItem*, bool> Insert(ItemCollection& c, std::string_view key,
                                                 const Item& item, StoredItem* old = nullptr) {
  StoredItem stored = StoredItem::Encode(item);
  std::string_view sk = key;
  if (key.size() % 2 == 0) {
    const std::optional<ValueView> own = stored.Find("SK");
    if (own && own->is(Type::kB) && own->as_binary() == key) sk = own->as_binary();
  }
  return c.InsertOrAssign(sk, std::move(stored), old);
}

// A small item whose content identifies the write (`serial`) and whose size varies.
inline Item MakeItem(std::string_view key, uint64_t serial, size_t padding = 0) {
  return Item{{"SK", Value::Binary(std::string(key))},
              {"serial", static_cast<int64_t>(serial)},
              {"pad", std::string(padding, 'p')}};
}

inline uint64_t ModelTotalSize(const Model& model) {
  uint64_t total = 0;
  for (const auto& [key, item] : model) total += ItemSize(item);
  return total;
}

// Up to `limit` keys read from `c` in one direction.
template <typename Cursor>
std::vector<std::string> Read(Cursor c, bool forward, size_t limit) {
  std::vector<std::string> keys;
  for (; c.valid() && keys.size() < limit; forward ? c.Next() : c.Prev()) {
    keys.emplace_back(c.key());
  }
  return keys;
}

inline std::vector<std::string> CollectionRead(const ItemCollection& c, std::string_view start,
                                               bool forward, bool inclusive, size_t limit) {
  ItemCollection::Cursor cursor = c.NewCursor();
  if (forward) {
    inclusive ? cursor.Seek(start) : cursor.SeekAfter(start);
  } else {
    inclusive ? cursor.SeekForPrev(start) : cursor.SeekBefore(start);
  }
  return Read(cursor, forward, limit);
}

// Full comparison: contents both ways, sizes, invariants.
inline void ExpectSame(const ItemCollection& c, const Model& model) {
  ASSERT_TRUE(c.CheckInvariants());
  ASSERT_EQ(c.size(), model.size());
  ASSERT_EQ(c.empty(), model.empty());
  ASSERT_EQ(c.total_size(), ModelTotalSize(model));
  ItemCollection::Cursor cursor = c.NewCursor();
  cursor.SeekToFirst();
  for (const auto& [key, item] : model) {
    ASSERT_TRUE(cursor.valid());
    ASSERT_EQ(cursor.key(), key);
    ASSERT_EQ(cursor.item(), item);
    cursor.Next();
  }
  ASSERT_FALSE(cursor.valid());
  cursor.SeekToLast();
  for (auto it = model.rbegin(); it != model.rend(); ++it) {
    ASSERT_TRUE(cursor.valid());
    ASSERT_EQ(cursor.key(), it->first);
    cursor.Prev();
  }
  ASSERT_FALSE(cursor.valid());
}

}  // namespace partstore::collection_testing
