// Robustness tests for the network side of Server (tools/server/server.h): a real server on an
// ephemeral port of 127.0.0.1, raw Boost.Asio TCP clients writing bytes by hand. Keep-alive,
// pipelining, malformed and truncated requests, the body and header limits, deep JSON, slow and
// idle clients, concurrent writers, and graceful Stop.
//
// Every test here runs the server's thread pool next to the test's own client threads, so the
// suite is named ServerConcurrentTest: CI runs it under ThreadSanitizer (ctest -R Concurrent).
// Timeouts are configured short so that each test stays well under 3 s with TSan.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <cerrno>
#include <chrono>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "partstore/database.h"
#include "tools/protocol/dispatch.h"
#include "tools/server/server.h"

// Whether this is the AddressSanitizer build (clang spells it __has_feature; GCC
// __SANITIZE_ADDRESS__).
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PARTSTORE_HAS_ASAN_FEATURE 1
#endif
#endif
#ifndef PARTSTORE_HAS_ASAN_FEATURE
#define PARTSTORE_HAS_ASAN_FEATURE 0
#endif

namespace partstore::server {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;
using namespace std::chrono_literals;

milliseconds Since(Clock::time_point start) {
  return std::chrono::duration_cast<milliseconds>(Clock::now() - start);
}

// A raw HTTP/1.1 request for the DynamoDB protocol.
std::string RawRequest(std::string_view operation, std::string_view body,
                       std::string_view extra_headers = "") {
  std::string request = "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n";
  request += "Content-Type: application/x-amz-json-1.0\r\n";
  request += "X-Amz-Target: DynamoDB_20120810.";
  request += operation;
  request += "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
  request += extra_headers;
  request += "\r\n";
  request += body;
  return request;
}

std::string PutBody(std::string_view key, int n) {
  return R"({"TableName":"Tbl","Item":{"pk":{"S":")" + std::string(key) + R"("},"n":{"N":")" +
         std::to_string(n) + R"("}}})";
}

std::string AddBody(std::string_view key, int delta) {
  return R"({"TableName":"Tbl","Key":{"pk":{"S":")" + std::string(key) +
         R"("}},"UpdateExpression":"ADD n :d","ExpressionAttributeValues":{":d":{"N":")" +
         std::to_string(delta) + R"("}}})";
}

// One socket on its own io_context; every read has a deadline, so a test never hangs on a
// server that does not answer.
class Client {
 public:
  explicit Client(uint16_t port) : socket_(ioc_) {
    socket_.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port), connect_error_);
  }

  bool connected() const { return !connect_error_; }
  tcp::socket& socket() { return socket_; }

  // Writes all of `bytes`; false when the connection failed (e.g. the server closed it).
  bool Write(std::string_view bytes) {
    beast::error_code ec;
    net::write(socket_, net::buffer(bytes.data(), bytes.size()), ec);
    return !ec;
  }

  // One response, or nullopt (error() says why: end of stream, reset, timeout...).
  std::optional<HttpResponse> Read(milliseconds timeout = 2000ms) {
    http::response_parser<http::string_body> parser;
    parser.body_limit(64 * 1024 * 1024);
    bool done = false;
    http::async_read(socket_, buffer_, parser, [&](beast::error_code ec, size_t) {
      error_ = ec;
      done = true;
    });
    RunUntil(done, timeout);
    if (error_) return std::nullopt;
    return parser.release();
  }

  // Sends `request` and reads its response.
  std::optional<HttpResponse> Call(std::string_view request, milliseconds timeout = 2000ms) {
    if (!Write(request)) return std::nullopt;
    return Read(timeout);
  }

  // True when the server closes the connection (end of stream or reset) within `timeout`
  // without sending anything more.
  bool ClosedWithin(milliseconds timeout) {
    if (buffer_.size() != 0) return false;
    char byte;
    bool done = false;
    size_t read = 0;
    socket_.async_read_some(net::buffer(&byte, 1), [&](beast::error_code ec, size_t n) {
      error_ = ec;
      read = n;
      done = true;
    });
    RunUntil(done, timeout);
    return read == 0 && (error_ == net::error::eof || error_ == net::error::connection_reset);
  }

  beast::error_code error() const { return error_; }

 private:
  void RunUntil(bool& done, milliseconds timeout) {
    ioc_.restart();
    ioc_.run_for(timeout);
    if (!done) {
      beast::error_code ignored;
      socket_.cancel(ignored);
      ioc_.restart();
      ioc_.run();
      error_ = beast::error::timeout;
    }
  }

  net::io_context ioc_;
  tcp::socket socket_;
  beast::flat_buffer buffer_;
  beast::error_code connect_error_;
  beast::error_code error_;
};

// Runs `ioc` until `done` or `timeout`; on timeout cancels `socket` and sets *error.
void RunUntil(net::io_context& ioc, tcp::socket& socket, const bool& done, milliseconds timeout,
              beast::error_code* error) {
  ioc.restart();
  ioc.run_for(timeout);
  if (!done) {
    beast::error_code ignored;
    socket.cancel(ignored);
    ioc.restart();
    ioc.run();
    *error = beast::error::timeout;
  }
}

// One response read from `socket` (driven by `ioc`) within `timeout`.
std::optional<HttpResponse> ReadResponse(net::io_context& ioc, tcp::socket& socket,
                                         milliseconds timeout) {
  beast::flat_buffer buffer;
  HttpResponse response;
  beast::error_code error;
  bool done = false;
  http::async_read(socket, buffer, response, [&](beast::error_code ec, size_t) {
    error = ec;
    done = true;
  });
  RunUntil(ioc, socket, done, timeout, &error);
  if (error) return std::nullopt;
  return response;
}

// True when the peer closes `socket` (end of stream or reset) within `timeout`.
bool ClosedWithin(net::io_context& ioc, tcp::socket& socket, milliseconds timeout) {
  char byte;
  beast::error_code error;
  size_t read = 0;
  bool done = false;
  socket.async_read_some(net::buffer(&byte, 1), [&](beast::error_code ec, size_t n) {
    error = ec;
    read = n;
    done = true;
  });
  RunUntil(ioc, socket, done, timeout, &error);
  return read == 0 && (error == net::error::eof || error == net::error::connection_reset);
}

std::string Header(const HttpResponse& response, std::string_view name) {
  auto it = response.find(beast::string_view(name.data(), name.size()));
  return it == response.end() ? "<missing>" : std::string(it->value());
}

ServerOptions TestOptions() {
  ServerOptions options;
  options.host = "127.0.0.1";
  options.port = 0;
  options.threads = 2;
  options.handle_signals = false;
  options.idle_timeout = 5s;
  options.request_timeout = 1s;
  return options;
}

// A Server running on a background thread.
class RunningServer {
 public:
  RunningServer(Database& db, ServerOptions options) : server_(db, std::move(options)) {
    start_status_ = server_.Start();
    if (start_status_.ok()) thread_ = std::thread([this] { server_.Run(); });
  }
  ~RunningServer() { Stop(); }

  const Status& start_status() const { return start_status_; }
  uint16_t port() const { return server_.port(); }
  Server& server() { return server_; }

  // Stop() and wait for Run() to return; how long that took.
  milliseconds Stop() {
    const auto start = Clock::now();
    server_.Stop();
    if (thread_.joinable()) thread_.join();
    return Since(start);
  }

 private:
  Server server_;
  Status start_status_;
  std::thread thread_;
};

class ServerConcurrentTest : public ::testing::Test {
 protected:
  void SetUp() override {
    protocol::Response created =
        protocol::Dispatch(db_, "CreateTable",
                           R"({"TableName":"Tbl","BillingMode":"PAY_PER_REQUEST",)"
                           R"("AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],)"
                           R"("KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]})");
    ASSERT_EQ(created.http_status, 200) << created.body;
  }

  std::unique_ptr<RunningServer> StartServer(ServerOptions options = TestOptions()) {
    auto server = std::make_unique<RunningServer>(db_, std::move(options));
    EXPECT_TRUE(server->start_status().ok()) << server->start_status().message();
    EXPECT_NE(server->port(), 0);
    return server;
  }

  // The item stored under `key`, read from the Database directly.
  std::optional<Item> Stored(std::string_view key) {
    GetItemRequest request;
    request.table_name = "Tbl";
    request.key = Item{{"pk", Value(std::string(key))}};
    request.consistent_read = true;
    Result<GetItemResult> result = db_.GetItem(request);
    EXPECT_TRUE(result.ok());
    if (!result.ok()) return std::nullopt;
    return result->item;
  }

  int StoredCount() {
    ScanRequest request;
    request.table_name = "Tbl";
    request.select = Select::kCount;
    Result<ScanResult> result = db_.Scan(request);
    EXPECT_TRUE(result.ok());
    return result.ok() ? result->count : -1;
  }

  Database db_;
};

// Checks that a plain request on a fresh connection is answered.
void ExpectServes(uint16_t port) {
  Client client(port);
  ASSERT_TRUE(client.connected());
  auto response = client.Call(RawRequest("ListTables", "{}"));
  ASSERT_TRUE(response) << client.error().message();
  EXPECT_EQ(response->result(), http::status::ok);
  EXPECT_EQ(response->body(), R"({"TableNames":["Tbl"]})");
}

TEST_F(ServerConcurrentTest, StartStopIsPrompt) {
  auto server = StartServer();
  ExpectServes(server->port());
  EXPECT_LT(server->Stop(), 500ms);
  // After Stop, nothing listens any more.
  Client late(server->port());
  EXPECT_FALSE(late.connected() && late.Call(RawRequest("ListTables", "{}"), 300ms));
}

TEST_F(ServerConcurrentTest, StartFailsOnBadHostOrPortInUse) {
  auto first = StartServer();
  ServerOptions options = TestOptions();
  options.port = first->port();
  Server second(db_, options);
  EXPECT_FALSE(second.Start().ok());
  options.host = "not an address";
  options.port = 0;
  Server third(db_, options);
  EXPECT_FALSE(third.Start().ok());
}

TEST_F(ServerConcurrentTest, KeepAliveServesSeveralRequestsOnOneConnection) {
  auto server = StartServer();
  Client client(server->port());
  ASSERT_TRUE(client.connected());
  for (int i = 0; i < 10; ++i) {
    auto response = client.Call(RawRequest("PutItem", PutBody("k" + std::to_string(i), i)));
    ASSERT_TRUE(response) << "request " << i << ": " << client.error().message();
    EXPECT_EQ(response->result(), http::status::ok) << response->body();
    EXPECT_TRUE(response->keep_alive());
    EXPECT_EQ(Header(*response, "Content-Type"), "application/x-amz-json-1.0");
    EXPECT_EQ(Header(*response, "x-amzn-RequestId").size(), 52u);
    EXPECT_NE(Header(*response, "x-amz-crc32"), "<missing>");
  }
  // The health check on the same connection.
  auto health = client.Call("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->result(), http::status::ok);
  EXPECT_TRUE(health->body().starts_with("healthy: ")) << health->body();
  EXPECT_EQ(StoredCount(), 10);
}

TEST_F(ServerConcurrentTest, PipelinedRequestsAreAnsweredInOrder) {
  auto server = StartServer();
  Client client(server->port());
  ASSERT_TRUE(client.connected());
  std::string batch;
  for (int i = 0; i < 5; ++i) batch += RawRequest("PutItem", PutBody("p", i));
  batch += RawRequest("GetItem", R"({"TableName":"Tbl","Key":{"pk":{"S":"p"}}})");
  batch += RawRequest("NoSuchOperation", "{}");
  batch += RawRequest("ListTables", "{}");
  ASSERT_TRUE(client.Write(batch));
  for (int i = 0; i < 5; ++i) {
    auto put = client.Read();
    ASSERT_TRUE(put) << i << ": " << client.error().message();
    EXPECT_EQ(put->body(), "{}");
  }
  auto get = client.Read();
  ASSERT_TRUE(get);
  EXPECT_EQ(get->body(), R"({"Item":{"n":{"N":"4"},"pk":{"S":"p"}}})");
  auto unknown = client.Read();
  ASSERT_TRUE(unknown);
  EXPECT_EQ(unknown->result(), http::status::bad_request);
  EXPECT_EQ(unknown->body(), R"({"__type":"com.amazon.coral.service#UnknownOperationException"})");
  EXPECT_TRUE(unknown->keep_alive());  // an error answer keeps the connection
  auto list = client.Read();
  ASSERT_TRUE(list);
  EXPECT_EQ(list->body(), R"({"TableNames":["Tbl"]})");
}

TEST_F(ServerConcurrentTest, ChunkedBody) {
  auto server = StartServer();
  Client client(server->port());
  ASSERT_TRUE(client.connected());
  const std::string body = PutBody("chunked", 42);
  const std::string first = body.substr(0, 10), rest = body.substr(10);
  char sizes[64];
  std::snprintf(sizes, sizeof(sizes), "%zx", first.size());
  std::string request =
      "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-amz-json-1.0\r\n"
      "X-Amz-Target: DynamoDB_20120810.PutItem\r\nTransfer-Encoding: chunked\r\n\r\n";
  request += std::string(sizes) + "\r\n" + first + "\r\n";
  std::snprintf(sizes, sizeof(sizes), "%zx", rest.size());
  request += std::string(sizes) + "\r\n" + rest + "\r\n0\r\n\r\n";
  auto response = client.Call(request);
  ASSERT_TRUE(response) << client.error().message();
  EXPECT_EQ(response->result(), http::status::ok) << response->body();
  auto item = Stored("chunked");
  ASSERT_TRUE(item);
  EXPECT_EQ(item->at("n"), Value(42));
}

TEST_F(ServerConcurrentTest, ConnectionCloseAndHttp10AreHonoured) {
  auto server = StartServer();
  {
    Client client(server->port());
    auto response = client.Call(RawRequest("ListTables", "{}", "Connection: close\r\n"));
    ASSERT_TRUE(response);
    EXPECT_EQ(response->result(), http::status::ok);
    EXPECT_FALSE(response->keep_alive());
    EXPECT_TRUE(client.ClosedWithin(1000ms));
  }
  {
    Client client(server->port());
    std::string request = RawRequest("ListTables", "{}");
    request.replace(request.find("HTTP/1.1"), 8, "HTTP/1.0");
    auto response = client.Call(request);
    ASSERT_TRUE(response);
    EXPECT_EQ(response->result(), http::status::ok);
    EXPECT_EQ(response->version(), 10u);
    EXPECT_TRUE(client.ClosedWithin(1000ms));
  }
}

TEST_F(ServerConcurrentTest, MalformedRequestLineGets400ThenClose) {
  auto server = StartServer();
  for (std::string_view garbage :
       {"GARBAGE\r\n\r\n", "\x01\x02\x03 / HTTP/1.1\r\n\r\n", "POST / HTTP/1.1 trailing\r\n\r\n",
        "POST / HTTP/1.1\r\nContent-Length: abc\r\n\r\n",
        "POST / HTTP/1.1\r\nBad Header Without Colon\r\n\r\n"}) {
    Client client(server->port());
    ASSERT_TRUE(client.connected());
    ASSERT_TRUE(client.Write(garbage));
    auto response = client.Read();
    ASSERT_TRUE(response) << "'" << garbage << "': " << client.error().message();
    EXPECT_EQ(response->result(), http::status::bad_request) << garbage;
    EXPECT_EQ(response->body(), R"({"__type":"com.amazon.coral.service#SerializationException",)"
                                R"("message":"Malformed HTTP request"})");
    EXPECT_EQ(Header(*response, "Content-Type"), "application/x-amz-json-1.0");
    EXPECT_FALSE(response->keep_alive());
    EXPECT_TRUE(client.ClosedWithin(1000ms)) << garbage;
  }
  ExpectServes(server->port());
}

TEST_F(ServerConcurrentTest, TruncatedBodyThenCloseDoesNotStopServing) {
  auto server = StartServer();
  for (int i = 0; i < 5; ++i) {
    Client client(server->port());
    ASSERT_TRUE(client.connected());
    const std::string body = PutBody("truncated", 1);
    std::string request = RawRequest("PutItem", body);
    const std::string length = "Content-Length: " + std::to_string(body.size());
    request.replace(request.find(length), length.size(),
                    "Content-Length: " + std::to_string(body.size() + 40));  // more than sent
    ASSERT_TRUE(client.Write(request.substr(0, request.size() - 10)));
    beast::error_code ignored;
    if (i % 2 == 0) client.socket().shutdown(tcp::socket::shutdown_send, ignored);
    client.socket().close(ignored);
  }
  ExpectServes(server->port());
  EXPECT_FALSE(Stored("truncated"));
  EXPECT_LT(server->Stop(), 500ms);
}

TEST_F(ServerConcurrentTest, BodyOverTheLimitGets413ThenClose) {
  ServerOptions options = TestOptions();
  options.max_body_bytes = 1024;
  auto server = StartServer(options);
  auto expect_413 = [](Client& client) {
    auto response = client.Read();
    ASSERT_TRUE(response) << client.error().message();
    EXPECT_EQ(response->result(), http::status::payload_too_large);
    EXPECT_EQ(Header(*response, "Content-Type"), "application/x-amz-json-1.0");
    EXPECT_EQ(Header(*response, "x-amzn-RequestId").size(), 52u);
    EXPECT_TRUE(response->body().starts_with(
        R"({"__type":"com.amazon.coral.validate#ValidationException","message":")"))
        << response->body();
    EXPECT_FALSE(response->keep_alive());
    EXPECT_TRUE(client.ClosedWithin(1000ms));
  };
  const std::string big = PutBody(std::string(2000, 'x'), 1);
  {  // Announced by Content-Length.
    Client client(server->port());
    ASSERT_TRUE(client.Write(RawRequest("PutItem", big)));
    expect_413(client);
  }
  {  // Announced only by the header; the body never comes.
    Client client(server->port());
    std::string request = RawRequest("PutItem", "");
    request.replace(request.find("Content-Length: 0"), 17, "Content-Length: 999999999");
    ASSERT_TRUE(client.Write(request));
    expect_413(client);
  }
  {  // Chunked: found while reading the body.
    Client client(server->port());
    std::string request =
        "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-amz-json-1.0\r\n"
        "X-Amz-Target: DynamoDB_20120810.PutItem\r\nTransfer-Encoding: chunked\r\n\r\n";
    for (int i = 0; i < 3; ++i) request += "200\r\n" + std::string(0x200, ' ') + "\r\n";
    request += "0\r\n\r\n";
    client.Write(request);  // the server may close before reading it all
    expect_413(client);
  }
  {  // Exactly at the limit is fine.
    Client client(server->port());
    std::string body = PutBody("at-limit", 1);
    body.insert(body.size() - 1, std::string(1024 - body.size(), ' '));
    ASSERT_EQ(body.size(), 1024u);
    auto response = client.Call(RawRequest("PutItem", body));
    ASSERT_TRUE(response) << client.error().message();
    EXPECT_EQ(response->result(), http::status::ok) << response->body();
  }
  EXPECT_EQ(StoredCount(), 1);
  ExpectServes(server->port());
}

TEST_F(ServerConcurrentTest, HugeHeadersGet431ThenClose) {
  auto server = StartServer();  // 16 KB header limit
  Client client(server->port());
  ASSERT_TRUE(client.connected());
  client.Write(RawRequest("ListTables", "{}", "X-Padding: " + std::string(20000, 'a') + "\r\n"));
  auto response = client.Read();
  ASSERT_TRUE(response) << client.error().message();
  EXPECT_EQ(response->result(), http::status::request_header_fields_too_large);
  EXPECT_EQ(Header(*response, "Content-Type"), "application/x-amz-json-1.0");
  EXPECT_TRUE(response->body().starts_with(R"({"__type":"com.amazon.coral.service#)"))
      << response->body();
  EXPECT_FALSE(response->keep_alive());
  EXPECT_TRUE(client.ClosedWithin(1000ms));

  // Many small headers adding up over the limit too.
  Client many(server->port());
  std::string headers;
  for (int i = 0; i < 1000; ++i) headers += "X-H" + std::to_string(i) + ": 0123456789\r\n";
  many.Write(RawRequest("ListTables", "{}", headers));
  auto many_response = many.Read();
  ASSERT_TRUE(many_response) << many.error().message();
  EXPECT_EQ(many_response->result(), http::status::request_header_fields_too_large);

  // Just under the limit is served.
  Client under(server->port());
  auto ok =
      under.Call(RawRequest("ListTables", "{}", "X-Padding: " + std::string(15000, 'a') + "\r\n"));
  ASSERT_TRUE(ok) << under.error().message();
  EXPECT_EQ(ok->result(), http::status::ok);
}

TEST_F(ServerConcurrentTest, DeepJsonNestingIsSerializationException) {
  auto server = StartServer();
  Client client(server->port());
  for (std::string_view operation : {"PutItem", "Query", "NoSuchOperation"}) {
    auto response = client.Call(RawRequest(operation, std::string(100000, '[')));
    ASSERT_TRUE(response) << client.error().message();
    EXPECT_EQ(response->result(), http::status::bad_request);
    EXPECT_EQ(response->body(), R"({"__type":"com.amazon.coral.service#SerializationException"})");
  }
  auto deep_item = client.Call(
      RawRequest("PutItem", R"({"TableName":"Tbl","Item":{"pk":{"S":"d"},"m":)" +
                                std::string(50000, '{') + std::string(50000, '}') + "}}"));
  ASSERT_TRUE(deep_item) << client.error().message();
  EXPECT_EQ(deep_item->result(), http::status::bad_request);
  ExpectServes(server->port());
}

TEST_F(ServerConcurrentTest, SlowClientIsClosedAfterRequestTimeoutWhileOthersAreServed) {
  ServerOptions options = TestOptions();
  options.request_timeout = 400ms;
  options.idle_timeout = 700ms;
  auto server = StartServer(options);

  // Headers and half the body, then silence: the request timeout.
  Client slow_body(server->port());
  const std::string request = RawRequest("PutItem", PutBody("slow", 1));
  ASSERT_TRUE(slow_body.Write(request.substr(0, request.size() - 10)));
  const auto body_start = Clock::now();
  // Half of the header block, then silence: the idle timeout (the header is read under it).
  Client slow_header(server->port());
  ASSERT_TRUE(slow_header.Write(request.substr(0, 40)));
  const auto header_start = Clock::now();

  // Others are served meanwhile, promptly.
  Client other(server->port());
  for (int i = 0; i < 10; ++i) {
    const auto start = Clock::now();
    auto response = other.Call(RawRequest("ListTables", "{}"));
    ASSERT_TRUE(response) << other.error().message();
    EXPECT_EQ(response->result(), http::status::ok);
    EXPECT_LT(Since(start), 300ms);
  }

  EXPECT_TRUE(slow_body.ClosedWithin(1500ms)) << slow_body.error().message();
  const milliseconds body_closed = Since(body_start);
  EXPECT_GE(body_closed, 350ms);
  EXPECT_LT(body_closed, 1500ms);
  EXPECT_TRUE(slow_header.ClosedWithin(1500ms)) << slow_header.error().message();
  const milliseconds header_closed = Since(header_start);
  EXPECT_GE(header_closed, 600ms);
  EXPECT_LT(header_closed, 2000ms);
  EXPECT_FALSE(Stored("slow"));

  // A keep-alive connection left idle is closed after the idle timeout.
  Client idle(server->port());
  auto response = idle.Call(RawRequest("ListTables", "{}"));
  ASSERT_TRUE(response) << idle.error().message();
  const auto idle_start = Clock::now();
  EXPECT_TRUE(idle.ClosedWithin(1500ms));
  EXPECT_GE(Since(idle_start), 600ms);
  EXPECT_LT(server->Stop(), 500ms);
}

TEST_F(ServerConcurrentTest, ThousandIdleConnectionsDoNotStarveOthers) {
  constexpr int kIdle = 1000;
  // Each idle connection costs two descriptors in this process (client and server side).
  constexpr rlim_t kNeeded = 2 * kIdle + 256;
  rlimit limit{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &limit), 0);
  if (limit.rlim_cur < kNeeded) {
    if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max < kNeeded) {
      GTEST_SKIP() << "RLIMIT_NOFILE hard limit " << limit.rlim_max << " is below the " << kNeeded
                   << " descriptors this test needs";
    }
    limit.rlim_cur = kNeeded;
    ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &limit), 0);
  }

  ServerOptions options = TestOptions();
  options.idle_timeout = 3s;  // longer than the test; what Stop must not wait for
  auto server = StartServer(options);
  net::io_context ioc;
  std::vector<tcp::socket> idle;
  idle.reserve(kIdle);
  const tcp::endpoint endpoint(net::ip::make_address("127.0.0.1"), server->port());
  for (int i = 0; i < kIdle; ++i) {
    idle.emplace_back(ioc);
    beast::error_code ec;
    idle.back().connect(endpoint, ec);
    ASSERT_FALSE(ec) << "connection " << i << ": " << ec.message();
  }
  // Half of them also sent a partial header.
  for (int i = 0; i < kIdle; i += 2) {
    net::write(idle[i], net::buffer(std::string_view("POST / HTTP/1.1\r\nHost: x\r\n")));
  }

  const auto start = Clock::now();
  Client client(server->port());
  ASSERT_TRUE(client.connected());
  for (int i = 0; i < 20; ++i) {
    auto response = client.Call(RawRequest("ListTables", "{}"));
    ASSERT_TRUE(response) << client.error().message();
    EXPECT_EQ(response->result(), http::status::ok);
  }
  EXPECT_LT(Since(start), 2000ms);

  // The last idle connection opened is served too (every connection was accepted).
  {
    const std::string request = RawRequest("ListTables", "{}");
    net::write(idle.back(), net::buffer(request));
    auto response = ReadResponse(ioc, idle.back(), 2000ms);
    ASSERT_TRUE(response);
    EXPECT_EQ(response->result(), http::status::ok);
  }

  // Stop closes them all promptly.
  EXPECT_LT(server->Stop(), 1000ms);
  for (int i : {0, 1, kIdle / 2, kIdle - 1}) {
    EXPECT_TRUE(ClosedWithin(ioc, idle[i], 1000ms)) << "idle connection " << i;
  }
}

// Scale: 10,000 keep-alive connections held open (or as many as the open-file limit allows:
// each costs two descriptors in this process, client and server side) while another client is
// served promptly; then Stop closes them all. Not a concurrency test (ThreadSanitizer would make
// it slow): the fixture's name leaves it out of the TSan run.
using ServerScaleTest = ServerConcurrentTest;

TEST_F(ServerScaleTest, TenThousandKeepAliveConnections) {
  rlimit limit{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &limit), 0);
  const rlim_t hard = limit.rlim_max == RLIM_INFINITY ? rlim_t{1} << 20 : limit.rlim_max;
  const int connections = static_cast<int>(std::min<rlim_t>(10000, (hard - 256) / 2));
  if (connections < 1000) GTEST_SKIP() << "RLIMIT_NOFILE hard limit " << hard << " is too low";
  limit.rlim_cur = std::max(limit.rlim_cur, std::min(hard, rlim_t(2 * connections + 256)));
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &limit), 0);
  std::cout << "holding " << connections << " connections\n";

  ServerOptions options = TestOptions();
  options.idle_timeout = 30s;
  auto server = StartServer(options);
  net::io_context ioc;
  std::vector<tcp::socket> held;
  held.reserve(connections);
  const tcp::endpoint endpoint(net::ip::make_address("127.0.0.1"), server->port());
  for (int i = 0; i < connections; ++i) {
    held.emplace_back(ioc);
    beast::error_code ec;
    held.back().connect(endpoint, ec);
    ASSERT_FALSE(ec) << "connection " << i << ": " << ec.message();
  }
  // Every tenth has had a request answered (a keep-alive connection between requests).
  for (int i = 0; i < connections; i += 10) {
    net::write(held[i], net::buffer(RawRequest("ListTables", "{}")));
  }
  for (int i = 0; i < connections; i += 10) {
    auto response = ReadResponse(ioc, held[i], 10000ms);
    ASSERT_TRUE(response) << "connection " << i;
  }
  // Another client is served while they are held (a liveness bound, not a speed target).
  const auto start = Clock::now();
  Client client(server->port());
  ASSERT_TRUE(client.connected());
  for (int i = 0; i < 50; ++i) {
    auto response = client.Call(RawRequest("ListTables", "{}"));
    ASSERT_TRUE(response) << client.error().message();
  }
  EXPECT_LT(Since(start), 5000ms);
  // The last connection opened works too, and Stop closes them all.
  net::write(held.back(), net::buffer(RawRequest("ListTables", "{}")));
  ASSERT_TRUE(ReadResponse(ioc, held.back(), 5000ms));
  EXPECT_LT(server->Stop(), 5000ms);
  for (int i : {0, 1, connections / 2, connections - 1}) {
    EXPECT_TRUE(ClosedWithin(ioc, held[i], 2000ms)) << "connection " << i;
  }
}

// Out of file descriptors, the accept loop waits instead of spinning: connections that arrive
// meanwhile wait in the listen queue and are served once descriptors are free again.
TEST_F(ServerConcurrentTest, OutOfDescriptorsAcceptWaitsInsteadOfSpinning) {
#if defined(__SANITIZE_ADDRESS__) || PARTSTORE_HAS_ASAN_FEATURE
  // The ASan + UBSan tree: UBSan's vptr check reads memory through a pipe (sanitizer_common's
  // IsAccessibleMemoryRange), which cannot be made while the process is out of descriptors, so
  // every check in the window reports "invalid vptr" (seen in CI: in Boost.Asio's timer queue).
  // The test runs in the Release and ThreadSanitizer builds.
  GTEST_SKIP() << "the sanitizer runtime itself needs file descriptors";
#endif
  auto server = StartServer(TestOptions());
  net::io_context ioc;
  constexpr int kClients = 3;
  std::vector<tcp::socket> clients;
  for (int i = 0; i < kClients; ++i) {
    clients.emplace_back(ioc);
    clients.back().open(tcp::v4());  // the descriptors exist before the limit drops
  }
  rlimit saved{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &saved), 0);
  int open_now = 0;
  for (int fd = 0; fd < 65536; ++fd) {
    if (fcntl(fd, F_GETFD) != -1) open_now = fd + 1;  // the highest descriptor in use, + 1
  }
  rlimit lowered = saved;
  lowered.rlim_cur = static_cast<rlim_t>(open_now);  // no descriptor left for accept()
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &lowered), 0);
  // Free numbers below the limit would still be handed out: take them all.
  std::vector<int> fillers;
  for (int fd; (fd = dup(STDERR_FILENO)) != -1;) fillers.push_back(fd);
  ASSERT_EQ(errno, EMFILE);
  const tcp::endpoint endpoint(net::ip::make_address("127.0.0.1"), server->port());
  for (tcp::socket& client : clients) {
    beast::error_code ec;
    client.connect(endpoint, ec);  // completes in the kernel's listen queue
    EXPECT_FALSE(ec) << ec.message();
  }
  auto cpu_seconds = [] {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
           (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
  };
  const double cpu_before = cpu_seconds();
  std::this_thread::sleep_for(400ms);
  const double cpu_used = cpu_seconds() - cpu_before;
  for (int fd : fillers) close(fd);
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &saved), 0);
  EXPECT_LT(cpu_used, 0.15) << "the accept loop spun while out of descriptors";
  // Descriptors are back: every waiting connection is accepted and answered.
  for (tcp::socket& client : clients) {
    net::write(client, net::buffer(RawRequest("ListTables", "{}")));
    auto response = ReadResponse(ioc, client, 2000ms);
    ASSERT_TRUE(response);
    EXPECT_EQ(response->result(), http::status::ok);
  }
  EXPECT_LT(server->Stop(), 1000ms);
}

TEST_F(ServerConcurrentTest, ConcurrentWritersAreAppliedExactlyOnce) {
  auto server = StartServer(TestOptions());
  constexpr int kClients = 4;
  constexpr int kRequests = 40;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kClients; ++t) {
    threads.emplace_back([&, t] {
      Client client(server->port());
      if (!client.connected()) {
        failures += kRequests;
        return;
      }
      for (int i = 0; i < kRequests; ++i) {
        const std::string key = "w" + std::to_string(t) + "-" + std::to_string(i);
        // Every other round trip pipelines the two requests.
        const std::string put = RawRequest("PutItem", PutBody(key, i));
        const std::string add = RawRequest("UpdateItem", AddBody("counter", 1));
        std::optional<HttpResponse> a, b;
        if (i % 2 == 0) {
          a = client.Call(put);
          b = client.Call(add);
        } else if (client.Write(put + add)) {
          a = client.Read();
          b = client.Read();
        }
        if (!a || a->result() != http::status::ok) ++failures;
        if (!b || b->result() != http::status::ok) ++failures;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);

  auto counter = Stored("counter");
  ASSERT_TRUE(counter);
  EXPECT_EQ(counter->at("n"), Value(kClients * kRequests));
  for (int t = 0; t < kClients; ++t) {
    for (int i = 0; i < kRequests; ++i) {
      auto item = Stored("w" + std::to_string(t) + "-" + std::to_string(i));
      ASSERT_TRUE(item) << t << "-" << i;
      EXPECT_EQ(item->at("n"), Value(i));
    }
  }
  EXPECT_EQ(StoredCount(), kClients * kRequests + 1);
}

TEST_F(ServerConcurrentTest, StopWhileAClientIsMidRequestCompletesIt) {
  ServerOptions options = TestOptions();
  options.request_timeout = 1500ms;
  auto server = StartServer(options);
  // An idle keep-alive connection: closed by Stop at once.
  Client idle(server->port());
  ASSERT_TRUE(idle.Call(RawRequest("ListTables", "{}")));

  Client client(server->port());
  ASSERT_TRUE(client.connected());
  const std::string request = RawRequest("PutItem", PutBody("mid", 5));
  const size_t split = request.size() - 8;  // headers and most of the body
  ASSERT_TRUE(client.Write(request.substr(0, split)));
  std::this_thread::sleep_for(100ms);  // let the server read the header

  const auto stop_start = Clock::now();
  std::thread stopper([&] { server->Stop(); });
  EXPECT_TRUE(idle.ClosedWithin(1000ms));
  std::this_thread::sleep_for(50ms);
  ASSERT_TRUE(client.Write(request.substr(split)));
  auto response = client.Read();
  stopper.join();
  EXPECT_LT(Since(stop_start), 1000ms);

  // The request in progress was completed, with the connection closing after it; or (had Stop
  // come first) the connection was closed without applying it. Never half of it.
  if (response) {
    EXPECT_EQ(response->result(), http::status::ok) << response->body();
    EXPECT_FALSE(response->keep_alive());
    auto item = Stored("mid");
    ASSERT_TRUE(item);
    EXPECT_EQ(item->at("n"), Value(5));
    EXPECT_TRUE(client.ClosedWithin(1000ms));
  } else {
    ADD_FAILURE() << "the request in progress was dropped: " << client.error().message();
    EXPECT_FALSE(Stored("mid"));
  }
}

TEST_F(ServerConcurrentTest, ConcurrentStopUnderLoadLeavesTheDatabaseConsistent) {
  auto server = StartServer();
  constexpr int kClients = 4;
  std::atomic<int> applied{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < kClients; ++t) {
    threads.emplace_back([&] {
      while (!go.load()) std::this_thread::yield();
      // Reconnects until the server no longer accepts.
      for (int attempt = 0; attempt < 1000; ++attempt) {
        Client client(server->port());
        if (!client.connected()) return;
        while (true) {
          auto response = client.Call(RawRequest("UpdateItem", AddBody("load", 1)), 1500ms);
          if (!response) break;
          if (response->result() == http::status::ok) ++applied;
          if (!response->keep_alive()) break;
        }
      }
    });
  }
  go = true;
  std::this_thread::sleep_for(200ms);
  const milliseconds stop_time = server->Stop();
  for (std::thread& t : threads) t.join();
  EXPECT_LT(stop_time, 1000ms);
  EXPECT_GT(applied.load(), 0);
  // Every write the server applied was answered, and every answered write was applied.
  auto item = Stored("load");
  ASSERT_TRUE(item);
  EXPECT_EQ(item->at("n"), Value(applied.load()));
}

TEST_F(ServerConcurrentTest, ConcurrentStopWhileClientsConnect) {
  ServerOptions options = TestOptions();
  options.idle_timeout = 30s;  // a connection Stop missed would hold Run() this long
  for (int round = 0; round < 3; ++round) {
    auto server = StartServer(options);
    std::atomic<bool> stop_clients{false};
    std::vector<std::thread> threads;
    for (int t = 0; t < 2; ++t) {
      threads.emplace_back([&] {
        net::io_context ioc;
        std::vector<tcp::socket> sockets;
        const tcp::endpoint endpoint(net::ip::make_address("127.0.0.1"), server->port());
        while (!stop_clients.load() && sockets.size() < 200) {
          sockets.emplace_back(ioc);
          beast::error_code ec;
          sockets.back().connect(endpoint, ec);
          if (ec) break;
        }
      });
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20 + 20 * round));
    const milliseconds stop_time = server->Stop();
    stop_clients = true;
    for (std::thread& t : threads) t.join();
    EXPECT_LT(stop_time, 1000ms) << "round " << round;
  }
}

}  // namespace
}  // namespace partstore::server
