// PatchStoredItem: a new version written from the old one's bytes and the changed attributes is
// byte for byte the encoding of the changed item (core/stored_item_patch.h).
#include "core/stored_item_patch.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "core/attribute_name_table.h"
#include "partstore/item.h"
#include "partstore/stored_item.h"
#include "tests/testutil/random_values.h"

namespace partstore {
namespace stored_item_patch_test {

// Applies `changes` (null: remove) to `item` as a tree and through PatchStoredItem, and checks
// that the two encodings and sizes are equal.
void ExpectPatchEqualsEncode(const Item& item, const std::vector<AttributeChange>& changes) {
  Item changed = item;
  for (const AttributeChange& change : changes) {
    if (change.value == nullptr) {
      changed.erase(std::string(change.name));
    } else {
      changed.insert_or_assign(std::string(change.name), *change.value);
    }
  }
  const StoredItem patched = PatchStoredItem(StoredItem::Encode(item), changes);
  const StoredItem encoded = StoredItem::Encode(changed);
  EXPECT_EQ(patched.encoding(), encoded.encoding());
  EXPECT_EQ(patched.item_size(), ItemSize(changed));
  EXPECT_EQ(patched.ToItem(), changed);
}

TEST(StoredItemPatchTest, SetsReplacesAndRemovesAttributes) {
  const Item item{{"pk", "user#1"}, {"b", 7}, {"d", Value::List({"x", 2})}, {"f", true}};
  const Value text("new"), number(12), map = Value::Map({{"k", "v"}});
  ExpectPatchEqualsEncode(item, {{"b", &text}});                    // replaced, same place
  ExpectPatchEqualsEncode(item, {{"a", &number}, {"c", &map}});     // added between others
  ExpectPatchEqualsEncode(item, {{"z", &text}});                    // added after the last
  ExpectPatchEqualsEncode(item, {{"b", nullptr}, {"f", nullptr}});  // removed
  ExpectPatchEqualsEncode(item, {{"c", nullptr}, {"e", nullptr}});  // absent: nothing changes
  ExpectPatchEqualsEncode(item, {});                                // no change at all
  ExpectPatchEqualsEncode(item, {{"b", nullptr}, {"d", nullptr}, {"f", nullptr}});  // key alone
}

TEST(StoredItemPatchTest, ValuesOfTheSameEncodedLengthAreWrittenOverTheOldOnes) {
  // Each change replaces an entry with one of the same encoded length: the item keeps its
  // layout, and only the changed entries' bytes differ (the path a YCSB update takes).
  const Item item{{"pk", "user#1"}, {"a", std::string(100, 'a') + "!"}, {"b", 1234},
                  {"c", true},      {"d", Value::Map({{"k", "v"}})},    {"e", std::string(40, 'r')},
                  {"z", "last"}};
  const Value same_text(std::string(100, 'b') + "?"), same_number(-987), flag(false);
  const Value same_map = Value::Map({{"k", "w"}}), other_run(std::string(40, 's'));
  const Value end_text("tail");
  ExpectPatchEqualsEncode(item, {{"a", &same_text}});
  ExpectPatchEqualsEncode(item, {{"b", &same_number}, {"c", &flag}, {"d", &same_map}});
  ExpectPatchEqualsEncode(item, {{"e", &other_run}, {"z", &end_text}});
  const Value other_key("user#2");
  ExpectPatchEqualsEncode(item, {{"pk", &other_key}});  // the first entry
  // One change keeps the layout and the next does not: the general path.
  const Value longer("longer");
  ExpectPatchEqualsEncode(item, {{"a", &same_text}, {"z", &longer}});
  ExpectPatchEqualsEncode(item, {{"a", &same_text}, {"c", nullptr}});
  ExpectPatchEqualsEncode(item, {{"a", &same_text}, {"y", &flag}});
  // The result is a new version: the source is unchanged.
  const StoredItem source = StoredItem::Encode(item);
  const std::string before(source.encoding());
  const StoredItem patched = PatchStoredItem(source, {{{"a", &same_text}}});
  EXPECT_EQ(source.encoding(), before);
  EXPECT_NE(patched.encoding(), before);
}

// Plans and writes `changes` into a sole copy of `item`'s encoding when they keep its layout and
// size; returns whether they did, after checking the result against PatchStoredItem.
bool ExpectInPlaceEqualsPatch(const Item& item, const std::vector<AttributeChange>& changes) {
  const StoredItem source = StoredItem::Encode(item);
  const StoredItem patched = PatchStoredItem(source, changes);
  StoredItem sole = StoredItem::Encode(item);
  std::optional<InPlacePatch> plan = PlanInPlacePatch(sole, changes);
  if (!plan) return false;
  const char* buffer = sole.encoding().data();
  PatchStoredItemInPlace(sole, changes, *plan);
  EXPECT_EQ(sole.encoding().data(), buffer);
  EXPECT_EQ(sole.encoding(), patched.encoding());
  EXPECT_EQ(sole.item_size(), patched.item_size());
  return true;
}

TEST(StoredItemPatchTest, InPlaceWritesAreThoseOfANewVersion) {
  const Item item{{"pk", "user#1"},
                  {"a", std::string(100, 'a') + "!"},
                  {"b", 1234},
                  {"c", true},
                  {"d", Value::Map({{"k", "v"}, {"l", Value::List({"x", 2})}})},
                  {"e", std::string(40, 'r')},
                  {"z", "last"}};
  const Value same_text(std::string(100, 'b') + "?"), same_number(4321), flag(false);
  const Value same_map = Value::Map({{"k", "w"}, {"l", Value::List({"y", 3})}});
  const Value other_run(std::string(40, 's')), end_text("tail"), other_key("user#2");
  EXPECT_TRUE(ExpectInPlaceEqualsPatch(item, {{"a", &same_text}}));
  EXPECT_TRUE(
      ExpectInPlaceEqualsPatch(item, {{"b", &same_number}, {"c", &flag}, {"d", &same_map}}));
  EXPECT_TRUE(ExpectInPlaceEqualsPatch(item, {{"e", &other_run}, {"z", &end_text}}));
  EXPECT_TRUE(ExpectInPlaceEqualsPatch(item, {{"pk", &other_key}}));
  EXPECT_TRUE(ExpectInPlaceEqualsPatch(item, {}));
  // Refused: another length, another size (1234 -> 1000: one significant digit), a removal, an
  // addition, a run that would no longer be one.
  const Value longer("longer"), fewer_digits(1000), not_a_run(std::string(39, 'r') + "s");
  ASSERT_NE(ValueSize(Value(1234)), ValueSize(fewer_digits));
  EXPECT_FALSE(ExpectInPlaceEqualsPatch(item, {{"a", &same_text}, {"z", &longer}}));
  EXPECT_FALSE(ExpectInPlaceEqualsPatch(item, {{"b", &fewer_digits}}));
  EXPECT_FALSE(ExpectInPlaceEqualsPatch(item, {{"a", &same_text}, {"c", nullptr}}));
  EXPECT_FALSE(ExpectInPlaceEqualsPatch(item, {{"a", &same_text}, {"y", &flag}}));
  EXPECT_FALSE(ExpectInPlaceEqualsPatch(item, {{"e", &not_a_run}}));
}

TEST(StoredItemPatchTest, ASharedBufferIsNeverWrittenInPlace) {
  const Item item{{"pk", "k"}, {"a", "aaaa"}};
  const Value value("bbbb");
  StoredItem sole = StoredItem::Encode(item);
  const std::vector<AttributeChange> changes{{"a", &value}};
  ASSERT_TRUE(PlanInPlacePatch(sole, changes).has_value());
  const StoredItem reader = sole;  // a second handle: a reader's
  EXPECT_FALSE(PlanInPlacePatch(sole, changes).has_value());
  EXPECT_FALSE(PlanInPlacePatch(reader, changes).has_value());
  EXPECT_FALSE(PlanInPlacePatch(StoredItem(), changes).has_value());
}

TEST(StoredItemPatchTest, RunsAndLongValuesMoveTheOffsetWidth) {
  // A body over 255 and then over 65,535 bytes takes 2- and 4-byte offsets; a run stays a run.
  const Item item{{"pk", "k"}, {"data", std::string(400, 'x')}, {"tail", "t"}};
  const Value longer(std::string(300, 'a') + "b"), huge(std::string(70'000, 'q') + "r");
  const Value run(std::string(5'000, 'y'));
  ExpectPatchEqualsEncode(item, {{"middle", &longer}});
  ExpectPatchEqualsEncode(item, {{"middle", &huge}});
  ExpectPatchEqualsEncode(item, {{"data", &run}});
  ExpectPatchEqualsEncode(Item{{"pk", "k"}, {"big", std::string(300, 'a') + "z"}},
                          {{"big", nullptr}});  // back to 1-byte offsets
}

TEST(StoredItemPatchTest, RandomChangesOnRandomItems) {
  std::mt19937_64 rng(51'2026);
  testing::RandomValueOptions options;
  options.max_name_length = 2;  // few names, so that changes hit existing attributes
  int in_place = 0;             // rounds whose changes could be written in place
  // A name the attribute-name table never numbers (too long): written out beside numbered ones.
  const std::string written_out(attribute_name_table::kMaxNameLength + 1, 'L');
  for (int round = 0; round < 2'000; ++round) {
    Item item = testing::RandomItem(rng, 8, 3, options);
    item.insert_or_assign("pk", "k");
    if (testing::RandomChance(rng, 0.3)) item.insert_or_assign(written_out, "long");
    std::vector<std::string> names;
    std::vector<Value> values;
    const int count = testing::RandomInt(rng, 0, 5);
    for (int i = 0; i < count; ++i) names.push_back(testing::RandomAttributeName(rng, options));
    if (testing::RandomChance(rng, 0.3)) names.push_back(written_out);
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    values.reserve(names.size());
    std::vector<AttributeChange> changes;
    for (const std::string& name : names) {
      if (testing::RandomChance(rng, 0.3)) {
        changes.push_back({name, nullptr});
      } else {
        values.push_back(testing::RandomValue(rng, 3, options));
        changes.push_back({name, &values.back()});
      }
    }
    SCOPED_TRACE("round " + std::to_string(round));
    ExpectPatchEqualsEncode(item, changes);
    in_place += ExpectInPlaceEqualsPatch(item, changes) ? 1 : 0;
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(in_place, 100);  // the in-place path was taken (354 of the rounds with this seed)
}

}  // namespace stored_item_patch_test
}  // namespace partstore
