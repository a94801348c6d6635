// ApplyUpdateToStored (core/expr/update_stored.h) against the tree path it replaces: on random
// items and random update expressions, the new version's encoding is byte for byte
// StoredItem::Encode of the item ApplyUpdate makes of the whole tree, and errors and
// UPDATED_OLD / UPDATED_NEW are the same.
#include "core/expr/update_stored.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "core/expr/parser.h"
#include "core/expr/resolve.h"
#include "core/expr/update.h"
#include "partstore/item.h"
#include "partstore/stored_item.h"
#include "tests/testutil/random_values.h"
#include "tests/testutil/sanitizers.h"

namespace partstore::expr {
namespace update_stored_test {

using ::partstore::testing::RandomChance;
using ::partstore::testing::RandomInt;
using ::partstore::testing::RandomNumber;
using ::partstore::testing::RandomUtf8;

const KeySchema kStoredSchema{KeyAttribute{"pk", KeyType::kString},
                              KeyAttribute{"sk", KeyType::kNumber}};

// ---- Random items and updates over a few names, so that paths meet what the item holds -----

Value RandomShape(std::mt19937_64& rng, int depth) {
  switch (RandomInt(rng, 0, depth > 0 ? 9 : 6)) {
    case 0:
      return Value(RandomUtf8(rng, 0, 6));
    case 1:
    case 2:
      return Value(RandomNumber(rng));
    case 3:
      return Value(StringSet{std::string("p"), std::string("q"), RandomUtf8(rng, 1, 3)});
    case 4:
      return Value(NumberSet{Number::Parse("1").value(), Number::Parse("2.5").value()});
    case 5:
      return Value(RandomChance(rng, 0.5));
    case 6:
      return Value::Nil();
    case 7:
    case 8: {
      ValueList list;
      for (int i = RandomInt(rng, 0, 3); i > 0; --i) list.push_back(RandomShape(rng, depth - 1));
      return Value::List(std::move(list));
    }
    default: {
      AttributeMap map;
      for (const char* key : {"x", "y"}) {
        if (RandomChance(rng, 0.6)) map.emplace(key, RandomShape(rng, depth - 1));
      }
      return Value::Map(std::move(map));
    }
  }
}

Item RandomStoredItem(std::mt19937_64& rng) {
  Item item{{"pk", "k"}, {"sk", 1}};
  for (const char* name : {"a", "b", "c", "d", "e"}) {
    if (!RandomChance(rng, 0.8)) continue;
    // Mostly maps of x and y and lists, which the generated paths step into.
    const int shape = RandomInt(rng, 0, 9);
    if (shape < 4) {
      item.emplace(name, Value::Map({{"x", Value::List({RandomShape(rng, 1), RandomShape(rng, 1)})},
                                     {"y", RandomShape(rng, 1)}}));
    } else if (shape < 6) {
      item.emplace(name,
                   Value::List({Value::Map({{"x", RandomShape(rng, 1)}}), RandomShape(rng, 1)}));
    } else {
      item.emplace(name, RandomShape(rng, 2));
    }
  }
  // Sometimes an attribute no path names, large enough that a large SET takes the item over 400 KB.
  if (RandomChance(rng, 0.1)) item.emplace("g", std::string(150'000, 'g') + "!");
  return item;
}

std::string RandomPath(std::mt19937_64& rng) {
  static const char* const kTops[] = {"a", "b", "c", "d", "e", "f"};
  static const char* const kSuffixes[] = {".x", ".y", "[0]", "[1]", "[4]", ".x[0]", "[0].x"};
  if (RandomChance(rng, 0.03)) return "pk";  // a key attribute: always refused
  std::string path = kTops[RandomInt(rng, 0, 5)];
  if (RandomChance(rng, 0.3)) path += kSuffixes[RandomInt(rng, 0, 6)];
  return path;
}

std::string RandomSetOperand(std::mt19937_64& rng) {
  const std::string path = RandomPath(rng);
  switch (RandomInt(rng, 0, 13)) {
    case 0:
      return path;
    case 1:
      return path + " + :n";
    case 2:
      return ":n - " + path;
    case 3:
      return "if_not_exists(" + path + ", :s)";
    case 4:
      return "list_append(" + path + ", :l)";
    case 5:
      return "list_append(:l, " + path + ")";
    default: {
      static const char* const kValues[] = {":s", ":n", ":l", ":m", ":ss", ":ns", ":big"};
      return kValues[RandomInt(rng, 0, 6)];
    }
  }
}

std::string RandomUpdateText(std::mt19937_64& rng) {
  std::vector<std::string> sets, removes, adds, deletes;
  for (int i = RandomInt(rng, 1, 3); i > 0; --i) {
    switch (RandomInt(rng, 0, 5)) {
      case 0:
      case 1:
      case 2:
        sets.push_back(RandomPath(rng) + " = " + RandomSetOperand(rng));
        break;
      case 3:
        removes.push_back(RandomPath(rng));
        break;
      case 4: {
        static const char* const kAdds[] = {":n", ":ss", ":ns"};
        adds.push_back(RandomPath(rng) + " " + kAdds[RandomInt(rng, 0, 2)]);
        break;
      }
      default:
        deletes.push_back(RandomPath(rng) + (RandomChance(rng, 0.5) ? " :ss" : " :ns"));
    }
  }
  std::string text;
  auto clause = [&](const char* keyword, const std::vector<std::string>& actions) {
    if (actions.empty()) return;
    text += (text.empty() ? "" : " ") + std::string(keyword);
    for (size_t i = 0; i < actions.size(); ++i) text += (i ? ", " : " ") + actions[i];
  };
  clause("SET", sets);
  clause("REMOVE", removes);
  clause("ADD", adds);
  clause("DELETE", deletes);
  return text;
}

AttributeMap RandomValues(std::mt19937_64& rng) {
  return AttributeMap{
      {":s", Value(RandomUtf8(rng, 0, 5))},
      {":n", Value(RandomNumber(rng))},
      {":l", Value::List({RandomShape(rng, 1)})},
      {":m", Value::Map({{"x", RandomShape(rng, 1)}})},
      {":ss", Value(StringSet{std::string("p"), RandomUtf8(rng, 1, 2)})},
      {":ns", Value(NumberSet{Number::Parse("2.5").value()})},
      // Sometimes enough to take the item over 400 KB.
      {":big", Value(std::string(RandomChance(rng, 0.3) ? 260'000 : 300, 'z') + "!")},
  };
}

// ---- The comparison -------------------------------------------------------------------------

// What the tree path (before ApplyUpdateToStored) stores: ApplyUpdate on the whole item, then
// ValidateItem, then Encode.
Result<std::pair<StoredItem, Item>> TreePath(const UpdateExpression& update, const Item& old,
                                             UpdatedAttributes wanted) {
  PARTSTORE_ASSIGN_OR_RETURN(UpdateOutcome outcome,
                             ApplyUpdate(update, &old, kStoredSchema, wanted));
  PARTSTORE_RETURN_IF_ERROR(ValidateItem(outcome.item));
  return std::make_pair(StoredItem::Encode(outcome.item), std::move(outcome.attributes));
}

struct Counts {
  int applied = 0;
  int failed = 0;
};

void CheckOne(const UpdateExpression& update, const Item& old_tree, UpdatedAttributes wanted,
              std::span<const std::string_view> also, Counts* counts) {
  const StoredItem old = StoredItem::Encode(old_tree);
  Result<std::pair<StoredItem, Item>> want = TreePath(update, old_tree, wanted);
  Result<StoredUpdateOutcome> got = ApplyUpdateToStored(update, old, kStoredSchema, wanted, also);
  ASSERT_EQ(got.ok(), want.ok()) << (got.ok() ? want.status() : got.status()).ToString();
  if (!want.ok()) {
    ++counts->failed;
    EXPECT_EQ(got.status().code(), want.status().code());
    EXPECT_EQ(got.status().message(), want.status().message());
    return;
  }
  ++counts->applied;
  EXPECT_EQ(got->item.encoding(), want->first.encoding());
  EXPECT_EQ(got->item.item_size(), want->first.item_size());
  EXPECT_EQ(got->attributes, want->second);
  // `touched` holds the new values of `also` (what an index key check reads), and nothing else.
  const Item new_tree = want->first.ToItem();
  for (const auto& [name, value] : got->touched) {
    EXPECT_NE(std::find(also.begin(), also.end(), name), also.end()) << name;
  }
  for (std::string_view name : also) {
    auto in_new = new_tree.find(name);
    auto in_touched = got->touched.find(name);
    ASSERT_EQ(in_touched != got->touched.end(), in_new != new_tree.end()) << name;
    if (in_new != new_tree.end()) {
      EXPECT_EQ(in_touched->second, in_new->second) << name;
    }
  }
}

// Under a sanitizer (ASan: about 20x slower here), a fifth of the rounds; the fuzz target
// update_stored_fuzz covers the rest there.
constexpr int kRounds = PARTSTORE_TEST_SANITIZED ? 2'000 : 10'000;

TEST(UpdateStoredTest, RandomUpdatesOnRandomItemsMatchTheTreePath) {
  std::mt19937_64 rng(20261129);
  Counts counts;
  int rejected = 0;
  for (int round = 0; round < kRounds; ++round) {
    const std::string text = RandomUpdateText(rng);
    const AttributeMap values = RandomValues(rng);
    Result<UpdateExpression> parsed = ParseUpdate(text);
    ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.status().ToString();
    Resolver resolver(nullptr, &values);
    Result<UpdateExpression> update = resolver.Resolve(*parsed);
    if (!update.ok()) {  // overlapping or conflicting paths, a constant of the wrong type
      ++rejected;
      continue;
    }
    const Item item = RandomStoredItem(rng);
    const auto wanted = static_cast<UpdatedAttributes>(RandomInt(rng, 0, 2));
    static constexpr std::string_view kAlso[] = {"b", "e"};
    const std::span<const std::string_view> also = RandomChance(rng, 0.5)
                                                       ? std::span<const std::string_view>(kAlso)
                                                       : std::span<const std::string_view>();
    SCOPED_TRACE("round " + std::to_string(round) + ": " + text + " on " +
                 DebugString(Value::Map(item)));
    CheckOne(*update, item, wanted, also, &counts);
    if (::testing::Test::HasFailure()) return;
  }
  // The generator must reach both outcomes often, or the comparison proves little.
  EXPECT_GT(counts.applied, kRounds / 5) << "failed " << counts.failed << ", rejected " << rejected;
  EXPECT_GT(counts.failed, kRounds / 10)
      << "applied " << counts.applied << ", rejected " << rejected;
}

// ApplyUpdateToStored of `text`, resolved against `values`, on `item` encoded.
Result<StoredUpdateOutcome> ApplyText(std::string_view text, const AttributeMap& values,
                                      const Item& item,
                                      UpdatedAttributes wanted = UpdatedAttributes::kNone) {
  Resolver resolver(nullptr, &values);
  Result<UpdateExpression> update = resolver.Resolve(ParseUpdate(text).value());
  if (!update.ok()) return update.status();
  return ApplyUpdateToStored(*update, StoredItem::Encode(item), kStoredSchema, wanted);
}

TEST(UpdateStoredTest, TheSizeLimitIsOnTheWholeNewItem) {
  // The changed attribute alone is far under 400 KB; with the untouched one, the item is over.
  const Item item{{"pk", "k"}, {"sk", 1}, {"a", std::string(300'000, 'a') + "!"}};
  const AttributeMap values{{":v", Value(std::string(150'000, 'b') + "!")},
                            {":huge", Value(std::string(500'000, 'h') + "!")},
                            {":small", Value("s")}};
  Result<StoredUpdateOutcome> over = ApplyText("SET b = :v", values, item);
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.status().message(), messages::kItemTooLarge);
  // A value over 400 KB on its own is refused alike (the in-place path checks it before
  // encoding anything).
  Result<StoredUpdateOutcome> huge = ApplyText("SET b = :huge", values, item);
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.status().message(), messages::kItemTooLarge);

  Result<StoredUpdateOutcome> under = ApplyText("SET a = :small", values, item);
  ASSERT_TRUE(under.ok()) << under.status().ToString();
  EXPECT_EQ(under->item.ToItem(), (Item{{"pk", "k"}, {"sk", 1}, {"a", "s"}}));
}

TEST(UpdateStoredTest, AnAddChangesOnlyItsAttribute) {
  // The 200-byte attribute the update does not name comes through as it was; UPDATED_NEW shows
  // the changed one; nothing is read into `touched` without `also`.
  const Item item{
      {"pk", "k"}, {"sk", 1}, {"blob", Value(Bytes{std::string(200, '\x7f')})}, {"n", 1}};
  Result<StoredUpdateOutcome> got =
      ApplyText("ADD n :one", AttributeMap{{":one", 1}}, item, UpdatedAttributes::kUpdatedNew);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ(got->attributes, (Item{{"n", 2}}));
  EXPECT_TRUE(got->touched.empty());
  EXPECT_EQ(got->item.ToItem(),
            (Item{{"pk", "k"}, {"sk", 1}, {"blob", item.at("blob")}, {"n", 2}}));
}

}  // namespace update_stored_test
}  // namespace partstore::expr
