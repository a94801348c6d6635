// PutItem through Dispatch, end to end, on the two paths the server has: with the engine named
// (Backend::engine), the item goes from the request's JSON straight into a StoredItem
// (EncodeItemJson, Database::PutStoredItem); without it, the item is decoded into a tree and put
// with PutItem, as for any other store. Random request bodies, valid and not, go to two databases,
// one through each path: every response (status and body: results, consumed capacity, item
// collection metrics, errors and their old items) is the same, and so are the tables and their
// indexes afterwards.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "partstore/database.h"
#include "tests/testutil/random_put_items.h"
#include "tests/testutil/random_values.h"
#include "tools/protocol/attribute_value_json.h"
#include "tools/protocol/dispatch.h"

namespace partstore::protocol {
namespace {

using testing::RandomChance;
using testing::RandomInt;

constexpr std::string_view kCreateOrders = R"({"TableName":"Orders",
  "BillingMode":"PAY_PER_REQUEST",
  "AttributeDefinitions":[{"AttributeName":"PK","AttributeType":"S"},
                          {"AttributeName":"SK","AttributeType":"S"},
                          {"AttributeName":"GSI1PK","AttributeType":"S"},
                          {"AttributeName":"LSK","AttributeType":"N"}],
  "KeySchema":[{"AttributeName":"PK","KeyType":"HASH"},{"AttributeName":"SK","KeyType":"RANGE"}],
  "GlobalSecondaryIndexes":[{"IndexName":"GSI1","KeySchema":[{"AttributeName":"GSI1PK","KeyType":"HASH"}],
                             "Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["a","b"]}}],
  "LocalSecondaryIndexes":[{"IndexName":"LSI1","KeySchema":[{"AttributeName":"PK","KeyType":"HASH"},
                                                            {"AttributeName":"LSK","KeyType":"RANGE"}],
                            "Projection":{"ProjectionType":"ALL"}}]})";

// A random item's members as JSON text (without the braces): RandomOrdersItem's (keys present or
// not and of the right type or not, index keys, now and then over 400 KB), and now and then a form
// the tree refuses or one the encoder leaves to the tree.
std::string RandomItemMembers(std::mt19937_64& rng) {
  std::string members = ItemToJson(testing::RandomOrdersItem(rng));
  members = members.substr(1, members.size() - 2);
  static const char* const kOdd[] = {
      R"("bad":{"N":"1e200"})",       R"("bad":{"SS":["x","x"]})",
      R"("bad":{"S":"x","N":"1"})",   R"("bad":null)",
      R"("twice":{"S":"x","S":"y"})", R"("flag":{"BOOL":"true"})",
      R"("":{"S":"empty name"})",     R"("m":{"M":{"k":{"S":"x"},"k":{"N":"2"}}})"};
  if (RandomChance(rng, 0.08)) {
    members += std::string(members.empty() ? "" : ",") + kOdd[RandomInt(rng, 0, 7)];
  }
  return members;
}

// A random PutItem body: the item, and at random a condition, ReturnValues,
// ReturnValuesOnConditionCheckFailure, ReturnConsumedCapacity, ReturnItemCollectionMetrics, and
// now and then a bad member (a table that does not exist, an unknown ReturnValues, Expected mixed
// with a ConditionExpression).
std::string RandomPutBody(std::mt19937_64& rng) {
  std::string body = R"({"TableName":")";
  body += RandomChance(rng, 0.02) ? "Missing" : "Orders";
  body += R"(","Item":{)" + RandomItemMembers(rng) + "}";
  if (RandomChance(rng, 0.3)) {
    body +=
        RandomChance(rng, 0.5)
            ? R"j(,"ConditionExpression":"attribute_not_exists(PK)")j"
            : R"j(,"ConditionExpression":"attribute_exists(#n)","ExpressionAttributeNames":{"#n":"LSK"})j";
  }
  if (RandomChance(rng, 0.4)) body += R"(,"ReturnValues":"ALL_OLD")";
  if (RandomChance(rng, 0.4)) body += R"(,"ReturnValuesOnConditionCheckFailure":"ALL_OLD")";
  if (RandomChance(rng, 0.5)) {
    body += RandomChance(rng, 0.5) ? R"(,"ReturnConsumedCapacity":"INDEXES")"
                                   : R"(,"ReturnConsumedCapacity":"TOTAL")";
  }
  if (RandomChance(rng, 0.3)) body += R"(,"ReturnItemCollectionMetrics":"SIZE")";
  if (RandomChance(rng, 0.02)) body += R"(,"ReturnValues":"ALL_NEW")";
  if (RandomChance(rng, 0.02)) body += R"(,"Expected":{"PK":{"Exists":false}})";
  return body + "}";
}

std::string ScanText(const Backend& backend, std::string_view index) {
  std::string body = R"({"TableName":"Orders")";
  if (!index.empty()) body += R"(,"IndexName":")" + std::string(index) + "\"";
  Response r = Dispatch(backend, "Scan", body + "}");
  EXPECT_EQ(r.http_status, 200) << r.body;
  return r.body;
}

TEST(PutItemDispatchTest, StraightFromTheJsonAnswersAsTheTreePath) {
  Database direct_db;
  Database tree_db;
  const Backend direct{direct_db, &direct_db};
  const Backend tree{tree_db, nullptr};
  for (const Backend* backend : {&direct, &tree}) {
    Response created = Dispatch(*backend, "CreateTable", kCreateOrders);
    ASSERT_EQ(created.http_status, 200) << created.body;
  }
  std::mt19937_64 rng(5151);
  int ok = 0;
  int failed = 0;
  for (int i = 0; i < 1500; ++i) {
    const std::string body = RandomPutBody(rng);
    const Response want = Dispatch(tree, "PutItem", body);
    const Response got = Dispatch(direct, "PutItem", body);
    ASSERT_EQ(got.http_status, want.http_status) << body << "\n" << want.body << "\n" << got.body;
    ASSERT_EQ(got.body, want.body) << body;
    (want.http_status == 200 ? ok : failed) += 1;
  }
  EXPECT_GT(ok, 300);
  EXPECT_GT(failed, 100);

  // At DynamoDB's 400 KB and a byte over it (PK and SK take 8 bytes, "x" 1 and its string).
  for (const size_t size : {kMaxItemSize, kMaxItemSize + 1}) {
    const std::string body = R"({"TableName":"Orders","Item":{"PK":{"S":"P1"},"SK":{"S":"S1"},)"
                             R"("x":{"S":")" +
                             std::string(size - 9, 'x') +
                             R"("}},"ReturnConsumedCapacity":"TOTAL"})";
    const Response want = Dispatch(tree, "PutItem", body);
    const Response got = Dispatch(direct, "PutItem", body);
    EXPECT_EQ(want.http_status, size == kMaxItemSize ? 200 : 400) << want.body;
    EXPECT_EQ(got.http_status, want.http_status);
    EXPECT_EQ(got.body, want.body);
  }
  for (std::string_view index : {"", "GSI1", "LSI1"}) {
    EXPECT_EQ(ScanText(direct, index), ScanText(tree, index)) << index;
  }
}

}  // namespace
}  // namespace partstore::protocol
