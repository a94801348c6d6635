// The three PartiQL operations on the wire (Dispatch): request shapes, model constraints in
// DynamoDB's "N validation errors detected" form, response shapes, and the error bodies
// (DuplicateItemException, TransactionCanceledException with DuplicateItem reasons).
#include <gtest/gtest.h>

#include "tests/partiql/partiql_testutil.h"
#include "tools/protocol/dispatch.h"

namespace partstore {
namespace {

class PartiqlJsonTest : public ::testing::Test {
 protected:
  void SetUp() override { testing::CreateMusic(db_); }
  protocol::Response Call(std::string_view operation, std::string_view body) {
    return protocol::Dispatch(db_, operation, body);
  }
  Database db_;
};

TEST_F(PartiqlJsonTest, ExecuteStatementRoundTrip) {
  auto r = Call("ExecuteStatement",
                R"({"Statement": "INSERT INTO Music VALUE {'Artist': ?, 'SongTitle': 'T', 'n': ?}",
                    "Parameters": [{"S": "A"}, {"N": "5"}]})");
  EXPECT_EQ(r.http_status, 200);
  EXPECT_EQ(r.body, R"({"Items":[]})");
  r = Call(
      "ExecuteStatement",
      R"({"Statement": "SELECT n FROM Music WHERE Artist = 'A'", "ReturnConsumedCapacity": "TOTAL"})");
  EXPECT_EQ(r.http_status, 200);
  EXPECT_EQ(
      r.body,
      R"({"Items":[{"n":{"N":"5"}}],"ConsumedCapacity":{"TableName":"Music","CapacityUnits":0.5}})");
  r = Call("ExecuteStatement",
           R"({"Statement": "INSERT INTO Music VALUE {'Artist': 'A', 'SongTitle': 'T'}"})");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(
      r.body,
      R"({"__type":"com.amazonaws.dynamodb.v20120810#DuplicateItemException","message":"Duplicate primary key exists in table"})");
}

TEST_F(PartiqlJsonTest, PagingMembers) {
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(
        Call(
            "ExecuteStatement",
            R"({"Statement": "INSERT INTO Music VALUE {'Artist': 'A', 'SongTitle': ?}", "Parameters": [{"S": ")" +
                std::to_string(i) + R"("}]})")
            .http_status,
        200);
  }
  auto r = Call("ExecuteStatement",
                R"({"Statement": "SELECT * FROM Music WHERE Artist = 'A'", "Limit": 2})");
  EXPECT_EQ(r.http_status, 200);
  EXPECT_NE(r.body.find(R"("NextToken":")"), std::string::npos) << r.body;
  EXPECT_NE(r.body.find(R"("LastEvaluatedKey":{"Artist":{"S":"A"},"SongTitle":{"S":"1"}})"),
            std::string::npos)
      << r.body;
}

TEST_F(PartiqlJsonTest, Constraints) {
  auto r = Call("ExecuteStatement", R"({"Statement": "", "Limit": 0, "Parameters": []})");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(
      r.body,
      R"({"__type":"com.amazon.coral.validate#ValidationException","message":"3 validation errors detected: Value '' at 'statement' failed to satisfy constraint: Member must have length greater than or equal to 1; Value '[]' at 'parameters' failed to satisfy constraint: Member must have length greater than or equal to 1; Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1"})");
  r = Call("ExecuteStatement", R"({})");
  EXPECT_NE(r.body.find(
                "Value null at 'statement' failed to satisfy constraint: Member must not be null"),
            std::string::npos)
      << r.body;
  r = Call("BatchExecuteStatement", R"({"Statements": []})");
  EXPECT_NE(r.body.find("at 'statements' failed to satisfy constraint: Member must have length "
                        "greater than or equal to 1"),
            std::string::npos)
      << r.body;
  r = Call("BatchExecuteStatement", R"({"Statements": [{"Parameters": [{"S": "x"}]}]})");
  EXPECT_NE(r.body.find("Value null at 'statements.1.member.statement'"), std::string::npos)
      << r.body;
  r = Call(
      "ExecuteTransaction",
      R"({"TransactStatements": [{"Statement": "x", "ReturnValuesOnConditionCheckFailure": "NO"}]})");
  EXPECT_NE(r.body.find("at 'transactStatements.1.member.returnValuesOnConditionCheckFailure' "
                        "failed to satisfy constraint: Member must satisfy enum value set: "
                        "[ALL_OLD, NONE]"),
            std::string::npos)
      << r.body;
}

TEST_F(PartiqlJsonTest, Shapes) {
  auto r =
      Call("ExecuteStatement", R"({"Statement": "SELECT * FROM Music", "Parameters": {"S": "x"}})");
  EXPECT_EQ(
      r.body,
      R"({"__type":"com.amazon.coral.service#SerializationException","Message":"Start of structure or map found where not expected"})");
  r = Call("ExecuteStatement", R"({"Statement": "SELECT * FROM Music", "Parameters": ["x"]})");
  EXPECT_EQ(
      r.body,
      R"({"__type":"com.amazon.coral.service#SerializationException","Message":"Unexpected value type in payload"})");
  r = Call("BatchExecuteStatement", R"({"Statements": [["x"]]})");
  EXPECT_EQ(
      r.body,
      R"({"__type":"com.amazon.coral.service#SerializationException","Message":"Unrecognized collection type class com.amazonaws.dynamodb.v20120810.BatchStatementRequest"})");
  r = Call("ExecuteStatement", R"({"Statement": 5})");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_NE(r.body.find("SerializationException"), std::string::npos);
}

TEST_F(PartiqlJsonTest, BatchResponses) {
  auto r = Call("BatchExecuteStatement", R"({"Statements": [
      {"Statement": "INSERT INTO Music VALUE {'Artist': 'A', 'SongTitle': 'T'}"},
      {"Statement": "INSERT INTO Music VALUE {'Artist': 'A', 'SongTitle': 'T'}"}]})");
  EXPECT_EQ(r.http_status, 200);
  EXPECT_EQ(
      r.body,
      R"({"Responses":[{"TableName":"Music"},{"Error":{"Code":"DuplicateItem","Message":"Duplicate primary key exists in table"},"TableName":"Music"}]})");
  r = Call("BatchExecuteStatement", R"({"Statements": [
      {"Statement": "SELECT * FROM Music WHERE Artist = 'A' AND SongTitle = 'T'", "ConsistentRead": true},
      {"Statement": "SELECT * FROM Music WHERE Artist = 'A' AND SongTitle = 'U'"}]})");
  EXPECT_EQ(
      r.body,
      R"({"Responses":[{"TableName":"Music","Item":{"Artist":{"S":"A"},"SongTitle":{"S":"T"}}},{"TableName":"Music"}]})");
}

TEST_F(PartiqlJsonTest, TransactionResponses) {
  auto r = Call("ExecuteTransaction", R"({"TransactStatements": [
      {"Statement": "INSERT INTO Music VALUE {'Artist': 'A', 'SongTitle': 'T'}"}], "ClientRequestToken": "t1"})");
  EXPECT_EQ(r.http_status, 200);
  EXPECT_EQ(r.body, "{}");
  r = Call("ExecuteTransaction", R"({"TransactStatements": [
      {"Statement": "INSERT INTO Music VALUE {'Artist': 'A', 'SongTitle': 'T'}"},
      {"Statement": "INSERT INTO Music VALUE {'Artist': 'B', 'SongTitle': 'T'}"}]})");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(
      r.body,
      R"({"__type":"com.amazonaws.dynamodb.v20120810#TransactionCanceledException","Message":"Transaction cancelled, please refer cancellation reasons for specific reasons [DuplicateItem, None]","CancellationReasons":[{"Code":"DuplicateItem","Message":"Duplicate primary key exists in table"},{"Code":"None"}]})");
  r = Call("ExecuteTransaction", R"({"TransactStatements": [
      {"Statement": "SELECT * FROM Music WHERE Artist = 'A' AND SongTitle = 'T'"},
      {"Statement": "SELECT * FROM Music WHERE Artist = 'B' AND SongTitle = 'T'"}]})");
  EXPECT_EQ(r.body, R"({"Responses":[{"Item":{"Artist":{"S":"A"},"SongTitle":{"S":"T"}}},{}]})");
}

TEST_F(PartiqlJsonTest, ParseErrorOnTheWire) {
  auto r = Call("ExecuteStatement", R"({"Statement": "SELECT * FROM"})");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(
      r.body,
      R"({"__type":"com.amazon.coral.validate#ValidationException","message":"Statement wasn't well formed, can't be processed: Unexpected end of statement"})");
  EXPECT_TRUE(protocol::IsOperation("ExecuteStatement"));
  EXPECT_TRUE(protocol::IsOperation("BatchExecuteStatement"));
  EXPECT_TRUE(protocol::IsOperation("ExecuteTransaction"));
}

}  // namespace
}  // namespace partstore
