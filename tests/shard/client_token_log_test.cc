// A TransactWriteItems' ClientRequestToken outlives a restart with a write-ahead log: the SDKs
// send a transaction again when its answer was lost (a killed server among the reasons), and
// DynamoDB answers such a repeat for 10 minutes without applying it a second time. The token is
// logged with the transaction's changes, and carried into the new segment when a snapshot cuts
// the log.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "partstore/database.h"
#include "tests/shard/database_testutil.h"

namespace partstore {
namespace {

using testing::MustCreate;
using testing::N;

class ClientTokenLogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (std::filesystem::temp_directory_path() /
            ("partstore_tokens_" + std::to_string(getpid()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name()))
               .string();
    std::filesystem::remove_all(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::unique_ptr<Database> Open(WalSync sync = WalSync::kAlways) {
    DatabaseOptions options;
    options.stripes_per_table = 16;
    options.persistence = {.data_dir = dir_, .wal = sync};
    auto db = Database::Open(options);
    EXPECT_TRUE(db.ok()) << db.status().ToString();
    return db.ok() ? std::move(*db) : nullptr;
  }

  // Adds 1 to the counter, under `token`.
  static Result<TransactWriteItemsResult> Add(Database& db, const std::string& token,
                                              int amount = 1) {
    TransactWriteItemsRequest request{.client_request_token = token};
    request.transact_items.push_back(
        {.update = UpdateItemRequest{
             .table_name = "Counters",
             .key = Item{{"PK", Value("c")}},
             .update_expression = "ADD n :one",
             .expression_attribute_values = AttributeMap{{":one", Value(amount)}}}});
    return db.TransactWriteItems(request);
  }

  static int64_t Count(Database& db) {
    auto got = db.GetItem({.table_name = "Counters", .key = Item{{"PK", Value("c")}}});
    EXPECT_TRUE(got.ok() && got->item.has_value());
    return got.ok() && got->item ? got->item->at("n").as_number().ToInt64().value_or(-1) : -1;
  }

  std::string dir_;
};

TEST_F(ClientTokenLogTest, ARepeatAfterARestartIsAnsweredNotApplied) {
  {
    auto db = Open();
    MustCreate(*db, "Counters", KeySchema{{"PK", KeyType::kString}, {}});
    ASSERT_TRUE(Add(*db, "token-1").ok());
    ASSERT_TRUE(Add(*db, "token-2").ok());
  }  // dropped without a snapshot: only the log has the tokens
  auto db = Open();
  ASSERT_TRUE(Add(*db, "token-1").ok());
  EXPECT_EQ(Count(*db), 2);
  // Another request under a remembered token is refused, as before the restart.
  auto mismatch = Add(*db, "token-2", 5);
  ASSERT_FALSE(mismatch.ok());
  EXPECT_EQ(mismatch.status().code(), Code::kIdempotentParameterMismatch);
  ASSERT_TRUE(Add(*db, "token-3").ok());
  EXPECT_EQ(Count(*db), 3);
}

TEST_F(ClientTokenLogTest, TokensSurviveTheSnapshotsThatCutTheLog) {
  {
    auto db = Open();
    MustCreate(*db, "Counters", KeySchema{{"PK", KeyType::kString}, {}});
    ASSERT_TRUE(Add(*db, "token-1").ok());
    ASSERT_TRUE(db->CreateSnapshot({}).ok());  // the segment with the transaction is deleted
    ASSERT_TRUE(Add(*db, "token-2").ok());
    ASSERT_TRUE(db->CreateSnapshot({}).ok());
  }
  {
    auto db = Open();  // (opening takes a snapshot too)
    ASSERT_TRUE(Add(*db, "token-1").ok());
    ASSERT_TRUE(Add(*db, "token-2").ok());
    EXPECT_EQ(Count(*db), 2);
  }
  auto db = Open();
  ASSERT_TRUE(Add(*db, "token-1").ok());
  EXPECT_EQ(Count(*db), 2);
}

// More tokens than one log record carries (16,384 each): the snapshot's carry splits them.
TEST_F(ClientTokenLogTest, ManyTokensAreCarriedInSeveralRecords) {
  constexpr int kTokens = 20'000;
  {
    auto db = Open(WalSync::kOff);
    MustCreate(*db, "Counters", KeySchema{{"PK", KeyType::kString}, {}});
    for (int i = 0; i < kTokens; ++i) ASSERT_TRUE(Add(*db, "t" + std::to_string(i)).ok());
    ASSERT_TRUE(db->CreateSnapshot({}).ok());
  }
  auto db = Open(WalSync::kOff);
  ASSERT_TRUE(Add(*db, "t0").ok());
  ASSERT_TRUE(Add(*db, "t" + std::to_string(kTokens - 1)).ok());
  EXPECT_EQ(Count(*db), kTokens);
}

}  // namespace
}  // namespace partstore
