// Content codings (tools/protocol/content_coding.h): request bodies decoded as DynamoDB decodes
// them, responses' coding chosen from Accept-Encoding by DynamoDB's observed rules (the cases of
// Scylla's test_compressed_response.py, which were checked against DynamoDB), and compressed
// bodies that zlib-independent vectors (made by Python's gzip and zlib modules) decode to.
#include "tools/protocol/content_coding.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace partstore::protocol {
namespace {

std::string FromHex(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  }
  return out;
}

// gzip.compress(b'hello, partstore', mtime=0) and zlib.compress(b'hello, partstore').
const std::string kGzipHello =
    FromHex("1f8b0800000000000203cb48cdc9c9d75128482c2a292ec92f4a0500a270ff4210000000");
const std::string kZlibHello = FromHex("789ccb48cdc9c9d75128482c2a292ec92f4a050033aa0645");
constexpr size_t kLimit = 16 * 1024 * 1024;

DecodeOutcome DecodeBody(std::string_view coding, std::string& body, size_t limit = kLimit) {
  return DecodeRequestBody(coding, body, limit);
}

TEST(DecodeRequestBody, GzipAndDeflateFromPython) {
  std::string body = kGzipHello;
  EXPECT_EQ(DecodeBody("gzip", body), DecodeOutcome::kOk);
  EXPECT_EQ(body, "hello, partstore");
  body = kZlibHello;
  EXPECT_EQ(DecodeBody("deflate", body), DecodeOutcome::kOk);
  EXPECT_EQ(body, "hello, partstore");
  body = kGzipHello;
  EXPECT_EQ(DecodeBody("GZIP", body), DecodeOutcome::kOk) << "codings are case-insensitive";
  EXPECT_EQ(body, "hello, partstore");
}

TEST(DecodeRequestBody, IdentityAndListsOfCodings) {
  std::string body = "plain";
  EXPECT_EQ(DecodeBody("identity", body), DecodeOutcome::kOk);
  EXPECT_EQ(body, "plain");
  // Applied in order, undone last first: deflate(gzip(x)).
  std::string twice = *EncodeBody(kGzipHello, ContentCoding::kDeflate);
  EXPECT_EQ(DecodeBody("gzip, deflate", twice), DecodeOutcome::kOk);
  EXPECT_EQ(twice, "hello, partstore");
  body = kGzipHello;
  EXPECT_EQ(DecodeBody("gzip, identity", body), DecodeOutcome::kOk);
  EXPECT_EQ(body, "hello, partstore");
}

TEST(DecodeRequestBody, ConcatenatedGzipMembersAreOneBody) {
  std::string body = *EncodeBody("hello, ", ContentCoding::kGzip) + kGzipHello;
  EXPECT_EQ(DecodeBody("gzip", body), DecodeOutcome::kOk);
  EXPECT_EQ(body, "hello, hello, partstore");
}

TEST(DecodeRequestBody, JunkAfterTheLastMemberIsIgnoredAsDynamoDbDoes) {
  std::string body = kGzipHello + "junk";
  EXPECT_EQ(DecodeBody("gzip", body), DecodeOutcome::kOk);
  EXPECT_EQ(body, "hello, partstore");
}

TEST(DecodeRequestBody, BrokenStreamsAreCorrupt) {
  std::string truncated = kGzipHello.substr(0, kGzipHello.size() - 1);
  EXPECT_EQ(DecodeBody("gzip", truncated), DecodeOutcome::kCorrupt);
  std::string empty;
  EXPECT_EQ(DecodeBody("gzip", empty), DecodeOutcome::kCorrupt);
  std::string plain = R"({"TableName":"abc"})";
  EXPECT_EQ(DecodeBody("gzip", plain), DecodeOutcome::kCorrupt);
  std::string zlib_as_gzip = kZlibHello;
  EXPECT_EQ(DecodeBody("gzip", zlib_as_gzip), DecodeOutcome::kCorrupt);
  std::string flipped = kGzipHello;
  flipped[12] ^= 0x55;  // inside the deflate data
  EXPECT_EQ(DecodeBody("gzip", flipped), DecodeOutcome::kCorrupt);
  std::string second_member_truncated = kGzipHello + kGzipHello.substr(0, 12);
  EXPECT_EQ(DecodeBody("gzip", second_member_truncated), DecodeOutcome::kCorrupt);
}

TEST(DecodeRequestBody, UnknownCodingsAreUnsupported) {
  for (std::string_view coding : {"garbage", "x-gzip", "br", "compress", "gzip, zstd"}) {
    std::string body = kGzipHello;
    EXPECT_EQ(DecodeBody(coding, body), DecodeOutcome::kUnsupported) << coding;
  }
}

TEST(DecodeRequestBody, ABombStopsAtTheLimit) {
  // 20 MB of spaces compress to about 20 KB; decoded with a 16 MB limit they are refused, and
  // with a 1 MB limit too, after taking no more than the limit.
  const std::string big(20 * 1024 * 1024, ' ');
  const std::string bomb = *EncodeBody(big, ContentCoding::kGzip);
  ASSERT_LT(bomb.size(), 100u * 1024);
  std::string body = bomb;
  EXPECT_EQ(DecodeBody("gzip", body), DecodeOutcome::kTooLarge);
  body = bomb;
  EXPECT_EQ(DecodeBody("gzip", body, 1024 * 1024), DecodeOutcome::kTooLarge);
  // Exactly at the limit is fine.
  const std::string exact(4096, 'x');
  body = *EncodeBody(exact, ContentCoding::kGzip);
  EXPECT_EQ(DecodeBody("gzip", body, 4096), DecodeOutcome::kOk);
  EXPECT_EQ(body, exact);
  body = *EncodeBody(exact, ContentCoding::kGzip);
  EXPECT_EQ(DecodeBody("gzip", body, 4095), DecodeOutcome::kTooLarge);
}

TEST(EncodeBody, RoundTripsAndShrinksJson) {
  std::string json = "{\"Items\":[";
  for (int i = 0; i < 200; ++i) json += R"({"PK":{"S":"USER#12345"},"SK":{"S":"ORDER#2024"}},)";
  json += "{}]}";
  for (ContentCoding coding : {ContentCoding::kGzip, ContentCoding::kDeflate}) {
    std::string body = *EncodeBody(json, coding);
    EXPECT_LT(body.size() * 10, json.size()) << ContentCodingName(coding);
    EXPECT_EQ(DecodeBody(ContentCodingName(coding), body), DecodeOutcome::kOk);
    EXPECT_EQ(body, json);
  }
  EXPECT_EQ(EncodeBody(json, ContentCoding::kIdentity), std::nullopt);
}

// DynamoDB's answers to each Accept-Encoding (Scylla's test_compressed_response.py,
// test_compressed_response_accept_encodings, run against DynamoDB).
TEST(ChooseResponseCoding, DynamoDbsObservedChoices) {
  constexpr ContentCoding kNone = ContentCoding::kIdentity;
  constexpr ContentCoding kGzip = ContentCoding::kGzip;
  constexpr ContentCoding kDeflate = ContentCoding::kDeflate;
  const std::pair<std::string_view, ContentCoding> cases[] = {
      {"gzip", kGzip},
      {"deflate", kDeflate},
      {"identity", kNone},
      {"", kNone},
      {"br", kNone},
      {"zstd", kNone},
      {"compress", kNone},
      {"x-gzip", kNone},
      {"gzip, deflate", kGzip},
      {"br, identity, deflate, gzip", kDeflate},
      {"GZIP, identity", kGzip},
      {"dog, gzip ,, cat", kGzip},
      {"gzip;q=0.8, deflate;q=0.5", kGzip},
      {"br, gzip;q=0, deflate; q = 0.5 , identity;q=0", kDeflate},
      {"*", kGzip},
      {"*, deflate;q=0.5", kGzip},
      {"*, deflate", kDeflate},
      {"*, identity", kGzip},
      {"*, gzip;q=0.5", kDeflate},
      {"gzip ;q=0", kNone},
      {"identity;q=0", kNone},
      {"*;q=0", kNone},
      {"*;q=0.5,identity", kGzip},
      {"gzip;q=0.5,identity;q=0.8", kGzip},
      {"br;q=0.8,identity;q=0.5,*;q=0", kNone},
      {"\"gzip\"", kNone},
      {"gzip br", kNone},
      {"gzip:q=1", kNone},
      {"deflate;q=0.5, gzip;q=31", kGzip},
      {"gzip;q=31,deflate;q=51", kGzip},
      {"deflate;q=0.5, gzip;q=0.2", kDeflate},
      {"deflate;q=0.5, gzip;q=1;q=0.2", kGzip},
      {"deflate;q=0.5,gzip;q=0.", kDeflate},
      {"deflate;q=0.5,gzip;q=0.x", kGzip},
      {"deflate;q=-0.5,gzip;q=0.2", kGzip},
      {"gzip;nq=1;q=0 ", kNone},
      {"gzip;q=0, gzip;q=1, gzip;q=0", kGzip},
      {"br,identity;q=0.5,gzip;q=0.0001", kGzip},
  };
  for (const auto& [header, expected] : cases) {
    EXPECT_EQ(ChooseResponseCoding(header), expected)
        << "Accept-Encoding: " << header << " -> expected " << ContentCodingName(expected);
  }
}

}  // namespace
}  // namespace partstore::protocol
