// Server: see server.h. The network side: Impl accepts on worker 0 and deals connections to the
// workers round robin; a Worker is one thread running one io_context, with the connections it owns
// and a sweep timer that closes the ones past their deadline; a Connection reads requests into
// its buffer, parses them with Beast's parser, answers each with handler.h's Answer and writes the
// head and body in one gather write.
//
// Why not Beast's stream and message serializer: they cost 35% of the server's CPU per GetItem
// (bench/README.md, issue 5's profile: a timer re-armed per operation with a timerfd_settime
// system call, type-erased executors copied per handler, buffer-sequence iteration in the
// serializer). Here a request costs a receive and a send; deadlines are a field the sweep reads.
#include "tools/server/server.h"

#include <array>
#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/buffers_range.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/intrusive/list.hpp>
#include <cerrno>
#include <optional>
#include <thread>
#include <vector>

#include "tools/server/server_metrics.h"

namespace partstore::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

using Clock = std::chrono::steady_clock;
using Executor = net::io_context::executor_type;
using Socket = net::basic_stream_socket<tcp, Executor>;
using Timer = net::basic_waitable_timer<Clock, net::wait_traits<Clock>, Executor>;

// What a connection asks the socket for at a time: enough for any request an SDK sends in one
// read, small enough that 10,000 idle connections hold 40 MB. A larger body is read in pieces
// that double, from kReadBytes up to kMaxReadBytes, each time a read fills the piece asked for
// (the bytes are coming fast): each piece is copied into the body as it comes, so a connection's
// read buffer is about the largest piece its client has filled, never more than kMaxReadBytes.
constexpr size_t kReadBytes = 4096;
constexpr size_t kMaxReadBytes = 64 * 1024;
// A buffer grown past this by a large request is given back once the request is answered.
constexpr size_t kKeptBufferBytes = 64 * 1024;
// After a refusal, what the client still sends (the rest of an oversized body) is read and
// dropped up to this many bytes (then the connection is closed, and reset if more is coming).
constexpr size_t kMaxDrainBytes = 64 << 20;
// What a worker reads dropped bytes into (one buffer for all its draining connections).
constexpr size_t kDrainReadBytes = 64 * 1024;

// A request's body as it arrives: Beast's string_body, except that the Content-Length is not
// reserved up front (string_body reserves all of it when the header arrives: 16 MB for a client
// that announces 16 MB and sends nothing, and with transparent huge pages, which the program asks
// its allocator for, a reservation touched at all is backed 2 MB at a time). Up to kReadBytes is
// reserved (all of a typical request); past it the string grows geometrically as the bytes come,
// so a connection holds at most about twice what its client has sent.
struct ArrivingBody {
  using value_type = std::string;

  class reader {
   public:
    template <bool isRequest, class Fields>
    reader(http::header<isRequest, Fields>&, value_type& body) : body_(body) {}

    void init(const boost::optional<uint64_t>& length, beast::error_code& ec) {
      ec = {};
      if (length) body_.reserve(static_cast<size_t>(std::min<uint64_t>(*length, kReadBytes)));
    }

    template <class ConstBufferSequence>
    size_t put(const ConstBufferSequence& buffers, beast::error_code& ec) {
      ec = {};
      const size_t extra = beast::buffer_bytes(buffers);
      if (extra > body_.max_size() - body_.size()) {
        ec = http::error::buffer_overflow;
        return 0;
      }
      for (const net::const_buffer piece : beast::buffers_range_ref(buffers)) {
        body_.append(static_cast<const char*>(piece.data()), piece.size());
      }
      return extra;
    }

    void finish(beast::error_code& ec) { ec = {}; }

   private:
    value_type& body_;
  };
};

int ThreadCount(const ServerOptions& options) {
  return options.threads > 0 ? options.threads
                             : DefaultServerThreads(std::thread::hardware_concurrency());
}

// How often each worker looks for connections past their deadline: an eighth of the shorter
// timeout, between 10 ms and a second (a connection is closed at most that late).
std::chrono::milliseconds SweepPeriod(const ServerOptions& options) {
  const auto shorter = std::min(options.idle_timeout, options.request_timeout);
  return std::clamp(shorter / 8, std::chrono::milliseconds(10), std::chrono::milliseconds(1000));
}

}  // namespace

class Connection;
struct Worker;

struct Server::Impl {
  Impl(protocol::Backend backend, ServerOptions options);

  protocol::Backend backend;
  const ServerOptions options;
  const std::chrono::milliseconds sweep_period;
  std::vector<std::unique_ptr<Worker>> workers;
  size_t next_worker = 0;  // round robin; used by the accept loop only
  // The accept loop, Stop's first step and the signals run on workers[0]'s thread.
  std::optional<net::basic_socket_acceptor<tcp, Executor>> acceptor;
  // Paces Accept when the process is out of descriptors.
  std::optional<Timer> accept_backoff;
  std::atomic<uint64_t> accept_retries{0};  // accepts deferred for want of descriptors
  std::optional<net::signal_set> signals;
  std::atomic<bool> stopping{false};
  uint16_t port = 0;
  ServerMetrics metrics;  // GET /metrics

  void Accept();
};

// One connection, owned by the handlers of its pending operation (every handler holds a
// shared_ptr) and listed in its worker's `connections` while open. Used on its worker's thread
// only.
class Connection : public std::enable_shared_from_this<Connection>,
                   public boost::intrusive::list_base_hook<> {
 public:
  Connection(Socket socket, Worker& worker, Server::Impl& server)
      : socket_(std::move(socket)), worker_(worker), server_(server) {}

  // Registers with the worker and waits for the first request.
  void Start();

  // Graceful close (Stop): an idle connection is closed now, as is one draining a refused
  // request; one handling a request closes after sending the response.
  void Shutdown() {
    closing_ = true;
    if (!busy_ || draining_) Close();
  }

  Clock::time_point deadline() const { return deadline_; }

  // Closes the socket (its pending operation ends with operation_aborted) and unlinks.
  void Close();

 private:
  // Waits for the next request: its header under the idle timeout.
  void NextRequest() {
    if (closing_) return Close();
    busy_ = false;
    parser_.emplace();
    header_bytes_ = 0;
    read_bytes_ = kReadBytes;
    parser_->body_limit(server_.options.max_body_bytes);
    if (buffer_.size() == 0 && buffer_.capacity() > kKeptBufferBytes) buffer_.shrink_to_fit();
    deadline_ = Clock::now() + server_.options.idle_timeout;
    Parse();  // a pipelined request may be buffered already
  }

  // Feeds the buffered bytes to the parser; answers a complete request, or reads more.
  void Parse() {
    while (buffer_.size() > 0 && !parser_->is_done()) {
      // Beast's parser consumes the start line and each complete field as they arrive and checks
      // its header limit against what is left, so the limit is what this header has not used yet.
      const bool in_header = !parser_->is_header_done();
      if (in_header) {
        if (header_bytes_ >= server_.options.max_header_bytes) {
          return Refuse(http::error::header_limit);
        }
        parser_->header_limit(
            static_cast<uint32_t>(server_.options.max_header_bytes - header_bytes_));
      }
      beast::error_code ec;
      const size_t used = parser_->put(buffer_.data(), ec);
      buffer_.consume(used);
      if (in_header) header_bytes_ += used;
      if (ec == http::error::need_more) break;
      if (ec) return Refuse(ec);
      if (used == 0) break;
    }
    if (!busy_ && parser_->is_header_done()) {
      // The rest of the request comes under the request timeout; from here Stop lets it finish.
      busy_ = true;
      deadline_ = Clock::now() + server_.options.request_timeout;
    }
    if (parser_->is_done()) return OnRequest();
    Read();
  }

  void Read() {
    size_t want = kReadBytes;
    if (parser_->is_header_done()) {
      want = read_bytes_;
      if (auto remaining = parser_->content_length_remaining()) {
        want = std::clamp<size_t>(*remaining, kReadBytes, read_bytes_);
      }
    }
    socket_.async_read_some(buffer_.prepare(want),
                            [self = shared_from_this(), want](beast::error_code ec, size_t n) {
                              if (self->closed_) return;
                              // End of stream, reset or a partial request: nothing to answer.
                              if (ec) return self->Close();
                              if (n == want && self->read_bytes_ < kMaxReadBytes)
                                self->read_bytes_ *= 2;
                              self->buffer_.commit(n);
                              self->Parse();
                            });
  }

  void OnRequest() {
    http::request<ArrivingBody> parsed = parser_->release();
    HttpRequest request(std::move(parsed.base()), std::move(parsed.body()));
    const bool keep_alive = request.keep_alive() && !closing_;
    Reply reply = Answer(server_.backend, request,
                         {.max_body_bytes = server_.options.max_body_bytes,
                          .access_keys = server_.options.access_keys.get(),
                          .metrics = &server_.metrics,
                          .transfers = server_.options.transfers,
                          .pages = server_.options.pages ? &server_.options.pages : nullptr});
    Send(std::move(reply), request.version(), keep_alive);
  }

  // The parser refused the bytes: answered once (a body over the limit as soon as the header's
  // Content-Length says so, before the body is read), then the connection is drained and closed
  // (Drain): the rest of the request is never parsed (after malformed HTTP the stream position is
  // unknown).
  void Refuse(beast::error_code ec) {
    busy_ = true;
    refused_ = true;
    if (ec == http::error::body_limit) {
      // DynamoDB's request limit.
      return Send(
          Rejection(
              http::status::payload_too_large, "com.amazon.coral.validate#ValidationException",
              "Request size exceeded " + std::to_string(server_.options.max_body_bytes) + " bytes"),
          11, false);
    }
    if (ec == http::error::header_limit) {
      return Send(Rejection(http::status::request_header_fields_too_large,
                            "com.amazon.coral.service#SerializationException",
                            "Request header fields too large"),
                  11, false);
    }
    Send(Rejection(http::status::bad_request, "com.amazon.coral.service#SerializationException",
                   "Malformed HTTP request"),
         11, false);
  }

  // The head and the body in one gather write, under the request timeout.
  void Send(Reply reply, unsigned version, bool keep_alive) {
    busy_ = true;
    keep_alive_ = keep_alive;
    head_.clear();
    WriteHead(reply, version, keep_alive, head_);
    body_ = std::move(reply.body);
    deadline_ = Clock::now() + server_.options.request_timeout;
    const std::array<net::const_buffer, 2> buffers = {net::buffer(head_), net::buffer(body_)};
    net::async_write(socket_, buffers, [self = shared_from_this()](beast::error_code ec, size_t) {
      if (self->closed_) return;
      if (ec) return self->Close();
      if (self->refused_) return self->Drain();
      if (!self->keep_alive_) return self->Close();
      self->NextRequest();
    });
  }

  // After a refusal's answer: the client may still be sending the request (an SDK, curl or
  // Python's http.client sends the whole body before it reads the answer). Closing the socket
  // with unread bytes in it would send a reset, and the client would see a broken pipe or a
  // reset instead of the answer (which a reset may also discard from its receive buffer; RFC 9112
  // section 9.6). So the answer is followed by the end of the stream (the write side is shut:
  // Connection: close said so), and what still arrives is read and dropped until the client
  // closes, kMaxDrainBytes have come, or the request timeout passes (the sweep closes it then).
  // Dropped bytes go to one buffer of the worker's: a draining connection holds no buffer.
  void Drain() {
    if (closing_) return Close();  // Stop came while the answer was being written
    draining_ = true;
    buffer_.clear();
    buffer_.shrink_to_fit();
    parser_.reset();
    beast::error_code ignored;
    socket_.shutdown(tcp::socket::shutdown_send, ignored);
    deadline_ = Clock::now() + server_.options.request_timeout;
    DrainSome();
  }

  void DrainSome();

  Socket socket_;
  Worker& worker_;
  Server::Impl& server_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<ArrivingBody>> parser_;
  size_t header_bytes_ = 0;         // of the request's header block, parsed so far
  size_t read_bytes_ = kReadBytes;  // the piece of a body asked for next (Read)
  std::string head_;                // the answer being written
  std::string body_;
  Clock::time_point deadline_;
  bool busy_ = false;     // a request's header has arrived and it is not answered yet
  bool closing_ = false;  // Stop: close after the request in progress
  bool closed_ = false;
  bool keep_alive_ = true;
  bool refused_ = false;   // the answer being written refuses the request: Drain after it
  bool draining_ = false;  // Drain: reading what the client still sends, to drop it
  size_t drained_ = 0;     // bytes dropped so far
};

// One thread's share: its io_context (concurrency hint 1: run by this thread only, so a
// connection's handlers need no strand) and the connections dealt to it. `connections` and
// `stopping` are used on this thread only.
struct Worker {
  explicit Worker(Server::Impl& server)
      : server(server), io(1), sweep(io.get_executor()), guard(io.get_executor()) {}

  // Closes the connections past their deadline, then waits a period; ends once stopping with no
  // connections left.
  void Sweep();

  Server::Impl& server;
  net::io_context io;
  Timer sweep;
  std::optional<net::executor_work_guard<Executor>> guard;  // keeps run() going until Stop
  boost::intrusive::list<Connection> connections;
  bool stopping = false;
  // Where draining connections (Connection::Drain) read the bytes they drop. Shared: every read
  // into it happens on this worker's thread, and nothing reads what it holds.
  std::unique_ptr<char[]> discard{new char[kDrainReadBytes]};
};

void Connection::DrainSome() {
  socket_.async_read_some(net::buffer(worker_.discard.get(), kDrainReadBytes),
                          [self = shared_from_this()](beast::error_code ec, size_t n) {
                            if (self->closed_) return;
                            self->drained_ += n;
                            // End of stream (the client is done), an error, or enough dropped.
                            if (ec || self->drained_ >= kMaxDrainBytes) return self->Close();
                            self->DrainSome();
                          });
}

void Connection::Start() {
  if (server_.stopping.load()) return Close();
  worker_.connections.push_back(*this);
  server_.metrics.ConnectionOpened();
  // Answers go out at once: without this, the second of two pipelined answers waits for the
  // client's delayed ACK of the first (Nagle), some 40 ms.
  beast::error_code ignored;
  socket_.set_option(tcp::no_delay(true), ignored);
  NextRequest();
}

void Connection::Close() {
  if (closed_) return;
  closed_ = true;
  beast::error_code ignored;
  socket_.shutdown(tcp::socket::shutdown_send, ignored);
  socket_.close(ignored);  // the pending operation ends with operation_aborted
  if (is_linked()) {
    worker_.connections.erase(worker_.connections.iterator_to(*this));
    server_.metrics.ConnectionClosed();
  }
  if (worker_.stopping && worker_.connections.empty()) worker_.sweep.cancel();
}

void Worker::Sweep() {
  sweep.expires_after(server.sweep_period);
  sweep.async_wait([this](beast::error_code ec) {
    if (ec) return;
    const Clock::time_point now = Clock::now();
    for (auto it = connections.begin(); it != connections.end();) {
      Connection& connection = *it++;  // Close unlinks it
      if (connection.deadline() <= now) connection.Close();
    }
    if (stopping && connections.empty()) return;
    Sweep();
  });
}

int DefaultServerThreads(unsigned cores) { return std::max(1, static_cast<int>(cores) - 1); }

Server::Impl::Impl(protocol::Backend backend, ServerOptions options)
    : backend(backend), options(std::move(options)), sweep_period(SweepPeriod(this->options)) {
  if (this->options.extra_metrics) metrics.SetExtra(this->options.extra_metrics);
  const int threads = ThreadCount(this->options);
  for (int i = 0; i < threads; ++i) workers.push_back(std::make_unique<Worker>(*this));
  net::io_context& first = workers.front()->io;
  acceptor.emplace(first.get_executor());
  accept_backoff.emplace(first.get_executor());
  signals.emplace(first);
}

void Server::Impl::Accept() {
  Worker& worker = *workers[next_worker++ % workers.size()];
  acceptor->async_accept(worker.io, [this, &worker](beast::error_code ec, Socket socket) {
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
      auto connection = std::make_shared<Connection>(std::move(socket), worker, *this);
      net::post(worker.io, [connection] { connection->Start(); });
    }
    Accept();
  });
}

Server::Server(Database& db, ServerOptions options)
    : Server(protocol::Backend{db, &db, db.options().region}, std::move(options)) {}

Server::Server(protocol::Backend backend, ServerOptions options)
    : impl_(std::make_unique<Impl>(backend, std::move(options))) {}

Server::~Server() = default;

Status Server::Start() {
  beast::error_code ec;
  auto address = net::ip::make_address(impl_->options.host, ec);
  if (ec) {
    // A name ("localhost"): its first address.
    net::io_context io;
    tcp::resolver resolver(io);
    const auto found = resolver.resolve(impl_->options.host, "", ec);
    if (ec || found.empty()) {
      return Status::Validation("invalid --host " + impl_->options.host +
                                ": neither an IP address nor a name this machine resolves" +
                                (ec ? " (" + ec.message() + ")" : std::string()));
    }
    address = found.begin()->endpoint().address();
  }
  const tcp::endpoint endpoint(address, impl_->options.port);
  auto& acceptor = *impl_->acceptor;
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
  for (auto& worker : impl_->workers) {
    Socket probe(worker->io.get_executor());
    probe.open(tcp::v4(), ec);
    if (ec) return Status(Code::kInternal, "cannot start the server: " + ec.message());
  }
  return Status::Ok();
}

uint16_t Server::port() const { return impl_->port; }

int Server::threads() const { return static_cast<int>(impl_->workers.size()); }

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
  for (auto& worker : impl.workers) worker->Sweep();
  std::vector<std::thread> pool;
  for (size_t i = 1; i < impl.workers.size(); ++i) {
    pool.emplace_back([&impl, i] { impl.workers[i]->io.run(); });
  }
  impl.workers.front()->io.run();
  for (std::thread& t : pool) t.join();
}

void Server::Stop() {
  Impl& impl = *impl_;
  if (impl.stopping.exchange(true)) return;
  net::post(impl.workers.front()->io, [&impl] {
    beast::error_code ignored;
    impl.acceptor->close(ignored);
    impl.accept_backoff->cancel();
    impl.signals->cancel(ignored);
  });
  // Each worker closes its idle connections now and the busy ones after their answer; its run()
  // returns once the last is closed.
  for (auto& worker : impl.workers) {
    net::post(worker->io, [&worker = *worker] {
      worker.stopping = true;
      for (auto it = worker.connections.begin(); it != worker.connections.end();) {
        Connection& connection = *it++;  // Shutdown may unlink it
        connection.Shutdown();
      }
      if (worker.connections.empty()) worker.sweep.cancel();
      worker.guard.reset();
    });
  }
}

}  // namespace partstore::server
