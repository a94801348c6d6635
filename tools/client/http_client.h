// HttpClient: one synchronous, kept-alive HTTP/1.1 connection to one endpoint, http:// or
// https://: each connection of RemoteStore's pool (remote_store.h), and the wire client of
// `partstore bench`. Small on purpose: a client often shares the machine with the server it
// talks to, so each request costs one write() of a buffer assembled in place (no header map, no
// serializer), one poll() and the reads of the response (Boost.Beast's parser).
//
//   Result<Url> url = ParseUrl("https://dynamodb.eu-west-3.amazonaws.com");
//   HttpClient client(*url);
//   Result<HttpReply> reply = client.Post("X-Amz-Target: DynamoDB_20120810.ListTables\r\n", "{}");
//
// Connections: opened on the first request (or by Connect()); kept alive across requests; closed
// when the server says "Connection: close" or an error occurs. Before a kept-alive connection is
// reused for a request that must not be resent (resend_if_closed false) it is polled: one the
// server closed meanwhile (readable: end of stream or reset) is replaced before anything is sent
// on it. When a reused connection still turns out to be closed
// by the server (end of stream, reset, broken pipe while sending or before any response), the
// request is sent again once on a new connection, unless the caller says not to
// (resend_if_closed: a non-idempotent request whose first copy may have arrived).
// last_request_sent() tells a failure before anything was sent (a connect error: safe to send
// again) from one after. Connecting has its own deadline (options.connect_timeout: a
// non-blocking connect and poll()); each request's write + response read another
// (options.timeout): a blocking socket whose kernel timeouts (SO_RCVTIMEO / SO_SNDTIMEO) are
// kept within the deadline, since Asio's synchronous calls have no timeout.
//
// HTTPS: Beast's ssl_stream over OpenSSL, with SNI, peer verification against the system's trust
// store (set_default_verify_paths) plus options.ca_file, and the host name (or IP address) checked
// against the certificate.
//
// Errors are values: a failed connect, a timeout or a malformed response is a non-OK Status
// (Code::kInternal) saying what happened and to which URL; nothing throws out of this class.
//
// Thread safety: an HttpClient is used by one thread at a time; distinct clients are independent.
// ParseUrl is a pure function.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "partstore/status.h"

namespace partstore::client {

struct Url {
  bool tls = false;         // https
  std::string host;         // a name or an address (IPv6 without brackets)
  uint16_t port = 0;        // 80 / 443 unless given
  std::string host_header;  // the Host header: host ([v6] bracketed), ":port" when not default
  // "http://host:port" as parsed (for messages).
  std::string ToString() const;
};

// scheme://host[:port][/]: scheme http or https (any case); no user info, no path but "/", no
// query, no fragment. A bad URL is a Validation Status saying what is wrong.
Result<Url> ParseUrl(std::string_view text);

struct HttpClientOptions {
  // Deadline for connecting (resolution excluded; with TLS, the handshake included).
  std::chrono::milliseconds connect_timeout{std::chrono::seconds(30)};
  // Deadline for each request's write + response.
  std::chrono::milliseconds timeout{std::chrono::seconds(30)};
  // https: a PEM file of certificates trusted besides the system's (AWS_CA_BUNDLE); empty: none.
  std::string ca_file;
};

struct HttpReply {
  int status = 0;
  std::string_view body;  // valid until the client's next request
  // x-amz-crc32 when the response had one (2^32 when it was not a 32-bit decimal number).
  std::optional<uint64_t> crc32;
  std::string_view content_encoding;  // Content-Encoding, empty when none
};

class HttpClient {
 public:
  explicit HttpClient(Url url, HttpClientOptions options = {});
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  const Url& url() const;
  // Opens the connection now (Post opens it on demand). OK when already open.
  Status Connect();
  // Sends "POST / HTTP/1.1", Host, `header_lines` (each "Name: value\r\n"), Content-Length and
  // `body`; returns the response's status and body, whatever the status. `resend_if_closed`:
  // see the header comment.
  Result<HttpReply> Post(std::string_view header_lines, std::string_view body,
                         bool resend_if_closed = true);
  // After a failed Post: whether (part of) the request was written, so that the server may have
  // received it; false when the failure came before (resolving, connecting, the TLS handshake).
  bool last_request_sent() const;
  // Whether the last Post wrote its request twice: once on a kept-alive connection that failed
  // (the server may have received it there too), then on a new one.
  bool last_request_resent() const;
  // Whether a connection is open now.
  bool is_open() const;
  // Closes the connection (the next request opens a new one).
  void Close();
  // Connections opened so far (the reconnect tests count them).
  uint64_t connections_opened() const;

  struct Impl;  // http_client.cc

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace partstore::client
