// Tests for the request decoders (operations_json.h, request_json.h): every member of every
// operation, the SerializationException texts, the model-constraint messages and their order.
// Expected messages are written out literally so that a change of wording has to change a test;
// the evidence for each is next to the code that produces it.
#include <gtest/gtest.h>

#include <string>

#include "core/error_detail.h"
#include "tools/protocol/operations_json.h"

namespace partstore::protocol {
namespace {

template <typename Decoder>
auto Decode(Decoder decoder, std::string_view json) -> decltype(decoder(rapidjson::Value())) {
  rapidjson::Document document;
  Status parsed = ParseJson(json, &document);
  EXPECT_TRUE(parsed.ok()) << json;
  return decoder(document);
}

template <typename R>
std::string ErrorOf(const R& result) {
  if (result.ok()) return "OK";
  return std::string(CodeName(result.error().code())) + ": " +
         std::string(result.error().message());
}

Value S(std::string s) { return Value(std::move(s)); }

// ---- PutItem ----

TEST(DecodePutItemTest, EveryMember) {
  auto r = Decode(DecodePutItemRequest, R"({
    "TableName": "Orders", "Item": {"pk": {"S": "a"}, "n": {"N": "1.50"}},
    "ConditionExpression": "attribute_not_exists(#p) AND n < :v",
    "ExpressionAttributeNames": {"#p": "pk"}, "ExpressionAttributeValues": {":v": {"N": "3"}},
    "ReturnValues": "ALL_OLD", "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
    "ReturnConsumedCapacity": "INDEXES", "ReturnItemCollectionMetrics": "SIZE",
    "SomethingUnknown": 12})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_EQ(r->table_name, "Orders");
  EXPECT_EQ(r->item.size(), 2u);
  EXPECT_EQ(r->item.at("pk"), S("a"));
  EXPECT_EQ(r->condition_expression, "attribute_not_exists(#p) AND n < :v");
  ASSERT_TRUE(r->expression_attribute_names);
  EXPECT_EQ(r->expression_attribute_names->at("#p"), "pk");
  ASSERT_TRUE(r->expression_attribute_values);
  EXPECT_EQ(r->expression_attribute_values->size(), 1u);
  EXPECT_EQ(r->return_values, ReturnValue::kAllOld);
  EXPECT_EQ(r->return_values_on_condition_check_failure,
            ReturnValuesOnConditionCheckFailure::kAllOld);
  EXPECT_EQ(r->return_consumed_capacity, ReturnConsumedCapacity::kIndexes);
  EXPECT_EQ(r->return_item_collection_metrics, ReturnItemCollectionMetrics::kSize);
  EXPECT_FALSE(r->expected);
  EXPECT_FALSE(r->conditional_operator);
}

TEST(DecodePutItemTest, DefaultsAndNullMembersAreAbsent) {
  auto r = Decode(DecodePutItemRequest,
                  R"({"TableName": "abc", "Item": {}, "ReturnValues": null,
                      "ConditionExpression": null})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_TRUE(r->item.empty());
  EXPECT_FALSE(r->condition_expression);
  EXPECT_FALSE(r->expression_attribute_names);
  EXPECT_FALSE(r->expression_attribute_values);
  EXPECT_EQ(r->return_values, ReturnValue::kNone);
  EXPECT_EQ(r->return_consumed_capacity, ReturnConsumedCapacity::kNone);
}

TEST(DecodePutItemTest, LegacyExpected) {
  auto r = Decode(DecodePutItemRequest, R"({"TableName": "abc", "Item": {"a": {"S": "x"}},
    "Expected": {"a": {"Value": {"S": "x"}, "Exists": true},
                 "b": {"Exists": false},
                 "c": {"ComparisonOperator": "BETWEEN",
                       "AttributeValueList": [{"N": "1"}, {"N": "2"}]}},
    "ConditionalOperator": "OR"})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  ASSERT_TRUE(r->expected);
  ASSERT_EQ(r->expected->size(), 3u);
  const auto& e = *r->expected;
  EXPECT_EQ(e[0].name, "a");
  EXPECT_EQ(e[0].value, S("x"));
  EXPECT_EQ(e[0].exists, true);
  EXPECT_EQ(e[1].name, "b");
  EXPECT_EQ(e[1].exists, false);
  EXPECT_FALSE(e[1].value);
  EXPECT_EQ(e[2].comparison_operator, expr::ComparisonOperator::kBetween);
  ASSERT_TRUE(e[2].attribute_value_list);
  EXPECT_EQ(e[2].attribute_value_list->size(), 2u);
  EXPECT_EQ(r->conditional_operator, expr::ConditionalOperator::kOr);
}

TEST(DecodePutItemTest, RepeatedMemberKeepsTheLast) {
  auto r =
      Decode(DecodePutItemRequest, R"({"TableName": "first", "Item": {}, "TableName": "second"})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_EQ(r->table_name, "second");
}

// ---- SerializationException texts (dynalite test/helpers.js assertType) ----

struct SerializationCase {
  std::string body;
  std::string message;
};

TEST(SerializationTest, StringMembers) {
  const SerializationCase cases[] = {
      {R"({"TableName": true})", "TRUE_VALUE cannot be converted to String"},
      {R"({"TableName": false})", "FALSE_VALUE cannot be converted to String"},
      {R"({"TableName": 23})", "NUMBER_VALUE cannot be converted to String"},
      {R"({"TableName": -2147483648})", "NUMBER_VALUE cannot be converted to String"},
      {R"({"TableName": 34.56})", "DECIMAL_VALUE cannot be converted to String"},
      {R"({"TableName": []})", "Unrecognized collection type class java.lang.String"},
      {R"({"TableName": {}})", "Start of structure or map found where not expected"},
      {R"({"ReturnValues": 1})", "NUMBER_VALUE cannot be converted to String"},
  };
  for (const auto& c : cases) {
    auto r = Decode(DecodePutItemRequest, c.body);
    EXPECT_EQ(ErrorOf(r), "Serialization: " + c.message) << c.body;
  }
}

TEST(SerializationTest, BooleanIntegerListMapMembers) {
  const SerializationCase cases[] = {
      {R"({"ConsistentRead": "23"})", "Unexpected token received from parser"},
      {R"({"ConsistentRead": 23})", "NUMBER_VALUE cannot be converted to Boolean"},
      {R"({"ConsistentRead": 34.56})", "DECIMAL_VALUE cannot be converted to Boolean"},
      {R"({"ConsistentRead": []})", "Unrecognized collection type class java.lang.Boolean"},
      {R"({"ConsistentRead": {}})", "Start of structure or map found where not expected"},
      {R"({"Limit": "23"})", "STRING_VALUE cannot be converted to Integer"},
      {R"({"Limit": true})", "TRUE_VALUE cannot be converted to Integer"},
      {R"({"Limit": false})", "FALSE_VALUE cannot be converted to Integer"},
      {R"({"Limit": []})", "Unrecognized collection type class java.lang.Integer"},
      {R"({"Limit": {}})", "Start of structure or map found where not expected"},
      {R"({"AttributesToGet": "23"})", "Unexpected field type"},
      {R"({"AttributesToGet": {}})", "Start of structure or map found where not expected"},
      {R"({"AttributesToGet": [1]})", "NUMBER_VALUE cannot be converted to String"},
      {R"({"ExclusiveStartKey": 23})", "Unexpected field type"},
      {R"({"ExclusiveStartKey": []})",
       "Unrecognized collection type java.util.Map<java.lang.String, "
       "com.amazonaws.dynamodb.v20120810.AttributeValue>"},
      {R"({"ExclusiveStartKey": {"a": 1}})", "Unexpected value type in payload"},
      {R"({"ExpressionAttributeNames": []})",
       "Unrecognized collection type java.util.Map<java.lang.String, java.lang.String>"},
      {R"({"ExpressionAttributeNames": {"#a": 1}})", "NUMBER_VALUE cannot be converted to String"},
      {R"({"KeyConditions": []})",
       "Unrecognized collection type java.util.Map<java.lang.String, "
       "com.amazonaws.dynamodb.v20120810.Condition>"},
      {R"({"KeyConditions": {"a": 1}})", "Unexpected value type in payload"},
      {R"({"KeyConditions": {"a": []}})",
       "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.Condition"},
      {R"({"QueryFilter": {"a": {"ComparisonOperator": 1}}})",
       "NUMBER_VALUE cannot be converted to String"},
      {R"({"QueryFilter": {"a": {"AttributeValueList": [{"S": 1}]}}})",
       "NUMBER_VALUE cannot be converted to String"},
  };
  for (const auto& c : cases) {
    auto r = Decode(DecodeQueryRequest, c.body);
    EXPECT_EQ(ErrorOf(r), "Serialization: " + c.message) << c.body;
  }
}

TEST(SerializationTest, FirstMismatchInDocumentOrderWins) {
  auto r = Decode(DecodeQueryRequest, R"({"Limit": "x", "TableName": 1})");
  EXPECT_EQ(ErrorOf(r), "Serialization: STRING_VALUE cannot be converted to Integer");
  r = Decode(DecodeQueryRequest, R"({"TableName": 1, "Limit": "x"})");
  EXPECT_EQ(ErrorOf(r), "Serialization: NUMBER_VALUE cannot be converted to String");
}

TEST(SerializationTest, WinsOverConstraintsAndValues) {
  // A bad table name (constraint) and an empty attribute value (validation) lose to a type error
  // at the end of the body.
  auto r = Decode(DecodePutItemRequest,
                  R"({"TableName": "a;", "Item": {"x": {}}, "ReturnValues": true})");
  EXPECT_EQ(ErrorOf(r), "Serialization: TRUE_VALUE cannot be converted to String");
}

TEST(SerializationTest, StructuresAndNestedCollections) {
  auto r = Decode(DecodeCreateTableRequest, R"({"ProvisionedThroughput": 5})");
  EXPECT_EQ(ErrorOf(r), "Serialization: Unexpected field type");
  r = Decode(DecodeCreateTableRequest, R"({"ProvisionedThroughput": []})");
  EXPECT_EQ(ErrorOf(r),
            "Serialization: Unrecognized collection type class "
            "com.amazonaws.dynamodb.v20120810.ProvisionedThroughput");
  r = Decode(DecodeCreateTableRequest, R"({"ProvisionedThroughput": {"ReadCapacityUnits": "1"}})");
  EXPECT_EQ(ErrorOf(r), "Serialization: STRING_VALUE cannot be converted to Long");
  r = Decode(DecodeCreateTableRequest, R"({"KeySchema": [5]})");
  EXPECT_EQ(ErrorOf(r), "Serialization: Unexpected value type in payload");
  r = Decode(DecodeCreateTableRequest, R"({"KeySchema": [{"KeyType": 5}]})");
  EXPECT_EQ(ErrorOf(r), "Serialization: NUMBER_VALUE cannot be converted to String");

  auto g = Decode(DecodeBatchGetItemRequest, R"({"RequestItems": {"abc": {"Keys": [5]}}})");
  EXPECT_EQ(ErrorOf(g),
            "Serialization: class sun.reflect.generics.reflectiveObjects.ParameterizedTypeImpl "
            "cannot be cast to class java.lang.Class "
            "(sun.reflect.generics.reflectiveObjects.ParameterizedTypeImpl and java.lang.Class "
            "are in module java.base of loader 'bootstrap')");
  auto w = Decode(DecodeBatchWriteItemRequest, R"({"RequestItems": {"abc": [{"PutRequest": 1}]}})");
  EXPECT_EQ(ErrorOf(w), "Serialization: Unexpected field type");
  w = Decode(DecodeBatchWriteItemRequest,
             R"({"RequestItems": {"abc": [{"PutRequest": {"Item": {"a": {"N": 1}}}}]}})");
  EXPECT_EQ(ErrorOf(w), "Serialization: NUMBER_VALUE cannot be converted to String");

  auto u = Decode(DecodeUpdateItemRequest, R"({"AttributeUpdates": {"a": {"Value": 1}}})");
  EXPECT_EQ(ErrorOf(u), "Serialization: Unexpected field type");
  u = Decode(DecodeUpdateItemRequest, R"({"Expected": {"a": {"Exists": "maybe"}}})");
  EXPECT_EQ(ErrorOf(u), "Serialization: Unexpected token received from parser");
}

TEST(SerializationTest, SecondaryIndexStructures) {
  auto r = Decode(DecodeCreateTableRequest, R"({"GlobalSecondaryIndexes": 5})");
  EXPECT_EQ(ErrorOf(r), "Serialization: Unexpected field type");
  r = Decode(DecodeCreateTableRequest, R"({"LocalSecondaryIndexes": {}})");
  EXPECT_EQ(ErrorOf(r), "Serialization: Start of structure or map found where not expected");
  r = Decode(DecodeCreateTableRequest, R"({"GlobalSecondaryIndexes": [5]})");
  EXPECT_EQ(ErrorOf(r), "Serialization: Unexpected value type in payload");
  r = Decode(DecodeCreateTableRequest, R"({"GlobalSecondaryIndexes": [[]]})");
  EXPECT_EQ(ErrorOf(r),
            "Serialization: Unrecognized collection type class "
            "com.amazonaws.dynamodb.v20120810.GlobalSecondaryIndex");
  r = Decode(DecodeCreateTableRequest, R"({"LocalSecondaryIndexes": [[]]})");
  EXPECT_EQ(ErrorOf(r),
            "Serialization: Unrecognized collection type class "
            "com.amazonaws.dynamodb.v20120810.LocalSecondaryIndex");
  r = Decode(DecodeCreateTableRequest, R"({"LocalSecondaryIndexes": [{"IndexName": 1}]})");
  EXPECT_EQ(ErrorOf(r), "Serialization: NUMBER_VALUE cannot be converted to String");
  r = Decode(DecodeCreateTableRequest, R"({"GlobalSecondaryIndexes": [{"KeySchema": 1}]})");
  EXPECT_EQ(ErrorOf(r), "Serialization: Unexpected field type");
  r = Decode(DecodeCreateTableRequest, R"({"GlobalSecondaryIndexes": [{"KeySchema": [1]}]})");
  EXPECT_EQ(ErrorOf(r), "Serialization: Unexpected value type in payload");
  r = Decode(DecodeCreateTableRequest, R"({"GlobalSecondaryIndexes": [{"Projection": 5}]})");
  EXPECT_EQ(ErrorOf(r), "Serialization: Unexpected field type");
  r = Decode(DecodeCreateTableRequest, R"({"LocalSecondaryIndexes": [{"Projection": []}]})");
  EXPECT_EQ(ErrorOf(r),
            "Serialization: Unrecognized collection type class "
            "com.amazonaws.dynamodb.v20120810.Projection");
  r = Decode(DecodeCreateTableRequest,
             R"({"GlobalSecondaryIndexes": [{"Projection": {"ProjectionType": true}}]})");
  EXPECT_EQ(ErrorOf(r), "Serialization: TRUE_VALUE cannot be converted to String");
  r = Decode(DecodeCreateTableRequest,
             R"({"GlobalSecondaryIndexes": [{"Projection": {"NonKeyAttributes": 5}}]})");
  EXPECT_EQ(ErrorOf(r), "Serialization: Unexpected field type");
  r = Decode(DecodeCreateTableRequest,
             R"({"LocalSecondaryIndexes": [{"Projection": {"NonKeyAttributes": [1.5]}}]})");
  EXPECT_EQ(ErrorOf(r), "Serialization: DECIMAL_VALUE cannot be converted to String");
  r = Decode(DecodeCreateTableRequest,
             R"({"GlobalSecondaryIndexes": [{"ProvisionedThroughput": []}]})");
  EXPECT_EQ(ErrorOf(r),
            "Serialization: Unrecognized collection type class "
            "com.amazonaws.dynamodb.v20120810.ProvisionedThroughput");
  r = Decode(DecodeCreateTableRequest,
             R"({"GlobalSecondaryIndexes": [{"ProvisionedThroughput": {"ReadCapacityUnits": "1"}}]})");
  EXPECT_EQ(ErrorOf(r), "Serialization: STRING_VALUE cannot be converted to Long");
  // An LSI has no ProvisionedThroughput member: like any unknown member, it is not looked at.
  r = Decode(DecodeCreateTableRequest,
             R"({"LocalSecondaryIndexes": [{"ProvisionedThroughput": 5}], "TableName": 5})");
  EXPECT_EQ(ErrorOf(r), "Serialization: NUMBER_VALUE cannot be converted to String");

  auto u = Decode(DecodeUpdateTableRequest, R"({"GlobalSecondaryIndexUpdates": {}})");
  EXPECT_EQ(ErrorOf(u), "Serialization: Start of structure or map found where not expected");
  u = Decode(DecodeUpdateTableRequest, R"({"GlobalSecondaryIndexUpdates": [[]]})");
  EXPECT_EQ(ErrorOf(u),
            "Serialization: Unrecognized collection type class "
            "com.amazonaws.dynamodb.v20120810.GlobalSecondaryIndexUpdate");
  u = Decode(DecodeUpdateTableRequest, R"({"GlobalSecondaryIndexUpdates": [{"Create": 5}]})");
  EXPECT_EQ(ErrorOf(u), "Serialization: Unexpected field type");
  u = Decode(DecodeUpdateTableRequest, R"({"GlobalSecondaryIndexUpdates": [{"Update": []}]})");
  EXPECT_EQ(ErrorOf(u),
            "Serialization: Unrecognized collection type class "
            "com.amazonaws.dynamodb.v20120810.UpdateGlobalSecondaryIndexAction");
  u = Decode(DecodeUpdateTableRequest, R"({"GlobalSecondaryIndexUpdates": [{"Delete": []}]})");
  EXPECT_EQ(ErrorOf(u),
            "Serialization: Unrecognized collection type class "
            "com.amazonaws.dynamodb.v20120810.DeleteGlobalSecondaryIndexAction");
  u = Decode(DecodeUpdateTableRequest, R"({"GlobalSecondaryIndexUpdates": [{"Create": []}]})");
  EXPECT_EQ(ErrorOf(u),
            "Serialization: Unrecognized collection type class "
            "com.amazonaws.dynamodb.v20120810.CreateGlobalSecondaryIndexAction");
  u = Decode(DecodeUpdateTableRequest,
             R"({"GlobalSecondaryIndexUpdates": [{"Delete": {"IndexName": false}}]})");
  EXPECT_EQ(ErrorOf(u), "Serialization: FALSE_VALUE cannot be converted to String");
  u = Decode(DecodeUpdateTableRequest, R"({"GlobalSecondaryIndexUpdates": [
      {"Update": {"ProvisionedThroughput": {"WriteCapacityUnits": {}}}}]})");
  EXPECT_EQ(ErrorOf(u), "Serialization: Start of structure or map found where not expected");
  u = Decode(DecodeUpdateTableRequest, R"({"GlobalSecondaryIndexUpdates": [
      {"Create": {"Projection": {"NonKeyAttributes": [true]}}}]})");
  EXPECT_EQ(ErrorOf(u), "Serialization: TRUE_VALUE cannot be converted to String");
}

TEST(SerializationTest, BodyNotAnObject) {
  auto r = Decode(DecodeGetItemRequest, "[]");
  EXPECT_EQ(ErrorOf(r),
            "Serialization: Unrecognized collection type class "
            "com.amazonaws.dynamodb.v20120810.GetItemInput");
  r = Decode(DecodeGetItemRequest, "7");
  EXPECT_EQ(ErrorOf(r), "Serialization: Unexpected value type in payload");
}

TEST(SerializationTest, BooleanStringsConvert) {
  auto r =
      Decode(DecodeGetItemRequest, R"({"TableName": "abc", "Key": {}, "ConsistentRead": "YES"})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_TRUE(r->consistent_read);
  r = Decode(DecodeGetItemRequest, R"({"TableName": "abc", "Key": {}, "ConsistentRead": "0"})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_FALSE(r->consistent_read);
}

// ---- Model constraints ----

TEST(ConstraintsTest, MissingTableName) {
  auto r = Decode(DecodeDescribeTableRequest, "{}");
  EXPECT_EQ(ErrorOf(r),
            "Validation: 1 validation error detected: Value null at 'tableName' failed to "
            "satisfy constraint: Member must not be null");
}

TEST(ConstraintsTest, TableNamePatternAndLength) {
  auto r = Decode(DecodeDeleteTableRequest, R"({"TableName": "a;"})");
  EXPECT_EQ(ErrorOf(r),
            "Validation: 2 validation errors detected: Value 'a;' at 'tableName' failed to "
            "satisfy constraint: Member must have length greater than or equal to 3; Value 'a;' "
            "at 'tableName' failed to satisfy constraint: Member must satisfy regular "
            "expression pattern: [a-zA-Z0-9_.-]+");
  std::string name(256, 'a');
  r = Decode(DecodeDeleteTableRequest, R"({"TableName": ")" + name + R"("})");
  EXPECT_EQ(ErrorOf(r), "Validation: 1 validation error detected: Value '" + name +
                            "' at 'tableName' failed to satisfy constraint: Member must have "
                            "length less than or equal to 255");
}

TEST(ConstraintsTest, UpdateItemOrder) {
  // dynalite test/updateItem.js, run against DynamoDB.
  auto r = Decode(DecodeUpdateItemRequest,
                  R"({"TableName": "abc;", "ReturnConsumedCapacity": "hi",
                      "ReturnItemCollectionMetrics": "hi", "ReturnValues": "hi"})");
  EXPECT_EQ(ErrorOf(r),
            "Validation: 5 validation errors detected: "
            "Value 'hi' at 'returnConsumedCapacity' failed to satisfy constraint: Member must "
            "satisfy enum value set: [INDEXES, TOTAL, NONE]; "
            "Value 'abc;' at 'tableName' failed to satisfy constraint: Member must satisfy "
            "regular expression pattern: [a-zA-Z0-9_.-]+; "
            "Value 'hi' at 'returnItemCollectionMetrics' failed to satisfy constraint: Member "
            "must satisfy enum value set: [SIZE, NONE]; "
            "Value 'hi' at 'returnValues' failed to satisfy constraint: Member must satisfy enum "
            "value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]; "
            "Value null at 'key' failed to satisfy constraint: Member must not be null");
}

TEST(ConstraintsTest, DeleteItemAndGetItemOrder) {
  auto d = Decode(DecodeDeleteItemRequest,
                  R"({"TableName": "abc;", "ReturnConsumedCapacity": "hi",
                      "ReturnItemCollectionMetrics": "hi", "ReturnValues": "hi"})");
  EXPECT_EQ(ErrorOf(d),
            "Validation: 5 validation errors detected: "
            "Value 'hi' at 'returnConsumedCapacity' failed to satisfy constraint: Member must "
            "satisfy enum value set: [INDEXES, TOTAL, NONE]; "
            "Value 'abc;' at 'tableName' failed to satisfy constraint: Member must satisfy "
            "regular expression pattern: [a-zA-Z0-9_.-]+; "
            "Value 'hi' at 'returnValues' failed to satisfy constraint: Member must satisfy enum "
            "value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]; "
            "Value 'hi' at 'returnItemCollectionMetrics' failed to satisfy constraint: Member "
            "must satisfy enum value set: [SIZE, NONE]; "
            "Value null at 'key' failed to satisfy constraint: Member must not be null");
  auto g = Decode(DecodeGetItemRequest,
                  R"({"TableName": "abc;", "ReturnConsumedCapacity": "hi",
                      "AttributesToGet": []})");
  EXPECT_EQ(ErrorOf(g),
            "Validation: 4 validation errors detected: "
            "Value '[]' at 'attributesToGet' failed to satisfy constraint: Member must have "
            "length greater than or equal to 1; "
            "Value 'hi' at 'returnConsumedCapacity' failed to satisfy constraint: Member must "
            "satisfy enum value set: [INDEXES, TOTAL, NONE]; "
            "Value null at 'key' failed to satisfy constraint: Member must not be null; "
            "Value 'abc;' at 'tableName' failed to satisfy constraint: Member must satisfy "
            "regular expression pattern: [a-zA-Z0-9_.-]+");
}

TEST(ConstraintsTest, QueryOrderCappedAtTen) {
  // dynalite test/query.js (live listing of DynamoDB's 10 violations).
  auto r = Decode(DecodeQueryRequest, R"({"TableName": "abc;", "ReturnConsumedCapacity": "hi",
      "AttributesToGet": [], "IndexName": "abc;", "Select": "hi", "Limit": -1,
      "KeyConditions": {"a": {}, "b": {"ComparisonOperator": ""}}, "ConditionalOperator": "AN",
      "QueryFilter": {"a": {}, "b": {"ComparisonOperator": ""}}})");
  EXPECT_EQ(
      ErrorOf(r),
      "Validation: 10 validation errors detected: "
      "Value 'hi' at 'select' failed to satisfy constraint: Member must satisfy enum value set: "
      "[SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES]; "
      "Value 'abc;' at 'indexName' failed to satisfy constraint: Member must satisfy regular "
      "expression pattern: [a-zA-Z0-9_.-]+; "
      "Value 'hi' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy "
      "enum value set: [INDEXES, TOTAL, NONE]; "
      "Value null at 'queryFilter.a.member.comparisonOperator' failed to satisfy constraint: "
      "Member must not be null; "
      "Value '' at 'queryFilter.b.member.comparisonOperator' failed to satisfy constraint: "
      "Member must satisfy enum value set: [IN, NULL, BETWEEN, LT, NOT_CONTAINS, EQ, GT, "
      "NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS]; "
      "Value 'abc;' at 'tableName' failed to satisfy constraint: Member must satisfy regular "
      "expression pattern: [a-zA-Z0-9_.-]+; "
      "Value 'AN' at 'conditionalOperator' failed to satisfy constraint: Member must satisfy "
      "enum value set: [OR, AND]; "
      "Value '[]' at 'attributesToGet' failed to satisfy constraint: Member must have length "
      "greater than or equal to 1; "
      "Value '-1' at 'limit' failed to satisfy constraint: Member must have value greater than "
      "or equal to 1; "
      "Value null at 'keyConditions.a.member.comparisonOperator' failed to satisfy constraint: "
      "Member must not be null");
}

TEST(ConstraintsTest, ScanSegments) {
  auto r =
      Decode(DecodeScanRequest, R"({"TableName": "abc", "Segment": 1000000, "TotalSegments": 0})");
  EXPECT_EQ(ErrorOf(r),
            "Validation: 2 validation errors detected: "
            "Value '0' at 'totalSegments' failed to satisfy constraint: Member must have value "
            "greater than or equal to 1; "
            "Value '1000000' at 'segment' failed to satisfy constraint: Member must have value "
            "less than or equal to 999999");
  r = Decode(DecodeScanRequest, R"({"TableName": "abc", "TotalSegments": 1000001, "Limit": 0})");
  EXPECT_EQ(ErrorOf(r),
            "Validation: 2 validation errors detected: "
            "Value '1000001' at 'totalSegments' failed to satisfy constraint: Member must have "
            "value less than or equal to 1000000; "
            "Value '0' at 'limit' failed to satisfy constraint: Member must have value greater "
            "than or equal to 1");
}

TEST(ConstraintsTest, ListTables) {
  auto r = Decode(DecodeListTablesRequest,
                  R"({"Limit": 2147483647, "ExclusiveStartTableName": "89hls;;f;d"})");
  EXPECT_EQ(ErrorOf(r),
            "Validation: 2 validation errors detected: "
            "Value '2147483647' at 'limit' failed to satisfy constraint: Member must have value "
            "less than or equal to 100; "
            "Value '89hls;;f;d' at 'exclusiveStartTableName' failed to satisfy constraint: "
            "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+");
  r = Decode(DecodeListTablesRequest, R"({"Limit": 0})");
  EXPECT_EQ(ErrorOf(r),
            "Validation: 1 validation error detected: Value '0' at 'limit' failed to satisfy "
            "constraint: Member must have value greater than or equal to 1");
  auto ok = Decode(DecodeListTablesRequest, R"({"Limit": 5, "ExclusiveStartTableName": "abc"})");
  ASSERT_TRUE(ok.ok()) << ErrorOf(ok);
  EXPECT_EQ(ok->limit, 5);
  EXPECT_EQ(ok->exclusive_start_table_name, "abc");
  ok = Decode(DecodeListTablesRequest, "{}");
  ASSERT_TRUE(ok.ok());
  EXPECT_FALSE(ok->limit);
}

TEST(ConstraintsTest, CreateTable) {
  auto r = Decode(DecodeCreateTableRequest, "{}");
  EXPECT_EQ(ErrorOf(r),
            "Validation: 3 validation errors detected: "
            "Value null at 'attributeDefinitions' failed to satisfy constraint: Member must not "
            "be null; "
            "Value null at 'tableName' failed to satisfy constraint: Member must not be null; "
            "Value null at 'keySchema' failed to satisfy constraint: Member must not be null");
  r = Decode(DecodeCreateTableRequest, R"({"TableName": "abc",
      "AttributeDefinitions": [{"AttributeName": "a", "AttributeType": "Q"}],
      "KeySchema": [{"AttributeName": "a", "KeyType": "SIDE"}],
      "ProvisionedThroughput": {"ReadCapacityUnits": 0}, "BillingMode": "FREE"})");
  EXPECT_EQ(
      ErrorOf(r),
      "Validation: 5 validation errors detected: "
      "Value 'Q' at 'attributeDefinitions.1.member.attributeType' failed to satisfy constraint: "
      "Member must satisfy enum value set: [B, N, S]; "
      "Value null at 'provisionedThroughput.writeCapacityUnits' failed to satisfy constraint: "
      "Member must not be null; "
      "Value '0' at 'provisionedThroughput.readCapacityUnits' failed to satisfy constraint: "
      "Member must have value greater than or equal to 1; "
      "Value 'SIDE' at 'keySchema.1.member.keyType' failed to satisfy constraint: Member must "
      "satisfy enum value set: [HASH, RANGE]; "
      "Value 'FREE' at 'billingMode' failed to satisfy constraint: Member must satisfy enum "
      "value set: [PROVISIONED, PAY_PER_REQUEST]");
  r = Decode(DecodeCreateTableRequest, R"({"TableName": "abc", "AttributeDefinitions": [],
      "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"}, {"AttributeName": "b",
      "KeyType": "RANGE"}, {"AttributeName": "c", "KeyType": "RANGE"}]})");
  EXPECT_EQ(ErrorOf(r),
            "Validation: 1 validation error detected: Value '[KeySchemaElement(attributeName=a, "
            "keyType=HASH), KeySchemaElement(attributeName=b, keyType=RANGE), "
            "KeySchemaElement(attributeName=c, keyType=RANGE)]' at 'keySchema' failed to satisfy "
            "constraint: Member must have length less than or equal to 2");
}

// The table part of the CreateTable body the index tests below share.
constexpr std::string_view kIndexedTable = R"("TableName": "abc", "BillingMode": "PAY_PER_REQUEST",
    "AttributeDefinitions": [{"AttributeName": "a", "AttributeType": "S"},
                             {"AttributeName": "b", "AttributeType": "S"}],
    "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"},
                  {"AttributeName": "b", "KeyType": "RANGE"}])";

template <typename Decoder>
auto DecodeWith(Decoder decoder, std::string_view members) {
  return Decode(decoder, "{" + std::string(kIndexedTable) + ", " + std::string(members) + "}");
}

TEST(ConstraintsTest, CreateTableIndexes) {
  // dynalite test/createTable.js "should return ValidationException for more than five empty
  // GlobalSecondaryIndexes": three nulls per index, ten at most.
  auto r = DecodeWith(DecodeCreateTableRequest, R"("GlobalSecondaryIndexes": [{}, {}, {}, {}])");
  std::string expected = "Validation: 10 validation errors detected: ";
  for (int i = 1; i <= 4; ++i) {
    for (std::string_view field : {"indexName", "keySchema", "projection"}) {
      if (i == 4 && field != "indexName") break;
      if (i > 1 || field != "indexName") expected += "; ";
      expected += "Value null at 'globalSecondaryIndexes." + std::to_string(i) + ".member." +
                  std::string(field) + "' failed to satisfy constraint: Member must not be null";
    }
  }
  EXPECT_EQ(ErrorOf(r), expected);

  // Names (length before pattern, as for table names), key schema length and key types.
  r = DecodeWith(DecodeCreateTableRequest, R"("LocalSecondaryIndexes": [
      {"IndexName": "h;", "KeySchema": [], "Projection": {"ProjectionType": "ALL"}},
      {"IndexName": "lsi", "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"},
                                         {"AttributeName": "c", "KeyType": "SORT"}],
       "Projection": {"ProjectionType": "ALL"}}])");
  EXPECT_EQ(ErrorOf(r),
            "Validation: 4 validation errors detected: "
            "Value 'h;' at 'localSecondaryIndexes.1.member.indexName' failed to satisfy "
            "constraint: Member must have length greater than or equal to 3; "
            "Value 'h;' at 'localSecondaryIndexes.1.member.indexName' failed to satisfy "
            "constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+; "
            "Value '[]' at 'localSecondaryIndexes.1.member.keySchema' failed to satisfy "
            "constraint: Member must have length greater than or equal to 1; "
            "Value 'SORT' at 'localSecondaryIndexes.2.member.keySchema.2.member.keyType' failed "
            "to satisfy constraint: Member must satisfy enum value set: [HASH, RANGE]");

  // Projection: the enum, NonKeyAttributes 1..20 and each name 1..255; GSI throughput >= 1.
  r = DecodeWith(DecodeCreateTableRequest, R"("GlobalSecondaryIndexes": [
      {"IndexName": "gsi", "KeySchema": [{"AttributeName": "b", "KeyType": "HASH"}],
       "Projection": {"ProjectionType": "abc", "NonKeyAttributes": []},
       "ProvisionedThroughput": {"ReadCapacityUnits": 0}},
      {"IndexName": "gs2", "KeySchema": [{"KeyType": "HASH"}],
       "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": [""]}}])");
  EXPECT_EQ(ErrorOf(r),
            "Validation: 6 validation errors detected: "
            "Value 'abc' at 'globalSecondaryIndexes.1.member.projection.projectionType' failed to "
            "satisfy constraint: Member must satisfy enum value set: [ALL, INCLUDE, KEYS_ONLY]; "
            "Value '[]' at 'globalSecondaryIndexes.1.member.projection.nonKeyAttributes' failed "
            "to satisfy constraint: Member must have length greater than or equal to 1; "
            "Value null at 'globalSecondaryIndexes.1.member.provisionedThroughput."
            "writeCapacityUnits' failed to satisfy constraint: Member must not be null; "
            "Value '0' at 'globalSecondaryIndexes.1.member.provisionedThroughput."
            "readCapacityUnits' failed to satisfy constraint: Member must have value greater "
            "than or equal to 1; "
            "Value null at 'globalSecondaryIndexes.2.member.keySchema.1.member.attributeName' "
            "failed to satisfy constraint: Member must not be null; "
            "Value '' at 'globalSecondaryIndexes.2.member.projection.nonKeyAttributes.1.member' "
            "failed to satisfy constraint: Member must have length greater than or equal to 1");

  std::string many = "[";
  for (int i = 0; i < 21; ++i) many += (i ? ", \"n" : "\"n") + std::to_string(i) + "\"";
  many += "]";
  r = DecodeWith(DecodeCreateTableRequest,
                 R"("LocalSecondaryIndexes": [{"IndexName": "lsi", "KeySchema": [
                     {"AttributeName": "a", "KeyType": "HASH"}],
                     "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": )" +
                     many + "}}]");
  EXPECT_EQ(ErrorOf(r),
            "Validation: 1 validation error detected: Value '[n0, n1, n2, n3, n4, n5, n6, n7, "
            "n8, n9, n10, n11, n12, n13, n14, n15, n16, n17, n18, n19, n20]' at "
            "'localSecondaryIndexes.1.member.projection.nonKeyAttributes' failed to satisfy "
            "constraint: Member must have length less than or equal to 20");

  // Index violations come after the table's key schema, before billingMode.
  r = Decode(DecodeCreateTableRequest, R"({"TableName": "abc", "AttributeDefinitions": [],
      "KeySchema": [], "BillingMode": "X", "LocalSecondaryIndexes": [{"IndexName": "lsi",
      "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"}]}]})");
  EXPECT_EQ(ErrorOf(r),
            "Validation: 3 validation errors detected: "
            "Value '[]' at 'keySchema' failed to satisfy constraint: Member must have length "
            "greater than or equal to 1; "
            "Value null at 'localSecondaryIndexes.1.member.projection' failed to satisfy "
            "constraint: Member must not be null; "
            "Value 'X' at 'billingMode' failed to satisfy constraint: Member must satisfy enum "
            "value set: [PROVISIONED, PAY_PER_REQUEST]");

  // Semantic rules are the engine's: a missing ProjectionType, NonKeyAttributes with ALL, an
  // empty list, duplicate names all decode.
  r = DecodeWith(DecodeCreateTableRequest, R"("LocalSecondaryIndexes": [],
      "GlobalSecondaryIndexes": [
      {"IndexName": "dup", "KeySchema": [{"AttributeName": "z", "KeyType": "RANGE"}],
       "Projection": {"NonKeyAttributes": ["x"]}},
      {"IndexName": "dup", "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"}],
       "Projection": {"ProjectionType": "ALL", "NonKeyAttributes": ["x"]}}])");
  EXPECT_TRUE(r.ok()) << ErrorOf(r);
}

TEST(ConstraintsTest, UpdateTableIndexUpdates) {
  auto u = Decode(DecodeUpdateTableRequest, R"({"TableName": "abc",
      "GlobalSecondaryIndexUpdates": [{"Update": {}}, {"Delete": {"IndexName": "ab"}},
      {"Create": {"KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                  "Projection": {"ProjectionType": "SOME"},
                  "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 0}}}]})");
  EXPECT_EQ(ErrorOf(u),
            "Validation: 6 validation errors detected: "
            "Value null at 'globalSecondaryIndexUpdates.1.member.update.indexName' failed to "
            "satisfy constraint: Member must not be null; "
            "Value null at 'globalSecondaryIndexUpdates.1.member.update.provisionedThroughput' "
            "failed to satisfy constraint: Member must not be null; "
            "Value 'ab' at 'globalSecondaryIndexUpdates.2.member.delete.indexName' failed to "
            "satisfy constraint: Member must have length greater than or equal to 3; "
            "Value 'SOME' at 'globalSecondaryIndexUpdates.3.member.create.projection."
            "projectionType' failed to satisfy constraint: Member must satisfy enum value set: "
            "[ALL, INCLUDE, KEYS_ONLY]; "
            "Value null at 'globalSecondaryIndexUpdates.3.member.create.indexName' failed to "
            "satisfy constraint: Member must not be null; "
            "Value '0' at 'globalSecondaryIndexUpdates.3.member.create.provisionedThroughput."
            "writeCapacityUnits' failed to satisfy constraint: Member must have value greater "
            "than or equal to 1");
  u = Decode(DecodeUpdateTableRequest, R"({"TableName": "abc", "GlobalSecondaryIndexUpdates": [
      {"Create": {"IndexName": "gsi", "KeySchema": [], "Projection": {"ProjectionType": "ALL"}}}],
      "BillingMode": "NEVER"})");
  EXPECT_EQ(ErrorOf(u),
            "Validation: 2 validation errors detected: "
            "Value '[]' at 'globalSecondaryIndexUpdates.1.member.create.keySchema' failed to "
            "satisfy constraint: Member must have length greater than or equal to 1; "
            "Value 'NEVER' at 'billingMode' failed to satisfy constraint: Member must satisfy "
            "enum value set: [PROVISIONED, PAY_PER_REQUEST]");
}

TEST(ConstraintsTest, LegacyEnums) {
  auto r = Decode(DecodeUpdateItemRequest, R"({"TableName": "abc", "Key": {},
      "AttributeUpdates": {"a": {"Action": "SET"}},
      "Expected": {"b": {"ComparisonOperator": "eq"}}})");
  EXPECT_EQ(ErrorOf(r),
            "Validation: 2 validation errors detected: "
            "Value 'eq' at 'expected.b.member.comparisonOperator' failed to satisfy constraint: "
            "Member must satisfy enum value set: [IN, NULL, BETWEEN, LT, NOT_CONTAINS, EQ, GT, "
            "NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS]; "
            "Value 'SET' at 'attributeUpdates.a.member.action' failed to satisfy constraint: "
            "Member must satisfy enum value set: [ADD, PUT, DELETE]");
}

TEST(ConstraintsTest, WinOverValueErrors) {
  auto r = Decode(DecodePutItemRequest,
                  R"({"TableName": "abc", "Item": {"a": {}}, "ReturnValues": "x"})");
  EXPECT_EQ(ErrorOf(r),
            "Validation: 1 validation error detected: Value 'x' at 'returnValues' failed to "
            "satisfy constraint: Member must satisfy enum value set: [ALL_NEW, UPDATED_OLD, "
            "ALL_OLD, NONE, UPDATED_NEW]");
}

// ---- Values, after the mixing rule ----

TEST(ValuesTest, MixingRuleWinsOverValueErrors) {
  // dynalite test/query.js: the mixing message wins over invalid AttributeValues.
  auto r = Decode(DecodeQueryRequest, R"({"TableName": "abc", "ExclusiveStartKey": {"a": {}},
      "AttributesToGet": ["a", "a"],
      "QueryFilter": {"a": {"ComparisonOperator": "EQ", "AttributeValueList": [{}]}},
      "ConditionalOperator": "OR",
      "KeyConditions": {"a": {"ComparisonOperator": "EQ", "AttributeValueList": [{}]}},
      "ProjectionExpression": "", "FilterExpression": "", "KeyConditionExpression": ""})");
  EXPECT_EQ(ErrorOf(r),
            "Validation: Can not use both expression and non-expression parameters in the same "
            "request: Non-expression parameters: {AttributesToGet, QueryFilter, "
            "ConditionalOperator, KeyConditions} Expression parameters: {ProjectionExpression, "
            "FilterExpression, KeyConditionExpression}");
}

TEST(ValuesTest, ItemValueErrors) {
  auto r = Decode(DecodePutItemRequest, R"({"TableName": "abc", "Item": {"a": {}}})");
  EXPECT_EQ(ErrorOf(r),
            "Validation: Supplied AttributeValue is empty, must contain exactly one of the "
            "supported datatypes");
}

TEST(ValuesTest, StartKeyPrefix) {
  auto r = Decode(DecodeScanRequest, R"({"TableName": "abc", "ExclusiveStartKey": {"a": {}}})");
  EXPECT_EQ(ErrorOf(r),
            "Validation: The provided starting key is invalid: Supplied AttributeValue is empty, "
            "must contain exactly one of the supported datatypes");
  // The filter's values come first (dynalite test/scan.js).
  r = Decode(DecodeScanRequest, R"({"TableName": "abc", "ExclusiveStartKey": {"a": {}},
      "ScanFilter": {"a": {"ComparisonOperator": "EQ", "AttributeValueList": [{"SS": []}]}}})");
  EXPECT_EQ(ErrorOf(r),
            "Validation: One or more parameter values were invalid: An string set  may not be "
            "empty");
}

// ---- Every member of the other operations ----

TEST(DecodeGetItemTest, EveryMember) {
  auto r = Decode(DecodeGetItemRequest, R"({"TableName": "abc", "Key": {"pk": {"N": "1"}},
      "ProjectionExpression": "#a, b", "ExpressionAttributeNames": {"#a": "a"},
      "ConsistentRead": true, "ReturnConsumedCapacity": "TOTAL"})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_EQ(r->key.size(), 1u);
  EXPECT_EQ(r->projection_expression, "#a, b");
  EXPECT_EQ(r->expression_attribute_names->size(), 1u);
  EXPECT_TRUE(r->consistent_read);
  EXPECT_EQ(r->return_consumed_capacity, ReturnConsumedCapacity::kTotal);
  r = Decode(DecodeGetItemRequest,
             R"({"TableName": "abc", "Key": {}, "AttributesToGet": ["a", "b"]})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_EQ(r->attributes_to_get, (std::vector<std::string>{"a", "b"}));
}

TEST(DecodeUpdateItemTest, EveryMember) {
  auto r = Decode(DecodeUpdateItemRequest, R"json({"TableName": "abc", "Key": {"pk": {"S": "k"}},
      "UpdateExpression": "SET a = :v", "ConditionExpression": "attribute_exists(pk)",
      "ExpressionAttributeValues": {":v": {"BOOL": true}}, "ReturnValues": "UPDATED_NEW",
      "ReturnConsumedCapacity": "TOTAL", "ReturnItemCollectionMetrics": "NONE",
      "ReturnValuesOnConditionCheckFailure": "NONE"})json");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_EQ(r->update_expression, "SET a = :v");
  EXPECT_EQ(r->condition_expression, "attribute_exists(pk)");
  EXPECT_EQ(r->return_values, ReturnValue::kUpdatedNew);
  EXPECT_EQ(r->return_consumed_capacity, ReturnConsumedCapacity::kTotal);
  r = Decode(DecodeUpdateItemRequest, R"({"TableName": "abc", "Key": {"pk": {"S": "k"}},
      "AttributeUpdates": {"a": {"Action": "ADD", "Value": {"N": "2"}}, "b": {"Action": "DELETE"},
                           "c": {"Value": {"S": "x"}}}})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  ASSERT_TRUE(r->attribute_updates);
  ASSERT_EQ(r->attribute_updates->size(), 3u);
  EXPECT_EQ((*r->attribute_updates)[0].action, expr::AttributeAction::kAdd);
  EXPECT_EQ((*r->attribute_updates)[1].action, expr::AttributeAction::kDelete);
  EXPECT_FALSE((*r->attribute_updates)[1].value);
  EXPECT_FALSE((*r->attribute_updates)[2].action);
  EXPECT_EQ((*r->attribute_updates)[2].value, S("x"));
}

TEST(DecodeDeleteItemTest, EveryMember) {
  auto r = Decode(DecodeDeleteItemRequest, R"({"TableName": "abc", "Key": {"pk": {"S": "k"}},
      "ConditionExpression": "a = :v", "ExpressionAttributeValues": {":v": {"S": "x"}},
      "ReturnValues": "ALL_OLD", "ReturnValuesOnConditionCheckFailure": "ALL_OLD"})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_EQ(r->key.at("pk"), S("k"));
  EXPECT_EQ(r->return_values, ReturnValue::kAllOld);
  EXPECT_EQ(r->return_values_on_condition_check_failure,
            ReturnValuesOnConditionCheckFailure::kAllOld);
}

TEST(DecodeQueryTest, EveryMember) {
  auto r = Decode(DecodeQueryRequest, R"({"TableName": "abc", "IndexName": "gsi1",
      "KeyConditionExpression": "pk = :p", "FilterExpression": "x > :x",
      "ProjectionExpression": "x", "ExpressionAttributeValues": {":p": {"S": "a"}, ":x": {"N": "1"}},
      "ExpressionAttributeNames": {"#n": "n"}, "Select": "COUNT", "Limit": 7,
      "ScanIndexForward": false, "ConsistentRead": true,
      "ExclusiveStartKey": {"pk": {"S": "a"}}, "ReturnConsumedCapacity": "TOTAL"})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_EQ(r->index_name, "gsi1");
  EXPECT_EQ(r->key_condition_expression, "pk = :p");
  EXPECT_EQ(r->filter_expression, "x > :x");
  EXPECT_EQ(r->projection_expression, "x");
  EXPECT_EQ(r->expression_attribute_values->size(), 2u);
  EXPECT_EQ(r->select, Select::kCount);
  EXPECT_EQ(r->limit, 7);
  EXPECT_EQ(r->scan_index_forward, false);
  EXPECT_TRUE(r->consistent_read);
  ASSERT_TRUE(r->exclusive_start_key);
  EXPECT_EQ(r->exclusive_start_key->at("pk"), S("a"));
  r = Decode(DecodeQueryRequest, R"({"TableName": "abc",
      "KeyConditions": {"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "a"}]}},
      "QueryFilter": {"x": {"ComparisonOperator": "NOT_NULL"}}, "ConditionalOperator": "AND",
      "AttributesToGet": ["x"]})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  ASSERT_TRUE(r->key_conditions);
  EXPECT_EQ((*r->key_conditions)[0].name, "pk");
  EXPECT_EQ((*r->key_conditions)[0].attribute_value_list.size(), 1u);
  ASSERT_TRUE(r->query_filter);
  EXPECT_EQ((*r->query_filter)[0].comparison_operator, expr::ComparisonOperator::kNotNull);
  EXPECT_EQ(r->conditional_operator, expr::ConditionalOperator::kAnd);
  EXPECT_FALSE(r->scan_index_forward);
  EXPECT_FALSE(r->limit);
}

TEST(DecodeScanTest, EveryMember) {
  auto r = Decode(DecodeScanRequest, R"({"TableName": "abc", "Segment": 3, "TotalSegments": 4,
      "Limit": 10, "Select": "ALL_ATTRIBUTES",
      "ScanFilter": {"a": {"ComparisonOperator": "BEGINS_WITH", "AttributeValueList": [{"S": "x"}]}}})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_EQ(r->segment, 3);
  EXPECT_EQ(r->total_segments, 4);
  EXPECT_EQ(r->limit, 10);
  EXPECT_EQ(r->select, Select::kAllAttributes);
  ASSERT_TRUE(r->scan_filter);
  EXPECT_EQ((*r->scan_filter)[0].comparison_operator, expr::ComparisonOperator::kBeginsWith);
}

TEST(DecodeTableTest, CreateAndUpdate) {
  auto r = Decode(DecodeCreateTableRequest, R"({"TableName": "Orders",
      "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                               {"AttributeName": "sk", "AttributeType": "N"}],
      "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                    {"AttributeName": "sk", "KeyType": "RANGE"}],
      "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 6}})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_EQ(r->table_name, "Orders");
  ASSERT_EQ(r->attribute_definitions.size(), 2u);
  EXPECT_EQ(r->attribute_definitions[1].attribute_type, KeyType::kNumber);
  ASSERT_EQ(r->key_schema.size(), 2u);
  EXPECT_EQ(r->key_schema[1].key_type, KeyRoleName::kRange);
  ASSERT_TRUE(r->provisioned_throughput);
  EXPECT_EQ(r->provisioned_throughput->read_capacity_units, 5);
  EXPECT_EQ(r->provisioned_throughput->write_capacity_units, 6);
  EXPECT_FALSE(r->billing_mode);

  auto u = Decode(DecodeUpdateTableRequest,
                  R"({"TableName": "Orders", "BillingMode": "PAY_PER_REQUEST"})");
  ASSERT_TRUE(u.ok()) << ErrorOf(u);
  EXPECT_EQ(u->billing_mode, BillingMode::kPayPerRequest);
  EXPECT_FALSE(u->provisioned_throughput);
}

TEST(DecodeTableTest, SecondaryIndexes) {
  auto r = Decode(DecodeCreateTableRequest, R"({"TableName": "Orders",
      "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                               {"AttributeName": "sk", "AttributeType": "N"},
                               {"AttributeName": "ls", "AttributeType": "S"},
                               {"AttributeName": "gp", "AttributeType": "B"}],
      "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                    {"AttributeName": "sk", "KeyType": "RANGE"}],
      "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 6},
      "LocalSecondaryIndexes": [null, {"IndexName": "ByLs",
          "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                        {"AttributeName": "ls", "KeyType": "RANGE"}],
          "Projection": {"ProjectionType": "KEYS_ONLY"}}],
      "GlobalSecondaryIndexes": [{"IndexName": "ByGp",
          "KeySchema": [{"AttributeName": "gp", "KeyType": "HASH"}],
          "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["x", "y"]},
          "ProvisionedThroughput": {"ReadCapacityUnits": 3, "WriteCapacityUnits": 4},
          "OnDemandThroughput": {"MaxReadRequestUnits": 9}},
          {"IndexName": "All", "KeySchema": [{"AttributeName": "ls", "KeyType": "HASH"},
                                             {"AttributeName": "sk", "KeyType": "RANGE"}],
           "Projection": {"ProjectionType": "ALL"}}]})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  ASSERT_EQ(r->local_secondary_indexes.size(), 1u);
  const LocalSecondaryIndex& lsi = r->local_secondary_indexes[0];
  EXPECT_EQ(lsi.index_name, "ByLs");
  EXPECT_EQ(lsi.key_schema, (std::vector<KeySchemaElement>{{"pk", KeyRoleName::kHash},
                                                            {"ls", KeyRoleName::kRange}}));
  EXPECT_EQ(lsi.projection, (Projection{ProjectionType::kKeysOnly, std::nullopt}));
  ASSERT_EQ(r->global_secondary_indexes.size(), 2u);
  const GlobalSecondaryIndex& gsi = r->global_secondary_indexes[0];
  EXPECT_EQ(gsi.index_name, "ByGp");
  EXPECT_EQ(gsi.key_schema, (std::vector<KeySchemaElement>{{"gp", KeyRoleName::kHash}}));
  EXPECT_EQ(gsi.projection,
            (Projection{ProjectionType::kInclude, std::vector<std::string>{"x", "y"}}));
  EXPECT_EQ(gsi.provisioned_throughput, (ProvisionedThroughput{3, 4}));
  EXPECT_EQ(r->global_secondary_indexes[1].projection.projection_type, ProjectionType::kAll);
  EXPECT_FALSE(r->global_secondary_indexes[1].provisioned_throughput);

  // Absent Projection members stay absent, for the engine's "Unknown ProjectionType: null".
  r = Decode(DecodeCreateTableRequest, R"({"TableName": "Orders", "AttributeDefinitions": [],
      "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
      "GlobalSecondaryIndexes": [{"IndexName": "G12", "Projection": {},
          "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}]}]})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_EQ(r->global_secondary_indexes[0].projection, Projection{});

  auto u = Decode(DecodeUpdateTableRequest, R"({"TableName": "Orders",
      "AttributeDefinitions": [{"AttributeName": "n", "AttributeType": "N"}],
      "GlobalSecondaryIndexUpdates": [
        {"Create": {"IndexName": "ByN", "KeySchema": [{"AttributeName": "n", "KeyType": "HASH"}],
                    "Projection": {"ProjectionType": "ALL"}}},
        {"Update": {"IndexName": "ByGp",
                    "ProvisionedThroughput": {"ReadCapacityUnits": 7, "WriteCapacityUnits": 8}}},
        {"Delete": {"IndexName": "All"}},
        {}]})");
  ASSERT_TRUE(u.ok()) << ErrorOf(u);
  ASSERT_TRUE(u->global_secondary_index_updates);
  const auto& updates = *u->global_secondary_index_updates;
  ASSERT_EQ(updates.size(), 4u);
  ASSERT_TRUE(updates[0].create);
  EXPECT_FALSE(updates[0].update || updates[0].remove);
  EXPECT_EQ(updates[0].create->index_name, "ByN");
  EXPECT_EQ(updates[0].create->key_schema,
            (std::vector<KeySchemaElement>{{"n", KeyRoleName::kHash}}));
  EXPECT_FALSE(updates[0].create->provisioned_throughput);
  ASSERT_TRUE(updates[1].update);
  EXPECT_EQ(updates[1].update->index_name, "ByGp");
  EXPECT_EQ(updates[1].update->provisioned_throughput, (ProvisionedThroughput{7, 8}));
  ASSERT_TRUE(updates[2].remove);
  EXPECT_EQ(updates[2].remove->index_name, "All");
  // An entry with no action is the engine's to refuse.
  EXPECT_FALSE(updates[3].create || updates[3].update || updates[3].remove);
  ASSERT_EQ(u->attribute_definitions.size(), 1u);

  // An empty list is present (the engine's "At least one of ... is required"); absent is absent.
  u = Decode(DecodeUpdateTableRequest,
             R"({"TableName": "Orders", "GlobalSecondaryIndexUpdates": []})");
  ASSERT_TRUE(u.ok()) << ErrorOf(u);
  ASSERT_TRUE(u->global_secondary_index_updates);
  EXPECT_TRUE(u->global_secondary_index_updates->empty());
  u = Decode(DecodeUpdateTableRequest, R"({"TableName": "Orders", "BillingMode": "PROVISIONED"})");
  ASSERT_TRUE(u.ok()) << ErrorOf(u);
  EXPECT_FALSE(u->global_secondary_index_updates);
}

TEST(DecodeBatchTest, GetItems) {
  auto r = Decode(DecodeBatchGetItemRequest, R"({"RequestItems": {
      "tb1": {"Keys": [{"pk": {"S": "a"}}, {"pk": {"S": "b"}}], "ConsistentRead": true,
             "ProjectionExpression": "#p", "ExpressionAttributeNames": {"#p": "pk"}},
      "tb2": {"Keys": [{"pk": {"N": "1"}}], "AttributesToGet": ["pk"]}},
      "ReturnConsumedCapacity": "TOTAL"})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  ASSERT_EQ(r->request_items.size(), 2u);
  EXPECT_EQ(r->request_items[0].first, "tb1");
  EXPECT_EQ(r->request_items[0].second.keys.size(), 2u);
  EXPECT_TRUE(r->request_items[0].second.consistent_read);
  EXPECT_EQ(r->request_items[0].second.projection_expression, "#p");
  EXPECT_EQ(r->request_items[1].first, "tb2");
  EXPECT_EQ(r->request_items[1].second.attributes_to_get, (std::vector<std::string>{"pk"}));
  EXPECT_EQ(r->return_consumed_capacity, ReturnConsumedCapacity::kTotal);
}

TEST(DecodeBatchTest, GetItemsErrors) {
  auto r = Decode(DecodeBatchGetItemRequest, R"({"ReturnConsumedCapacity": "hi"})");
  EXPECT_EQ(ErrorOf(r), "Validation: The requestItems parameter is required for BatchGetItem");
  r = Decode(DecodeBatchGetItemRequest, R"({"RequestItems": {}})");
  EXPECT_EQ(ErrorOf(r), "Validation: The requestItems parameter is required for BatchGetItem");
  r = Decode(DecodeBatchGetItemRequest,
             R"({"RequestItems": {"abc": {}}, "ReturnConsumedCapacity": "hi"})");
  EXPECT_EQ(ErrorOf(r),
            "Validation: 2 validation errors detected: "
            "Value 'hi' at 'returnConsumedCapacity' failed to satisfy constraint: Member must "
            "satisfy enum value set: [INDEXES, TOTAL, NONE]; "
            "Value null at 'requestItems.abc.member.keys' failed to satisfy constraint: Member "
            "must not be null");
  r = Decode(DecodeBatchGetItemRequest, R"({"RequestItems": {"abc": {"Keys": []}}})");
  EXPECT_EQ(ErrorOf(r),
            "Validation: 1 validation error detected: Value '[0 keys]' at "
            "'requestItems.abc.member.keys' failed to satisfy constraint: Member must have "
            "length greater than or equal to 1");
  r = Decode(DecodeBatchGetItemRequest, R"({"RequestItems": {"abc": {"Keys": [{"a": {}}]}}})");
  EXPECT_EQ(ErrorOf(r),
            "Validation: Supplied AttributeValue is empty, must contain exactly one of the "
            "supported datatypes");
}

TEST(DecodeBatchTest, WriteItems) {
  auto r = Decode(DecodeBatchWriteItemRequest, R"({"RequestItems": {
      "tb1": [{"PutRequest": {"Item": {"pk": {"S": "a"}, "x": {"N": "1"}}}},
             {"DeleteRequest": {"Key": {"pk": {"S": "b"}}}}]},
      "ReturnConsumedCapacity": "INDEXES", "ReturnItemCollectionMetrics": "SIZE"})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  ASSERT_EQ(r->request_items.size(), 1u);
  const auto& writes = r->request_items[0].second;
  ASSERT_EQ(writes.size(), 2u);
  EXPECT_EQ(writes[0].kind, WriteRequest::Kind::kPut);
  EXPECT_EQ(writes[0].item.size(), 2u);
  EXPECT_EQ(writes[1].kind, WriteRequest::Kind::kDelete);
  EXPECT_EQ(writes[1].item.at("pk"), S("b"));
  EXPECT_EQ(r->return_consumed_capacity, ReturnConsumedCapacity::kIndexes);
  EXPECT_EQ(r->return_item_collection_metrics, ReturnItemCollectionMetrics::kSize);
}

TEST(DecodeBatchTest, WriteItemsErrors) {
  auto r = Decode(DecodeBatchWriteItemRequest, R"({"RequestItems": {}})");
  EXPECT_EQ(ErrorOf(r), "Validation: The requestItems parameter is required for BatchWriteItem");
  std::string many;
  for (int i = 0; i < 26; ++i) {
    many += std::string(i ? "," : "") + R"({"DeleteRequest": {"Key": {"pk": {"S": "k)" +
            std::to_string(i) + R"("}}}})";
  }
  r = Decode(DecodeBatchWriteItemRequest, R"({"RequestItems": {"abc": [)" + many + "]}}");
  EXPECT_EQ(ErrorOf(r),
            "Validation: 1 validation error detected: Value '{abc=[26 requests]}' at "
            "'requestItems' failed to satisfy constraint: Map value must satisfy constraint: "
            "[Member must have length less than or equal to 25, Member must have length greater "
            "than or equal to 1]");
  r = Decode(DecodeBatchWriteItemRequest, R"({"RequestItems": {"abc": [{"PutRequest": {}}]}})");
  EXPECT_EQ(ErrorOf(r),
            "Validation: 1 validation error detected: Value null at "
            "'requestItems.abc.member.1.member.putRequest.item' failed to satisfy constraint: "
            "Member must not be null");
  r = Decode(DecodeBatchWriteItemRequest, R"({"RequestItems": {"abc": [{}]}})");
  EXPECT_EQ(ErrorOf(r),
            "Validation: Supplied AttributeValue has more than one datatypes set, must contain "
            "exactly one of the supported datatypes");
  r = Decode(DecodeBatchWriteItemRequest, R"({"RequestItems": {"a;": [{}]}})");
  EXPECT_EQ(ErrorOf(r),
            "Validation: 1 validation error detected: Value '{a;=[1 request]}' at 'requestItems' "
            "failed to satisfy constraint: Map keys must satisfy constraint: [Member must have "
            "length less than or equal to 255, Member must have length greater than or equal to "
            "3, Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+]");
}

}  // namespace
}  // namespace partstore::protocol
