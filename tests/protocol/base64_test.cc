#include "tools/protocol/base64.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "tests/testutil/random_values.h"

namespace partstore::protocol::base64 {
namespace {

using Kind = DecodeError::Kind;

std::string EncodeString(std::string_view bytes) {
  std::string out;
  Encode(bytes, &out);
  return out;
}

TEST(Base64Test, Rfc4648Vectors) {
  const std::pair<const char*, const char*> kVectors[] = {
      {"", ""},
      {"f", "Zg=="},
      {"fo", "Zm8="},
      {"foo", "Zm9v"},
      {"foob", "Zm9vYg=="},
      {"fooba", "Zm9vYmE="},
      {"foobar", "Zm9vYmFy"},
  };
  for (const auto& [plain, encoded] : kVectors) {
    EXPECT_EQ(EncodeString(plain), encoded);
    std::string decoded;
    DecodeError error;
    ASSERT_TRUE(Decode(encoded, &decoded, &error)) << encoded;
    EXPECT_EQ(decoded, plain);
  }
}

TEST(Base64Test, EncodeAppendsAndSizes) {
  std::string out = "x";
  Encode("ab", &out);
  EXPECT_EQ(out, "xYWI=");
  for (size_t n = 0; n < 10; ++n)
    EXPECT_EQ(EncodedSize(n), EncodeString(std::string(n, 'a')).size());
}

TEST(Base64Test, EveryByteValueRoundTrips) {
  std::string all;
  for (int i = 0; i < 256; ++i) all.push_back(static_cast<char>(i));
  for (size_t start = 0; start < 3; ++start) {
    std::string bytes = all.substr(start);
    std::string decoded;
    DecodeError error;
    ASSERT_TRUE(Decode(EncodeString(bytes), &decoded, &error));
    EXPECT_EQ(decoded, bytes);
  }
}

TEST(Base64Test, RandomRoundTripsAreCanonical) {
  std::mt19937_64 rng(0xB64);
  for (int i = 0; i < 2000; ++i) {
    std::string bytes = testing::RandomBytes(rng, 0, 40);
    std::string text = EncodeString(bytes);
    std::string decoded;
    DecodeError error;
    ASSERT_TRUE(Decode(text, &decoded, &error));
    ASSERT_EQ(decoded, bytes);
    EXPECT_EQ(Validate(text).kind, Kind::kNone);
  }
}

struct BadCase {
  const char* text;
  Kind kind;
  size_t position;
};

TEST(Base64Test, RejectsNonCanonicalText) {
  const BadCase kCases[] = {
      {"A", Kind::kLength, 0},
      {"Zm9", Kind::kLength, 0},
      {"23456", Kind::kLength, 0},              // DynamoDB's own example.
      {"Zm9v\n", Kind::kLength, 0},             // No whitespace.
      {"Zm9vYg", Kind::kLength, 0},             // Padding is required.
      {"+/+=", Kind::kNonZeroTrailingBits, 2},  // DynamoDB: "Invalid last non-pad ...".
      {"=+/=", Kind::kNonZeroTrailingBits, 2},  // Same message in DynamoDB.
      {"AB==", Kind::kNonZeroTrailingBits, 1},  // "AA==" is the canonical 0x00.
      {"AAB=", Kind::kNonZeroTrailingBits, 2},
      {"Zm9v!A==", Kind::kBadCharacter, 4},
      {"Zm-v", Kind::kBadCharacter, 2},  // URL-safe alphabet is not accepted.
      {"Zm_v", Kind::kBadCharacter, 2},
      {"A=AA", Kind::kBadCharacter, 1},  // Padding in the middle.
      {"A===", Kind::kBadCharacter, 1},  // Three pad characters.
      {"====", Kind::kBadCharacter, 0},
      {"Zm 9", Kind::kBadCharacter, 2},
      {"\xC3\xA9\xC3\xA9", Kind::kBadCharacter, 0},
  };
  for (const BadCase& c : kCases) {
    DecodeError error = Validate(c.text);
    EXPECT_EQ(error.kind, c.kind) << c.text;
    EXPECT_EQ(error.position, c.position) << c.text;
    std::string out;
    DecodeError decode_error;
    EXPECT_FALSE(Decode(c.text, &out, &decode_error)) << c.text;
    EXPECT_EQ(decode_error.kind, c.kind) << c.text;
  }
}

TEST(Base64Test, AcceptsAllAlphabetCharacters) {
  const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string decoded;
  DecodeError error;
  ASSERT_TRUE(Decode(alphabet, &decoded, &error));
  EXPECT_EQ(EncodeString(decoded), alphabet);
}

}  // namespace
}  // namespace partstore::protocol::base64
