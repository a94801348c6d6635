// libFuzzer target for the server's HTTP side: arbitrary bytes go through a Beast
// request_parser<string_body> configured like a server connection (header limit 16 KB as the
// server; body limit 64 KB instead of 16 MB, for speed). The first input byte is a control byte:
// even, the rest is offered as one buffer; odd, in pieces of 1 + (byte >> 1) % 16 bytes (a socket
// delivers bytes in any split). Every message that parses goes
// through HandleRequest on a small database with a table, exactly as a connection would; the
// answer must be a well-formed response: a status DynamoDB uses, the wire headers
// (Content-Type, a 52-character x-amzn-RequestId, x-amz-crc32 equal to the body's CRC-32,
// Content-Length), a JSON object body with `__type` on errors (the GET / health check excepted),
// and HTTP/1.0 or 1.1 as the request's version asks. Pipelined messages after the first are parsed
// too. When the parser rejects the bytes, the answer the server would send (RejectedRequest) is
// checked the same way. Control bit 1 sends the body gzip-compressed (bit 2: deflate) with its
// Content-Encoding; a Content-Encoding header in the input reaches the decoder with the raw
// bytes; responses compressed per an Accept-Encoding header must decode to a JSON body. Never a
// crash, hang or exception. The database is rebuilt every kResetEvery inputs.
#include <rapidjson/document.h>

#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/http.hpp>
#include <boost/crc.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "tools/protocol/attribute_value_json.h"
#include "tools/protocol/dispatch.h"
#include "tools/server/authenticator.h"
#include "tools/protocol/content_coding.h"
#include "tools/server/server.h"

namespace {

namespace http = boost::beast::http;
namespace protocol = partstore::protocol;
namespace server = partstore::server;

constexpr int kResetEvery = 2000;
constexpr size_t kHeaderLimit = 16 * 1024;  // ServerOptions::max_header_bytes
constexpr size_t kBodyLimit = 64 * 1024;    // the server's is 16 MB
constexpr int kMaxMessages = 8;             // pipelined messages handled per input

void Check(bool condition) {
  if (!condition) std::abort();
}

std::unique_ptr<partstore::Database> MakeDatabase() {
  auto db = std::make_unique<partstore::Database>();
  protocol::Dispatch(*db, "CreateTable",
                     R"({"TableName":"Tab","BillingMode":"PAY_PER_REQUEST",)"
                     R"("AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},)"
                     R"({"AttributeName":"sk","AttributeType":"N"}],)"
                     R"("KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},)"
                     R"({"AttributeName":"sk","KeyType":"RANGE"}]})");
  for (int i = 0; i < 3; ++i) {
    protocol::Dispatch(*db, "PutItem",
                       R"({"TableName":"Tab","Item":{"pk":{"S":"a"},"sk":{"N":")" +
                           std::to_string(i) + R"("},"v":{"S":"x"}}})");
  }
  return db;
}

std::string_view Field(const server::HttpResponse& response, std::string_view name) {
  auto it = response.find(boost::beast::string_view(name.data(), name.size()));
  if (it == response.end()) return {};
  return std::string_view(it->value().data(), it->value().size());
}

void CheckResponse(const server::HttpResponse& response, unsigned version, bool health_check) {
  const unsigned status = response.result_int();
  Check(status == 200 || status == 400 || status == 413 || status == 431 || status == 500);
  Check(response.version() == (version <= 10 ? 10u : 11u));  // the highest 1.x spoken

  Check(Field(response, "Content-Type") ==
        (health_check ? std::string_view("text/plain") : "application/x-amz-json-1.0"));
  const std::string_view id = Field(response, "x-amzn-RequestId");
  Check(id.size() == 52);
  for (char c : id) Check((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'));
  boost::crc_32_type crc;
  crc.process_bytes(response.body().data(), response.body().size());
  Check(Field(response, "x-amz-crc32") == std::to_string(crc.checksum()));
  Check(Field(response, "Content-Length") == std::to_string(response.body().size()));

  // The response serializes to a message a client parses back to the same body.
  std::string wire;
  {
    server::HttpResponse copy = response;
    http::response_serializer<http::string_body> serializer(copy);
    boost::beast::error_code ec;
    do {
      serializer.next(ec, [&](boost::beast::error_code&, const auto& buffers) {
        wire += boost::beast::buffers_to_string(buffers);
        serializer.consume(boost::beast::buffer_bytes(buffers));
      });
      Check(!ec);
    } while (!serializer.is_done());
  }
  http::response_parser<http::string_body> reparse;
  reparse.eager(true);
  boost::beast::error_code ec;
  reparse.put(boost::asio::buffer(wire), ec);
  Check(!ec && reparse.is_done());
  Check(reparse.get().body() == response.body());

  if (health_check && status == 200) return;
  // A compressed answer (Accept-Encoding) decodes to the JSON body, which was at least 4 KB.
  std::string body = response.body();
  if (const std::string_view coding = Field(response, "Content-Encoding"); !coding.empty()) {
    Check(coding == "gzip" || coding == "deflate");
    Check(protocol::DecodeRequestBody(coding, body, 64 << 20) == protocol::DecodeOutcome::kOk);
    Check(body.size() >= protocol::kCompressionThreshold);
  }
  rapidjson::Document document;
  Check(protocol::ParseJson(body, &document).ok());
  Check(document.IsObject());
  if (status != 200) Check(document.HasMember("__type") && document["__type"].IsString());
}

// Feeds `input` to `parser` (whole, or `piece` bytes at a time); returns the bytes consumed.
size_t Feed(http::request_parser<http::string_body>& parser, std::string_view input, size_t piece,
            boost::beast::error_code& ec) {
  size_t used = 0;
  // Bytes are offered as a socket read would: the parser sees what has arrived so far.
  size_t available = piece == 0 ? input.size() : std::min(piece, input.size());
  while (!parser.is_done()) {
    const size_t n = parser.put(boost::asio::buffer(input.data() + used, available - used), ec);
    used += n;
    // need_more, or nothing taken (a body waiting for bytes): offer more, or end the stream.
    if (ec == http::error::need_more || (!ec && n == 0)) {
      ec = {};
      if (available == input.size()) {
        // The end of the input is the end of the stream.
        parser.put_eof(ec);
        return used;
      }
      available = std::min(input.size(), available + (piece == 0 ? input.size() : piece));
      continue;
    }
    if (ec) return used;
  }
  return used;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static std::unique_ptr<partstore::Database> db;
  static int runs = 0;
  if (!db || ++runs % kResetEvery == 0) db = MakeDatabase();
  if (size == 0) return 0;

  const size_t piece = (data[0] & 1) ? 1 + (data[0] >> 1) % 16 : 0;
  std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);

  for (int message = 0; message < kMaxMessages && !input.empty(); ++message) {
    http::request_parser<http::string_body> parser;
    parser.header_limit(static_cast<uint32_t>(kHeaderLimit));
    parser.body_limit(kBodyLimit);
    boost::beast::error_code ec;
    const size_t used = Feed(parser, input, piece, ec);
    Check(used <= input.size());
    input.remove_prefix(used);

    if (ec) {
      // What the server answers when the HTTP layer rejects a request.
      if (ec == http::error::partial_message) return 0;  // the connection is just closed
      server::HttpResponse rejected =
          ec == http::error::body_limit
              ? server::RejectedRequest(http::status::payload_too_large,
                                        "com.amazon.coral.validate#ValidationException",
                                        "Request size exceeded 65536 bytes")
          : ec == http::error::header_limit
              ? server::RejectedRequest(http::status::request_header_fields_too_large,
                                        "com.amazon.coral.service#SerializationException",
                                        "Request header fields too large")
              : server::RejectedRequest(http::status::bad_request,
                                        "com.amazon.coral.service#SerializationException",
                                        "Malformed HTTP request");
      CheckResponse(rejected, 11, false);
      return 0;
    }
    if (!parser.is_done()) return 0;

    server::HttpRequest request = parser.release();
    Check(request.body().size() <= kBodyLimit);
    if (data[0] & 2) {
      // The body as a client that compresses its requests sends it: gzip'd (deflate with bit 2),
      // so the decoder sees valid streams of every body, not only the rare valid random one.
      const bool deflate = data[0] & 4;
      request.body() = *protocol::EncodeBody(
          request.body(), deflate ? protocol::ContentCoding::kDeflate : protocol::ContentCoding::kGzip);
      request.set(http::field::content_encoding, deflate ? "deflate" : "gzip");
      request.prepare_payload();
    }
    const bool health_check = request.method() == http::verb::get && request.target() == "/";
    // The decoded body has the same limit as a plain one. Control bit 3: SigV4 required, so the
    // Authorization and X-Amz-Date headers of the input reach the authenticator's parser.
    static const server::AccessKeys keys = server::AccessKeys::Parse("AKIDFUZZ secret\n").value();
    server::HttpResponse response = server::HandleRequest(
        *db, request,
        {.max_body_bytes = kBodyLimit, .access_keys = (data[0] & 8) ? &keys : nullptr});
    CheckResponse(response, request.version(), health_check);
    if (!request.keep_alive()) return 0;  // the server closes the connection here
  }
  return 0;
}
