// UpdateTimeToLive and DescribeTimeToLive over the JSON protocol: DynamoDB's null-member and
// length messages (all of a request's violations in one), the shapes' SerializationException,
// and the response shapes (docs/reference.md, Time to Live).
#include <gtest/gtest.h>

#include <string>

#include "partstore/database.h"
#include "tools/protocol/dispatch.h"

namespace partstore::protocol {
namespace {

class TimeToLiveJsonTest : public ::testing::Test {
 protected:
  TimeToLiveJsonTest() {
    Response created = Call("CreateTable", R"({"TableName":"Tbl","BillingMode":"PAY_PER_REQUEST",)"
                                           R"("AttributeDefinitions":[{"AttributeName":"pk",)"
                                           R"("AttributeType":"S"}],"KeySchema":[{"AttributeName":)"
                                           R"("pk","KeyType":"HASH"}]})");
    EXPECT_EQ(created.http_status, 200) << created.body;
  }
  Response Call(std::string_view operation, std::string_view body) {
    return Dispatch(db_, operation, body);
  }
  Database db_;
};

TEST_F(TimeToLiveJsonTest, UpdateAndDescribe) {
  Response described = Call("DescribeTimeToLive", R"({"TableName":"Tbl"})");
  EXPECT_EQ(described.http_status, 200);
  EXPECT_EQ(described.body, R"({"TimeToLiveDescription":{"TimeToLiveStatus":"DISABLED"}})");
  Response updated = Call("UpdateTimeToLive", R"({"TableName":"Tbl","TimeToLiveSpecification":)"
                                              R"({"AttributeName":"expires","Enabled":true}})");
  EXPECT_EQ(updated.http_status, 200) << updated.body;
  EXPECT_EQ(updated.body,
            R"({"TimeToLiveSpecification":{"AttributeName":"expires","Enabled":true}})");
  described = Call("DescribeTimeToLive", R"({"TableName":"Tbl"})");
  EXPECT_EQ(
      described.body,
      R"({"TimeToLiveDescription":{"TimeToLiveStatus":"ENABLED","AttributeName":"expires"}})");
  Response again = Call("UpdateTimeToLive", R"({"TableName":"Tbl","TimeToLiveSpecification":)"
                                            R"({"AttributeName":"expires","Enabled":true}})");
  EXPECT_EQ(again.http_status, 400);
  EXPECT_EQ(again.body, R"({"__type":"com.amazon.coral.validate#ValidationException",)"
                        R"("message":"TimeToLive is already enabled"})");
}

TEST_F(TimeToLiveJsonTest, NullMembersAndLengths) {
  auto message = [&](std::string_view body) {
    Response r = Call("UpdateTimeToLive", body);
    EXPECT_EQ(r.http_status, 400) << r.body;
    return r.body;
  };
  EXPECT_NE(message(R"({"TableName":"Tbl"})")
                .find("1 validation error detected: Value null at 'timeToLiveSpecification' "
                      "failed to satisfy constraint: Member must not be null"),
            std::string::npos);
  EXPECT_NE(message(R"({"TableName":"Tbl","TimeToLiveSpecification":{"Enabled":true}})")
                .find("Value null at 'timeToLiveSpecification.attributeName' failed to satisfy "
                      "constraint: Member must not be null"),
            std::string::npos);
  EXPECT_NE(message(R"({"TableName":"Tbl","TimeToLiveSpecification":{"AttributeName":"x"}})")
                .find("Value null at 'timeToLiveSpecification.enabled' failed to satisfy "
                      "constraint: Member must not be null"),
            std::string::npos);
  // Every violation in one message.
  const std::string both = message(R"({"TimeToLiveSpecification":{"AttributeName":""}})");
  EXPECT_NE(both.find("3 validation errors detected"), std::string::npos) << both;
  EXPECT_NE(both.find("Value null at 'tableName'"), std::string::npos) << both;
  EXPECT_NE(both.find("Member must have length greater than or equal to 1"), std::string::npos);
  const std::string too_long = message(R"({"TableName":"Tbl","TimeToLiveSpecification":)"
                                       R"({"AttributeName":")" +
                                       std::string(256, 'a') + R"(","Enabled":true}})");
  EXPECT_NE(too_long.find("Member must have length less than or equal to 255"), std::string::npos)
      << too_long;
  // Wrong JSON types are SerializationException.
  Response wrong = Call("UpdateTimeToLive", R"({"TableName":"Tbl","TimeToLiveSpecification":)"
                                            R"({"AttributeName":"x","Enabled":"dog"}})");
  EXPECT_EQ(wrong.http_status, 400);
  EXPECT_NE(wrong.body.find("SerializationException"), std::string::npos) << wrong.body;
  Response list = Call("UpdateTimeToLive", R"({"TableName":"Tbl","TimeToLiveSpecification":[]})");
  EXPECT_NE(list.body.find("SerializationException"), std::string::npos) << list.body;
  // A missing table is named.
  Response missing = Call("DescribeTimeToLive", R"({"TableName":"Nope"})");
  EXPECT_EQ(missing.http_status, 400);
  EXPECT_NE(missing.body.find("Requested resource not found: Table: Nope not found"),
            std::string::npos);
}

}  // namespace
}  // namespace partstore::protocol
