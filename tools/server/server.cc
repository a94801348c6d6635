// Server: see server.h. The handler (HandleRequest) first, then the network side: Listener accepts,
// Session reads one request at a time (header under the idle timeout, body under the request
// timeout, both limited), answers it and keeps the connection alive.
#include "tools/server/server.h"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/crc.hpp>
#include <cerrno>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <random>
#include <set>
#include <thread>
#include <vector>

#include "tools/protocol/dispatch.h"
#include "tools/protocol/errors.h"
#include "tools/server/authenticator.h"
#include "tools/server/content_coding.h"
#include "tools/server/server_metrics.h"

namespace partstore::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

constexpr std::string_view kJsonContentType = "application/x-amz-json-1.0";
constexpr std::string_view kDynamoDbPrefix = "DynamoDB_20120810.";
constexpr std::string_view kPartstorePrefix = "Partstore_20261120.";

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

uint32_t Crc32(std::string_view body) {
  boost::crc_32_type crc;
  crc.process_bytes(body.data(), body.size());
  return crc.checksum();
}

// `coding`: the one Accept-Encoding chose; used when the body reaches DynamoDB's threshold. The
// CRC-32 is of the bytes sent (compressed ones included), as DynamoDB's.
HttpResponse MakeResponse(http::status status, std::string body, unsigned version,
                          ContentCoding coding = ContentCoding::kIdentity) {
  HttpResponse response(status, version);
  // DynamoDB's endpoint sends Server and Date on every answer.
  response.set(http::field::server, "Server");
  const std::string_view date = HttpDate();
  response.set(http::field::date, beast::string_view(date.data(), date.size()));
  response.set(http::field::content_type,
               beast::string_view(kJsonContentType.data(), kJsonContentType.size()));
  response.set("x-amzn-RequestId", NewRequestId());
  if (coding != ContentCoding::kIdentity && body.size() >= kCompressionThreshold) {
    if (std::optional<std::string> compressed = EncodeBody(body, coding)) {
      body = std::move(*compressed);
      const std::string_view name = ContentCodingName(coding);
      response.set(http::field::content_encoding, beast::string_view(name.data(), name.size()));
    }
  }
  response.set("x-amz-crc32", std::to_string(Crc32(body)));
  response.body() = std::move(body);
  response.prepare_payload();
  return response;
}

HttpResponse FromDispatch(protocol::Response r, unsigned version,
                          ContentCoding coding = ContentCoding::kIdentity) {
  return MakeResponse(static_cast<http::status>(r.http_status), std::move(r.body), version, coding);
}

// The exception an error answer names (its __type after '#'), or "" for a success.
std::string_view ErrorName(const protocol::Response& answer) {
  if (answer.http_status == 200) return {};
  constexpr std::string_view kType = "\"__type\":\"";
  const size_t at = answer.body.find(kType);
  if (at == std::string::npos) return {};
  const size_t start = at + kType.size();
  const size_t end = answer.body.find('"', start);
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

HttpResponse RejectedRequest(http::status status, std::string_view type, std::string_view message,
                             unsigned version) {
  std::string body = "{\"__type\":\"";
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
  return MakeResponse(status, std::move(body), version);
}

HttpResponse HandleRequest(Database& db, const HttpRequest& request,
                           const HandlerOptions& options) {
  const size_t max_body_bytes = options.max_body_bytes;
  const unsigned version = request.version();
  // The host the client addressed (Host header), as the health check and DescribeEndpoints name
  // it; "localhost" without one (HTTP/1.0).
  std::string_view host = HeaderValue(request, http::field::host);
  if (host.empty()) host = "localhost";
  // DynamoDB answers a GET of / as a health check: "healthy: " and the host addressed. Any other
  // path is not found (400, UnknownOperationException, below).
  if (request.method() == http::verb::get && request.target() == "/") {
    // Like every other answer it carries a request id and the body's CRC-32 (DynamoDB's health
    // check does too); only its type is plain text.
    HttpResponse response =
        MakeResponse(http::status::ok, "healthy: " + std::string(host), version);
    response.set(http::field::content_type, "text/plain");
    return response;
  }
  // Prometheus' scrape (server_metrics.h), like the health check without a signature.
  if (options.metrics != nullptr && request.method() == http::verb::get &&
      request.target() == "/metrics") {
    HttpResponse response = MakeResponse(http::status::ok, options.metrics->Render(db), version);
    response.set(http::field::content_type, "text/plain; version=0.0.4");
    return response;
  }
  if (options.access_keys != nullptr) {
    const int64_t now =
        options.now_seconds != 0 ? options.now_seconds : static_cast<int64_t>(time(nullptr));
    if (std::optional<AuthFailure> failure = Authenticate(request, *options.access_keys, now)) {
      return RejectedRequest(http::status::bad_request,
                             "com.amazon.coral.service#" + std::string(failure->type),
                             failure->message, version);
    }
  }
  if (request.method() != http::verb::post) {
    return FromDispatch(protocol::ErrorResponse(Status(Code::kUnknownOperation, "")), version);
  }
  // Content-Type: DynamoDB's JSON 1.0 type, or application/json (which dynalite and some tools
  // send); anything else is not this protocol.
  if (auto type = request.find(http::field::content_type); type != request.end()) {
    std::string_view value(type->value().data(), type->value().size());
    value = value.substr(0, value.find(';'));
    while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
    if (value != kJsonContentType && value != "application/json") {
      return FromDispatch(protocol::ErrorResponse(Status(Code::kUnknownOperation, "")), version);
    }
  }
  std::string_view target;
  if (auto header = request.find("X-Amz-Target"); header != request.end()) {
    target = std::string_view(header->value().data(), header->value().size());
  }
  std::string operation;
  if (target.starts_with(kDynamoDbPrefix)) {
    operation = target.substr(kDynamoDbPrefix.size());
    // DynamoDB's namespace holds DynamoDB's operations only; the extensions are reached through
    // Partstore_20261120.<Op>.
    if (operation.starts_with("Partstore.")) operation.clear();
  } else if (target.starts_with(kPartstorePrefix)) {
    operation = "Partstore." + std::string(target.substr(kPartstorePrefix.size()));
  } else {
    // No target, or another service's: an unknown operation (what DynamoDB answers).
    operation = "";
  }
  const ContentCoding coding =
      ChooseResponseCoding(HeaderValue(request, http::field::accept_encoding));
  // The operation answered, timed and counted (server_metrics.h).
  auto dispatch = [&](std::string_view body) {
    const auto start = std::chrono::steady_clock::now();
    protocol::Response answer = protocol::Dispatch(db, operation, body, host);
    if (options.metrics != nullptr) {
      const std::string_view error = ErrorName(answer);
      // A name the client made up is not a label: those count as operation "".
      const bool known = error != "UnknownOperationException";
      options.metrics->Record(known ? std::string_view(operation) : std::string_view(), error,
                              std::chrono::steady_clock::now() - start);
    }
    return FromDispatch(std::move(answer), version, coding);
  };
  const std::string_view content_encoding = HeaderValue(request, http::field::content_encoding);
  if (content_encoding.empty()) return dispatch(request.body());
  // A compressed body (content_coding.h): decoded with the plain body's limit.
  std::string body = request.body();
  switch (DecodeRequestBody(content_encoding, body, max_body_bytes)) {
    case DecodeOutcome::kOk:
      return dispatch(body);
    case DecodeOutcome::kTooLarge:
      return RejectedRequest(
          http::status::payload_too_large, "com.amazon.coral.validate#ValidationException",
          "Request size exceeded " + std::to_string(max_body_bytes) + " bytes", version);
    case DecodeOutcome::kUnsupported:
    case DecodeOutcome::kCorrupt:
      break;
  }
  // DynamoDB answers a body it cannot decode with an InternalServerError.
  return FromDispatch(protocol::ErrorResponse(Status::Internal("Internal server error")), version);
}

// ---- Network ----------------------------------------------------------------------------------

class Session;

int ThreadCount(const ServerOptions& options) {
  return options.threads > 0 ? options.threads
                             : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

// Threads: one io_context per thread, each run by exactly one thread (concurrency hint 1: no
// internal locking), connections dealt to them round robin. A connection's handlers therefore
// all run on one thread without a strand (the profile of the strand-per-connection design showed
// 12% of the server's time in executors, strands and their mutexes).
struct Server::Impl {
  Impl(Database& db, ServerOptions options) : db(db), options(std::move(options)) {
    const int threads = ThreadCount(this->options);
    for (int i = 0; i < threads; ++i) {
      contexts.push_back(std::make_unique<net::io_context>(1));
      guards.emplace_back(net::make_work_guard(*contexts.back()));
    }
    acceptor.emplace(*contexts.front());
    accept_backoff.emplace(*contexts.front());
    signals.emplace(*contexts.front());
  }

  Database& db;
  const ServerOptions options;
  std::vector<std::unique_ptr<net::io_context>> contexts;
  std::vector<net::executor_work_guard<net::io_context::executor_type>> guards;  // until Stop
  size_t next_context = 0;  // round robin; used by the accept loop only
  // The accept loop and Stop's handler run on contexts[0]'s single thread: a connection accepted
  // while Stop runs is either in `sessions` before Stop looks at them or dropped (stopping).
  std::optional<tcp::acceptor> acceptor;  // on contexts[0]
  // Paces Accept when the process is out of descriptors (on contexts[0]).
  std::optional<net::steady_timer> accept_backoff;
  std::atomic<uint64_t> accept_retries{0};  // accepts deferred for want of descriptors
  std::optional<net::signal_set> signals;   // on contexts[0]
  std::atomic<bool> stopping{false};
  uint16_t port = 0;

  std::mutex sessions_mu;  // guards sessions
  std::set<std::shared_ptr<Session>> sessions;
  ServerMetrics metrics;  // GET /metrics

  void Accept();
  void Remove(const std::shared_ptr<Session>& session) {
    std::lock_guard<std::mutex> lock(sessions_mu);
    if (sessions.erase(session) != 0) metrics.ConnectionClosed();
  }
};

// One connection. Every handler runs on the connection's strand, so a Session is used by one
// thread at a time.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, Server::Impl& server) : stream_(std::move(socket)), server_(server) {}

  void Start() {
    // Answers go out at once: without this, the second of two pipelined answers waits for the
    // client's delayed ACK of the first (Nagle), some 40 ms.
    beast::error_code ignored;
    stream_.socket().set_option(tcp::no_delay(true), ignored);
    net::dispatch(stream_.get_executor(), [self = shared_from_this()] { self->ReadHeader(); });
  }

  // Graceful close: an idle connection is closed now; one handling a request closes after sending
  // the response.
  void Shutdown() {
    net::post(stream_.get_executor(), [self = shared_from_this()] {
      self->closing_ = true;
      if (!self->busy_) {
        // Cancelling alone is not sticky: a read composed of several socket reads (Beast's
        // async_read_header) whose intermediate step is already queued issues its next socket
        // read after the cancel and would wait out the idle timeout. Shutting the receive side
        // makes every later read end at once.
        beast::error_code ignored;
        self->stream_.socket().shutdown(tcp::socket::shutdown_receive, ignored);
        self->stream_.cancel();
      }
    });
  }

 private:
  void ReadHeader() {
    if (closing_) return Close();
    parser_.emplace();
    parser_->header_limit(static_cast<uint32_t>(server_.options.max_header_bytes));
    parser_->body_limit(server_.options.max_body_bytes);
    stream_.expires_after(server_.options.idle_timeout);
    http::async_read_header(
        stream_, buffer_, *parser_,
        [self = shared_from_this()](beast::error_code ec, size_t) { self->OnHeader(ec); });
  }

  void OnHeader(beast::error_code ec) {
    if (ec) return OnReadError(ec);
    busy_ = true;
    stream_.expires_after(server_.options.request_timeout);
    http::async_read(
        stream_, buffer_, *parser_,
        [self = shared_from_this()](beast::error_code ec, size_t) { self->OnBody(ec); });
  }

  void OnBody(beast::error_code ec) {
    if (ec) return OnReadError(ec);
    HttpRequest request = parser_->release();
    const bool keep_alive = request.keep_alive() && !closing_;
    auto response = std::make_shared<HttpResponse>(
        HandleRequest(server_.db, request,
                      {.max_body_bytes = server_.options.max_body_bytes,
                       .access_keys = server_.options.access_keys.get(),
                       .metrics = &server_.metrics}));
    Send(std::move(response), keep_alive);
  }

  void OnReadError(beast::error_code ec) {
    busy_ = true;
    if (ec == http::error::body_limit) {
      // DynamoDB's request limit; the connection is closed after the answer (the rest of the body
      // is not read).
      const std::string message =
          "Request size exceeded " + std::to_string(server_.options.max_body_bytes) + " bytes";
      return Send(std::make_shared<HttpResponse>(
                      RejectedRequest(http::status::payload_too_large,
                                      "com.amazon.coral.validate#ValidationException", message)),
                  false);
    }
    if (ec == http::error::header_limit) {
      return Send(std::make_shared<HttpResponse>(
                      RejectedRequest(http::status::request_header_fields_too_large,
                                      "com.amazon.coral.service#SerializationException",
                                      "Request header fields too large")),
                  false);
    }
    if (ec == http::error::end_of_stream || ec == net::error::operation_aborted ||
        ec == beast::error::timeout || ec == net::error::connection_reset ||
        ec == net::error::eof || ec == http::error::partial_message) {
      return Close();
    }
    // Malformed HTTP: answer once, then close (the stream position is unknown).
    Send(std::make_shared<HttpResponse>(RejectedRequest(
             http::status::bad_request, "com.amazon.coral.service#SerializationException",
             "Malformed HTTP request")),
         false);
  }

  void Send(std::shared_ptr<HttpResponse> response, bool keep_alive) {
    response->keep_alive(keep_alive);
    stream_.expires_after(server_.options.request_timeout);
    http::async_write(
        stream_, *response,
        [self = shared_from_this(), response, keep_alive](beast::error_code ec, size_t) {
          self->busy_ = false;
          if (ec || !keep_alive || self->closing_) return self->Close();
          self->ReadHeader();
        });
  }

  void Close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream_.socket().close(ignored);
    server_.Remove(shared_from_this());
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  Server::Impl& server_;
  bool busy_ = false;
  bool closing_ = false;
};

void Server::Impl::Accept() {
  net::io_context& target = *contexts[next_context++ % contexts.size()];
  acceptor->async_accept(target, [this](beast::error_code ec, tcp::socket socket) {
    if (stopping.load()) return;
    if (ec == net::error::no_descriptors || ec == net::error::no_buffer_space ||
        ec == net::error::no_memory || ec.value() == ENFILE) {
      // Out of file descriptors (or memory): accepting again at once would fail again, in a busy
      // loop. The connection waits in the listen queue; try again when others may have closed.
      accept_retries.fetch_add(1, std::memory_order_relaxed);
      accept_backoff->expires_after(std::chrono::milliseconds(50));
      accept_backoff->async_wait([this](beast::error_code wait_ec) {
        if (!wait_ec && !stopping.load()) Accept();
      });
      return;
    }
    if (!ec) {
      auto session = std::make_shared<Session>(std::move(socket), *this);
      {
        std::lock_guard<std::mutex> lock(sessions_mu);
        sessions.insert(session);
        metrics.ConnectionOpened();
      }
      session->Start();
    }
    Accept();
  });
}

Server::Server(Database& db, ServerOptions options)
    : impl_(std::make_unique<Impl>(db, std::move(options))) {}

Server::~Server() = default;

Status Server::Start() {
  beast::error_code ec;
  const auto address = net::ip::make_address(impl_->options.host, ec);
  if (ec) return Status::Validation("invalid --host " + impl_->options.host + ": " + ec.message());
  const tcp::endpoint endpoint(address, impl_->options.port);
  tcp::acceptor& acceptor = *impl_->acceptor;
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec) {
    return Status(Code::kInternal, "cannot listen on " + impl_->options.host + ":" +
                                       std::to_string(impl_->options.port) + ": " + ec.message());
  }
  impl_->port = acceptor.local_endpoint().port();
  // Each context's reactor (epoll, an eventfd, a timerfd) is made now, not at the context's
  // first connection: made then, with the process out of descriptors, it would throw from the
  // accept loop.
  for (auto& context : impl_->contexts) {
    tcp::socket probe(*context);
    probe.open(tcp::v4(), ec);
    if (ec) return Status(Code::kInternal, "cannot start the server: " + ec.message());
  }
  return Status::Ok();
}

uint16_t Server::port() const { return impl_->port; }

void Server::Run() {
  Impl& impl = *impl_;
  if (impl.options.handle_signals) {
    impl.signals->add(SIGINT);
    impl.signals->add(SIGTERM);
    impl.signals->async_wait([this](beast::error_code ec, int) {
      if (!ec) Stop();
    });
  }
  impl.Accept();
  std::vector<std::thread> pool;
  for (size_t i = 1; i < impl.contexts.size(); ++i) {
    pool.emplace_back([&impl, i] { impl.contexts[i]->run(); });
  }
  impl.contexts.front()->run();
  for (std::thread& t : pool) t.join();
}

void Server::Stop() {
  Impl& impl = *impl_;
  if (impl.stopping.exchange(true)) return;
  net::post(impl.acceptor->get_executor(), [&impl] {
    beast::error_code ignored;
    impl.acceptor->close(ignored);
    impl.accept_backoff->cancel();
    impl.signals->cancel(ignored);
    std::vector<std::shared_ptr<Session>> live;
    {
      std::lock_guard<std::mutex> lock(impl.sessions_mu);
      live.assign(impl.sessions.begin(), impl.sessions.end());
    }
    for (const auto& session : live) session->Shutdown();
    // Each context returns from run() once its connections are closed.
    for (auto& guard : impl.guards) guard.reset();
  });
}

}  // namespace partstore::server
