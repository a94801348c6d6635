// The live page (tools/live): the document at /ui/data (its shape, the hot partition, throttles by
// reason, the hot key, the last throttled requests, the throttled counts /metrics shows), its
// bounds and bad input, the page at /ui, and Basic authentication when the server has keys.
#include "tools/live/live_view.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <boost/beast/http.hpp>
#include <memory>
#include <string>

#include "partstore/clock.h"
#include "tools/live/live_page.h"
#include "tools/server/authenticator.h"
#include "tools/server/server_metrics.h"
#include "tools/simulator/report_summary.h"

namespace partstore::live {
namespace {

namespace http = boost::beast::http;

rapidjson::Document Parse(const std::string& text) {
  rapidjson::Document d;
  d.Parse(text.c_str(), text.size());
  EXPECT_FALSE(d.HasParseError()) << text.substr(0, 400);
  return d;
}

class LiveViewTest : public ::testing::Test {
 protected:
  LiveViewTest() : clock_(std::make_shared<capacity::ManualClock>()), db_(Options(clock_)) {}

  static DatabaseOptions Options(std::shared_ptr<capacity::ManualClock> clock) {
    DatabaseOptions options;
    options.capacity.enabled = true;
    options.capacity.clock = std::move(clock);
    options.capacity.contributor_insights = true;
    return options;
  }

  // A provisioned table of two partitions (3,000 WCU needs three; 1,500 needs two) and a GSI.
  void CreateShop(std::string name = "Shop") {
    KeySchema key;
    key.partition = {"PK", KeyType::kString};
    CreateTableRequest create = SimpleTable(name, key);
    create.billing_mode = BillingMode::kProvisioned;
    create.provisioned_throughput = ProvisionedThroughput{100, 1500};
    create.attribute_definitions.push_back({"owner", KeyType::kString});
    GlobalSecondaryIndex gsi;
    gsi.index_name = "ByOwner";
    gsi.key_schema = {{"owner", KeyRoleName::kHash}};
    gsi.projection.projection_type = ProjectionType::kKeysOnly;
    gsi.provisioned_throughput = ProvisionedThroughput{100, 1500};
    create.global_secondary_indexes.push_back(gsi);
    auto created = db_.CreateTable(create);
    ASSERT_TRUE(created.ok()) << created.status().ToString();
  }

  // 3,000 writes on key "hot" in 0.9 s: its partition may serve 750 WCU a second (1,000 with
  // adaptive capacity), with one second's worth saved.
  int64_t HotSecond(const std::string& table = "Shop") {
    int64_t throttled = 0;
    for (int i = 0; i < 3000; ++i) {
      auto put = db_.PutItem(
          {.table_name = table,
           .item = {{"PK", Value("hot")}, {"n", Value(Number::Parse(std::to_string(i)).value())}}});
      throttled += !put.ok();
      clock_->Advance(300);  // 3,000 x 300 us: 0.9 s
    }
    clock_->Advance(100'000);
    return throttled;
  }

  std::string Json(const LiveViewOptions& options = {}) {
    Result<std::string> json = LiveViewJson(db_, options);
    EXPECT_TRUE(json.ok()) << json.status().ToString();
    return json.ok() ? *json : "{}";
  }

  std::shared_ptr<capacity::ManualClock> clock_;
  Database db_;
};

TEST_F(LiveViewTest, AHotKeyShowsItsPartitionItsThrottleReasonAndItself) {
  CreateShop();
  clock_->Advance(1'000'000);
  const int64_t throttled = HotSecond();
  ASSERT_GT(throttled, 0);
  rapidjson::Document d = Parse(Json());
  ASSERT_TRUE(d["capacity"].GetBool());
  EXPECT_EQ(d["tables_total"].GetInt(), 1);
  EXPECT_EQ(d["tables_shown"].GetInt(), 1);
  EXPECT_EQ(d["window_seconds"].GetInt(), 120);
  const auto& resources = d["resources"].GetArray();
  ASSERT_EQ(resources.Size(), 2u);  // the table, then its GSI
  const auto& table = resources[0];
  EXPECT_STREQ(table["table"].GetString(), "Shop");
  EXPECT_FALSE(table.HasMember("index"));
  EXPECT_STREQ(resources[1]["index"].GetString(), "ByOwner");
  EXPECT_STREQ(table["billing_mode"].GetString(), "PROVISIONED");
  EXPECT_EQ(table["provisioned"]["write"].GetInt(), 1500);
  // Two partitions of 750 WCU each; the hot key's wrote its 750 (and more, with the burst) in the
  // last whole second, the other nothing.
  const auto& partitions = table["partitions"].GetArray();
  ASSERT_EQ(partitions.Size(), 2u);
  int hot = -1;
  for (rapidjson::SizeType i = 0; i < partitions.Size(); ++i) {
    EXPECT_EQ(partitions[i]["write_limit"].GetDouble(), 750);
    if (partitions[i]["write_units"].GetDouble() > 0) hot = static_cast<int>(i);
  }
  ASSERT_GE(hot, 0);
  EXPECT_GE(partitions[hot]["write_share"].GetDouble(), 1.0);
  EXPECT_GT(partitions[hot]["throttled"].GetInt(), 0);
  EXPECT_EQ(partitions[1 - hot]["write_units"].GetDouble(), 0);
  // The series: one value per second of the window, the last second's throttles included.
  const auto& series = table["series"];
  ASSERT_EQ(series["write"].Size(), 120u);
  ASSERT_EQ(series["throttled"].Size(), 120u);
  EXPECT_EQ(series["throttled"][119].GetInt(), throttled);
  // Throttles by reason, with what the reason means.
  // (The partition's share of the provisioned rate, or with adaptive capacity its hard limit.)
  const auto& throttles = table["throttles"].GetArray();
  ASSERT_GE(throttles.Size(), 1u);
  int64_t events = 0;
  for (const auto& t : throttles) {
    const std::string reason = t["reason"].GetString();
    EXPECT_TRUE(reason == "TableWriteProvisionedThroughputExceeded" ||
                reason == "TableWriteKeyRangeThroughputExceeded")
        << reason;
    EXPECT_EQ(std::string(t["meaning"].GetString()), sim::ExplainReason(reason));
    EXPECT_EQ(t["per_second"].Size(), 120u);
    events += t["total"].GetInt();
  }
  EXPECT_EQ(events, throttled);
  // The hot key, in Contributor Insights' rules and in the last throttled requests.
  bool hot_key = false;
  for (const auto& rule : table["top_keys"].GetArray()) {
    for (const auto& key : rule["keys"].GetArray()) {
      hot_key = hot_key || std::string(key["key"]["PK"]["S"].GetString()) == "hot";
    }
  }
  EXPECT_TRUE(hot_key);
  const auto& recent = table["recent_throttles"].GetArray();
  ASSERT_EQ(recent.Size(), std::min<int64_t>(throttled, 20));
  EXPECT_STREQ(recent[0]["key"]["PK"]["S"].GetString(), "hot");
  EXPECT_EQ(recent[0]["partition"].GetInt(), partitions[hot]["id"].GetInt());
  // The throttled requests since the start: what /metrics says for the table.
  EXPECT_EQ(table["throttled_requests"]["write"].GetInt(), throttled);
  EXPECT_EQ(table["throttled_requests"]["read"].GetInt(), 0);
  const std::string metrics = server::ServerMetrics().Render(&db_);
  EXPECT_NE(
      metrics.find(R"(partstore_table_throttled_requests_total{table="Shop",operation="write"} )" +
                   std::to_string(throttled) + "\n"),
      std::string::npos);
  EXPECT_FALSE(resources[1].HasMember("throttled_requests"));  // (a GSI's count is its table's)
}

TEST_F(LiveViewTest, SplitsShowAsTheyHappen) {
  CreateShop();
  clock_->Advance(1'000'000);
  ASSERT_TRUE(db_.UpdateTable({.table_name = "Shop",
                               .provisioned_throughput = ProvisionedThroughput{100, 4500}})
                  .ok());
  clock_->Advance(2'000'000);
  rapidjson::Document d = Parse(Json({.table = "Shop"}));
  const auto& table = d["resources"][0];
  EXPECT_GE(table["partitions"].Size(), 5u);
  ASSERT_GE(table["splits"].Size(), 1u);
  EXPECT_STREQ(table["splits"][0]["reason"].GetString(), "THROUGHPUT");
}

TEST_F(LiveViewTest, ManyTablesAreBoundedBusiestFirst) {
  KeySchema key;
  key.partition = {"PK", KeyType::kString};
  for (int i = 0; i < 300; ++i) {
    ASSERT_TRUE(db_.CreateTable(SimpleTable("tab" + std::to_string(i), key)).ok());
  }
  CreateShop("zz-busy");
  clock_->Advance(1'000'000);
  HotSecond("zz-busy");
  const std::string json = Json();
  rapidjson::Document d = Parse(json);
  EXPECT_EQ(d["tables_total"].GetInt(), 301);
  EXPECT_EQ(d["tables_shown"].GetInt(), 20);
  EXPECT_STREQ(d["resources"][0]["table"].GetString(), "zz-busy");
  EXPECT_LT(json.size(), 400'000u);  // 20 tables of 120 s each
  rapidjson::Document few = Parse(Json({.max_tables = 3, .window_seconds = 10}));
  EXPECT_EQ(few["tables_shown"].GetInt(), 3);
  EXPECT_EQ(few["resources"][0]["series"]["read"].Size(), 10u);
}

TEST_F(LiveViewTest, BadInputIsRefused) {
  EXPECT_EQ(LiveViewJson(db_, {.table = "Nope"}).status().code(), Code::kResourceNotFound);
  EXPECT_EQ(LiveViewJson(db_, {.window_seconds = 0}).status().code(), Code::kValidation);
  EXPECT_EQ(LiveViewJson(db_, {.window_seconds = 601}).status().code(), Code::kValidation);
  EXPECT_EQ(LiveViewJson(db_, {.top_keys = 0}).status().code(), Code::kValidation);
}

TEST(LiveViewCapacityOff, SaysSoInsteadOfEmptyCharts) {
  Database db;
  KeySchema key;
  key.partition = {"PK", KeyType::kString};
  ASSERT_TRUE(db.CreateTable(SimpleTable("Tab", key)).ok());
  Result<std::string> json = LiveViewJson(db, {});
  ASSERT_TRUE(json.ok());
  rapidjson::Document d = Parse(*json);
  EXPECT_FALSE(d["capacity"].GetBool());
  EXPECT_EQ(d["tables_total"].GetInt(), 1);
  EXPECT_EQ(d["resources"].Size(), 0u);
  EXPECT_NE(PageHtml("x").find("Capacity simulation is off"), std::string::npos);
}

server::HttpRequest Get(std::string target) {
  server::HttpRequest request(http::verb::get, target, 11);
  request.set(http::field::host, "localhost:8000");
  return request;
}

TEST_F(LiveViewTest, RoutesParametersAndAuthentication) {
  CreateShop();
  const LivePageOptions open;
  std::optional<server::Reply> page = Answer(db_, Get("/ui"), open);
  ASSERT_TRUE(page.has_value());
  EXPECT_EQ(page->status, http::status::ok);
  EXPECT_EQ(page->content_type, "text/html; charset=utf-8");
  EXPECT_NE(page->body.find("/ui/data"), std::string::npos);
  // Self-contained: nothing is fetched from elsewhere.
  EXPECT_EQ(page->body.find("http://"), std::string::npos);
  EXPECT_EQ(page->body.find("https://"), std::string::npos);
  std::optional<server::Reply> data = Answer(db_, Get("/ui/data?table=Shop&window=30"), open);
  ASSERT_TRUE(data.has_value());
  EXPECT_EQ(data->status, http::status::ok);
  EXPECT_EQ(Parse(data->body)["resources"][0]["series"]["read"].Size(), 30u);
  // Other paths are not the page's.
  EXPECT_FALSE(Answer(db_, Get("/"), open).has_value());
  EXPECT_FALSE(Answer(db_, Get("/uix"), open).has_value());
  // Bad parameters and unknown tables: DynamoDB's error shape.
  for (const char* target : {"/ui/data?window=0", "/ui/data?window=x", "/ui/data?tables=500",
                             "/ui/data?color=red", "/ui/data?table=a%20b"}) {
    std::optional<server::Reply> bad = Answer(db_, Get(target), open);
    ASSERT_TRUE(bad.has_value()) << target;
    EXPECT_EQ(bad->status, http::status::bad_request) << target;
    EXPECT_NE(bad->body.find("ValidationException"), std::string::npos) << bad->body;
  }
  std::optional<server::Reply> missing = Answer(db_, Get("/ui/data?table=Nope"), open);
  ASSERT_TRUE(missing.has_value());
  EXPECT_NE(missing->body.find("ResourceNotFoundException"), std::string::npos);

  // With keys: Basic authentication with a key id and its secret.
  Result<server::AccessKeys> keys = server::AccessKeys::Parse("AKID secret/key+1\n");
  ASSERT_TRUE(keys.ok());
  const LivePageOptions guarded{.access_keys = &*keys};
  std::optional<server::Reply> refused = Answer(db_, Get("/ui"), guarded);
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->status, http::status::unauthorized);
  EXPECT_NE(refused->extra_headers.find("WWW-Authenticate: Basic"), std::string::npos);
  server::HttpRequest wrong = Get("/ui/data");
  wrong.set(http::field::authorization, "Basic QUtJRDp3cm9uZw==");  // AKID:wrong
  EXPECT_EQ(Answer(db_, wrong, guarded)->status, http::status::unauthorized);
  server::HttpRequest right = Get("/ui/data");
  right.set(http::field::authorization, "Basic QUtJRDpzZWNyZXQva2V5KzE=");  // AKID:secret/key+1
  EXPECT_EQ(Answer(db_, right, guarded)->status, http::status::ok);
}

TEST(LiveViewCache, ACacheShowsItsHitRatioAndUpstreamCalls) {
  CacheStats stats;
  stats.item_hits = 6;
  stats.negative_hits = 1;
  stats.item_misses = 2;
  stats.query_hits = 1;
  stats.upstream_calls = 4;
  stats.upstream_micros = 10'000;
  stats.memory_bytes = 4096;
  rapidjson::Document d = Parse(CacheViewJson(stats));
  EXPECT_FALSE(d["capacity"].GetBool());
  EXPECT_EQ(d["resources"].Size(), 0u);
  EXPECT_EQ(d["cache"]["hit_ratio"].GetDouble(), 0.8);  // 8 hits, 2 misses
  EXPECT_EQ(d["cache"]["upstream_calls"].GetInt(), 4);
  EXPECT_EQ(d["cache"]["upstream_ms_per_call"].GetDouble(), 2.5);
  EXPECT_EQ(d["cache"]["memory_bytes"].GetInt(), 4096);
  const std::function<CacheStats()> source = [&] { return stats; };
  std::optional<server::Reply> data = Answer(source, Get("/ui/data"), {});
  ASSERT_TRUE(data.has_value());
  EXPECT_EQ(data->body, CacheViewJson(stats));
  EXPECT_EQ(Answer(source, Get("/ui/data?table=x"), {})->status, http::status::bad_request);
  EXPECT_EQ(Answer(source, Get("/ui"), {})->status, http::status::ok);
}

}  // namespace
}  // namespace partstore::live
