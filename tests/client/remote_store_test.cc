// RemoteStore against a real server (tools/server over a Database, SigV4 required) and against a
// scripted one that answers badly (FakeServer): the same answers and errors as the engine, the
// credentials' failures, the retry mode's counts and delays, and no crash on any response.
#include "partstore/remote_store.h"

#include <gtest/gtest.h>

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "partstore/capacity_options.h"
#include "partstore/clock.h"
#include "partstore/database.h"
#include "partstore/error_detail.h"
#include "partstore/stream_subscription.h"
#include "tests/server/server_testutil.h"
#include "tools/protocol/client_data_json.h"
#include "tools/protocol/operations_json.h"
#include "tools/protocol/table_settings_json.h"
#include "tools/server/authenticator.h"

namespace partstore {
namespace {

using server::AccessKeys;
using server::ServerOptions;
using server::server_testing::RunningServer;
using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

constexpr char kKeyId[] = "AKIDREMOTETEST";
constexpr char kSecret[] = "remote-test-secret";

KeySchema PkSk() { return KeySchema{{"PK", KeyType::kString}, {{"SK", KeyType::kString}}}; }

// Options for a store at `port` with the test's key, and short retry delays.
RemoteOptions Options(uint16_t port) {
  RemoteOptions o{.endpoint = "http://127.0.0.1:" + std::to_string(port),
                  .region = "us-east-1",
                  .credentials = AwsCredentials{kKeyId, kSecret, ""},
                  .connect_timeout = milliseconds(1000),
                  .request_timeout = milliseconds(2000),
                  .seed = 42};
  o.retry.base_delay = milliseconds(5);
  o.retry.throttling_base_delay = milliseconds(10);
  return o;
}

std::unique_ptr<RemoteStore> OpenOrDie(const RemoteOptions& options) {
  auto store = RemoteStore::Open(options);
  EXPECT_TRUE(store.ok()) << store.status().ToString();
  return store.ok() ? std::move(*store) : nullptr;
}

// A Database served over HTTP on an ephemeral port with SigV4 required.
class Served {
 public:
  explicit Served(DatabaseOptions options = {}) : db_(std::move(options)) {
    auto keys = AccessKeys::Parse(std::string(kKeyId) + " " + kSecret + "\n");
    EXPECT_TRUE(keys.ok());
    ServerOptions server_options;
    server_options.port = 0;
    server_options.threads = 2;
    server_options.handle_signals = false;
    server_options.access_keys = std::make_shared<AccessKeys>(std::move(*keys));
    server_ = std::make_unique<RunningServer>(db_, server_options);
    EXPECT_TRUE(server_->start_status().ok());
  }
  Database& db() { return db_; }
  uint16_t port() const { return server_->port(); }

 private:
  Database db_;
  std::unique_ptr<RunningServer> server_;
};

// What a result says on the wire (the server's own encoders), or its error with its detail.
std::string Show(const Status& s) {
  std::string out = s.ToString();
  if (const ErrorDetail* d = s.detail()) {
    if (d->item) out += " item=" + protocol::ItemToJson(*d->item);
    for (const CancellationReason& r : d->cancellation_reasons) {
      out += " [" + r.code + (r.message ? ":" + *r.message : "") +
             (r.item ? " " + protocol::ItemToJson(*r.item) : "") + "]";
    }
    for (const ThrottlingReason& r : d->throttling_reasons) out += " {" + r.reason.name() + "}";
  }
  return out;
}
template <typename T, typename Encode>
std::string Show(const Result<T>& r, Encode encode) {
  return r.ok() ? encode(*r) : Show(r.status());
}

// The same calls on the engine in-process and on a RemoteStore in front of another engine: the
// same answers, errors included.
TEST(RemoteStoreTest, AnswersAsTheEngineDoes) {
  Served served;
  Database local;
  auto remote = OpenOrDie(Options(served.port()));
  ASSERT_NE(remote, nullptr);
  std::vector<std::string> answers[2];
  int home = 0;
  for (Store* store : {static_cast<Store*>(&local), static_cast<Store*>(remote.get())}) {
    std::vector<std::string>& out = answers[home++];
    Store& s = *store;
    out.push_back(s.CreateTable(SimpleTable("Tbl", PkSk())).status().ToString());
    out.push_back(s.CreateTable(SimpleTable("Tbl", PkSk())).status().ToString());  // in use
    for (int i = 0; i < 5; ++i) {
      out.push_back(
          Show(s.PutItem({.table_name = "Tbl",
                          .item = {{"PK", Value("u")},
                                   {"SK", Value("o#" + std::to_string(i))},
                                   {"n", Value(Number::Parse(std::to_string(i)).value())}}}),
               protocol::EncodePutItemResult));
    }
    out.push_back(
        Show(s.GetItem({.table_name = "Tbl", .key = {{"PK", Value("u")}, {"SK", Value("o#3")}}}),
             [](const GetItemResult& r) { return protocol::EncodeGetItemResult(r); }));
    out.push_back(
        Show(s.GetItem({.table_name = "Tbl", .key = {{"PK", Value("u")}, {"SK", Value("none")}}}),
             [](const GetItemResult& r) { return protocol::EncodeGetItemResult(r); }));
    // A failed condition with the old item, and DynamoDB's message.
    out.push_back(Show(s.PutItem({.table_name = "Tbl",
                                  .item = {{"PK", Value("u")}, {"SK", Value("o#1")}},
                                  .condition_expression = "attribute_not_exists(PK)",
                                  .return_values_on_condition_check_failure =
                                      ReturnValuesOnConditionCheckFailure::kAllOld}),
                       protocol::EncodePutItemResult));
    out.push_back(Show(s.UpdateItem({.table_name = "Tbl",
                                     .key = {{"PK", Value("u")}, {"SK", Value("o#2")}},
                                     .update_expression = "ADD n :d",
                                     .expression_attribute_values =
                                         AttributeMap{{":d", Value(Number::Parse("10").value())}},
                                     .return_values = ReturnValue::kAllNew}),
                       protocol::EncodeUpdateItemResult));
    out.push_back(Show(s.GetItem({.table_name = "Nope", .key = {{"PK", Value("u")}}}),
                       [](const GetItemResult& r) { return protocol::EncodeGetItemResult(r); }));
    out.push_back(Show(s.GetItem({.table_name = "Tbl", .key = {{"PK", Value("u")}}}),
                       [](const GetItemResult& r) { return protocol::EncodeGetItemResult(r); }));
    // Queries, pages followed by QueryAll.
    QueryRequest query{.table_name = "Tbl",
                       .key_condition_expression = "PK = :p",
                       .expression_attribute_values = AttributeMap{{":p", Value("u")}},
                       .limit = 2};
    out.push_back(Show(s.Query(query),
                       [](const QueryResult& r) { return protocol::EncodeReadPageResult(r); }));
    ItemRange all = s.QueryAll(query);
    std::string seen;
    for (const StoredItem& item : all) seen += protocol::ItemToJson(item);
    out.push_back(seen + " pages=" + std::to_string(all.pages()) + " " + all.status().ToString());
    out.push_back(Show(s.Scan({.table_name = "Tbl"}),
                       [](const ScanResult& r) { return protocol::EncodeReadPageResult(r); }));
    // A transaction cancelled by its second action, with its reasons.
    TransactWriteItemsRequest tx;
    tx.transact_items.push_back(
        {.put = PutItemRequest{.table_name = "Tbl",
                               .item = {{"PK", Value("t")}, {"SK", Value("1")}}}});
    tx.transact_items.push_back({.condition_check = ConditionCheckRequest{
                                     .table_name = "Tbl",
                                     .key = {{"PK", Value("u")}, {"SK", Value("o#0")}},
                                     .condition_expression = "attribute_not_exists(PK)",
                                     .return_values_on_condition_check_failure =
                                         ReturnValuesOnConditionCheckFailure::kAllOld}});
    out.push_back(Show(s.TransactWriteItems(tx),
                       [](const TransactWriteItemsResult&) { return std::string("committed"); }));
    // Batches and PartiQL.
    BatchGetItemRequest batch;
    batch.request_items.push_back({"Tbl",
                                   {.keys = {{{"PK", Value("u")}, {"SK", Value("o#0")}},
                                             {{"PK", Value("u")}, {"SK", Value("o#4")}}}}});
    out.push_back(Show(s.BatchGetItem(batch), protocol::EncodeBatchGetItemResult));
    out.push_back(
        Show(s.ExecuteStatement({.statement = "SELECT * FROM Tbl WHERE PK = 'u' AND SK = 'o#2'"}),
             [](const ExecuteStatementResult& r) { return std::to_string(r.items.size()); }));
    out.push_back(Show(s.ExecuteStatement({.statement = "SELEC nothing FROM Tbl"}),
                       [](const ExecuteStatementResult&) { return std::string("parsed?"); }));
    // Requests that break DynamoDB's model constraints: the same combined message in both homes
    // (the wire's decoder checks them; the engine the same way).
    TransactWriteItemsRequest bad_tx;
    bad_tx.transact_items.push_back(
        {.put = PutItemRequest{.table_name = "a", .item = {{"PK", Value("t")}}}});
    bad_tx.transact_items.push_back(
        {.del = DeleteItemRequest{.table_name = "b;", .key = {{"PK", Value("t")}}}});
    out.push_back(Show(s.TransactWriteItems(bad_tx),
                       [](const TransactWriteItemsResult&) { return std::string("committed"); }));
    TransactGetItemsRequest bad_get;
    bad_get.transact_items.push_back({.get = {.table_name = "a", .key = {{"PK", Value("t")}}}});
    out.push_back(Show(s.TransactGetItems(bad_get),
                       [](const TransactGetItemsResult&) { return std::string("read"); }));
    BatchGetItemRequest bad_batch;
    bad_batch.request_items.push_back({"a", {.keys = {{{"PK", Value("u")}}}}});
    bad_batch.request_items.push_back({"Tbl", {.keys = {{{"PK", Value("u")}}}}});
    out.push_back(Show(s.BatchGetItem(bad_batch), protocol::EncodeBatchGetItemResult));
    BatchWriteItemRequest bad_writes;
    std::vector<WriteRequest>& writes =
        bad_writes.request_items.emplace_back("x", std::vector<WriteRequest>{}).second;
    for (int i = 0; i < 26; ++i) {
      writes.push_back(
          {.kind = WriteRequest::Kind::kDelete, .item = {{"PK", Value(std::to_string(i))}}});
    }
    out.push_back(Show(s.BatchWriteItem(bad_writes), protocol::EncodeBatchWriteItemResult));
    // Tables.
    auto described = s.DescribeTable({.table_name = "Tbl"});
    out.push_back(described.ok() ? described->table.table_name + " " +
                                       std::to_string(described->table.item_count)
                                 : Show(described.status()));
    auto listed = s.ListTables({});
    out.push_back(listed.ok() ? std::to_string(listed->table_names.size()) : Show(listed.status()));
    // Tags: TagResource and UntagResource answer an empty body on the wire, which the client
    // reads as an empty answer.
    const std::string arn = described.ok() ? described->table.table_arn : "";
    out.push_back(s.TagResource({.resource_arn = arn, .tags = {{"team", "cart"}, {"env", "dev"}}})
                      .status()
                      .ToString());
    out.push_back(s.UntagResource({.resource_arn = arn, .tag_keys = {"env"}}).status().ToString());
    out.push_back(Show(s.ListTagsOfResource({.resource_arn = arn}),
                       protocol::EncodeListTagsOfResourceResult));
  }
  ASSERT_EQ(answers[0].size(), answers[1].size());
  for (size_t i = 0; i < answers[0].size(); ++i) {
    EXPECT_EQ(answers[0][i], answers[1][i]) << "answer " << i;
  }
  const RemoteStats stats = remote->stats();
  EXPECT_EQ(stats.attempts, stats.calls);   // nothing needed a retry
  EXPECT_EQ(stats.connections_opened, 1u);  // one kept-alive connection did it all
}

TEST(RemoteStoreTest, CredentialsTheServerRefuses) {
  Served served;
  RemoteOptions wrong_secret = Options(served.port());
  wrong_secret.credentials->secret_access_key = "not-the-secret";
  auto store = OpenOrDie(wrong_secret);
  auto listed = store->ListTables({});
  ASSERT_FALSE(listed.ok());
  EXPECT_EQ(listed.status().code(), Code::kInvalidSignature) << listed.status().ToString();
  EXPECT_NE(listed.status().message().find("signature we calculated does not match"),
            std::string_view::npos);
  EXPECT_EQ(store->stats().attempts, 1u);  // not retried

  RemoteOptions unknown_key = Options(served.port());
  unknown_key.credentials->access_key_id = "AKIDUNKNOWN";
  store = OpenOrDie(unknown_key);
  listed = store->ListTables({});
  ASSERT_FALSE(listed.ok());
  EXPECT_EQ(listed.status().code(), Code::kUnrecognizedClient) << listed.status().ToString();
}

TEST(RemoteStoreTest, BadEndpointsAreRefusedBeforeAnyRequest) {
  RemoteOptions bad = Options(1);
  for (const char* url : {"localhost:8000", "ftp://h", "http://", "http://h:99999", "http://h/path",
                          "http://a:b:c"}) {
    bad.endpoint = url;
    auto store = RemoteStore::Open(bad);
    ASSERT_FALSE(store.ok()) << url;
    EXPECT_EQ(store.status().code(), Code::kValidation);
    EXPECT_NE(store.status().message().find(url), std::string_view::npos)
        << store.status().ToString();
  }
  RemoteOptions no_region = Options(1);
  no_region.region.clear();
  setenv("AWS_CONFIG_FILE", "/dev/null", 1);
  unsetenv("AWS_REGION");
  unsetenv("AWS_DEFAULT_REGION");
  unsetenv("AWS_PROFILE");
  auto store = RemoteStore::Open(no_region);
  ASSERT_FALSE(store.ok());
  EXPECT_NE(store.status().message().find("no AWS region"), std::string_view::npos);
  RemoteOptions no_connections = Options(1);
  no_connections.max_connections = 0;
  EXPECT_FALSE(RemoteStore::Open(no_connections).ok());
}

// A port nobody listens on: refused at once, retried (nothing was sent), then an error that
// names the endpoint.
TEST(RemoteStoreTest, AnUnreachableEndpointIsNamed) {
  uint16_t closed = 0;
  {
    boost::asio::io_context ioc;
    boost::asio::ip::tcp::acceptor a(ioc, {boost::asio::ip::make_address("127.0.0.1"), 0});
    closed = a.local_endpoint().port();
  }
  auto store = OpenOrDie(Options(closed));
  const auto start = Clock::now();
  auto put = store->UpdateItem({.table_name = "Tbl",
                                .key = {{"PK", Value("k")}},
                                .update_expression = "SET a = :v",
                                .expression_attribute_values = AttributeMap{{":v", Value("x")}}});
  ASSERT_FALSE(put.ok());
  EXPECT_EQ(put.status().code(), Code::kInternal) << put.status().ToString();
  EXPECT_NE(put.status().message().find("127.0.0.1:" + std::to_string(closed)),
            std::string_view::npos)
      << put.status().ToString();
  EXPECT_EQ(store->stats().attempts, 3u);  // a refused connect sent nothing: safe to retry
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(2));
}

// A connect that never completes ends within the connect timeout (an address nobody answers;
// where the network refuses it at once, the error comes sooner).
TEST(RemoteStoreTest, ConnectTimeoutBoundsTheWait) {
  RemoteOptions o = Options(1);
  o.endpoint = "http://10.255.255.1:9";
  o.connect_timeout = milliseconds(300);
  o.retry.max_attempts = 1;
  auto store = OpenOrDie(o);
  const auto start = Clock::now();
  auto got = store->GetItem({.table_name = "Tbl", .key = {{"PK", Value("k")}}});
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.status().message().find("10.255.255.1"), std::string_view::npos)
      << got.status().ToString();
  EXPECT_LT(Clock::now() - start, milliseconds(1500));
}

// A blocking accept() is not woken by close() from another thread: a connection wakes it.
void WakeAccept(uint16_t port) {
  boost::asio::io_context ioc;
  boost::asio::ip::tcp::socket wake(ioc);
  boost::system::error_code ec;
  wake.connect({boost::asio::ip::make_address("127.0.0.1"), port}, ec);
}

// An HTTP server that answers each request with the next scripted raw response (the last one
// repeats); a response of "" closes the connection without answering.
class FakeServer {
 public:
  explicit FakeServer(std::vector<std::string> script)
      : script_(std::move(script)),
        acceptor_(ioc_, {boost::asio::ip::make_address("127.0.0.1"), 0}) {
    thread_ = std::thread([this] { Serve(); });
  }
  ~FakeServer() {
    stop_ = true;
    WakeAccept(port());
    thread_.join();
  }
  uint16_t port() const { return acceptor_.local_endpoint().port(); }
  int requests() const { return requests_.load(); }
  // The last request as received (headers and body).
  std::string last_request() const {
    std::lock_guard lock(mu_);
    return last_request_;
  }

  static std::string Ok(std::string_view body, std::string_view extra = "") {
    return "HTTP/1.1 200 OK\r\nContent-Type: application/x-amz-json-1.0\r\n" + std::string(extra) +
           "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + std::string(body);
  }
  static std::string Error(int status, std::string_view body) {
    return "HTTP/1.1 " + std::to_string(status) +
           " X\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + std::string(body);
  }

 private:
  void Serve() {
    while (!stop_) {
      boost::asio::ip::tcp::socket socket(ioc_);
      boost::system::error_code ec;
      acceptor_.accept(socket, ec);
      if (ec || stop_) return;
      for (;;) {  // requests on this connection
        boost::asio::streambuf buffer;
        const size_t header = boost::asio::read_until(socket, buffer, "\r\n\r\n", ec);
        if (ec) break;
        std::string head(boost::asio::buffers_begin(buffer.data()),
                         boost::asio::buffers_begin(buffer.data()) + header);
        size_t length = 0;
        if (auto at = head.find("Content-Length: "); at != std::string::npos) {
          length = std::stoul(head.substr(at + 16));
        }
        buffer.consume(header);
        if (buffer.size() < length) {
          boost::asio::read(socket, buffer, boost::asio::transfer_exactly(length - buffer.size()),
                            ec);
        }
        {
          std::lock_guard lock(mu_);
          last_request_ = head + std::string(boost::asio::buffers_begin(buffer.data()),
                                             boost::asio::buffers_end(buffer.data()));
        }
        const int n = requests_++;
        const std::string& answer = script_[std::min<size_t>(n, script_.size() - 1)];
        if (answer.empty()) break;
        boost::asio::write(socket, boost::asio::buffer(answer), ec);
        if (ec || answer.find("Connection: close") != std::string::npos) break;
      }
    }
  }

  std::vector<std::string> script_;
  boost::asio::io_context ioc_;
  boost::asio::ip::tcp::acceptor acceptor_;
  std::atomic<bool> stop_{false};
  std::atomic<int> requests_{0};
  mutable std::mutex mu_;
  std::string last_request_;  // guarded by mu_
  std::thread thread_;
};

const GetItemRequest kGet{.table_name = "Tbl", .key = {{"PK", Value("k")}}};
const UpdateItemRequest kAdd{
    .table_name = "Tbl",
    .key = {{"PK", Value("k")}},
    .update_expression = "ADD n :one",
    .expression_attribute_values = AttributeMap{{":one", Value(Number::Parse("1").value())}}};

// A server that reads each request and then answers too slowly: not at all (silent), or one
// byte of a valid response every `byte_interval` (trickling), falling silent after `bytes` of
// them.
class SlowServer {
 public:
  explicit SlowServer(milliseconds byte_interval, size_t bytes = SIZE_MAX)
      : byte_interval_(byte_interval),
        bytes_(bytes),
        acceptor_(ioc_, {boost::asio::ip::make_address("127.0.0.1"), 0}) {
    thread_ = std::thread([this] { Serve(); });
  }
  ~SlowServer() {
    stop_ = true;
    WakeAccept(port());
    thread_.join();
  }
  uint16_t port() const { return acceptor_.local_endpoint().port(); }

 private:
  void Serve() {
    while (!stop_) {
      boost::asio::ip::tcp::socket socket(ioc_);
      boost::system::error_code ec;
      acceptor_.accept(socket, ec);
      if (ec || stop_) return;
      boost::asio::streambuf buffer;
      boost::asio::read_until(socket, buffer, "\r\n\r\n", ec);
      const std::string answer = FakeServer::Ok("{}");
      for (size_t i = 0; !ec && !stop_ && i < answer.size(); ++i) {
        if (byte_interval_.count() == 0 || i == bytes_) {  // silent: until the client leaves
          char byte;
          socket.read_some(boost::asio::buffer(&byte, 1), ec);
          break;
        }
        std::this_thread::sleep_for(byte_interval_);
        boost::asio::write(socket, boost::asio::buffer(&answer[i], 1), ec);
      }
    }
  }

  milliseconds byte_interval_;
  size_t bytes_;
  boost::asio::io_context ioc_;
  boost::asio::ip::tcp::acceptor acceptor_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// The request timeout bounds the whole exchange: a server that never answers, and one whose
// every byte comes in time for the socket but whose response would take 6 s in all.
TEST(RemoteStoreTest, RequestTimeoutBoundsTheWholeResponse) {
  for (const milliseconds interval : {milliseconds(0), milliseconds(50)}) {
    SlowServer server(interval);
    RemoteOptions o = Options(server.port());
    o.request_timeout = milliseconds(300);
    o.retry.max_attempts = 1;
    auto store = OpenOrDie(o);
    const auto start = Clock::now();
    auto got = store->GetItem(kGet);
    const auto took = Clock::now() - start;
    ASSERT_FALSE(got.ok()) << "byte interval " << interval.count() << " ms";
    EXPECT_NE(got.status().message().find("timeout"), std::string_view::npos)
        << got.status().ToString();
    EXPECT_GE(took, milliseconds(290));
    EXPECT_LT(took, milliseconds(1500)) << "byte interval " << interval.count() << " ms";
  }
}

// The kernel's read timeout follows the deadline down: a response that trickles for 500 ms of a
// 700 ms request and then stops ends at 700 ms, not 700 ms after the last byte (the timeout the
// socket was first given).
TEST(RemoteStoreTest, RequestTimeoutShrinksAsTheDeadlineNears) {
  SlowServer server(milliseconds(50), /*bytes=*/10);
  RemoteOptions o = Options(server.port());
  o.request_timeout = milliseconds(700);
  o.retry.max_attempts = 1;
  auto store = OpenOrDie(o);
  const auto start = Clock::now();
  auto got = store->GetItem(kGet);
  const auto took = Clock::now() - start;
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.status().message().find("timeout"), std::string_view::npos)
      << got.status().ToString();
  EXPECT_GE(took, milliseconds(690));
  EXPECT_LT(took, milliseconds(1000));  // 1200 ms if the first timeout were kept
}

TEST(RemoteStoreTest, ResponsesThatAreNotJsonAreErrors) {
  FakeServer server({FakeServer::Ok("this is not JSON"), FakeServer::Ok("[1, 2]"),
                     FakeServer::Ok(R"({"Item": "a string"})")});
  auto store = OpenOrDie(Options(server.port()));
  for (int i = 0; i < 3; ++i) {
    auto got = store->GetItem(kGet);
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(got.status().code(), Code::kInternal) << got.status().ToString();
  }
  EXPECT_EQ(server.requests(), 3);
}

TEST(RemoteStoreTest, ACutOffResponseIsRetriedOnlyWhenSafe) {
  const std::string cut =
      "HTTP/1.1 200 OK\r\nContent-Length: 100\r\nConnection: close\r\n\r\n{\"It";
  {
    FakeServer server({cut});
    auto store = OpenOrDie(Options(server.port()));
    auto got = store->GetItem(kGet);  // a read: retried, then the error
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(got.status().code(), Code::kInternal) << got.status().ToString();
    EXPECT_EQ(server.requests(), 3);
  }
  {
    FakeServer server({cut});
    auto store = OpenOrDie(Options(server.port()));
    auto added = store->UpdateItem(kAdd);  // an ADD: may have been applied, never sent twice
    ASSERT_FALSE(added.ok());
    EXPECT_EQ(added.status().code(), Code::kOutcomeUnknown) << added.status().ToString();
    EXPECT_NE(added.status().message().find("may or may not have been applied"),
              std::string_view::npos);
    EXPECT_EQ(server.requests(), 1);
    EXPECT_EQ(store->stats().outcome_unknown, 1u);
  }
}

TEST(RemoteStoreTest, ADamagedResponseIsCaughtByItsChecksum) {
  FakeServer server({FakeServer::Ok("{}", "x-amz-crc32: 12345\r\n"),
                     FakeServer::Ok("{}", "x-amz-crc32: 2745614147\r\n")});  // crc32("{}")
  auto store = OpenOrDie(Options(server.port()));
  auto got = store->GetItem(kGet);
  ASSERT_TRUE(got.ok()) << got.status().ToString();  // the second answer is intact
  EXPECT_FALSE(got->item.has_value());
  EXPECT_EQ(server.requests(), 2);
  EXPECT_EQ(store->stats().retries, 1u);
}

TEST(RemoteStoreTest, ServerErrorsOnWritesAreOutcomeUnknown) {
  const std::string error =
      FakeServer::Error(500, R"({"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError",)"
                             R"("message":"Internal server error"})");
  FakeServer server({error});
  auto store = OpenOrDie(Options(server.port()));
  auto added = store->UpdateItem(kAdd);
  ASSERT_FALSE(added.ok());
  EXPECT_EQ(added.status().code(), Code::kOutcomeUnknown) << added.status().ToString();
  EXPECT_EQ(server.requests(), 1);
  auto got = store->GetItem(kGet);  // a read is retried to the limit
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), Code::kInternal);
  EXPECT_EQ(got.status().message(), "Internal server error");
  EXPECT_EQ(server.requests(), 4);
}

// Answers that are not DynamoDB's (a proxy's page): a 4xx was refused before anything was
// applied, so a write gets an error, not kOutcomeUnknown, and is not retried; a 429 is a throttle.
TEST(RemoteStoreTest, AProxysPagesAreRefusalsOrThrottles) {
  {
    FakeServer server({FakeServer::Error(403, "<html>Forbidden</html>")});
    auto store = OpenOrDie(Options(server.port()));
    auto added = store->UpdateItem(kAdd);
    ASSERT_FALSE(added.ok());
    EXPECT_EQ(added.status().code(), Code::kValidation) << added.status().ToString();
    EXPECT_NE(added.status().message().find("HTTP 403"), std::string_view::npos);
    EXPECT_NE(added.status().message().find("Forbidden"), std::string_view::npos);
    EXPECT_EQ(server.requests(), 1);
  }
  {
    FakeServer server({FakeServer::Error(429, "slow down"), FakeServer::Ok("{}")});
    auto store = OpenOrDie(Options(server.port()));
    auto added = store->UpdateItem(kAdd);  // refused, so safe to send again
    ASSERT_TRUE(added.ok()) << added.status().ToString();
    EXPECT_EQ(server.requests(), 2);
    EXPECT_EQ(store->stats().throttle_retries, 1u);
  }
}

TEST(RemoteStoreTest, ThrottlesAreRetriedWithBackoffAndQuota) {
  const std::string throttled = FakeServer::Error(
      400, R"({"__type":"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException",)"
           R"("message":"Rate exceeded","ThrottlingReasons":[{"reason":)"
           R"("TableReadProvisionedThroughputExceeded","resource":"arn:aws:dynamodb:t"}]})");
  FakeServer server({throttled});
  RemoteOptions o = Options(server.port());
  o.retry.max_attempts = 4;
  o.retry.throttling_base_delay = milliseconds(20);
  o.retry.quota = 12;  // two throttling retries (5 each), not three
  auto store = OpenOrDie(o);
  auto got = store->GetItem(kGet);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), Code::kProvisionedThroughputExceeded);
  ASSERT_NE(got.status().detail(), nullptr);
  ASSERT_EQ(got.status().detail()->throttling_reasons.size(), 1u);
  EXPECT_EQ(got.status().detail()->throttling_reasons[0].resource, "arn:aws:dynamodb:t");
  const RemoteStats stats = store->stats();
  EXPECT_EQ(server.requests(), 3);
  EXPECT_EQ(stats.retries, 2u);
  EXPECT_EQ(stats.throttle_retries, 2u);
  EXPECT_EQ(stats.quota_exhausted, 1u);
  // Full jitter under 20 ms, then 40 ms.
  EXPECT_GE(stats.retry_delay_ms, 0);
  EXPECT_LT(stats.retry_delay_ms, 60);
}

// The real engine throttling a provisioned table (capacity simulation, a manual clock that
// never moves): each throttled call is tried max_attempts times, then comes back with
// DynamoDB's error and reasons; once the clock moves, writes go through.
TEST(RemoteStoreTest, RetriesAgainstAThrottlingServer) {
  auto clock = std::make_shared<capacity::ManualClock>();
  DatabaseOptions options;
  options.capacity.enabled = true;
  options.capacity.clock = clock;
  Served served(options);
  CreateTableRequest table = SimpleTable("Slow", PkSk());
  table.billing_mode = BillingMode::kProvisioned;
  table.provisioned_throughput = ProvisionedThroughput{1, 1};
  ASSERT_TRUE(served.db().CreateTable(table).ok());
  auto store = OpenOrDie(Options(served.port()));
  int throttled = 0, written = 0;
  for (int i = 0; i < 400 && throttled == 0; ++i) {
    auto put = store->PutItem(
        {.table_name = "Slow", .item = {{"PK", Value("p")}, {"SK", Value(std::to_string(i))}}});
    if (put.ok()) {
      ++written;
    } else {
      ASSERT_EQ(put.status().code(), Code::kProvisionedThroughputExceeded)
          << put.status().ToString();
      ASSERT_NE(put.status().detail(), nullptr);
      EXPECT_FALSE(put.status().detail()->throttling_reasons.empty());
      ++throttled;
    }
  }
  ASSERT_EQ(throttled, 1);
  const RemoteStats stats = store->stats();
  EXPECT_EQ(stats.throttle_retries, 2u);
  EXPECT_EQ(stats.attempts, stats.calls + 2);
  // Nothing acknowledged is missing, nothing refused was written.
  auto scanned = served.db().Scan({.table_name = "Slow"});
  ASSERT_TRUE(scanned.ok());
  EXPECT_EQ(scanned->count, written);
  clock->Advance(int64_t{600} * 1'000'000);
  EXPECT_TRUE(
      store->PutItem({.table_name = "Slow", .item = {{"PK", Value("p")}, {"SK", Value("x")}}})
          .ok());
}

TEST(RemoteStoreTest, GzipRequestBodiesAreSignedAndRead) {
  Served served;
  RemoteOptions o = Options(served.port());
  o.gzip_requests = true;
  o.gzip_min_bytes = 0;
  auto store = OpenOrDie(o);
  ASSERT_TRUE(store->CreateTable(SimpleTable("Zip", PkSk())).ok());
  auto put = store->PutItem(
      {.table_name = "Zip",
       .item = {{"PK", Value("a")}, {"SK", Value("b")}, {"text", Value(std::string(5000, 'x'))}}});
  ASSERT_TRUE(put.ok()) << put.status().ToString();
  auto got = served.db().Scan({.table_name = "Zip"});
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->count, 1);
}

TEST(RemoteStoreTest, GzipIsSentOnlyWhenAskedAndFromItsThreshold) {
  // One connection at a time, closed after each answer: each store gets its turn.
  FakeServer server({FakeServer::Ok("{}", "Connection: close\r\n")});
  RemoteOptions o = Options(server.port());
  auto plain = OpenOrDie(o);
  ASSERT_TRUE(plain->GetItem(kGet).ok());
  EXPECT_EQ(server.last_request().find("Content-Encoding"), std::string::npos);
  o.gzip_requests = true;
  o.gzip_min_bytes = 10;
  auto zipped = OpenOrDie(o);
  ASSERT_TRUE(zipped->GetItem(kGet).ok());
  const std::string request = server.last_request();
  ASSERT_NE(request.find("Content-Encoding: gzip\r\n"), std::string::npos) << request;
  const std::string body = request.substr(request.find("\r\n\r\n") + 4);
  ASSERT_GE(body.size(), 2u);
  EXPECT_EQ(static_cast<unsigned char>(body[0]), 0x1f);  // gzip's magic bytes
  EXPECT_EQ(static_cast<unsigned char>(body[1]), 0x8b);
  o.gzip_min_bytes = 100000;  // below the threshold: plain
  auto small = OpenOrDie(o);
  ASSERT_TRUE(small->GetItem(kGet).ok());
  EXPECT_EQ(server.last_request().find("Content-Encoding"), std::string::npos);
}

// The stream helpers on a remote table: a subscription polls the shards through the Streams API.
TEST(RemoteStoreTest, AStreamSubscriptionReadsARemoteTable) {
  Served served;
  auto store = OpenOrDie(Options(served.port()));
  CreateTableRequest table = SimpleTable("Feed", PkSk());
  table.stream_specification = StreamSpecification{true, StreamViewType::kNewImage};
  ASSERT_TRUE(store->CreateTable(table).ok());
  std::vector<std::string> seen;
  auto sub = StreamSubscription::Open(
      *store, "Feed",
      {.start = StreamSubscription::Start::kTrimHorizon, .poll_interval = milliseconds(10)},
      [&](const StreamRecord& r) {
        seen.push_back(std::string(r.new_image->Find("SK")->as_string()));
      });
  ASSERT_TRUE(sub.ok()) << sub.status().ToString();
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(store
                    ->PutItem({.table_name = "Feed",
                               .item = {{"PK", Value("p")}, {"SK", Value(std::to_string(i))}}})
                    .ok());
  }
  size_t delivered = 0;
  for (int round = 0; round < 50 && delivered < 5; ++round) {
    auto got = (*sub)->Wait(milliseconds(100));
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    delivered += *got;
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"0", "1", "2", "3", "4"}));
  // A table without a stream cannot be subscribed to, remote or not.
  ASSERT_TRUE(store->CreateTable(SimpleTable("Plain", PkSk())).ok());
  EXPECT_EQ(
      StreamSubscription::Open(*store, "Plain", {}, [](const StreamRecord&) {}).status().code(),
      Code::kValidation);
  EXPECT_EQ(
      StreamSubscription::Open(*store, "Nope", {}, [](const StreamRecord&) {}).status().code(),
      Code::kResourceNotFound);
}

// Many threads through one store share its pool: at most max_connections connections.
TEST(RemoteStoreTest, ConcurrentCallersShareThePool) {
  Served served;
  RemoteOptions o = Options(served.port());
  o.max_connections = 3;
  auto store = OpenOrDie(o);
  ASSERT_TRUE(store->CreateTable(SimpleTable("Conc", PkSk())).ok());
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        const Item item{{"PK", Value("t" + std::to_string(t))}, {"SK", Value(std::to_string(i))}};
        if (!store->PutItem({.table_name = "Conc", .item = item}).ok()) ++failures;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_LE(store->stats().connections_opened, 3u);
  auto scanned = served.db().Scan({.table_name = "Conc"});
  ASSERT_TRUE(scanned.ok());
  EXPECT_EQ(scanned->count, 400);
}

}  // namespace
}  // namespace partstore
