// Stripe::Ordered: the partition keys in scan order, whether rebuilt after an invalidation or kept
// in place by inserts and removals (below kOrderMaintainedBelow partition keys), across the limit
// both ways, with hash ties ordered by key bytes.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <utility>

#include "shard/stripe.h"

namespace partstore {
namespace {

using Key = std::pair<uint64_t, std::string>;

void ExpectOrder(const Stripe& stripe, const std::set<Key>& model) {
  const auto& order = stripe.Ordered();
  ASSERT_EQ(order.size(), model.size());
  size_t i = 0;
  for (const Key& k : model) {
    ASSERT_EQ(order[i]->first.hash, k.first) << i;
    ASSERT_EQ(order[i]->first.key, k.second) << i;
    ++i;
  }
}

TEST(StripeOrder, MaintainedInPlaceAndRebuiltAcrossTheLimit) {
  Stripe stripe;
  std::unique_lock lock(stripe.mu);
  std::set<Key> model;
  std::mt19937_64 random(7);
  auto add = [&](uint64_t hash, std::string key) {
    stripe.FindOrCreate({hash, key});
    model.emplace(hash, std::move(key));
  };
  auto remove_some = [&](size_t n) {
    for (size_t i = 0; i < n && !model.empty(); ++i) {
      auto it = model.begin();
      std::advance(it, static_cast<long>(random() % model.size()));
      stripe.EraseIfEmpty({it->first, it->second});
      model.erase(it);
    }
  };
  // Small: built by the first scan, then kept in place; hash ties (hash % 16) order by key.
  for (int i = 0; i < 300; ++i) add(random() % 16, "k" + std::to_string(random() % 1000));
  ExpectOrder(stripe, model);
  for (int round = 0; round < 20; ++round) {
    for (int i = 0; i < 50; ++i) add(random() % 64, "k" + std::to_string(random() % 5000));
    remove_some(20);
    ExpectOrder(stripe, model);
  }
  // Past the limit: invalidated and rebuilt; then back below it by removals.
  while (model.size() < Stripe::kOrderMaintainedBelow + 100)
    add(random(), std::to_string(random()));
  ExpectOrder(stripe, model);
  add(random(), "one more");
  ExpectOrder(stripe, model);
  remove_some(model.size() - Stripe::kOrderMaintainedBelow + 50);
  ExpectOrder(stripe, model);
  for (int i = 0; i < 100; ++i) add(random(), "again" + std::to_string(i));
  remove_some(30);
  ExpectOrder(stripe, model);
  // A key that exists is not added twice.
  const Key existing = *model.begin();
  stripe.FindOrCreate({existing.first, existing.second});
  ExpectOrder(stripe, model);
}

}  // namespace
}  // namespace partstore
