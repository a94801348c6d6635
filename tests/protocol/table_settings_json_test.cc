// The table settings and tag operations on the wire (tools/protocol/table_settings_json.h):
// members decoded and checked, DescribeTable reporting them, the tag operations' shapes.
#include <gtest/gtest.h>

#include <string>

#include "partstore/database.h"
#include "tools/protocol/dispatch.h"

namespace partstore::protocol {
namespace {

constexpr std::string_view kCreate =
    R"({"TableName":"Settings","BillingMode":"PAY_PER_REQUEST",)"
    R"("KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],)"
    R"("AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],)";
constexpr std::string_view kArn = "arn:aws:dynamodb:us-east-1:000000000000:table/Settings";

std::string Create(std::string_view extra) { return std::string(kCreate) + std::string(extra); }

TEST(TableSettingsJsonTest, CreateTableTakesEverySettingAndDescribeTableReportsThem) {
  Database db;
  Response r = Dispatch(db, "CreateTable",
                        Create(R"("Tags":[{"Key":"team","Value":"cart"}],)"
                               R"("TableClass":"STANDARD_INFREQUENT_ACCESS",)"
                               R"("DeletionProtectionEnabled":true,)"
                               R"("SSESpecification":{"Enabled":true,"KMSMasterKeyId":"arn:k"},)"
                               R"("OnDemandThroughput":{"MaxReadRequestUnits":100},)"
                               R"("WarmThroughput":{"ReadUnitsPerSecond":20000}})"));
  ASSERT_EQ(r.http_status, 200) << r.body;
  r = Dispatch(db, "DescribeTable", R"({"TableName":"Settings"})");
  for (std::string_view member :
       {R"("DeletionProtectionEnabled":true)", R"("TableClass":"STANDARD_INFREQUENT_ACCESS")",
        R"("SSEDescription":{"Status":"ENABLED","SSEType":"KMS","KMSMasterKeyArn":"arn:k"})",
        R"("OnDemandThroughput":{"MaxReadRequestUnits":100,"MaxWriteRequestUnits":-1})",
        R"("WarmThroughput":{"ReadUnitsPerSecond":20000,"Status":"ACTIVE"})"}) {
    EXPECT_NE(r.body.find(member), std::string::npos) << member << " in " << r.body;
  }
  r = Dispatch(db, "ListTagsOfResource", R"({"ResourceArn":")" + std::string(kArn) + R"("})");
  EXPECT_EQ(r.body, R"({"Tags":[{"Key":"team","Value":"cart"}]})");
  r = Dispatch(db, "DeleteTable", R"({"TableName":"Settings"})");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_NE(r.body.find("currently protected against deletion"), std::string::npos) << r.body;
}

TEST(TableSettingsJsonTest, BadMembersGetDynamoDBsErrors) {
  Database db;
  Response r = Dispatch(db, "CreateTable", Create(R"("TableClass":"GLACIER"})"));
  EXPECT_EQ(r.body,
            R"({"__type":"com.amazon.coral.validate#ValidationException","message":"Invalid )"
            R"(table-class parameter provided. Please try again with a valid table-class value: )"
            R"([STANDARD, STANDARD_INFREQUENT_ACCESS]."})");
  r = Dispatch(db, "CreateTable", Create(R"("Tags":[{"Key":"team"}]})"));
  EXPECT_NE(r.body.find("The Tag Value provided is invalid, Value: null"), std::string::npos)
      << r.body;
  r = Dispatch(db, "CreateTable", Create(R"("Tags":[{"Key":5,"Value":"v"}]})"));
  EXPECT_NE(r.body.find("SerializationException"), std::string::npos) << r.body;
  r = Dispatch(db, "CreateTable", Create(R"("DeletionProtectionEnabled":{}})"));
  EXPECT_NE(r.body.find("SerializationException"), std::string::npos) << r.body;
  r = Dispatch(db, "CreateTable", Create(R"("OnDemandThroughput":{"MaxReadRequestUnits":"x"}})"));
  EXPECT_NE(r.body.find("SerializationException"), std::string::npos) << r.body;
  r = Dispatch(db, "CreateTable", Create(R"("SSESpecification":{"Enabled":true,"SSEType":"X"}})"));
  EXPECT_NE(r.body.find("Member must satisfy enum value set: [AES256, KMS]"), std::string::npos)
      << r.body;
  r = Dispatch(db, "TagResource", R"({"Tags":[]})");
  EXPECT_NE(r.body.find("Value null at 'resourceArn' failed to satisfy constraint"),
            std::string::npos)
      << r.body;
  r = Dispatch(db, "UntagResource", R"({"ResourceArn":"x"})");
  EXPECT_NE(r.body.find("Value null at 'tagKeys'"), std::string::npos) << r.body;
}

TEST(TableSettingsJsonTest, UpdateTableTakesEachSettingAlone) {
  Database db;
  ASSERT_EQ(Dispatch(db, "CreateTable", Create(R"("Tags":[]})")).http_status, 200);
  for (std::string_view change :
       {R"("TableClass":"STANDARD")", R"("DeletionProtectionEnabled":false)",
        R"("SSESpecification":{"Enabled":true})",
        R"("OnDemandThroughput":{"MaxWriteRequestUnits":5})",
        R"("WarmThroughput":{"WriteUnitsPerSecond":4500})"}) {
    Response r =
        Dispatch(db, "UpdateTable", R"({"TableName":"Settings",)" + std::string(change) + "}");
    EXPECT_EQ(r.http_status, 200) << change << ": " << r.body;
  }
  Response r = Dispatch(
      db, "TagResource",
      R"({"ResourceArn":")" + std::string(kArn) + R"(","Tags":[{"Key":"a","Value":"1"}]})");
  // HTTP 200 and no body at all, as DynamoDB answers them.
  EXPECT_EQ(r.http_status, 200);
  EXPECT_EQ(r.body, "");
  r = Dispatch(db, "UntagResource",
               R"({"ResourceArn":")" + std::string(kArn) + R"(","TagKeys":["a"]})");
  EXPECT_EQ(r.http_status, 200);
  EXPECT_EQ(r.body, "");
  r = Dispatch(db, "DescribeLimits", "{}");
  EXPECT_EQ(r.body, R"({"AccountMaxReadCapacityUnits":80000,"AccountMaxWriteCapacityUnits":80000,)"
                    R"("TableMaxReadCapacityUnits":40000,"TableMaxWriteCapacityUnits":40000})");
}

TEST(TableSettingsJsonTest, GsisTakeTheirOwnOnDemandThroughputAndWarmThroughput) {
  Database db;
  Response r = Dispatch(db, "CreateTable",
                        R"({"TableName":"Settings","BillingMode":"PAY_PER_REQUEST",)"
                        R"("KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],)"
                        R"("AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},)"
                        R"({"AttributeName":"x","AttributeType":"S"}],)"
                        R"("GlobalSecondaryIndexes":[{"IndexName":"byX","KeySchema":)"
                        R"([{"AttributeName":"x","KeyType":"HASH"}],)"
                        R"("Projection":{"ProjectionType":"ALL"},)"
                        R"("OnDemandThroughput":{"MaxWriteRequestUnits":30},)"
                        R"("WarmThroughput":{"ReadUnitsPerSecond":15000}}]})");
  ASSERT_EQ(r.http_status, 200) << r.body;
  // An Update action with only WarmThroughput (ProvisionedThroughput is not required).
  r = Dispatch(db, "UpdateTable",
               R"({"TableName":"Settings","GlobalSecondaryIndexUpdates":[{"Update":)"
               R"({"IndexName":"byX","WarmThroughput":{"WriteUnitsPerSecond":5000}}}]})");
  ASSERT_EQ(r.http_status, 200) << r.body;
  r = Dispatch(db, "DescribeTable", R"({"TableName":"Settings"})");
  const size_t index = r.body.find(R"("IndexName":"byX")");
  ASSERT_NE(index, std::string::npos) << r.body;
  for (std::string_view member :
       {R"("OnDemandThroughput":{"MaxReadRequestUnits":-1,"MaxWriteRequestUnits":30})",
        R"("WarmThroughput":{"ReadUnitsPerSecond":15000,"WriteUnitsPerSecond":5000,)"
        R"("Status":"ACTIVE"})"}) {
    EXPECT_NE(r.body.find(member, index), std::string::npos) << member << " in " << r.body;
  }
  EXPECT_EQ(r.body.find(R"("OnDemandThroughput")"), r.body.find(R"("OnDemandThroughput")", index))
      << "the table has none of its own: " << r.body;
  // Shapes and the engine's checks.
  r = Dispatch(db, "UpdateTable",
               R"({"TableName":"Settings","GlobalSecondaryIndexUpdates":[{"Update":)"
               R"({"IndexName":"byX","OnDemandThroughput":{"MaxReadRequestUnits":"many"}}}]})");
  EXPECT_NE(r.body.find("SerializationException"), std::string::npos) << r.body;
  r = Dispatch(db, "UpdateTable",
               R"({"TableName":"Settings","GlobalSecondaryIndexUpdates":[{"Update":)"
               R"({"IndexName":"byX"}}]})");
  EXPECT_NE(r.body.find("One of ProvisionedThroughput, OnDemandThroughput or WarmThroughput is "
                        "required to update index: byX"),
            std::string::npos)
      << r.body;
}

TEST(ContributorInsightsJsonTest, ListedAndDescribedWithTheSimulationOffOrOn) {
  // Off: every table and GSI is DISABLED (GUI tools ask for them; they got a ValidationException).
  Database off;
  ASSERT_EQ(Dispatch(off, "CreateTable",
                     R"({"TableName":"Settings","BillingMode":"PAY_PER_REQUEST",)"
                     R"("KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],)"
                     R"("AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},)"
                     R"({"AttributeName":"x","AttributeType":"S"}],)"
                     R"("GlobalSecondaryIndexes":[{"IndexName":"byX","KeySchema":)"
                     R"([{"AttributeName":"x","KeyType":"HASH"}],)"
                     R"("Projection":{"ProjectionType":"ALL"}}]})")
                .http_status,
            200);
  Response r = Dispatch(off, "DescribeContributorInsights", R"({"TableName":"Settings"})");
  EXPECT_EQ(r.body, R"({"TableName":"Settings","ContributorInsightsRuleList":[],)"
                    R"("ContributorInsightsStatus":"DISABLED"})");
  r = Dispatch(off, "DescribeContributorInsights", R"({"TableName":"Nope"})");
  EXPECT_NE(r.body.find("ResourceNotFoundException"), std::string::npos) << r.body;
  r = Dispatch(off, "DescribeContributorInsights",
               R"({"TableName":"Settings","IndexName":"nope"})");
  EXPECT_NE(r.body.find("ResourceNotFoundException"), std::string::npos) << r.body;
  r = Dispatch(off, "ListContributorInsights", "{}");
  EXPECT_EQ(r.body, R"({"ContributorInsightsSummaries":[)"
                    R"({"TableName":"Settings","ContributorInsightsStatus":"DISABLED"},)"
                    R"({"TableName":"Settings","IndexName":"byX",)"
                    R"("ContributorInsightsStatus":"DISABLED"}]})");
  r = Dispatch(off, "ListContributorInsights", R"({"MaxResults":1})");
  EXPECT_NE(r.body.find(R"("NextToken":"1")"), std::string::npos) << r.body;
  r = Dispatch(off, "ListContributorInsights", R"({"MaxResults":1,"NextToken":"1"})");
  EXPECT_EQ(r.body, R"({"ContributorInsightsSummaries":[{"TableName":"Settings",)"
                    R"("IndexName":"byX","ContributorInsightsStatus":"DISABLED"}]})");
  r = Dispatch(off, "ListContributorInsights", R"({"NextToken":"x"})");
  EXPECT_NE(r.body.find("ValidationException"), std::string::npos) << r.body;

  // On: the status as enabled.
  DatabaseOptions options;
  options.capacity.enabled = true;
  Database on(options);
  ASSERT_EQ(Dispatch(on, "CreateTable", Create(R"("Tags":[]})")).http_status, 200);
  ASSERT_EQ(Dispatch(on, "UpdateContributorInsights",
                     R"({"TableName":"Settings","ContributorInsightsAction":"ENABLE"})")
                .http_status,
            200);
  r = Dispatch(on, "ListContributorInsights", R"({"TableName":"Settings"})");
  EXPECT_EQ(r.body, R"({"ContributorInsightsSummaries":[)"
                    R"({"TableName":"Settings","ContributorInsightsStatus":"ENABLED"}]})");
}

}  // namespace
}  // namespace partstore::protocol
