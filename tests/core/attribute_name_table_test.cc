// The attribute-name table and the encodings that use it: a name the table holds is written as
// its number, every encoding of a name in the process is the same, the portable encoding writes
// names out (the layout files have always held), and a full table leaves new names written out.
#include "core/attribute_name_table.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <latch>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
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
    "\x02\x0F\x00"  // count 2, n 15, width 0: a small map, no offsets
    "\x02PK\x41"
    "a"                      // PK: a short S (tag 0x40 + 1) "a"
    "\x01m\x05\x01\x04\x00"  // m: M (tag 5), count 1, n 4, width 0
    "\x01x\xC1"
    "1",  // x: a short N (tag 0xC0 + 1) "1"
    18);
// The same as versions before short scalars and unindexed maps wrote it: each map with its
// offsets, each S and N its tag, length and bytes.
const std::string kOlderPortable(
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
  for (const std::string& portable : {kPortable, kOlderPortable}) {
    Result<StoredItem> decoded = StoredItem::Decode(portable);
    ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
    // Decoded, the names are numbered as the encoder numbers them, nested ones too.
    EXPECT_EQ(decoded->encoding(), stored.encoding());
    EXPECT_LT(decoded->encoding().size(), portable.size());
    EXPECT_EQ(decoded->ToItem(), item);
    EXPECT_EQ(decoded->item_size(), ItemSize(item));
  }
}

// Decode numbers an item's names only once the whole item has passed its checks.
TEST(AttributeNameTableTest, AMalformedItemAddsNoName) {
  const std::string name = "attribute_name_table_test.never_numbered";  // 40 bytes
  ASSERT_EQ(name.size(), 40u);
  // {name: "v"} as files hold it: count 1, n 43, width 0, the name, a short S "v".
  const std::string portable =
      std::string("\x01\x2B\x00\x28", 4) + name + std::string("\x41", 1) + "v";
  const uint32_t before = names::size();
  EXPECT_FALSE(StoredItem::Decode(portable + '\0').ok());                          // bytes after
  EXPECT_FALSE(StoredItem::Decode(portable.substr(0, portable.size() - 1)).ok());  // truncated
  EXPECT_EQ(names::size(), before);
  Result<StoredItem> decoded = StoredItem::Decode(portable);  // the well-formed one is numbered
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(names::size(), before + 1);
  EXPECT_EQ(decoded->ToItem(), (Item{{name, Value("v")}}));
  EXPECT_EQ(decoded->PortableEncoding(), portable);
}

// The child's side of the next test: numbers other names first, then writes the item's portable
// encoding to `path`; exits 0 when written.
[[noreturn]] void WritePortableAfterOtherNames(const Item& item, const std::string& path) {
  for (int i = 0; i < 50; ++i) names::Intern("xproc.filler." + std::to_string(i));
  const std::string portable = StoredItem::Encode(item).PortableEncoding();
  FILE* f = std::fopen(path.c_str(), "wb");
  const bool written =
      f != nullptr && std::fwrite(portable.data(), 1, portable.size(), f) == portable.size();
  if (f != nullptr) std::fclose(f);
  std::exit(written ? 0 : 1);
}

// The portable encoding carries no number of the process that wrote it: a child process that
// numbered other names first writes an item's portable encoding to a file, and this process,
// whose numbers differ, reads the same item from it.
TEST(AttributeNameTableDeathTest, AnotherProcessReadsThePortableEncoding) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const std::string path = ::testing::TempDir() + "attribute_name_table_test.portable";
  const Item item{{"xproc.alpha", Value("a")},
                  {"xproc.beta", Value::Map({{"xproc.nested", Value("n")}})},
                  {"xproc.gamma", Value(Number::Parse("3").value())}};
  EXPECT_EXIT(WritePortableAfterOtherNames(item, path), ::testing::ExitedWithCode(0), "");
  std::string bytes;
  if (FILE* f = std::fopen(path.c_str(), "rb")) {
    char buffer[4096];
    size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) bytes.append(buffer, n);
    std::fclose(f);
  }
  std::remove(path.c_str());
  ASSERT_FALSE(bytes.empty());
  // This process numbers the names now, after other names than the child's fillers.
  for (int i = 0; i < 7; ++i) names::Intern("xproc.other." + std::to_string(i));
  Result<StoredItem> decoded = StoredItem::Decode(bytes);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->ToItem(), item);
  EXPECT_EQ(decoded->encoding(), StoredItem::Encode(item).encoding());
  EXPECT_EQ(decoded->PortableEncoding(), bytes);
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

// Threads encoding items with the same new names at once, released together, agree on every
// number and encode equal items to equal bytes; a reader thread given the items through a queue
// reads every name (ThreadSanitizer runs this: lookups and readers take no lock).
TEST(AttributeNameTableConcurrentTest, ThreadsAgreeOnEveryNumber) {
  constexpr int kThreads = 4;
  constexpr int kNames = 200;
  auto name_of = [](int i) { return "concurrent." + std::to_string(i); };
  std::vector<std::vector<std::string>> encodings(kThreads);
  std::mutex mu;
  std::condition_variable ready;
  std::deque<std::pair<int, StoredItem>> queue;  // (name index, item), to the reader
  int producers_left = kThreads;
  std::latch start(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      start.arrive_and_wait();
      for (int i = 0; i < kNames; ++i) {
        StoredItem stored = StoredItem::Encode({{name_of(i), Value(i)}});
        encodings[t].emplace_back(stored.encoding());
        std::lock_guard<std::mutex> lock(mu);
        queue.emplace_back(i, std::move(stored));
        ready.notify_one();
      }
      std::lock_guard<std::mutex> lock(mu);
      --producers_left;
      ready.notify_one();
    });
  }
  int read = 0;
  bool names_match = true;
  std::thread reader([&] {
    std::unique_lock<std::mutex> lock(mu);
    while (true) {
      ready.wait(lock, [&] { return !queue.empty() || producers_left == 0; });
      if (queue.empty()) return;
      auto [i, stored] = std::move(queue.front());
      queue.pop_front();
      lock.unlock();
      names_match = names_match && stored.attributes().at(0).name == name_of(i);
      ++read;
      lock.lock();
    }
  });
  for (std::thread& thread : threads) thread.join();
  reader.join();
  EXPECT_TRUE(names_match);
  EXPECT_EQ(read, kThreads * kNames);
  for (int i = 0; i < kNames; ++i) {
    const std::string want(StoredItem::Encode({{name_of(i), Value(i)}}).encoding());
    for (int t = 0; t < kThreads; ++t) EXPECT_EQ(encodings[t][i], want) << i << " " << t;
  }
}

}  // namespace
}  // namespace partstore
