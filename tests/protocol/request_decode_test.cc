// Tests for the request decoders (operations_json.h, request_json.h): every member of every
// operation, the SerializationException texts, the model-constraint messages and their order.
// Expected messages are written out literally so that a change of wording has to change a test;
// the evidence for each is next to the code that produces it.
#include <gtest/gtest.h>

#include <string>

#include "partstore/error_detail.h"
#include "tests/protocol/decode_testutil.h"
#include "tools/protocol/operations_json.h"

namespace partstore::protocol {
namespace {

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
            "Validation: 1 validation error detected: Value 'a;' at 'tableName' failed to "
            "satisfy constraint: Member must have length greater than or equal to 3");
  // One error for an empty name, whose minimum is the table ARN's 1 (the conformance suite
  // verified against DynamoDB).
  r = Decode(DecodeDeleteTableRequest, R"({"TableName": ""})");
  EXPECT_EQ(ErrorOf(r),
            "Validation: 1 validation error detected: Value '' at 'tableName' failed to "
            "satisfy constraint: Member must have length greater than or equal to 1");
  // The pattern only when the length is right.
  r = Decode(DecodeDeleteTableRequest, R"({"TableName": "abc;"})");
  EXPECT_EQ(ErrorOf(r),
            "Validation: 1 validation error detected: Value 'abc;' at 'tableName' failed to "
            "satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+");
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
      "Value at 'Limit' failed to satisfy constraint: Member must have value greater than "
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

// The item's errors come before Expected's and the expression values' (dynalite
// validations/putItem.js), whether the item is decoded as a tree or encoded straight into a
// StoredItem (the server's path with the engine).
TEST(ValuesTest, ItemErrorsComeFirst) {
  const auto stored = [](const rapidjson::Value& body) {
    StoredItem item;
    return DecodePutItemRequestStored(body, &item);
  };
  const std::string item_alone =
      ErrorOf(Decode(DecodePutItemRequest, R"({"TableName": "abc", "Item": {"a": {"SS": []}}})"));
  ASSERT_NE(item_alone, "OK");
  for (const char* body :
       {R"({"TableName": "abc", "Item": {"a": {"SS": []}}, "ConditionExpression": "a = :v",
            "ExpressionAttributeValues": {":v": {"N": "x"}}})",
        R"({"TableName": "abc", "Item": {"a": {"SS": []}},
            "Expected": {"a": {"Value": {"N": "x"}}}})"}) {
    EXPECT_EQ(ErrorOf(Decode(DecodePutItemRequest, body)), item_alone) << body;
    EXPECT_EQ(ErrorOf(Decode(stored, body)), item_alone) << body;
  }
  // Each second error on its own is another error: the test above would catch an order that put
  // it first.
  for (const char* body :
       {R"({"TableName": "abc", "Item": {}, "ConditionExpression": "a = :v",
            "ExpressionAttributeValues": {":v": {"N": "x"}}})",
        R"({"TableName": "abc", "Item": {}, "Expected": {"a": {"Value": {"N": "x"}}}})"}) {
    const std::string alone = ErrorOf(Decode(DecodePutItemRequest, body));
    EXPECT_NE(alone, "OK") << body;
    EXPECT_NE(alone, item_alone) << body;
  }
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
  // BatchGetItem's echo counts each table's Keys.
  auto get = Decode(DecodeBatchGetItemRequest,
                    R"({"RequestItems": {"a": {"Keys": [{"k": {"S": "1"}}, {"k": {"S": "2"}}]}}})");
  EXPECT_EQ(ErrorOf(get),
            "Validation: 1 validation error detected: Value '{a=[2 keys]}' at 'requestItems' "
            "failed to satisfy constraint: Map keys must satisfy constraint: [Member must have "
            "length less than or equal to 255, Member must have length greater than or equal to "
            "3, Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+]");
}

}  // namespace
}  // namespace partstore::protocol
