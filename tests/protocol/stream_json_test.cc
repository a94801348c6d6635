// DynamoDB Streams over the JSON protocol (tools/protocol/stream_json.cc): StreamSpecification's
// model constraints on CreateTable / UpdateTable, DescribeTable's stream members, and the exact
// bodies of ListStreams, DescribeStream, GetShardIterator and GetRecords.
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <string>

#include "partstore/database.h"
#include "tools/protocol/attribute_value_json.h"
#include "tools/protocol/dispatch.h"
#include "tools/protocol/operations_json.h"

namespace partstore::protocol {
namespace {

constexpr std::string_view kTable =
    R"("TableName":"Tbl","BillingMode":"PAY_PER_REQUEST",)"
    R"("AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],)"
    R"("KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}])";

class StreamJsonTest : public ::testing::Test {
 protected:
  Response Call(std::string_view operation, const std::string& body) {
    return Dispatch(db_, operation, body);
  }
  rapidjson::Document Json(const Response& r) {
    rapidjson::Document d;
    EXPECT_TRUE(ParseJson(r.body, &d).ok()) << r.body;
    return d;
  }
  std::string Create(std::string_view spec) {
    Response r = Call("CreateTable", "{" + std::string(kTable) + R"(,"StreamSpecification":)" +
                                         std::string(spec) + "}");
    EXPECT_EQ(r.http_status, 200) << r.body;
    rapidjson::Document d = Json(r);
    return d["TableDescription"]["LatestStreamArn"].GetString();
  }
  Database db_;
};

TEST_F(StreamJsonTest, StreamSpecificationModelConstraints) {
  Response missing =
      Call("CreateTable", "{" + std::string(kTable) + R"(,"StreamSpecification":{}})");
  EXPECT_EQ(missing.http_status, 400);
  EXPECT_EQ(missing.body,
            R"({"__type":"com.amazon.coral.validate#ValidationException","message":"1 validation )"
            R"(error detected: Value null at 'streamSpecification.streamEnabled' failed to )"
            R"(satisfy constraint: Member must not be null"})");
  Response bad_view = Call("CreateTable", "{" + std::string(kTable) +
                                              R"(,"StreamSpecification":{"StreamEnabled":true,)"
                                              R"("StreamViewType":"ALL"}})");
  EXPECT_NE(bad_view.body.find("Value 'ALL' at 'streamSpecification.streamViewType' failed to "
                               "satisfy constraint: Member must satisfy enum value set: "
                               "[NEW_IMAGE, OLD_IMAGE, NEW_AND_OLD_IMAGES, KEYS_ONLY]"),
            std::string::npos)
      << bad_view.body;
  Response wrong_type = Call(
      "CreateTable", "{" + std::string(kTable) + R"(,"StreamSpecification":{"StreamEnabled":1}})");
  EXPECT_EQ(wrong_type.http_status, 400);
  EXPECT_NE(wrong_type.body.find("SerializationException"), std::string::npos) << wrong_type.body;
}

TEST_F(StreamJsonTest, DescribeTableAndTheStreamOperations) {
  const std::string arn = Create(R"({"StreamEnabled":true,"StreamViewType":"KEYS_ONLY"})");
  rapidjson::Document table = Json(Call("DescribeTable", R"({"TableName":"Tbl"})"));
  const auto& t = table["Table"];
  EXPECT_TRUE(t["StreamSpecification"]["StreamEnabled"].GetBool());
  EXPECT_STREQ(t["StreamSpecification"]["StreamViewType"].GetString(), "KEYS_ONLY");
  EXPECT_EQ(arn, std::string(t["TableArn"].GetString()) + "/stream/" +
                     t["LatestStreamLabel"].GetString());

  rapidjson::Document listed = Json(Call("DynamoDBStreams.ListStreams", "{}"));
  ASSERT_EQ(listed["Streams"].Size(), 1u);
  EXPECT_EQ(listed["Streams"][0]["StreamArn"].GetString(), arn);
  EXPECT_STREQ(listed["Streams"][0]["TableName"].GetString(), "Tbl");

  Response described_r =
      Call("DynamoDBStreams.DescribeStream", R"({"StreamArn":")" + arn + R"(","Limit":1})");
  ASSERT_EQ(described_r.http_status, 200) << described_r.body;
  rapidjson::Document described = Json(described_r);
  const auto& d = described["StreamDescription"];
  EXPECT_STREQ(d["StreamStatus"].GetString(), "ENABLED");
  EXPECT_STREQ(d["StreamViewType"].GetString(), "KEYS_ONLY");
  EXPECT_TRUE(d["CreationRequestDateTime"].IsNumber());
  EXPECT_STREQ(d["KeySchema"][0]["KeyType"].GetString(), "HASH");
  ASSERT_EQ(d["Shards"].Size(), 1u);  // Limit 1 of 4
  EXPECT_TRUE(d.HasMember("LastEvaluatedShardId"));
  const std::string shard = d["Shards"][0]["ShardId"].GetString();
  EXPECT_TRUE(d["Shards"][0]["SequenceNumberRange"].HasMember("StartingSequenceNumber"));
  EXPECT_FALSE(d["Shards"][0]["SequenceNumberRange"].HasMember("EndingSequenceNumber"));

  // A put into whichever shard: read every shard until the record is found.
  EXPECT_EQ(
      Call("PutItem", R"({"TableName":"Tbl","Item":{"pk":{"S":"k"},"n":{"N":"1"}}})").http_status,
      200);
  std::string record;
  rapidjson::Document all =
      Json(Call("DynamoDBStreams.DescribeStream", R"({"StreamArn":")" + arn + R"("})"));
  for (const auto& s : all["StreamDescription"]["Shards"].GetArray()) {
    rapidjson::Document it =
        Json(Call("DynamoDBStreams.GetShardIterator",
                  R"({"StreamArn":")" + arn + R"(","ShardId":")" + s["ShardId"].GetString() +
                      R"(","ShardIteratorType":"TRIM_HORIZON"})"));
    Response page =
        Call("DynamoDBStreams.GetRecords",
             R"({"ShardIterator":")" + std::string(it["ShardIterator"].GetString()) + R"("})");
    ASSERT_EQ(page.http_status, 200) << page.body;
    rapidjson::Document p = Json(page);
    EXPECT_TRUE(p.HasMember("NextShardIterator"));  // open shards always have one
    if (p["Records"].Size() == 1) record = page.body;
  }
  ASSERT_FALSE(record.empty());
  rapidjson::Document r = Json(Response{200, record});
  const auto& rec = r["Records"][0];
  EXPECT_STREQ(rec["eventName"].GetString(), "INSERT");
  EXPECT_STREQ(rec["eventSource"].GetString(), "aws:dynamodb");
  EXPECT_STREQ(rec["eventVersion"].GetString(), "1.1");
  EXPECT_STREQ(rec["awsRegion"].GetString(), "us-east-1");
  EXPECT_EQ(std::string(rec["eventID"].GetString()).size(), 32u);
  EXPECT_FALSE(rec.HasMember("userIdentity"));
  const auto& sr = rec["dynamodb"];
  EXPECT_TRUE(sr["ApproximateCreationDateTime"].IsNumber());
  EXPECT_EQ(ItemToJson(Item{{"pk", Value("k")}}), [&] {
    rapidjson::StringBuffer b;
    rapidjson::Writer<rapidjson::StringBuffer> w(b);
    sr["Keys"].Accept(w);
    return std::string(b.GetString());
  }());
  EXPECT_FALSE(sr.HasMember("NewImage"));  // KEYS_ONLY
  EXPECT_FALSE(sr.HasMember("OldImage"));
  EXPECT_EQ(std::string(sr["SequenceNumber"].GetString()).size(), 21u);
  EXPECT_EQ(sr["SizeBytes"].GetInt64(), 3);  // the key: "pk" (2 bytes) and "k" (1)
  EXPECT_STREQ(sr["StreamViewType"].GetString(), "KEYS_ONLY");
}

TEST(StreamRecordJson, UserIdentityNamesWhoRemoved) {
  GetRecordsResult result;
  StreamRecord r;
  r.event_name = StreamEventName::kRemove;
  r.keys = Item{{"pk", Value("k")}};
  result.records = {r, r, r};
  result.records[1].remover = StreamRemover::kTimeToLive;
  result.records[2].remover = StreamRemover::kEviction;
  const std::string body = EncodeGetRecordsResult(result, "eu-west-1");
  rapidjson::Document d;
  ASSERT_TRUE(ParseJson(body, &d).ok()) << body;
  EXPECT_FALSE(d["Records"][0].HasMember("userIdentity"));
  EXPECT_STREQ(d["Records"][1]["userIdentity"]["PrincipalId"].GetString(),
               "dynamodb.amazonaws.com");
  EXPECT_STREQ(d["Records"][1]["userIdentity"]["Type"].GetString(), "Service");
  EXPECT_STREQ(d["Records"][2]["userIdentity"]["PrincipalId"].GetString(), "partstore.eviction");
  EXPECT_STREQ(d["Records"][0]["awsRegion"].GetString(), "eu-west-1");
  EXPECT_FALSE(d.HasMember("NextShardIterator"));
}

TEST_F(StreamJsonTest, RequestErrors) {
  const std::string arn = Create(R"({"StreamEnabled":true,"StreamViewType":"NEW_IMAGE"})");
  auto type_of = [&](std::string_view op, const std::string& body) {
    Response r = Call(op, body);
    rapidjson::Document d = Json(r);
    return r.http_status == 200 ? std::string("OK") : std::string(d["__type"].GetString());
  };
  const std::string validation = "com.amazon.coral.validate#ValidationException";
  const std::string not_found = "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException";
  EXPECT_EQ(type_of("DynamoDBStreams.DescribeStream", "{}"), validation);
  EXPECT_EQ(type_of("DynamoDBStreams.DescribeStream", R"({"StreamArn":"short"})"), validation);
  EXPECT_EQ(type_of("DynamoDBStreams.DescribeStream", R"({"StreamArn":")" + arn + R"(x"})"),
            not_found);
  EXPECT_EQ(
      type_of("DynamoDBStreams.DescribeStream", R"({"StreamArn":")" + arn + R"(","Limit":0})"),
      validation);
  EXPECT_EQ(type_of("DynamoDBStreams.ListStreams", R"({"Limit":101})"), validation);
  EXPECT_EQ(type_of("DynamoDBStreams.GetShardIterator",
                    R"({"StreamArn":")" + arn +
                        R"(","ShardId":"shardId-00000000000000000000-0000",)"
                        R"("ShardIteratorType":"SIDEWAYS"})"),
            validation);
  EXPECT_EQ(type_of("DynamoDBStreams.GetRecords", R"({"ShardIterator":""})"), validation);
  EXPECT_EQ(type_of("DynamoDBStreams.GetRecords", R"({"ShardIterator":"a|b|c|d"})"), validation);
  EXPECT_EQ(type_of("DynamoDBStreams.GetRecords", R"({"ShardIterator":")" + arn + R"(x|s|1|0"})"),
            not_found);
  EXPECT_EQ(type_of("DynamoDBStreams.GetRecords", R"({"ShardIterator":1})"),
            "com.amazon.coral.service#SerializationException");
}

}  // namespace
}  // namespace partstore::protocol
