// The server's handler: one HTTP request -> one answer, no I/O. Everything DynamoDB's endpoint
// decides per request is here: the health check, GET /metrics, the SigV4 check, the operation
// from X-Amz-Target, request decompression, protocol::Dispatch, response compression; and the
// bytes of the answer's status line and headers (Server, Date, Content-Type, x-amzn-RequestId,
// x-amz-crc32 of the body as sent, Content-Encoding, Content-Length, Connection).
//
// Two ways in, one behaviour:
//   Answer + WriteHead   what a connection uses (server.cc): the body is sent as is after the
//                        head, with no HTTP message object built on the way out;
//   HandleRequest        the same answer as a Beast response, parsed back from exactly the bytes
//                        a connection would send (for tests and the fuzz target).
//
// Thread safety: every function here is safe to call from any thread (the Database and the
// metrics are).
#pragma once

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/status.hpp>
#include <boost/beast/http/string_body.hpp>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "partstore/database.h"
#include "tools/protocol/dispatch.h"

namespace partstore::transfer {
class Transfers;
}  // namespace partstore::transfer

namespace partstore::server {

class AccessKeys;     // authenticator.h
class ServerMetrics;  // server_metrics.h

using HttpRequest = boost::beast::http::request<boost::beast::http::string_body>;
using HttpResponse = boost::beast::http::response<boost::beast::http::string_body>;

// An answer before it is written: the body is final (compressed when content_encoding is set).
struct Reply {
  boost::beast::http::status status = boost::beast::http::status::ok;
  std::string_view content_type = "application/x-amz-json-1.0";  // a literal
  std::string_view content_encoding;                             // a literal, or empty
  std::string body;
  // Further header lines, each ending in "\r\n" (empty: none): CORS for a request with an Origin,
  // the live page's WWW-Authenticate and Cache-Control.
  std::string extra_headers;
};

struct HandlerOptions {
  // The limit of a compressed body once decoded (a plain one is limited by the connection).
  size_t max_body_bytes = 16 * 1024 * 1024;
  // Non-null: requests must be signed with one of these keys, for the backend's region and the
  // service "dynamodb" (authenticator.h).
  const AccessKeys* access_keys = nullptr;
  // The clock signatures are checked against, in Unix seconds; 0: the system clock.
  int64_t now_seconds = 0;
  // Non-null: requests are counted and timed there, and GET /metrics renders it.
  ServerMetrics* metrics = nullptr;
  // Non-null: exports and imports go there (tools/transfer/transfers.h; partstore serve --s3-dir).
  transfer::Transfers* transfers = nullptr;
  // Non-null: GET requests are offered to it first (after the health check and /metrics); an
  // answer is sent as it is, nullopt goes on as usual. The live page (tools/live/live_page.h).
  const std::function<std::optional<Reply>(const HttpRequest&)>* pages = nullptr;
};

// Answers `request`. A compressed body (Content-Encoding) is decoded up to
// options.max_body_bytes; the body of the answer is compressed per Accept-Encoding
// (content_coding.h); with access keys, the signature is checked first (after the health check).
// CORS as DynamoDB answers browsers: a request with an Origin header gets
// Access-Control-Allow-Origin: * and Access-Control-Expose-Headers; a preflight (OPTIONS with an
// Origin) is answered at once, with no body and no signature needed, echoing the requested method
// and headers as allowed and with Access-Control-Max-Age; without Origin, none of these.
Reply Answer(const protocol::Backend& backend, const HttpRequest& request,
             const HandlerOptions& options = {});
inline Reply Answer(Database& db, const HttpRequest& request, const HandlerOptions& options = {}) {
  return Answer(protocol::Backend{db, &db, db.options().region}, request, options);
}

// The answer for a request the HTTP layer refused before it could be handled (body over the
// limit, malformed HTTP): a DynamoDB-shaped error body with `status`. `message` is JSON-escaped.
Reply Rejection(boost::beast::http::status status, std::string_view type, std::string_view message);

// Appends the status line and headers of `reply` to `out` (HTTP/1.0 for a request of version 10 or
// below, else HTTP/1.1), ending with the blank line; the body follows them on the wire.
// `keep_alive`: whether the connection stays open after this answer (Connection: close on HTTP/1.1
// when not, keep-alive on HTTP/1.0 when so).
void WriteHead(const Reply& reply, unsigned version, bool keep_alive, std::string& out);

// Answer + WriteHead as a Beast response: what a connection would send for `request`, parsed
// back (keep-alive as the request asks).
HttpResponse HandleRequest(Database& db, const HttpRequest& request,
                           const HandlerOptions& options = {});
HttpResponse HandleRequest(const protocol::Backend& backend, const HttpRequest& request,
                           const HandlerOptions& options = {});

// Rejection + WriteHead as a Beast response.
HttpResponse RejectedRequest(boost::beast::http::status status, std::string_view type,
                             std::string_view message, unsigned version = 11);

}  // namespace partstore::server
