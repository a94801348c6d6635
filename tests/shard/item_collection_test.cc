// ItemCollection (shard/item_collection.h): a random model against std::map that crosses the
// segment thresholds both ways, and the collection's behaviour (empty, the empty key, byte order,
// splits and merges, cursors across mutations, sizes, copies and moves). How it holds its items
// (inline, size classes, lent keys) is item_collection_layout_test.cc's.
#include "shard/item_collection.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "partstore/item.h"
#include "partstore/stored_item.h"
#include "tests/shard/item_collection_testutil.h"

namespace partstore {
namespace {

using collection_testing::CollectionRead;
using collection_testing::ExpectSame;
using collection_testing::Insert;
using collection_testing::MakeItem;
using collection_testing::Model;
using collection_testing::Read;

// Keys over a small alphabet that includes 0x00 and 0xFF, so many keys are prefixes of others and
// byte order (unsigned) matters; lengths 0..max_length.
std::string RandomKey(std::mt19937_64& rng, int max_length) {
  static constexpr char kAlphabet[] = {'\x00', '\x01', 'a', 'b', '\x7F', '\x80', '\xFE', '\xFF'};
  std::uniform_int_distribution<int> length(0, max_length);
  std::uniform_int_distribution<int> symbol(0, sizeof(kAlphabet) - 1);
  std::string key(length(rng), '\0');
  for (char& c : key) c = kAlphabet[symbol(rng)];
  return key;
}

std::string Hex(std::string_view key) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : key) {
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

// The model's answer to a Query-like range read: from `start` (inclusive or exclusive), forward
// or backward, at most `limit` keys.
std::vector<std::string> ModelRead(const Model& model, std::string_view start, bool forward,
                                   bool inclusive, size_t limit) {
  std::vector<std::string> keys;
  const std::string s(start);
  if (forward) {
    auto it = inclusive ? model.lower_bound(s) : model.upper_bound(s);
    for (; it != model.end() && keys.size() < limit; ++it) keys.push_back(it->first);
  } else {
    auto it = inclusive ? model.upper_bound(s) : model.lower_bound(s);
    while (it != model.begin() && keys.size() < limit) keys.push_back((--it)->first);
  }
  return keys;
}

struct ModelRunStats {
  size_t operations = 0;
  size_t splits = 0;   // steps after which there were more segments than before
  size_t merges = 0;   // steps after which there were fewer
  size_t to_flat = 0;  // steps that made a segmented collection a single flat_map again
  size_t max_size = 0;
  size_t max_segments = 0;
};

// Random operations against ItemCollection and a std::map model, compared after every step. The
// size swings between 0 and `target` (grow phases insert more, shrink phases erase more), so the
// segment thresholds are crossed in both directions many times.
void RunModel(uint64_t seed, size_t max_segment, size_t target, size_t operations,
              int max_key_length, size_t full_check_every, ModelRunStats* stats_out) {
  std::mt19937_64 rng(seed);
  ItemCollection c(ItemCollectionOptions{.max_segment_size = max_segment});
  Model model;
  ModelRunStats& stats = *stats_out;
  uint64_t serial = 0;
  bool growing = true;
  std::uniform_int_distribution<int> percent(0, 99);
  // An existing key: the model's first key at or after a random one.
  auto pick_key = [&](bool existing) {
    if (existing && !model.empty()) {
      auto it = model.lower_bound(RandomKey(rng, max_key_length));
      return it == model.end() ? model.begin()->first : it->first;
    }
    return RandomKey(rng, max_key_length);
  };

  for (size_t step = 0; step < operations; ++step) {
    SCOPED_TRACE(::testing::Message() << "seed " << seed << " step " << step);
    if (model.size() >= target) growing = false;
    if (model.empty()) growing = true;
    const size_t segments_before = c.segment_count();
    const int op = percent(rng);
    const int insert_share = growing ? 65 : 10;
    const int erase_share = growing ? 10 : 65;
    if (op < insert_share) {
      // InsertOrAssign, sometimes over an existing key.
      std::string key = pick_key(percent(rng) < 30);
      const size_t padding = std::uniform_int_distribution<size_t>(0, 40)(rng);
      Item item = MakeItem(key, ++serial, padding);
      const Item expected = item;
      auto found = model.find(key);
      const bool existed = found != model.end();
      StoredItem old;
      const bool want_old = percent(rng) < 50;
      auto [stored, inserted] = Insert(c, key, item, want_old ? &old : nullptr);
      if (::testing::Test::HasFatalFailure()) return;
      EXPECT_EQ(inserted, !existed) << Hex(key);
      EXPECT_EQ(*stored, expected);
      if (existed && want_old) {
        EXPECT_EQ(old, found->second);
      }
      if (!existed || !want_old) {
        EXPECT_TRUE(old.empty());
      }
      model[key] = expected;
      EXPECT_EQ(c.Find(key), stored);
    } else if (op < insert_share + erase_share) {
      const std::string key = pick_key(percent(rng) < 80);
      auto found = model.find(key);
      StoredItem old;
      const bool want_old = percent(rng) < 50;
      const bool erased = c.Erase(key, want_old ? &old : nullptr);
      EXPECT_EQ(erased, found != model.end()) << Hex(key);
      if (found != model.end()) {
        if (want_old) {
          EXPECT_EQ(old, found->second);
        }
        model.erase(found);
      }
      EXPECT_EQ(c.Find(key), nullptr);
    } else if (op < insert_share + erase_share + 10) {
      const std::string key = pick_key(percent(rng) < 50);
      auto found = model.find(key);
      const ItemCollection& cc = c;
      const StoredItem* item = cc.Find(key);
      ASSERT_EQ(item != nullptr, found != model.end()) << Hex(key);
      if (item != nullptr) {
        EXPECT_EQ(*item, found->second);
      }
      // A new version of an item replaces its handle in place; a handle taken before still reads
      // the old version.
      if (found != model.end() && percent(rng) < 30) {
        const StoredItem before = *item;
        Item changed = found->second;
        changed["pad"] = std::string(percent(rng), 'u');
        EXPECT_EQ(Insert(c, key, changed).first, item);
        EXPECT_EQ(before, found->second);
        found->second = changed;
      }
    } else {
      // A range read from a random start key (present or not), either direction, inclusive or
      // exclusive, as Query does with and without ExclusiveStartKey.
      const std::string start = pick_key(percent(rng) < 40);
      const bool forward = percent(rng) < 50;
      const bool inclusive = percent(rng) < 50;
      const size_t limit = std::uniform_int_distribution<size_t>(0, 40)(rng);
      EXPECT_EQ(CollectionRead(c, start, forward, inclusive, limit),
                ModelRead(model, start, forward, inclusive, limit))
          << Hex(start) << (forward ? " forward" : " backward")
          << (inclusive ? " inclusive" : " exclusive");
      // Change direction mid-way, as a cursor may.
      ItemCollection::Cursor cursor = std::as_const(c).LowerBound(start);
      auto it = model.lower_bound(start);
      for (int k = 0; k < 5 && cursor.valid(); ++k) {
        cursor.Next();
        ++it;
      }
      for (int k = 0; k < 8; ++k) {
        cursor.Prev();
        if (it == model.begin()) {
          EXPECT_FALSE(cursor.valid());
          break;
        }
        --it;
        ASSERT_TRUE(cursor.valid());
        EXPECT_EQ(cursor.key(), it->first);
      }
    }
    ++stats.operations;
    const size_t segments_after = c.segment_count();
    if (segments_after > segments_before) ++stats.splits;
    if (segments_after < segments_before) ++stats.merges;
    if (segments_before > 1 && segments_after == 1) ++stats.to_flat;
    stats.max_size = std::max(stats.max_size, c.size());
    stats.max_segments = std::max(stats.max_segments, segments_after);
    if (step % full_check_every == 0 || step + 1 == operations) {
      ExpectSame(c, model);
    } else {
      ASSERT_EQ(c.size(), model.size());
    }
    if (::testing::Test::HasFailure()) return;
  }
  ::testing::Test::RecordProperty(
      "seed_" + std::to_string(seed) + "_segment_" + std::to_string(max_segment),
      std::to_string(stats.operations) + " ops, " + std::to_string(stats.splits) + " splits, " +
          std::to_string(stats.merges) + " merges, " + std::to_string(stats.to_flat) +
          " back to one flat_map, max size " + std::to_string(stats.max_size) + ", max segments " +
          std::to_string(stats.max_segments));
}

TEST(ItemCollectionModelTest, TinySegmentsCrossEveryThresholdOften) {
  // Segments of 4 (merge below 1) and 8 (merge below 2): every mode change many times.
  for (size_t max_segment : {4, 8}) {
    for (uint64_t seed : {1, 2, 3, 4}) {
      ModelRunStats stats;
      RunModel(seed, max_segment, /*target=*/300,
               /*operations=*/20000, /*max_key_length=*/5,
               /*full_check_every=*/4, &stats);
      ASSERT_FALSE(HasFailure()) << "max_segment " << max_segment << " seed " << seed;
      EXPECT_GT(stats.splits, 100u);
      EXPECT_GT(stats.merges, 100u);
      EXPECT_GT(stats.to_flat, 5u);
    }
  }
}

TEST(ItemCollectionModelTest, SmallSegments) {
  for (uint64_t seed : {11, 12, 13}) {
    ModelRunStats stats;
    RunModel(seed, /*max_segment=*/32, /*target=*/800,
             /*operations=*/12000, /*max_key_length=*/6,
             /*full_check_every=*/25, &stats);
    ASSERT_FALSE(HasFailure()) << "seed " << seed;
    EXPECT_GT(stats.splits, 50u);
    EXPECT_GT(stats.merges, 50u);
    EXPECT_GT(stats.max_segments, 25u);
  }
}

TEST(ItemCollectionModelTest, DefaultSegmentSize) {
  // The production threshold: grows to ~5 segments and back to one flat_map.
  ModelRunStats stats;
  RunModel(21, ItemCollection::kDefaultMaxSegmentSize,
           /*target=*/4000, /*operations=*/40000,
           /*max_key_length=*/8, /*full_check_every=*/500, &stats);
  ASSERT_FALSE(HasFailure());
  EXPECT_GE(stats.max_segments, 3u);
  EXPECT_GE(stats.to_flat, 1u);
}

TEST(ItemCollectionTest, EmptyCollection) {
  ItemCollection c;
  EXPECT_TRUE(c.empty());
  EXPECT_EQ(c.size(), 0u);
  EXPECT_EQ(c.total_size(), 0u);
  EXPECT_EQ(c.Find(""), nullptr);
  EXPECT_EQ(c.Find("a"), nullptr);
  EXPECT_FALSE(c.Erase("a"));
  EXPECT_EQ(c.ContainerBytes(), sizeof(ItemCollection));
  ItemCollection::Cursor cursor = c.NewCursor();
  EXPECT_FALSE(cursor.valid());
  cursor.SeekToFirst();
  EXPECT_FALSE(cursor.valid());
  cursor.SeekToLast();
  EXPECT_FALSE(cursor.valid());
  cursor.Prev();
  EXPECT_FALSE(cursor.valid());
  for (std::string_view k : {std::string_view(""), std::string_view("\xFF")}) {
    cursor.Seek(k);
    EXPECT_FALSE(cursor.valid());
    cursor.SeekAfter(k);
    EXPECT_FALSE(cursor.valid());
    cursor.SeekForPrev(k);
    EXPECT_FALSE(cursor.valid());
    cursor.SeekBefore(k);
    EXPECT_FALSE(cursor.valid());
  }
  EXPECT_FALSE(c.LowerBound("").valid());
  EXPECT_FALSE(c.UpperBound("").valid());
  EXPECT_TRUE(c.CheckInvariants());
}

TEST(ItemCollectionTest, HashOnlySingleItemUnderTheEmptyKey) {
  ItemCollection c;
  const Item item{{"PK", "USER#1"}, {"name", "Ada"}};
  auto [stored, inserted] = Insert(c, "", item);
  EXPECT_TRUE(inserted);
  EXPECT_EQ(*stored, item);
  EXPECT_EQ(c.Find(""), stored);
  EXPECT_EQ(c.size(), 1u);
  EXPECT_EQ(c.total_size(), ItemSize(item));
  EXPECT_EQ(c.segment_count(), 1u);
  // Held inline: no element array, nothing on the heap, and the collection no larger than before
  // (the item shares a union with the sorted array and the segments' pointer).
  EXPECT_TRUE(c.inline_item());
  EXPECT_EQ(c.ContainerBytes(), sizeof(ItemCollection));
  EXPECT_EQ(c.MemoryBytes(), 0u);
  EXPECT_EQ(sizeof(ItemCollection), 40u);

  auto cursor = std::as_const(c).NewCursor();
  cursor.Seek("");
  ASSERT_TRUE(cursor.valid());
  EXPECT_EQ(cursor.key(), "");
  cursor.Next();
  EXPECT_FALSE(cursor.valid());
  cursor.SeekAfter("");
  EXPECT_FALSE(cursor.valid());
  cursor.SeekBefore("");
  EXPECT_FALSE(cursor.valid());
  cursor.SeekForPrev("");
  ASSERT_TRUE(cursor.valid());
  cursor.Prev();
  EXPECT_FALSE(cursor.valid());
  cursor.Prev();  // from not valid() to the last item
  ASSERT_TRUE(cursor.valid());
  EXPECT_EQ(cursor.item(), item);

  // PutItem over it returns ALL_OLD.
  StoredItem old;
  const Item replacement{{"PK", "USER#1"}, {"name", "Grace"}, {"age", 36}};
  auto [again, inserted_again] = Insert(c, "", replacement, &old);
  EXPECT_FALSE(inserted_again);
  EXPECT_EQ(again, stored);  // replaced in place
  EXPECT_EQ(old, item);
  EXPECT_EQ(c.total_size(), ItemSize(replacement));

  StoredItem removed;
  EXPECT_TRUE(c.Erase("", &removed));
  EXPECT_EQ(removed, replacement);
  EXPECT_TRUE(c.empty());
  EXPECT_EQ(c.total_size(), 0u);
  EXPECT_FALSE(c.Erase(""));
}

TEST(ItemCollectionTest, PrefixAndBinaryKeysSortAsUnsignedBytes) {
  const std::vector<std::string> sorted = {
      std::string(""),
      std::string("\x00", 1),
      std::string("\x00\x00", 2),
      std::string("\x00\xFF", 2),
      std::string("\x01", 1),
      std::string("a"),
      std::string("a\x00", 2),
      std::string("a\x00\x00", 3),
      std::string("a\x01", 2),
      std::string("ab"),
      std::string("abc"),
      std::string("b"),
      std::string("\x7F"),
      std::string("\x80"),
      std::string("\xFF"),
      std::string("\xFF\x00", 2),
      std::string("\xFF\xFF"),
      std::string("\xFF\xFF\xFF"),
  };
  for (size_t max_segment : {size_t{4}, ItemCollection::kDefaultMaxSegmentSize}) {
    ItemCollection c(ItemCollectionOptions{.max_segment_size = max_segment});
    // Insert in a scrambled order.
    for (size_t i = 0; i < sorted.size(); ++i) {
      const std::string& key = sorted[(i * 7) % sorted.size()];
      Insert(c, key, MakeItem(key, i));
    }
    ASSERT_EQ(c.size(), sorted.size());
    ASSERT_TRUE(c.CheckInvariants());
    if (max_segment == 4) {
      EXPECT_GT(c.segment_count(), 3u);
    }
    EXPECT_EQ(Read(std::as_const(c).LowerBound(""), true, 100), sorted);
    auto backward = sorted;
    std::reverse(backward.begin(), backward.end());
    auto last = std::as_const(c).NewCursor();
    last.SeekToLast();
    EXPECT_EQ(Read(last, false, 100), backward);
    for (size_t i = 0; i < sorted.size(); ++i) {
      ASSERT_NE(c.Find(sorted[i]), nullptr) << Hex(sorted[i]);
      EXPECT_EQ(c.Find(sorted[i])->Find("SK")->as_binary(), sorted[i]);
      // A prefix of a key is not the key.
      if (!sorted[i].empty()) {
        EXPECT_EQ(c.Find(sorted[i] + std::string("\x02", 1)), nullptr);
      }
      auto after = std::as_const(c).UpperBound(sorted[i]);
      if (i + 1 < sorted.size()) {
        ASSERT_TRUE(after.valid());
        EXPECT_EQ(after.key(), sorted[i + 1]);
      } else {
        EXPECT_FALSE(after.valid());
      }
      auto before = std::as_const(c).NewCursor();
      before.SeekBefore(sorted[i]);
      if (i > 0) {
        ASSERT_TRUE(before.valid());
        EXPECT_EQ(before.key(), sorted[i - 1]);
      } else {
        EXPECT_FALSE(before.valid());
      }
    }
    // Keys that fall between stored ones.
    auto c1 = std::as_const(c).LowerBound(std::string("a\x00\x00\x00", 4));
    ASSERT_TRUE(c1.valid());
    EXPECT_EQ(c1.key(), "a\x01");
    auto c2 = std::as_const(c).NewCursor();
    c2.SeekForPrev(std::string("\xFF\x00\x01", 3));
    ASSERT_TRUE(c2.valid());
    EXPECT_EQ(c2.key(), std::string("\xFF\x00", 2));
  }
}

TEST(ItemCollectionTest, AllErasedReturnsToOneEmptyFlatMap) {
  for (size_t max_segment :
       {size_t{4}, size_t{8}, size_t{64}, ItemCollection::kDefaultMaxSegmentSize}) {
    ItemCollection c(ItemCollectionOptions{.max_segment_size = max_segment});
    std::vector<std::string> keys;
    for (int i = 0; i < 5000; ++i) keys.push_back("k" + std::to_string(i * 7919 % 5000));
    for (const std::string& k : keys) Insert(c, k, MakeItem(k, 0));
    EXPECT_GT(c.segment_count(), 1u);
    ASSERT_TRUE(c.CheckInvariants());
    std::mt19937_64 rng(max_segment);
    std::shuffle(keys.begin(), keys.end(), rng);
    for (size_t i = 0; i < keys.size(); ++i) {
      ASSERT_TRUE(c.Erase(keys[i]));
      if (i % 97 == 0) {
        ASSERT_TRUE(c.CheckInvariants()) << i;
      }
    }
    EXPECT_TRUE(c.empty());
    EXPECT_EQ(c.total_size(), 0u);
    EXPECT_EQ(c.segment_count(), 1u);
    EXPECT_TRUE(c.CheckInvariants());
    EXPECT_FALSE(std::as_const(c).LowerBound("").valid());
    // Usable again.
    Insert(c, "x", MakeItem("x", 1));
    EXPECT_EQ(c.size(), 1u);
  }
}

TEST(ItemCollectionTest, SequentialInsertsInBothOrdersStayBalanced) {
  for (bool ascending : {true, false}) {
    ItemCollection c(ItemCollectionOptions{.max_segment_size = 16});
    for (int i = 0; i < 2000; ++i) {
      const int n = ascending ? i : 1999 - i;
      char key[8];
      snprintf(key, sizeof(key), "%05d", n);
      Insert(c, key, Item{});
    }
    ASSERT_TRUE(c.CheckInvariants());
    // Every segment is at least half full after splits of full segments.
    EXPECT_LE(c.segment_count(), 2000u / 8 + 1);
    auto cursor = std::as_const(c).NewCursor();
    cursor.SeekToFirst();
    for (int i = 0; i < 2000; ++i, cursor.Next()) {
      ASSERT_TRUE(cursor.valid());
      char key[8];
      snprintf(key, sizeof(key), "%05d", i);
      ASSERT_EQ(cursor.key(), key);
    }
    EXPECT_FALSE(cursor.valid());
  }
}

// Segments of 8: split at 9 items, merge or even out below 2, merge when the pair fits in 6.
TEST(ItemCollectionTest, UnderfullSegmentTakesFromOrMergesWithItsNeighbour) {
  auto key = [](int i) { return "k" + std::to_string(10 + i); };
  auto keys_of = [](const ItemCollection& c) {
    return Read(c.LowerBound(""), /*forward=*/true, 100);
  };
  {
    // [4, 8] -> erase 3 from the left -> [1, 8]: takes 3 from the right's front -> [4, 5].
    ItemCollection c(ItemCollectionOptions{.max_segment_size = 8});
    for (int i = 0; i < 12; ++i) Insert(c, key(i), Item{});
    ASSERT_EQ(c.segment_count(), 2u);
    for (int i = 0; i < 3; ++i) c.Erase(key(i));
    EXPECT_EQ(c.segment_count(), 2u);
    EXPECT_TRUE(c.CheckInvariants());  // would fail on a segment of 1
    EXPECT_EQ(keys_of(c).size(), 9u);
  }
  {
    // [8, 4] -> erase 3 from the right -> [8, 1]: takes 4 from the left's back -> [4, 5].
    ItemCollection c(ItemCollectionOptions{.max_segment_size = 8});
    for (int i = 4; i < 12; ++i) Insert(c, key(i), Item{});
    for (int i = 3; i >= 0; --i) Insert(c, key(i), Item{});
    ASSERT_EQ(c.segment_count(), 2u);
    for (int i = 11; i > 8; --i) c.Erase(key(i));
    EXPECT_EQ(c.segment_count(), 2u);
    EXPECT_TRUE(c.CheckInvariants());
    std::vector<std::string> expected;
    for (int i = 0; i <= 8; ++i) expected.push_back(key(i));
    EXPECT_EQ(keys_of(c), expected);
    // [4, 5] -> erase 4 from the right -> [4, 1]: the pair fits in 6, so one flat_map of 5.
    for (int i = 8; i > 4; --i) c.Erase(key(i));
    EXPECT_EQ(c.segment_count(), 1u);
    EXPECT_TRUE(c.CheckInvariants());
    EXPECT_EQ(keys_of(c).size(), 5u);
  }
}

TEST(ItemCollectionTest, ReplacingInvalidatesNothing) {
  ItemCollection c(ItemCollectionOptions{.max_segment_size = 8});
  for (int i = 0; i < 100; ++i) Insert(c, "k" + std::to_string(i), MakeItem("", i));
  const StoredItem* a = c.Find("k10");
  ItemCollection::Cursor cursor = c.LowerBound("k50");
  ASSERT_NE(a, nullptr);
  ASSERT_TRUE(cursor.valid());
  const StoredItem held = cursor.item();  // a reader's handle on k50
  // Replace other keys (and these): nothing moves.
  for (int i = 0; i < 100; i += 3) Insert(c, "k" + std::to_string(i), MakeItem("", 1000));
  EXPECT_EQ(c.Find("k10"), a);
  EXPECT_EQ(a->Find("serial")->number_text(), "10");
  ASSERT_TRUE(cursor.valid());
  EXPECT_EQ(cursor.key(), "k50");
  EXPECT_EQ(&cursor.item(), c.Find("k50"));
  Insert(c, "k50", MakeItem("", 5000));
  EXPECT_EQ(cursor.item().Find("serial")->number_text(), "5000");
  // The handle taken before still reads the version it took.
  EXPECT_EQ(held.Find("serial")->number_text(), "50");
  EXPECT_FALSE(held.SharesBufferWith(cursor.item()));
}

TEST(ItemCollectionTest, SeekRepositionsAfterMutations) {
  ItemCollection c(ItemCollectionOptions{.max_segment_size = 4});
  ItemCollection::Cursor cursor = c.NewCursor();
  Insert(c, "m", Item{});
  cursor.Seek("a");
  ASSERT_TRUE(cursor.valid());
  EXPECT_EQ(cursor.key(), "m");
  // Grow past one segment: the cursor must be re-seeked, and then sees the new structure.
  for (char ch = 'a'; ch <= 'z'; ++ch) Insert(c, std::string(1, ch), Item{});
  ASSERT_GT(c.segment_count(), 1u);
  cursor.Seek("m");
  std::string seen;
  for (; cursor.valid(); cursor.Next()) seen += cursor.key();
  EXPECT_EQ(seen, "mnopqrstuvwxyz");
  for (char ch = 'a'; ch <= 'y'; ++ch) c.Erase(std::string(1, ch));
  EXPECT_EQ(c.segment_count(), 1u);
  cursor.SeekToLast();
  ASSERT_TRUE(cursor.valid());
  EXPECT_EQ(cursor.key(), "z");
}

TEST(ItemCollectionTest, TotalSizeFollowsEveryMutation) {
  ItemCollection c(ItemCollectionOptions{.max_segment_size = 4});
  uint64_t expected = 0;
  for (int i = 0; i < 50; ++i) {
    Item item = MakeItem("k", i, i);
    expected += ItemSize(item);
    Insert(c, "k" + std::to_string(i), std::move(item));
  }
  EXPECT_EQ(c.total_size(), expected);
  // Replacing and erasing use the sizes the items carry.
  Item big = MakeItem("k", 0, 500);
  const size_t big_size = ItemSize(big);
  const size_t old_size = c.Find("k7")->item_size();
  Insert(c, "k7", big);
  expected += big_size - old_size;
  EXPECT_EQ(c.total_size(), expected);
  const size_t k3_size = c.Find("k3")->item_size();
  EXPECT_TRUE(c.Erase("k3"));
  expected -= k3_size;
  EXPECT_EQ(c.total_size(), expected);
  EXPECT_TRUE(c.CheckInvariants());
}

TEST(ItemCollectionTest, CopyAndMove) {
  for (size_t max_segment : {size_t{4}, ItemCollection::kDefaultMaxSegmentSize}) {
    ItemCollection c(ItemCollectionOptions{.max_segment_size = max_segment});
    for (int i = 0; i < 40; ++i) Insert(c, "k" + std::to_string(i), MakeItem("", i));
    const StoredItem* k5 = c.Find("k5");
    ItemCollection copy = c;
    EXPECT_TRUE(copy.CheckInvariants());
    EXPECT_EQ(copy.size(), 40u);
    EXPECT_EQ(copy.total_size(), c.total_size());
    EXPECT_NE(copy.Find("k5"), k5);
    EXPECT_TRUE(copy.Find("k5")->SharesBufferWith(*k5));  // a copy shares the item buffers
    copy.Erase("k5");
    EXPECT_NE(c.Find("k5"), nullptr);

    ItemCollection moved = std::move(c);
    EXPECT_EQ(moved.Find("k5"), k5);  // StoredItem* survive a move
    EXPECT_TRUE(moved.CheckInvariants());
    EXPECT_TRUE(c.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty
    EXPECT_EQ(c.total_size(), 0u);
    EXPECT_TRUE(c.CheckInvariants());
    copy = moved;
    EXPECT_EQ(copy.size(), 40u);
    moved.clear();
    EXPECT_TRUE(moved.empty());
    EXPECT_EQ(moved.total_size(), 0u);
    EXPECT_TRUE(moved.CheckInvariants());
    EXPECT_EQ(copy.size(), 40u);
  }
}

TEST(ItemCollectionTest, SegmentSizeIsClamped) {
  ItemCollection c(ItemCollectionOptions{.max_segment_size = 0});
  EXPECT_EQ(c.max_segment_size(), ItemCollection::kMinMaxSegmentSize);
  for (int i = 0; i < 100; ++i) Insert(c, std::to_string(i), Item{});
  EXPECT_TRUE(c.CheckInvariants());
  ItemCollection huge(ItemCollectionOptions{.max_segment_size = SIZE_MAX});
  EXPECT_EQ(huge.max_segment_size(), ItemCollection::kMaxMaxSegmentSize);
}

}  // namespace
}  // namespace partstore
