// The handler: see handler.h.
#include "tools/server/handler.h"

#include <zlib.h>

#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <random>

#include "tools/protocol/content_coding.h"
#include "tools/protocol/dispatch.h"
#include "tools/protocol/errors.h"
#include "tools/server/authenticator.h"
#include "tools/server/server_metrics.h"

namespace partstore::server {

namespace http = boost::beast::http;
using protocol::ChooseResponseCoding;
using protocol::ContentCoding;
using protocol::ContentCodingName;
using protocol::DecodeOutcome;
using protocol::DecodeRequestBody;
using protocol::EncodeBody;
using protocol::kCompressionThreshold;

namespace {

constexpr std::string_view kJsonContentType = "application/x-amz-json-1.0";
constexpr std::string_view kDynamoDbPrefix = "DynamoDB_20120810.";
constexpr std::string_view kPartstorePrefix = "Partstore_20261120.";
constexpr std::string_view kStreamsPrefix = "DynamoDBStreams_20120810.";

// DynamoDB's request ids: 52 characters of [A-Z0-9].
std::string NewRequestId() {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  thread_local std::mt19937_64 rng(std::random_device{}());
  std::string id(52, 'A');
  // 12 characters per 64-bit draw (36^12 < 2^64): 5 draws instead of 52.
  uint64_t bits = 0;
  for (size_t i = 0; i < id.size(); ++i) {
    if (i % 12 == 0) bits = rng();
    id[i] = kAlphabet[bits % 36];
    bits /= 36;
  }
  return id;
}

// The Date header (RFC 9110's IMF-fixdate), formatted once per second per thread.
std::string_view HttpDate() {
  thread_local time_t formatted_for = -1;
  thread_local char text[40];
  const time_t now = time(nullptr);
  if (now != formatted_for) {
    static constexpr const char* kDays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
    static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                              "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    struct tm utc;
    gmtime_r(&now, &utc);
    snprintf(text, sizeof(text), "%s, %02d %s %04d %02d:%02d:%02d GMT", kDays[utc.tm_wday],
             utc.tm_mday, kMonths[utc.tm_mon], utc.tm_year + 1900, utc.tm_hour, utc.tm_min,
             utc.tm_sec);
    formatted_for = now;
  }
  return text;
}

void AppendNumber(uint64_t n, std::string& out) {
  char digits[20];
  const auto end = std::to_chars(digits, digits + sizeof(digits), n).ptr;
  out.append(digits, end);
}

void AppendHeader(std::string_view name, std::string_view value, std::string& out) {
  out += name;
  out += ": ";
  out += value;
  out += "\r\n";
}

Reply PlainText(std::string_view content_type, std::string body) {
  Reply reply;
  reply.content_type = content_type;
  reply.body = std::move(body);
  return reply;
}

Reply FromDispatch(protocol::Response r, ContentCoding coding = ContentCoding::kIdentity) {
  Reply reply;
  reply.status = static_cast<http::status>(r.http_status);
  reply.body = std::move(r.body);
  // Compressed when Accept-Encoding chose a coding and the body reaches DynamoDB's threshold.
  if (coding != ContentCoding::kIdentity && reply.body.size() >= kCompressionThreshold) {
    if (std::optional<std::string> compressed = EncodeBody(reply.body, coding)) {
      reply.body = std::move(*compressed);
      reply.content_encoding = ContentCodingName(coding);
    }
  }
  return reply;
}

// The exception an error answer names (its __type after '#'), or "" for a success.
std::string_view ErrorName(const Reply& answer) {
  if (answer.status == http::status::ok) return {};
  constexpr std::string_view kType = "\"__type\":\"";
  const size_t at = answer.content_encoding.empty() ? answer.body.find(kType) : std::string::npos;
  // An error body compressed for the client (over 4 KB) is not read back.
  if (at == std::string::npos) return "Unknown";
  const size_t start = at + kType.size();
  const size_t end = answer.body.find('"', start);
  if (end == std::string::npos) return "Unknown";
  std::string_view type(answer.body.data() + start, end - start);
  if (const size_t hash = type.rfind('#'); hash != std::string_view::npos) {
    type.remove_prefix(hash + 1);
  }
  return type;
}

std::string_view HeaderValue(const HttpRequest& request, http::field field) {
  auto it = request.find(field);
  if (it == request.end()) return {};
  return std::string_view(it->value().data(), it->value().size());
}

}  // namespace

Reply Rejection(http::status status, std::string_view type, std::string_view message) {
  Reply reply;
  reply.status = status;
  std::string& body = reply.body;
  body = "{\"__type\":\"";
  body += type;
  body += "\"";
  if (!message.empty()) {
    body += ",\"message\":\"";
    // JSON-escaped: an authentication message may quote what the client sent.
    for (char c : message) {
      if (c == '"' || c == '\\') {
        body += '\\';
        body += c;
      } else if (static_cast<unsigned char>(c) < 0x20) {
        static constexpr char kHex[] = "0123456789abcdef";
        body += "\\u00";
        body += kHex[(c >> 4) & 0xF];
        body += kHex[c & 0xF];
      } else {
        body += c;
      }
    }
    body += "\"";
  }
  body += "}";
  return reply;
}

void WriteHead(const Reply& reply, unsigned version, bool keep_alive, std::string& out) {
  // HTTP/1.0 answers a 1.0 request; any later one gets HTTP/1.1, the highest version this server
  // speaks (RFC 9110, 2.5).
  const bool http10 = version <= 10;
  out += http10 ? "HTTP/1.0 " : "HTTP/1.1 ";
  AppendNumber(static_cast<unsigned>(reply.status), out);
  out += ' ';
  const auto reason = http::obsolete_reason(reply.status);
  out.append(reason.data(), reason.size());
  out += "\r\n";
  // DynamoDB's endpoint sends Server and Date on every answer, and a request id and the CRC-32
  // of the body as sent (compressed bytes included) on every body.
  AppendHeader("Server", "Server", out);
  AppendHeader("Date", HttpDate(), out);
  AppendHeader("Content-Type", reply.content_type, out);
  AppendHeader("x-amzn-RequestId", NewRequestId(), out);
  if (!reply.content_encoding.empty()) {
    AppendHeader("Content-Encoding", reply.content_encoding, out);
  }
  out += "x-amz-crc32: ";
  AppendNumber(crc32(0, reinterpret_cast<const Bytef*>(reply.body.data()),
                     static_cast<uInt>(reply.body.size())),
               out);
  out += "\r\nContent-Length: ";
  AppendNumber(reply.body.size(), out);
  out += "\r\n";
  out += reply.extra_headers;
  if (http10 && keep_alive) AppendHeader("Connection", "keep-alive", out);
  if (!http10 && !keep_alive) AppendHeader("Connection", "close", out);
  out += "\r\n";
}

namespace {

// The operation X-Amz-Target names, as protocol::Dispatch takes it; "" for none or another
// service's.
std::string OperationOf(const HttpRequest& request) {
  std::string_view target;
  if (auto header = request.find("X-Amz-Target"); header != request.end()) {
    target = std::string_view(header->value().data(), header->value().size());
  }
  if (target.starts_with(kDynamoDbPrefix)) {
    std::string_view operation = target.substr(kDynamoDbPrefix.size());
    // DynamoDB's namespace holds DynamoDB's operations only; the extensions are reached through
    // Partstore_20261120.<Op>.
    if (operation.starts_with("Partstore.") || operation.starts_with("DynamoDBStreams.")) {
      return "";
    }
    return std::string(operation);
  }
  if (target.starts_with(kPartstorePrefix)) {
    return "Partstore." + std::string(target.substr(kPartstorePrefix.size()));
  }
  // DynamoDB Streams (the dynamodbstreams service) on the same endpoint.
  if (target.starts_with(kStreamsPrefix)) {
    return "DynamoDBStreams." + std::string(target.substr(kStreamsPrefix.size()));
  }
  // No target, or another service's: an unknown operation (what DynamoDB answers).
  return "";
}

// Everything after the health check and the scrape: the signature, the method, the content
// type, the body's decoding, the operation.
Reply AnswerOperation(const protocol::Backend& db, const HttpRequest& request,
                      const HandlerOptions& options, std::string_view host,
                      std::string_view operation) {
  const size_t max_body_bytes = options.max_body_bytes;
  if (options.access_keys != nullptr) {
    const int64_t now =
        options.now_seconds != 0 ? options.now_seconds : static_cast<int64_t>(time(nullptr));
    if (std::optional<AuthFailure> failure =
            Authenticate(request, *options.access_keys, db.region, now)) {
      return Rejection(http::status::bad_request,
                       "com.amazon.coral.service#" + std::string(failure->type), failure->message);
    }
  }
  if (request.method() != http::verb::post) {
    return FromDispatch(protocol::ErrorResponse(Status(Code::kUnknownOperation, "")));
  }
  // Content-Type: DynamoDB's JSON 1.0 type, or application/json (which dynalite and some tools
  // send); anything else is not this protocol.
  if (auto type = request.find(http::field::content_type); type != request.end()) {
    std::string_view value(type->value().data(), type->value().size());
    value = value.substr(0, value.find(';'));
    while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
    if (value != kJsonContentType && value != "application/json") {
      return FromDispatch(protocol::ErrorResponse(Status(Code::kUnknownOperation, "")));
    }
  }
  const ContentCoding coding =
      ChooseResponseCoding(HeaderValue(request, http::field::accept_encoding));
  const std::string_view content_encoding = HeaderValue(request, http::field::content_encoding);
  if (content_encoding.empty()) {
    return FromDispatch(protocol::Dispatch(db, operation, request.body(), host, options.transfers),
                        coding);
  }
  // A compressed body (content_coding.h): decoded with the plain body's limit.
  std::string body = request.body();
  switch (DecodeRequestBody(content_encoding, body, max_body_bytes)) {
    case DecodeOutcome::kOk:
      return FromDispatch(protocol::Dispatch(db, operation, body, host, options.transfers), coding);
    case DecodeOutcome::kTooLarge:
      return Rejection(http::status::payload_too_large,
                       "com.amazon.coral.validate#ValidationException",
                       "Request size exceeded " + std::to_string(max_body_bytes) + " bytes");
    case DecodeOutcome::kUnsupported:
    case DecodeOutcome::kCorrupt:
      break;
  }
  // DynamoDB answers a body it cannot decode with an InternalServerError.
  return FromDispatch(protocol::ErrorResponse(Status::Internal("Internal server error")));
}

// Answer without CORS.
Reply AnswerRequest(const protocol::Backend& db, const HttpRequest& request,
                    const HandlerOptions& options) {
  // The host the client addressed (Host header), as the health check and DescribeEndpoints name
  // it; "localhost" without one (HTTP/1.0).
  std::string_view host = HeaderValue(request, http::field::host);
  if (host.empty()) host = "localhost";
  // DynamoDB answers a GET of / as a health check: "healthy: " and the host addressed. Any other
  // path is not found (400, UnknownOperationException).
  if (request.method() == http::verb::get && request.target() == "/") {
    // Like every other answer it carries a request id and the body's CRC-32 (DynamoDB's health
    // check does too); only its type is plain text.
    return PlainText("text/plain", "healthy: " + std::string(host));
  }
  // Prometheus' scrape (server_metrics.h), like the health check without a signature.
  if (options.metrics != nullptr && request.method() == http::verb::get &&
      request.target() == "/metrics") {
    return PlainText("text/plain; version=0.0.4", options.metrics->Render(db.engine));
  }
  if (options.pages != nullptr && request.method() == http::verb::get) {
    if (std::optional<Reply> page = (*options.pages)(request)) return std::move(*page);
  }
  const std::string operation = OperationOf(request);
  if (options.metrics == nullptr) return AnswerOperation(db, request, options, host, operation);
  // Every other request is timed and counted (server_metrics.h), refused ones included; a name
  // the client made up is not a label: those count as operation "".
  const auto start = std::chrono::steady_clock::now();
  Reply reply = AnswerOperation(db, request, options, host, operation);
  options.metrics->Record(protocol::IsOperation(operation) ? operation : std::string_view(),
                          ErrorName(reply), std::chrono::steady_clock::now() - start);
  return reply;
}

// `value` without CR and LF: an echoed header value cannot end the header line early.
void AppendHeaderValue(std::string_view value, std::string& out) {
  for (char c : value) {
    if (c != '\r' && c != '\n') out += c;
  }
}

}  // namespace

Reply Answer(const protocol::Backend& db, const HttpRequest& request,
             const HandlerOptions& options) {
  // CORS as DynamoDB answers it (Alternator's test_cors.py, which passes against DynamoDB: no CORS
  // header without Origin; with one, Allow-Origin "*" and Expose-Headers on every answer, and on a
  // preflight also Max-Age and the requested method and headers echoed as allowed). The exposed
  // headers and the age are those of AWS's JSON services (their preflight answers, recorded
  // against acm and codebuild in AllanZhengYP/cors-test; DynamoDB's own value was not captured).
  const std::string_view origin = HeaderValue(request, http::field::origin);
  if (origin.empty()) return AnswerRequest(db, request, options);
  Reply reply;
  if (request.method() == http::verb::options) {
    // A preflight: answered here, before any signature check (a browser never signs one).
    const std::string_view method =
        HeaderValue(request, http::field::access_control_request_method);
    const std::string_view headers =
        HeaderValue(request, http::field::access_control_request_headers);
    if (!method.empty()) {
      reply.extra_headers += "Access-Control-Allow-Methods: ";
      AppendHeaderValue(method, reply.extra_headers);
      reply.extra_headers += "\r\n";
    }
    if (!headers.empty()) {
      reply.extra_headers += "Access-Control-Allow-Headers: ";
      AppendHeaderValue(headers, reply.extra_headers);
      reply.extra_headers += "\r\n";
    }
    reply.extra_headers += "Access-Control-Max-Age: 172800\r\n";
  } else {
    reply = AnswerRequest(db, request, options);
  }
  reply.extra_headers +=
      "Access-Control-Allow-Origin: *\r\n"
      "Access-Control-Expose-Headers: x-amzn-RequestId,x-amzn-ErrorType,x-amzn-ErrorMessage,Date,"
      "x-amz-crc32\r\n";
  return reply;
}

namespace {

// `reply` as a connection sends it, parsed back into a Beast response.
HttpResponse Parsed(const Reply& reply, unsigned version, bool keep_alive) {
  std::string wire;
  WriteHead(reply, version, keep_alive, wire);
  wire += reply.body;
  http::response_parser<http::string_body> parser;
  parser.eager(true);
  parser.body_limit(std::numeric_limits<uint64_t>::max());
  boost::system::error_code ec;
  parser.put(boost::asio::buffer(wire), ec);
  // WriteHead's output is always a whole, well-formed message: a failure here is a bug.
  if (ec || !parser.is_done()) {
    std::fprintf(stderr, "partstore: unparsable response head: %s\n", ec.message().c_str());
    std::abort();
  }
  return parser.release();
}

}  // namespace

HttpResponse HandleRequest(Database& db, const HttpRequest& request,
                           const HandlerOptions& options) {
  return Parsed(Answer(db, request, options), request.version(), request.keep_alive());
}

HttpResponse HandleRequest(const protocol::Backend& backend, const HttpRequest& request,
                           const HandlerOptions& options) {
  return Parsed(Answer(backend, request, options), request.version(), request.keep_alive());
}

HttpResponse RejectedRequest(http::status status, std::string_view type, std::string_view message,
                             unsigned version) {
  return Parsed(Rejection(status, type, message), version, true);
}

}  // namespace partstore::server
