#include "tools/client/http_client.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/uio.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <optional>
#include <utility>

namespace partstore::client {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;
using beast::error_code;

// A TCP socket whose synchronous reads and writes end at a deadline. It meets Asio's
// SyncReadStream / SyncWriteStream requirements, so Beast's parser and the SSL stream run on it
// unchanged.
//
// Once connected, the socket blocks, and the kernel bounds each read and write with SO_RCVTIMEO /
// SO_SNDTIMEO: a request costs one send and one recv, where a non-blocking socket needs a poll()
// before its recv (the response is never there right after the request left): a third system
// call, and a second wake-up of the thread. The timeouts are set again only when the time left is
// shorter than the one set (so that no call outlives the deadline) or less than half of it (so
// that a call does not give up early again and again); requests of one connection normally leave
// both as they are. Connecting uses non-blocking mode and poll(), as the connect timeout is its
// own.
class DeadlineSocket {
 public:
  using executor_type = tcp::socket::executor_type;
  using lowest_layer_type = tcp::socket::lowest_layer_type;

  explicit DeadlineSocket(net::io_context& ioc) : socket_(ioc) {}

  executor_type get_executor() { return socket_.get_executor(); }
  lowest_layer_type& lowest_layer() { return socket_.lowest_layer(); }
  const lowest_layer_type& lowest_layer() const { return socket_.lowest_layer(); }
  tcp::socket& socket() { return socket_; }
  void set_deadline(Clock::time_point deadline) { deadline_ = deadline; }

  // After a connect: blocking mode, the kernel's timeouts unset.
  void StartBlocking(error_code& ec) {
    socket_.non_blocking(false, ec);
    armed_[0] = armed_[1] = std::chrono::milliseconds::zero();
  }

  template <class Buffers>
  size_t read_some(const Buffers& buffers, error_code& ec) {
    return Transfer(buffers, /*read=*/true, ec);
  }
  template <class Buffers>
  size_t write_some(const Buffers& buffers, error_code& ec) {
    return Transfer(buffers, /*read=*/false, ec);
  }
  // The throwing overloads the stream concepts require; this file only calls the ones above.
  template <class Buffers>
  size_t read_some(const Buffers& buffers) {
    error_code ec;
    const size_t n = read_some(buffers, ec);
    if (ec) throw beast::system_error(ec);
    return n;
  }
  template <class Buffers>
  size_t write_some(const Buffers& buffers) {
    error_code ec;
    const size_t n = write_some(buffers, ec);
    if (ec) throw beast::system_error(ec);
    return n;
  }

  // Non-blocking mode only (connecting): waits until the socket is ready for `events` or the
  // deadline passes (ec: timeout).
  bool Wait(short events, error_code& ec) {
    for (;;) {
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline_ - Clock::now());
      if (left.count() <= 0) {
        ec = beast::error::timeout;
        return false;
      }
      pollfd p{socket_.native_handle(), events, 0};
      const int r = ::poll(&p, 1, static_cast<int>(std::min<int64_t>(left.count(), 1 << 30)));
      if (r > 0) return true;
      if (r < 0 && errno != EINTR) {
        ec = error_code(errno, boost::system::system_category());
        return false;
      }
    }
  }

 private:
  static constexpr size_t kMaxBuffers = 16;

  template <class Buffers>
  size_t Transfer(const Buffers& buffers, bool read, error_code& ec) {
    iovec iov[kMaxBuffers];
    size_t count = 0;
    size_t total = 0;
    for (auto it = net::buffer_sequence_begin(buffers);
         it != net::buffer_sequence_end(buffers) && count < kMaxBuffers; ++it) {
      const auto buffer = *it;
      if (buffer.size() == 0) continue;
      iov[count].iov_base = const_cast<void*>(static_cast<const void*>(buffer.data()));
      iov[count].iov_len = buffer.size();
      total += buffer.size();
      ++count;
    }
    ec = {};
    if (total == 0) return 0;
    msghdr message{};
    message.msg_iov = iov;
    message.msg_iovlen = count;
    for (;;) {
      if (!Arm(read, ec)) return 0;
      const ssize_t n = read ? ::recvmsg(socket_.native_handle(), &message, 0)
                             : ::sendmsg(socket_.native_handle(), &message, MSG_NOSIGNAL);
      if (n > 0) return static_cast<size_t>(n);
      if (n == 0) {  // only a read: the peer closed
        ec = net::error::eof;
        return 0;
      }
      // EAGAIN: the kernel's timeout passed; Arm tells whether the deadline has.
      if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) continue;
      ec = error_code(errno, boost::system::system_category());
      return 0;
    }
  }

  // Sets the kernel's timeout for the next read (or write) when it must change (see the class
  // comment); false with ec = timeout when the deadline has passed.
  bool Arm(bool read, error_code& ec) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline_ - Clock::now());
    if (left.count() <= 0) {
      ec = beast::error::timeout;
      return false;
    }
    std::chrono::milliseconds& armed = armed_[read ? 0 : 1];
    if (armed.count() != 0 && armed <= left && armed * 2 >= left) return true;
    timeval tv{};
    tv.tv_sec = static_cast<time_t>(left.count() / 1000);
    tv.tv_usec = static_cast<suseconds_t>(left.count() % 1000 * 1000);
    if (::setsockopt(socket_.native_handle(), SOL_SOCKET, read ? SO_RCVTIMEO : SO_SNDTIMEO, &tv,
                     sizeof tv) != 0) {
      ec = error_code(errno, boost::system::system_category());
      return false;
    }
    armed = left;
    return true;
  }

  tcp::socket socket_;
  Clock::time_point deadline_ = Clock::now();
  std::chrono::milliseconds armed_[2] = {};  // the kernel's read and write timeouts; 0: unset
};

using TlsStream = beast::ssl_stream<DeadlineSocket>;

// Errors that mean "the server closed the kept-alive connection" before answering.
bool PeerClosed(const error_code& ec) {
  return ec == http::error::end_of_stream || ec == net::error::eof ||
         ec == net::error::connection_reset || ec == net::error::broken_pipe ||
         ec == net::error::connection_aborted || ec == ssl::error::stream_truncated;
}

bool ParsePort(std::string_view digits, uint16_t* port) {
  unsigned value = 0;
  if (digits.empty() || digits.size() > 5) return false;
  auto [end, err] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (err != std::errc() || end != digits.data() + digits.size() || value == 0 || value > 65535) {
    return false;
  }
  *port = static_cast<uint16_t>(value);
  return true;
}

bool EqualsNoCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != b[i]) return false;
  }
  return true;
}

}  // namespace

std::string Url::ToString() const {
  return std::string(tls ? "https://" : "http://") + host_header;
}

Result<Url> ParseUrl(std::string_view text) {
  auto bad = [&](std::string_view why) {
    return Status::Validation("bad endpoint URL \"" + std::string(text) +
                              "\": " + std::string(why));
  };
  const size_t sep = text.find("://");
  if (sep == std::string_view::npos) return bad("expected http://host[:port] or https://...");
  Url url;
  const std::string_view scheme = text.substr(0, sep);
  if (EqualsNoCase(scheme, "https")) {
    url.tls = true;
  } else if (!EqualsNoCase(scheme, "http")) {
    return bad("the scheme must be http or https");
  }
  std::string_view rest = text.substr(sep + 3);
  const size_t tail_at = rest.find_first_of("/?#");
  const std::string_view authority = rest.substr(0, tail_at);
  if (tail_at != std::string_view::npos) {
    const std::string_view tail = rest.substr(tail_at);
    if (tail.find_first_of("?#") != std::string_view::npos) {
      return bad("a query or fragment is not supported");
    }
    if (tail != "/") return bad("the path must be empty or \"/\"");
  }
  if (authority.find('@') != std::string_view::npos) return bad("user info is not supported");
  std::string_view host = authority;
  std::string_view port;
  bool has_port = false;
  if (!authority.empty() && authority.front() == '[') {
    const size_t close = authority.find(']');
    if (close == std::string_view::npos) return bad("unterminated [IPv6 address]");
    host = authority.substr(1, close - 1);
    const std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return bad("unexpected text after the [IPv6 address]");
      port = after.substr(1);
      has_port = true;
    }
  } else if (const size_t colon = authority.rfind(':'); colon != std::string_view::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
    has_port = true;
    if (host.find(':') != std::string_view::npos) {
      return bad("an IPv6 address must be in brackets: http://[::1]:8000");
    }
  }
  if (host.empty()) return bad("no host");
  const uint16_t default_port = url.tls ? 443 : 80;
  url.port = default_port;
  if (has_port && !ParsePort(port, &url.port)) return bad("the port must be 1..65535");
  url.host.assign(host);
  const bool v6 = host.find(':') != std::string_view::npos;
  url.host_header = v6 ? "[" + url.host + "]" : url.host;
  if (url.port != default_port) url.host_header += ":" + std::to_string(url.port);
  return url;
}

struct HttpClient::Impl {
  Impl(Url u, HttpClientOptions o) : url(std::move(u)), options(std::move(o)) {
    request_prefix = "POST / HTTP/1.1\r\nHost: " + url.host_header + "\r\n";
    if (!url.tls) return;
    try {  // only throws when OpenSSL cannot allocate a context
      tls_context.emplace(ssl::context::tls_client);
    } catch (const std::exception& e) {
      setup_error = Status::Internal(std::string("cannot create a TLS context: ") + e.what());
      return;
    }
    error_code ec;
    tls_context->set_default_verify_paths(ec);
    if (!ec && !options.ca_file.empty()) tls_context->load_verify_file(options.ca_file, ec);
    if (ec) setup_error = Status::Internal("TLS trust store: " + ec.message());
  }

  Status Fail(std::string_view what, const error_code& ec) {
    Close();
    return Status::Internal(std::string(what) + " " + url.ToString() + ": " + ec.message());
  }

  void Close() {
    tls.reset();
    plain.reset();
    buffer.clear();
  }

  DeadlineSocket& socket() { return tls ? tls->next_layer() : *plain; }

  Status Connect() {
    if (plain || tls) return Status::Ok();
    if (!setup_error.ok()) return setup_error;
    error_code ec;
    tcp::resolver resolver(ioc);
    const auto endpoints = resolver.resolve(url.host, std::to_string(url.port), ec);
    if (ec) return Fail("cannot resolve", ec);
    if (url.tls) {
      tls.emplace(ioc, *tls_context);
    } else {
      plain.emplace(ioc);
    }
    DeadlineSocket& s = socket();
    s.set_deadline(Clock::now() + options.connect_timeout);
    ec = net::error::host_not_found;
    for (const auto& entry : endpoints) {
      const tcp::endpoint endpoint = entry.endpoint();
      tcp::socket& raw = s.socket();
      if (raw.is_open()) raw.close(ec);
      raw.open(endpoint.protocol(), ec);
      if (!ec) raw.non_blocking(true, ec);
      if (ec) continue;
      if (::connect(raw.native_handle(), endpoint.data(), endpoint.size()) == 0) break;
      if (errno != EINPROGRESS) {
        ec = error_code(errno, boost::system::system_category());
        continue;
      }
      if (!s.Wait(POLLOUT, ec)) continue;
      int so_error = 0;
      socklen_t len = sizeof so_error;
      ::getsockopt(raw.native_handle(), SOL_SOCKET, SO_ERROR, &so_error, &len);
      ec = error_code(so_error, boost::system::system_category());
      if (!ec) break;
    }
    if (ec) return Fail("cannot connect to", ec);
    s.socket().set_option(tcp::no_delay(true), ec);  // a best effort
    s.StartBlocking(ec);
    if (ec) return Fail("cannot set up the connection to", ec);
    if (tls) {
      // SNI (host names only: RFC 6066 has no IP addresses), then the certificate's check.
      error_code not_address;
      net::ip::make_address(url.host, not_address);
      if (not_address && !SSL_set_tlsext_host_name(tls->native_handle(), url.host.c_str())) {
        return Fail("cannot set the TLS server name for", net::error::invalid_argument);
      }
      tls->set_verify_mode(ssl::verify_peer, ec);
      if (!ec) tls->set_verify_callback(ssl::host_name_verification(url.host), ec);
      if (!ec) tls->handshake(ssl::stream_base::client, ec);
      if (ec) return Fail("TLS handshake with", ec);
    }
    ++opened;
    return Status::Ok();
  }

  // Whether an idle kept-alive connection is still worth sending on: a server that closed it
  // (idle timeout, restart) has made it readable (end of stream, or a reset), and a request sent
  // there would fail after it left. Costs one poll() with no wait.
  bool IdleConnectionLooksOpen() {
    if (buffer.size() != 0) return false;  // bytes nobody asked for: not a clean connection
    pollfd p{socket().socket().native_handle(), POLLIN, 0};
    return ::poll(&p, 1, 0) == 0;
  }

  template <class Stream>
  error_code Exchange(Stream& stream) {
    error_code ec;
    sent = true;  // from here on, the server may have received (and acted on) the request
    net::write(stream, net::buffer(request), ec);
    if (ec) return ec;
    parser.emplace();
    parser->body_limit(256u << 20);
    // The header first, on its own: Boost 1.74's parser in eager mode (http::read) goes on to
    // reserve a response's Content-Length even after rejecting it as over the body limit, so a
    // server announcing a huge body would throw std::length_error out of here.
    http::read_header(stream, buffer, *parser, ec);
    if (!ec && !parser->is_done()) http::read(stream, buffer, *parser, ec);
    return ec;
  }

  Result<HttpReply> Post(std::string_view header_lines, std::string_view body,
                         bool resend_if_closed) {
    sent = resent = false;
    request.assign(request_prefix);
    request += header_lines;
    request += "Content-Length: ";
    char digits[24];
    auto [end, _] = std::to_chars(digits, digits + sizeof digits, body.size());
    request.append(digits, end);
    request += "\r\n\r\n";
    request += body;
    for (int attempt = 0;; ++attempt) {
      // Checked only for a request that may not be resent: one that may is resent on a new
      // connection when this one turns out closed, and saves the system call.
      if (!resend_if_closed && (plain || tls) && !IdleConnectionLooksOpen()) Close();
      const bool was_open = plain || tls;  // by an earlier call: the server may have closed it
      if (Status s = Connect(); !s.ok()) return s;
      socket().set_deadline(Clock::now() + options.timeout);
      const error_code ec = tls ? Exchange(*tls) : Exchange(*plain);
      if (ec) {
        // A kept-alive connection the server had closed: once more on a new one.
        if (was_open && attempt == 0 && PeerClosed(ec) && resend_if_closed) {
          Close();
          resent = true;
          continue;
        }
        return Fail(ec == beast::error::timeout ? "timed out waiting for" : "request to", ec);
      }
      const bool keep_alive = parser->keep_alive();
      const auto& response = parser->get();
      HttpReply reply;
      reply.status = static_cast<int>(response.result_int());
      reply.body = response.body();
      if (auto crc = response.find("x-amz-crc32"); crc != response.end()) {
        const std::string_view digits(crc->value().data(), crc->value().size());
        uint32_t value = 0;
        auto [end, err] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
        // A header that is not a 32-bit decimal number is kept as a mismatch (the caller checks).
        reply.crc32 = (err == std::errc() && end == digits.data() + digits.size())
                          ? std::optional<uint64_t>(value)
                          : std::optional<uint64_t>(uint64_t{1} << 32);
      }
      if (auto coding = response.find(http::field::content_encoding); coding != response.end()) {
        reply.content_encoding = std::string_view(coding->value().data(), coding->value().size());
      }
      if (!keep_alive) Close();  // the body stays in the parser; only the connection goes
      return reply;
    }
  }

  const Url url;
  const HttpClientOptions options;
  Status setup_error;
  std::string request_prefix;  // "POST / HTTP/1.1\r\nHost: ...\r\n"
  net::io_context ioc{1};
  std::optional<ssl::context> tls_context;
  std::optional<DeadlineSocket> plain;
  std::optional<TlsStream> tls;
  uint64_t opened = 0;
  bool sent = false;    // the last Post wrote (some of) its request
  bool resent = false;  // the last Post wrote it twice (see last_request_resent)
  std::string request;
  beast::flat_buffer buffer;
  std::optional<http::response_parser<http::string_body>> parser;
};

HttpClient::HttpClient(Url url, HttpClientOptions options)
    : impl_(std::make_unique<Impl>(std::move(url), std::move(options))) {}
HttpClient::~HttpClient() = default;

const Url& HttpClient::url() const { return impl_->url; }
Status HttpClient::Connect() { return impl_->Connect(); }
Result<HttpReply> HttpClient::Post(std::string_view header_lines, std::string_view body,
                                   bool resend_if_closed) {
  return impl_->Post(header_lines, body, resend_if_closed);
}
bool HttpClient::last_request_sent() const { return impl_->sent; }
bool HttpClient::last_request_resent() const { return impl_->resent; }
bool HttpClient::is_open() const { return impl_->plain || impl_->tls; }
void HttpClient::Close() { impl_->Close(); }
uint64_t HttpClient::connections_opened() const { return impl_->opened; }

}  // namespace partstore::client
