// The wire target's response parsing (tools/bench/dynamodb_response.h): read responses counted
// and their LastEvaluatedKey kept; malformed bodies, deep nesting and wrong shapes are Statuses
// (never a crash, never a count from a wrong shape); error bodies mapped to Codes; DescribeTable
// and BatchWriteItem responses.
#include "tools/bench/dynamodb_response.h"

#include <gtest/gtest.h>

#include <climits>
#include <string>
#include <vector>

namespace partstore::bench {
namespace {

struct Counted {
  Status status;
  ReadOutcome outcome;
  std::vector<KeyPart> last_key;
};

Counted Count(std::string_view body) {
  Counted c;
  c.last_key.push_back({"stale", "S", "x"});  // always replaced
  c.status = CountReadResponse(body, &c.outcome, &c.last_key);
  return c;
}

bool Contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

TEST(CountReadResponseTest, GetItemCountsOneItemAndItsBytes) {
  const Counted c =
      Count(R"({"Item":{"YCSB_KEY":{"S":"user1"},"n":{"N":"12.5"},"b":{"B":"AAEC"},)"
            R"("ok":{"BOOL":true},"m":{"M":{"inner":{"S":"not counted"}}},"l":{"L":[{"S":"no"}]}},)"
            R"("ConsumedCapacity":{"TableName":"t","CapacityUnits":0.5}})");
  ASSERT_TRUE(c.status.ok()) << c.status.ToString();
  EXPECT_EQ(c.outcome.items, 1);
  // Names: YCSB_KEY n b ok m l = 8+1+1+2+1+1; scalars: user1 12.5 AAEC = 5+4+4.
  EXPECT_EQ(c.outcome.bytes, 14u + 13u);
  EXPECT_TRUE(c.last_key.empty());
}

TEST(CountReadResponseTest, GetItemNotFoundCountsNothing) {
  for (const char* body : {"{}", R"({"Item":null})", R"({"ConsumedCapacity":{}})", " {} \n"}) {
    const Counted c = Count(body);
    ASSERT_TRUE(c.status.ok()) << body << ": " << c.status.ToString();
    EXPECT_EQ(c.outcome.items, 0) << body;
    EXPECT_EQ(c.outcome.bytes, 0u) << body;
  }
}

TEST(CountReadResponseTest, QueryCountsItemsAndKeepsLastEvaluatedKey) {
  const Counted c = Count(
      R"({"Count":2,"Items":[{"PK":{"S":"p"},"SK":{"S":"s1"}},{"PK":{"S":"p"},"SK":{"S":"s22"}}],)"
      R"("LastEvaluatedKey":{"PK":{"S":"p"},"SK":{"S":"s22"},"G":{"N":"7"}},"ScannedCount":2})");
  ASSERT_TRUE(c.status.ok()) << c.status.ToString();
  EXPECT_EQ(c.outcome.items, 2);
  EXPECT_EQ(c.outcome.bytes, (2 + 1 + 2 + 2) + (2 + 1 + 2 + 3u));
  ASSERT_EQ(c.last_key.size(), 3u);
  EXPECT_EQ(c.last_key[0].name, "PK");
  EXPECT_EQ(c.last_key[0].type, "S");
  EXPECT_EQ(c.last_key[0].value, "p");
  EXPECT_EQ(c.last_key[1].name, "SK");
  EXPECT_EQ(c.last_key[1].value, "s22");
  EXPECT_EQ(c.last_key[2].type, "N");
  EXPECT_EQ(c.last_key[2].value, "7");
}

TEST(CountReadResponseTest, CollectsTheNamedAttributesStringValues) {
  // Only a top-level S value of the named attribute is kept: not an N of that name, not a nested
  // member of that name, not the LastEvaluatedKey's.
  std::vector<std::string> values;
  ReadOutcome outcome{.collect = "SK", .values = &values};
  std::vector<KeyPart> last_key;
  ASSERT_TRUE(
      CountReadResponse(R"({"Items":[{"PK":{"S":"p"},"SK":{"S":"s1"}},{"SK":{"N":"2"}},)"
                        R"({"m":{"M":{"SK":{"S":"nested"}}},"SK":{"S":"s\"3"}},{"PK":{"S":"SK"}}],)"
                        R"("LastEvaluatedKey":{"PK":{"S":"p"},"SK":{"S":"s3"}}})",
                        &outcome, &last_key)
          .ok());
  EXPECT_EQ(outcome.items, 4);
  EXPECT_EQ(values, (std::vector<std::string>{"s1", "s\"3"}));
  ASSERT_EQ(last_key.size(), 2u);

  // Without `values`, nothing is kept (what `partstore bench` does).
  ReadOutcome counted{.collect = "SK"};
  ASSERT_TRUE(CountReadResponse(R"({"Item":{"SK":{"S":"s1"}}})", &counted, &last_key).ok());
  EXPECT_EQ(counted.items, 1);
  values.clear();
  ReadOutcome get{.collect = "SK", .values = &values};
  ASSERT_TRUE(CountReadResponse(R"({"Item":{"SK":{"S":"s1"}}})", &get, &last_key).ok());
  EXPECT_EQ(values, (std::vector<std::string>{"s1"}));
}

TEST(CountReadResponseTest, AddsToTheOutcome) {
  ReadOutcome outcome;
  outcome.items = 5;
  outcome.bytes = 100;
  std::vector<KeyPart> last_key;
  ASSERT_TRUE(CountReadResponse(R"({"Items":[{"a":{"S":"bc"}}]})", &outcome, &last_key).ok());
  EXPECT_EQ(outcome.items, 6);
  EXPECT_EQ(outcome.bytes, 103u);
}

TEST(CountReadResponseTest, EmptyItemsList) {
  const Counted c = Count(R"({"Items":[],"Count":0,"ScannedCount":0})");
  ASSERT_TRUE(c.status.ok()) << c.status.ToString();
  EXPECT_EQ(c.outcome.items, 0);
  EXPECT_EQ(c.outcome.bytes, 0u);
  EXPECT_TRUE(c.last_key.empty());
  // An empty page with a key: the caller follows it.
  const Counted page = Count(R"({"Items":[],"LastEvaluatedKey":{"k":{"S":"v"}}})");
  ASSERT_TRUE(page.status.ok());
  ASSERT_EQ(page.last_key.size(), 1u);
}

TEST(CountReadResponseTest, NotJsonIsAStatus) {
  std::string nul_in_string = R"({"Items":[{"a":{"S":"x)";
  nul_in_string += '\0';
  nul_in_string += R"("}}]})";
  for (const std::string& body :
       {std::string(""), std::string("<html>busy</html>"), std::string("{"),
        std::string(R"({"Items":[{"a":{"S":"x"}}])"), std::string("{} {}"),
        std::string("{}\0junk", 7), nul_in_string, std::string(R"({"Count":1e400})"),
        std::string(R"({"Item":{"a":{"S":"unterminated)")}) {
    const Counted c = Count(body);
    EXPECT_FALSE(c.status.ok()) << body;
    EXPECT_EQ(c.status.code(), Code::kInternal) << body;
    EXPECT_FALSE(c.status.message().empty());
    EXPECT_TRUE(c.last_key.empty());
  }
  EXPECT_TRUE(Contains(Count("<html>").status.message(), "not JSON"));
}

TEST(CountReadResponseTest, DeepNestingIsAStatus) {
  for (const std::string& body :
       {std::string(100000, '['), std::string(100000, '[') + std::string(100000, ']'),
        "{\"Items\":" + std::string(100000, '['), "{\"x\":" + std::string(100000, '['), [] {
          std::string s = "{\"Item\":{\"a\":";
          for (int i = 0; i < 100000; ++i) s += "{\"M\":{\"a\":";
          return s;
        }()}) {
    const Counted c = Count(body);
    EXPECT_FALSE(c.status.ok());
    EXPECT_EQ(c.status.code(), Code::kInternal);
  }
  // Deep in an ignored member or in an item: the depth limit, not a syntax error.
  for (const std::string& deep : {"{\"x\":" + std::string(1000, '[') + std::string(1000, ']') + "}",
                                  "{\"x\":" + std::string(100000, '['),
                                  "{\"Items\":[{\"a\":{\"L\":" + std::string(200, '[')}) {
    const Status s = Count(deep).status;
    EXPECT_TRUE(Contains(s.message(), "nested too deep (over 128 levels)")) << s.ToString();
  }
}

// The limit is above what DynamoDB can return: 32 levels of nested maps in an item.
TEST(CountReadResponseTest, DynamoDbsDeepestDocumentIsCounted) {
  std::string value = R"({"S":"leaf"})";
  for (int i = 1; i < 32; ++i) value = R"({"M":{"m":)" + value + "}}";
  const Counted c = Count(R"({"Items":[{"a":)" + value + "}]}");
  ASSERT_TRUE(c.status.ok()) << c.status.ToString();
  EXPECT_EQ(c.outcome.items, 1);
  EXPECT_EQ(c.outcome.bytes, 1u);  // "a"; nested scalars are not counted
}

// Wrong shapes are a Status naming the problem, not items 0 (a broken server must not look like
// a run of misses) and never a count from the wrong place.
TEST(CountReadResponseTest, WrongShapesAreAStatus) {
  const struct {
    const char* body;
    const char* why;
  } cases[] = {
      {R"({"Items":"not a list"})", "\"Items\" is not an array"},
      {R"({"Items":{"a":{"b":{}}}})", "\"Items\" is not an array"},
      {R"({"Item":5})", "\"Item\" is not an object"},
      {R"({"Item":[{"a":{"S":"x"}}]})", "\"Item\" is not an object"},
      {R"({"Item":"x"})", "\"Item\" is not an object"},
      {R"({"Items":[1,2,3]})", "an element of \"Items\" is not an object"},
      {R"({"Items":[[{"a":{"S":"x"}}]]})", "an element of \"Items\" is not an object"},
      {R"({"Items":[null]})", "an element of \"Items\" is not an object"},
      {R"({"Item":{"a":"x"}})", "attribute value is not an object"},
      {R"({"Items":[{"a":["S","x"]}]})", "attribute value is not an object"},
      {R"([{"Item":{"a":{"S":"x"}}}])", "not a JSON object"},
      {R"("Items")", "not a JSON object"},
      {"null", "not a JSON object"},
      {R"({"LastEvaluatedKey":"k"})", "\"LastEvaluatedKey\" is not an object"},
      {R"({"LastEvaluatedKey":{"k":"v"}})", "attribute is not an object"},
      {R"({"LastEvaluatedKey":{"k":{"S":5}}})", "value is not a string"},
      {R"({"LastEvaluatedKey":{"k":{"M":{}}}})", "value is not a string"},
      {R"({"LastEvaluatedKey":{"k":{}}})", "has no type"},
      {R"({"LastEvaluatedKey":{"k":{"":"v"}}})", "empty type"},
      {R"({"LastEvaluatedKey":{"k":{"S":"v","N":"1"}}})", "more than one type"},
      {R"({"LastEvaluatedKey":{"a":{"S":"1"},"b":{"S":"1"},"c":{"S":"1"},"d":{"S":"1"},)"
       R"("e":{"S":"1"},"f":{"S":"1"},"g":{"S":"1"},"h":{"S":"1"},"i":{"S":"1"}}})",
       "too many attributes"},
  };
  for (const auto& [body, why] : cases) {
    const Counted c = Count(body);
    EXPECT_EQ(c.status.code(), Code::kInternal) << body;
    EXPECT_TRUE(Contains(c.status.message(), why)) << body << ": " << c.status.ToString();
    EXPECT_GE(c.outcome.items, 0) << body;
    EXPECT_LE(c.outcome.items, 1) << body;
    EXPECT_TRUE(c.last_key.empty()) << body;
  }
}

// What the shapes allow besides the counted members: anything, at any depth up to the limit.
TEST(CountReadResponseTest, OtherMembersAndRepeatsAreHarmless) {
  Counted c = Count(R"({"Other":[[{"Item":{"a":{"S":"x"}}}]],"Items":null,)"
                    R"("LastEvaluatedKey":null,"Count":1.5e300,"S":"x"})");
  ASSERT_TRUE(c.status.ok()) << c.status.ToString();
  EXPECT_EQ(c.outcome.items, 0);
  EXPECT_TRUE(c.last_key.empty());
  // A repeated LastEvaluatedKey replaces the first; repeated Items add up.
  c = Count(R"({"LastEvaluatedKey":{"a":{"S":"1"}},"Items":[{}],"Items":[{}],)"
            R"("LastEvaluatedKey":{"b":{"N":"2"}}})");
  ASSERT_TRUE(c.status.ok()) << c.status.ToString();
  EXPECT_EQ(c.outcome.items, 2);
  ASSERT_EQ(c.last_key.size(), 1u);
  EXPECT_EQ(c.last_key[0].name, "b");
}

TEST(CountReadResponseTest, TooManyItemsIsAStatus) {
  ReadOutcome outcome;
  outcome.items = INT_MAX - 1;
  std::vector<KeyPart> last_key;
  const Status s = CountReadResponse(R"({"Items":[{},{}]})", &outcome, &last_key);
  EXPECT_TRUE(Contains(s.message(), "too many items")) << s.ToString();
  EXPECT_EQ(outcome.items, INT_MAX);
}

TEST(ErrorStatusTest, MapsTheExceptionName) {
  Status s =
      ErrorStatus(400, R"({"__type":"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",)"
                       R"("message":"Requested resource not found"})");
  EXPECT_EQ(s.code(), Code::kResourceNotFound);
  EXPECT_EQ(s.message(), "ResourceNotFoundException: Requested resource not found");
  s = ErrorStatus(400, R"({"__type":"com.amazon.coral.validate#ValidationException",)"
                       R"("Message":"bad"})");
  EXPECT_EQ(s.code(), Code::kValidation);
  EXPECT_EQ(s.message(), "ValidationException: bad");
  s = ErrorStatus(400, R"({"__type":"ProvisionedThroughputExceededException"})");
  EXPECT_EQ(s.code(), Code::kProvisionedThroughputExceeded);
  EXPECT_TRUE(s.retryable());
  // An unknown name keeps its text; the Code follows the HTTP status.
  EXPECT_EQ(ErrorStatus(400, R"({"__type":"x#NewException","message":"m"})").code(),
            Code::kValidation);
  EXPECT_EQ(ErrorStatus(500, R"({"__type":"x#NewException","message":"m"})").code(),
            Code::kInternal);
}

TEST(ErrorStatusTest, NonJsonBodyIsTheHttpStatus) {
  Status s = ErrorStatus(503, "<html>busy</html>");
  EXPECT_EQ(s.code(), Code::kInternal);
  EXPECT_EQ(s.message(), "HTTP 503: <html>busy</html>");
  s = ErrorStatus(413, std::string(1000, 'x'));
  EXPECT_EQ(s.code(), Code::kValidation);
  EXPECT_EQ(s.message(), "HTTP 413: " + std::string(200, 'x'));
  for (std::string_view body :
       {std::string_view(""), std::string_view("[1]"), std::string_view(R"({"__type":5})"),
        std::string_view(R"({"__type":"#"})")}) {
    s = ErrorStatus(502, body);
    EXPECT_EQ(s.code(), Code::kInternal) << body;
    EXPECT_TRUE(s.message().starts_with("HTTP 502: ")) << s.ToString();
  }
  // Deep nesting and large messages are bounded.
  s = ErrorStatus(400, std::string(100000, '['));
  EXPECT_EQ(s.message(), "HTTP 400: " + std::string(200, '['));
  s = ErrorStatus(
      400, R"({"__type":"a#ValidationException","message":")" + std::string(100000, 'm') + "\"}");
  EXPECT_EQ(s.code(), Code::kValidation);
  EXPECT_EQ(s.message().size(),
            std::string("ValidationException: ").size() + kMaxErrorMessageBytes);
  s = ErrorStatus(400, R"({"__type":"a#ValidationException","message":"big"})" +
                           std::string(kMaxErrorBodyBytes, ' '));
  EXPECT_TRUE(s.message().starts_with("HTTP 400: ")) << "bodies over the limit are raw text";
}

TEST(ParseDescribeTableTest, StatusAndIndexes) {
  auto state = ParseDescribeTable(
      R"({"Table":{"TableStatus":"CREATING","GlobalSecondaryIndexes":[{"IndexStatus":"ACTIVE"}]}})");
  ASSERT_TRUE(state.ok());
  EXPECT_EQ(state->status, "CREATING");
  EXPECT_TRUE(state->gsi_active);
  state =
      ParseDescribeTable(R"({"Table":{"GlobalSecondaryIndexes":[{"IndexStatus":"CREATING"},5]}})");
  ASSERT_TRUE(state.ok());
  EXPECT_EQ(state->status, "ACTIVE");
  EXPECT_FALSE(state->gsi_active);
  for (const std::string& bad : {std::string(), std::string("[]"), std::string(R"({"Table":[]})"),
                                 "{\"Table\":" + std::string(5000, '[')}) {
    EXPECT_EQ(ParseDescribeTable(bad).status().code(), Code::kInternal) << bad.substr(0, 20);
  }
}

TEST(ParseBatchWriteResponseTest, UnprocessedItems) {
  std::string unprocessed = "stale";
  ASSERT_TRUE(ParseBatchWriteResponse(R"({"UnprocessedItems":{}})", &unprocessed).ok());
  EXPECT_EQ(unprocessed, "");
  ASSERT_TRUE(
      ParseBatchWriteResponse(
          R"({"UnprocessedItems":{"t":[{"PutRequest":{"Item":{"k":{"S":"v"}}}}]}})", &unprocessed)
          .ok());
  EXPECT_EQ(unprocessed, R"({"t":[{"PutRequest":{"Item":{"k":{"S":"v"}}}}]})");
  EXPECT_FALSE(ParseBatchWriteResponse("nope", &unprocessed).ok());
  EXPECT_EQ(unprocessed, "");
  EXPECT_FALSE(ParseBatchWriteResponse(std::string(100000, '{'), &unprocessed).ok());
}

}  // namespace
}  // namespace partstore::bench
