// Server: DynamoDB's JSON 1.0 wire protocol over HTTP/1.1 (Asio, Beast's parser), in front of a
// Database. What `partstore serve` runs.
//
//   POST /   X-Amz-Target: DynamoDB_20120810.<Operation>     (extensions: Partstore_20261120.<Op>)
//            Content-Type: application/x-amz-json-1.0 (or application/json)
//   -> 200 with the response body, or the error's status with DynamoDB's error body
//      (protocol::Dispatch decides both), plus x-amzn-RequestId, x-amz-crc32 (CRC-32 of the body
//      as sent) and Content-Type: application/x-amz-json-1.0. Bodies may be compressed both ways
//      (Content-Encoding / Accept-Encoding: gzip, deflate; content_coding.h).
//
// GET / is the health check, GET /metrics Prometheus' text (server_metrics.h), and with
// ServerOptions::pages set, the pages it answers (GET /ui, the live page).
//
// Requests are answered by handler.h's Answer, a pure function of the parsed request (tested and
// fuzzed without sockets through HandleRequest). The network side: one acceptor; `threads`
// workers, each one thread running its own io_context, with the connections dealt to it round
// robin (no strands: a connection's handlers all run on its worker's thread). A connection reads
// into its buffer, parses with Beast's request parser, answers with Answer and writes the head and
// body in one gather write; pipelined requests are answered in order. Limits: the body (16 MB,
// DynamoDB's request limit) and the header block. A request over either is answered at once (a
// body over the limit as soon as the header's Content-Length says so, before the body is sent)
// with Connection: close, and its connection is drained: the server ends its side of the stream
// and reads and drops what the client still sends (up to 64 MB, under the request timeout), so
// that a client that sends the whole body before reading gets the answer, not a reset. A
// connection idle longer than `idle_timeout`, or that takes longer than `request_timeout` to send
// one request (or to take its answer), is closed by its worker's sweep (which runs every eighth
// of the shorter timeout, 10 ms to 1 s), so slow or silent clients cost a socket and nothing else.
// Out of file descriptors, the acceptor waits 50 ms before trying again (the connection waits in
// the listen queue). Credentials are accepted as they come unless access keys are given (--auth
// sigv4): then every request but the health check must carry a valid Signature Version 4 by one
// of them, for the backend's region and the service "dynamodb" (authenticator.h), as on DynamoDB.
//
// Shutdown: Stop() (or SIGINT / SIGTERM when Run() installed the handlers) stops accepting,
// lets each connection finish the request it is handling, closes the connections and returns from
// Run(). A response being computed is always completed: the Database is never left half-written.
//
// Thread safety: Start, Run and Stop may be called from different threads; Stop is idempotent and
// safe to call from a signal-handling context of the io_context (it only posts work).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "partstore/database.h"
#include "partstore/status.h"
#include "tools/server/handler.h"

namespace partstore::transfer {
class Transfers;
}  // namespace partstore::transfer

namespace partstore::server {

struct ServerOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 8000;  // 0: any free port (see Server::port())
  int threads = 0;       // 0: DefaultServerThreads(the machine's cores)
  size_t max_body_bytes = 16 * 1024 * 1024;
  size_t max_header_bytes = 16 * 1024;
  std::chrono::milliseconds idle_timeout{std::chrono::seconds(60)};
  std::chrono::milliseconds request_timeout{std::chrono::seconds(30)};
  bool handle_signals = true;  // Run() stops on SIGINT / SIGTERM
  // Non-null: requests must be signed with one of these keys (SigV4); null: any credentials.
  std::shared_ptr<const AccessKeys> access_keys{};
  // Non-null: exports and imports (tools/transfer/transfers.h), which must outlive the server.
  transfer::Transfers* transfers = nullptr;
  // Appended to GET /metrics (e.g. the cache's counters with --upstream); empty: nothing.
  std::function<std::string()> extra_metrics{};
  // Set: further GET pages, offered each GET first (handler.h's HandlerOptions::pages): the live
  // page (tools/live/live_page.h).
  std::function<std::optional<Reply>(const HttpRequest&)> pages{};
};

// The worker threads a server runs when ServerOptions::threads is 0: one per core but one, and at
// least one (`cores` 0, unknown, gives 1). The core left over is for what shares the machine with
// the server: its clients (a local DynamoDB's tests and SDK programs run beside it) and the
// kernel's loopback and network processing (0.35-0.45 of a core at 60k requests/s). With a worker
// on every core, a worker the scheduler pre-empts in favour of a client leaves the connections it
// owns waiting a time slice: on 2 cores with `wrk -t1 -c16`, 2 workers served 47-51k GetItem/s
// with a p99 of 3.8-4.1 ms, 1 worker 63-67k/s with a p99 of 0.50-0.53 ms (bench/README.md, "The
// server's tail").
int DefaultServerThreads(unsigned cores);

class Server {
 public:
  Server(Database& db, ServerOptions options);
  // A server of `backend.store` (which must outlive it), e.g. a cache in front of another
  // endpoint (`partstore serve --upstream`): Partstore.<Op> need backend.engine.
  Server(protocol::Backend backend, ServerOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds and listens. An error (address in use, bad host) is returned, not thrown.
  Status Start();
  // The port listened on (after Start; useful with port 0).
  uint16_t port() const;
  // The worker threads it runs (ServerOptions::threads, or DefaultServerThreads).
  int threads() const;
  // Serves until Stop() (or a signal, with handle_signals). REQUIRES: Start() succeeded.
  void Run();
  // Graceful stop; see the header comment.
  void Stop();

  struct Impl;  // the network side (server.cc)

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace partstore::server
