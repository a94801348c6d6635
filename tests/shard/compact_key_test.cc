// CompactKey (shard/compact_key.h), two sizes (CompactKey<24>: inline up to 23 bytes;
// PartitionKeyBytes: up to 31), one heap block beyond; copies, moves and swaps keep the bytes; it
// orders as std::string orders the same bytes.
#include "shard/compact_key.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace partstore {
namespace {

std::string KeyBytes(size_t n, char first) {
  std::string s(n, first);
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>(first + static_cast<char>(i % 7));
  if (n > 2) s[n / 2] = '\0';  // a zero byte inside: a key is bytes, not a C string
  return s;
}

template <typename Key>
class CompactKeyTest : public ::testing::Test {};
using KeyTypes = ::testing::Types<CompactKey<24>, PartitionKeyBytes>;
TYPED_TEST_SUITE(CompactKeyTest, KeyTypes);

TEST(CompactKeySizes, SizesAndInlineLengths) {
  EXPECT_EQ(sizeof(CompactKey<24>), 24u);
  EXPECT_EQ(CompactKey<24>::kInline, 23u);
  EXPECT_EQ(sizeof(PartitionKeyBytes), 32u);
  EXPECT_EQ(PartitionKeyBytes::kInline, 31u);
}

TYPED_TEST(CompactKeyTest, HoldsItsBytesInlineOrOnTheHeap) {
  using Key = TypeParam;
  for (size_t n : {size_t{0}, size_t{1}, size_t{15}, size_t{16}, size_t{22}, size_t{23}, size_t{24},
                   size_t{30}, size_t{31}, size_t{32}, size_t{64}, size_t{1024}}) {
    SCOPED_TRACE(n);
    const std::string bytes = KeyBytes(n, 'a');
    const Key key(bytes);
    EXPECT_EQ(key.view(), bytes);
    EXPECT_EQ(key.size(), n);
    EXPECT_EQ(key.on_heap(), n > Key::kInline);
    EXPECT_EQ(Key::HeapLength(n), n > Key::kInline ? n : 0);

    Key copy(key);
    EXPECT_EQ(copy.view(), bytes);
    if (key.on_heap()) {
      EXPECT_NE(copy.view().data(), key.view().data());
    }
    Key moved(std::move(copy));
    EXPECT_EQ(moved.view(), bytes);
    EXPECT_EQ(copy.view(), "");  // NOLINT(bugprone-use-after-move): moved-from is empty

    Key assigned(std::string_view("x"));
    assigned = key;
    EXPECT_EQ(assigned.view(), bytes);
    assigned = Key(std::string(40, 'y'));
    EXPECT_EQ(assigned.view(), std::string(40, 'y'));
    const Key& itself = assigned;
    assigned = itself;  // self-assignment keeps the bytes
    EXPECT_EQ(assigned.view(), std::string(40, 'y'));
    Key other(std::string_view("short"));
    other.swap(assigned);
    EXPECT_EQ(other.view(), std::string(40, 'y'));
    EXPECT_EQ(assigned.view(), "short");
  }
}

TYPED_TEST(CompactKeyTest, OrdersAsTheSameStrings) {
  using Key = TypeParam;
  std::mt19937_64 rng(7);
  std::vector<std::string> strings;
  for (int i = 0; i < 400; ++i) {
    std::string s(rng() % 40, '\0');
    for (char& c : s) c = static_cast<char>(rng() % 4 == 0 ? 0xFF - rng() % 3 : rng() % 3);
    strings.push_back(std::move(s));
  }
  std::vector<Key> keys;
  for (const std::string& s : strings) keys.emplace_back(s);
  std::sort(strings.begin(), strings.end());
  std::sort(keys.begin(), keys.end(),
            [](const Key& a, const Key& b) { return a.view() < b.view(); });
  ASSERT_EQ(keys.size(), strings.size());
  for (size_t i = 0; i < keys.size(); ++i) EXPECT_EQ(keys[i].view(), strings[i]) << i;
}

}  // namespace
}  // namespace partstore
