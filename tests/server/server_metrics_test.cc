// ServerMetrics (tools/server/server_metrics.h): the Prometheus text of requests, errors, the
// duration histogram, connections and tables (with capacity simulation, their throttles), dropped
// write-ahead log records, and GET /metrics through HandleRequest.
#include "tools/server/server_metrics.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <boost/beast/http.hpp>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>

#include "partstore/clock.h"
#include "tools/server/authenticator.h"
#include "tools/server/server.h"

namespace partstore::server {
namespace {

namespace http = boost::beast::http;
using std::chrono::microseconds;

bool Has(const std::string& text, const std::string& line) {
  return text.find(line + "\n") != std::string::npos;
}

TEST(ServerMetrics, RequestsErrorsAndTheHistogram) {
  Database db;
  ServerMetrics metrics;
  metrics.Record("GetItem", "", microseconds(30));
  metrics.Record("GetItem", "", microseconds(700));
  metrics.Record("GetItem", "ResourceNotFoundException", microseconds(2000000));
  metrics.Record("PutItem", "ConditionalCheckFailedException", microseconds(80));
  metrics.ConnectionOpened();
  metrics.ConnectionOpened();
  metrics.ConnectionClosed();
  const std::string text = metrics.Render(&db);
  EXPECT_TRUE(Has(text, "# TYPE partstore_requests_total counter")) << text;
  EXPECT_TRUE(Has(text, R"(partstore_requests_total{operation="GetItem"} 3)")) << text;
  EXPECT_TRUE(Has(text, R"(partstore_requests_total{operation="PutItem"} 1)")) << text;
  EXPECT_TRUE(Has(
      text, R"(partstore_errors_total{operation="GetItem",error="ResourceNotFoundException"} 1)"));
  EXPECT_TRUE(Has(
      text,
      R"(partstore_errors_total{operation="PutItem",error="ConditionalCheckFailedException"} 1)"));
  // Cumulative buckets: 30 us <= 50 us; 700 us <= 1 ms; 2 s only in +Inf.
  EXPECT_TRUE(
      Has(text, R"(partstore_request_duration_seconds_bucket{operation="GetItem",le="5e-05"} 1)"))
      << text;
  EXPECT_TRUE(
      Has(text, R"(partstore_request_duration_seconds_bucket{operation="GetItem",le="0.001"} 2)"));
  EXPECT_TRUE(
      Has(text, R"(partstore_request_duration_seconds_bucket{operation="GetItem",le="1"} 2)"));
  EXPECT_TRUE(
      Has(text, R"(partstore_request_duration_seconds_bucket{operation="GetItem",le="+Inf"} 3)"));
  EXPECT_TRUE(Has(text, R"(partstore_request_duration_seconds_count{operation="GetItem"} 3)"));
  EXPECT_TRUE(Has(text, R"(partstore_request_duration_seconds_sum{operation="GetItem"} 2.00073)"))
      << text;
  EXPECT_TRUE(Has(text, "partstore_connections 1"));
  EXPECT_TRUE(Has(text, "partstore_connections_accepted_total 2"));
}

// A damaged last record of the write-ahead log, dropped when the data directory is opened, is
// counted (partstore_wal_records_dropped_total); 0 without one, and without a data directory.
TEST(ServerMetrics, DroppedLogRecords) {
  Database plain;
  EXPECT_TRUE(Has(ServerMetrics().Render(&plain), "partstore_wal_records_dropped_total 0"));
  const std::string dir = std::string(::testing::TempDir()) + "partstore_metrics_" +
                          std::to_string(::getpid()) + "_wal";
  std::filesystem::remove_all(dir);
  DatabaseOptions options;
  options.persistence = {.data_dir = dir, .wal = WalSync::kOff};
  std::string segment;
  {
    auto db = Database::Open(options);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    KeySchema key;
    key.partition = {"PK", KeyType::kString};
    ASSERT_TRUE((*db)->CreateTable(SimpleTable("Tab", key)).ok());
    ASSERT_TRUE((*db)->PutItem({.table_name = "Tab", .item = {{"PK", "a"}}}).ok());
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (entry.path().filename().string().starts_with("wal.")) segment = entry.path().string();
    }
  }
  ASSERT_FALSE(segment.empty());
  std::filesystem::resize_file(segment, std::filesystem::file_size(segment) - 3);
  auto reopened = Database::Open(options);
  ASSERT_TRUE(reopened.ok()) << reopened.status().ToString();
  const std::string text = ServerMetrics().Render(reopened->get());
  EXPECT_TRUE(Has(text, "# TYPE partstore_wal_records_dropped_total counter")) << text;
  EXPECT_TRUE(Has(text, "partstore_wal_records_dropped_total 1")) << text;
  reopened->reset();
  std::filesystem::remove_all(dir);
}

TEST(ServerMetrics, TablesAndTheirThrottles) {
  DatabaseOptions options;
  options.capacity.enabled = true;
  options.capacity.clock = std::make_shared<capacity::ManualClock>();
  options.capacity.burst_seconds = 0;
  Database db(options);
  KeySchema key;
  key.partition = {"PK", KeyType::kString};
  CreateTableRequest create = SimpleTable("Tab", key);
  create.billing_mode = BillingMode::kProvisioned;
  create.provisioned_throughput = ProvisionedThroughput{1, 1};
  ASSERT_TRUE(db.CreateTable(create).ok());
  int throttled = 0;
  for (int i = 0; i < 20; ++i) {
    auto put = db.PutItem({.table_name = "Tab", .item = {{"PK", "k" + std::to_string(i)}}});
    if (!put.ok()) ++throttled;
  }
  ASSERT_GT(throttled, 0);
  const std::string text = ServerMetrics().Render(&db);
  EXPECT_TRUE(Has(text, R"(partstore_table_items{table="Tab"} )" + std::to_string(20 - throttled)))
      << text;
  EXPECT_TRUE(
      Has(text, R"(partstore_table_throttled_requests_total{table="Tab",operation="write"} )" +
                    std::to_string(throttled)))
      << text;
  EXPECT_TRUE(
      Has(text, R"(partstore_table_throttled_requests_total{table="Tab",operation="read"} 0)"));
  // Without capacity simulation there is nothing to report on throttles.
  Database plain;
  ASSERT_TRUE(plain.CreateTable(SimpleTable("Tab", key)).ok());
  const std::string plain_text = ServerMetrics().Render(&plain);
  EXPECT_TRUE(Has(plain_text, R"(partstore_table_items{table="Tab"} 0)"));
  EXPECT_EQ(plain_text.find("throttled"), std::string::npos);
}

TEST(ServerMetrics, ThroughTheHandler) {
  Database db;
  ServerMetrics metrics;
  const HandlerOptions options{.metrics = &metrics};
  auto post = [&](std::string target, std::string body) {
    HttpRequest request(http::verb::post, "/", 11);
    request.set(http::field::host, "localhost:8000");
    request.set("X-Amz-Target", target);
    request.body() = std::move(body);
    request.prepare_payload();
    return HandleRequest(db, request, options);
  };
  post("DynamoDB_20120810.ListTables", "{}");
  post("DynamoDB_20120810.GetItem", R"({"TableName":"Nope","Key":{"pk":{"S":"a"}}})");
  post("DynamoDB_20120810.MadeUpOperation", "{}");
  HttpRequest scrape(http::verb::get, "/metrics", 11);
  HttpResponse response = HandleRequest(db, scrape, options);
  EXPECT_EQ(response.result(), http::status::ok);
  EXPECT_EQ(response[http::field::content_type], "text/plain; version=0.0.4");
  const std::string& text = response.body();
  EXPECT_TRUE(Has(text, R"(partstore_requests_total{operation="ListTables"} 1)")) << text;
  EXPECT_TRUE(Has(
      text, R"(partstore_errors_total{operation="GetItem",error="ResourceNotFoundException"} 1)"));
  // A made-up operation name is not a label.
  EXPECT_TRUE(Has(text, R"(partstore_requests_total{operation=""} 1)")) << text;
  EXPECT_EQ(text.find("MadeUp"), std::string::npos);
  // Without metrics, /metrics is just another unknown path.
  EXPECT_EQ(HandleRequest(db, scrape).result(), http::status::bad_request);
}

// Requests refused before the operation runs are counted under it too: a body that does not
// decode, a wrong content type, a missing signature.
TEST(ServerMetrics, RefusedRequestsAreCounted) {
  Database db;
  ServerMetrics metrics;
  auto post = [&](const std::string& target, const HandlerOptions& options,
                  const std::string& content_encoding, const std::string& content_type) {
    HttpRequest request(http::verb::post, "/", 11);
    request.set(http::field::host, "localhost:8000");
    request.set("X-Amz-Target", target);
    request.set(http::field::content_type, content_type);
    if (!content_encoding.empty()) request.set(http::field::content_encoding, content_encoding);
    request.body() = "{}";
    request.prepare_payload();
    return HandleRequest(db, request, options);
  };
  const HandlerOptions open{.metrics = &metrics};
  EXPECT_EQ(
      post("DynamoDB_20120810.ListTables", open, "gzip", "application/x-amz-json-1.0").result(),
      http::status::internal_server_error);
  EXPECT_EQ(post("DynamoDB_20120810.ListTables", open, "", "text/html").result(),
            http::status::bad_request);
  Result<AccessKeys> keys = AccessKeys::Parse("AKIDTEST secret\n");
  ASSERT_TRUE(keys.ok());
  const HandlerOptions secured{.access_keys = &*keys, .metrics = &metrics};
  EXPECT_EQ(post("DynamoDB_20120810.PutItem", secured, "", "application/x-amz-json-1.0").result(),
            http::status::bad_request);
  EXPECT_EQ(
      post("DynamoDB_20120810.NoSuchThing", secured, "", "application/x-amz-json-1.0").result(),
      http::status::bad_request);

  HttpRequest scrape(http::verb::get, "/metrics", 11);
  const std::string text = HandleRequest(db, scrape, open).body();
  EXPECT_TRUE(Has(text, R"(partstore_requests_total{operation="ListTables"} 2)")) << text;
  EXPECT_TRUE(
      Has(text, R"(partstore_errors_total{operation="ListTables",error="InternalServerError"} 1)"))
      << text;
  EXPECT_TRUE(
      Has(text,
          R"(partstore_errors_total{operation="ListTables",error="UnknownOperationException"} 1)"))
      << text;
  EXPECT_TRUE(Has(
      text,
      R"(partstore_errors_total{operation="PutItem",error="MissingAuthenticationTokenException"} 1)"))
      << text;
  // Refused or not, a made-up name is not a label.
  EXPECT_TRUE(Has(text, R"(partstore_requests_total{operation=""} 1)")) << text;
  EXPECT_EQ(text.find("NoSuchThing"), std::string::npos);
}

}  // namespace
}  // namespace partstore::server
