// Tests for TransactWriteItems / TransactGetItems JSON (transaction_json.h): the decoders (every
// member, the SerializationException texts, the model constraints), the encoders (exact JSON) and
// Dispatch round trips against a real Database, including TransactionCanceledException's body.
// (Bodies with condition functions use the raw-string delimiter j: `exists(x)"` would end R"(.)
#include "tools/protocol/transaction_json.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "partstore/error_detail.h"
#include "tests/protocol/decode_testutil.h"
#include "tools/protocol/dispatch.h"
#include "tools/protocol/operations_json.h"

namespace partstore::protocol {
namespace {

Value NumberValue(std::string_view text) { return Value(*Number::Parse(text)); }

// ---- TransactWriteItems: members ----

TEST(DecodeTransactWriteItemsTest, EveryMemberOfEveryAction) {
  auto r = Decode(DecodeTransactWriteItemsRequest, R"j({
    "TransactItems": [
      {"ConditionCheck": {"TableName": "Accounts", "Key": {"PK": {"S": "a"}},
                          "ConditionExpression": "#b >= :min",
                          "ExpressionAttributeNames": {"#b": "balance"},
                          "ExpressionAttributeValues": {":min": {"N": "10"}},
                          "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}},
      {"Put": {"TableName": "Accounts", "Item": {"PK": {"S": "b"}, "n": {"N": "1.50"}},
               "ConditionExpression": "attribute_not_exists(#p)",
               "ExpressionAttributeNames": {"#p": "PK"},
               "ExpressionAttributeValues": {":unused": {"S": "x"}},
               "ReturnValuesOnConditionCheckFailure": "NONE"}},
      {"Delete": {"TableName": "Accounts", "Key": {"PK": {"S": "c"}},
                  "ConditionExpression": "attribute_exists(PK)",
                  "ExpressionAttributeNames": {"#q": "q"},
                  "ExpressionAttributeValues": {":v": {"BOOL": true}},
                  "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}},
      {"Update": {"TableName": "Other", "Key": {"PK": {"S": "d"}, "SK": {"N": "2"}},
                  "UpdateExpression": "SET #n = #n + :one", "ConditionExpression": "#n < :max",
                  "ExpressionAttributeNames": {"#n": "n"},
                  "ExpressionAttributeValues": {":one": {"N": "1"}, ":max": {"N": "9"}},
                  "ReturnValuesOnConditionCheckFailure": "ALL_OLD", "Unknown": 1}}],
    "ClientRequestToken": "token-1", "ReturnConsumedCapacity": "INDEXES",
    "ReturnItemCollectionMetrics": "SIZE", "SomethingUnknown": [1]})j");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  ASSERT_EQ(r->transact_items.size(), 4u);
  EXPECT_EQ(r->client_request_token, "token-1");
  EXPECT_EQ(r->return_consumed_capacity, ReturnConsumedCapacity::kIndexes);
  EXPECT_EQ(r->return_item_collection_metrics, ReturnItemCollectionMetrics::kSize);

  const TransactWriteItem& check = r->transact_items[0];
  ASSERT_TRUE(check.condition_check);
  EXPECT_FALSE(check.put || check.del || check.update);
  EXPECT_EQ(check.condition_check->table_name, "Accounts");
  EXPECT_EQ(check.condition_check->key, (Item{{"PK", S("a")}}));
  EXPECT_EQ(check.condition_check->condition_expression, "#b >= :min");
  EXPECT_EQ(check.condition_check->expression_attribute_names, (expr::NameMap{{"#b", "balance"}}));
  EXPECT_EQ(check.condition_check->expression_attribute_values,
            (AttributeMap{{":min", NumberValue("10")}}));
  EXPECT_EQ(check.condition_check->return_values_on_condition_check_failure,
            ReturnValuesOnConditionCheckFailure::kAllOld);

  const TransactWriteItem& put = r->transact_items[1];
  ASSERT_TRUE(put.put);
  EXPECT_FALSE(put.condition_check || put.del || put.update);
  EXPECT_EQ(put.put->table_name, "Accounts");
  EXPECT_EQ(put.put->item, (Item{{"PK", S("b")}, {"n", NumberValue("1.5")}}));
  EXPECT_EQ(put.put->condition_expression, "attribute_not_exists(#p)");
  EXPECT_EQ(put.put->expression_attribute_names, (expr::NameMap{{"#p", "PK"}}));
  EXPECT_EQ(put.put->expression_attribute_values, (AttributeMap{{":unused", S("x")}}));
  EXPECT_EQ(put.put->return_values_on_condition_check_failure,
            ReturnValuesOnConditionCheckFailure::kNone);
  EXPECT_EQ(put.put->return_values, ReturnValue::kNone);
  EXPECT_EQ(put.put->return_consumed_capacity, ReturnConsumedCapacity::kNone);

  const TransactWriteItem& del = r->transact_items[2];
  ASSERT_TRUE(del.del);
  EXPECT_FALSE(del.condition_check || del.put || del.update);
  EXPECT_EQ(del.del->table_name, "Accounts");
  EXPECT_EQ(del.del->key, (Item{{"PK", S("c")}}));
  EXPECT_EQ(del.del->condition_expression, "attribute_exists(PK)");
  EXPECT_EQ(del.del->expression_attribute_names, (expr::NameMap{{"#q", "q"}}));
  EXPECT_EQ(del.del->expression_attribute_values, (AttributeMap{{":v", Value(true)}}));
  EXPECT_EQ(del.del->return_values_on_condition_check_failure,
            ReturnValuesOnConditionCheckFailure::kAllOld);

  const TransactWriteItem& update = r->transact_items[3];
  ASSERT_TRUE(update.update);
  EXPECT_FALSE(update.condition_check || update.put || update.del);
  EXPECT_EQ(update.update->table_name, "Other");
  EXPECT_EQ(update.update->key, (Item{{"PK", S("d")}, {"SK", NumberValue("2")}}));
  EXPECT_EQ(update.update->update_expression, "SET #n = #n + :one");
  EXPECT_EQ(update.update->condition_expression, "#n < :max");
  EXPECT_EQ(update.update->expression_attribute_names, (expr::NameMap{{"#n", "n"}}));
  EXPECT_EQ(update.update->expression_attribute_values,
            (AttributeMap{{":one", NumberValue("1")}, {":max", NumberValue("9")}}));
  EXPECT_EQ(update.update->return_values_on_condition_check_failure,
            ReturnValuesOnConditionCheckFailure::kAllOld);
}

TEST(DecodeTransactWriteItemsTest, DefaultsAndNullMembersAreAbsent) {
  auto r = Decode(DecodeTransactWriteItemsRequest, R"({
    "TransactItems": [{"Put": {"TableName": "abc", "Item": {}, "ConditionExpression": null,
                               "ExpressionAttributeNames": null}, "Delete": null}],
    "ClientRequestToken": null, "ReturnConsumedCapacity": null})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  ASSERT_EQ(r->transact_items.size(), 1u);
  const TransactWriteItem& item = r->transact_items[0];
  ASSERT_TRUE(item.put);
  EXPECT_FALSE(item.del);
  EXPECT_TRUE(item.put->item.empty());
  EXPECT_FALSE(item.put->condition_expression);
  EXPECT_FALSE(item.put->expression_attribute_names);
  EXPECT_FALSE(item.put->expression_attribute_values);
  EXPECT_FALSE(r->client_request_token);
  EXPECT_EQ(r->return_consumed_capacity, ReturnConsumedCapacity::kNone);
  EXPECT_EQ(r->return_item_collection_metrics, ReturnItemCollectionMetrics::kNone);
}

// The members DynamoDB's transaction actions do not have are unknown members: ignored.
TEST(DecodeTransactWriteItemsTest, SingleItemOnlyMembersAreIgnored) {
  auto r = Decode(DecodeTransactWriteItemsRequest, R"({"TransactItems": [
    {"Put": {"TableName": "abc", "Item": {"a": {"S": "x"}}, "Expected": {"a": {"Exists": false}},
             "ConditionalOperator": "OR", "ReturnValues": "ALL_OLD"}},
    {"Update": {"TableName": "abc", "Key": {"a": {"S": "y"}}, "UpdateExpression": "SET b = :b",
                "AttributeUpdates": {"b": {"Action": "DELETE"}},
                "ReturnConsumedCapacity": "TOTAL"}}]})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_FALSE(r->transact_items[0].put->expected);
  EXPECT_FALSE(r->transact_items[0].put->conditional_operator);
  EXPECT_EQ(r->transact_items[0].put->return_values, ReturnValue::kNone);
  EXPECT_FALSE(r->transact_items[1].update->attribute_updates);
  EXPECT_EQ(r->transact_items[1].update->return_consumed_capacity, ReturnConsumedCapacity::kNone);
}

// An action with zero or several of its members reaches the engine as sent (the engine answers
// "TransactItems can only contain one of Check, Put, Update or Delete"); an empty list too.
TEST(DecodeTransactWriteItemsTest, ZeroOrSeveralActionsPassThrough) {
  auto r = Decode(DecodeTransactWriteItemsRequest, R"j({"TransactItems": [
    {}, null, {"Unknown": {}},
    {"Put": {"TableName": "abc", "Item": {"a": {"S": "x"}}},
     "Delete": {"TableName": "abc", "Key": {"a": {"S": "x"}}},
     "ConditionCheck": {"TableName": "abc", "Key": {"a": {"S": "x"}},
                        "ConditionExpression": "attribute_exists(a)"},
     "Update": {"TableName": "abc", "Key": {"a": {"S": "x"}}, "UpdateExpression": "REMOVE b"}}]})j");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  ASSERT_EQ(r->transact_items.size(), 4u);
  for (int i = 0; i < 3; ++i) {
    const TransactWriteItem& none = r->transact_items[i];
    EXPECT_FALSE(none.condition_check || none.put || none.del || none.update) << i;
  }
  const TransactWriteItem& all = r->transact_items[3];
  EXPECT_TRUE(all.condition_check && all.put && all.del && all.update);

  auto empty = Decode(DecodeTransactWriteItemsRequest, R"({"TransactItems": []})");
  ASSERT_TRUE(empty.ok()) << ErrorOf(empty);
  EXPECT_TRUE(empty->transact_items.empty());
}

TEST(DecodeTransactWriteItemsTest, RepeatedMemberKeepsTheLast) {
  auto r = Decode(DecodeTransactWriteItemsRequest, R"({"TransactItems": [
    {"Put": {"TableName": "first", "Item": {}}, "Put": {"TableName": "second", "Item": {},
             "TableName": "third"}}], "ClientRequestToken": "a", "ClientRequestToken": "b"})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_EQ(r->transact_items[0].put->table_name, "third");
  EXPECT_EQ(r->client_request_token, "b");
}

// ---- TransactWriteItems: shapes ----

struct ShapeCase {
  const char* body;
  const char* message;
};

TEST(DecodeTransactWriteItemsTest, Shapes) {
  const ShapeCase cases[] = {
      {R"([])",
       "Unrecognized collection type class "
       "com.amazonaws.dynamodb.v20120810.TransactWriteItemsInput"},
      {R"(12)", "Unexpected value type in payload"},
      {R"({"TransactItems": 1})", "Unexpected field type"},
      {R"({"TransactItems": "x"})", "Unexpected field type"},
      {R"({"TransactItems": {}})", "Start of structure or map found where not expected"},
      {R"({"TransactItems": [1]})", "Unexpected value type in payload"},
      {R"({"TransactItems": ["x"]})", "Unexpected value type in payload"},
      {R"({"TransactItems": [[]]})",
       "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.TransactWriteItem"},
      {R"({"TransactItems": [{"Put": 1}]})", "Unexpected field type"},
      {R"({"TransactItems": [{"Put": []}]})",
       "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.Put"},
      {R"({"TransactItems": [{"Delete": []}]})",
       "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.Delete"},
      {R"({"TransactItems": [{"Update": true}]})", "Unexpected field type"},
      {R"({"TransactItems": [{"Update": []}]})",
       "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.Update"},
      {R"({"TransactItems": [{"ConditionCheck": []}]})",
       "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.ConditionCheck"},
      {R"({"TransactItems": [{"Put": {"TableName": 23}}]})",
       "NUMBER_VALUE cannot be converted to String"},
      {R"({"TransactItems": [{"Put": {"TableName": {}}}]})",
       "Start of structure or map found where not expected"},
      {R"({"TransactItems": [{"Put": {"Item": 23}}]})", "Unexpected field type"},
      {R"({"TransactItems": [{"Put": {"Item": []}}]})",
       "Unrecognized collection type java.util.Map<java.lang.String, "
       "com.amazonaws.dynamodb.v20120810.AttributeValue>"},
      {R"({"TransactItems": [{"Delete": {"Key": {"a": 1}}}]})", "Unexpected value type in payload"},
      {R"({"TransactItems": [{"Update": {"UpdateExpression": true}}]})",
       "TRUE_VALUE cannot be converted to String"},
      {R"({"TransactItems": [{"Update": {"ConditionExpression": 1.5}}]})",
       "DECIMAL_VALUE cannot be converted to String"},
      {R"({"TransactItems": [{"ConditionCheck": {"ExpressionAttributeNames": []}}]})",
       "Unrecognized collection type java.util.Map<java.lang.String, java.lang.String>"},
      {R"({"TransactItems": [{"ConditionCheck": {"ExpressionAttributeNames": {"#a": 1}}}]})",
       "NUMBER_VALUE cannot be converted to String"},
      {R"({"TransactItems": [{"Put": {"ExpressionAttributeValues": {":a": 1}}}]})",
       "Unexpected value type in payload"},
      {R"({"TransactItems": [{"Put": {"ReturnValuesOnConditionCheckFailure": false}}]})",
       "FALSE_VALUE cannot be converted to String"},
      {R"({"ClientRequestToken": true})", "TRUE_VALUE cannot be converted to String"},
      {R"({"ClientRequestToken": 5})", "NUMBER_VALUE cannot be converted to String"},
      {R"({"ReturnConsumedCapacity": []})", "Unrecognized collection type class java.lang.String"},
      {R"({"ReturnItemCollectionMetrics": {}})",
       "Start of structure or map found where not expected"},
  };
  for (const ShapeCase& c : cases) {
    auto r = Decode(DecodeTransactWriteItemsRequest, c.body);
    EXPECT_EQ(ErrorOf(r), std::string("Serialization: ") + c.message) << c.body;
  }
}

// The first shape error in document order wins, and every shape error wins over every constraint
// and value error.
TEST(DecodeTransactWriteItemsTest, ShapesInDocumentOrderBeforeAnythingElse) {
  auto r = Decode(DecodeTransactWriteItemsRequest,
                  R"({"ReturnConsumedCapacity": 1, "TransactItems": 5})");
  EXPECT_EQ(ErrorOf(r), "Serialization: NUMBER_VALUE cannot be converted to String");
  r = Decode(DecodeTransactWriteItemsRequest,
             R"({"TransactItems": 5, "ReturnConsumedCapacity": 1})");
  EXPECT_EQ(ErrorOf(r), "Serialization: Unexpected field type");
  r = Decode(DecodeTransactWriteItemsRequest, R"({"TransactItems": [
    {"Put": {"Item": {"a": {}}}}, {"Delete": {"TableName": 1}}], "ReturnConsumedCapacity": "X"})");
  EXPECT_EQ(ErrorOf(r), "Serialization: NUMBER_VALUE cannot be converted to String");
  r = Decode(DecodeTransactWriteItemsRequest, R"({"TransactItems": [
    {"Put": {"TableName": 1}, "Delete": []}]})");
  EXPECT_EQ(ErrorOf(r), "Serialization: NUMBER_VALUE cannot be converted to String");
  r = Decode(DecodeTransactWriteItemsRequest, R"({"TransactItems": [
    {"Delete": [], "Put": {"TableName": 1}}]})");
  EXPECT_EQ(ErrorOf(r),
            "Serialization: Unrecognized collection type class "
            "com.amazonaws.dynamodb.v20120810.Delete");
}

// ---- TransactWriteItems: model constraints and values ----

TEST(DecodeTransactWriteItemsTest, RequiredMembers) {
  auto r = Decode(DecodeTransactWriteItemsRequest, R"({})");
  EXPECT_EQ(ErrorOf(r),
            "Validation: 1 validation error detected: Value null at 'transactItems' failed to "
            "satisfy constraint: Member must not be null");
  r = Decode(DecodeTransactWriteItemsRequest, R"({"TransactItems": null})");
  EXPECT_EQ(ErrorOf(r),
            "Validation: 1 validation error detected: Value null at 'transactItems' failed to "
            "satisfy constraint: Member must not be null");
  r = Decode(DecodeTransactWriteItemsRequest, R"({"TransactItems": [{"Put": {}}]})");
  EXPECT_EQ(ErrorOf(r),
            "Validation: 2 validation errors detected: Value null at "
            "'transactItems.1.member.put.tableName' failed to satisfy constraint: Member must not "
            "be null; Value null at 'transactItems.1.member.put.item' failed to satisfy "
            "constraint: Member must not be null");
  r = Decode(DecodeTransactWriteItemsRequest,
             R"({"TransactItems": [{"Delete": {"TableName": "abc"}},
                                   {"Update": {"TableName": "abc"}},
                                   {"ConditionCheck": {"TableName": "abc", "Key": {}}}]})");
  EXPECT_EQ(ErrorOf(r),
            "Validation: 4 validation errors detected: Value null at "
            "'transactItems.1.member.delete.key' failed to satisfy constraint: Member must not be "
            "null; Value null at 'transactItems.2.member.update.key' failed to satisfy "
            "constraint: Member must not be null; Value null at "
            "'transactItems.2.member.update.updateExpression' failed to satisfy constraint: "
            "Member must not be null; Value null at "
            "'transactItems.3.member.conditionCheck.conditionExpression' failed to satisfy "
            "constraint: Member must not be null");
}

TEST(DecodeTransactWriteItemsTest, EnumsAndNames) {
  auto r = Decode(DecodeTransactWriteItemsRequest, R"({"ReturnConsumedCapacity": "ALL",
    "ReturnItemCollectionMetrics": "NONE!", "TransactItems": [
      {"Put": {"TableName": "ab", "Item": {}, "ReturnValuesOnConditionCheckFailure": "ALL_NEW"}},
      {"ConditionCheck": {"TableName": "a b c", "Key": {}}}]})");
  EXPECT_EQ(ErrorOf(r),
            "Validation: 6 validation errors detected: Value 'ALL' at 'returnConsumedCapacity' "
            "failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, "
            "NONE]; Value 'NONE!' at 'returnItemCollectionMetrics' failed to satisfy constraint: "
            "Member must satisfy enum value set: [SIZE, NONE]; Value 'ab' at "
            "'transactItems.1.member.put.tableName' failed to satisfy constraint: Member must "
            "have length greater than or equal to 3; Value 'ALL_NEW' at "
            "'transactItems.1.member.put.returnValuesOnConditionCheckFailure' failed to satisfy "
            "constraint: Member must satisfy enum value set: [ALL_OLD, NONE]; Value 'a b c' at "
            "'transactItems.2.member.conditionCheck.tableName' failed to satisfy constraint: "
            "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+; Value null at "
            "'transactItems.2.member.conditionCheck.conditionExpression' failed to satisfy "
            "constraint: Member must not be null");
}

TEST(DecodeTransactWriteItemsTest, ConstraintsBeforeValues) {
  auto r = Decode(DecodeTransactWriteItemsRequest, R"({"TransactItems": [
    {"Put": {"TableName": "abc", "Item": {"a": {}}}}, {"Delete": {"Key": {}}}]})");
  EXPECT_EQ(ErrorOf(r),
            "Validation: 1 validation error detected: Value null at "
            "'transactItems.2.member.delete.tableName' failed to satisfy constraint: Member must "
            "not be null");
}

TEST(DecodeTransactWriteItemsTest, ValueErrors) {
  constexpr std::string_view kEmpty =
      "Validation: Supplied AttributeValue is empty, must contain exactly one of the supported "
      "datatypes";
  auto r = Decode(DecodeTransactWriteItemsRequest, R"({"TransactItems": [
    {"Put": {"TableName": "abc", "Item": {"a": {}}}}]})");
  EXPECT_EQ(ErrorOf(r), kEmpty);
  r = Decode(DecodeTransactWriteItemsRequest, R"({"TransactItems": [
    {"Update": {"TableName": "abc", "Key": {"a": {"S": "x"}}, "UpdateExpression": "SET b = :b",
                "ExpressionAttributeValues": {":b": {}}}}]})");
  EXPECT_EQ(ErrorOf(r), kEmpty);
  r = Decode(DecodeTransactWriteItemsRequest, R"({"TransactItems": [
    {"ConditionCheck": {"TableName": "abc", "Key": {"a": {"S": "x", "N": "1"}},
                        "ConditionExpression": "a = :a"}}]})");
  EXPECT_EQ(ErrorOf(r),
            "Validation: Supplied AttributeValue has more than one datatypes set, must contain "
            "exactly one of the supported datatypes");
}

// ---- TransactGetItems ----

TEST(DecodeTransactGetItemsTest, EveryMember) {
  auto r = Decode(DecodeTransactGetItemsRequest, R"({"TransactItems": [
    {"Get": {"TableName": "Users", "Key": {"PK": {"S": "a"}, "SK": {"S": "b"}},
             "ProjectionExpression": "#n, age", "ExpressionAttributeNames": {"#n": "name"},
             "ConsistentRead": true, "AttributesToGet": ["x"], "Unknown": 1}},
    {"Get": {"TableName": "Other", "Key": {"id": {"N": "7"}}}}],
    "ReturnConsumedCapacity": "TOTAL", "ClientRequestToken": "ignored"})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_EQ(r->return_consumed_capacity, ReturnConsumedCapacity::kTotal);
  ASSERT_EQ(r->transact_items.size(), 2u);
  const GetItemRequest& first = r->transact_items[0].get;
  EXPECT_EQ(first.table_name, "Users");
  EXPECT_EQ(first.key, (Item{{"PK", S("a")}, {"SK", S("b")}}));
  EXPECT_EQ(first.projection_expression, "#n, age");
  EXPECT_EQ(first.expression_attribute_names, (expr::NameMap{{"#n", "name"}}));
  EXPECT_FALSE(first.consistent_read);    // not a member of Get
  EXPECT_FALSE(first.attributes_to_get);  // not a member of Get
  const GetItemRequest& second = r->transact_items[1].get;
  EXPECT_EQ(second.table_name, "Other");
  EXPECT_EQ(second.key, (Item{{"id", NumberValue("7")}}));
  EXPECT_FALSE(second.projection_expression);
  EXPECT_FALSE(second.expression_attribute_names);

  auto empty = Decode(DecodeTransactGetItemsRequest, R"({"TransactItems": []})");
  ASSERT_TRUE(empty.ok()) << ErrorOf(empty);  // the engine's length error
  EXPECT_EQ(empty->return_consumed_capacity, ReturnConsumedCapacity::kNone);
}

TEST(DecodeTransactGetItemsTest, Shapes) {
  const ShapeCase cases[] = {
      {R"([1])",
       "Unrecognized collection type class "
       "com.amazonaws.dynamodb.v20120810.TransactGetItemsInput"},
      {R"("x")", "Unexpected value type in payload"},
      {R"({"TransactItems": true})", "Unexpected field type"},
      {R"({"TransactItems": {"Get": {}}})", "Start of structure or map found where not expected"},
      {R"({"TransactItems": [3]})", "Unexpected value type in payload"},
      {R"({"TransactItems": [[]]})",
       "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.TransactGetItem"},
      {R"({"TransactItems": [{"Get": "x"}]})", "Unexpected field type"},
      {R"({"TransactItems": [{"Get": []}]})",
       "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.Get"},
      {R"({"TransactItems": [{"Get": {"TableName": false}}]})",
       "FALSE_VALUE cannot be converted to String"},
      {R"({"TransactItems": [{"Get": {"Key": "k"}}]})", "Unexpected field type"},
      {R"({"TransactItems": [{"Get": {"ProjectionExpression": []}}]})",
       "Unrecognized collection type class java.lang.String"},
      {R"({"TransactItems": [{"Get": {"ExpressionAttributeNames": 1}}]})", "Unexpected field type"},
      {R"({"ReturnConsumedCapacity": 1})", "NUMBER_VALUE cannot be converted to String"},
  };
  for (const ShapeCase& c : cases) {
    auto r = Decode(DecodeTransactGetItemsRequest, c.body);
    EXPECT_EQ(ErrorOf(r), std::string("Serialization: ") + c.message) << c.body;
  }
}

TEST(DecodeTransactGetItemsTest, ConstraintsAndValues) {
  auto r = Decode(DecodeTransactGetItemsRequest, R"({"ReturnConsumedCapacity": "SOME"})");
  EXPECT_EQ(ErrorOf(r),
            "Validation: 2 validation errors detected: Value 'SOME' at 'returnConsumedCapacity' "
            "failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, "
            "NONE]; Value null at 'transactItems' failed to satisfy constraint: Member must not "
            "be null");
  r = Decode(DecodeTransactGetItemsRequest, R"({"TransactItems": [
    {}, {"Get": null}, {"Get": {}}, {"Get": {"TableName": "x", "Key": {}}}]})");
  EXPECT_EQ(ErrorOf(r),
            "Validation: 5 validation errors detected: Value null at 'transactItems.1.member.get' "
            "failed to satisfy constraint: Member must not be null; Value null at "
            "'transactItems.2.member.get' failed to satisfy constraint: Member must not be null; "
            "Value null at 'transactItems.3.member.get.tableName' failed to satisfy constraint: "
            "Member must not be null; Value null at 'transactItems.3.member.get.key' failed to "
            "satisfy constraint: Member must not be null; Value 'x' at "
            "'transactItems.4.member.get.tableName' failed to satisfy constraint: Member must "
            "have length greater than or equal to 3");
  r = Decode(DecodeTransactGetItemsRequest, R"({"TransactItems": [
    {"Get": {"TableName": "abc", "Key": {"a": {"S": "x", "N": "1"}}}}]})");
  EXPECT_EQ(ErrorOf(r),
            "Validation: Supplied AttributeValue has more than one datatypes set, must contain "
            "exactly one of the supported datatypes");
}

// ---- Encoders ----

ConsumedCapacity Capacity(std::string table, int64_t half_units) {
  ConsumedCapacity capacity;
  capacity.table_name = std::move(table);
  capacity.total_half_units = half_units;
  return capacity;
}

TEST(EncodeTransactionTest, WriteResult) {
  EXPECT_EQ(EncodeTransactWriteItemsResult({}), "{}");
  TransactWriteItemsResult result;
  result.consumed_capacity = {Capacity("A", 8), Capacity("B", 4)};
  EXPECT_EQ(EncodeTransactWriteItemsResult(result),
            R"({"ConsumedCapacity":[{"TableName":"A","CapacityUnits":4.0},)"
            R"({"TableName":"B","CapacityUnits":2.0}]})");
  result.item_collection_metrics.emplace_back(
      "A", std::vector<ItemCollectionMetrics>{{Item{{"pk", S("a")}}, {0, 1}},
                                              {Item{{"pk", S("b")}}, {0, 1}}});
  EXPECT_EQ(EncodeTransactWriteItemsResult(result),
            R"({"ConsumedCapacity":[{"TableName":"A","CapacityUnits":4.0},)"
            R"({"TableName":"B","CapacityUnits":2.0}],)"
            R"("ItemCollectionMetrics":{"A":[)"
            R"({"ItemCollectionKey":{"pk":{"S":"a"}},"SizeEstimateRangeGB":[0.0,1.0]},)"
            R"({"ItemCollectionKey":{"pk":{"S":"b"}},"SizeEstimateRangeGB":[0.0,1.0]}]}})");
}

TEST(EncodeTransactionTest, GetResult) {
  EXPECT_EQ(EncodeTransactGetItemsResult({}), R"({"Responses":[]})");
  TransactGetItemsResult result;
  result.responses = {Item{{"pk", S("a")}, {"n", NumberValue("2")}}, std::nullopt, Item{}};
  EXPECT_EQ(EncodeTransactGetItemsResult(result),
            R"({"Responses":[{"Item":{"n":{"N":"2"},"pk":{"S":"a"}}},{},{"Item":{}}]})");
  result.consumed_capacity = {Capacity("T", 12)};
  EXPECT_EQ(EncodeTransactGetItemsResult(result),
            R"({"Responses":[{"Item":{"n":{"N":"2"},"pk":{"S":"a"}}},{},{"Item":{}}],)"
            R"("ConsumedCapacity":[{"TableName":"T","CapacityUnits":6.0}]})");
}

TEST(EncodeTransactionTest, CancellationReasonsInTheErrorBody) {
  auto detail = std::make_shared<ErrorDetail>();
  detail->cancellation_reasons = {
      CancellationReason{},
      CancellationReason{.code = "ConditionalCheckFailed",
                         .message = "The conditional request failed",
                         .item = Item{{"pk", S("a")}}},
      CancellationReason{.code = "ConditionalCheckFailed",
                         .message = "The conditional request failed"},
      CancellationReason{.code = "None", .message = "ignored"},
      CancellationReason{.code = "ValidationError", .message = "bad key"}};
  Response r = ErrorResponse(Status(Code::kTransactionCanceled,
                                    "Transaction cancelled, please refer cancellation reasons for "
                                    "specific reasons [None, ...]")
                                 .WithDetail(detail));
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(r.body,
            R"({"__type":"com.amazonaws.dynamodb.v20120810#TransactionCanceledException",)"
            R"("Message":"Transaction cancelled, please refer cancellation reasons for specific )"
            R"(reasons [None, ...]","CancellationReasons":[{"Code":"None"},)"
            R"({"Code":"ConditionalCheckFailed","Message":"The conditional request failed",)"
            R"("Item":{"pk":{"S":"a"}}},)"
            R"({"Code":"ConditionalCheckFailed","Message":"The conditional request failed"},)"
            R"({"Code":"None"},{"Code":"ValidationError","Message":"bad key"}]})");
}

// ---- Dispatch ----

class TransactDispatchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Ok("CreateTable", R"({"TableName": "Accounts", "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}]})");
    Ok("CreateTable", R"({"TableName": "Ledger", "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                 {"AttributeName": "sk", "AttributeType": "N"},
                                 {"AttributeName": "kind", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                      {"AttributeName": "sk", "KeyType": "RANGE"}],
        "LocalSecondaryIndexes": [{"IndexName": "ByKind",
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                          {"AttributeName": "kind", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "KEYS_ONLY"}}]})");
  }
  Response Call(std::string_view operation, std::string_view body) {
    return Dispatch(db_, operation, body);
  }
  void Ok(std::string_view operation, std::string_view body) {
    Response r = Call(operation, body);
    ASSERT_EQ(r.http_status, 200) << operation << " " << body << " -> " << r.body;
  }
  std::string Get(std::string_view id) {
    return Call("GetItem",
                R"({"TableName": "Accounts", "Key": {"id": {"S": ")" + std::string(id) + R"("}}})")
        .body;
  }
  Database db_;
};

TEST_F(TransactDispatchTest, TransferCommitsAndReportsCapacity) {
  Ok("PutItem", R"({"TableName": "Accounts", "Item": {"id": {"S": "alice"}, "b": {"N": "100"}}})");
  Ok("PutItem", R"({"TableName": "Accounts", "Item": {"id": {"S": "bob"}, "b": {"N": "0"}}})");
  Response r = Call("TransactWriteItems", R"j({"TransactItems": [
    {"Update": {"TableName": "Accounts", "Key": {"id": {"S": "alice"}},
                "UpdateExpression": "SET b = b - :x", "ConditionExpression": "b >= :x",
                "ExpressionAttributeValues": {":x": {"N": "30"}}}},
    {"Update": {"TableName": "Accounts", "Key": {"id": {"S": "bob"}},
                "UpdateExpression": "SET b = b + :x",
                "ExpressionAttributeValues": {":x": {"N": "30"}}}},
    {"Put": {"TableName": "Ledger", "Item": {"pk": {"S": "alice"}, "sk": {"N": "1"}},
             "ConditionExpression": "attribute_not_exists(pk)"}}],
    "ReturnConsumedCapacity": "TOTAL", "ReturnItemCollectionMetrics": "SIZE"})j");
  ASSERT_EQ(r.http_status, 200) << r.body;
  // (The Ledger item has no LSI sort key: see ItemCollectionMetricsOfAnLsiEntry.)
  EXPECT_EQ(r.body, R"({"ConsumedCapacity":[{"TableName":"Accounts","CapacityUnits":4.0},)"
                    R"({"TableName":"Ledger","CapacityUnits":2.0}],)"
                    R"("ItemCollectionMetrics":{"Ledger":[{"ItemCollectionKey":)"
                    R"({"pk":{"S":"alice"}},"SizeEstimateRangeGB":[0.0,1.0]}]}})");
  EXPECT_EQ(Get("alice"), R"({"Item":{"b":{"N":"70"},"id":{"S":"alice"}}})");
  EXPECT_EQ(Get("bob"), R"({"Item":{"b":{"N":"30"},"id":{"S":"bob"}}})");

  // Nothing asked for: an empty object.
  r = Call("TransactWriteItems", R"({"TransactItems": [
    {"Delete": {"TableName": "Ledger", "Key": {"pk": {"S": "alice"}, "sk": {"N": "1"}}}}]})");
  EXPECT_EQ(r.http_status, 200);
  EXPECT_EQ(r.body, "{}");
}

// A write that puts an LSI entry, with ReturnItemCollectionMetrics=SIZE: the metrics read the
// LSI stripe the transaction already holds (this once aborted with "Resource deadlock avoided").
TEST_F(TransactDispatchTest, ItemCollectionMetricsOfAnLsiEntry) {
  Response r = Call("TransactWriteItems", R"({"TransactItems": [
    {"Put": {"TableName": "Ledger", "Item": {"pk": {"S": "alice"}, "sk": {"N": "2"},
                                             "kind": {"S": "debit"}}}}],
    "ReturnItemCollectionMetrics": "SIZE"})");
  EXPECT_EQ(r.body, R"({"ItemCollectionMetrics":{"Ledger":[{"ItemCollectionKey":)"
                    R"({"pk":{"S":"alice"}},"SizeEstimateRangeGB":[0.0,1.0]}]}})");
}

TEST_F(TransactDispatchTest, CancelledTransactionErrorBody) {
  Ok("PutItem", R"({"TableName": "Accounts", "Item": {"id": {"S": "carol"}, "b": {"N": "5"}}})");
  Response r = Call("TransactWriteItems", R"j({"TransactItems": [
    {"Put": {"TableName": "Accounts", "Item": {"id": {"S": "dave"}}}},
    {"ConditionCheck": {"TableName": "Accounts", "Key": {"id": {"S": "carol"}},
                        "ConditionExpression": "b > :n",
                        "ExpressionAttributeValues": {":n": {"N": "10"}},
                        "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}},
    {"Delete": {"TableName": "Accounts", "Key": {"id": {"S": "nobody"}},
                "ConditionExpression": "attribute_exists(id)",
                "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}}]})j");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(r.body,
            R"({"__type":"com.amazonaws.dynamodb.v20120810#TransactionCanceledException",)"
            R"("Message":"Transaction cancelled, please refer cancellation reasons for specific )"
            R"(reasons [None, ConditionalCheckFailed, ConditionalCheckFailed]",)"
            R"("CancellationReasons":[{"Code":"None"},)"
            R"({"Code":"ConditionalCheckFailed","Message":"The conditional request failed",)"
            R"("Item":{"b":{"N":"5"},"id":{"S":"carol"}}},)"
            R"({"Code":"ConditionalCheckFailed","Message":"The conditional request failed"}]})");
  EXPECT_EQ(Get("dave"), "{}");  // nothing applied

  // A key that does not match the schema cancels on its action, with ValidationError.
  r = Call("TransactWriteItems", R"({"TransactItems": [
    {"Put": {"TableName": "Accounts", "Item": {"id": {"S": "dave"}}}},
    {"Update": {"TableName": "Accounts", "Key": {"id": {"S": "carol"}, "x": {"S": "y"}},
                "UpdateExpression": "SET b = :n",
                "ExpressionAttributeValues": {":n": {"N": "10"}}}}]})");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(r.body,
            R"({"__type":"com.amazonaws.dynamodb.v20120810#TransactionCanceledException",)"
            R"("Message":"Transaction cancelled, please refer cancellation reasons for specific )"
            R"(reasons [None, ValidationError]","CancellationReasons":[{"Code":"None"},)"
            R"({"Code":"ValidationError",)"
            R"("Message":"The provided key element does not match the schema"}]})");
  EXPECT_EQ(Get("dave"), "{}");
}

TEST_F(TransactDispatchTest, GetItemsInOrderWithMissingOnesEmpty) {
  Ok("PutItem", R"({"TableName": "Accounts",
      "Item": {"id": {"S": "erin"}, "b": {"N": "1"}, "name": {"S": "Erin"}}})");
  Response r = Call("TransactGetItems", R"({"TransactItems": [
    {"Get": {"TableName": "Accounts", "Key": {"id": {"S": "nobody"}}}},
    {"Get": {"TableName": "Accounts", "Key": {"id": {"S": "erin"}},
             "ProjectionExpression": "#n", "ExpressionAttributeNames": {"#n": "name"}}},
    {"Get": {"TableName": "Ledger", "Key": {"pk": {"S": "erin"}, "sk": {"N": "1"}}}}],
    "ReturnConsumedCapacity": "TOTAL"})");
  ASSERT_EQ(r.http_status, 200) << r.body;
  // Transactional reads: 2 read units per item up to 4 KB, a missing item included.
  EXPECT_EQ(r.body, R"({"Responses":[{},{"Item":{"name":{"S":"Erin"}}},{}],)"
                    R"("ConsumedCapacity":[{"TableName":"Accounts","CapacityUnits":4.0},)"
                    R"({"TableName":"Ledger","CapacityUnits":2.0}]})");
  r = Call("TransactGetItems", R"({"TransactItems": [
    {"Get": {"TableName": "Accounts", "Key": {"id": {"S": "erin"}}}}]})");
  EXPECT_EQ(r.body, R"({"Responses":[{"Item":{"b":{"N":"1"},"id":{"S":"erin"},)"
                    R"("name":{"S":"Erin"}}}]})");
}

TEST_F(TransactDispatchTest, ValidationErrors) {
  auto validation = [](std::string message) {
    return R"({"__type":"com.amazon.coral.validate#ValidationException","message":")" + message +
           R"("})";
  };
  const std::string empty_list =
      "1 validation error detected: Value '[]' at 'transactItems' failed to satisfy constraint: "
      "Member must have length greater than or equal to 1";
  Response r = Call("TransactWriteItems", R"({"TransactItems": []})");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(r.body, validation(empty_list));
  r = Call("TransactGetItems", R"({"TransactItems": []})");
  EXPECT_EQ(r.body, validation(empty_list));
  r = Call("TransactWriteItems", R"({"TransactItems": [
    {"Put": {"TableName": "Accounts", "Item": {"id": {"S": "x"}}}},
    {"Update": {"TableName": "Accounts", "Key": {"id": {"S": "x"}},
                "UpdateExpression": "SET a = :a", "ExpressionAttributeValues": {":a": {"N": "1"}}}}
    ]})");
  EXPECT_EQ(r.body,
            validation("Transaction request cannot include multiple operations on one item"));
  const std::string one_of = "TransactItems can only contain one of Check, Put, Update or Delete";
  r = Call("TransactWriteItems", R"({"TransactItems": [{}]})");
  EXPECT_EQ(r.body, validation(one_of));
  r = Call("TransactWriteItems", R"({"TransactItems": [
    {"Put": {"TableName": "Accounts", "Item": {"id": {"S": "x"}}},
     "Delete": {"TableName": "Accounts", "Key": {"id": {"S": "x"}}}}]})");
  EXPECT_EQ(r.body, validation(one_of));
  r = Call("TransactWriteItems", R"({"TransactItems": [
    {"Put": {"TableName": "Missing", "Item": {"id": {"S": "x"}}}}]})");
  EXPECT_NE(r.body.find("ResourceNotFoundException"), std::string::npos) << r.body;
  r = Call("TransactWriteItems", R"({"TransactItems": [{"Put": {"Item": {}}}]})");
  EXPECT_EQ(r.body, validation("1 validation error detected: Value null at "
                               "'transactItems.1.member.put.tableName' failed to satisfy "
                               "constraint: Member must not be null"));
  r = Call("TransactWriteItems", R"({"TransactItems": [{"Put": []}]})");
  EXPECT_EQ(r.body, R"({"__type":"com.amazon.coral.service#SerializationException",)"
                    R"("Message":"Unrecognized collection type class )"
                    R"(com.amazonaws.dynamodb.v20120810.Put"})");
  EXPECT_EQ(Get("x"), "{}");
}

TEST_F(TransactDispatchTest, ClientRequestToken) {
  const std::string increment = R"({"ClientRequestToken": "tok-1", "TransactItems": [
    {"Update": {"TableName": "Accounts", "Key": {"id": {"S": "n"}},
                "UpdateExpression": "ADD c :one",
                "ExpressionAttributeValues": {":one": {"N": "1"}}}}]})";
  Ok("TransactWriteItems", increment);
  Ok("TransactWriteItems", increment);  // a replay: answered, not applied again
  EXPECT_EQ(Get("n"), R"({"Item":{"c":{"N":"1"},"id":{"S":"n"}}})");
  Response r = Call("TransactWriteItems", R"({"ClientRequestToken": "tok-1", "TransactItems": [
    {"Put": {"TableName": "Accounts", "Item": {"id": {"S": "other"}}}}]})");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(r.body,
            R"({"__type":"com.amazonaws.dynamodb.v20120810#IdempotentParameterMismatchException",)"
            R"("message":"The request uses the same client token as a previous, but )"
            R"(non-identical request. Please use a different client token."})");
  EXPECT_EQ(Get("other"), "{}");
  r = Call("TransactWriteItems", R"({"ClientRequestToken": "", "TransactItems": [
    {"Put": {"TableName": "Accounts", "Item": {"id": {"S": "other"}}}}]})");
  EXPECT_EQ(r.body, R"({"__type":"com.amazon.coral.validate#ValidationException","message":)"
                    R"("1 validation error detected: Value '' at 'clientRequestToken' failed to )"
                    R"(satisfy constraint: Member must have length greater than or equal to 1"})");
}

}  // namespace
}  // namespace partstore::protocol
