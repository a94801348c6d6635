// Reading ImportTable's objects (tools/transfer/import_reader.h): DYNAMODB_JSON lines, CSV with
// RFC 4180 quoting, header lists, delimiters and typed key columns, gzip or not, and every kind
// of bad record counted as an error rather than stopping the import.
#include "tools/transfer/import_reader.h"

#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>

namespace partstore::transfer {
namespace {

struct Read {
  std::vector<Item> items;
  std::vector<std::string> errors;
};

Read ReadAll(std::string_view text, const RecordFormat& format) {
  Read read;
  ReadRecords(text, format, [&](Result<Item> item) {
    if (item.ok()) {
      read.items.push_back(std::move(*item));
    } else {
      read.errors.emplace_back(item.status().message());
    }
  });
  return read;
}

Value N(std::string_view text) { return Value(Number::Parse(text).value()); }

TEST(ImportReaderTest, DynamoDbJsonLines) {
  const Read read = ReadAll(
      "{\"Item\":{\"PK\":{\"S\":\"a\"},\"n\":{\"N\":\"1.5\"},\"l\":{\"L\":[{\"BOOL\":true}]}}}\n"
      "\n"
      "{\"Item\":{\"PK\":{\"S\":\"b\"},\"b\":{\"B\":\"AAE=\"}}}\r\n"
      "not json\n"
      "{\"Thing\":{}}\n"
      "[1]\n"
      "{\"Item\":{\"PK\":{\"S\":\"c\",\"N\":\"1\"}}}\n"
      "{\"Item\":{\"PK\":{\"S\":\"d\"}}}",
      RecordFormat{});
  ASSERT_EQ(read.items.size(), 3u);
  EXPECT_EQ(read.items[0],
            (Item{{"PK", Value("a")}, {"n", N("1.5")}, {"l", Value(ValueList{Value(true)})}}));
  EXPECT_EQ(read.items[1], (Item{{"PK", Value("b")}, {"b", Value(Bytes{std::string("\0\1", 2)})}}));
  EXPECT_EQ(read.items[2], (Item{{"PK", Value("d")}}));
  EXPECT_EQ(read.errors.size(), 4u);
}

TEST(ImportReaderTest, CsvWithHeaderQuotingAndTypedKeys) {
  RecordFormat format{.csv = true};
  format.key_types = {
      {"PK", KeyType::kString}, {"SK", KeyType::kNumber}, {"bin", KeyType::kBinary}};
  const Read read = ReadAll(
      "PK,SK,note,bin\r\n"
      "a,1,plain,AAE=\r\n"
      "\"b,c\",2.50,\"say \"\"hi\"\"\nsecond line\",\n"
      "d,3,,\n"
      "\n"
      "e,notanumber,x,\n"
      "f,4,x,y,extra\n"
      "g,5,\"open\n",
      format);
  ASSERT_EQ(read.items.size(), 3u);
  EXPECT_EQ(read.items[0], (Item{{"PK", Value("a")},
                                 {"SK", N("1")},
                                 {"note", Value("plain")},
                                 {"bin", Value(Bytes{std::string("\0\1", 2)})}}));
  EXPECT_EQ(
      read.items[1],
      (Item{{"PK", Value("b,c")}, {"SK", N("2.5")}, {"note", Value("say \"hi\"\nsecond line")}}));
  // An empty field is no attribute.
  EXPECT_EQ(read.items[2], (Item{{"PK", Value("d")}, {"SK", N("3")}}));
  // A bad number, too many fields, an unclosed quote.
  EXPECT_EQ(read.errors.size(), 3u);
}

TEST(ImportReaderTest, CsvHeaderListAndDelimiter) {
  RecordFormat format{.csv = true, .delimiter = '|', .header = {"PK", "age"}};
  format.key_types = {{"PK", KeyType::kString}};
  const Read read = ReadAll("a|30\nb|x,y\n", format);
  ASSERT_EQ(read.items.size(), 2u);
  // Non-key columns are Strings, even when they look like numbers.
  EXPECT_EQ(read.items[0], (Item{{"PK", Value("a")}, {"age", Value("30")}}));
  EXPECT_EQ(read.items[1], (Item{{"PK", Value("b")}, {"age", Value("x,y")}}));
}

TEST(ImportReaderTest, FormatOfTypesTheTableAndGsiKeys) {
  ImportRequest request{.input_format = "CSV"};
  request.csv = CsvOptions{.delimiter = ";", .header_list = std::vector<std::string>{"PK", "g"}};
  CreateTableRequest& table = request.table_creation_parameters;
  table.attribute_definitions = {{"PK", KeyType::kString}, {"g", KeyType::kNumber}};
  table.key_schema = {{"PK", KeyRoleName::kHash}};
  table.global_secondary_indexes.push_back(
      {.index_name = "G", .key_schema = {{"g", KeyRoleName::kHash}}});
  const RecordFormat format = FormatOf(request);
  EXPECT_TRUE(format.csv);
  EXPECT_EQ(format.delimiter, ';');
  EXPECT_EQ(format.header, (std::vector<std::string>{"PK", "g"}));
  EXPECT_EQ(format.key_types.at("g"), KeyType::kNumber);
  EXPECT_EQ(format.key_types.size(), 2u);
}

class ImportObjectsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::string(::testing::TempDir()) + "partstore_objects_" + std::to_string(::getpid());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_ + "/in/sub");
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  void Write(const std::string& key, std::string_view bytes) {
    std::ofstream out(dir_ + "/" + key, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  void WriteGzip(const std::string& key, std::string_view text) {
    gzFile file = gzopen((dir_ + "/" + key).c_str(), "wb");
    gzwrite(file, text.data(), static_cast<unsigned>(text.size()));
    gzclose(file);
  }
  std::string dir_;
};

TEST_F(ImportObjectsTest, ListsKeysByPrefixAsS3Does) {
  Write("in/a.csv", "x");
  Write("in/sub/b.csv", "x");
  Write("inside.csv", "x");
  Write("other.csv", "x");
  EXPECT_EQ(ListObjects(dir_, "in"),
            (std::vector<std::string>{"in/a.csv", "in/sub/b.csv", "inside.csv"}));
  EXPECT_EQ(ListObjects(dir_, "in/"), (std::vector<std::string>{"in/a.csv", "in/sub/b.csv"}));
  EXPECT_EQ(ListObjects(dir_, "").size(), 4u);
  EXPECT_TRUE(ListObjects(dir_ + "/missing", "").empty());
}

TEST_F(ImportObjectsTest, ReadsGzipAndRefusesWhatIsNot) {
  WriteGzip("in/a.gz", "hello\n");
  Write("in/plain", "hello\n");
  Write("in/cut.gz", "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\xcb\x48");
  EXPECT_EQ(ReadObject(dir_ + "/in/a.gz", true).value(), "hello\n");
  EXPECT_EQ(ReadObject(dir_ + "/in/plain", false).value(), "hello\n");
  // NONE reads the bytes as they are.
  EXPECT_NE(ReadObject(dir_ + "/in/a.gz", false).value(), "hello\n");
  Result<std::string> not_gzip = ReadObject(dir_ + "/in/plain", true);
  ASSERT_FALSE(not_gzip.ok());
  EXPECT_NE(not_gzip.status().message().find("is not gzip"), std::string::npos);
  EXPECT_FALSE(ReadObject(dir_ + "/in/cut.gz", true).ok());
  EXPECT_FALSE(ReadObject(dir_ + "/in/missing", false).ok());
}

}  // namespace
}  // namespace partstore::transfer
