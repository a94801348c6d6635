// ItemCollection (shard/item_collection.h): how it holds its items. One item inline, in the
// collection itself, until a second key; arrays that grow into whole allocator size classes, and
// splits and merges that keep them so; keys lent by their items (shard/collection_key.h), which
// follow their items and cost no heap. The collection's behaviour and its random model are
// item_collection_test.cc's.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "partstore/item.h"
#include "partstore/stored_item.h"
#include "shard/item_collection.h"
#include "shard/memory_budget.h"
#include "tests/shard/item_collection_testutil.h"

namespace partstore {
namespace {

using collection_testing::CollectionRead;
using collection_testing::ExpectSame;
using collection_testing::Insert;
using collection_testing::MakeItem;
using collection_testing::Model;

// One item is held inline whatever its key; a second key makes a flat_map of both, which stays
// one (inline again only once it has emptied).
TEST(ItemCollectionTest, OneItemInlineUntilASecondKey) {
  ItemCollection c;
  const Item b = MakeItem("b", 1, 30);
  EXPECT_TRUE(Insert(c, "b", b).second);
  EXPECT_TRUE(c.inline_item());
  EXPECT_EQ(c.MemoryBytes(), 0u);
  EXPECT_EQ(c.Find("a"), nullptr);
  EXPECT_EQ(c.Find("bb"), nullptr);
  EXPECT_FALSE(c.Erase("a"));
  EXPECT_EQ(CollectionRead(c, "a", true, true, 5), std::vector<std::string>{"b"});
  EXPECT_EQ(CollectionRead(c, "b", true, false, 5), std::vector<std::string>{});
  EXPECT_EQ(CollectionRead(c, "c", false, true, 5), std::vector<std::string>{"b"});
  EXPECT_EQ(CollectionRead(c, "b", false, false, 5), std::vector<std::string>{});
  ExpectSame(c, Model{{"b", b}});

  const Item a = MakeItem("a", 2);
  EXPECT_TRUE(Insert(c, "a", a).second);
  EXPECT_FALSE(c.inline_item());
  EXPECT_EQ(c.MemoryBytes(), 2 * ItemCollection::kElementBytes);
  ExpectSame(c, Model{{"a", a}, {"b", b}});
  EXPECT_TRUE(c.Erase("a"));
  EXPECT_FALSE(c.inline_item());  // stays an array of one
  ExpectSame(c, Model{{"b", b}});
  StoredItem old;
  EXPECT_TRUE(c.Erase("b", &old));
  EXPECT_EQ(old, b);
  ExpectSame(c, Model{});
  EXPECT_TRUE(Insert(c, "a", a).second);
  EXPECT_TRUE(c.inline_item());  // an emptied collection takes its next item inline
  ExpectSame(c, Model{{"a", a}});

  // Copies share the buffer; a move carries the item (pointers to it do not survive) and leaves
  // the source empty.
  ItemCollection copy = c;
  EXPECT_TRUE(copy.inline_item());
  EXPECT_TRUE(copy.Find("a")->SharesBufferWith(*c.Find("a")));
  ItemCollection moved = std::move(c);
  ExpectSame(moved, Model{{"a", a}});
  EXPECT_TRUE(c.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty
  EXPECT_FALSE(c.inline_item());
  EXPECT_TRUE(c.CheckInvariants());
  moved = copy;
  ExpectSame(moved, Model{{"a", a}});
  copy.clear();
  ExpectSame(copy, Model{});
  Insert(copy, "z", b);
  copy = std::move(moved);
  ExpectSame(copy, Model{{"a", a}});
  std::vector<StoredItem> taken;  // what a collection being destroyed does
  copy.TakeItems(taken);
  ASSERT_EQ(taken.size(), 1u);
  EXPECT_EQ(taken[0], a);
}

// The inline item with a key on the heap (over 6 bytes), and assignments between every two forms:
// inline, a flat_map (with spare capacity), segments.
TEST(ItemCollectionTest, InlineItemsWithLongKeysAndAssignmentsAcrossForms) {
  const std::string long_a(40, 'a');
  const std::string long_b = std::string(40, 'a') + "b";
  const Item one = MakeItem(long_a, 1, 10);
  const Item two = MakeItem(long_b, 2, 10);

  ItemCollection single;
  Insert(single, long_a, one);
  ASSERT_TRUE(single.inline_item());
  ExpectSame(single, Model{{long_a, one}});
  ItemCollection copy = single;
  ExpectSame(copy, Model{{long_a, one}});
  Insert(copy, long_b, two);  // the long key moves into the new array
  EXPECT_FALSE(copy.inline_item());
  ExpectSame(copy, Model{{long_a, one}, {long_b, two}});
  ExpectSame(single, Model{{long_a, one}});  // the copy's change is its own
  StoredItem old;
  EXPECT_TRUE(single.Erase(long_a, &old));
  EXPECT_EQ(old, one);
  ExpectSame(single, Model{});

  // Three forms to assign between: inline, a flat_map of one left by an erase (spare capacity),
  // and segments (max segment 4, 40 items).
  auto inline_form = [&] {
    ItemCollection c(ItemCollectionOptions{.max_segment_size = 4});
    Insert(c, long_a, one);
    return c;
  };
  auto flat_form = [&] {
    ItemCollection c(ItemCollectionOptions{.max_segment_size = 4});
    Insert(c, long_a, one);
    Insert(c, long_b, two);
    c.Erase(long_b);
    return c;
  };
  Model large_model;
  auto large_form = [&] {
    ItemCollection c(ItemCollectionOptions{.max_segment_size = 4});
    large_model.clear();
    for (int i = 0; i < 40; ++i) {
      const std::string key = long_a + std::to_string(i);
      Insert(c, key, MakeItem(key, i));
      large_model[key] = MakeItem(key, i);
    }
    return c;
  };
  const std::vector<std::function<ItemCollection()>> forms = {inline_form, flat_form, large_form};
  for (size_t from = 0; from < forms.size(); ++from) {
    for (size_t to = 0; to < forms.size(); ++to) {
      SCOPED_TRACE(std::to_string(from) + " <- " + std::to_string(to));
      ItemCollection target = forms[from]();
      ItemCollection source = forms[to]();
      const Model expected = to == 2 ? large_model : Model{{long_a, one}};
      target = source;  // copy
      ExpectSame(target, expected);
      ExpectSame(source, expected);
      ItemCollection other = forms[from]();
      other = std::move(source);  // move
      ExpectSame(other, expected);
      ExpectSame(source, Model{});  // NOLINT(bugprone-use-after-move): moved-from is empty
      ItemCollection& alias = other;
      other = std::move(alias);  // a self-move keeps it
      ExpectSame(other, expected);
    }
  }
}

// A full array grows into the allocator's next size class (jemalloc's: 16-byte steps to 128 bytes,
// then four classes in each doubling), never past a segment: the capacity fills the block the
// allocator hands out anyway.
TEST(ItemCollectionTest, ArraysGrowIntoWholeSizeClasses) {
  constexpr size_t kElement = ItemCollection::kElementBytes;
  static_assert(kElement == 16, "the figures below assume 16-byte elements");
  std::vector<size_t> grown;
  for (size_t capacity = 1; capacity < 40;) {
    capacity = ItemCollection::GrownCapacity(capacity, 1'000);
    grown.push_back(capacity);
  }
  EXPECT_EQ(grown, (std::vector<size_t>{2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40}));

  // jemalloc's classes, as its documentation lists them (80, 160, 768, 6,144 bytes ...), not as
  // the code computes them.
  EXPECT_EQ(ItemCollection::GrownCapacity(4, 1'000) * kElement, 80u);
  EXPECT_EQ(ItemCollection::GrownCapacity(8, 1'000) * kElement, 160u);
  EXPECT_EQ(ItemCollection::GrownCapacity(42, 1'000) * kElement, 768u);  // 688 B asked
  EXPECT_EQ(ItemCollection::GrownCapacity(320, 1'000) * kElement, 6'144u);
  EXPECT_EQ(ItemCollection::FittedCapacity(321, 1'000) * kElement, 6'144u);  // 5,136 B asked
  EXPECT_EQ(ItemCollection::FittedCapacity(384, 1'000), 384u);  // a whole class already

  for (size_t size = 1; size <= 5'000; ++size) {
    const size_t capacity = ItemCollection::GrownCapacity(size, 100'000);
    ASSERT_GT(capacity, size);
    ASSERT_LT(capacity * 4, (size + 1) * 5) << size;  // under 25% past the element asked for
    ASSERT_EQ(HeapBytes(capacity * kElement), capacity * kElement) << size;  // a whole class
    if (size >= 8 && ItemCollection::FittedCapacity(size, 100'000) == size) {
      ASSERT_GE(capacity * 7, size * 8) << size;  // from a whole class: at least 14% a step
    }
  }
  EXPECT_EQ(ItemCollection::GrownCapacity(100, 110), 110u);  // capped at the segment size
  EXPECT_EQ(ItemCollection::GrownCapacity(109, 110), 110u);

  // 31 items sit in 512 bytes (growth by half held them in 42 elements, 672 of 768 bytes).
  ItemCollection c;
  for (int i = 0; i < 31; ++i) Insert(c, std::to_string(100 + i), Item{});
  EXPECT_EQ(c.MemoryBytes(), 32 * kElement);
  EXPECT_TRUE(c.CheckInvariants());
}

// Splits and merges size their arrays to whole size classes too: after every insert and erase of
// a random sequence, each segment's array is a whole class (or a whole segment). A split of a
// full 64-element segment gives two halves of 48 (768 bytes), where 41 asked for 656; a merge
// that needs a larger array gets a whole class.
TEST(ItemCollectionTest, SplitsAndMergesFillWholeSizeClasses) {
  constexpr size_t kElement = ItemCollection::kElementBytes;
  ItemCollection split(ItemCollectionOptions{.max_segment_size = 64});
  for (int i = 0; i < 65; ++i) Insert(split, std::to_string(1000 + i), Item{});
  ASSERT_EQ(split.segment_count(), 2u);
  EXPECT_EQ(split.segment_capacity(0), 48u);
  EXPECT_EQ(split.segment_capacity(1), 48u);
  // A copy's arrays hold exactly their elements (32 and 33); erasing the second one under a
  // quarter merges it into the first, whose array grows for the 47 to a whole class: 58 asked
  // (47 and a quarter), 64 given.
  ItemCollection merged = split;
  ASSERT_EQ(merged.segment_capacity(0), 32u);
  for (int i = 64; merged.segment_count() == 2; --i) merged.Erase(std::to_string(1000 + i));
  EXPECT_EQ(merged.size(), 47u);
  EXPECT_EQ(merged.segment_capacity(0), 64u);
  EXPECT_TRUE(merged.CheckInvariants());

  for (const size_t max_segment : {size_t{4}, size_t{16}, size_t{64}}) {
    SCOPED_TRACE(max_segment);
    ItemCollection c(ItemCollectionOptions{.max_segment_size = max_segment});
    std::mt19937_64 rng(max_segment);
    for (int step = 0; step < 4000; ++step) {
      const std::string key = std::to_string(std::uniform_int_distribution<int>(0, 299)(rng));
      if (step < 2000 ? rng() % 4 != 0 : rng() % 4 == 0) {
        Insert(c, key, Item{});
      } else {
        c.Erase(key);
      }
      for (size_t s = 0; s < c.segment_count(); ++s) {
        const size_t capacity = c.segment_capacity(s);
        ASSERT_TRUE(capacity == max_segment ||
                    HeapBytes(capacity * kElement) == capacity * kElement)
            << "step " << step << ", segment " << s << " of " << c.segment_count() << ": "
            << capacity;
      }
    }
    EXPECT_TRUE(c.CheckInvariants());
  }
}

// A key lent by its item (shard/collection_key.h) lies in that item's buffer and costs no heap;
// replacing the item moves the key to the new one's bytes (or to a copy when the new item does
// not lend it), so the old item may go at once; the key heap each write reports adds up to what
// the owned keys hold.
TEST(ItemCollectionTest, KeysLentByItemsFollowTheirItems) {
  const std::string key = "FOLLOWER#0000123#001";
  ItemCollection c(ItemCollectionOptions{.max_segment_size = 4});
  int64_t heap = 0;
  auto lend = [&](const Item& item, StoredItem* old = nullptr) {
    StoredItem stored = StoredItem::Encode(item);
    const std::string_view own = stored.Find("SK")->as_binary();
    return c.InsertOrAssign(own, std::move(stored), old, &heap);
  };
  auto lies_in_item = [&](std::string_view k) {
    const ItemCollection::Cursor cursor = c.LowerBound(k);
    const std::string_view encoding = cursor.item().encoding();
    return cursor.key().data() >= encoding.data() &&
           cursor.key().data() + cursor.key().size() <= encoding.data() + encoding.size();
  };

  EXPECT_TRUE(lend(MakeItem(key, 1)).second);
  EXPECT_EQ(heap, 0);
  EXPECT_TRUE(lies_in_item(key));
  StoredItem old;
  EXPECT_FALSE(lend(MakeItem(key, 2, 100), &old).second);
  EXPECT_EQ(heap, 0);
  EXPECT_TRUE(lies_in_item(key));
  old = StoredItem();  // the first item's buffer is gone; the key reads the second's
  ExpectSame(c, Model{{key, MakeItem(key, 2, 100)}});

  // A second key makes an array, then segments; every key lent.
  Model model{{key, MakeItem(key, 2, 100)}};
  for (int i = 0; i < 20; ++i) {
    const std::string k = key + std::to_string(100 + i);
    lend(MakeItem(k, static_cast<uint64_t>(i)));
    model[k] = MakeItem(k, static_cast<uint64_t>(i));
  }
  EXPECT_EQ(heap, 0);
  EXPECT_GT(c.segment_count(), 1u);
  ExpectSame(c, model);
  for (const auto& [k, item] : model) EXPECT_TRUE(lies_in_item(k)) << k;

  // Replaced by an item that does not lend it: the key is copied (its heap counted), and the
  // replaced item, dropped, takes nothing with it.
  EXPECT_FALSE(c.InsertOrAssign(key, StoredItem::Encode(MakeItem(key, 3)), &old, &heap).second);
  EXPECT_EQ(heap, static_cast<int64_t>(HeapBytes(key.size())));
  EXPECT_FALSE(lies_in_item(key));
  old = StoredItem();
  model[key] = MakeItem(key, 3);
  ExpectSame(c, model);
  // And lent again; then erased, which gives back what it held (nothing when lent).
  lend(MakeItem(key, 4));
  EXPECT_EQ(heap, 0);
  EXPECT_TRUE(c.Erase(key, nullptr, &heap));
  EXPECT_EQ(heap, 0);
  c.InsertOrAssign(key, StoredItem::Encode(MakeItem(key, 5)), nullptr, &heap);
  EXPECT_TRUE(c.Erase(key, nullptr, &heap));
  EXPECT_EQ(heap, 0);
  model.erase(key);

  // A copy shares the buffers, so its lent keys read the same bytes; it outlives the original.
  auto copy = std::make_unique<ItemCollection>(c);
  c.clear();
  ExpectSame(*copy, model);
  EXPECT_TRUE(copy->CheckInvariants());

  // Bytes outside the item are copied even when equal, and so are a key of up to 6 bytes (inline)
  // and an S that is a run (its view reads a shared fill, not the buffer).
  const StoredItem other = StoredItem::Encode(MakeItem(key, 6));
  EXPECT_FALSE(CollectionKey::Borrowable(other.Find("SK")->as_binary(),
                                         StoredItem::Encode(MakeItem(key, 6))));
  EXPECT_TRUE(CollectionKey::Borrowable(other.Find("SK")->as_binary(), other));
  const StoredItem short_key = StoredItem::Encode(MakeItem("abc", 1));
  EXPECT_FALSE(CollectionKey::Borrowable(short_key.Find("SK")->as_binary(), short_key));
  const StoredItem run = StoredItem::Encode(Item{{"SK", Value(std::string(40, 'x'))}});
  EXPECT_FALSE(CollectionKey::Borrowable(run.Find("SK")->as_string(), run));
  EXPECT_FALSE(CollectionKey::Borrowable(key, StoredItem::OfSize(100)));
}

}  // namespace
}  // namespace partstore
