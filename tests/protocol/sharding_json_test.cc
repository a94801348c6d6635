// Tests for the write-sharding extensions' JSON (sharding_json.h): the decoders' members,
// defaults, shape errors, required members and enum errors; the encoders' exact bytes; and every
// Partstore.<Op> of write sharding through Dispatch on a real Database.
#include "tools/protocol/sharding_json.h"

#include <gtest/gtest.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <optional>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "tests/protocol/decode_testutil.h"
#include "tools/protocol/dispatch.h"
#include "tools/protocol/operations_json.h"

namespace partstore::protocol {
namespace {

using sharding::KeyMatch;
using sharding::ShardingPolicy;
using sharding::ShardStrategy;

std::string NotNull(std::string_view member) {
  return "Value null at '" + std::string(member) +
         "' failed to satisfy constraint: Member must not be null";
}
std::string OneError(const std::string& violation) {
  return "Validation: 1 validation error detected: " + violation;
}

// ---- Decoders ----

TEST(ShardingDecodeTest, PutShardingPolicyEveryMember) {
  auto r = Decode(DecodePutShardingPolicyRequest, R"({"TableName": "Feed", "IndexName": "ByOwner",
      "Key": "USER#", "KeyMatch": "PREFIX", "ShardCount": 10, "SuffixFormat": "-<n>",
      "Strategy": "CALCULATED", "CalculatedFrom": "ts", "LogicalKeyAttribute": "Owner"})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_EQ(r->table_name, "Feed");
  EXPECT_EQ(r->policy, (ShardingPolicy{.index_name = "ByOwner",
                                       .key = "USER#",
                                       .match = KeyMatch::kPrefix,
                                       .shard_count = 10,
                                       .suffix_format = "-<n>",
                                       .strategy = ShardStrategy::kCalculated,
                                       .calculated_from = "ts",
                                       .logical_key_attribute = "Owner"}));
}

TEST(ShardingDecodeTest, PutShardingPolicyDefaults) {
  auto r =
      Decode(DecodePutShardingPolicyRequest, R"({"TableName": "Feed", "Key": "K", "ShardCount": 3,
          "IndexName": null, "KeyMatch": null, "Strategy": null, "Unknown": [1]})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_EQ(r->table_name, "Feed");
  const ShardingPolicy& p = r->policy;
  EXPECT_FALSE(p.index_name);
  EXPECT_EQ(p.key, "K");
  EXPECT_EQ(p.match, KeyMatch::kExact);
  EXPECT_EQ(p.shard_count, 3);
  EXPECT_EQ(p.suffix_format, "#SHARD<n>");
  EXPECT_EQ(p.strategy, ShardStrategy::kRandom);
  EXPECT_FALSE(p.calculated_from);
  EXPECT_EQ(p.logical_key_attribute, "");  // the engine fills in the default
  r = Decode(DecodePutShardingPolicyRequest,
             R"({"TableName": "Feed", "Key": "K", "ShardCount": 3, "KeyMatch": "EXACT",
                 "Strategy": "RANDOM"})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_EQ(r->policy.match, KeyMatch::kExact);
  EXPECT_EQ(r->policy.strategy, ShardStrategy::kRandom);
}

TEST(ShardingDecodeTest, PutShardingPolicyShardCountIsAnInteger) {
  // Range checks are the engine's: 0, negative and too large values reach it.
  for (const auto& [json, expected] : std::vector<std::pair<std::string, int>>{
           {"0", 0}, {"-2", -2}, {"1001", 1001}, {"2147483647", 2147483647}, {"2.9", 2}}) {
    auto r = Decode(DecodePutShardingPolicyRequest,
                    R"({"TableName": "Feed", "Key": "K", "ShardCount": )" + json + "}");
    ASSERT_TRUE(r.ok()) << json << ": " << ErrorOf(r);
    EXPECT_EQ(r->policy.shard_count, expected) << json;
  }
  for (const auto& [json, expected] : std::vector<std::pair<std::string, std::string>>{
           {R"("3")", "STRING_VALUE cannot be converted to Integer"},
           {"true", "TRUE_VALUE cannot be converted to Integer"},
           {"[3]", "Unrecognized collection type class java.lang.Integer"},
           {"{}", "Start of structure or map found where not expected"},
           {"3000000000", "NUMBER_VALUE cannot be converted to Integer"},
           {"1e12", "DECIMAL_VALUE cannot be converted to Integer"}}) {
    EXPECT_EQ(ErrorOf(Decode(DecodePutShardingPolicyRequest,
                             R"({"TableName": "Feed", "Key": "K", "ShardCount": )" + json + "}")),
              "Serialization: " + expected)
        << json;
  }
}

TEST(ShardingDecodeTest, PutShardingPolicyShapes) {
  const std::string base = R"({"TableName": "Feed", "Key": "K", "ShardCount": 3, )";
  for (const auto& [member, expected] : std::vector<std::pair<std::string, std::string>>{
           {R"("TableName": 5)", "NUMBER_VALUE cannot be converted to String"},
           {R"("IndexName": true)", "TRUE_VALUE cannot be converted to String"},
           {R"("Key": ["K"])", "Unrecognized collection type class java.lang.String"},
           {R"("KeyMatch": 1)", "NUMBER_VALUE cannot be converted to String"},
           {R"("SuffixFormat": false)", "FALSE_VALUE cannot be converted to String"},
           {R"("Strategy": {})", "Start of structure or map found where not expected"},
           {R"("CalculatedFrom": 1.5)", "DECIMAL_VALUE cannot be converted to String"},
           {R"("LogicalKeyAttribute": [])",
            "Unrecognized collection type class java.lang.String"}}) {
    EXPECT_EQ(ErrorOf(Decode(DecodePutShardingPolicyRequest, base + member + "}")),
              "Serialization: " + expected)
        << member;
  }
  // Shapes come before constraints, whatever the order of the members.
  EXPECT_EQ(ErrorOf(Decode(DecodePutShardingPolicyRequest, R"({"KeyMatch": "X", "Key": 1})")),
            "Serialization: NUMBER_VALUE cannot be converted to String");
  EXPECT_EQ(ErrorOf(Decode(DecodePutShardingPolicyRequest, "[]")),
            "Serialization: Unrecognized collection type class "
            "com.amazonaws.dynamodb.v20120810.PutShardingPolicyInput");
}

TEST(ShardingDecodeTest, PutShardingPolicyRequiredMembers) {
  EXPECT_EQ(ErrorOf(Decode(DecodePutShardingPolicyRequest, R"({"Key": "K", "ShardCount": 3})")),
            OneError(NotNull("tableName")));
  EXPECT_EQ(
      ErrorOf(Decode(DecodePutShardingPolicyRequest, R"({"TableName": "Feed", "ShardCount": 3})")),
      OneError(NotNull("key")));
  EXPECT_EQ(ErrorOf(Decode(DecodePutShardingPolicyRequest, R"({"TableName": "Feed", "Key": "K"})")),
            OneError(NotNull("shardCount")));
  EXPECT_EQ(
      ErrorOf(Decode(DecodePutShardingPolicyRequest,
                     R"({"TableName": "Feed", "Key": null, "ShardCount": null})")),
      "Validation: 2 validation errors detected: " + NotNull("key") + "; " + NotNull("shardCount"));
  EXPECT_EQ(ErrorOf(Decode(DecodePutShardingPolicyRequest, "{}")),
            "Validation: 3 validation errors detected: " + NotNull("tableName") + "; " +
                NotNull("key") + "; " + NotNull("shardCount"));
  // An empty Key is the engine's to reject.
  EXPECT_TRUE(
      Decode(DecodePutShardingPolicyRequest, R"({"TableName": "Feed", "Key": "", "ShardCount": 3})")
          .ok());
}

TEST(ShardingDecodeTest, PutShardingPolicyEnumsAndNames) {
  EXPECT_EQ(ErrorOf(Decode(DecodePutShardingPolicyRequest,
                           R"({"TableName": "Feed", "Key": "K", "ShardCount": 3,
                               "KeyMatch": "exact"})")),
            "Validation: 1 validation error detected: Value 'exact' at 'keyMatch' failed to "
            "satisfy constraint: Member must satisfy enum value set: [EXACT, PREFIX]");
  EXPECT_EQ(ErrorOf(Decode(DecodePutShardingPolicyRequest,
                           R"({"TableName": "Feed", "Key": "K", "ShardCount": 3,
                               "Strategy": "HASH"})")),
            "Validation: 1 validation error detected: Value 'HASH' at 'strategy' failed to "
            "satisfy constraint: Member must satisfy enum value set: [RANDOM, CALCULATED]");
  EXPECT_EQ(ErrorOf(Decode(DecodePutShardingPolicyRequest,
                           R"({"TableName": "ab", "IndexName": "By Owner", "KeyMatch": "",
                               "Strategy": "random"})")),
            "Validation: 6 validation errors detected: Value 'ab' at 'tableName' failed to "
            "satisfy constraint: Member must have length greater than or equal to 3; Value "
            "'By Owner' at 'indexName' failed to satisfy constraint: Member must satisfy regular "
            "expression pattern: [a-zA-Z0-9_.-]+; " +
                NotNull("key") +
                "; Value '' at 'keyMatch' failed to satisfy constraint: Member must satisfy enum "
                "value set: [EXACT, PREFIX]; " +
                NotNull("shardCount") +
                "; Value 'random' at 'strategy' failed to satisfy constraint: Member must satisfy "
                "enum value set: [RANDOM, CALCULATED]");
}

TEST(ShardingDecodeTest, DeleteShardingPolicy) {
  auto r = Decode(DecodeDeleteShardingPolicyRequest,
                  R"({"TableName": "Feed", "IndexName": "ByOwner", "Key": "USER#",
                      "KeyMatch": "PREFIX", "ShardCount": "ignored"})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_EQ(r->table_name, "Feed");
  EXPECT_EQ(r->index_name, "ByOwner");
  EXPECT_EQ(r->key, "USER#");
  EXPECT_EQ(r->match, KeyMatch::kPrefix);
  r = Decode(DecodeDeleteShardingPolicyRequest, R"({"TableName": "Feed", "Key": "K"})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_FALSE(r->index_name);
  EXPECT_EQ(r->key, "K");
  EXPECT_EQ(r->match, KeyMatch::kExact);

  EXPECT_EQ(ErrorOf(Decode(DecodeDeleteShardingPolicyRequest, R"({"Key": "K"})")),
            OneError(NotNull("tableName")));
  EXPECT_EQ(ErrorOf(Decode(DecodeDeleteShardingPolicyRequest, R"({"TableName": "Feed"})")),
            OneError(NotNull("key")));
  EXPECT_EQ(ErrorOf(Decode(DecodeDeleteShardingPolicyRequest,
                           R"({"TableName": "Feed", "Key": "K", "KeyMatch": "ALL"})")),
            "Validation: 1 validation error detected: Value 'ALL' at 'keyMatch' failed to "
            "satisfy constraint: Member must satisfy enum value set: [EXACT, PREFIX]");
  EXPECT_EQ(ErrorOf(Decode(DecodeDeleteShardingPolicyRequest,
                           R"({"TableName": "Feed", "Key": "K", "KeyMatch": true})")),
            "Serialization: TRUE_VALUE cannot be converted to String");
  EXPECT_EQ(
      ErrorOf(Decode(DecodeDeleteShardingPolicyRequest, R"({"TableName": "Feed", "Key": 7})")),
      "Serialization: NUMBER_VALUE cannot be converted to String");
  EXPECT_EQ(ErrorOf(Decode(DecodeDeleteShardingPolicyRequest, "[1]")),
            "Serialization: Unrecognized collection type class "
            "com.amazonaws.dynamodb.v20120810.DeleteShardingPolicyInput");
}

TEST(ShardingDecodeTest, DescribeShardingPolicies) {
  auto r = Decode(DecodeDescribeShardingPoliciesRequest, R"({"TableName": "Feed"})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_EQ(r->table_name, "Feed");
  EXPECT_EQ(ErrorOf(Decode(DecodeDescribeShardingPoliciesRequest, "{}")),
            OneError(NotNull("tableName")));
  EXPECT_EQ(ErrorOf(Decode(DecodeDescribeShardingPoliciesRequest, R"({"TableName": ["Feed"]})")),
            "Serialization: Unrecognized collection type class java.lang.String");
  EXPECT_EQ(ErrorOf(Decode(DecodeDescribeShardingPoliciesRequest, R"({"TableName": "x"})")),
            "Validation: 1 validation error detected: Value 'x' at 'tableName' failed to satisfy "
            "constraint: Member must have length greater than or equal to 3");
}

TEST(ShardingDecodeTest, ShardedAggregate) {
  auto r = Decode(DecodeShardedAggregateRequest,
                  R"({"TableName": "Feed", "KeyConditionExpression": "PK = :pk",
                      "FilterExpression": "v > :min", "ExpressionAttributeValues":
                      {":pk": {"S": "USER#1"}, ":min": {"N": "1"}}, "SumAttribute": "v",
                      "ReturnConsumedCapacity": "TOTAL"})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_EQ(r->sum_attribute, "v");
  EXPECT_EQ(r->query.table_name, "Feed");
  EXPECT_EQ(r->query.key_condition_expression, "PK = :pk");
  EXPECT_EQ(r->query.filter_expression, "v > :min");
  ASSERT_TRUE(r->query.expression_attribute_values);
  EXPECT_EQ(r->query.expression_attribute_values->size(), 2u);
  EXPECT_EQ(r->query.return_consumed_capacity, ReturnConsumedCapacity::kTotal);

  r = Decode(DecodeShardedAggregateRequest,
             R"({"TableName": "Feed", "KeyConditionExpression": "PK = :pk"})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_FALSE(r->sum_attribute);
  r = Decode(DecodeShardedAggregateRequest, R"({"TableName": "Feed", "SumAttribute": null})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_FALSE(r->sum_attribute);

  EXPECT_EQ(
      ErrorOf(Decode(DecodeShardedAggregateRequest, R"({"TableName": "Feed", "SumAttribute": 5})")),
      "Serialization: NUMBER_VALUE cannot be converted to String");
  EXPECT_EQ(ErrorOf(Decode(DecodeShardedAggregateRequest,
                           R"({"TableName": "Feed", "SumAttribute": ["v"]})")),
            "Serialization: Unrecognized collection type class java.lang.String");
  // The Query part is Query's decoder: its shapes and constraints.
  EXPECT_EQ(ErrorOf(Decode(DecodeShardedAggregateRequest,
                           R"({"TableName": "Feed", "SumAttribute": "v", "Limit": "1"})")),
            "Serialization: STRING_VALUE cannot be converted to Integer");
  EXPECT_EQ(ErrorOf(Decode(DecodeShardedAggregateRequest, R"({"SumAttribute": "v"})")),
            OneError(NotNull("tableName")));
  EXPECT_EQ(ErrorOf(Decode(DecodeShardedAggregateRequest, "[]")),
            "Serialization: Unrecognized collection type class "
            "com.amazonaws.dynamodb.v20120810.ShardedAggregateInput");
}

// ---- Encoders ----

ShardingPolicy FullPolicy() {
  return ShardingPolicy{.index_name = "ByOwner",
                        .key = "USER#",
                        .match = KeyMatch::kPrefix,
                        .shard_count = 10,
                        .suffix_format = "-<n>",
                        .strategy = ShardStrategy::kCalculated,
                        .calculated_from = "ts",
                        .logical_key_attribute = "Owner"};
}
ShardingPolicy MinimalPolicy() {
  ShardingPolicy policy;
  policy.key = "USER#1";
  policy.shard_count = 4;
  policy.logical_key_attribute = "LogicalPK";
  return policy;
}
constexpr std::string_view kFullPolicyJson =
    R"({"IndexName":"ByOwner","Key":"USER#","KeyMatch":"PREFIX","ShardCount":10,)"
    R"("SuffixFormat":"-<n>","Strategy":"CALCULATED","CalculatedFrom":"ts",)"
    R"("LogicalKeyAttribute":"Owner"})";
constexpr std::string_view kMinimalPolicyJson =
    R"({"Key":"USER#1","KeyMatch":"EXACT","ShardCount":4,"SuffixFormat":"#SHARD<n>",)"
    R"("Strategy":"RANDOM","LogicalKeyAttribute":"LogicalPK"})";

Item LogicalItem() {
  Item item;
  item.emplace("PK", Value(std::string("USER#1")));
  item.emplace("SK", Value(std::string("A")));
  item.emplace("v", Value(*Number::Parse("1.5")));
  return item;
}
constexpr std::string_view kLogicalItemJson =
    R"({"PK":{"S":"USER#1"},"SK":{"S":"A"},"v":{"N":"1.5"}})";

ConsumedCapacity HalfUnitsCapacity(int64_t half_units) {
  ConsumedCapacity capacity;
  capacity.table_name = "Feed";
  capacity.total_half_units = half_units;
  return capacity;
}

TEST(ShardingEncodeTest, Policies) {
  EXPECT_EQ(EncodePutShardingPolicyResult({.policy = FullPolicy()}),
            R"({"ShardingPolicy":)" + std::string(kFullPolicyJson) + "}");
  EXPECT_EQ(EncodePutShardingPolicyResult({.policy = MinimalPolicy()}),
            R"({"ShardingPolicy":)" + std::string(kMinimalPolicyJson) + "}");
  EXPECT_EQ(EncodeDeleteShardingPolicyResult({.policy = MinimalPolicy()}),
            R"({"ShardingPolicy":)" + std::string(kMinimalPolicyJson) + "}");
  EXPECT_EQ(EncodeDescribeShardingPoliciesResult("Feed", {}),
            R"({"TableName":"Feed","ShardingPolicies":[]})");
  EXPECT_EQ(
      EncodeDescribeShardingPoliciesResult("Feed", {.policies = {MinimalPolicy(), FullPolicy()}}),
      R"({"TableName":"Feed","ShardingPolicies":[)" + std::string(kMinimalPolicyJson) + "," +
          std::string(kFullPolicyJson) + "]}");
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  WriteShardingPolicy(MinimalPolicy(), writer);
  EXPECT_EQ(std::string(buffer.GetString(), buffer.GetSize()), kMinimalPolicyJson);
}

ShardUse Use(int32_t shards_touched, std::optional<int32_t> shard) {
  ShardUse use;
  use.sharded = true;
  use.shards_touched = shards_touched;
  use.shard = shard;
  return use;
}

// A sharded result from the plain one and where it went.
template <typename Sharded, typename Plain>
Sharded With(Plain plain, ShardUse shards) {
  Sharded sharded;
  sharded.result = std::move(plain);
  sharded.shards = shards;
  return sharded;
}

TEST(ShardingEncodeTest, SingleItemOperations) {
  const ShardUse unsharded;
  const ShardUse one = Use(1, 3);
  const ShardUse probed = Use(4, std::nullopt);
  EXPECT_EQ(EncodeShardedPutItemResult(With<ShardedPutItemResult>(PutItemResult(), unsharded)),
            R"({"ShardsTouched":1})");
  PutItemResult put;
  put.consumed_capacity = HalfUnitsCapacity(2);
  EXPECT_EQ(EncodeShardedPutItemResult(With<ShardedPutItemResult>(put, one)),
            R"({"ConsumedCapacity":{"TableName":"Feed","CapacityUnits":1.0},)"
            R"("ShardsTouched":1,"Shard":3})");
  EXPECT_EQ(EncodeShardedGetItemResult(With<ShardedGetItemResult>(GetItemResult(), probed)),
            R"({"ShardsTouched":4})");
  GetItemResult get;
  get.item = LogicalItem();
  get.consumed_capacity = HalfUnitsCapacity(1);
  EXPECT_EQ(EncodeShardedGetItemResult(With<ShardedGetItemResult>(get, one)),
            R"({"Item":)" + std::string(kLogicalItemJson) +
                R"(,"ConsumedCapacity":{"TableName":"Feed","CapacityUnits":0.5},)"
                R"("ShardsTouched":1,"Shard":3})");
  UpdateItemResult update;
  update.attributes = LogicalItem();
  EXPECT_EQ(
      EncodeShardedUpdateItemResult(With<ShardedUpdateItemResult>(update, one)),
      R"({"Attributes":)" + std::string(kLogicalItemJson) + R"(,"ShardsTouched":1,"Shard":3})");
  DeleteItemResult deleted;
  deleted.attributes = LogicalItem();
  EXPECT_EQ(EncodeShardedDeleteItemResult(With<ShardedDeleteItemResult>(deleted, probed)),
            R"({"Attributes":)" + std::string(kLogicalItemJson) + R"(,"ShardsTouched":4})");
  // Shard 0 is a shard.
  EXPECT_EQ(
      EncodeShardedDeleteItemResult(With<ShardedDeleteItemResult>(DeleteItemResult(), Use(1, 0))),
      R"({"ShardsTouched":1,"Shard":0})");
  // The DynamoDB members are byte for byte the plain encoders'.
  put.attributes = LogicalItem();
  put.consumed_capacity = HalfUnitsCapacity(4);
  std::string plain = EncodePutItemResult(put);
  plain.pop_back();
  EXPECT_EQ(EncodeShardedPutItemResult(With<ShardedPutItemResult>(put, one)),
            plain + R"(,"ShardsTouched":1,"Shard":3})");
}

TEST(ShardingEncodeTest, BatchWriteItem) {
  ShardedBatchWriteItemResult result;
  EXPECT_EQ(EncodeShardedBatchWriteItemResult(result),
            R"({"UnprocessedItems":{},"PhysicalWrites":0})");
  WriteRequest write;
  write.kind = WriteRequest::Kind::kPut;
  write.item = LogicalItem();
  result.result.unprocessed_items.emplace_back("Feed", std::vector<WriteRequest>{write});
  result.result.consumed_capacity = {HalfUnitsCapacity(6)};
  result.physical_writes = 7;
  EXPECT_EQ(EncodeShardedBatchWriteItemResult(result),
            R"({"UnprocessedItems":{"Feed":[{"PutRequest":{"Item":)" +
                std::string(kLogicalItemJson) +
                R"(}}]},"ConsumedCapacity":[{"TableName":"Feed","CapacityUnits":3.0}],)"
                R"("PhysicalWrites":7})");
}

TEST(ShardingEncodeTest, Query) {
  ShardedQueryResult result;
  result.result.items = {LogicalItem()};
  result.result.count = 1;
  result.result.scanned_count = 2;
  result.result.last_evaluated_key =
      Item{{"PK", Value(std::string("USER#1#SHARD2"))}, {"SK", Value(std::string("A"))}};
  result.result.consumed_capacity = HalfUnitsCapacity(4);
  result.shards_queried = 4;
  result.shard_reads = 5;
  EXPECT_EQ(EncodeShardedQueryResult(result),
            R"({"Items":[)" + std::string(kLogicalItemJson) +
                R"(],"Count":1,"ScannedCount":2,)"
                R"("LastEvaluatedKey":{"PK":{"S":"USER#1#SHARD2"},"SK":{"S":"A"}},)"
                R"("ConsumedCapacity":{"TableName":"Feed","CapacityUnits":2.0},)"
                R"("ShardsQueried":4,"ShardReads":5})");
  ShardedQueryResult count;
  count.result.count = 3;
  count.result.scanned_count = 3;
  count.result.items_omitted = true;
  EXPECT_EQ(EncodeShardedQueryResult(count),
            R"({"Count":3,"ScannedCount":3,"ShardsQueried":1,"ShardReads":1})");
}

TEST(ShardingEncodeTest, Aggregate) {
  EXPECT_EQ(EncodeShardedAggregateResult({}),
            R"({"Count":0,"ScannedCount":0,"ShardsQueried":1,"ShardReads":0})");
  ShardedAggregateResult result;
  result.count = 5000000000;  // beyond int32
  result.scanned_count = 5000000001;
  result.sum = *Number::Parse("0012.50");
  result.summed_items = 4;
  result.shards_queried = 10;
  result.shard_reads = 12;
  result.consumed_capacity = HalfUnitsCapacity(3);
  EXPECT_EQ(EncodeShardedAggregateResult(result),
            R"({"Count":5000000000,"ScannedCount":5000000001,"Sum":{"N":"12.5"},)"
            R"("SummedItems":4,"ShardsQueried":10,"ShardReads":12,)"
            R"("ConsumedCapacity":{"TableName":"Feed","CapacityUnits":1.5}})");
  // A sum over no numeric item is still a Sum (0) when asked for.
  ShardedAggregateResult zero;
  zero.count = 2;
  zero.scanned_count = 2;
  zero.sum = *Number::Parse("0");
  zero.shards_queried = 2;
  zero.shard_reads = 2;
  EXPECT_EQ(EncodeShardedAggregateResult(zero),
            R"({"Count":2,"ScannedCount":2,"Sum":{"N":"0"},"SummedItems":0,)"
            R"("ShardsQueried":2,"ShardReads":2})");
}

// ---- Through Dispatch ----

class ShardingDispatchTest : public ::testing::Test {
 protected:
  ShardingDispatchTest() {
    Ok("CreateTable", R"({"TableName": "Feed", "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [{"AttributeName": "PK", "AttributeType": "S"},
                                 {"AttributeName": "SK", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"},
                      {"AttributeName": "SK", "KeyType": "RANGE"}]})");
  }

  Response Call(std::string_view operation, std::string_view body) {
    return Dispatch(db_, operation, body);
  }
  std::string Ok(std::string_view operation, std::string_view body) {
    Response r = Call(operation, body);
    EXPECT_EQ(r.http_status, 200) << operation << " " << body << " -> " << r.body;
    return r.body;
  }
  std::string Policy(std::string_view members) {
    return Ok("Partstore.PutShardingPolicy",
              R"({"TableName": "Feed", )" + std::string(members) + "}");
  }
  // {"TableName": "Feed", <members>} for the data-plane operations.
  std::string Sharded(std::string_view operation, std::string_view members) {
    return Ok("Partstore.Sharded" + std::string(operation),
              R"({"TableName": "Feed", )" + std::string(members) + "}");
  }
  static std::string Key(std::string_view pk, std::string_view sk) {
    return R"("Key": {"PK": {"S": ")" + std::string(pk) + R"("}, "SK": {"S": ")" + std::string(sk) +
           R"("}})";
  }
  static std::string PutItem(std::string_view pk, std::string_view sk, int v) {
    return R"("Item": {"PK": {"S": ")" + std::string(pk) + R"("}, "SK": {"S": ")" +
           std::string(sk) + R"("}, "v": {"N": ")" + std::to_string(v) + R"("}})";
  }
  // The "Shard" member of a response, or -1.
  static int ShardOf(const std::string& body) {
    std::smatch match;
    if (!std::regex_search(body, match, std::regex(R"("Shard":([0-9]+)[,}])"))) return -1;
    return std::stoi(match[1]);
  }

  Database db_;
};

constexpr std::string_view kItemA = R"({"PK":{"S":"USER#1"},"SK":{"S":"A"},"v":{"N":"1"}})";
constexpr std::string_view kItemB = R"({"PK":{"S":"USER#1"},"SK":{"S":"B"},"v":{"N":"2"}})";
constexpr std::string_view kItemC = R"({"PK":{"S":"USER#1"},"SK":{"S":"C"},"v":{"N":"3"}})";
constexpr std::string_view kQueryUser1 =
    R"("KeyConditionExpression": "PK = :pk", "ExpressionAttributeValues": {":pk": {"S": "USER#1"}})";

TEST_F(ShardingDispatchTest, PolicyLifecycle) {
  const std::string describe = R"({"TableName": "Feed"})";
  EXPECT_EQ(Ok("Partstore.DescribeShardingPolicies", describe),
            R"({"TableName":"Feed","ShardingPolicies":[]})");
  EXPECT_EQ(Policy(R"("Key": "USER#1", "ShardCount": 4)"),
            R"({"ShardingPolicy":)" + std::string(kMinimalPolicyJson) + "}");
  const std::string team =
      R"({"Key":"TEAM#","KeyMatch":"PREFIX","ShardCount":3,"SuffixFormat":"-<n>",)"
      R"("Strategy":"CALCULATED","LogicalKeyAttribute":"Team"})";
  EXPECT_EQ(Policy(R"("Key": "TEAM#", "KeyMatch": "PREFIX", "ShardCount": 3,
                      "SuffixFormat": "-<n>", "Strategy": "CALCULATED",
                      "LogicalKeyAttribute": "Team")"),
            R"({"ShardingPolicy":)" + team + "}");
  EXPECT_EQ(Ok("Partstore.DescribeShardingPolicies", describe),
            R"({"TableName":"Feed","ShardingPolicies":[)" + std::string(kMinimalPolicyJson) + "," +
                team + "]}");
  // Same Key and KeyMatch: replaced in place.
  const std::string user8 =
      R"({"Key":"USER#1","KeyMatch":"EXACT","ShardCount":8,"SuffixFormat":"#SHARD<n>",)"
      R"("Strategy":"CALCULATED","CalculatedFrom":"SK","LogicalKeyAttribute":"LogicalPK"})";
  EXPECT_EQ(Policy(R"("Key": "USER#1", "ShardCount": 8, "Strategy": "CALCULATED",
                      "CalculatedFrom": "SK")"),
            R"({"ShardingPolicy":)" + user8 + "}");
  EXPECT_EQ(Ok("Partstore.DescribeShardingPolicies", describe),
            R"({"TableName":"Feed","ShardingPolicies":[)" + user8 + "," + team + "]}");
  // Delete names the policy by Key and KeyMatch and answers the one removed.
  EXPECT_EQ(Ok("Partstore.DeleteShardingPolicy",
               R"({"TableName": "Feed", "Key": "TEAM#", "KeyMatch": "PREFIX"})"),
            R"({"ShardingPolicy":)" + team + "}");
  EXPECT_EQ(Ok("Partstore.DescribeShardingPolicies", describe),
            R"({"TableName":"Feed","ShardingPolicies":[)" + user8 + "]}");
  EXPECT_EQ(Ok("Partstore.DeleteShardingPolicy", R"({"TableName": "Feed", "Key": "USER#1"})"),
            R"({"ShardingPolicy":)" + user8 + "}");
  EXPECT_EQ(Ok("Partstore.DescribeShardingPolicies", describe),
            R"({"TableName":"Feed","ShardingPolicies":[]})");
  // Deleting a policy that does not exist is an error (the engine's).
  Response r = Call("Partstore.DeleteShardingPolicy", R"({"TableName": "Feed", "Key": "USER#1"})");
  EXPECT_EQ(r.http_status, 400) << r.body;
}

TEST_F(ShardingDispatchTest, PolicyErrors) {
  Response r = Call("Partstore.PutShardingPolicy",
                    R"({"TableName": "Feed", "Key": "K", "ShardCount": 3, "KeyMatch": "ANY"})");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(r.body,
            R"({"__type":"com.amazon.coral.validate#ValidationException","message":"1 validation )"
            R"(error detected: Value 'ANY' at 'keyMatch' failed to satisfy constraint: Member )"
            R"(must satisfy enum value set: [EXACT, PREFIX]"})");
  r = Call("Partstore.PutShardingPolicy",
           R"({"TableName": "Feed", "Key": "K", "ShardCount": "3"})");
  EXPECT_EQ(r.body, R"({"__type":"com.amazon.coral.service#SerializationException",)"
                    R"("Message":"STRING_VALUE cannot be converted to Integer"})");
  // The engine's checks.
  r = Call("Partstore.PutShardingPolicy", R"({"TableName": "Feed", "Key": "K", "ShardCount": 0})");
  EXPECT_EQ(r.body, R"({"__type":"com.amazon.coral.validate#ValidationException",)"
                    R"("message":"ShardCount must be between 1 and 1000"})");
  r = Call("Partstore.PutShardingPolicy",
           R"({"TableName": "Feed", "Key": "K", "ShardCount": 2, "SuffixFormat": "#S"})");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_NE(r.body.find("ValidationException"), std::string::npos) << r.body;
  for (std::string_view operation :
       {"Partstore.PutShardingPolicy", "Partstore.DeleteShardingPolicy",
        "Partstore.DescribeShardingPolicies"}) {
    r = Call(operation, R"({"TableName": "Missing", "Key": "K", "ShardCount": 2})");
    EXPECT_EQ(r.http_status, 400) << operation;
    EXPECT_NE(r.body.find("ResourceNotFoundException"), std::string::npos)
        << operation << " " << r.body;
  }
  // Dispatch's first checks apply to the extensions too.
  r = Call("Partstore.PutShardingPolicy", "");
  EXPECT_EQ(r.body, R"({"__type":"com.amazon.coral.service#SerializationException"})");
  r = Call("Partstore.ShardedScan", "{}");
  EXPECT_EQ(r.body, R"({"__type":"com.amazon.coral.service#UnknownOperationException",)"
                    R"("message":"Unknown operation exception: Partstore.ShardedScan"})");
}

TEST_F(ShardingDispatchTest, UncoveredKeysBehaveLikeThePlainOperations) {
  EXPECT_EQ(Sharded("PutItem", PutItem("USER#1", "A", 1)), R"({"ShardsTouched":1})");
  EXPECT_EQ(Ok("GetItem", R"({"TableName": "Feed", )" + Key("USER#1", "A") + "}"),
            R"({"Item":)" + std::string(kItemA) + "}");
  EXPECT_EQ(Sharded("GetItem", Key("USER#1", "A")),
            R"({"Item":)" + std::string(kItemA) + R"(,"ShardsTouched":1})");
  EXPECT_EQ(
      Sharded("UpdateItem", Key("USER#1", "A") + R"(, "UpdateExpression": "SET v = v + :one",
                    "ExpressionAttributeValues": {":one": {"N": "1"}}, "ReturnValues": "ALL_NEW")"),
      R"({"Attributes":{"PK":{"S":"USER#1"},"SK":{"S":"A"},"v":{"N":"2"}},"ShardsTouched":1})");
  EXPECT_EQ(Sharded("Query", kQueryUser1),
            R"({"Items":[{"PK":{"S":"USER#1"},"SK":{"S":"A"},"v":{"N":"2"}}],"Count":1,)"
            R"("ScannedCount":1,"ShardsQueried":1,"ShardReads":1})");
  EXPECT_EQ(
      Sharded("DeleteItem", Key("USER#1", "A") + R"(, "ReturnValues": "ALL_OLD")"),
      R"({"Attributes":{"PK":{"S":"USER#1"},"SK":{"S":"A"},"v":{"N":"2"}},"ShardsTouched":1})");
  EXPECT_EQ(Sharded("GetItem", Key("USER#1", "A")), R"({"ShardsTouched":1})");
}

TEST_F(ShardingDispatchTest, OneCalculatedShard) {
  Policy(R"("Key": "USER#1", "ShardCount": 1, "Strategy": "CALCULATED")");
  EXPECT_EQ(
      Sharded("PutItem", PutItem("USER#1", "A", 1) + R"(, "ReturnConsumedCapacity": "TOTAL")"),
      R"({"ConsumedCapacity":{"TableName":"Feed","CapacityUnits":1.0},)"
      R"("ShardsTouched":1,"Shard":0})");
  // Stored under the physical key, with the logical key beside it.
  EXPECT_EQ(Ok("GetItem", R"({"TableName": "Feed", )" + Key("USER#1#SHARD0", "A") + "}"),
            R"({"Item":{"LogicalPK":{"S":"USER#1"},"PK":{"S":"USER#1#SHARD0"},"SK":{"S":"A"},)"
            R"("v":{"N":"1"}}})");
  EXPECT_EQ(Ok("GetItem", R"({"TableName": "Feed", )" + Key("USER#1", "A") + "}"), "{}");
  // Presented with the logical key.
  EXPECT_EQ(Sharded("GetItem", Key("USER#1", "A")),
            R"({"Item":)" + std::string(kItemA) + R"(,"ShardsTouched":1,"Shard":0})");
  EXPECT_EQ(Sharded("UpdateItem", Key("USER#1", "A") + R"(, "UpdateExpression": "SET v = :v",
                    "ExpressionAttributeValues": {":v": {"N": "2"}}, "ReturnValues": "ALL_NEW")"),
            R"({"Attributes":{"PK":{"S":"USER#1"},"SK":{"S":"A"},"v":{"N":"2"}},)"
            R"("ShardsTouched":1,"Shard":0})");
  EXPECT_EQ(Sharded("Query", kQueryUser1),
            R"({"Items":[{"PK":{"S":"USER#1"},"SK":{"S":"A"},"v":{"N":"2"}}],"Count":1,)"
            R"("ScannedCount":1,"ShardsQueried":1,"ShardReads":1})");
  EXPECT_EQ(Sharded("DeleteItem", Key("USER#1", "A") + R"(, "ReturnValues": "ALL_OLD")"),
            R"({"Attributes":{"PK":{"S":"USER#1"},"SK":{"S":"A"},"v":{"N":"2"}},)"
            R"("ShardsTouched":1,"Shard":0})");
  EXPECT_EQ(Sharded("GetItem", Key("USER#1", "A")), R"({"ShardsTouched":1,"Shard":0})");
}

TEST_F(ShardingDispatchTest, CalculatedShardsAreStable) {
  Policy(R"("Key": "USER#1", "ShardCount": 4, "Strategy": "CALCULATED")");
  for (const std::string sk : {"A", "B", "C", "D", "E"}) {
    const std::string put = Sharded("PutItem", PutItem("USER#1", sk, 1));
    const int shard = ShardOf(put);
    ASSERT_GE(shard, 0) << put;
    ASSERT_LT(shard, 4) << put;
    EXPECT_EQ(put, R"({"ShardsTouched":1,"Shard":)" + std::to_string(shard) + "}");
    // A point read recomputes the shard: one physical read.
    EXPECT_EQ(Sharded("GetItem", Key("USER#1", sk)),
              R"({"Item":{"PK":{"S":"USER#1"},"SK":{"S":")" + sk +
                  R"("},"v":{"N":"1"}},"ShardsTouched":1,"Shard":)" + std::to_string(shard) + "}");
    const std::string physical = "USER#1#SHARD" + std::to_string(shard);
    EXPECT_EQ(Ok("GetItem", R"({"TableName": "Feed", )" + Key(physical, sk) + "}"),
              R"({"Item":{"LogicalPK":{"S":"USER#1"},"PK":{"S":")" + physical +
                  R"("},"SK":{"S":")" + sk + R"("},"v":{"N":"1"}}})");
  }
}

TEST_F(ShardingDispatchTest, RandomShards) {
  Policy(R"("Key": "USER#1", "ShardCount": 4)");
  // Written out of sort-key order; the query merges them back in order.
  for (const auto& [sk, v] :
       std::vector<std::pair<std::string, int>>{{"C", 3}, {"A", 1}, {"B", 2}}) {
    const std::string put = Sharded("PutItem", PutItem("USER#1", sk, v));
    const int shard = ShardOf(put);
    ASSERT_GE(shard, 0) << put;
    ASSERT_LT(shard, 4) << put;
    EXPECT_EQ(put, R"({"ShardsTouched":1,"Shard":)" + std::to_string(shard) + "}");
    const std::string physical = "USER#1#SHARD" + std::to_string(shard);
    EXPECT_NE(Ok("GetItem", R"({"TableName": "Feed", )" + Key(physical, sk) + "}")
                  .find(R"("LogicalPK":{"S":"USER#1"})"),
              std::string::npos)
        << physical;
  }
  // A point read probes every shard.
  const std::string get = Sharded("GetItem", Key("USER#1", "B"));
  EXPECT_TRUE(get.starts_with(R"({"Item":)" + std::string(kItemB) + R"(,"ShardsTouched":4)"))
      << get;
  EXPECT_EQ(Sharded("GetItem", Key("USER#1", "Z")).find("Item"), std::string::npos);

  // Scatter-gather, merged by sort key.
  EXPECT_EQ(Sharded("Query", kQueryUser1),
            R"({"Items":[)" + std::string(kItemA) + "," + std::string(kItemB) + "," +
                std::string(kItemC) +
                R"(],"Count":3,"ScannedCount":3,"ShardsQueried":4,"ShardReads":4})");
  EXPECT_EQ(Sharded("Query", std::string(kQueryUser1) + R"(, "ScanIndexForward": false)"),
            R"({"Items":[)" + std::string(kItemC) + "," + std::string(kItemB) + "," +
                std::string(kItemA) +
                R"(],"Count":3,"ScannedCount":3,"ShardsQueried":4,"ShardReads":4})");
  EXPECT_EQ(Sharded("Query", std::string(kQueryUser1) + R"(, "Select": "COUNT")"),
            R"({"Count":3,"ScannedCount":3,"ShardsQueried":4,"ShardReads":4})");

  // The sharded counter.
  EXPECT_EQ(Sharded("Aggregate", std::string(kQueryUser1) + R"(, "SumAttribute": "v")"),
            R"({"Count":3,"ScannedCount":3,"Sum":{"N":"6"},"SummedItems":3,)"
            R"("ShardsQueried":4,"ShardReads":4})");
  EXPECT_EQ(Sharded("Aggregate", kQueryUser1),
            R"({"Count":3,"ScannedCount":3,"ShardsQueried":4,"ShardReads":4})");
  EXPECT_EQ(Sharded("Aggregate", R"("KeyConditionExpression": "PK = :pk",
                    "FilterExpression": "v > :min", "SumAttribute": "v",
                    "ExpressionAttributeValues": {":pk": {"S": "USER#1"}, ":min": {"N": "1"}})"),
            R"({"Count":2,"ScannedCount":3,"Sum":{"N":"5"},"SummedItems":2,)"
            R"("ShardsQueried":4,"ShardReads":4})");
  const std::string with_capacity =
      Sharded("Aggregate", std::string(kQueryUser1) + R"(, "ReturnConsumedCapacity": "TOTAL")");
  EXPECT_TRUE(std::regex_match(
      with_capacity,
      std::regex(R"(\{"Count":3,"ScannedCount":3,"ShardsQueried":4,"ShardReads":4,)"
                 R"("ConsumedCapacity":\{"TableName":"Feed","CapacityUnits":[0-9.]+\}\})")))
      << with_capacity;
}

// The physical LastEvaluatedKey of a ShardedQuery page, as JSON text.
std::string LastEvaluatedKey(const std::string& body) {
  rapidjson::Document document;
  document.Parse(body.data(), body.size());
  if (document.HasParseError() || !document.IsObject() || !document.HasMember("LastEvaluatedKey")) {
    return "";
  }
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  document["LastEvaluatedKey"].Accept(writer);
  return {buffer.GetString(), buffer.GetSize()};
}

TEST_F(ShardingDispatchTest, QueryPages) {
  Policy(R"("Key": "USER#1", "ShardCount": 4)");
  Sharded("PutItem", PutItem("USER#1", "A", 1));
  Sharded("PutItem", PutItem("USER#1", "B", 2));
  Sharded("PutItem", PutItem("USER#1", "C", 3));
  const std::string first = Sharded("Query", std::string(kQueryUser1) + R"(, "Limit": 2)");
  EXPECT_TRUE(first.starts_with(R"({"Items":[)" + std::string(kItemA) + "," + std::string(kItemB) +
                                R"(],"Count":2,"ScannedCount":2,)"))
      << first;
  const std::string start = LastEvaluatedKey(first);
  ASSERT_FALSE(start.empty()) << first;
  // The key is physical: the shard the merge stopped in.
  EXPECT_TRUE(std::regex_match(start, std::regex(R"(\{"PK":\{"S":"USER#1#SHARD[0-3]"\},)"
                                                 R"("SK":\{"S":"B"\}\})")))
      << start;
  const std::string second =
      Sharded("Query", std::string(kQueryUser1) + R"(, "Limit": 2, "ExclusiveStartKey": )" + start);
  EXPECT_TRUE(second.starts_with(R"({"Items":[)" + std::string(kItemC) + "],\"Count\":1,"))
      << second;
}

std::string PutRequest(std::string_view pk, std::string_view sk, int v) {
  return R"({"PutRequest": {"Item": {"PK": {"S": ")" + std::string(pk) + R"("}, "SK": {"S": ")" +
         std::string(sk) + R"("}, "v": {"N": ")" + std::to_string(v) + R"("}}}})";
}
std::string DeleteRequest(std::string_view pk, std::string_view sk) {
  return R"({"DeleteRequest": {"Key": {"PK": {"S": ")" + std::string(pk) + R"("}, "SK": {"S": ")" +
         std::string(sk) + R"("}}}})";
}

TEST_F(ShardingDispatchTest, BatchWriteItem) {
  Policy(R"("Key": "USER#1", "ShardCount": 4, "Strategy": "CALCULATED")");
  EXPECT_EQ(Ok("Partstore.ShardedBatchWriteItem",
               R"({"RequestItems": {"Feed": [)" + PutRequest("USER#1", "A", 1) + "," +
                   PutRequest("USER#1", "B", 2) + "," + PutRequest("USER#1", "C", 3) + "," +
                   PutRequest("USER#2", "A", 9) + "]}}"),
            R"({"UnprocessedItems":{},"PhysicalWrites":4})");
  EXPECT_EQ(Sharded("Query", kQueryUser1),
            R"({"Items":[)" + std::string(kItemA) + "," + std::string(kItemB) + "," +
                std::string(kItemC) +
                R"(],"Count":3,"ScannedCount":3,"ShardsQueried":4,"ShardReads":4})");
  // USER#2 has no policy: written as is.
  EXPECT_EQ(Ok("GetItem", R"({"TableName": "Feed", )" + Key("USER#2", "A") + "}"),
            R"({"Item":{"PK":{"S":"USER#2"},"SK":{"S":"A"},"v":{"N":"9"}}})");
  // A calculated delete goes to one shard.
  const std::string deleted =
      Ok("Partstore.ShardedBatchWriteItem",
         R"({"ReturnConsumedCapacity": "TOTAL", "RequestItems": {"Feed": [)" +
             DeleteRequest("USER#1", "A") + "," + DeleteRequest("USER#2", "A") + "]}}");
  EXPECT_TRUE(std::regex_match(
      deleted, std::regex(R"(\{"UnprocessedItems":\{\},"ConsumedCapacity":\[\{"TableName":"Feed",)"
                          R"("CapacityUnits":[0-9.]+\}\],"PhysicalWrites":2\})")))
      << deleted;
  EXPECT_EQ(Sharded("Query", kQueryUser1),
            R"({"Items":[)" + std::string(kItemB) + "," + std::string(kItemC) +
                R"(],"Count":2,"ScannedCount":2,"ShardsQueried":4,"ShardReads":4})");
  // BatchWriteItem's decoder.
  Response r = Call("Partstore.ShardedBatchWriteItem", R"({"RequestItems": {}})");
  EXPECT_EQ(r.body, R"({"__type":"com.amazon.coral.validate#ValidationException",)"
                    R"("message":"The requestItems parameter is required for BatchWriteItem"})");
}

TEST_F(ShardingDispatchTest, DataPlaneErrors) {
  // The DynamoDB decoders' errors.
  Response r = Call("Partstore.ShardedGetItem", R"({"TableName": "Feed"})");
  EXPECT_EQ(r.body, R"({"__type":"com.amazon.coral.validate#ValidationException","message":)"
                    R"("1 validation error detected: Value null at 'key' failed to satisfy )"
                    R"(constraint: Member must not be null"})");
  r = Call("Partstore.ShardedQuery", R"({"TableName": "Feed", "Limit": true})");
  EXPECT_EQ(r.body, R"({"__type":"com.amazon.coral.service#SerializationException",)"
                    R"("Message":"TRUE_VALUE cannot be converted to Integer"})");
  r = Call("Partstore.ShardedAggregate", R"({"TableName": "Feed", "SumAttribute": 1})");
  EXPECT_EQ(r.body, R"({"__type":"com.amazon.coral.service#SerializationException",)"
                    R"("Message":"NUMBER_VALUE cannot be converted to String"})");
  // The engine's.
  for (const auto& [operation, body] : std::vector<std::pair<std::string, std::string>>{
           {"PutItem", R"({"TableName": "Missing", )" + PutItem("USER#1", "A", 1) + "}"},
           {"GetItem", R"({"TableName": "Missing", )" + Key("USER#1", "A") + "}"},
           {"UpdateItem", R"({"TableName": "Missing", )" + Key("USER#1", "A") + "}"},
           {"DeleteItem", R"({"TableName": "Missing", )" + Key("USER#1", "A") + "}"},
           {"Query", R"({"TableName": "Missing", )" + std::string(kQueryUser1) + "}"},
           {"Aggregate", R"({"TableName": "Missing", )" + std::string(kQueryUser1) + "}"},
           {"BatchWriteItem",
            R"({"RequestItems": {"Missing": [)" + PutRequest("USER#1", "A", 1) + "]}}"}}) {
    r = Call("Partstore.Sharded" + operation, body);
    EXPECT_EQ(r.http_status, 400) << operation;
    EXPECT_NE(r.body.find("ResourceNotFoundException"), std::string::npos)
        << operation << " " << r.body;
  }
  // A condition that fails on the shard is DynamoDB's ConditionalCheckFailedException.
  Policy(R"("Key": "USER#1", "ShardCount": 2, "Strategy": "CALCULATED")");
  Sharded("PutItem", PutItem("USER#1", "A", 1));
  r = Call("Partstore.ShardedPutItem",
           R"({"TableName": "Feed", )" + PutItem("USER#1", "A", 2) +
               R"x(, "ConditionExpression": "attribute_not_exists(PK)"})x");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_NE(r.body.find("ConditionalCheckFailedException"), std::string::npos) << r.body;
}

}  // namespace
}  // namespace partstore::protocol
