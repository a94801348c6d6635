// libFuzzer target for what `partstore bench`'s wire target (tools/bench/dynamodb_target.cc,
// through RemoteStore and its HttpClient) takes from outside: the endpoint URL and the HTTP
// responses of the server it is pointed at. The first input byte picks the parser (byte % 2), the
// rest is its input:
//   0  ParseUrl(text)
//   1  an HTTP response through Beast's response_parser<string_body> as HttpClient reads one
//      (default header limit; body limit 64 KB instead of the client's 256 MB, for speed), then,
//      for a status other than 200, its body through DecodeErrorResponse (RemoteStore's decoding
//      of 200 bodies is client_response_fuzz's)
// Never a crash, hang, exception or sanitizer report, and each result keeps its contract
// (http_client.h, error_json.h); violations abort.
#include <boost/beast/http.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "tools/client/http_client.h"
#include "tools/protocol/error_json.h"

namespace {

namespace http = boost::beast::http;
using namespace partstore;
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
  if (status != 200) {
    // What RemoteStore makes of an error answer: always an error (its reading of a 200 body is
    // client_response_fuzz's).
    Check(!protocol::DecodeErrorResponse(status, response.body(), "fuzz").ok());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] % 2 == 0) {
    FuzzUrl(rest);
  } else {
    FuzzHttpResponse(rest);
  }
  return 0;
}
