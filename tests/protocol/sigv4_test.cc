// SigV4 (tools/protocol/sigv4.h) against vectors computed by others:
//
// 1. AWS's documented example (the SigV4 documentation's walkthrough, "GET
//    https://iam.amazonaws.com/?Action=ListUsers&Version=2010-05-08" at 20150830T123600Z with the
//    example secret): its canonical request, signing key and signature as published.
// 2. DynamoDB POSTs signed by botocore (Debian's python3-botocore 1.43), offline, with the clock
//    fixed by patching botocore.auth.get_current_datetime:
//
//      import datetime, botocore.auth
//      from botocore.auth import SigV4Auth
//      from botocore.awsrequest import AWSRequest
//      from botocore.credentials import Credentials
//      fixed = datetime.datetime(2026, 11, 21, 12, 0, 0)
//      botocore.auth.get_current_datetime = lambda remove_tzinfo=True: fixed
//      def sign(host, region, target, body, token=None, scheme="https"):
//          creds = Credentials("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", token)
//          req = AWSRequest(method="POST", url="%s://%s/" % (scheme, host), data=body.encode(),
//                           headers={"Content-Type": "application/x-amz-json-1.0",
//                                    "X-Amz-Target": "DynamoDB_20120810." + target,
//                                    "Host": host})
//          SigV4Auth(creds, "dynamodb", region).add_auth(req)
//          print(req.headers["Authorization"])
//
//    called with the hosts, regions, bodies and token of the tests below.
#include "tools/protocol/sigv4.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace partstore::protocol {
namespace {

// A POST / of `body` with `headers`.
SigV4Request Post(std::span<const SigV4Header> headers, std::string_view body) {
  SigV4Request request;
  request.headers = headers;
  request.body = body;
  return request;
}

const SigV4Credentials kExample{"AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", ""};

TEST(SigV4Test, AwsDocumentedIamExample) {
  EXPECT_EQ(SigV4SigningKeyHex(kExample.secret_access_key, "20150830", "us-east-1", "iam"),
            "c4afb1cc5771d871763a393e44b703571b55cc28424d1a5e86da6ed3c154a4b9");
  const SigV4Header headers[] = {
      {"Host", "iam.amazonaws.com"},
      {"Content-Type", "application/x-www-form-urlencoded; charset=utf-8"},
      {"X-Amz-Date", "20150830T123600Z"}};
  SigV4Request request = Post(headers, "");
  request.method = "GET";
  request.query = "Action=ListUsers&Version=2010-05-08";
  EXPECT_EQ(SigV4CanonicalRequest(request),
            "GET\n/\nAction=ListUsers&Version=2010-05-08\n"
            "content-type:application/x-www-form-urlencoded; charset=utf-8\n"
            "host:iam.amazonaws.com\nx-amz-date:20150830T123600Z\n\n"
            "content-type;host;x-amz-date\n"
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(SigV4Authorization(request, kExample, "us-east-1", "iam", "20150830T123600Z"),
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, "
            "SignedHeaders=content-type;host;x-amz-date, "
            "Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7");
}

// The headers partstore bench signs for a DynamoDB call.
std::vector<SigV4Header> DynamoDbHeaders(std::string_view host, std::string_view target,
                                         std::string_view token) {
  std::vector<SigV4Header> headers = {{"content-type", "application/x-amz-json-1.0"},
                                      {"host", host},
                                      {"x-amz-date", "20261121T120000Z"},
                                      {"x-amz-target", target}};
  if (!token.empty()) headers.push_back({"x-amz-security-token", token});
  return headers;
}

struct BotocoreVector {
  std::string host, region, target, body, token, authorization;
};

std::vector<BotocoreVector> BotocoreVectors() {
  return {
      {"dynamodb.us-east-1.amazonaws.com", "us-east-1", "DynamoDB_20120810.GetItem",
       R"({"TableName":"usertable","Key":{"YCSB_KEY":{"S":"user1003"}},"ConsistentRead":false})",
       "",
       "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261121/us-east-1/dynamodb/aws4_request, "
       "SignedHeaders=content-type;host;x-amz-date;x-amz-target, "
       "Signature=2149c6c3b0c99a13ee19e3bdc7a8940509c7e5bfbd44afab9fc78a118af8a807"},
      // Over http with a port in Host, a session token, escapes and UTF-8 in the body.
      {"127.0.0.1:8000", "eu-west-3", "DynamoDB_20120810.PutItem",
       "{\"TableName\":\"t\",\"Item\":{\"PK\":{\"S\":\"USER#1\"},\"name\":{\"S\":\"Ann \\\"A\\\" "
       "\xc3\xa9\"}}}",
       "FQoGZXIvYXdzEXAMPLE/session+token==",
       "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261121/eu-west-3/dynamodb/aws4_request, "
       "SignedHeaders=content-type;host;x-amz-date;x-amz-security-token;x-amz-target, "
       "Signature=52572b1ad8022dbfe2ffa48b7f5ddb2e6a25bc5226abb1b6b29222a0aa6ab77f"},
      {"dynamodb.ap-southeast-2.amazonaws.com", "ap-southeast-2", "DynamoDB_20120810.ListTables",
       "{}", "",
       "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261121/ap-southeast-2/dynamodb/aws4_request, "
       "SignedHeaders=content-type;host;x-amz-date;x-amz-target, "
       "Signature=f4b2262f3361e89eb4ef5d2d7f2557bebb41083f01649c65ab1d112005e37aad"},
  };
}

TEST(SigV4Test, MatchesBotocoreOnDynamoDbPosts) {
  for (const BotocoreVector& v : BotocoreVectors()) {
    SCOPED_TRACE(v.target);
    SigV4Credentials credentials = kExample;
    credentials.session_token = v.token;
    const std::vector<SigV4Header> headers = DynamoDbHeaders(v.host, v.target, v.token);
    const SigV4Request request = Post(headers, v.body);
    EXPECT_EQ(SigV4Authorization(request, credentials, v.region, "dynamodb", "20261121T120000Z"),
              v.authorization);
  }
}

// One signer for a stream of requests (its key cache, its reused buffers, a date change) gives
// what the pure function gives.
TEST(SigV4Test, SignerMatchesThePureFunctionAcrossDates) {
  const std::vector<BotocoreVector> vectors = BotocoreVectors();
  const BotocoreVector& v = vectors[0];
  SigV4Signer signer(kExample, v.region, "dynamodb");
  std::string out;
  for (std::string_view date : {"20261121T120000Z", "20261121T235959Z", "20261122T000001Z",
                                "20261121T120000Z"}) {
    std::vector<SigV4Header> headers = DynamoDbHeaders(v.host, v.target, "");
    headers[2].value = date;
    const SigV4Request request = Post(headers, v.body);
    signer.Authorization(request, date, &out);
    EXPECT_EQ(out, SigV4Authorization(request, kExample, v.region, "dynamodb", date));
  }
  std::vector<SigV4Header> headers = DynamoDbHeaders(v.host, v.target, "");
  signer.Authorization(Post(headers, v.body), "20261121T120000Z", &out);
  EXPECT_EQ(out, v.authorization);
}

// Names are signed lower-cased and sorted; values trimmed, inner blanks collapsed.
TEST(SigV4Test, CanonicalHeaders) {
  const SigV4Header headers[] = {{"X-Amz-Target", "  DynamoDB_20120810.GetItem "},
                                 {"Host", "h"},
                                 {"My-Header", "a   b\t c"}};
  EXPECT_EQ(SigV4CanonicalRequest(Post(headers, "{}")),
            "POST\n/\n\nhost:h\nmy-header:a b c\nx-amz-target:DynamoDB_20120810.GetItem\n\n"
            "host;my-header;x-amz-target\n"
            "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a");
}

}  // namespace
}  // namespace partstore::protocol
