// Tests for the control-plane request decoders (table_json.cc): CreateTable and UpdateTable
// members, their secondary-index structures, their SerializationException texts and their
// model-constraint messages, in DynamoDB's order.
#include <gtest/gtest.h>

#include <string>

#include "partstore/error_detail.h"
#include "tests/protocol/decode_testutil.h"
#include "tools/protocol/operations_json.h"

namespace partstore::protocol {
namespace {

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
  r = Decode(
      DecodeCreateTableRequest,
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

TEST(ConstraintsTest, CreateTable) {
  // CreateTable's own text for a missing name comes first (architect/dynalite, against DynamoDB).
  auto r = Decode(DecodeCreateTableRequest, "{}");
  EXPECT_EQ(ErrorOf(r),
            "Validation: The parameter 'TableName' is required but was not present in the "
            "request");
  r = Decode(DecodeCreateTableRequest, R"({"TableName": "abc"})");
  EXPECT_EQ(ErrorOf(r),
            "Validation: 2 validation errors detected: "
            "Value null at 'attributeDefinitions' failed to satisfy constraint: Member must not "
            "be null; "
            "Value null at 'keySchema' failed to satisfy constraint: Member must not be null");
  // An empty name: one error, with CreateTable's minimum of 3.
  r = Decode(DecodeCreateTableRequest, R"({"TableName": "", "AttributeDefinitions": [],
      "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"}]})");
  EXPECT_EQ(ErrorOf(r),
            "Validation: 1 validation error detected: Value '' at 'tableName' failed to "
            "satisfy constraint: Member must have length greater than or equal to 3");
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
  // A definition's name: the model's 1..255 (KeySchemaAttributeName), before its type.
  r = Decode(DecodeCreateTableRequest, R"({"TableName": "abc",
      "AttributeDefinitions": [{"AttributeName": "a", "AttributeType": "S"},
                               {"AttributeName": "", "AttributeType": "Q"}],
      "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"}]})");
  EXPECT_EQ(ErrorOf(r),
            "Validation: 2 validation errors detected: "
            "Value '' at 'attributeDefinitions.2.member.attributeName' failed to satisfy "
            "constraint: Member must have length greater than or equal to 1; "
            "Value 'Q' at 'attributeDefinitions.2.member.attributeType' failed to satisfy "
            "constraint: Member must satisfy enum value set: [B, N, S]");
  const std::string long_name(256, 'n');
  r = Decode(DecodeCreateTableRequest, R"({"TableName": "abc",
      "AttributeDefinitions": [{"AttributeName": "a", "AttributeType": "S"},
                               {"AttributeName": ")" + long_name + R"(", "AttributeType": "S"}],
      "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"}]})");
  EXPECT_EQ(ErrorOf(r), "Validation: 1 validation error detected: Value '" + long_name +
                            "' at 'attributeDefinitions.2.member.attributeName' failed to "
                            "satisfy constraint: Member must have length less than or equal to "
                            "255");
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
  // (An Update's ProvisionedThroughput is optional in today's API, beside OnDemandThroughput and
  // WarmThroughput; dynalite's older model required it.)
  EXPECT_EQ(ErrorOf(u),
            "Validation: 5 validation errors detected: "
            "Value null at 'globalSecondaryIndexUpdates.1.member.update.indexName' failed to "
            "satisfy constraint: Member must not be null; "
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

}  // namespace
}  // namespace partstore::protocol
