// Helpers of the server's network tests (server_robustness_test.cc, server_connections_test.cc):
// a real server on an ephemeral port of 127.0.0.1 (RunningServer, the ServerConcurrentTest
// fixture) and raw Boost.Asio TCP clients that write bytes by hand (Client, ReadResponse,
// ClosedWithin). Timeouts are short so that each test stays well under 3 s with ThreadSanitizer.
#pragma once

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

namespace partstore::server::server_testing {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;
using namespace std::chrono_literals;

inline milliseconds Since(Clock::time_point start) {
  return std::chrono::duration_cast<milliseconds>(Clock::now() - start);
}

// A raw HTTP/1.1 request for the DynamoDB protocol.
inline std::string RawRequest(std::string_view operation, std::string_view body,
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

inline std::string PutBody(std::string_view key, int n) {
  return R"({"TableName":"Tbl","Item":{"pk":{"S":")" + std::string(key) + R"("},"n":{"N":")" +
         std::to_string(n) + R"("}}})";
}

inline std::string AddBody(std::string_view key, int delta) {
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
inline void RunUntil(net::io_context& ioc, tcp::socket& socket, const bool& done,
                     milliseconds timeout, beast::error_code* error) {
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
inline std::optional<HttpResponse> ReadResponse(net::io_context& ioc, tcp::socket& socket,
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
inline bool ClosedWithin(net::io_context& ioc, tcp::socket& socket, milliseconds timeout) {
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

inline std::string Header(const HttpResponse& response, std::string_view name) {
  auto it = response.find(beast::string_view(name.data(), name.size()));
  return it == response.end() ? "<missing>" : std::string(it->value());
}

// `count` TCP connections to the server on `port` (client sockets on `ioc`), or a failure
// naming the first that could not connect.
inline ::testing::AssertionResult ConnectMany(net::io_context& ioc, uint16_t port, int count,
                                              std::vector<tcp::socket>& out) {
  out.reserve(out.size() + static_cast<size_t>(count));
  const tcp::endpoint endpoint(net::ip::make_address("127.0.0.1"), port);
  for (int i = 0; i < count; ++i) {
    out.emplace_back(ioc);
    beast::error_code ec;
    out.back().connect(endpoint, ec);
    if (ec) return ::testing::AssertionFailure() << "connection " << i << ": " << ec.message();
  }
  return ::testing::AssertionSuccess();
}

inline ServerOptions TestOptions() {
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
inline void ExpectServes(uint16_t port) {
  Client client(port);
  ASSERT_TRUE(client.connected());
  auto response = client.Call(RawRequest("ListTables", "{}"));
  ASSERT_TRUE(response) << client.error().message();
  EXPECT_EQ(response->result(), http::status::ok);
  EXPECT_EQ(response->body(), R"({"TableNames":["Tbl"]})");
}

}  // namespace partstore::server::server_testing
