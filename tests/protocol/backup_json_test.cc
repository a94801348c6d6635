// The JSON of the backup, point-in-time recovery, export and import operations: required members
// and model constraints reported as ValidationExceptions naming them, shapes as
// SerializationExceptions, the six export / import operations refused without --s3-dir after
// their own decoding, and the first checks' order (an empty body, an unknown operation).
#include <gtest/gtest.h>

#include <string>

#include "partstore/database.h"
#include "tools/protocol/dispatch.h"

namespace partstore::protocol {
namespace {

void ExpectError(Database& db, std::string_view operation, std::string_view body,
                 std::string_view type, std::string_view text) {
  const Response r = Dispatch(db, operation, body);
  EXPECT_EQ(r.http_status, 400) << operation << " " << body;
  EXPECT_NE(r.body.find(type), std::string::npos) << operation << " " << body << ": " << r.body;
  EXPECT_NE(r.body.find(text), std::string::npos) << operation << " " << body << ": " << r.body;
}

TEST(BackupJsonTest, RequiredMembersAndConstraints) {
  Database db;
  ExpectError(db, "CreateBackup", "{}", "ValidationException", "'tableName'");
  ExpectError(db, "CreateBackup", R"({"TableName":"Tbl"})", "ValidationException",
              "'backupName' failed to satisfy constraint: Member must not be null");
  ExpectError(db, "DescribeBackup", R"({"BackupArn":"short"})", "ValidationException",
              "'backupArn'");
  ExpectError(db, "ListBackups", R"({"Limit":0})", "ValidationException", "'limit'");
  ExpectError(db, "RestoreTableFromBackup", "{}", "ValidationException", "'targetTableName'");
  ExpectError(db, "RestoreTableFromBackup", R"({"TargetTableName":"Tbl"})", "ValidationException",
              "'backupArn'");
  ExpectError(db, "UpdateContinuousBackups", R"({"TableName":"Tbl"})", "ValidationException",
              "'pointInTimeRecoverySpecification'");
  ExpectError(db, "UpdateContinuousBackups",
              R"({"TableName":"Tbl","PointInTimeRecoverySpecification":)"
              R"({"PointInTimeRecoveryEnabled":true,"RecoveryPeriodInDays":36}})",
              "ValidationException", "recoveryPeriodInDays");
  ExpectError(db, "RestoreTableToPointInTime", R"({"SourceTableName":"Tbl"})",
              "ValidationException", "'targetTableName'");
  ExpectError(db, "DescribeContinuousBackups", R"({"TableName":"Nope"})", "TableNotFoundException",
              "Table not found: Nope");
  // Shapes before constraints.
  ExpectError(db, "CreateBackup", R"({"TableName":1})", "SerializationException", "");
  ExpectError(db, "UpdateContinuousBackups",
              R"({"TableName":"Tbl","PointInTimeRecoverySpecification":[]})",
              "SerializationException", "");
}

TEST(BackupJsonTest, ExportsAndImportsDecodeBeforeTheyNeedTheDirectory) {
  Database db;
  ExpectError(db, "ExportTableToPointInTime", "{}", "ValidationException", "'tableArn'");
  ExpectError(db, "ExportTableToPointInTime",
              R"({"TableArn":"a","S3Bucket":"b","ExportFormat":"X"})", "ValidationException",
              "'exportFormat'");
  ExpectError(db, "ImportTable", R"({"InputFormat":"CSV"})", "ValidationException",
              "'s3BucketSource'");
  ExpectError(db, "DescribeImport", "{}", "ValidationException", "'importArn'");
  ExpectError(db, "ListExports", R"({"MaxResults":"x"})", "SerializationException", "");
  // Well formed: the directory is what is missing.
  for (const auto& [operation, body] :
       {std::pair{"ListExports", "{}"}, std::pair{"ListImports", "{}"},
        std::pair{"DescribeExport", R"({"ExportArn":"arn"})"}}) {
    ExpectError(db, operation, body, "ValidationException", "--s3-dir");
  }
  // The first checks, in DynamoDB's order: an empty body, then nothing else.
  ExpectError(db, "ListExports", "", "SerializationException", "");
  ExpectError(db, "NoSuchOperation", "{}", "UnknownOperationException", "");
  EXPECT_TRUE(IsOperation("ImportTable"));
  EXPECT_TRUE(IsOperation("RestoreTableToPointInTime"));
  EXPECT_FALSE(IsOperation("ImportTables"));
}

}  // namespace
}  // namespace partstore::protocol
