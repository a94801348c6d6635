// Stripe::Ordered: the partition keys in scan order, whether rebuilt after an invalidation or kept
// in place by inserts and removals (up to kMaintainedWritesPerScan between scans), in large
// stripes too, with hash ties ordered by key bytes.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <utility>

#include "shard/stripe.h"

namespace partstore {
namespace {

using StripeKey = std::pair<uint64_t, std::string>;

// A partition key with one item (a collection exists while it holds an item).
const StoredItem& OneItem() {
  static const StoredItem item = StoredItem::Encode(Item{{"a", Value(std::string("x"))}});
  return item;
}

void ExpectOrder(const Stripe& stripe, const std::set<StripeKey>& model)
    PARTSTORE_REQUIRES_SHARED(stripe.mutex()) {
  const auto& order = stripe.Ordered();
  ASSERT_EQ(order.size(), model.size());
  size_t i = 0;
  for (const StripeKey& k : model) {
    ASSERT_EQ(order[i]->first.hash, k.first) << i;
    ASSERT_EQ(order[i]->first.key.view(), k.second) << i;
    ++i;
  }
}

TEST(StripeOrder, MaintainedInPlaceAndRebuiltAcrossTheLimit) {
  Stripe stripe;
  Stripe::WriteLock lock(stripe);
  std::set<StripeKey> model;
  std::mt19937_64 random(7);
  auto add = [&](uint64_t hash, std::string key) {
    stripe.AssertHeld();  // the test's lock, taken above (lambdas are analysed on their own)
    stripe.Put({hash, key}, "", OneItem());
    model.emplace(hash, std::move(key));
  };
  auto remove_some = [&](size_t n) {
    stripe.AssertHeld();
    for (size_t i = 0; i < n && !model.empty(); ++i) {
      auto it = model.begin();
      std::advance(it, static_cast<long>(random() % model.size()));
      EXPECT_TRUE(stripe.Erase({it->first, it->second}, ""));
      model.erase(it);
    }
  };
  // Built by the first scan, then kept in place; hash ties (hash % 16) order by key.
  for (int i = 0; i < 300; ++i) add(random() % 16, "k" + std::to_string(random() % 1000));
  ExpectOrder(stripe, model);
  constexpr int kBudget = static_cast<int>(Stripe::kMaintainedWritesPerScan);
  for (int round = 0; round < 20; ++round) {
    for (int i = 0; i < kBudget / 2; ++i) add(random() % 64, "k" + std::to_string(random() % 5000));
    remove_some(kBudget / 2);  // exactly the budget: still kept in place
    ExpectOrder(stripe, model);
  }
  // Past the budget between two scans: invalidated, then rebuilt by the next scan.
  for (int i = 0; i < 3 * kBudget; ++i) add(random(), std::to_string(random()));
  ExpectOrder(stripe, model);
  for (int i = 0; i < kBudget + 1; ++i) add(random(), "more" + std::to_string(i));
  remove_some(kBudget);
  ExpectOrder(stripe, model);
  // A large stripe (well past the 4,096 keys the first version stopped at): kept in place too.
  while (model.size() < 20'000) add(random(), std::to_string(random()));
  ExpectOrder(stripe, model);
  for (int round = 0; round < 10; ++round) {
    add(random(), "large" + std::to_string(round));
    remove_some(1);
    ExpectOrder(stripe, model);
  }
  // A key that exists is not added twice.
  const StripeKey existing = *model.begin();
  EXPECT_FALSE(stripe.Put({existing.first, existing.second}, "", OneItem()));
  ExpectOrder(stripe, model);
  EXPECT_EQ(stripe.item_count(), static_cast<int64_t>(model.size()));
  EXPECT_EQ(stripe.size_bytes(), static_cast<int64_t>(model.size() * OneItem().item_size()));
}

// The write budget between scans: kMaintainedWritesPerScan partition-key writes keep the order in
// place (no re-sort at the next scan), one more invalidates it; a scan renews the budget.
TEST(StripeOrder, KeptInPlaceForTheBudgetThenInvalidated) {
  Stripe stripe;
  Stripe::WriteLock lock(stripe);
  std::set<StripeKey> model;
  std::mt19937_64 random(11);
  auto add = [&](std::string key) {
    stripe.AssertHeld();
    const uint64_t hash = random();
    stripe.Put({hash, key}, "", OneItem());
    model.emplace(hash, std::move(key));
  };
  for (int i = 0; i < 10'000; ++i) add("k" + std::to_string(i));
  EXPECT_FALSE(stripe.order_cached());  // nobody scanned: writes never paid for the order
  ExpectOrder(stripe, model);
  ASSERT_TRUE(stripe.order_cached());
  for (int round = 0; round < 3; ++round) {
    for (uint32_t i = 0; i < Stripe::kMaintainedWritesPerScan; ++i)
      add("r" + std::to_string(round) + "-" + std::to_string(i));
    EXPECT_TRUE(stripe.order_cached()) << round;
    ExpectOrder(stripe, model);  // renews the budget
  }
  for (uint32_t i = 0; i <= Stripe::kMaintainedWritesPerScan; ++i) add("over" + std::to_string(i));
  EXPECT_FALSE(stripe.order_cached());
  ExpectOrder(stripe, model);
  EXPECT_TRUE(stripe.order_cached());
}

// Churn at a steady size (a cache's writes and evictions): erased keys leave tombstones in the
// open-addressing map, which it eventually clears by re-hashing in place, at the same capacity,
// moving entries. The order kept in place between scans must not survive that move.
TEST(StripeOrder, SurvivesTheMapRehashingInPlace) {
  Stripe stripe;
  Stripe::WriteLock lock(stripe);
  std::set<StripeKey> model;
  std::mt19937_64 random(23);
  for (int i = 0; i < 3'000; ++i) {
    const StripeKey k{random(), "k" + std::to_string(i)};
    stripe.Put({k.first, k.second}, "", OneItem());
    model.insert(k);
  }
  ExpectOrder(stripe, model);
  for (int round = 0; round < 400; ++round) {
    for (int i = 0; i < 16; ++i) {
      const StripeKey k{random(), "c" + std::to_string(round) + "-" + std::to_string(i)};
      stripe.Put({k.first, k.second}, "", OneItem());
      model.insert(k);
      auto victim = model.begin();
      std::advance(victim, static_cast<long>(random() % model.size()));
      ASSERT_TRUE(stripe.Erase({victim->first, victim->second}, ""));
      model.erase(victim);
    }
    ExpectOrder(stripe, model);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// One-item collections hold their item in the map's slot (shard/item_collection.h): as the map
// grows and moves its slots, each item moves with its key, and the collections that gain a second
// key (and lose it again) keep both items apart.
TEST(StripeOrder, InlineItemsMoveWithTheMapsSlots) {
  Stripe stripe;
  Stripe::WriteLock lock(stripe);
  constexpr int kKeys = 3000;  // many growths of the map
  auto item_of = [](int i, int version) {
    return Item{{"n", Value(static_cast<int64_t>(i))}, {"v", Value(static_cast<int64_t>(version))}};
  };
  auto key_of = [](int i) { return "pk#" + std::to_string(i); };
  for (int i = 0; i < kKeys; ++i) {
    stripe.Put({static_cast<uint64_t>(i) * 0x9e3779b97f4a7c15ULL, key_of(i)}, "",
               StoredItem::Encode(item_of(i, 0)));
  }
  for (int i = 0; i < kKeys; i += 3) {  // every third key gets a second item, then loses the first
    const std::string name = key_of(i);
    const PartitionKeyRef key{static_cast<uint64_t>(i) * 0x9e3779b97f4a7c15ULL, name};
    stripe.Put(key, "second", StoredItem::Encode(item_of(i, 1)));
    ASSERT_TRUE(stripe.Erase(key, ""));
  }
  ASSERT_EQ(stripe.item_count(), kKeys);
  for (int i = 0; i < kKeys; ++i) {
    const std::string name = key_of(i);
    const PartitionKeyRef key{static_cast<uint64_t>(i) * 0x9e3779b97f4a7c15ULL, name};
    const bool moved = i % 3 == 0;
    const StoredItem* item = stripe.FindItem(key, moved ? "second" : "");
    ASSERT_NE(item, nullptr) << i;
    EXPECT_EQ(item->ToItem(), item_of(i, moved ? 1 : 0)) << i;
    EXPECT_EQ(stripe.Find(key)->inline_item(), !moved) << i;
  }
}

}  // namespace
}  // namespace partstore
