// KEYS_ONLY index entries (shard/secondary_index.h): an entry keeps only its projected size, and
// EntryItem rebuilds its item from the partition and entry key. The rebuilt item must be byte
// for byte the projection the engine stored before (ProjectStoredItem of the base item onto the
// four keys), for every index shape and key type.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "core/key_encoding.h"
#include "core/stored_item_projection.h"
#include "shard/secondary_index.h"
#include "tests/testutil/random_values.h"

namespace partstore {
namespace {

using ::partstore::testing::RandomInt;
using ::partstore::testing::RandomItem;
using ::partstore::testing::RandomScalar;
using ::partstore::testing::RandomValueOptions;

struct Shape {
  const char* description;
  KeySchema table;
  IndexKind kind;
  KeySchema index;
};

KeyAttribute Key(const char* name, KeyType type) { return KeyAttribute{name, type}; }

std::vector<Shape> Shapes() {
  const KeyType S = KeyType::kString, N = KeyType::kNumber, B = KeyType::kBinary;
  return {
      {"GSI with a sort key",
       {Key("PK", S), Key("SK", S)},
       IndexKind::kGlobal,
       {Key("GPK", S), Key("GSK", S)}},
      {"GSI without a sort key",
       {Key("PK", S), Key("SK", N)},
       IndexKind::kGlobal,
       {Key("GPK", B), std::nullopt}},
      {"GSI of a hash-only table",
       {Key("PK", B), std::nullopt},
       IndexKind::kGlobal,
       {Key("GPK", N), Key("GSK", B)}},
      {"inverted GSI (keys swapped)",
       {Key("PK", S), Key("SK", S)},
       IndexKind::kGlobal,
       {Key("SK", S), Key("PK", S)}},
      {"GSI on the table's partition key",
       {Key("PK", N), Key("SK", B)},
       IndexKind::kGlobal,
       {Key("PK", N), Key("GSK", N)}},
      {"LSI", {Key("PK", S), Key("SK", S)}, IndexKind::kLocal, {Key("PK", S), Key("LSK", N)}},
      {"LSI with binary keys",
       {Key("PK", B), Key("SK", B)},
       IndexKind::kLocal,
       {Key("PK", B), Key("LSK", B)}},
  };
}

// A key value of `type`: random, or one of the awkward ones (bytes 0x00 and 0xFF, which the
// entry key escapes; numbers at the ends of the range, negative ones).
Value KeyValue(std::mt19937_64& rng, KeyType type) {
  switch (RandomInt(rng, 0, 3)) {
    case 0:
      if (type == KeyType::kBinary) return Value::Binary(std::string("\0\xFF\0\x01\0", 5));
      if (type == KeyType::kString) return Value(std::string("a\0b\0", 4));
      return Value(Number::Parse("-9.9999999999999999999999999999999999999E+125").value());
    case 1:
      if (type == KeyType::kNumber) return Value(Number::Parse("1E-130").value());
      break;
    default:
      break;
  }
  RandomValueOptions options;
  options.allow_empty = false;
  const Type t = type == KeyType::kString   ? Type::kS
                 : type == KeyType::kNumber ? Type::kN
                                            : Type::kB;
  return RandomScalar(rng, t, options);
}

TEST(KeysOnlyEntryTest, RebuiltEntriesAreTheProjectionsOfTheirItems) {
  std::mt19937_64 rng(51);
  int checked = 0;
  for (const Shape& shape : Shapes()) {
    SCOPED_TRACE(shape.description);
    IndexDefinition definition{.name = "Index",
                               .kind = shape.kind,
                               .key = shape.index,
                               .projection = ProjectionType::kKeysOnly};
    const SecondaryIndex index(definition, shape.table, 1);
    std::vector<std::string_view> keys = {shape.table.partition.name, shape.index.partition.name};
    if (shape.table.sort) keys.push_back(shape.table.sort->name);
    if (shape.index.sort) keys.push_back(shape.index.sort->name);

    for (int round = 0; round < 300; ++round) {
      Item item = RandomItem(rng, 5, 2);
      // The keys: an LSI's partition key is the table's; an index key may be a table key.
      item.insert_or_assign(shape.table.partition.name, KeyValue(rng, shape.table.partition.type));
      if (shape.table.sort) {
        item.insert_or_assign(shape.table.sort->name, KeyValue(rng, shape.table.sort->type));
      }
      for (const auto* attribute :
           {&shape.index.partition, shape.index.sort ? &*shape.index.sort : nullptr}) {
        const bool table_key = attribute != nullptr &&
                               (attribute->name == shape.table.partition.name ||
                                (shape.table.sort && attribute->name == shape.table.sort->name));
        if (attribute != nullptr && !table_key) {
          item.insert_or_assign(attribute->name, KeyValue(rng, attribute->type));
        }
      }
      const StoredItem stored = StoredItem::Encode(item);
      std::string partition, sort;
      AppendKeyEncoding(item.at(shape.table.partition.name), &partition);
      if (shape.table.sort) AppendKeyEncoding(item.at(shape.table.sort->name), &sort);
      const std::optional<SecondaryIndex::EntryKey> key = index.KeyOf(stored, partition, sort);
      if (!key) continue;  // a key over the size limits: no entry

      const StoredItem entry = index.Project(stored);
      EXPECT_EQ(entry.attribute_count(), 0u);
      EXPECT_EQ(entry.footprint(),
                0u);  // no buffer: the handle holds the size (StoredItem::OfSize)
      const StoredItem expected = ProjectStoredItem(stored, keys);
      EXPECT_EQ(entry.item_size(), expected.item_size());
      const StoredItem rebuilt = index.EntryItem(key->partition, key->entry, entry);
      ASSERT_EQ(rebuilt.encoding(), expected.encoding()) << rebuilt.ToItem().size();
      EXPECT_EQ(rebuilt.item_size(), expected.item_size());
      ++checked;
    }
  }
  EXPECT_GT(checked, 1500);
}

TEST(KeysOnlyEntryTest, OtherProjectionsHandOutTheStoredEntry) {
  const KeySchema table{Key("PK", KeyType::kString), Key("SK", KeyType::kString)};
  for (ProjectionType projection : {ProjectionType::kAll, ProjectionType::kInclude}) {
    IndexDefinition definition{.name = "Index",
                               .key = {Key("GPK", KeyType::kString), std::nullopt},
                               .projection = projection,
                               .non_key_attributes = {"a"}};
    const SecondaryIndex index(definition, table, 1);
    EXPECT_FALSE(index.entries_are_keys());
    const StoredItem item = StoredItem::Encode(
        Item{{"PK", Value("p")}, {"SK", Value("s")}, {"GPK", Value("g")}, {"a", Value("x")}});
    const StoredItem entry = index.Project(item);
    EXPECT_TRUE(index.EntryItem("", "", entry).SharesBufferWith(entry));
  }
}

}  // namespace
}  // namespace partstore
