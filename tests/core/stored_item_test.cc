// StoredItem: the encoding's round trip for every type, the views, the checking decoder, and
// sharing a buffer across threads.
#include "partstore/stored_item.h"

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <iterator>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/stored_item_projection.h"
#include "partstore/item.h"
#include "partstore/value.h"
#include "tests/core/number_testutil.h"
#include "tests/testutil/random_values.h"

namespace partstore {
namespace {

using ::partstore::testing::numbers::N;

// Encodes, checks the views against the tree, decodes the encoding back and compares bytes.
void ExpectRoundTrip(const Item& item) {
  ASSERT_TRUE(ValidateItem(item).ok()) << ValidateItem(item).ToString();
  const StoredItem stored = StoredItem::Encode(item);
  EXPECT_EQ(stored.item_size(), ItemSize(item));
  EXPECT_EQ(stored.attribute_count(), item.size());
  EXPECT_EQ(stored.ToItem(), item);
  EXPECT_TRUE(stored == item);
  for (const auto& [name, value] : item) {
    const std::optional<ValueView> view = stored.Find(name);
    ASSERT_TRUE(view.has_value()) << name;
    EXPECT_EQ(view->type(), value.type()) << name;
    EXPECT_TRUE(*view == value) << name;
    EXPECT_EQ(view->ToValue(), value) << name;
    EXPECT_EQ(view->Size(), ValueSize(value)) << name;
  }
  Result<StoredItem> decoded = StoredItem::Decode(stored.PortableEncoding());
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->encoding(), stored.encoding());
  EXPECT_EQ(decoded->item_size(), stored.item_size());
  EXPECT_EQ(decoded->ToItem(), item);
}

Value NumberSetOf(std::initializer_list<const char*> texts) {
  std::vector<Number> numbers;
  for (const char* t : texts) numbers.push_back(N(t));
  return Value(NumberSet(std::move(numbers)));
}

Value NumberOf(const std::string& text) { return Value(N(text.c_str())); }

TEST(StoredItemTest, EveryTypeRoundTrips) {
  ExpectRoundTrip({
      {"PK", "USER#alice"},
      {"SK", "PROFILE"},
      {"age", 42},
      {"bin", Value::Binary(std::string("\x00\xFF\x80", 3))},
      {"flag", true},
      {"off", false},
      {"nothing", Value::Nil()},
      {"map", Value::Map({{"street", "Main"}, {"no", 7}, {"deep", Value::Map({{"x", "y"}})}})},
      {"list", Value::List({1, "two", Value::List({true}), Value::Nil()})},
      {"ss", Value(StringSet({"b", "a", "\xC3\xA9"}))},
      {"ns", NumberSetOf({"3", "-1.5", "1E3", "0"})},
      {"bs", Value(BinarySet({Bytes{"\x01"}, Bytes{"\xFF"}, Bytes{"a"}}))},
  });
}

TEST(StoredItemTest, EmptyItemAndEmptyCollections) {
  ExpectRoundTrip({});
  ExpectRoundTrip(
      {{"m", Value::Map({})}, {"l", Value::List({})}, {"s", ""}, {"b", Value::Binary("")}});
  const StoredItem empty = StoredItem::Encode({});
  EXPECT_EQ(empty.attribute_count(), 0u);
  EXPECT_FALSE(empty.Find("a").has_value());
  EXPECT_EQ(empty.attributes().begin(), empty.attributes().end());
}

TEST(StoredItemTest, EveryNumberFormIsExact) {
  for (const char* text :
       {"0", "-0", "1", "-1", "00042", "1.0", "1.5E2", "1E-5", "-1E-130",
        "9.9999999999999999999999999999999999999E+125", "12345678901234567890123456789012345678",
        "0.000000000000000001", "1E125", "-7.25", "100", "1e-130"}) {
    SCOPED_TRACE(text);
    const Number n = N(text);
    ExpectRoundTrip({{"n", n}});
    const StoredItem stored = StoredItem::Encode({{"n", n}});
    EXPECT_EQ(stored.Find("n")->number_text(), n.ToString());
    EXPECT_EQ(stored.Find("n")->as_number(), n);
  }
}

TEST(StoredItemTest, NestingToDynamoDbsLimit) {
  // The item is level 1; a top-level attribute stands at level 2; 31 nested maps reach level 32.
  Value deepest = Value("leaf");
  for (int level = 0; level < 31; ++level) {
    deepest = level % 2 ? Value::Map({{"m", deepest}}) : Value::List({deepest});
  }
  Item item{{"deep", deepest}};
  ASSERT_TRUE(ValidateItem(item).ok());
  ExpectRoundTrip(item);

  // One level more: the encoder is never given such an item, and the decoder refuses it.
  const StoredItem stored = StoredItem::Encode({{"deep", Value::List({deepest})}});
  Result<StoredItem> decoded = StoredItem::Decode(stored.PortableEncoding());
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.status().code(), Code::kInternal);
  EXPECT_NE(decoded.status().message().find("nested too deep"), std::string_view::npos);
}

TEST(StoredItemTest, FourHundredKilobyteItems) {
  // Exactly 400 KB: a name of 2 bytes and a string of the rest; offsets need 4-byte width.
  Item item{{"PK", "k"}, {"pd", std::string(kMaxItemSize - 2 - 3, 'x')}};
  ASSERT_EQ(ItemSize(item), kMaxItemSize);
  ExpectRoundTrip(item);
  // Many attributes, with 2-byte offsets in a nested map and a long list.
  AttributeMap wide;
  ValueList long_list;
  for (int i = 0; i < 3000; ++i) {
    wide.emplace("attr" + std::to_string(i), std::string(static_cast<size_t>(i % 40), 'v'));
    long_list.push_back(Value(i));
  }
  Item big{{"PK", "k"}, {"wide", Value::Map(wide)}, {"list", Value::List(long_list)}};
  ExpectRoundTrip(big);
  const StoredItem stored = StoredItem::Encode(big);
  EXPECT_EQ(stored.Find("list")->as_list().at(2999)->as_number(), Number::FromInt64(2999));
  EXPECT_FALSE(stored.Find("list")->as_list().at(3000).has_value());
  EXPECT_EQ(stored.Find("wide")->as_map().Find("attr1234")->as_string(), std::string(34, 'v'));
}

TEST(StoredItemTest, ViewsReadWithoutATree) {
  const StoredItem stored = StoredItem::Encode({{"a", 1},
                                                {"b", "bee"},
                                                {"c", Value::Map({{"x", 1}, {"y", 2}})},
                                                {"s", Value(StringSet({"red", "blue"}))},
                                                {"n", NumberSetOf({"10", "2"})}});
  // Iteration is in name order; at(i) agrees with it.
  std::vector<std::string> names;
  for (const MapView::Entry& e : stored.attributes()) names.emplace_back(e.name);
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b", "c", "n", "s"}));
  for (size_t i = 0; i < names.size(); ++i) EXPECT_EQ(stored.attributes().at(i).name, names[i]);
  EXPECT_FALSE(stored.Find("").has_value());
  EXPECT_FALSE(stored.Find("bb").has_value());
  EXPECT_FALSE(stored.Find("z").has_value());
  EXPECT_EQ(stored.Find("b")->as_string(), "bee");
  EXPECT_EQ(stored.Find("c")->as_map().Find("y")->as_number(), Number::FromInt64(2));
  const SetView set = stored.Find("s")->as_set();
  EXPECT_EQ(set.size(), 2u);
  EXPECT_TRUE(set.contains("red"));
  EXPECT_FALSE(set.contains("green"));
  std::vector<std::string> elements(set.begin(), set.end());
  EXPECT_EQ(elements, (std::vector<std::string>{"blue", "red"}));
  // NS elements in numeric order, compared by value.
  std::vector<std::string> numbers(stored.Find("n")->as_set().begin(),
                                   stored.Find("n")->as_set().end());
  EXPECT_EQ(numbers, (std::vector<std::string>{"2", "10"}));
  EXPECT_TRUE(stored.Find("n")->as_set().contains("1E1"));
  // A view differs from a value of another type or contents.
  EXPECT_FALSE(*stored.Find("a") == Value("1"));
  EXPECT_FALSE(*stored.Find("a") == Value(2));
  EXPECT_TRUE(*stored.Find("a") == Value(N("1.0")));
  EXPECT_FALSE((stored == Item{{"a", 1}}));
}

// A projection copies the chosen attributes' bytes: the same bytes and size as encoding the
// chosen attributes' tree.
TEST(StoredItemTest, ProjectionKeepsTheChosenAttributesAsEncodingThemWould) {
  std::mt19937_64 rng(5);
  for (int i = 0; i < 300; ++i) {
    SCOPED_TRACE(i);
    const Item item = testing::RandomItem(rng, 8, 4);
    const StoredItem stored = StoredItem::Encode(item);
    std::vector<std::string> chosen;
    Item subset;
    for (const auto& [name, value] : item) {
      if (rng() % 2 == 0) continue;
      chosen.push_back(name);
      if (rng() % 4 == 0) chosen.push_back(name);  // duplicates are harmless
      subset.emplace(name, value);
    }
    for (std::string extra :
         {"absent", "zzz-absent", "\x01"}) {  // names the item most likely lacks
      if (auto it = item.find(extra); it != item.end()) subset.insert(*it);
      chosen.push_back(std::move(extra));
    }
    std::shuffle(chosen.begin(), chosen.end(), rng);
    const std::vector<std::string_view> names(chosen.begin(), chosen.end());
    const StoredItem projected = ProjectStoredItem(stored, names);
    const StoredItem want = StoredItem::Encode(subset);
    EXPECT_EQ(projected.encoding(), want.encoding());
    EXPECT_EQ(projected.item_size(), ItemSize(subset));
    EXPECT_EQ(projected.SharesBufferWith(stored), subset.size() == item.size());
  }
  const StoredItem stored = StoredItem::Encode({{"PK", "a"}, {"SK", "b"}, {"x", 1}});
  const StoredItem all = ProjectStoredItem(stored, {"x", "SK", "PK", "nope"});
  EXPECT_TRUE(all.SharesBufferWith(stored));  // as an ALL projection: one more reference
  EXPECT_EQ(stored.use_count(), 2u);
  const StoredItem keys = ProjectStoredItem(stored, {"SK", "PK"});
  EXPECT_TRUE((keys == Item{{"PK", "a"}, {"SK", "b"}}));
  EXPECT_EQ(ProjectStoredItem(stored, {}).encoding(), StoredItem::Encode({}).encoding());
  EXPECT_TRUE(StoredItem::Decode(keys.PortableEncoding()).ok());
}

// A KEYS_ONLY index entry's item is written from its keys' bytes: the same encoding and size as
// encoding the tree, for S (runs of one byte included), N and B values; an entry kept by its size
// has no attributes.
TEST(StoredItemTest, ScalarAttributesEncodeAsTheirTree) {
  std::mt19937_64 rng(11);
  testing::RandomValueOptions options;
  options.allow_empty = false;
  for (int i = 0; i < 500; ++i) {
    SCOPED_TRACE(i);
    Item item;
    const int count = testing::RandomInt(rng, 0, 4);
    for (int a = 0; a < count; ++a) {
      const Type type = std::array{Type::kS, Type::kN, Type::kB}[testing::RandomInt(rng, 0, 2)];
      Value value = testing::RandomScalar(rng, type, options);
      if (type == Type::kS && rng() % 4 == 0) value = Value(std::string(32 + rng() % 40, 'k'));
      item.insert_or_assign(testing::RandomAttributeName(rng), std::move(value));
    }
    std::vector<std::string> texts;  // the numbers' canonical texts
    texts.reserve(item.size());
    std::vector<ScalarAttribute> attributes;
    for (const auto& [name, value] : item) {
      ScalarAttribute& a = attributes.emplace_back(ScalarAttribute{name, value.type(), {}});
      if (value.is(Type::kN)) {
        a.payload = texts.emplace_back(value.as_number().ToString());
      } else {
        a.payload = value.is(Type::kS) ? value.as_string() : value.as_binary();
      }
    }
    const StoredItem built = EncodeScalarAttributes(attributes);
    const StoredItem want = StoredItem::Encode(item);
    EXPECT_EQ(built.encoding(), want.encoding());
    EXPECT_EQ(built.item_size(), want.item_size());
  }
}

// A sized handle holds no buffer: an empty item of the given size, copied, moved and released
// like any handle, with nothing to free.
TEST(StoredItemTest, ASizedHandleHoldsItsSizeAlone) {
  const StoredItem sized = StoredItem::OfSize(123);
  EXPECT_FALSE(sized.empty());
  EXPECT_EQ(sized.attribute_count(), 0u);
  EXPECT_EQ(sized.item_size(), 123u);
  EXPECT_EQ(sized.encoding(), StoredItem::Encode({}).encoding());
  EXPECT_EQ(sized.PortableEncoding(), StoredItem::Encode({}).PortableEncoding());
  EXPECT_EQ(sized.footprint(), 0u);
  EXPECT_EQ(sized.use_count(), 1u);
  EXPECT_TRUE(sized.ToItem().empty());
  EXPECT_FALSE(sized.Find("PK").has_value());
  StoredItem copy = sized;
  EXPECT_EQ(copy.item_size(), 123u);
  EXPECT_FALSE(copy.SharesBufferWith(sized));
  StoredItem moved = std::move(copy);
  EXPECT_EQ(moved.item_size(), 123u);
  EXPECT_EQ(StoredItem::OfSize(400 * 1024).item_size(), 400u * 1024);
  EXPECT_EQ(StoredItem::OfSize(0).item_size(), 0u);
  std::vector<StoredItem> all{sized, moved, StoredItem::Encode({{"PK", Value("a")}})};
  StoredItem::ReleaseInAddressOrder(all);
  EXPECT_TRUE(all.empty());
}

// The views are C++20 ranges (std::ranges algorithms work on them).
static_assert(std::forward_iterator<MapView::iterator>);
static_assert(std::forward_iterator<ListView::iterator>);
static_assert(std::forward_iterator<SetView::iterator>);

// Releasing many handles at once: every handle is released, in whatever order they came; a
// buffer another handle still holds stays readable (an ALL projection shares its base's).
TEST(StoredItemTest, ReleaseInAddressOrderReleasesEveryHandle) {
  std::vector<StoredItem> items;
  for (int i = 0; i < 1000; ++i) {
    items.push_back(StoredItem::Encode({{"PK", "k" + std::to_string((i * 7919) % 1000)}}));
  }
  const StoredItem kept = items[500];
  const std::string kept_pk(kept.Find("PK")->as_string());
  EXPECT_EQ(kept.use_count(), 2u);
  StoredItem::ReleaseInAddressOrder(items);
  EXPECT_TRUE(items.empty());
  EXPECT_EQ(kept.use_count(), 1u);
  EXPECT_EQ(kept.Find("PK")->as_string(), kept_pk);
  std::vector<StoredItem> none;
  StoredItem::ReleaseInAddressOrder(none);
  EXPECT_TRUE(none.empty());
}

TEST(StoredItemTest, CopiesShareOneBuffer) {
  StoredItem a = StoredItem::Encode({{"PK", "x"}});
  EXPECT_EQ(a.use_count(), 1u);
  StoredItem b = a;
  EXPECT_TRUE(a.SharesBufferWith(b));
  EXPECT_EQ(a.use_count(), 2u);
  StoredItem c = std::move(b);
  EXPECT_TRUE(b.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty by contract
  EXPECT_EQ(a.use_count(), 2u);
  c = StoredItem();
  EXPECT_EQ(a.use_count(), 1u);
  EXPECT_FALSE(a.SharesBufferWith(StoredItem::Encode({{"PK", "x"}})));
  EXPECT_EQ(a.footprint(), a.encoding().size() + 8);  // the 8-byte header
}

// A string of one byte repeated 32 to 65,536 times is stored by its length and the byte: the item
// reads and sizes as before, costs a few bytes, and round-trips through Decode.
TEST(StoredItemTest, RunsOfOneByteAreStoredByLength) {
  const std::string run(400, 'x');
  const Item item{{"PK", Value("USER#1")},
                  {"data", Value(run)},
                  {"short", Value(std::string(31, 'y'))},
                  {"m", Value::Map({{"pad", Value(std::string(5000, '\0'))}})},
                  {"l", Value::List({Value(std::string(32, 'z'))})}};
  ExpectRoundTrip(item);
  const StoredItem stored = StoredItem::Encode(item);
  EXPECT_EQ(stored.Find("data")->as_string(), run);
  // 400 + 5,000 + 32 bytes of runs take 3 + 4 + 3 bytes; the 31-byte string is written out.
  EXPECT_LT(stored.encoding().size(), 120u);
  EXPECT_GT(stored.encoding().size(), 31u);
  EXPECT_EQ(stored.item_size(), ItemSize(item));

  // Past 65,536 bytes, and strings with one other byte, are written out.
  const std::string longest(64 * 1024, 'x');
  ExpectRoundTrip({{"PK", Value(longest)}});
  EXPECT_LT(StoredItem::Encode({{"PK", Value(longest)}}).encoding().size(), 20u);
  std::string almost = run;
  almost[399] = 'w';
  for (const std::string& text : {longest + "x", almost}) {
    const Item written_out{{"PK", Value(text)}};
    ExpectRoundTrip(written_out);
    EXPECT_GT(StoredItem::Encode(written_out).encoding().size(), text.size());
  }
}

// An older version wrote runs out as bytes (snapshots and logs on disk still hold them): Decode
// takes that form and encodes the item as Encode does. A run tag with a length outside 32..65,536
// is refused.
TEST(StoredItemTest, DecodeTakesRunsAnOlderVersionWroteOut) {
  std::string almost(200, 'x');  // past a short S: written with its length
  almost[50] = 'o';
  std::string older(
      StoredItem::Encode({{"PK", Value("k")}, {"v", Value(almost)}}).PortableEncoding());
  const size_t at = older.find('o');
  ASSERT_NE(at, std::string::npos);
  older[at] = 'x';  // now 200 'x' written out, as before runs
  Result<StoredItem> decoded = StoredItem::Decode(older);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  const Item item{{"PK", Value("k")}, {"v", Value(std::string(200, 'x'))}};
  EXPECT_EQ(decoded->ToItem(), item);
  EXPECT_EQ(decoded->encoding(), StoredItem::Encode(item).encoding());
  EXPECT_LT(decoded->PortableEncoding().size(), older.size());
  EXPECT_EQ(decoded->item_size(), ItemSize(item));

  // count 1, n 5, width 1, offset 0: name "a", then run tag 10, length, byte.
  for (const std::string& length : {std::string("\x1F", 1), std::string("\x81\x80\x04", 3)}) {
    std::string bytes = std::string("\x01", 1) + static_cast<char>(4 + length.size()) +
                        std::string(
                            "\x01\x00\x01"
                            "a"
                            "\x0A",
                            5) +
                        length + "x";
    Result<StoredItem> refused = StoredItem::Decode(bytes);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.status().message().find("bad run length"), std::string_view::npos)
        << refused.status().ToString();
  }
}

// A string of up to 127 bytes, a number's text of up to 31 and binary of up to 31 bytes are
// written as one tag byte (type and length) and the bytes: a byte less than tag, length, bytes.
TEST(StoredItemTest, ShortScalarsTakeOneTagByte) {
  // The encoding's length of an item of one attribute `v` (its name numbered: one byte).
  auto length = [](const Value& v) {
    const Item item{{"v", v}};
    ExpectRoundTrip(item);
    const StoredItem stored = StoredItem::Encode(item);
    EXPECT_EQ(stored.item_size(), ItemSize(item));
    EXPECT_EQ(*stored.Find("v"), v);
    return stored.encoding().size();
  };
  auto text = [](size_t n) {  // not a run
    std::string t(n, 'a');
    for (size_t i = 0; i < n; i += 2) t[i] = 'b';
    return t;
  };
  // count, n (two bytes from 128) and width (a map this small has no offsets), then the name
  // (its number: one or two bytes, as the attribute-name table has it) and the value of `value`
  // bytes. The name's length is what an empty string (its tag alone) leaves.
  const size_t name = length(Value(std::string())) - 3 - 1;
  ASSERT_TRUE(name == 1 || name == 2) << name;
  auto expected = [name](size_t value) {
    const size_t n = name + value;
    return (n < 128 ? 3 : 4) + n;
  };
  EXPECT_EQ(length(Value(text(1))), expected(1 + 1));
  EXPECT_EQ(length(Value(text(127))), expected(1 + 127));
  EXPECT_EQ(length(Value(text(128))), expected(1 + 2 + 128));          // tag, varint(128), bytes
  const std::string digits = "1234567890123456789012345678901234567";  // 37 digits
  EXPECT_EQ(length(NumberOf(digits.substr(0, 31))), expected(1 + 31));
  EXPECT_EQ(length(NumberOf("-" + digits.substr(0, 30))), expected(1 + 31));
  EXPECT_EQ(length(NumberOf(digits.substr(0, 32))), expected(1 + 1 + 32));
  EXPECT_EQ(length(NumberOf("0")), expected(1 + 1));
  EXPECT_EQ(length(Value::Binary(std::string(31, '\xFF'))), expected(1 + 31));
  EXPECT_EQ(length(Value::Binary(std::string(32, '\0'))), expected(1 + 1 + 32));
  // Nested values, list elements and a run beside short scalars read back the same.
  ExpectRoundTrip({{"PK", Value("USER#1")},
                   {"m", Value::Map({{"s", Value(text(127))}, {"n", NumberOf("-1.5E+7")}})},
                   {"l", Value::List({Value(text(128)), Value::Binary(""), NumberOf("12")})},
                   {"run", Value(std::string(64, 'x'))}});
}

// Versions before short tags wrote every scalar with its length (snapshots, logs and backups on
// disk hold that form): Decode takes it and encodes the item as Encode does. A short tag whose
// bytes run past the end, or whose number is not canonical, is refused.
TEST(StoredItemTest, DecodeTakesShortScalarsAnOlderVersionWroteOut) {
  // count 3, n 20, width 1, offsets 0 7 13: "a" S "xyz"; "b" N "12"; "c" B "\x00\x01\x02", names
  // written out, each value its tag (its Type), varint length and bytes.
  const std::string older(
      "\x03\x14\x01\x00\x07\x0D"
      "\x01"
      "a\x00\x03xyz"
      "\x01"
      "b\x01\x02"
      "12"
      "\x01"
      "c\x02\x03\x00\x01\x02",
      26);
  Result<StoredItem> decoded = StoredItem::Decode(older);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  const Item item{{"a", Value("xyz")},
                  {"b", NumberOf("12")},
                  {"c", Value::Binary(std::string("\x00\x01\x02", 3))}};
  EXPECT_EQ(decoded->ToItem(), item);
  EXPECT_EQ(decoded->encoding(), StoredItem::Encode(item).encoding());
  EXPECT_EQ(decoded->PortableEncoding().size(), older.size() - 3 - 3);  // tags, offsets
  EXPECT_EQ(decoded->item_size(), ItemSize(item));

  // count 1, n, width 1, offset 0: name "a", then a short tag and what follows it.
  auto refused = [](const std::string& value, std::string_view why) {
    const std::string bytes = std::string("\x01", 1) + static_cast<char>(2 + value.size()) +
                              std::string("\x01\x00\x01", 3) + "a" + value;
    Result<StoredItem> decoded = StoredItem::Decode(bytes);
    ASSERT_FALSE(decoded.ok()) << why;
    EXPECT_NE(decoded.status().message().find(why), std::string_view::npos)
        << decoded.status().ToString();
  };
  refused(std::string("\x44xyz", 4), "past the end");  // S of 4, 3 bytes there
  refused(std::string("\xC2"
                      "01",
                      3),
          "canonical");  // N "01"
  refused(std::string("\xC1"
                      "x",
                      2),
          "canonical");                                     // N "x"
  refused(std::string("\xE3\x00\x01", 3), "past the end");  // B of 3, 2 bytes there
  refused(std::string("\x3F", 1), "bad type tag");          // below the short tags
}

// A map of up to 8 entries is written without offsets (width 0): its entries are walked. From 9
// entries, and in every list, offsets give a binary search and indexing.
TEST(StoredItemTest, SmallMapsHaveNoOffsets) {
  // The empty item as versions before wrote it (count 0, n 0, width 1) decodes to the empty item,
  // whose encoding says width 0.
  Result<StoredItem> empty = StoredItem::Decode(std::string("\x00\x00\x01", 3));
  ASSERT_TRUE(empty.ok()) << empty.status().ToString();
  EXPECT_EQ(empty->PortableEncoding(), std::string("\x00\x00\x00", 3));
  EXPECT_EQ(empty->encoding(), StoredItem::Encode({}).encoding());

  auto attributes = [](size_t count) {
    AttributeMap map;
    for (size_t i = 0; i < count; ++i) {
      map.insert_or_assign("small_maps_" + std::to_string(10 + 2 * i), Value(std::to_string(i)));
    }
    return map;
  };
  for (size_t count : {0, 1, 7, 8, 9, 12}) {
    SCOPED_TRACE(count);
    const Item map = attributes(count);
    ExpectRoundTrip(map);
    const StoredItem top = StoredItem::Encode(map);
    // The same map nested: its names are written out, so its length is known here.
    const StoredItem nested = StoredItem::Encode({{"m", Value::Map(map)}});
    size_t entries = 0;
    for (const auto& [name, value] : map) entries += 1 + name.size() + 1 + value.as_string().size();
    const size_t offsets = count <= 8 ? 0 : count;
    const MapView view = nested.Find("m")->as_map();
    EXPECT_EQ(view.size(), count);
    // The item: count, n, width, the name "m" (its number: one or two bytes), M's tag, then the
    // map: count, n, width, offsets, entries.
    auto varint = [](size_t v) { return v < 128 ? 1u : 2u; };
    const size_t map_length = 1 + varint(entries) + 1 + offsets + entries;
    auto item_length = [&](size_t name) {
      const size_t n = name + 1 + map_length;
      return 1 + varint(n) + 1 + n;
    };
    const size_t length = nested.encoding().size();
    EXPECT_TRUE(length == item_length(1) || length == item_length(2)) << length;
    // Every name is found, in either form, and names between, before and after them are not.
    for (const MapView& m : {top.attributes(), view}) {
      size_t i = 0;
      for (const auto& [name, value] : map) {
        ASSERT_TRUE(m.Find(name).has_value()) << name;
        EXPECT_EQ(*m.Find(name), value);
        EXPECT_EQ(m.at(i).name, name);
        EXPECT_EQ(m.at(i).value, value);
        EXPECT_FALSE(m.Find(name + "0").has_value());
        ++i;
      }
      EXPECT_FALSE(m.Find("small_maps_0").has_value());
      EXPECT_FALSE(m.Find("small_maps_99").has_value());
      EXPECT_FALSE(m.Find("").has_value());
    }
  }
  // A list keeps its offsets at any length (indexed in O(1)).
  const StoredItem list = StoredItem::Encode({{"l", Value::List({Value("a"), Value("b")})}});
  EXPECT_EQ(list.Find("l")->as_list().at(1)->as_string(), "b");
}

// The decoder refuses what the encoder never produces, and never reads past its input.
TEST(StoredItemTest, DecoderRefusesMalformedBytes) {
  const StoredItem stored = StoredItem::Encode({{"PK", "USER#1"},
                                                {"m", Value::Map({{"a", Value::List({1, "x"})}})},
                                                {"ns", NumberSetOf({"1", "2"})}});
  const std::string good(stored.PortableEncoding());
  // Every truncation fails.
  for (size_t n = 0; n < good.size(); ++n) {
    EXPECT_FALSE(StoredItem::Decode(std::string_view(good).substr(0, n)).ok()) << n;
  }
  // Trailing bytes fail.
  EXPECT_FALSE(StoredItem::Decode(good + '\0').ok());
  // Every single-byte change either fails or decodes to an item that re-encodes to those bytes,
  // or (a scalar short enough for a short tag written with its length, or a small map with
  // offsets, as older versions wrote them) to the item's encoding, no longer than those bytes.
  for (size_t i = 0; i < good.size(); ++i) {
    for (int delta : {1, 0x7F, 0x80}) {
      std::string bad = good;
      bad[i] = static_cast<char>(static_cast<uint8_t>(bad[i]) + delta);
      Result<StoredItem> decoded = StoredItem::Decode(bad);
      if (decoded.ok()) {
        const StoredItem encoded = StoredItem::Encode(decoded->ToItem());
        EXPECT_EQ(decoded->encoding(), encoded.encoding()) << i;
        if (encoded.PortableEncoding() != bad) {
          EXPECT_LE(encoded.PortableEncoding().size(), bad.size()) << i;
        }
        EXPECT_EQ(decoded->item_size(), ItemSize(decoded->ToItem())) << i;
      }
    }
  }
  auto refuses = [](std::string bytes, std::string_view why) {
    Result<StoredItem> decoded = StoredItem::Decode(bytes);
    ASSERT_FALSE(decoded.ok()) << why;
    EXPECT_NE(decoded.status().message().find(why), std::string_view::npos)
        << decoded.status().ToString();
  };
  // count 1, n 4, width 1, offset 0: name "a", then...
  refuses(std::string("\x01\x04\x01\x00\x01"
                      "a"
                      "\x0B\x00",
                      8),
          "bad type tag");
  refuses(std::string("\x01\x04\x01\x00\x01"
                      "a"
                      "\x03\x02",
                      8),
          "bad BOOL");
  refuses(std::string("\x01\x05\x01\x00\x01"
                      "a"
                      "\x01\x01"
                      "x",
                      9),
          "canonical");
  refuses(std::string("\x01\x05\x01\x00\x01"
                      "a"
                      "\x01\x02"
                      "0",
                      9),
          "past the end");
  refuses(std::string("\x01\x04\x02\x00\x00\x01"
                      "a"
                      "\x04",
                      8),
          "offset width");
  refuses(std::string("\x01\x04\x01\x01\x01"
                      "a"
                      "\x04\x00",
                      8),
          "offset does not match");
  refuses(std::string("\x01\x03\x01\x00\x00\x04\x00", 7), "name length");
  // two names out of order: "b" then "a"
  refuses(std::string("\x02\x06\x01\x00\x03\x01"
                      "b"
                      "\x04\x01"
                      "a"
                      "\x04",
                      11),
          "out of order");
  // an empty string set: tag 7, count 0, n 0
  refuses(std::string("\x01\x05\x01\x00\x01"
                      "a"
                      "\x07\x00\x00",
                      9),
          "empty set");
  // a string set out of order
  refuses(std::string("\x01\x09\x01\x00\x01"
                      "a"
                      "\x07\x02\x04\x01"
                      "b"
                      "\x01"
                      "a",
                      13),
          "out of order");
  // an overlong varint (count 0 written as 0x80 0x00)
  refuses(std::string("\x80\x00\x00\x01", 4), "overlong");
}

TEST(StoredItemConcurrentTest, ReadersShareAndReleaseWhileWritersReplace) {
  // A shared slot holds the current version; writers replace it, readers copy it out under a
  // short lock and read it afterwards. A reader's copy never changes under it. The padding is a
  // run (100 copies of one letter), read from that letter's shared fill: the first reads of each
  // of the 26 letters race to make its fill (FillOf), which ThreadSanitizer checks.
  std::mutex mu;
  StoredItem slot = StoredItem::Encode({{"PK", "k"}, {"v", 0}, {"pad", std::string(100, 'a')}});
  std::atomic<bool> stop{false};
  std::atomic<int64_t> reads{0};
  std::vector<std::thread> threads;
  for (int r = 0; r < 2; ++r) {
    threads.emplace_back([&] {
      while (!stop.load()) {
        StoredItem mine;
        {
          std::lock_guard lock(mu);
          mine = slot;
        }
        const Number v = mine.Find("v")->as_number();
        const std::string pad(mine.Find("pad")->as_string());
        // The padding letter was written with the version: they must agree.
        EXPECT_EQ(pad, std::string(100, static_cast<char>('a' + *v.ToInt64() % 26)));
        EXPECT_EQ(mine.Find("v")->as_number(), v);
        reads.fetch_add(1);
      }
    });
  }
  // At least 2,000 versions, and on until the readers have read 2,000 times (in an optimized
  // build the writer can otherwise finish before a reader thread has started).
  for (int version = 1; version <= 2000 || reads.load() < 2000; ++version) {
    StoredItem next =
        StoredItem::Encode({{"PK", "k"},
                            {"v", version},
                            {"pad", std::string(100, static_cast<char>('a' + version % 26))}});
    std::lock_guard lock(mu);
    slot = std::move(next);
  }
  stop = true;
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(slot.use_count(), 1u);
  EXPECT_GT(reads.load(), 0);
}

}  // namespace
}  // namespace partstore
