// Random items for a put into the tests' "Orders" table (header-only; namespace
// partstore::testing): key schema PK (S) / SK (S), a GSI keyed by GSI1PK (S) and an LSI sorted by
// LSK (N). Each item is valid DynamoDB data but not always a valid put: its keys present or not
// and now and then of the wrong type, the GSI key now and then empty, the LSI key now and then a
// string, and now and then over 400 KB. The tests that put it through two paths (the tree and a
// StoredItem; Dispatch with and without the engine) compare what each path answers.
#pragma once

#include <cstdint>
#include <random>
#include <string>

#include "partstore/item.h"
#include "partstore/value.h"
#include "tests/testutil/random_values.h"

namespace partstore::testing {

inline Item RandomOrdersItem(std::mt19937_64& rng) {
  RandomValueOptions options;
  options.max_collection_size = 3;
  Item item = RandomItem(rng, 5, 3, options);
  const int keys = RandomInt(rng, 0, 99);
  if (keys >= 3) item["PK"] = Value("P" + std::to_string(RandomInt(rng, 0, 3)));
  if (keys >= 6) item["SK"] = Value("S" + std::to_string(RandomInt(rng, 0, 5)));
  if (keys == 7) item["SK"] = Value(int64_t{5});  // the wrong key type
  if (RandomChance(rng, 0.5)) item["GSI1PK"] = Value("G" + std::to_string(RandomInt(rng, 0, 2)));
  if (RandomChance(rng, 0.04)) item["GSI1PK"] = Value(int64_t{1});  // the wrong index key type
  if (RandomChance(rng, 0.04)) item["GSI1PK"] = Value("");          // an empty index key
  if (RandomChance(rng, 0.5)) item["LSK"] = Value(int64_t{RandomInt(rng, 0, 9)});
  if (RandomChance(rng, 0.04)) item["LSK"] = Value("9");  // the wrong LSI key type
  if (RandomChance(rng, 0.3)) item["a"] = Value(int64_t{RandomInt(rng, 0, 99)});
  if (RandomChance(rng, 0.02)) item["big"] = Value(std::string(kMaxItemSize, 'x'));
  return item;
}

}  // namespace partstore::testing
