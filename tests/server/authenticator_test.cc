// Authentication (tools/server/authenticator.h): the access-key file, and each of DynamoDB's
// answers to a request that is unsigned, incompletely signed, out of date, scoped to another
// region or service, signed by an unknown key or with a wrong signature. Requests are signed with
// SigV4Authorization, which sigv4_test.cc checks against AWS's and botocore's vectors.
#include "tools/server/authenticator.h"

#include <gtest/gtest.h>

#include <boost/beast/http.hpp>
#include <string>
#include <vector>

#include "tools/protocol/content_coding.h"
#include "tools/protocol/sigv4.h"

namespace partstore::server {
namespace {

namespace http = boost::beast::http;
using protocol::ContentCoding;
using protocol::EncodeBody;
using protocol::SigV4Authorization;
using protocol::SigV4Header;
using protocol::SigV4Request;

constexpr int64_t kNow = 1795000000;  // 2026-11-18T11:06:40Z
constexpr std::string_view kNowAmz = "20261118T110640Z";
constexpr std::string_view kKeyFile =
    "# partstore serve --auth sigv4\n"
    "AKIDEXAMPLE wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY\n"
    "\n"
    "  other\tsecret-2  \n";

AccessKeys Keys() { return AccessKeys::Parse(kKeyFile).value(); }

// A DynamoDB PutItem as an SDK signs it (for `region` and `service`: what the credential scope
// names).
HttpRequest Signed(std::string_view key_id, std::string_view secret, std::string_view amz_date,
                   std::string body = R"({"TableName":"Tab"})",
                   std::string_view region = "us-east-1", std::string_view service = "dynamodb") {
  HttpRequest request(http::verb::post, "/", 11);
  request.set(http::field::host, "localhost:8000");
  request.set(http::field::content_type, "application/x-amz-json-1.0");
  request.set("X-Amz-Date", std::string(amz_date));
  request.set("X-Amz-Target", "DynamoDB_20120810.PutItem");
  request.body() = std::move(body);
  request.prepare_payload();
  const std::string content_type = "application/x-amz-json-1.0";
  const std::string host = "localhost:8000";
  const std::string target = "DynamoDB_20120810.PutItem";
  const SigV4Header headers[] = {{"content-type", content_type},
                                 {"host", host},
                                 {"x-amz-date", amz_date},
                                 {"x-amz-target", target}};
  SigV4Request to_sign;
  to_sign.headers = headers;
  to_sign.body = request.body();
  request.set(http::field::authorization,
              SigV4Authorization(to_sign, {std::string(key_id), std::string(secret), ""}, region,
                                 service, amz_date));
  return request;
}

HttpRequest Good() {
  return Signed("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", kNowAmz);
}

std::string Outcome(const HttpRequest& request, int64_t now = kNow,
                    std::string_view region = "us-east-1") {
  const std::optional<AuthFailure> failure = Authenticate(request, Keys(), region, now);
  if (!failure) return "accepted";
  return std::string(failure->type) + ": " + failure->message;
}

TEST(AccessKeys, ParsesLinesAndRefusesBadOnes) {
  const AccessKeys keys = Keys();
  EXPECT_EQ(keys.size(), 2u);
  ASSERT_NE(keys.Find("other"), nullptr);
  EXPECT_EQ(*keys.Find("other"), "secret-2");
  EXPECT_EQ(keys.Find("nobody"), nullptr);
  EXPECT_EQ(AccessKeys::Parse("a b\nlonely\n").status().message(),
            "access keys, line 2: expected \"<access key id> <secret access key>\"");
  EXPECT_EQ(AccessKeys::Parse("a b\na c\n").status().message(),
            "access keys, line 2: access key id a appears twice");
  EXPECT_EQ(AccessKeys::Parse("a b c\n").status().message(),
            "access keys, line 1: a secret access key has no blanks");
  EXPECT_EQ(AccessKeys::Parse("# nothing\n").status().message(),
            "access keys: the file names no key");
  EXPECT_FALSE(AccessKeys::Load("/nonexistent/keys").ok());
}

TEST(Authenticate, ASignedRequestIsAccepted) {
  EXPECT_EQ(Outcome(Good()), "accepted");
  EXPECT_EQ(Outcome(Signed("other", "secret-2", kNowAmz)), "accepted");
  // 14 minutes of skew either way is fine.
  EXPECT_EQ(Outcome(Good(), kNow + 14 * 60), "accepted");
  EXPECT_EQ(Outcome(Good(), kNow - 14 * 60), "accepted");
}

TEST(Authenticate, CommasOrBlanksSeparateTheParameters) {
  HttpRequest request = Good();
  std::string header(request[http::field::authorization]);
  // "AWS4-HMAC-SHA256 Credential=..., SignedHeaders=..., Signature=..." without the blanks.
  std::string packed = "AWS4-HMAC-SHA256 ";
  for (char c : header.substr(17)) {
    if (c != ' ') packed += c;
  }
  request.set(http::field::authorization, packed);
  EXPECT_EQ(Outcome(request), "accepted");
}

TEST(Authenticate, UnsignedAndIncomplete) {
  HttpRequest request = Good();
  request.erase(http::field::authorization);
  EXPECT_EQ(Outcome(request),
            "MissingAuthenticationTokenException: Request is missing Authentication Token");
  request.set(http::field::authorization, "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/x");
  EXPECT_EQ(Outcome(request),
            "IncompleteSignatureException: Authorization header requires 'SignedHeaders' "
            "parameter. Authorization header requires 'Signature' parameter.");
  request.set(http::field::authorization, "Basic dXNlcjpwYXNz");
  EXPECT_EQ(Outcome(request), "IncompleteSignatureException: Unsupported AWS 'algorithm': 'Basic'");
  // Quoted client bytes stay printable ASCII (the error body must stay valid JSON; the fuzzer
  // found this).
  request.set(http::field::authorization, std::string("\xff\x01\"x y"));
  EXPECT_EQ(Outcome(request), "IncompleteSignatureException: Unsupported AWS 'algorithm': '??\"x'");
  HttpRequest undated = Good();
  undated.erase("X-Amz-Date");
  EXPECT_EQ(Outcome(undated),
            "IncompleteSignatureException: Authorization header requires existence of either a "
            "'X-Amz-Date' or a 'Date' header.");
}

TEST(Authenticate, OutOfDateBeforeTheKeyIsLookedUp) {
  // Scylla's test_authorization.py, run against DynamoDB: a bogus credential with an old date is
  // "expired", with a far future one "not yet current".
  HttpRequest old = Good();
  old.set("X-Amz-Date", "20170101T010101Z");
  old.set(http::field::authorization,
          "AWS4-HMAC-SHA256 Credential=alternator/2/3/4/aws4_request SignedHeaders=x-amz-date;host "
          "Signature=123");
  EXPECT_EQ(Outcome(old),
            "InvalidSignatureException: Signature expired: 20170101T010101Z is now earlier than "
            "20261118T105140Z (20261118T110640Z - 15 min.)");
  old.set("X-Amz-Date", "30200101T010101Z");
  EXPECT_EQ(Outcome(old),
            "InvalidSignatureException: Signature not yet current: 30200101T010101Z is still later "
            "than 20261118T112140Z (20261118T110640Z + 15 min.)");
  EXPECT_EQ(Outcome(Good(), kNow + 15 * 60).substr(0, 45),
            "InvalidSignatureException: Signature expired:");
}

TEST(Authenticate, UnknownKeysAndWrongSignatures) {
  EXPECT_EQ(Outcome(Signed("AKIDNOBODY", "whatever", kNowAmz)),
            "UnrecognizedClientException: The security token included in the request is invalid.");
  const std::string mismatch =
      "InvalidSignatureException: The request signature we calculated does not match the "
      "signature you provided. Check your AWS Secret Access Key and signing method. Consult the "
      "service documentation for details.";
  EXPECT_EQ(Outcome(Signed("AKIDEXAMPLE", "wrong-secret", kNowAmz)), mismatch);
  HttpRequest tampered = Good();
  tampered.body() = R"({"TableName":"Other"})";
  EXPECT_EQ(Outcome(tampered), mismatch);
  HttpRequest retargeted = Good();
  retargeted.set("X-Amz-Target", "DynamoDB_20120810.DeleteTable");
  EXPECT_EQ(Outcome(retargeted), mismatch);
  HttpRequest bad_scope = Good();
  bad_scope.set(http::field::authorization,
                "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261118/us-east-1/dynamodb, "
                "SignedHeaders=host, Signature=00");
  EXPECT_EQ(Outcome(bad_scope),
            "IncompleteSignatureException: Credential should be scoped with a valid terminator: "
            "'aws4_request', not 'dynamodb'.");
}

TEST(Authenticate, TheScopeMustNameTheServersRegionAndDynamoDb) {
  constexpr std::string_view kSecret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
  const std::string body = R"({"TableName":"Tab"})";
  // A valid signature, but for another region: DynamoDB's text, with its trailing blank.
  EXPECT_EQ(Outcome(Signed("AKIDEXAMPLE", kSecret, kNowAmz, body, "eu-west-1")),
            "InvalidSignatureException: Credential should be scoped to a valid region. ");
  // The same request is fine for a server of that region, and the default one is not.
  EXPECT_EQ(Outcome(Signed("AKIDEXAMPLE", kSecret, kNowAmz, body, "eu-west-1"), kNow, "eu-west-1"),
            "accepted");
  EXPECT_EQ(Outcome(Good(), kNow, "eu-west-1"),
            "InvalidSignatureException: Credential should be scoped to a valid region. ");
  // Another service; both wrong: both sentences, region first.
  EXPECT_EQ(Outcome(Signed("AKIDEXAMPLE", kSecret, kNowAmz, body, "us-east-1", "s3")),
            "InvalidSignatureException: Credential should be scoped to correct service: "
            "'dynamodb'. ");
  EXPECT_EQ(Outcome(Signed("AKIDEXAMPLE", kSecret, kNowAmz, body, "us-west-2", "s3")),
            "InvalidSignatureException: Credential should be scoped to a valid region. "
            "Credential should be scoped to correct service: 'dynamodb'. ");
  // Region names are compared exactly (case included), and the scope is checked before the key:
  // an unknown key with a wrong scope is told about the scope.
  EXPECT_EQ(Outcome(Signed("AKIDEXAMPLE", kSecret, kNowAmz, body, "US-EAST-1")),
            "InvalidSignatureException: Credential should be scoped to a valid region. ");
  EXPECT_EQ(Outcome(Signed("AKIDNOBODY", "whatever", kNowAmz, body, "eu-west-1")),
            "InvalidSignatureException: Credential should be scoped to a valid region. ");
  // DynamoDB Streams' clients sign with the service name "dynamodb" too (botocore's
  // dynamodbstreams model: signingName "dynamodb"): a GetRecords signed so is accepted.
  HttpRequest streams = Good();
  streams.set("X-Amz-Target", "DynamoDBStreams_20120810.GetRecords");
  const std::string content_type = "application/x-amz-json-1.0";
  const std::string host = "localhost:8000";
  const std::string target = "DynamoDBStreams_20120810.GetRecords";
  const SigV4Header headers[] = {{"content-type", content_type},
                                 {"host", host},
                                 {"x-amz-date", kNowAmz},
                                 {"x-amz-target", target}};
  SigV4Request to_sign;
  to_sign.headers = headers;
  to_sign.body = streams.body();
  streams.set(http::field::authorization,
              SigV4Authorization(to_sign, {"AKIDEXAMPLE", std::string(kSecret), ""}, "us-east-1",
                                 "dynamodb", kNowAmz));
  EXPECT_EQ(Outcome(streams), "accepted");
}

TEST(Authenticate, ThroughTheHandler) {
  Database db;
  const AccessKeys keys = Keys();
  const HandlerOptions options{.access_keys = &keys, .now_seconds = kNow};
  // The health check needs no signature.
  HttpRequest health(http::verb::get, "/", 11);
  health.set(http::field::host, "localhost:8000");
  EXPECT_EQ(HandleRequest(db, health, options).result(), http::status::ok);
  HttpRequest unsigned_request = Good();
  unsigned_request.erase(http::field::authorization);
  HttpResponse refused = HandleRequest(db, unsigned_request, options);
  EXPECT_EQ(refused.result(), http::status::bad_request);
  EXPECT_EQ(refused.body(),
            R"({"__type":"com.amazon.coral.service#MissingAuthenticationTokenException",)"
            R"("message":"Request is missing Authentication Token"})");
  // A signed request reaches the operation (which finds its Item missing).
  HttpResponse answered = HandleRequest(db, Good(), options);
  EXPECT_NE(answered.body().find("Value null at 'item'"), std::string::npos) << answered.body();
  // A compressed body is signed as sent: compressed.
  HttpRequest compressed =
      Signed("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", kNowAmz,
             *EncodeBody(R"({"TableName":"Tab"})", ContentCoding::kGzip));
  compressed.set(http::field::content_encoding, "gzip");
  answered = HandleRequest(db, compressed, options);
  EXPECT_NE(answered.body().find("Value null at 'item'"), std::string::npos) << answered.body();
  // The region is the backend's: a database of eu-west-1 refuses a us-east-1 signature.
  DatabaseOptions european_options;
  european_options.region = "eu-west-1";
  Database european(european_options);
  HttpResponse wrong_region = HandleRequest(european, Good(), options);
  EXPECT_EQ(wrong_region.result(), http::status::bad_request);
  EXPECT_EQ(wrong_region.body(),
            R"({"__type":"com.amazon.coral.service#InvalidSignatureException",)"
            R"("message":"Credential should be scoped to a valid region. "})");
  // Without keys, anything goes (the default).
  EXPECT_NE(HandleRequest(db, unsigned_request).body().find("Value null at 'item'"),
            std::string::npos);
}

}  // namespace
}  // namespace partstore::server
