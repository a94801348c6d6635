// The attribute-name table and the encodings that use it: a name the table holds is written as
// its number, every encoding of a name in the process is the same, the portable encoding writes
// names out (the layout files have always held), and a full table leaves new names written out.
#include "core/attribute_name_table.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "partstore/item.h"
#include "partstore/stored_item.h"
#include "partstore/value.h"

namespace partstore {
namespace {

namespace names = attribute_name_table;

// The bytes a varint of `v` takes.
size_t VarintBytes(uint32_t v) {
  size_t n = 1;
  for (; v >= 0x80; v >>= 7) ++n;
  return n;
}

TEST(AttributeNameTableTest, ANameHasOneNumberForTheProcess) {
  const uint32_t id = names::Intern("attribute_name_table_test.one_number");
  ASSERT_NE(id, names::kNone);
  EXPECT_EQ(names::Intern("attribute_name_table_test.one_number"), id);
  EXPECT_NE(names::Intern("attribute_name_table_test.another"), id);
  EXPECT_LE(names::size(), names::kMaxNames);
  EXPECT_GT(names::size(), id);
}

TEST(AttributeNameTableTest, TheItemWritesANumberAndThePortableEncodingTheName) {
  const std::string name = "attribute_name_table_test.shipping_address";
  const Item item{{"PK", Value("a")}, {name, Value("1 Main Street")}};
  const StoredItem stored = StoredItem::Encode(item);
  const std::string portable = stored.PortableEncoding();
  const uint32_t pk = names::Intern("PK");
  const uint32_t id = names::Intern(name);
  ASSERT_NE(id, names::kNone);
  // Each name's length and bytes give way to its number (both bodies are under 128 bytes, so
  // the headers are the same size).
  ASSERT_LT(portable.size(), 128u);
  EXPECT_EQ(portable.size() - stored.encoding().size(),
            (1 + 2) + (1 + name.size()) - VarintBytes(2 * pk + 1) - VarintBytes(2 * id + 1));
  EXPECT_EQ(stored.encoding().find(name), std::string_view::npos);
  EXPECT_NE(portable.find(name), std::string::npos);
  // The views read the names from the table.
  EXPECT_EQ(stored.ToItem(), item);
  ASSERT_TRUE(stored.Find(name).has_value());
  EXPECT_EQ(stored.Find(name)->as_string(), "1 Main Street");
  EXPECT_EQ(stored.item_size(), ItemSize(item));
}

// {"PK": "a", "m": {"x": 1}} as files hold it: every name written out as varint(length) and the
// bytes (core/stored_item_format.h).
const std::string kPortable(
    "\x02\x12\x01\x00\x06"  // count 2, n 18, width 1, offsets 0 and 6
    "\x02PK\x00\x01"
    "a"                          // PK: S (tag 0) "a"
    "\x01m\x05\x01\x05\x01\x00"  // m: M (tag 5), count 1, n 5, width 1, offset 0
    "\x01x\x01\x01"
    "1",  // x: N (tag 1) "1"
    23);

TEST(AttributeNameTableTest, ThePortableEncodingIsTheLayoutFilesHold) {
  const Item item{{"PK", Value("a")},
                  {"m", Value::Map({{"x", Value(Number::Parse("1").value())}})}};
  const StoredItem stored = StoredItem::Encode(item);
  EXPECT_EQ(stored.PortableEncoding(), kPortable);
  Result<StoredItem> decoded = StoredItem::Decode(kPortable);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  // Decoded, the names are numbered as the encoder numbers them, nested ones too.
  EXPECT_EQ(decoded->encoding(), stored.encoding());
  EXPECT_LT(decoded->encoding().size(), kPortable.size());
  EXPECT_EQ(decoded->ToItem(), item);
  EXPECT_EQ(decoded->item_size(), ItemSize(item));
}

TEST(AttributeNameTableTest, ANameOverTheLengthLimitIsWrittenOut) {
  const std::string name(names::kMaxNameLength + 1, 'n');
  EXPECT_EQ(names::Intern(name), names::kNone);
  const StoredItem stored = StoredItem::Encode({{"PK", Value("a")}, {name, Value("v")}});
  EXPECT_NE(stored.encoding().find(name), std::string_view::npos);
  EXPECT_EQ(stored.Find(name)->as_string(), "v");
  Result<StoredItem> decoded = StoredItem::Decode(stored.PortableEncoding());
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->encoding(), stored.encoding());
  // The longest name the table takes.
  EXPECT_NE(names::Intern(std::string(names::kMaxNameLength, 'n')), names::kNone);
}

// Fills the table (in the death test's child: the test binary's other tests keep theirs) and
// exits with 0 when names met after it is full stay written out, for good, and an item mixing
// both forms reads, compares and round-trips as any other.
[[noreturn]] void FillTheTableAndCheck() {
  const uint32_t early = names::Intern("full.early");
  for (uint32_t i = 0; names::size() < names::kMaxNames; ++i) {
    names::Intern("full.filler." + std::to_string(i));
  }
  const bool full = names::Intern("full.late") == names::kNone &&
                    names::Intern("full.late") == names::kNone &&
                    names::Intern("full.early") == early && names::size() == names::kMaxNames;
  const Item item{{"full.early", Value("e")}, {"full.late", Value("l")}, {"zz", Value("z")}};
  const StoredItem stored = StoredItem::Encode(item);
  const bool late_written_out = stored.encoding().find("full.late") != std::string_view::npos;
  const bool early_numbered = stored.encoding().find("full.early") == std::string_view::npos;
  Result<StoredItem> decoded = StoredItem::Decode(stored.PortableEncoding());
  const bool round_trip = decoded.ok() && decoded->encoding() == stored.encoding() &&
                          decoded->ToItem() == item && stored.ToItem() == item &&
                          stored.Find("full.late").has_value() &&
                          stored.Find("full.early").has_value() && stored.Find("zz").has_value();
  std::exit(full && late_written_out && early_numbered && round_trip ? 0 : 1);
}

TEST(AttributeNameTableDeathTest, AFullTableLeavesNewNamesWrittenOut) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(FillTheTableAndCheck(), ::testing::ExitedWithCode(0), "");
}

// Threads interning the same new names at once agree on every number, and encode equal items to
// equal bytes (ThreadSanitizer runs this: the lookups read without the lock).
TEST(AttributeNameTableConcurrentTest, ThreadsAgreeOnEveryNumber) {
  constexpr int kThreads = 4;
  constexpr int kNames = 200;
  std::vector<std::vector<uint32_t>> seen(kThreads);
  std::vector<std::vector<std::string>> encodings(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kNames; ++i) {
        const std::string name = "concurrent." + std::to_string((i * 7 + t * 13) % kNames);
        seen[t].push_back(names::Intern(name));
        const StoredItem stored = StoredItem::Encode({{name, Value(i)}});
        encodings[t].emplace_back(stored.encoding());
        if (stored.attributes().at(0).name != name) std::abort();
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int i = 0; i < kNames; ++i) {
    const uint32_t id = names::Intern("concurrent." + std::to_string(i));
    for (int t = 0; t < kThreads; ++t) {
      const int at = [&] {
        for (int j = 0; j < kNames; ++j) {
          if ((j * 7 + t * 13) % kNames == i) return j;
        }
        return -1;
      }();
      ASSERT_GE(at, 0);
      EXPECT_EQ(seen[t][at], id) << i << " " << t;
      EXPECT_EQ(encodings[t][at],
                StoredItem::Encode({{"concurrent." + std::to_string(i), Value(at)}}).encoding());
    }
  }
}

}  // namespace
}  // namespace partstore
