// Tests for HandleRequest and RejectedRequest (tools/server/server.h) without sockets: the headers
// every answer carries (Content-Type, x-amzn-RequestId, x-amz-crc32 checked against a CRC-32
// computed here independently), X-Amz-Target parsing, Content-Type checks, the GET / health check
// the errors DynamoDB answers for bodies that are not JSON, and compressed requests and responses.
#include <gtest/gtest.h>

#include <array>
#include <boost/beast/http.hpp>
#include <cstdint>
#include <regex>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "tools/protocol/content_coding.h"
#include "tools/protocol/dispatch.h"
#include "tools/server/authenticator.h"
#include "tools/server/server.h"

namespace partstore::server {
namespace {

namespace http = boost::beast::http;
using protocol::ContentCoding;
using protocol::DecodeOutcome;
using protocol::DecodeRequestBody;
using protocol::EncodeBody;
using protocol::kCompressionThreshold;

constexpr std::string_view kUnknownOperation =
    R"({"__type":"com.amazon.coral.service#UnknownOperationException"})";
constexpr std::string_view kSerialization =
    R"({"__type":"com.amazon.coral.service#SerializationException"})";

// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320), table-driven: independent of the
// boost::crc the server uses.
uint32_t Crc32(std::string_view data) {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  uint32_t crc = 0xFFFFFFFFu;
  for (unsigned char byte : data) crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8);
  return crc ^ 0xFFFFFFFFu;
}

std::string Header(const HttpResponse& response, std::string_view name) {
  auto it = response.find(boost::beast::string_view(name.data(), name.size()));
  if (it == response.end()) return "<missing>";
  return std::string(it->value());
}

bool IsRequestId(std::string_view id) {
  if (id.size() != 52) return false;
  for (char c : id) {
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) return false;
  }
  return true;
}

// The headers every answer of the wire protocol carries.
void ExpectWireHeaders(const HttpResponse& response,
                       std::string_view content_type = "application/x-amz-json-1.0") {
  EXPECT_EQ(Header(response, "Content-Type"), content_type);
  const std::string id = Header(response, "x-amzn-RequestId");
  EXPECT_TRUE(IsRequestId(id)) << "x-amzn-RequestId: " << id;
  EXPECT_EQ(Header(response, "x-amz-crc32"), std::to_string(Crc32(response.body())))
      << "body: " << response.body();
  EXPECT_EQ(Header(response, "Content-Length"), std::to_string(response.body().size()));
  // DynamoDB's endpoint sends Server: Server and an IMF-fixdate Date on every answer.
  EXPECT_EQ(Header(response, "Server"), "Server");
  const std::string date = Header(response, "Date");
  EXPECT_TRUE(
      std::regex_match(date, std::regex(R"((Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d )"
                                        R"((Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) )"
                                        R"(20\d\d \d\d:\d\d:\d\d GMT)")))
      << "Date: " << date;
}

HttpRequest Post(std::string_view target, std::string_view body,
                 std::string_view content_type = "application/x-amz-json-1.0",
                 unsigned version = 11) {
  HttpRequest request(http::verb::post, "/", version);
  request.set(http::field::host, "localhost:8000");
  if (!target.empty()) request.set("X-Amz-Target", std::string(target));
  if (!content_type.empty()) request.set(http::field::content_type, std::string(content_type));
  request.body() = std::string(body);
  request.prepare_payload();
  return request;
}

constexpr std::string_view kCreateTable =
    R"({"TableName":"Tbl","BillingMode":"PAY_PER_REQUEST",)"
    R"("AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],)"
    R"("KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]})";

class HandlerTest : public ::testing::Test {
 protected:
  HttpResponse Call(const HttpRequest& request) { return HandleRequest(db_, request); }

  Database db_;
};

TEST(Crc32Test, KnownVector) {
  EXPECT_EQ(Crc32("123456789"), 0xCBF43926u);
  EXPECT_EQ(Crc32(""), 0u);
}

TEST_F(HandlerTest, OperationsEndToEndCarryWireHeaders) {
  HttpResponse created = Call(Post("DynamoDB_20120810.CreateTable", kCreateTable));
  EXPECT_EQ(created.result(), http::status::ok) << created.body();
  ExpectWireHeaders(created);
  EXPECT_NE(created.body().find(R"("TableName":"Tbl")"), std::string::npos) << created.body();

  HttpResponse put = Call(Post("DynamoDB_20120810.PutItem",
                               R"({"TableName":"Tbl","Item":{"pk":{"S":"a"},"n":{"N":"7"}}})"));
  EXPECT_EQ(put.result(), http::status::ok) << put.body();
  EXPECT_EQ(put.body(), "{}");
  ExpectWireHeaders(put);

  HttpResponse get =
      Call(Post("DynamoDB_20120810.GetItem", R"({"TableName":"Tbl","Key":{"pk":{"S":"a"}}})"));
  EXPECT_EQ(get.result(), http::status::ok);
  EXPECT_EQ(get.body(), R"({"Item":{"n":{"N":"7"},"pk":{"S":"a"}}})");
  ExpectWireHeaders(get);

  // Errors from the engine carry the same headers, with their status.
  HttpResponse missing =
      Call(Post("DynamoDB_20120810.GetItem", R"({"TableName":"Nope","Key":{"pk":{"S":"a"}}})"));
  EXPECT_EQ(missing.result(), http::status::bad_request);
  EXPECT_NE(missing.body().find("ResourceNotFoundException"), std::string::npos);
  ExpectWireHeaders(missing);
}

TEST_F(HandlerTest, SameAnswerAsDispatch) {
  Call(Post("DynamoDB_20120810.CreateTable", kCreateTable));
  const std::string body = R"({"TableName":"Tbl","Key":{"pk":{"S":"zz"}}})";
  protocol::Response direct = protocol::Dispatch(db_, "GetItem", body);
  HttpResponse response = Call(Post("DynamoDB_20120810.GetItem", body));
  EXPECT_EQ(static_cast<int>(response.result_int()), direct.http_status);
  EXPECT_EQ(response.body(), direct.body);
}

TEST_F(HandlerTest, RequestIdsAreFreshPerResponse) {
  std::set<std::string> ids;
  for (int i = 0; i < 50; ++i) {
    ids.insert(Header(Call(Post("DynamoDB_20120810.ListTables", "{}")), "x-amzn-RequestId"));
  }
  EXPECT_EQ(ids.size(), 50u);
}

TEST_F(HandlerTest, AnswersInTheRequestHttpVersionUpTo11) {
  EXPECT_EQ(
      Call(Post("DynamoDB_20120810.ListTables", "{}", "application/x-amz-json-1.0", 10)).version(),
      10u);
  EXPECT_EQ(Call(Post("DynamoDB_20120810.ListTables", "{}")).version(), 11u);
  // A later 1.x or 2.0 in the request line: the highest version spoken (RFC 9110, 2.5).
  for (unsigned version : {12u, 20u}) {
    EXPECT_EQ(
        Call(Post("DynamoDB_20120810.ListTables", "{}", "application/x-amz-json-1.0", version))
            .version(),
        11u);
  }
}

TEST_F(HandlerTest, PartstoreTargetReachesOnlyTheExtensions) {
  // DynamoDB's operations are not extensions, an unknown extension is unknown, and the extensions
  // are not in DynamoDB's namespace.
  for (std::string_view target :
       {"Partstore_20261120.ListTables", "Partstore_20261120.Snapshot", "Partstore_20261120.",
        "DynamoDB_20120810.Partstore.AdvanceClock", "DynamoDB_20120810.Partstore.GetMetrics"}) {
    HttpResponse response = Call(Post(target, "{}"));
    EXPECT_EQ(response.result(), http::status::bad_request) << target;
    EXPECT_TRUE(response.body().starts_with(
        R"({"__type":"com.amazon.coral.service#UnknownOperationException")"))
        << target << ": " << response.body();
    ExpectWireHeaders(response);
  }
}

TEST_F(HandlerTest, PartstoreTargetReachesTheExtensions) {
  // With capacity off, an extension answers the engine's ValidationException, not
  // UnknownOperationException: the request reached it.
  HttpResponse response = Call(Post("Partstore_20261120.AdvanceClock", R"({"Seconds": 1})"));
  EXPECT_EQ(response.result(), http::status::bad_request);
  EXPECT_NE(response.body().find("ValidationException"), std::string::npos) << response.body();
}

TEST_F(HandlerTest, MissingOrForeignTargetIsUnknownOperation) {
  for (std::string_view target :
       {"", "DynamoDB_20120810", "DynamoDB_20120810.", "dynamodb_20120810.ListTables",
        "DynamoDB_20111205.ListTables", "AmazonSQS.ListQueues"}) {
    HttpResponse response = Call(Post(target, "{}"));
    EXPECT_EQ(response.result(), http::status::bad_request) << "target '" << target << "'";
    EXPECT_EQ(response.body(), kUnknownOperation) << "target '" << target << "'";
    ExpectWireHeaders(response);
  }
  // An unknown name in DynamoDB's (or DynamoDB Streams') namespace reaches Dispatch, which
  // names it.
  for (auto [target, named] : {std::pair{"DynamoDB_20120810.NoSuchOperation", "NoSuchOperation"},
                               {"DynamoDB_20120810.ListStreams", "ListStreams"},
                               {"DynamoDBStreams_20120810.GetItem", "DynamoDBStreams.GetItem"}}) {
    HttpResponse response = Call(Post(target, "{}"));
    EXPECT_EQ(response.result(), http::status::bad_request) << target;
    EXPECT_EQ(response.body(),
              std::string(R"({"__type":"com.amazon.coral.service#UnknownOperationException",)") +
                  R"("message":"Unknown operation exception: )" + named + R"("})");
  }
  // With an empty body too (the unknown operation is reported before the empty body).
  HttpResponse empty = Call(Post("", ""));
  EXPECT_EQ(empty.result(), http::status::bad_request);
  EXPECT_EQ(empty.body(), kUnknownOperation);
}

TEST_F(HandlerTest, StreamsOperationsAreServedUnderTheirOwnTarget) {
  // DynamoDB Streams' service (dynamodbstreams) on the same endpoint.
  HttpResponse response = Call(Post("DynamoDBStreams_20120810.ListStreams", "{}"));
  EXPECT_EQ(response.result(), http::status::ok) << response.body();
  EXPECT_EQ(response.body(), R"({"Streams":[]})");
  ExpectWireHeaders(response);
}

TEST_F(HandlerTest, ContentTypes) {
  for (std::string_view type :
       {"application/x-amz-json-1.0", "application/json",
        "application/x-amz-json-1.0; charset=utf-8", "application/json;charset=UTF-8",
        "application/json; charset=utf-8"}) {
    HttpResponse response = Call(Post("DynamoDB_20120810.ListTables", "{}", type));
    EXPECT_EQ(response.result(), http::status::ok) << type << ": " << response.body();
    EXPECT_EQ(response.body(), R"({"TableNames":[]})") << type;
    ExpectWireHeaders(response);  // always answered in DynamoDB's type
  }
  for (std::string_view type :
       {"text/plain", "application/xml", "application/x-amz-json-1.1", "text/plain; charset=utf-8",
        "application/jsonx", "multipart/form-data"}) {
    HttpResponse response = Call(Post("DynamoDB_20120810.ListTables", "{}", type));
    EXPECT_EQ(response.result(), http::status::bad_request) << type;
    EXPECT_EQ(response.body(), kUnknownOperation) << type;
    ExpectWireHeaders(response);
  }
}

TEST_F(HandlerTest, HealthCheck) {
  HttpRequest request(http::verb::get, "/", 11);
  request.set(http::field::host, "db.local:8000");
  HttpResponse response = Call(request);
  EXPECT_EQ(response.result(), http::status::ok);
  EXPECT_EQ(response.body(), "healthy: db.local:8000");  // DynamoDB names the host addressed
  ExpectWireHeaders(response, "text/plain");
  // Only the root path: DynamoDB answers others with a 4xx.
  for (const char* path : {"/abc", "/-", "/index.htm", "/health"}) {
    HttpRequest other(http::verb::get, path, 11);
    other.set(http::field::host, "db.local:8000");
    EXPECT_EQ(Call(other).result(), http::status::bad_request) << path;
  }
}

TEST_F(HandlerTest, DescribeEndpointsNamesTheHostAddressed) {
  HttpRequest request = Post("DynamoDB_20120810.DescribeEndpoints", "{}");
  request.set(http::field::host, "127.0.0.1:8123");
  HttpResponse response = Call(request);
  EXPECT_EQ(response.result(), http::status::ok);
  EXPECT_EQ(response.body(),
            R"({"Endpoints":[{"Address":"127.0.0.1:8123","CachePeriodInMinutes":1440}]})");
  ExpectWireHeaders(response);
  EXPECT_EQ(Call(Post("DynamoDB_20120810.DescribeEndpoints", "[]")).body(), kSerialization);
}

TEST_F(HandlerTest, OtherMethodsAndPathsAreUnknownOperations) {
  {
    HttpRequest request(http::verb::get, "/other", 11);
    HttpResponse response = Call(request);
    EXPECT_EQ(response.result(), http::status::bad_request);
    EXPECT_EQ(response.body(), kUnknownOperation);
    ExpectWireHeaders(response);
  }
  for (http::verb verb : {http::verb::put, http::verb::delete_, http::verb::patch}) {
    HttpRequest request = Post("DynamoDB_20120810.ListTables", "{}");
    request.method(verb);
    HttpResponse response = Call(request);
    EXPECT_EQ(response.result(), http::status::bad_request) << request.method_string();
    EXPECT_EQ(response.body(), kUnknownOperation);
    ExpectWireHeaders(response);
  }
}

// CORS as DynamoDB answers browsers (Alternator's test_cors.py, run against DynamoDB): nothing
// without Origin; with it, Allow-Origin and Expose-Headers on every answer; a preflight (OPTIONS)
// also echoes the requested method and headers and says how long to keep them.
TEST_F(HandlerTest, CorsHeadersOnlyForRequestsWithAnOrigin) {
  const std::array<std::string_view, 5> cors = {
      "Access-Control-Allow-Origin", "Access-Control-Expose-Headers", "Access-Control-Max-Age",
      "Access-Control-Allow-Methods", "Access-Control-Allow-Headers"};
  HttpRequest plain = Post("DynamoDB_20120810.ListTables", "{}");
  HttpResponse response = Call(plain);
  for (std::string_view name : cors) EXPECT_EQ(Header(response, name), "<missing>") << name;

  HttpRequest browser = Post("DynamoDB_20120810.ListTables", "{}");
  browser.set(http::field::origin, "http://app.example:3000");
  browser.set(http::field::access_control_request_method, "POST");  // ignored but on a preflight
  response = Call(browser);
  EXPECT_EQ(response.result(), http::status::ok);
  EXPECT_EQ(response.body(), R"({"TableNames":[]})");
  EXPECT_EQ(Header(response, "Access-Control-Allow-Origin"), "*");
  EXPECT_EQ(Header(response, "Access-Control-Expose-Headers"),
            "x-amzn-RequestId,x-amzn-ErrorType,x-amzn-ErrorMessage,Date,x-amz-crc32");
  EXPECT_EQ(Header(response, "Access-Control-Max-Age"), "<missing>");
  EXPECT_EQ(Header(response, "Access-Control-Allow-Methods"), "<missing>");
  ExpectWireHeaders(response);  // the others stay as they are
  // Errors too.
  browser.set("X-Amz-Target", "DynamoDB_20120810.Nope");
  response = Call(browser);
  EXPECT_EQ(response.result(), http::status::bad_request);
  EXPECT_EQ(Header(response, "Access-Control-Allow-Origin"), "*");

  HttpRequest preflight(http::verb::options, "/", 11);
  preflight.set(http::field::host, "localhost:8000");
  preflight.set(http::field::origin, "http://app.example:3000");
  preflight.set(http::field::access_control_request_method, "POST");
  preflight.set(http::field::access_control_request_headers,
                "content-type,x-amz-date,x-amz-target,authorization,amz-sdk-request");
  response = Call(preflight);
  EXPECT_EQ(response.result(), http::status::ok);
  EXPECT_EQ(response.body(), "");
  EXPECT_EQ(Header(response, "Access-Control-Allow-Origin"), "*");
  EXPECT_EQ(Header(response, "Access-Control-Allow-Methods"), "POST");
  EXPECT_EQ(Header(response, "Access-Control-Allow-Headers"),
            "content-type,x-amz-date,x-amz-target,authorization,amz-sdk-request");
  EXPECT_EQ(Header(response, "Access-Control-Max-Age"), "172800");
  ExpectWireHeaders(response);
  // An OPTIONS without Origin is not CORS: answered as any unknown request.
  preflight.erase(http::field::origin);
  response = Call(preflight);
  EXPECT_EQ(response.body(), kUnknownOperation);
  for (std::string_view name : cors) EXPECT_EQ(Header(response, name), "<missing>") << name;
}

// The requested method and headers are echoed without CR or LF: a value cannot end its header
// line and add one of its own.
TEST_F(HandlerTest, APreflightEchoCannotAddAHeader) {
  HttpRequest preflight(http::verb::options, "/", 11);
  preflight.set(http::field::host, "localhost:8000");
  preflight.set(http::field::origin, "http://app.example");
  preflight.set(http::field::access_control_request_method, "POST\r\nX-Injected: 1");
  preflight.set(http::field::access_control_request_headers, "a\nX-Other: 2");
  HttpResponse response = Call(preflight);
  EXPECT_EQ(response.result(), http::status::ok);
  EXPECT_EQ(Header(response, "X-Injected"), "<missing>");
  EXPECT_EQ(Header(response, "X-Other"), "<missing>");
  EXPECT_EQ(Header(response, "Access-Control-Allow-Methods"), "POSTX-Injected: 1");
  EXPECT_EQ(Header(response, "Access-Control-Allow-Headers"), "aX-Other: 2");
}

TEST(HandlerCorsTest, APreflightNeedsNoSignature) {
  Database db;
  Result<AccessKeys> keys = AccessKeys::Parse("AKID secret\n");
  ASSERT_TRUE(keys.ok());
  HttpRequest preflight(http::verb::options, "/", 11);
  preflight.set(http::field::host, "localhost:8000");
  preflight.set(http::field::origin, "http://app.example");
  preflight.set(http::field::access_control_request_method, "POST");
  HttpResponse response = HandleRequest(db, preflight, {.access_keys = &*keys});
  EXPECT_EQ(response.result(), http::status::ok);
  EXPECT_EQ(Header(response, "Access-Control-Allow-Methods"), "POST");
  // The request that follows must still be signed; its refusal carries CORS so that the browser
  // can read it.
  HttpRequest unsigned_request = Post("DynamoDB_20120810.ListTables", "{}");
  unsigned_request.set(http::field::origin, "http://app.example");
  response = HandleRequest(db, unsigned_request, {.access_keys = &*keys});
  EXPECT_EQ(response.result(), http::status::bad_request);
  EXPECT_NE(response.body().find("MissingAuthenticationTokenException"), std::string::npos);
  EXPECT_EQ(Header(response, "Access-Control-Allow-Origin"), "*");
}

TEST_F(HandlerTest, InvalidJsonIsSerializationException) {
  for (std::string_view body :
       std::initializer_list<std::string_view>{"{", "not json", "{\"TableName\":}", "[1,2", "{}{}",
                                               "\xff\xfe", std::string_view("{}\0x", 4)}) {
    HttpResponse response = Call(Post("DynamoDB_20120810.PutItem", body));
    EXPECT_EQ(response.result(), http::status::bad_request);
    EXPECT_EQ(response.body(), kSerialization);
    ExpectWireHeaders(response);
  }
  // A body that is not JSON is reported before an unknown operation (DynamoDB's order).
  EXPECT_EQ(Call(Post("", "nope")).body(), kSerialization);
  EXPECT_EQ(Call(Post("DynamoDB_20120810.NoSuchOperation", "nope")).body(), kSerialization);
  // An empty body for a known operation.
  EXPECT_EQ(Call(Post("DynamoDB_20120810.ListTables", "")).body(), kSerialization);
}

TEST_F(HandlerTest, DeepJsonNestingIsSerializationException) {
  HttpResponse response = Call(Post("DynamoDB_20120810.PutItem", std::string(100000, '[')));
  EXPECT_EQ(response.result(), http::status::bad_request);
  EXPECT_EQ(response.body(), kSerialization);
  std::string closed = std::string(50000, '[') + std::string(50000, ']');
  response = Call(Post("DynamoDB_20120810.PutItem", closed));
  EXPECT_EQ(response.result(), http::status::bad_request);
  EXPECT_EQ(response.body(), kSerialization);
}

// ---- Content codings (content_coding.h) ----

HttpRequest Compressed(std::string_view target, std::string_view body, std::string_view coding) {
  std::string encoded(body);
  if (coding == "gzip") encoded = *EncodeBody(body, ContentCoding::kGzip);
  if (coding == "deflate") encoded = *EncodeBody(body, ContentCoding::kDeflate);
  HttpRequest request = Post(target, encoded);
  request.set(http::field::content_encoding, std::string(coding));
  request.prepare_payload();
  return request;
}

TEST_F(HandlerTest, CompressedRequestsAreDecoded) {
  ASSERT_EQ(Call(Post("DynamoDB_20120810.CreateTable", kCreateTable)).result(), http::status::ok);
  for (std::string_view coding : {"gzip", "deflate"}) {
    const std::string key = std::string(coding);
    HttpResponse put = Call(Compressed(
        "DynamoDB_20120810.PutItem",
        R"({"TableName":"Tbl","Item":{"pk":{"S":")" + key + R"("},"n":{"N":"1"}}})", coding));
    EXPECT_EQ(put.result(), http::status::ok) << coding << ": " << put.body();
    HttpResponse get = Call(Post("DynamoDB_20120810.GetItem",
                                 R"({"TableName":"Tbl","Key":{"pk":{"S":")" + key + R"("}}})"));
    EXPECT_EQ(get.body(), R"({"Item":{"n":{"N":"1"},"pk":{"S":")" + key + R"("}}})") << coding;
  }
}

TEST_F(HandlerTest, UndecodableBodiesAreInternalServerErrorsAndChangeNothing) {
  ASSERT_EQ(Call(Post("DynamoDB_20120810.CreateTable", kCreateTable)).result(), http::status::ok);
  const std::string put = R"({"TableName":"Tbl","Item":{"pk":{"S":"x"}}})";
  std::string truncated = *EncodeBody(put, ContentCoding::kGzip);
  truncated.pop_back();
  const std::pair<std::string, std::string> cases[] = {
      {"gzip", put},        // not gzip at all
      {"gzip", ""},         // empty
      {"gzip", truncated},  // cut short
      {"garbage", put},     // a coding DynamoDB does not know
  };
  for (const auto& [coding, body] : cases) {
    HttpRequest request = Post("DynamoDB_20120810.PutItem", body);
    request.set(http::field::content_encoding, coding);
    HttpResponse response = Call(request);
    EXPECT_EQ(response.result(), http::status::internal_server_error) << coding;
    EXPECT_NE(response.body().find("InternalServerError"), std::string::npos) << response.body();
    ExpectWireHeaders(response);
  }
  HttpResponse get =
      Call(Post("DynamoDB_20120810.GetItem", R"({"TableName":"Tbl","Key":{"pk":{"S":"x"}}})"));
  EXPECT_EQ(get.body(), "{}");
}

TEST_F(HandlerTest, ADecodedBodyOverTheLimitIs413) {
  ASSERT_EQ(Call(Post("DynamoDB_20120810.CreateTable", kCreateTable)).result(), http::status::ok);
  // A PutItem padded with 2 MB of spaces: tiny compressed, over a 1 MB limit decoded.
  const std::string body =
      R"({"TableName":"Tbl",)" + std::string(2 << 20, ' ') + R"("Item":{"pk":{"S":"big"}}})";
  HttpResponse response = HandleRequest(db_, Compressed("DynamoDB_20120810.PutItem", body, "gzip"),
                                        {.max_body_bytes = 1 << 20});
  EXPECT_EQ(response.result(), http::status::payload_too_large);
  EXPECT_EQ(response.body(), R"({"__type":"com.amazon.coral.validate#ValidationException",)"
                             R"("message":"Request size exceeded 1048576 bytes"})");
  // Under the default 16 MB limit the same request is fine.
  EXPECT_EQ(Call(Compressed("DynamoDB_20120810.PutItem", body, "gzip")).result(), http::status::ok);
}

TEST_F(HandlerTest, ResponsesOf4KbOrMoreAreCompressedPerAcceptEncoding) {
  ASSERT_EQ(Call(Post("DynamoDB_20120810.CreateTable", kCreateTable)).result(), http::status::ok);
  const std::string big(5000, 'x');
  ASSERT_EQ(
      Call(Post("DynamoDB_20120810.PutItem",
                R"({"TableName":"Tbl","Item":{"pk":{"S":"big"},"x":{"S":")" + big + R"("}}})"))
          .result(),
      http::status::ok);
  const std::string get_big = R"({"TableName":"Tbl","Key":{"pk":{"S":"big"}}})";
  const std::string plain = Call(Post("DynamoDB_20120810.GetItem", get_big)).body();
  ASSERT_GE(plain.size(), kCompressionThreshold);
  for (std::string_view coding : {"gzip", "deflate"}) {
    HttpRequest request = Post("DynamoDB_20120810.GetItem", get_big);
    request.set(http::field::accept_encoding, std::string(coding) + ", identity");
    HttpResponse response = Call(request);
    EXPECT_EQ(Header(response, "Content-Encoding"), coding);
    ExpectWireHeaders(response);  // CRC-32 and Content-Length of the compressed bytes
    EXPECT_LT(response.body().size(), plain.size() / 10);
    std::string body = response.body();
    ASSERT_EQ(DecodeRequestBody(coding, body, 1 << 20), DecodeOutcome::kOk);
    EXPECT_EQ(body, plain);
  }
  // Without Accept-Encoding, or below the threshold, bodies go out as they are.
  EXPECT_EQ(Header(Call(Post("DynamoDB_20120810.GetItem", get_big)), "Content-Encoding"),
            "<missing>");
  HttpRequest small = Post("DynamoDB_20120810.ListTables", "{}");
  small.set(http::field::accept_encoding, "gzip");
  HttpResponse listed = Call(small);
  EXPECT_EQ(Header(listed, "Content-Encoding"), "<missing>");
  EXPECT_EQ(listed.body(), R"({"TableNames":["Tbl"]})");
}

TEST(RejectedRequestTest, DynamoDbShapedBody) {
  HttpResponse response =
      RejectedRequest(http::status::payload_too_large,
                      "com.amazon.coral.validate#ValidationException", "Request too large");
  EXPECT_EQ(response.result(), http::status::payload_too_large);
  EXPECT_EQ(response.version(), 11u);
  EXPECT_EQ(response.body(), R"({"__type":"com.amazon.coral.validate#ValidationException",)"
                             R"("message":"Request too large"})");
  ExpectWireHeaders(response);

  HttpResponse bare = RejectedRequest(http::status::bad_request,
                                      "com.amazon.coral.service#SerializationException", "", 10);
  EXPECT_EQ(bare.version(), 10u);
  EXPECT_EQ(bare.body(), kSerialization);
  ExpectWireHeaders(bare);
}

}  // namespace
}  // namespace partstore::server
