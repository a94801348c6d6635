// Exports and imports (tools/transfer/transfers.h): an export's files are DynamoDB's layout and
// load back through ImportTable into an equal table; the rules an export and an import are
// refused by; an import that cannot read its objects fails and removes its table.
#include "tools/transfer/transfers.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <unistd.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>

#include "tests/shard/database_testutil.h"
#include "tools/transfer/export_writer.h"

namespace partstore::transfer {
namespace {

namespace fs = std::filesystem;
using testing::EveryType;
using testing::MustCreate;
using testing::MustPut;
using testing::SortedItems;
using testing::StringKeys;

std::string ReadText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string Gunzip(const fs::path& path) {
  gzFile file = gzopen(path.c_str(), "rb");
  std::string out;
  char buffer[4096];
  int n = 0;
  while ((n = gzread(file, buffer, sizeof buffer)) > 0) out.append(buffer, static_cast<size_t>(n));
  gzclose(file);
  return out;
}

class TransfersTest : public ::testing::Test {
 protected:
  TransfersTest() : dir_(testing::TestDirectory()), transfers_(db_, dir_) {
    fs::create_directories(dir_ + "/bucket");
    MustCreate(db_, "Orders", StringKeys());
  }
  std::string Arn() { return db_.DescribeTable({"Orders"}).value().table.table_arn; }
  void EnableRecovery() {
    ASSERT_TRUE(db_.UpdateContinuousBackups(
                       {.table_name = "Orders", .point_in_time_recovery_enabled = true})
                    .ok());
  }
  ExportDescription MustExport(ExportRequest request) {
    Result<ExportDescription> started = transfers_.ExportTableToPointInTime(request);
    EXPECT_TRUE(started.ok()) << started.status().ToString();
    if (!started.ok()) return {};
    transfers_.WaitIdle();
    return transfers_.DescribeExport(started->export_arn).value();
  }
  ImportRequest JsonImport(std::string table, std::string prefix) {
    ImportRequest request{.input_format = "DYNAMODB_JSON",
                          .input_compression_type = "GZIP",
                          .s3_bucket = "bucket",
                          .s3_key_prefix = std::move(prefix)};
    request.table_creation_parameters = SimpleTable(std::move(table), StringKeys());
    return request;
  }

  Database db_;
  std::string dir_;
  Transfers transfers_;
};

TEST_F(TransfersTest, ExportWritesDynamoDbsLayoutAndImportsBackEqual) {
  for (int i = 0; i < 30; ++i)
    MustPut(db_, "Orders", EveryType("p" + std::to_string(i % 4), "s" + std::to_string(i)));
  EnableRecovery();
  const ExportDescription done =
      MustExport({.table_arn = Arn(), .s3_bucket = "bucket", .s3_prefix = "exports/daily"});
  ASSERT_EQ(done.export_status, TransferStatus::kCompleted) << done.failure_message.value_or("");
  EXPECT_EQ(done.item_count, 30);
  EXPECT_GT(done.billed_size_bytes.value_or(0), 0);
  const std::string id = done.export_arn.substr(done.export_arn.rfind('/') + 1);
  EXPECT_TRUE(done.export_arn.starts_with(Arn() + "/export/"));
  EXPECT_EQ(id.size(), 23u);  // <14 digits>-<8 hex>
  const fs::path root = fs::path(dir_) / "bucket/exports/daily/AWSDynamoDB" / id;
  EXPECT_EQ(done.export_manifest, "exports/daily/AWSDynamoDB/" + id + "/manifest-summary.json");
  EXPECT_TRUE(fs::exists(root / "_started"));
  EXPECT_TRUE(fs::exists(root / "manifest-files.checksum"));
  EXPECT_TRUE(fs::exists(root / "manifest-summary.checksum"));

  rapidjson::Document summary;
  summary.Parse(ReadText(root / "manifest-summary.json").c_str());
  ASSERT_TRUE(summary.IsObject());
  for (const char* member :
       {"version", "exportArn", "startTime", "endTime", "tableArn", "tableId", "exportTime",
        "s3Bucket", "s3Prefix", "s3SseAlgorithm", "s3SseKmsKeyId", "manifestFilesS3Key",
        "billedSizeBytes", "itemCount", "outputFormat"}) {
    EXPECT_TRUE(summary.HasMember(member)) << member;
  }
  EXPECT_STREQ(summary["version"].GetString(), "2020-06-30");
  EXPECT_EQ(summary["itemCount"].GetInt64(), 30);
  EXPECT_STREQ(summary["outputFormat"].GetString(), "DYNAMODB_JSON");
  EXPECT_EQ(std::string(summary["exportTime"].GetString()).size(), 24u);  // ...T..:..:..mmmZ

  // manifest-files.json: one line per data file, each naming a file that holds its items.
  int64_t items = 0;
  std::istringstream lines(ReadText(root / "manifest-files.json"));
  for (std::string line; std::getline(lines, line);) {
    rapidjson::Document file;
    file.Parse(line.c_str());
    ASSERT_TRUE(file.IsObject()) << line;
    const std::string key = file["dataFileS3Key"].GetString();
    EXPECT_TRUE(key.starts_with("exports/daily/AWSDynamoDB/" + id + "/data/")) << key;
    EXPECT_TRUE(key.ends_with(".json.gz"));
    EXPECT_EQ(std::string(file["etag"].GetString()).size(), 32u);
    EXPECT_EQ(std::string(file["md5Checksum"].GetString()).size(), 24u);
    const std::string data = Gunzip(fs::path(dir_) / "bucket" / key);
    EXPECT_EQ(std::count(data.begin(), data.end(), '\n'), file["itemCount"].GetInt64());
    EXPECT_TRUE(data.starts_with("{\"Item\":{")) << data.substr(0, 40);
    items += file["itemCount"].GetInt64();
  }
  EXPECT_EQ(items, 30);

  // The data files load back, as a real export's do.
  Result<ImportDescription> started =
      transfers_.ImportTable(JsonImport("Copy", "exports/daily/AWSDynamoDB/" + id + "/data/"));
  ASSERT_TRUE(started.ok()) << started.status().ToString();
  EXPECT_EQ(started->import_status, TransferStatus::kInProgress);
  transfers_.WaitIdle();
  const ImportDescription imported = transfers_.DescribeImport(started->import_arn).value();
  ASSERT_EQ(imported.import_status, TransferStatus::kCompleted)
      << imported.failure_message.value_or("");
  EXPECT_EQ(imported.imported_item_count, 30);
  EXPECT_EQ(imported.processed_item_count, 30);
  EXPECT_EQ(imported.error_count, 0);
  EXPECT_GT(imported.processed_size_bytes, 0);
  EXPECT_EQ(SortedItems(db_, "Copy"), SortedItems(db_, "Orders"));
}

TEST_F(TransfersTest, AnEmptyTableExportsOneEmptyDataFile) {
  EnableRecovery();
  const ExportDescription done = MustExport({.table_arn = Arn(), .s3_bucket = "newbucket"});
  ASSERT_EQ(done.export_status, TransferStatus::kCompleted);
  EXPECT_EQ(done.item_count, 0);
  const std::string id = done.export_arn.substr(done.export_arn.rfind('/') + 1);
  const fs::path data = fs::path(dir_) / "newbucket/AWSDynamoDB" / id / "data";
  ASSERT_EQ(std::distance(fs::directory_iterator(data), fs::directory_iterator()), 1);
}

TEST_F(TransfersTest, ExportRules) {
  ExportRequest request{.table_arn = Arn(), .s3_bucket = "bucket"};
  // Point-in-time recovery first, as DynamoDB.
  EXPECT_EQ(transfers_.ExportTableToPointInTime(request).status().code(),
            Code::kPointInTimeRecoveryUnavailable);
  EnableRecovery();
  ExportRequest past = request;
  past.export_time = 1.0e9;
  EXPECT_EQ(transfers_.ExportTableToPointInTime(past).status().code(), Code::kInvalidExportTime);
  ExportRequest unknown = request;
  unknown.table_arn += "x";
  EXPECT_EQ(transfers_.ExportTableToPointInTime(unknown).status().code(), Code::kTableNotFound);
  for (auto change : std::vector<std::function<void(ExportRequest&)>>{
           [](ExportRequest& r) { r.s3_bucket = "bad/bucket"; },
           [](ExportRequest& r) { r.s3_bucket = "-x"; },
           [](ExportRequest& r) { r.s3_prefix = "a/../../etc"; },
           [](ExportRequest& r) { r.s3_prefix = "/abs"; },
           [](ExportRequest& r) { r.export_format = "ION"; },
           [](ExportRequest& r) { r.export_type = "INCREMENTAL_EXPORT"; },
           [](ExportRequest& r) { r.s3_sse_algorithm = "KMS"; }}) {
    ExportRequest bad = request;
    change(bad);
    Result<ExportDescription> refused = transfers_.ExportTableToPointInTime(bad);
    EXPECT_EQ(refused.status().code(), Code::kValidation) << refused.status().ToString();
  }
  EXPECT_EQ(transfers_.DescribeExport(Arn() + "/export/none").status().code(),
            Code::kExportNotFound);
}

TEST_F(TransfersTest, ClientTokensMakeExportsIdempotent) {
  EnableRecovery();
  ExportRequest request{.table_arn = Arn(), .s3_bucket = "bucket", .client_token = "t1"};
  Result<ExportDescription> first = transfers_.ExportTableToPointInTime(request);
  ASSERT_TRUE(first.ok());
  Result<ExportDescription> again = transfers_.ExportTableToPointInTime(request);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->export_arn, first->export_arn);
  request.s3_prefix = "elsewhere";
  EXPECT_EQ(transfers_.ExportTableToPointInTime(request).status().code(), Code::kExportConflict);
  transfers_.WaitIdle();
  Result<ListExportsResult> listed = transfers_.ListExports({});
  ASSERT_TRUE(listed.ok());
  EXPECT_EQ(listed->exports.size(), 1u);
}

TEST_F(TransfersTest, ListsPageWithTokens) {
  EnableRecovery();
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(
        transfers_.ExportTableToPointInTime({.table_arn = Arn(), .s3_bucket = "bucket"}).ok());
  transfers_.WaitIdle();
  Result<ListExportsResult> first = transfers_.ListExports({.max_results = 2});
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->exports.size(), 2u);
  ASSERT_TRUE(first->next_token);
  Result<ListExportsResult> second =
      transfers_.ListExports({.max_results = 2, .next_token = first->next_token});
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->exports.size(), 1u);
  EXPECT_FALSE(second->next_token);
  EXPECT_EQ(transfers_.ListExports({.max_results = 26}).status().code(), Code::kValidation);
  EXPECT_EQ(
      transfers_.ListExports({.table_arn = "arn:aws:dynamodb:x:1:table/Other"})->exports.size(),
      0u);
}

TEST_F(TransfersTest, CsvImportCountsBadRowsAndLoadsTheRest) {
  fs::create_directories(dir_ + "/bucket/csv");
  std::ofstream(dir_ + "/bucket/csv/part1.csv") << "PK,SK,qty\na,1,5\nb,2,\"x,y\"\n";
  std::ofstream(dir_ + "/bucket/csv/part2.csv") << "PK,SK,qty\n,3,9\nc,4,1,extra\nd,5,1\n";
  ImportRequest request{.input_format = "CSV", .s3_bucket = "bucket", .s3_key_prefix = "csv/"};
  request.table_creation_parameters = SimpleTable("FromCsv", StringKeys());
  Result<ImportDescription> started = transfers_.ImportTable(request);
  ASSERT_TRUE(started.ok()) << started.status().ToString();
  transfers_.WaitIdle();
  const ImportDescription done = transfers_.DescribeImport(started->import_arn).value();
  ASSERT_EQ(done.import_status, TransferStatus::kCompleted);
  EXPECT_EQ(done.processed_item_count, 5);
  EXPECT_EQ(done.imported_item_count, 3);
  // A row with no partition key (the table refuses it) and one with too many fields.
  EXPECT_EQ(done.error_count, 2);
  EXPECT_EQ(SortedItems(db_, "FromCsv"),
            (std::vector<Item>{{{"PK", Value("a")}, {"SK", Value("1")}, {"qty", Value("5")}},
                               {{"PK", Value("b")}, {"SK", Value("2")}, {"qty", Value("x,y")}},
                               {{"PK", Value("d")}, {"SK", Value("5")}, {"qty", Value("1")}}}));
}

TEST_F(TransfersTest, AnImportThatCannotReadFailsAndRemovesItsTable) {
  Result<ImportDescription> nothing = transfers_.ImportTable(JsonImport("Empty", "nothing/"));
  ASSERT_TRUE(nothing.ok());
  fs::create_directories(dir_ + "/bucket/plain");
  std::ofstream(dir_ + "/bucket/plain/a.json")
      << "{\"Item\":{\"PK\":{\"S\":\"a\"},\"SK\":{\"S\":\"b\"}}}\n";
  Result<ImportDescription> not_gzip = transfers_.ImportTable(JsonImport("NotGzip", "plain/"));
  ASSERT_TRUE(not_gzip.ok());
  transfers_.WaitIdle();
  for (const auto& [started, table] :
       {std::pair{*nothing, "Empty"}, std::pair{*not_gzip, "NotGzip"}}) {
    const ImportDescription done = transfers_.DescribeImport(started.import_arn).value();
    EXPECT_EQ(done.import_status, TransferStatus::kFailed) << table;
    EXPECT_TRUE(done.failure_code && done.failure_message) << table;
    EXPECT_EQ(db_.DescribeTable({table}).status().code(), Code::kResourceNotFound) << table;
  }
  // NONE reads the same object.
  ImportRequest plain = JsonImport("Plain", "plain/");
  plain.input_compression_type = "NONE";
  ASSERT_TRUE(transfers_.ImportTable(plain).ok());
  transfers_.WaitIdle();
  EXPECT_EQ(SortedItems(db_, "Plain").size(), 1u);
}

TEST_F(TransfersTest, ImportRules) {
  // The table's name is taken.
  EXPECT_EQ(transfers_.ImportTable(JsonImport("Orders", "x/")).status().code(),
            Code::kResourceInUse);
  for (auto change : std::vector<std::function<void(ImportRequest&)>>{
           [](ImportRequest& r) { r.input_format = "ION"; },
           [](ImportRequest& r) { r.input_compression_type = "ZSTD"; },
           [](ImportRequest& r) { r.csv = CsvOptions{.delimiter = ","}; },
           [](ImportRequest& r) { r.s3_key_prefix = "../x"; },
           [](ImportRequest& r) { r.s3_bucket = "a"; },
           [](ImportRequest& r) {
             r.input_format = "CSV";
             r.csv = CsvOptions{.delimiter = "x"};
           },
           [](ImportRequest& r) {
             r.input_format = "CSV";
             r.csv = CsvOptions{.header_list = std::vector<std::string>{}};
           }}) {
    ImportRequest bad = JsonImport("Fresh", "x/");
    change(bad);
    Result<ImportDescription> refused = transfers_.ImportTable(bad);
    EXPECT_EQ(refused.status().code(), Code::kValidation) << refused.status().ToString();
  }
  EXPECT_EQ(db_.DescribeTable({"Fresh"}).status().code(), Code::kResourceNotFound);
  ImportRequest token = JsonImport("Once", "x/");
  token.client_token = "t";
  Result<ImportDescription> first = transfers_.ImportTable(token);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(transfers_.ImportTable(token)->import_arn, first->import_arn);
  token.s3_key_prefix = "y/";
  EXPECT_EQ(transfers_.ImportTable(token).status().code(), Code::kImportConflict);
  EXPECT_EQ(transfers_.DescribeImport("arn:nope").status().code(), Code::kImportNotFound);
  transfers_.WaitIdle();
}

TEST(TransfersUnconfiguredTest, EveryCallNamesTheMissingDirectory) {
  Database db;
  Transfers transfers(db, "");
  Result<ExportDescription> refused =
      transfers.ExportTableToPointInTime({.table_arn = "x", .s3_bucket = "bucket"});
  ASSERT_EQ(refused.status().code(), Code::kValidation);
  EXPECT_NE(refused.status().message().find("--s3-dir"), std::string::npos);
}

TEST(ExportWriterTest, Iso8601HasMillisecondsAndZ) {
  EXPECT_EQ(Iso8601(1700000000.123), "2023-11-14T22:13:20.123Z");
}

}  // namespace
}  // namespace partstore::transfer
