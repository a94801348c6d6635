// TraceRecorder and the Database's traced operations (partstore/trace.h): what a line holds, and
// that tracing leaves the caller's results as they were.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "partstore/database.h"
#include "partstore/trace.h"

namespace partstore {
namespace {

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

class TraceRecorderTest : public ::testing::Test {
 protected:
  void Open(bool hash_keys = false) {
    recorder_ = std::make_shared<TraceRecorder>(out_, TraceOptions{.hash_keys = hash_keys});
    DatabaseOptions options;
    options.trace = recorder_;
    db_ = std::make_unique<Database>(options);
    CreateTableRequest create{.table_name = "Things"};
    create.attribute_definitions = {
        {"PK", KeyType::kString}, {"SK", KeyType::kString}, {"G", KeyType::kString}};
    create.key_schema = {{"PK", KeyRoleName::kHash}, {"SK", KeyRoleName::kRange}};
    create.billing_mode = BillingMode::kPayPerRequest;
    GlobalSecondaryIndex gsi;
    gsi.index_name = "ByG";
    gsi.key_schema = {{"G", KeyRoleName::kHash}};
    gsi.projection.projection_type = ProjectionType::kAll;
    create.global_secondary_indexes = {gsi};
    ASSERT_TRUE(db_->CreateTable(create).ok());
  }
  std::vector<std::string> Recorded() {
    EXPECT_TRUE(recorder_->Flush().ok());
    return Lines(out_.str());
  }

  std::ostringstream out_;
  std::shared_ptr<TraceRecorder> recorder_;
  std::unique_ptr<Database> db_;
};

TEST_F(TraceRecorderTest, ALineHoldsTheTableAndIndexKeysSizeAndUnits) {
  Open();
  Item item{{"PK", Value("A")}, {"SK", Value("1")}, {"G", Value("g")}, {"other", Value("x")}};
  ASSERT_TRUE(db_->PutItem({.table_name = "Things", .item = item}).ok());
  const std::vector<std::string> lines = Recorded();
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], R"({"trace":"partstore","version":1,"hash_keys":false})");
  EXPECT_NE(lines[1].find(R"("op":"CreateTable","table":"Things","key":["PK","SK"])"),
            std::string::npos)
      << lines[1];
  EXPECT_NE(lines[1].find(R"("indexes":[{"name":"ByG","key":["G"])"), std::string::npos);
  EXPECT_NE(
      lines[2].find(R"("op":"PutItem","table":"Things","key":{"PK":"A","SK":"1","G":"g"},"size":)" +
                    std::to_string(ItemSize(item)) + R"(,"units":2.0)"),
      std::string::npos)
      << lines[2];
  EXPECT_EQ(lines[2].find("other"), std::string::npos);  // not a key attribute
}

TEST_F(TraceRecorderTest, HashedKeysShowWhichRequestsShareAKeyButNotTheKey) {
  Open(/*hash_keys=*/true);
  for (const char* pk : {"secret-1", "secret-1", "secret-2"}) {
    ASSERT_TRUE(
        db_->GetItem({.table_name = "Things", .key = {{"PK", Value(pk)}, {"SK", Value("s")}}})
            .ok());
  }
  const std::vector<std::string> lines = Recorded();
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(out_.str().find("secret"), std::string::npos);
  auto pk = [](const std::string& line) {
    const size_t at = line.find(R"("PK":")");
    return line.substr(at, 25);
  };
  EXPECT_EQ(pk(lines[2]), pk(lines[3]));
  EXPECT_NE(pk(lines[2]), pk(lines[4]));
  EXPECT_NE(lines[2].find(R"("PK":"#)"), std::string::npos) << lines[2];
  EXPECT_NE(lines[2].find(R"("missing":true)"), std::string::npos) << lines[2];  // none was there
}

TEST_F(TraceRecorderTest, TheCallerGetsTheResultItAskedFor) {
  Open();
  ASSERT_TRUE(db_->PutItem({.table_name = "Things",
                            .item = {{"PK", Value("A")}, {"SK", Value("1")}, {"n", Value(1)}}})
                  .ok());
  UpdateItemRequest update{.table_name = "Things",
                           .key = {{"PK", Value("A")}, {"SK", Value("1")}},
                           .update_expression = "SET G = :g"};
  update.expression_attribute_values = AttributeMap{{":g", Value("gg")}};
  auto updated = db_->UpdateItem(update);
  ASSERT_TRUE(updated.ok());
  EXPECT_FALSE(updated->attributes.has_value());         // ReturnValues NONE
  EXPECT_FALSE(updated->consumed_capacity.has_value());  // ReturnConsumedCapacity NONE
  const std::vector<std::string> lines = Recorded();
  // The new item's GSI key, which the update set, is recorded.
  EXPECT_NE(
      lines.back().find(R"("op":"UpdateItem","table":"Things","key":{"PK":"A","SK":"1","G":"gg"})"),
      std::string::npos)
      << lines.back();
  QueryRequest query{
      .table_name = "Things", .index_name = "ByG", .key_condition_expression = "G = :g"};
  query.expression_attribute_values = AttributeMap{{":g", Value("gg")}};
  auto queried = db_->Query(query);
  ASSERT_TRUE(queried.ok());
  EXPECT_FALSE(queried->consumed_capacity.has_value());
  const std::string line = Recorded().back();
  EXPECT_NE(
      line.find(
          R"("op":"Query","table":"Things","index":"ByG","key":{"G":"gg"},"units":0.5,"scanned":1)"),
      std::string::npos)
      << line;
}

TEST_F(TraceRecorderTest, AFailedConditionIsRecordedAndAValidationErrorIsNot) {
  Open();
  PutItemRequest put{.table_name = "Things", .item = {{"PK", Value("A")}, {"SK", Value("1")}}};
  put.condition_expression = "attribute_exists(PK)";
  EXPECT_EQ(db_->PutItem(put).status().code(), Code::kConditionalCheckFailed);
  EXPECT_EQ(db_->PutItem({.table_name = "Things", .item = {{"PK", Value("A")}}}).status().code(),
            Code::kValidation);  // no sort key
  EXPECT_EQ(db_->GetItem({.table_name = "Nope", .key = {{"PK", Value("A")}}}).status().code(),
            Code::kResourceNotFound);
  const std::vector<std::string> lines = Recorded();
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_NE(lines[2].find(R"("error":"ConditionalCheckFailed)"), std::string::npos) << lines[2];
}

TEST_F(TraceRecorderTest, BatchesListTheirItemsAndARestoredTableIsDescribedFirst) {
  Open();
  BatchWriteItemRequest batch;
  batch.request_items.push_back(
      {"Things",
       {{WriteRequest::Kind::kPut, {{"PK", Value("A")}, {"SK", Value("1")}}},
        {WriteRequest::Kind::kDelete, {{"PK", Value("B")}, {"SK", Value("2")}}}}});
  ASSERT_TRUE(db_->BatchWriteItem(batch).ok());
  std::string line = Recorded().back();
  EXPECT_NE(
      line.find(
          R"("op":"BatchWriteItem","items":[{"table":"Things","action":"put","key":{"PK":"A","SK":"1"},"size":)"),
      std::string::npos)
      << line;
  EXPECT_NE(line.find(R"({"table":"Things","action":"delete","key":{"PK":"B","SK":"2"}})"),
            std::string::npos)
      << line;
  // A table the recorder has not seen (made without CreateTable) is described before its first
  // request.
  ASSERT_TRUE(db_->ImportItem("Things", {{"PK", Value("C")}, {"SK", Value("3")}}).ok());
  auto backup = db_->CreateBackup({.table_name = "Things", .backup_name = "bak"});
  ASSERT_TRUE(backup.ok()) << backup.status().message();
  ASSERT_TRUE(db_->RestoreTableFromBackup({.target_table_name = "Restored",
                                           .backup_arn = backup->backup_details.backup_arn})
                  .ok());
  ASSERT_TRUE(
      db_->GetItem({.table_name = "Restored", .key = {{"PK", Value("C")}, {"SK", Value("3")}}})
          .ok());
  const std::vector<std::string> lines = Recorded();
  ASSERT_GE(lines.size(), 2u);
  EXPECT_NE(lines[lines.size() - 2].find(R"("op":"CreateTable","table":"Restored")"),
            std::string::npos);
  EXPECT_NE(lines.back().find(R"("op":"GetItem","table":"Restored")"), std::string::npos);
}

TEST_F(TraceRecorderTest, TableChangesAreRecordedAndARecreatedTableIsDescribedAgain) {
  Open();
  UpdateTableRequest update{.table_name = "Things"};
  GlobalSecondaryIndexUpdate drop;
  drop.remove = GlobalSecondaryIndexUpdate::Delete{.index_name = "ByG"};
  update.global_secondary_index_updates = {{drop}};
  ASSERT_TRUE(db_->UpdateTable(update).ok());
  ASSERT_TRUE(db_->DeleteTable({.table_name = "Things"}).ok());
  CreateTableRequest create{.table_name = "Things"};
  create.attribute_definitions = {{"Other", KeyType::kString}};
  create.key_schema = {{"Other", KeyRoleName::kHash}};
  create.billing_mode = BillingMode::kPayPerRequest;
  ASSERT_TRUE(db_->CreateTable(create).ok());
  ASSERT_TRUE(
      db_->PutItem({.table_name = "Things", .item = {{"Other", Value("o")}, {"PK", Value("p")}}})
          .ok());
  const std::vector<std::string> lines = Recorded();
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_NE(lines[2].find(R"("op":"UpdateTable","table":"Things","key":["PK","SK"])"),
            std::string::npos)
      << lines[2];
  EXPECT_NE(lines[2].find(R"("indexes":[])"), std::string::npos) << lines[2];  // ByG is gone
  EXPECT_NE(lines[3].find(R"("op":"DeleteTable","table":"Things"})"), std::string::npos)
      << lines[3];
  EXPECT_NE(lines[4].find(R"("op":"CreateTable","table":"Things","key":["Other"])"),
            std::string::npos);
  // The new key schema's attribute only: PK is no key of the new table.
  EXPECT_NE(lines[5].find(R"("key":{"Other":"o"})"), std::string::npos) << lines[5];
}

TEST_F(TraceRecorderTest, TheWriteShardingExtensionsAreNotRecorded) {
  Open();
  sharding::ShardingPolicy policy;
  policy.key = "hot";
  policy.shard_count = 4;
  ASSERT_TRUE(db_->PutShardingPolicy({.table_name = "Things", .policy = policy}).ok());
  BatchWriteItemRequest batch;
  batch.request_items.push_back(
      {"Things", {{WriteRequest::Kind::kPut, {{"PK", Value("hot")}, {"SK", Value("1")}}}}});
  ASSERT_TRUE(db_->ShardedBatchWriteItem(batch).ok());
  ASSERT_TRUE(db_->ShardedPutItem(
                     {.table_name = "Things", .item = {{"PK", Value("hot")}, {"SK", Value("2")}}})
                  .ok());
  EXPECT_EQ(Recorded().size(), 2u);              // the header and the CreateTable
  ASSERT_TRUE(db_->BatchWriteItem(batch).ok());  // the plain one is
  EXPECT_EQ(Recorded().size(), 3u);
}

TEST(TraceRecorderOpenTest, AnUnwritablePathIsAnErrorNamingIt) {
  auto opened = TraceRecorder::Open("/nonexistent/dir/trace.jsonl");
  ASSERT_FALSE(opened.ok());
  EXPECT_NE(opened.status().message().find("/nonexistent/dir/trace.jsonl"), std::string::npos);
}

}  // namespace
}  // namespace partstore
