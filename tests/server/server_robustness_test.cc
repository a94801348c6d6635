// Robustness tests for the network side of Server (tools/server/server.h): a real server on an
// ephemeral port of 127.0.0.1, raw Boost.Asio TCP clients writing bytes by hand. Keep-alive,
// pipelining, malformed and truncated requests, the body and header limits, deep JSON, slow
// clients, concurrent writers, and graceful Stop. Many connections at once, and running out of
// descriptors: server_connections_test.cc.
//
// Every test here runs the server's thread pool next to the test's own client threads, so the
// suite is named ServerConcurrentTest: CI runs it under ThreadSanitizer (ctest -R Concurrent).
#include <gtest/gtest.h>

#include <thread>

#include "tests/server/server_testutil.h"

namespace partstore::server {
namespace {

using namespace server_testing;  // NOLINT(build/namespaces): the suite's helpers

TEST_F(ServerConcurrentTest, StartStopIsPrompt) {
  auto server = StartServer();
  ExpectServes(server->port());
  EXPECT_LT(server->Stop(), 500ms);
  // After Stop, nothing listens any more.
  Client late(server->port());
  EXPECT_FALSE(late.connected() && late.Call(RawRequest("ListTables", "{}"), 300ms));
}

// By default a worker per core but one, leaving a core to the clients beside the server and the
// kernel's network processing (server.h, DefaultServerThreads); --threads is taken as given.
TEST(ServerThreadsTest, DefaultIsOnePerCoreButOne) {
  EXPECT_EQ(DefaultServerThreads(0), 1);  // the core count unknown
  EXPECT_EQ(DefaultServerThreads(1), 1);
  EXPECT_EQ(DefaultServerThreads(2), 1);
  EXPECT_EQ(DefaultServerThreads(8), 7);
  Database db;
  ServerOptions options = TestOptions();
  options.threads = 0;
  EXPECT_EQ(Server(db, options).threads(),
            DefaultServerThreads(std::thread::hardware_concurrency()));
  options.threads = 3;
  Server three(db, options);
  ASSERT_TRUE(three.Start().ok());
  EXPECT_EQ(three.threads(), 3);
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
  EXPECT_EQ(unknown->body(), R"({"__type":"com.amazon.coral.service#UnknownOperationException",)"
                             R"("message":"Unknown operation exception: NoSuchOperation"})");
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

// A request header announcing 21 MB to a server of 1 MB: the 413 comes before the body.
std::string OversizedHeader() {
  std::string request = RawRequest("PutItem", "");
  request.replace(request.find("Content-Length: 0"), 17,
                  "Content-Length: " + std::to_string(21 << 20));
  return request;
}

// The connections the server holds open now, as GET /metrics reports them (this one included).
int OpenConnections(uint16_t port) {
  Client client(port);
  auto response = client.Call("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  if (!response) return -1;
  const std::string_view body = response->body();
  constexpr std::string_view kGauge = "\npartstore_connections ";
  const size_t at = body.find(kGauge);
  if (at == std::string_view::npos) return -1;
  return std::atoi(body.data() + at + kGauge.size());
}

// What an ordinary HTTP client does with an oversized body (curl, Python's http.client, the
// SDKs): sends it whole, then reads the answer. It must read the 413, not a broken pipe or a
// reset: the server answers as soon as the header says too much, ends its side of the stream,
// and drops what still arrives instead of closing on unread bytes (which resets the connection).
TEST_F(ServerConcurrentTest, AClientSendingAnOversizedBodyWholeReadsThe413) {
  ServerOptions options = TestOptions();
  options.max_body_bytes = 1 << 20;
  options.request_timeout = 3s;
  auto server = StartServer(options);
  {  // Header and body in one write of 21 MB, read only after it.
    Client client(server->port());
    ASSERT_TRUE(client.connected());
    std::string request = OversizedHeader();
    request.append(21 << 20, ' ');
    const auto start = Clock::now();
    ASSERT_TRUE(client.Write(request)) << "the server reset the connection mid-body";
    auto response = client.Read();
    ASSERT_TRUE(response) << client.error().message();
    EXPECT_EQ(response->result(), http::status::payload_too_large);
    EXPECT_EQ(response->body(), R"({"__type":"com.amazon.coral.validate#ValidationException",)"
                                R"("message":"Request size exceeded 1048576 bytes"})");
    EXPECT_FALSE(response->keep_alive());
    EXPECT_TRUE(client.ClosedWithin(1000ms));
    EXPECT_LT(Since(start), 2000ms);
  }
  {  // The 413 is there before the body is sent; a client that sends the body anyway is not
     // reset either.
    Client client(server->port());
    ASSERT_TRUE(client.Write(OversizedHeader()));
    auto response = client.Read(1000ms);
    ASSERT_TRUE(response) << client.error().message();
    EXPECT_EQ(response->result(), http::status::payload_too_large);
    EXPECT_EQ(Header(*response, "Connection"), "close");
    EXPECT_TRUE(client.ClosedWithin(1000ms));  // the server's side ended after the answer
    for (int i = 0; i < 21; ++i) {
      ASSERT_TRUE(client.Write(std::string(1 << 20, ' '))) << "reset after " << i << " MB";
    }
  }
  EXPECT_EQ(StoredCount(), 0);
  ExpectServes(server->port());
}

// The drain is bounded: a client that neither sends the body nor closes is closed at the request
// timeout, and Stop does not wait for a draining connection.
TEST_F(ServerConcurrentTest, ADrainingConnectionIsClosedAtTheRequestTimeoutAndByStop) {
  ServerOptions options = TestOptions();
  options.max_body_bytes = 1 << 20;
  auto server = StartServer(options);  // request timeout 1 s
  Client silent(server->port());
  ASSERT_TRUE(silent.Write(OversizedHeader()));
  auto response = silent.Read(1000ms);
  ASSERT_TRUE(response) << silent.error().message();
  EXPECT_EQ(response->result(), http::status::payload_too_large);
  EXPECT_EQ(OpenConnections(server->port()), 2);  // the silent one is drained
  // (Each look is a connection of its own, which the server may not have seen closed yet at the
  // next look: the count goes down to 1 once, when the silent one is closed.)
  const auto start = Clock::now();
  int open = 2;
  while (open != 1 && Since(start) < 3000ms) {
    std::this_thread::sleep_for(50ms);
    open = OpenConnections(server->port());
  }
  EXPECT_EQ(open, 1);
  EXPECT_GE(Since(start), 500ms);

  Client draining(server->port());
  ASSERT_TRUE(draining.Write(OversizedHeader()));
  ASSERT_TRUE(draining.Read(1000ms));
  EXPECT_LT(server->Stop(), 500ms);
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
