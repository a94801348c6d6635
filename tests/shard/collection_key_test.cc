// CollectionKey (shard/collection_key.h): 8 bytes holding a key inline (up to 6 bytes), borrowed
// from its item's buffer, owned on the heap, or owned with its length in the block (past 16,383
// bytes); copies, moves and swaps keep the bytes, and only owned keys copy them.
#include "shard/collection_key.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "partstore/item.h"

namespace partstore {
namespace {

std::string KeyBytes(size_t n) {
  std::string s(n, 'k');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>('a' + i % 23);
  if (n > 2) s[n / 2] = '\0';  // a zero byte inside: a key is bytes, not a C string
  return s;
}

TEST(CollectionKeyTest, HoldsItsBytesInlineOrOnTheHeap) {
  EXPECT_EQ(sizeof(CollectionKey), 8u);
  const StoredItem none;
  for (size_t n : {size_t{0}, size_t{1}, size_t{6}, size_t{7}, size_t{23}, size_t{24}, size_t{1024},
                   size_t{16'383}, size_t{16'384}, size_t{70'000}}) {
    SCOPED_TRACE(n);
    const std::string bytes = KeyBytes(n);
    const CollectionKey key(bytes, none);
    EXPECT_EQ(key.view(), bytes);
    EXPECT_FALSE(key.borrowed());
    EXPECT_EQ(key.owned(), n > CollectionKey::kInline);
    EXPECT_EQ(CollectionKey::HeapLength(n), n <= 6 ? 0 : n <= 16'383 ? n : n + sizeof(uint64_t));

    CollectionKey copy(key);
    EXPECT_EQ(copy.view(), bytes);
    if (key.owned()) {
      EXPECT_NE(copy.view().data(), key.view().data());  // a copy of its own
    }
    CollectionKey moved(std::move(copy));
    EXPECT_EQ(moved.view(), bytes);
    EXPECT_EQ(copy.view(), "");  // NOLINT(bugprone-use-after-move): moved-from is empty
    CollectionKey assigned(std::string_view("x"));
    assigned = key;
    EXPECT_EQ(assigned.view(), bytes);
    const CollectionKey& itself = assigned;
    assigned = itself;  // self-assignment keeps the bytes
    EXPECT_EQ(assigned.view(), bytes);
    CollectionKey other(std::string_view("short"));
    other.swap(assigned);
    EXPECT_EQ(other.view(), bytes);
    EXPECT_EQ(assigned.view(), "short");
    assigned = std::move(other);
    EXPECT_EQ(assigned.view(), bytes);
  }
}

TEST(CollectionKeyTest, BorrowsOnlyTheItemsOwnBytes) {
  const std::string sort = "ORDER#2026-03-05#ORDER#00000123";
  const StoredItem item = StoredItem::Encode(Item{{"PK", Value("USER#1")}, {"SK", Value(sort)}});
  const std::string_view own = item.Find("SK")->as_string();
  const CollectionKey lent(own, item);
  EXPECT_TRUE(lent.borrowed());
  EXPECT_FALSE(lent.owned());
  EXPECT_EQ(lent.view().data(), own.data());
  EXPECT_EQ(lent.view(), sort);
  EXPECT_EQ(CollectionKey::HeapLength(own, item), 0u);
  // A copy borrows the same bytes (the copy of its element shares the buffer).
  const CollectionKey copy(lent);
  EXPECT_EQ(copy.view().data(), own.data());

  // Equal bytes elsewhere are copied: another item's, a string's.
  const StoredItem twin = StoredItem::Encode(Item{{"PK", Value("USER#1")}, {"SK", Value(sort)}});
  const CollectionKey from_twin(twin.Find("SK")->as_string(), item);
  EXPECT_TRUE(from_twin.owned());
  EXPECT_EQ(from_twin.view(), sort);
  EXPECT_EQ(CollectionKey::HeapLength(std::string_view(sort), item), sort.size());
  // So is a key of up to 6 bytes (inline), and any key of an item without a buffer.
  const StoredItem small = StoredItem::Encode(Item{{"SK", Value("abc")}});
  EXPECT_FALSE(CollectionKey(small.Find("SK")->as_string(), small).borrowed());
  EXPECT_FALSE(CollectionKey(sort, StoredItem::OfSize(64)).borrowed());
}

}  // namespace
}  // namespace partstore
