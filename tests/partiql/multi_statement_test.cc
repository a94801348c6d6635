// BatchExecuteStatement and ExecuteTransaction: per-statement answers and errors of a batch, a
// transaction's all-or-nothing through TransactWriteItems / TransactGetItems, DuplicateItem and
// EXISTS as cancellation reasons, and the request rules (counts, read/write mixing).
#include <gtest/gtest.h>

#include "partstore/error_detail.h"
#include "tests/partiql/partiql_testutil.h"

namespace partstore {
namespace {

using testing::Exec;
using testing::J;

class MultiStatementTest : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::CreateMusic(db_);
    ASSERT_TRUE(
        Exec(db_, "INSERT INTO Music VALUE {'Artist': 'A', 'SongTitle': 'S1', 'n': 1}").ok());
    ASSERT_TRUE(
        Exec(db_, "INSERT INTO Music VALUE {'Artist': 'A', 'SongTitle': 'S2', 'n': 2}").ok());
  }
  std::optional<Item> Get(const char* artist, const char* title) {
    auto r = db_.GetItem({.table_name = "Music",
                          .key = Item{{"Artist", artist}, {"SongTitle", title}},
                          .consistent_read = true});
    EXPECT_TRUE(r.ok());
    return r.ok() ? r->item : std::nullopt;
  }
  Database db_;
};

TEST_F(MultiStatementTest, BatchReads) {
  BatchExecuteStatementRequest request;
  request.statements = {
      {.statement = "SELECT * FROM Music WHERE Artist = 'A' AND SongTitle = 'S1'"},
      {.statement = "SELECT n FROM Music WHERE Artist = ? AND SongTitle = ?",
       .parameters = std::vector<Value>{Value("A"), Value("S2")}},
      {.statement = "SELECT * FROM Music WHERE Artist = 'A' AND SongTitle = 'none'"},
      {.statement = "SELECT * FROM Music WHERE Artist = 'A'"},
      {.statement = "SELECT * FROM Nope1 WHERE Artist = 'A' AND SongTitle = 'S1'"},
      {.statement = "SELECT * FROM Music WHERE"},
  };
  request.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  auto r = db_.BatchExecuteStatement(request);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->responses.size(), 6u);
  EXPECT_EQ(r->responses[0].table_name, "Music");
  EXPECT_EQ(r->responses[0].item->at("n"), Value(1));
  EXPECT_EQ(*r->responses[1].item, J(R"({"n":{"N":"2"}})"));
  EXPECT_FALSE(r->responses[2].item);
  EXPECT_FALSE(r->responses[2].error);
  ASSERT_TRUE(r->responses[3].error);
  EXPECT_EQ(r->responses[3].error->code, "ValidationError");
  EXPECT_EQ(r->responses[3].error->message,
            "Where clause does not contain a mandatory equality on all key attributes");
  EXPECT_EQ(r->responses[4].error->code, "ResourceNotFound");
  EXPECT_EQ(r->responses[5].error->code, "ValidationError");
  ASSERT_EQ(r->consumed_capacity.size(), 1u);
  EXPECT_EQ(r->consumed_capacity[0].table_name, "Music");
}

TEST_F(MultiStatementTest, BatchWritesEachOnTheirOwn) {
  BatchExecuteStatementRequest request;
  request.statements = {
      {.statement = "INSERT INTO Music VALUE {'Artist': 'B', 'SongTitle': 'T1'}"},
      {.statement = "INSERT INTO Music VALUE {'Artist': 'A', 'SongTitle': 'S1'}"},
      {.statement = "UPDATE Music SET n = n + 10 WHERE Artist = 'A' AND SongTitle = 'S2'"},
      {.statement = "UPDATE Music SET n = 0 WHERE Artist = 'A' AND SongTitle = 'S1' AND n = 9",
       .return_values_on_condition_check_failure = ReturnValuesOnConditionCheckFailure::kAllOld},
      {.statement = "DELETE FROM Music WHERE Artist = 'A' AND SongTitle = 'S1'"},
  };
  auto r = db_.BatchExecuteStatement(request);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->responses.size(), 5u);
  EXPECT_FALSE(r->responses[0].error);
  ASSERT_TRUE(r->responses[1].error);
  EXPECT_EQ(r->responses[1].error->code, "DuplicateItem");
  EXPECT_EQ(r->responses[1].error->message, "Duplicate primary key exists in table");
  EXPECT_FALSE(r->responses[2].error);
  ASSERT_TRUE(r->responses[3].error);
  EXPECT_EQ(r->responses[3].error->code, "ConditionalCheckFailed");
  ASSERT_TRUE(r->responses[3].error->item);
  EXPECT_EQ(r->responses[3].error->item->at("n"), Value(1));
  EXPECT_FALSE(r->responses[4].error);
  EXPECT_TRUE(Get("B", "T1"));
  EXPECT_EQ(Get("A", "S2")->at("n"), Value(12));
  EXPECT_FALSE(Get("A", "S1"));
}

TEST_F(MultiStatementTest, BatchRequestRules) {
  BatchExecuteStatementRequest request;
  auto r = db_.BatchExecuteStatement(request);
  EXPECT_EQ(r.status().ToString(),
            "Validation: 1 validation error detected: Value '[0 statements]' at 'statements' "
            "failed to satisfy constraint: Member must have length greater than or equal to 1");
  request.statements.resize(26, {.statement = "SELECT * FROM Music WHERE Artist = 'A' AND "
                                              "SongTitle = 'S1'"});
  r = db_.BatchExecuteStatement(request);
  EXPECT_NE(r.status().message().find("Member must have length less than or equal to 25"),
            std::string_view::npos);
  request.statements.resize(1);
  request.statements.push_back(
      {.statement = "DELETE FROM Music WHERE Artist = 'A' AND SongTitle = 'S1'"});
  r = db_.BatchExecuteStatement(request);
  EXPECT_EQ(r.status().code(), Code::kValidation);
  EXPECT_TRUE(Get("A", "S1"));  // nothing ran
}

TEST_F(MultiStatementTest, TransactionWrites) {
  ExecuteTransactionRequest request;
  request.transact_statements = {
      {.statement = "INSERT INTO Music VALUE {'Artist': 'C', 'SongTitle': 'U1'}"},
      {.statement = "UPDATE Music SET n = n + 1 WHERE Artist = 'A' AND SongTitle = 'S1'"},
      {.statement = "DELETE FROM Music WHERE Artist = 'A' AND SongTitle = 'S2'"},
      {.statement =
           "EXISTS(SELECT * FROM Music WHERE Artist = 'A' AND SongTitle = 'S1' AND n = 1)"},
  };
  // EXISTS reads the item as it was before the transaction: one item each, checked together.
  request.transact_statements[3].statement =
      "EXISTS(SELECT * FROM Music WHERE Artist = 'B' AND SongTitle = 'S1')";
  auto failed = db_.ExecuteTransaction(request);
  ASSERT_EQ(failed.status().code(), Code::kTransactionCanceled);
  ASSERT_NE(failed.status().detail(), nullptr);
  const auto& reasons = failed.status().detail()->cancellation_reasons;
  ASSERT_EQ(reasons.size(), 4u);
  EXPECT_EQ(reasons[0].code, "None");
  EXPECT_EQ(reasons[3].code, "ConditionalCheckFailed");
  EXPECT_FALSE(Get("C", "U1"));  // nothing written
  EXPECT_TRUE(Get("A", "S2"));

  ASSERT_TRUE(Exec(db_, "INSERT INTO Music VALUE {'Artist': 'B', 'SongTitle': 'S1'}").ok());
  request.client_request_token = "token-1";
  auto ok = db_.ExecuteTransaction(request);
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_FALSE(ok->responses);
  EXPECT_TRUE(Get("C", "U1"));
  EXPECT_EQ(Get("A", "S1")->at("n"), Value(2));
  EXPECT_FALSE(Get("A", "S2"));
  // The same token again: the first result, nothing applied twice.
  auto again = db_.ExecuteTransaction(request);
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(Get("A", "S1")->at("n"), Value(2));
}

TEST_F(MultiStatementTest, TransactionDuplicateItemReason) {
  ExecuteTransactionRequest request;
  request.transact_statements = {
      {.statement = "INSERT INTO Music VALUE {'Artist': 'A', 'SongTitle': 'S1'}"},
      {.statement = "UPDATE Music SET n = 5 WHERE Artist = 'A' AND SongTitle = 'S2'"},
  };
  auto r = db_.ExecuteTransaction(request);
  ASSERT_EQ(r.status().code(), Code::kTransactionCanceled);
  EXPECT_EQ(r.status().message(),
            "Transaction cancelled, please refer cancellation reasons for specific reasons "
            "[DuplicateItem, None]");
  const auto& reasons = r.status().detail()->cancellation_reasons;
  EXPECT_EQ(reasons[0].code, "DuplicateItem");
  EXPECT_EQ(reasons[0].message, "Duplicate primary key exists in table");
  EXPECT_EQ(Get("A", "S2")->at("n"), Value(2));
}

TEST_F(MultiStatementTest, TransactionReads) {
  ExecuteTransactionRequest request;
  request.transact_statements = {
      {.statement = "SELECT * FROM Music WHERE Artist = 'A' AND SongTitle = 'S1'"},
      {.statement = "SELECT n FROM Music WHERE Artist = ? AND SongTitle = ?",
       .parameters = std::vector<Value>{Value("A"), Value("nope")}},
  };
  auto r = db_.ExecuteTransaction(request);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_TRUE(r->responses);
  ASSERT_EQ(r->responses->size(), 2u);
  EXPECT_EQ((*r->responses)[0]->at("n"), Value(1));
  EXPECT_FALSE((*r->responses)[1]);
}

TEST_F(MultiStatementTest, TransactionRules) {
  auto run = [&](std::vector<std::string> statements) {
    ExecuteTransactionRequest request;
    for (auto& s : statements) request.transact_statements.push_back({.statement = s});
    return db_.ExecuteTransaction(request).status().ToString();
  };
  EXPECT_EQ(run({"SELECT * FROM Music WHERE Artist = 'A'"}),
            "Validation: Select statements within ExecuteTransaction must specify the primary key "
            "in the where clause.");
  EXPECT_EQ(run({"SELECT * FROM Music.ByAlbum WHERE AlbumTitle = 'A'"}),
            "Validation: Reads on indices are not supported within transactions.");
  EXPECT_EQ(run({"EXISTS(SELECT * FROM Music WHERE Artist = 'A')"}),
            "Validation: EXISTS() must contain a single item read with additional condition");
  EXPECT_EQ(run({"SELECT * FROM Music WHERE Artist = 'A' AND SongTitle = 'S1'",
                 "DELETE FROM Music WHERE Artist = 'A' AND SongTitle = 'S2'"})
                .substr(0, 35),
            "Validation: Unsupported operation: ");
  EXPECT_EQ(run({}),
            "Validation: 1 validation error detected: Value '[0 statements]' at "
            "'transactStatements' failed to satisfy constraint: Member must have length greater "
            "than or equal to 1");
  EXPECT_EQ(run({"UPDATE Music SET n = 1 WHERE Artist = 'A' AND SongTitle = 'S1'",
                 "DELETE FROM Music WHERE Artist = 'A' AND SongTitle = 'S1'"}),
            "Validation: Transaction request cannot include multiple operations on one item");
  std::vector<std::string> many(101, "DELETE FROM Music WHERE Artist = 'A' AND SongTitle = 'S1'");
  EXPECT_NE(run(many).find("Member must have length less than or equal to 100"), std::string::npos);
}

}  // namespace
}  // namespace partstore
