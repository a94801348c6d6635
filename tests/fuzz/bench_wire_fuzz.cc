// libFuzzer target for what `partstore bench`'s wire target (tools/bench/dynamodb_target.cc)
// takes from outside: the endpoint URL and whatever the server it is pointed at answers. The first
// input byte picks the parser (byte % 6), the rest is its input:
//   0  ParseUrl(text)
//   1  CountReadResponse(body): a GetItem / Query / Scan response
//   2  ErrorStatus(status, body): the HTTP status from the next two bytes (0..65535), then the body
//   3  ParseDescribeTable(body)
//   4  ParseBatchWriteResponse(body)
//   5  an HTTP response through Beast's response_parser<string_body> as HttpClient reads one
//      (default header limit; body limit 64 KB instead of the client's 256 MB, for speed), then its
//      body through CountReadResponse (200) or ErrorStatus (any other status)
// Never a crash, hang, exception or sanitizer report, and each result keeps its contract
// (dynamodb_response.h, http_client.h); violations abort. CountReadResponse runs twice per input:
// its per-thread reader must not carry state from one response to the next.
#include <boost/beast/http.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "tools/bench/dynamodb_response.h"
#include "tools/client/http_client.h"
#include "tools/protocol/attribute_value_json.h"

namespace {

namespace http = boost::beast::http;
using namespace partstore;
using namespace partstore::bench;
using namespace partstore::client;

constexpr size_t kBodyLimit = 64 * 1024;  // HttpClient's is 256 MB

void Check(bool condition) {
  if (!condition) std::abort();
}

void FuzzUrl(std::string_view text) {
  Result<Url> url = ParseUrl(text);
  if (!url.ok()) {
    Check(url.status().code() == Code::kValidation);
    Check(url.status().message().starts_with("bad endpoint URL \""));
    return;
  }
  Check(!url->host.empty());
  Check(url->port != 0);
  const bool v6 = url->host.find(':') != std::string::npos;
  const std::string host = v6 ? "[" + url->host + "]" : url->host;
  const uint16_t default_port = url->tls ? 443 : 80;
  Check(url->host_header ==
        (url->port == default_port ? host : host + ":" + std::to_string(url->port)));
  Check(url->ToString() == (url->tls ? "https://" : "http://") + url->host_header);
}

void CheckOutcome(std::string_view body, const Status& status, const ReadOutcome& outcome,
                  const std::vector<KeyPart>& last_key) {
  // Every item is at least "{}", every counted byte a byte of the body.
  Check(outcome.items >= 0 && static_cast<size_t>(outcome.items) <= body.size() / 2);
  Check(outcome.bytes <= body.size());
  Check(last_key.size() <= kMaxKeyParts);
  if (!status.ok()) {
    Check(status.code() == Code::kInternal);
    Check(!status.message().empty());
    Check(last_key.empty());
    return;
  }
  for (const KeyPart& part : last_key) Check(!part.type.empty());
}

void FuzzRead(std::string_view body) {
  ReadOutcome first, second;
  std::vector<KeyPart> first_key, second_key;
  const Status a = CountReadResponse(body, &first, &first_key);
  CheckOutcome(body, a, first, first_key);
  const Status b = CountReadResponse(body, &second, &second_key);
  Check(a.code() == b.code() && a.message() == b.message());
  Check(first.items == second.items && first.bytes == second.bytes);
  Check(first_key.size() == second_key.size());
  for (size_t i = 0; i < first_key.size(); ++i) {
    Check(first_key[i].name == second_key[i].name && first_key[i].type == second_key[i].type &&
          first_key[i].value == second_key[i].value);
  }
}

void FuzzError(int http_status, std::string_view body) {
  const Status s = ErrorStatus(http_status, body);
  Check(!s.ok());
  Check(s.message().size() <= kMaxErrorNameBytes + 2 + kMaxErrorMessageBytes);
  Check(s.message().find(": ") != std::string_view::npos);
}

void FuzzDescribeTable(std::string_view body) {
  Result<TableState> state = ParseDescribeTable(body);
  if (!state.ok()) {
    Check(state.status().code() == Code::kInternal);
    return;
  }
  Check(!state->status.empty());
}

void FuzzBatchWrite(std::string_view body) {
  std::string unprocessed = "stale";
  const Status s = ParseBatchWriteResponse(body, &unprocessed);
  if (!s.ok()) {
    Check(s.code() == Code::kInternal);
    Check(unprocessed.empty());
    return;
  }
  if (unprocessed.empty()) return;
  // What is sent back as RequestItems is a non-empty JSON object.
  rapidjson::Document doc;
  Check(protocol::ParseJson(unprocessed, &doc).ok());
  Check(doc.IsObject() && doc.MemberCount() > 0);
}

void FuzzHttpResponse(std::string_view input) {
  http::response_parser<http::string_body> parser;
  parser.body_limit(kBodyLimit);
  parser.eager(false);  // as HttpClient::Exchange: http::read_header, then http::read
  boost::beast::error_code ec;
  size_t used = 0;
  while (!parser.is_done()) {
    if (parser.is_header_done()) parser.eager(true);
    const size_t n = parser.put(boost::asio::buffer(input.data() + used, input.size() - used), ec);
    used += n;
    Check(used <= input.size());
    if (ec == http::error::need_more || (!ec && n == 0)) {
      ec = {};
      parser.put_eof(ec);  // the end of the input is the end of the stream
      break;
    }
    if (ec) return;  // HttpClient: "request to <url>: <error>"
  }
  if (ec || !parser.is_done()) return;
  const auto& response = parser.get();
  Check(response.body().size() <= kBodyLimit);
  const int status = static_cast<int>(response.result_int());
  Check(status >= 0 && status <= 999);
  if (status == 200) {
    FuzzRead(response.body());
  } else {
    FuzzError(status, response.body());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 6) {
    case 0:
      FuzzUrl(rest);
      break;
    case 1:
      FuzzRead(rest);
      break;
    case 2: {
      if (rest.size() < 2) return 0;
      const int status = static_cast<uint8_t>(rest[0]) << 8 | static_cast<uint8_t>(rest[1]);
      FuzzError(status, rest.substr(2));
      break;
    }
    case 3:
      FuzzDescribeTable(rest);
      break;
    case 4:
      FuzzBatchWrite(rest);
      break;
    case 5:
      FuzzHttpResponse(rest);
      break;
  }
  return 0;
}
