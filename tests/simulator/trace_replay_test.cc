// Trace replay (tools/simulator/trace_replay.h): a trace recorded through the protocol replays
// with the same requests, at the speed asked for, and a malformed trace is an error naming its
// line.
#include "tools/simulator/trace_replay.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "partstore/database.h"
#include "partstore/trace.h"
#include "tests/simulator/simulation_testutil.h"
#include "tools/protocol/dispatch.h"
#include "tools/simulator/advise.h"
#include "tools/simulator/report_json.h"

namespace partstore::sim {
namespace {

using testing::MustSimulate;

// Runs a `partstore run` script (tests/run/) through Dispatch on a traced Database; returns the
// trace and counts the data-plane requests answered (OK or a failed condition) per operation.
std::string RecordScript(const std::string& name, std::map<std::string, int64_t>* answered) {
  std::ostringstream trace;
  {
    DatabaseOptions options;
    options.trace = std::make_shared<TraceRecorder>(trace, TraceOptions{});
    Database db(options);
    const auto path = std::filesystem::path(PARTSTORE_RUN_SCRIPTS) / name;
    std::ifstream in(path);
    EXPECT_TRUE(in.is_open()) << path;
    for (std::string line; std::getline(in, line);) {
      if (line.empty() || line[0] == '#') continue;
      rapidjson::Document d;
      d.Parse(line.c_str());
      if (!d.IsObject() || !d.HasMember("op")) continue;
      rapidjson::StringBuffer body;
      rapidjson::Writer<rapidjson::StringBuffer> writer(body);
      d["request"].Accept(writer);
      const std::string op = d["op"].GetString();
      protocol::Response r = protocol::Dispatch(db, op, body.GetString());
      static const std::map<std::string, std::string> kKinds = {
          {"GetItem", "get"},
          {"PutItem", "put"},
          {"UpdateItem", "update"},
          {"DeleteItem", "delete"},
          {"Query", "query"},
          {"Scan", "scan"},
          {"BatchGetItem", "batch_get"},
          {"BatchWriteItem", "batch_write"},
          {"TransactWriteItems", "transact_write"},
          {"TransactGetItems", "transact_get"}};
      auto kind = kKinds.find(op);
      if (kind == kKinds.end()) continue;
      if (r.http_status == 200 || r.body.find("ConditionalCheckFailed") != std::string::npos ||
          r.body.find("TransactionCanceled") != std::string::npos) {
        ++(*answered)[kind->second];
      }
    }
  }  // the Database and its recorder flush
  return trace.str();
}

Replay MustRead(const std::string& trace, ReplayOptions options = {}) {
  std::istringstream in(trace);
  auto replay = ReadTrace(in, "test.trace", options);
  EXPECT_TRUE(replay.ok()) << replay.status().message();
  return replay.ok() ? std::move(*replay) : Replay{};
}

std::map<std::string, int64_t> Offered(const Report& report) {
  std::map<std::string, int64_t> out;
  for (const OperationReport& op : report.phases.at(0).operations)
    out[op.name] += op.counts.offered;
  return out;
}

TEST(TraceReplayTest, TheSeedECommerceScriptReplayedAt1xSendsTheSameRequests) {
  for (const char* script : {"ecommerce.jsonl", "ecommerce_gsi.jsonl"}) {
    SCOPED_TRACE(script);
    std::map<std::string, int64_t> answered;
    const std::string trace = RecordScript(script, &answered);
    ASSERT_FALSE(answered.empty());
    Replay replay = MustRead(trace);
    const Report report = MustSimulate(replay.workload, {.replay = &replay});
    EXPECT_EQ(Offered(report), answered);
    EXPECT_EQ(report.phases.at(0).counts.errors, 0);
    for (const auto& e : report.errors) ADD_FAILURE() << e.message;
    // Served, or a condition failing as it failed when recorded.
    EXPECT_EQ(report.phases.at(0).counts.served + report.phases.at(0).counts.condition_failed,
              report.phases.at(0).counts.offered);
  }
}

constexpr char kHeader[] = R"({"trace":"partstore","version":1,"hash_keys":false})";
constexpr char kTable[] =
    R"({"t":0,"op":"CreateTable","table":"Things","key":["PK"],"billing":"PROVISIONED","read":5,"write":20,"class":"STANDARD","indexes":[]})";

// `n` writes of one key, one every `gap` micros, starting at 10 s.
std::string Writes(int n, int64_t gap, const std::string& extra = "") {
  std::string out = std::string(kHeader) + "\n" + kTable + "\n";
  for (int i = 0; i < n; ++i) {
    out += R"({"t":)" + std::to_string(10'000'000 + i * gap) +
           R"(,"op":"PutItem","table":"Things","key":{"PK":"hot"},"size":900,"units":1)" + extra +
           "}\n";
  }
  return out;
}

TEST(TraceReplayTest, SpeedCompressesTheTimesAndProductionRatesThrottle) {
  // 600 writes of 1 WCU over 60 s: 10 a second against 20 provisioned WCU; at 50x they come in
  // 1.2 s, 500 a second.
  const std::string trace = Writes(600, 100'000);
  Replay slow = MustRead(trace);
  EXPECT_EQ(slow.requests.front().micros, 0);  // times start at the first request
  EXPECT_EQ(slow.requests.back().micros, 59'900'000);
  Replay fast = MustRead(trace, {.speed = 50});
  EXPECT_EQ(fast.requests.back().micros, 59'900'000 / 50);
  const Report at1 = MustSimulate(slow.workload, {.replay = &slow});
  const Report at50 = MustSimulate(fast.workload, {.replay = &fast});
  EXPECT_EQ(at1.phases[0].counts.throttled, 0);
  EXPECT_GT(at50.phases[0].counts.throttled, 0);
  EXPECT_EQ(at50.phases[0].counts.offered, 600);
}

TEST(TraceReplayTest, AdviseFindsWhatServesTheReplayedLoad) {
  Replay fast = MustRead(Writes(600, 100'000), {.speed = 50});
  const Report report = MustSimulate(fast.workload, {.replay = &fast});
  ASSERT_GT(report.totals.throttled, 0);
  const std::vector<Advice> advice = Advise(fast.workload, report, {.replay = &fast});
  bool fixed = false;
  for (const Advice& a : advice) {
    if (!a.report) continue;
    EXPECT_EQ(a.report->totals.offered, 600) << a.title;  // the same trace, replayed again
    fixed = fixed || !a.throttled;
  }
  EXPECT_TRUE(fixed);
}

TEST(TraceReplayTest, TheTablesOfAWorkloadFileReplaceTheTraces) {
  auto tables = ParseWorkload(R"(
name = "bigger"
[[tables]]
name = "Things"
partition_key = "PK"
billing = "on-demand"
)",
                              "tables.toml", WorkloadParts::kTables);
  ASSERT_TRUE(tables.ok()) << tables.status().message();
  Replay replay = MustRead(Writes(600, 2'000), {.speed = 1, .tables = *tables});
  ASSERT_EQ(replay.workload.tables.size(), 1u);
  EXPECT_TRUE(replay.workload.tables[0].on_demand);
  const Report report = MustSimulate(replay.workload, {.replay = &replay});
  EXPECT_EQ(report.phases[0].counts.throttled, 0);
}

TEST(TraceReplayTest, AFailedConditionFailsAgainAndReadsOfUnwrittenItemsArePreloaded) {
  std::string trace =
      std::string(kHeader) + "\n" + kTable + "\n" +
      R"({"t":1,"op":"PutItem","table":"Things","key":{"PK":"a"},"size":50,"units":1,"error":"ConditionalCheckFailed"})"
      "\n"
      R"({"t":2,"op":"GetItem","table":"Things","key":{"PK":"old"},"units":2,"consistent":true})"
      "\n"
      R"({"t":3,"op":"GetItem","table":"Things","key":{"PK":"old"},"units":2,"consistent":true})"
      "\n"
      R"({"t":4,"op":"GetItem","table":"Things","key":{"PK":"never"},"units":0.5,"missing":true})"
      "\n";
  Replay replay = MustRead(trace);
  ASSERT_EQ(replay.preload.size(), 1u);  // once, and none for the GetItem that found nothing
  EXPECT_GT(ItemSize(replay.preload[0].second), 4096u);  // 2 strongly consistent units: 8 KB
  EXPECT_LE(ItemSize(replay.preload[0].second), 8192u);
  const Report report = MustSimulate(replay.workload, {.replay = &replay});
  EXPECT_EQ(report.phases[0].counts.condition_failed, 1);
  EXPECT_EQ(report.phases[0].counts.served, 3);
  ASSERT_FALSE(report.resources.empty());
  EXPECT_DOUBLE_EQ(report.resources[0].consumed_read_units, 4.5);  // as recorded
}

// The replay's preload (padded when the trace is read) is padded in full too when full items are
// asked for: the table holds the item's bytes, and the report is the same.
TEST(TraceReplayTest, FullItemsPadTheReplaysPreloadInFull) {
  const std::string trace =
      std::string(kHeader) + "\n" + kTable + "\n" +
      R"({"t":1,"op":"GetItem","table":"Things","key":{"PK":"old"},"units":2,"consistent":true})"
      "\n";
  Replay replay = MustRead(trace);
  ASSERT_EQ(replay.preload.size(), 1u);
  auto run = [&](bool full_items, int64_t* bytes) {
    SimulateOptions options{.replay = &replay};
    options.full_items = full_items;
    options.live = [&](Database& db, bool finished) {
      if (finished) *bytes = db.DescribeMemory().used_bytes;
    };
    return ReportJson(MustSimulate(replay.workload, options));
  };
  int64_t by_length = 0, full = 0;
  EXPECT_EQ(run(false, &by_length), run(true, &full));
  EXPECT_LT(by_length, 2048);  // the preloaded item is over 4 KB
  EXPECT_GT(full, 4096);
}

TEST(TraceReplayTest, AMalformedTraceIsAnErrorNamingTheLine) {
  struct Case {
    std::string trace;
    std::string error;
  };
  const std::string head = std::string(kHeader) + "\n" + kTable + "\n";
  const Case cases[] = {
      {"", "the trace is empty"},
      {"{\"t\":0}\n", "test.trace:1: not a partstore trace"},
      {head + "not json\n", "test.trace:3: not a JSON object"},
      {head + R"({"t":1,"op":"Frobnicate","table":"Things"})"
              "\n",
       "test.trace:3: unknown operation \"Frobnicate\""},
      {head + R"({"t":1,"op":"GetItem","table":"U","key":{"PK":"a"}})"
              "\n",
       "test.trace:3: table U is not defined"},
      {head + R"({"op":"GetItem","table":"Things"})"
              "\n",
       "test.trace:3: \"t\" is missing"},
      {head + R"({"t":1,"op":"GetItem","table":"Things","key":{"PK":7}})"
              "\n",
       "\"key\" must be an object of non-empty strings"},
      {head + R"({"t":1,"op":"BatchGetItem","items":[]})"
              "\n",
       "\"items\" must be a non-empty array"},
      {head + R"({"t":1,"op":"BatchGetItem","items":[{"table":"Things","action":"eat"}]})"
              "\n",
       "unknown action \"eat\""},
      {head + R"({"t":1,"op":"PutItem","table":"Things","size":500000})"
              "\n",
       "\"size\" is 500000, out of range"},
      {head, "the trace has no requests"},
      {head + R"({"t":1,"op":"GetItem","table":"Things","key":{"Other":"a"}})"
              "\n",
       "test.trace:3: the key of this GetItem on Things has no PK"},
      {head + std::string(kMaxTraceLineBytes + 1, ' ') + "\n", "test.trace:3: the line is longer"},
  };
  for (const Case& c : cases) {
    std::istringstream in(c.trace);
    auto replay = ReadTrace(in, "test.trace", {});
    ASSERT_FALSE(replay.ok()) << c.trace.substr(0, 200);
    EXPECT_NE(replay.status().message().find(c.error), std::string::npos)
        << replay.status().message();
  }
}

TEST(TraceReplayTest, SpeedIsAPositiveFactor) {
  EXPECT_EQ(*ParseSpeed("50x"), 50);
  EXPECT_EQ(*ParseSpeed("50"), 50);
  EXPECT_EQ(*ParseSpeed("0.5X"), 0.5);
  for (const char* bad : {"0", "-2x", "x", "fast", "1e7", "nan", "2xx"}) {
    EXPECT_FALSE(ParseSpeed(bad).ok()) << bad;
  }
}

}  // namespace
}  // namespace partstore::sim
