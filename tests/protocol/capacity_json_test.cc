// Tests for the capacity extensions' JSON (capacity_json.h): the decoders' shape and
// required-member errors, the encoders' exact bytes, the ThrottlingReasons member of throttling
// error bodies, and Partstore.<Op> through Dispatch on a Database with capacity simulation on a
// manual clock (and off).
#include "tools/protocol/capacity_json.h"

#include <gtest/gtest.h>

#include <memory>
#include <regex>
#include <string>

#include "partstore/clock.h"
#include "tests/protocol/decode_testutil.h"
#include "tools/protocol/dispatch.h"

namespace partstore::protocol {
namespace {

constexpr std::string_view kTableNameNull =
    "Validation: 1 validation error detected: Value null at 'tableName' failed to satisfy "
    "constraint: Member must not be null";

// ---- Decoders ----

TEST(CapacityDecodeTest, AdvanceClock) {
  auto r = Decode(DecodeAdvanceClockRequest, R"({"Seconds": 1.5})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_EQ(r->seconds, 1.5);
  r = Decode(DecodeAdvanceClockRequest, R"({"Seconds": 60})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_EQ(r->seconds, 60);
  // Negative values reach the engine, which rejects them.
  r = Decode(DecodeAdvanceClockRequest, R"({"Seconds": -1})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_EQ(r->seconds, -1);

  EXPECT_EQ(ErrorOf(Decode(DecodeAdvanceClockRequest, "{}")),
            "Validation: 1 validation error detected: Value null at 'seconds' failed to satisfy "
            "constraint: Member must not be null");
  EXPECT_EQ(ErrorOf(Decode(DecodeAdvanceClockRequest, R"({"Seconds": null})")),
            "Validation: 1 validation error detected: Value null at 'seconds' failed to satisfy "
            "constraint: Member must not be null");
  EXPECT_EQ(ErrorOf(Decode(DecodeAdvanceClockRequest, R"({"Seconds": "1"})")),
            "Serialization: STRING_VALUE cannot be converted to Double");
  EXPECT_EQ(ErrorOf(Decode(DecodeAdvanceClockRequest, R"({"Seconds": true})")),
            "Serialization: TRUE_VALUE cannot be converted to Double");
  EXPECT_EQ(ErrorOf(Decode(DecodeAdvanceClockRequest, R"({"Seconds": false})")),
            "Serialization: FALSE_VALUE cannot be converted to Double");
  EXPECT_EQ(ErrorOf(Decode(DecodeAdvanceClockRequest, R"({"Seconds": [1]})")),
            "Serialization: Unrecognized collection type class java.lang.Double");
  EXPECT_EQ(ErrorOf(Decode(DecodeAdvanceClockRequest, R"({"Seconds": {}})")),
            "Serialization: Start of structure or map found where not expected");
  EXPECT_EQ(ErrorOf(Decode(DecodeAdvanceClockRequest, "[]")),
            "Serialization: Unrecognized collection type class "
            "com.amazonaws.dynamodb.v20120810.AdvanceClockInput");
}

TEST(CapacityDecodeTest, DescribePartitions) {
  auto r = Decode(DecodeDescribePartitionsRequest, R"({"TableName": "Tab"})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_EQ(r->table_name, "Tab");
  EXPECT_FALSE(r->index_name);
  r = Decode(DecodeDescribePartitionsRequest, R"({"TableName": "Tab", "IndexName": "ByG"})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_EQ(r->index_name, "ByG");

  EXPECT_EQ(ErrorOf(Decode(DecodeDescribePartitionsRequest, R"({"IndexName": "ByG"})")),
            kTableNameNull);
  EXPECT_EQ(ErrorOf(Decode(DecodeDescribePartitionsRequest, R"({"TableName": 5})")),
            "Serialization: NUMBER_VALUE cannot be converted to String");
  EXPECT_EQ(
      ErrorOf(Decode(DecodeDescribePartitionsRequest, R"({"TableName": "Tab", "IndexName": []})")),
      "Serialization: Unrecognized collection type class java.lang.String");
}

TEST(CapacityDecodeTest, GetMetrics) {
  auto r = Decode(DecodeGetMetricsRequest, R"({"TableName": "Tab"})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_EQ(r->period, 60);
  EXPECT_FALSE(r->start_time);
  EXPECT_FALSE(r->end_time);
  EXPECT_FALSE(r->include_partitions);
  r = Decode(DecodeGetMetricsRequest, R"({"TableName": "Tab", "IndexName": "ByG", "Period": 1,
      "StartTime": 10, "EndTime": 20.9, "IncludePartitions": true})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_EQ(r->index_name, "ByG");
  EXPECT_EQ(r->period, 1);
  EXPECT_EQ(r->start_time, 10);
  EXPECT_EQ(r->end_time, 20);  // an Integer's fraction is truncated
  EXPECT_TRUE(r->include_partitions);
  // The Period's value set is the engine's check.
  r = Decode(DecodeGetMetricsRequest, R"({"TableName": "Tab", "Period": 5})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_EQ(r->period, 5);

  EXPECT_EQ(ErrorOf(Decode(DecodeGetMetricsRequest, R"({"Period": 1})")), kTableNameNull);
  EXPECT_EQ(ErrorOf(Decode(DecodeGetMetricsRequest, R"({"TableName": "Tab", "Period": "1"})")),
            "Serialization: STRING_VALUE cannot be converted to Integer");
  EXPECT_EQ(ErrorOf(Decode(DecodeGetMetricsRequest, R"({"TableName": "Tab", "StartTime": []})")),
            "Serialization: Unrecognized collection type class java.lang.Long");
  EXPECT_EQ(
      ErrorOf(Decode(DecodeGetMetricsRequest, R"({"TableName": "Tab", "IncludePartitions": 1})")),
      "Serialization: NUMBER_VALUE cannot be converted to Boolean");
}

TEST(CapacityDecodeTest, GetContributorInsights) {
  auto r = Decode(DecodeGetContributorInsightsRequest, R"({"TableName": "Tab"})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_EQ(r->top_n, 10);
  r = Decode(DecodeGetContributorInsightsRequest,
             R"({"TableName": "Tab", "IndexName": "ByG", "TopN": 3})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_EQ(r->index_name, "ByG");
  EXPECT_EQ(r->top_n, 3);

  EXPECT_EQ(ErrorOf(Decode(DecodeGetContributorInsightsRequest, R"({"TopN": 3})")), kTableNameNull);
  EXPECT_EQ(
      ErrorOf(Decode(DecodeGetContributorInsightsRequest, R"({"TableName": "Tab", "TopN": true})")),
      "Serialization: TRUE_VALUE cannot be converted to Integer");
  EXPECT_EQ(ErrorOf(Decode(DecodeGetContributorInsightsRequest,
                           R"({"TableName": "Tab", "TopN": 3000000000})")),
            "Serialization: NUMBER_VALUE cannot be converted to Integer");
}

// ---- Encoders ----

TEST(CapacityEncodeTest, AdvanceClock) {
  EXPECT_EQ(EncodeAdvanceClockResult({.now_seconds = 0}), R"({"Now":0})");
  EXPECT_EQ(EncodeAdvanceClockResult({.now_seconds = 1000}), R"({"Now":1000})");
  EXPECT_EQ(EncodeAdvanceClockResult({.now_seconds = 2.5}), R"({"Now":2.5})");
  EXPECT_EQ(EncodeAdvanceClockResult({.now_seconds = 0.000001}), R"({"Now":0.000001})");
}

TEST(CapacityEncodeTest, DescribePartitions) {
  DescribePartitionsResult result;
  result.table_name = "Tab";
  result.billing_mode = "PROVISIONED";
  result.now_seconds = 61.5;
  PartitionDescription p;
  p.partition_id = 3;
  p.hash_range_start = 0xff;
  p.hash_range_end = 0x8000000000000000ull;
  p.size_bytes = 1234;
  p.item_count = 7;
  p.allocated_read_units = 1000;
  p.allocated_write_units = 133.333333;
  p.max_read_units = 3000;
  p.max_write_units = 1000;
  p.burst_read_units = 0.5;
  p.burst_write_units = 0;
  p.consumed_read_units = 12.5;
  p.consumed_write_units = 4;
  p.adaptive_read_units = 0;
  p.adaptive_write_units = 1;
  p.throttled_read_requests = 2;
  p.throttled_write_requests = 3;
  p.throttle_events = 6;
  p.created_seconds = 60;
  result.partitions = {p};
  result.splits = {{.time_seconds = 60,
                    .parent_id = 0,
                    .left_id = 2,
                    .right_id = 3,
                    .split_hash = 0x8000000000000000ull,
                    .reason = "HEAT"}};
  result.recent_throttles = {{.time_seconds = 61.25,
                              .partition_id = 3,
                              .reason = "TableReadKeyRangeThroughputExceeded",
                              .key = {{"PK", Value("hot")}}}};
  EXPECT_EQ(EncodeDescribePartitionsResult(result),
            R"({"TableName":"Tab","BillingMode":"PROVISIONED","Now":61.5,)"
            R"("Partitions":[{"PartitionId":3,"HashRangeStart":"00000000000000ff",)"
            R"("HashRangeEnd":"8000000000000000","SizeBytes":1234,"ItemCount":7,)"
            R"("AllocatedReadUnits":1000,"AllocatedWriteUnits":133.333333,"MaxReadUnits":3000,)"
            R"("MaxWriteUnits":1000,"BurstReadUnits":0.5,"BurstWriteUnits":0,)"
            R"("ConsumedReadUnits":12.5,"ConsumedWriteUnits":4,"AdaptiveReadUnits":0,)"
            R"("AdaptiveWriteUnits":1,"ThrottledReadRequests":2,"ThrottledWriteRequests":3,)"
            R"("ThrottleEvents":6,"CreatedAt":60}],)"
            R"("Splits":[{"Time":60,"ParentId":0,"LeftId":2,"RightId":3,)"
            R"("SplitHash":"8000000000000000","Reason":"HEAT"}],)"
            R"("RecentThrottles":[{"Time":61.25,"PartitionId":3,)"
            R"("Reason":"TableReadKeyRangeThroughputExceeded","Key":{"PK":{"S":"hot"}}}]})");

  // On-demand: the peaks; an index: its name; no partitions (never from the engine): [].
  DescribePartitionsResult on_demand;
  on_demand.table_name = "Tab";
  on_demand.index_name = "ByG";
  on_demand.billing_mode = "PAY_PER_REQUEST";
  on_demand.peak_read_units = 6000;
  on_demand.peak_write_units = 2000;
  EXPECT_EQ(EncodeDescribePartitionsResult(on_demand),
            R"({"TableName":"Tab","IndexName":"ByG","BillingMode":"PAY_PER_REQUEST","Now":0,)"
            R"("PeakReadUnits":6000,"PeakWriteUnits":2000,"Partitions":[],"Splits":[],)"
            R"("RecentThrottles":[]})");
}

capacity::MetricPoint Point(int64_t timestamp) {
  capacity::MetricPoint point;
  point.timestamp = timestamp;
  capacity::MetricCounters& c = point.counters;
  c.consumed_read_half_units = 3;
  c.consumed_write_half_units = 8;
  c.read_requests = 2;
  c.write_requests = 4;
  c.throttled_read_requests = 1;
  c.throttled_write_requests = 2;
  c.returned_item_count = 5;
  const ThrottleReason read_key_range{ThrottleResource::kTable, ThrottleOperation::kRead,
                                      ThrottleLimit::kKeyRangeThroughputExceeded};
  const ThrottleReason index_write{ThrottleResource::kIndex, ThrottleOperation::kWrite,
                                   ThrottleLimit::kProvisionedThroughputExceeded};
  const ThrottleReason table_write{ThrottleResource::kTable, ThrottleOperation::kWrite,
                                   ThrottleLimit::kProvisionedThroughputExceeded};
  c.throttle_events[static_cast<size_t>(read_key_range.index())] = 1;
  c.throttle_events[static_cast<size_t>(index_write.index())] = 2;
  c.throttle_events[static_cast<size_t>(table_write.index())] = 1;
  return point;
}

constexpr std::string_view kPointJson =
    R"("ConsumedReadCapacityUnits":1.5,"ConsumedWriteCapacityUnits":4,"ReadRequests":2,)"
    R"("WriteRequests":4,"ThrottledReadRequests":1,"ThrottledWriteRequests":2,)"
    R"("ThrottledRequests":3,"ReadThrottleEvents":1,"WriteThrottleEvents":3,)"
    R"("ReturnedItemCount":5,"ThrottleEventsByReason":{"TableReadKeyRangeThroughputExceeded":1,)"
    R"("TableWriteProvisionedThroughputExceeded":1,"IndexWriteProvisionedThroughputExceeded":2}})";

TEST(CapacityEncodeTest, GetMetrics) {
  GetMetricsResult result;
  result.table_name = "Tab";
  result.period = 1;
  result.points = {Point(7)};
  EXPECT_EQ(EncodeGetMetricsResult(result),
            R"({"TableName":"Tab","Period":1,"Datapoints":[{"Timestamp":7,)" +
                std::string(kPointJson) + "]}");

  // An empty point has every counter and an empty ThrottleEventsByReason; partitions when present.
  result.index_name = "ByG";
  result.period = 60;
  result.points = {};
  const capacity::MetricPoint empty{.timestamp = 60, .counters = {}};
  result.partitions = {{.partition_id = 0, .points = {}}, {.partition_id = 1, .points = {empty}}};
  EXPECT_EQ(EncodeGetMetricsResult(result),
            R"({"TableName":"Tab","IndexName":"ByG","Period":60,"Datapoints":[],)"
            R"("Partitions":[{"PartitionId":0,"Datapoints":[]},{"PartitionId":1,"Datapoints":[)"
            R"({"Timestamp":60,"ConsumedReadCapacityUnits":0,"ConsumedWriteCapacityUnits":0,)"
            R"("ReadRequests":0,"WriteRequests":0,"ThrottledReadRequests":0,)"
            R"("ThrottledWriteRequests":0,"ThrottledRequests":0,"ReadThrottleEvents":0,)"
            R"("WriteThrottleEvents":0,"ReturnedItemCount":0,"ThrottleEventsByReason":{}}]}]})");
}

TEST(CapacityEncodeTest, GetContributorInsights) {
  GetContributorInsightsResult result;
  result.table_name = "Tab";
  Item key;
  key.emplace("pk", Value(std::string("hot")));
  key.emplace("sk", Value(*Number::Parse("1")));
  result.rules = {{.rule_name = "MostAccessedItems",
                   .contributors = {{.key = key, .value = 4.5, .minute = 120},
                                    {.key = key, .value = 3, .minute = 60}}},
                  {.rule_name = "MostThrottledItems", .contributors = {}}};
  EXPECT_EQ(EncodeGetContributorInsightsResult(result),
            R"({"TableName":"Tab","Rules":[{"RuleName":"MostAccessedItems","Contributors":[)"
            R"({"Key":{"pk":{"S":"hot"},"sk":{"N":"1"}},"Value":4.5,"Minute":120},)"
            R"({"Key":{"pk":{"S":"hot"},"sk":{"N":"1"}},"Value":3,"Minute":60}]},)"
            R"({"RuleName":"MostThrottledItems","Contributors":[]}]})");
}

// ---- Throttling error bodies ----

Status Throttled(Code code, std::string message, std::vector<ThrottlingReason> reasons) {
  auto detail = std::make_shared<ErrorDetail>();
  detail->throttling_reasons = std::move(reasons);
  return Status(code, std::move(message)).WithDetail(std::move(detail));
}

const ThrottleReason kTableWriteKeyRange{ThrottleResource::kTable, ThrottleOperation::kWrite,
                                         ThrottleLimit::kKeyRangeThroughputExceeded};
const ThrottleReason kIndexWriteProvisioned{ThrottleResource::kIndex, ThrottleOperation::kWrite,
                                            ThrottleLimit::kProvisionedThroughputExceeded};

TEST(ThrottlingErrorTest, ProvisionedThroughputExceeded) {
  Response r = ErrorResponse(Throttled(
      Code::kProvisionedThroughputExceeded, "slow down",
      {{kTableWriteKeyRange, "arn:aws:dynamodb:us-east-1:000000000000:table/T"},
       {kIndexWriteProvisioned, "arn:aws:dynamodb:us-east-1:000000000000:table/T/index/G"}}));
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(r.body, R"({"__type":"com.amazonaws.dynamodb.v20120810#)"
                    R"(ProvisionedThroughputExceededException",)"
                    R"("message":"slow down","ThrottlingReasons":[)"
                    R"({"reason":"TableWriteKeyRangeThroughputExceeded",)"
                    R"("resource":"arn:aws:dynamodb:us-east-1:000000000000:table/T"},)"
                    R"({"reason":"IndexWriteProvisionedThroughputExceeded",)"
                    R"("resource":"arn:aws:dynamodb:us-east-1:000000000000:table/T/index/G"}]})");
}

TEST(ThrottlingErrorTest, RequestLimitExceeded) {
  Response r = ErrorResponse(
      Throttled(Code::kRequestLimitExceeded, "quota", {{kTableWriteKeyRange, "arn:t"}}));
  EXPECT_EQ(r.body, R"({"__type":"com.amazonaws.dynamodb.v20120810#RequestLimitExceeded",)"
                    R"("message":"quota","ThrottlingReasons":[)"
                    R"({"reason":"TableWriteKeyRangeThroughputExceeded","resource":"arn:t"}]})");
}

TEST(ThrottlingErrorTest, ThrottlingExceptionSpellsItLowercase) {
  Response r = ErrorResponse(Throttled(Code::kThrottling, "on-demand",
                                       {{kTableWriteKeyRange, "arn:aws:dynamodb:x:table/T"}}));
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(r.body, R"({"__type":"com.amazonaws.dynamodb.v20120810#ThrottlingException",)"
                    R"("message":"on-demand","throttlingReasons":[)"
                    R"({"reason":"TableWriteKeyRangeThroughputExceeded",)"
                    R"("resource":"arn:aws:dynamodb:x:table/T"}]})");
}

TEST(ThrottlingErrorTest, NoReasonsNoMember) {
  Response r = ErrorResponse(Throttled(Code::kThrottling, "control plane", {}));
  EXPECT_EQ(r.body, R"({"__type":"com.amazonaws.dynamodb.v20120810#ThrottlingException",)"
                    R"("message":"control plane"})");
  r = ErrorResponse(Status(Code::kProvisionedThroughputExceeded, "x"));
  EXPECT_EQ(r.body.find("hrottlingReasons"), std::string::npos) << r.body;
}

// ---- Through Dispatch ----

DatabaseOptions ManualClockOptions(std::shared_ptr<capacity::ManualClock> clock) {
  DatabaseOptions options;
  options.capacity.enabled = true;
  options.capacity.clock = std::move(clock);
  return options;
}

class CapacityDispatchTest : public ::testing::Test {
 protected:
  CapacityDispatchTest()
      : clock_(std::make_shared<capacity::ManualClock>()), db_(ManualClockOptions(clock_)) {}

  Response Call(std::string_view operation, std::string_view body) {
    return Dispatch(db_, operation, body);
  }
  std::string Ok(std::string_view operation, std::string_view body) {
    Response r = Call(operation, body);
    EXPECT_EQ(r.http_status, 200) << operation << " " << body << " -> " << r.body;
    return r.body;
  }
  void CreateTable(std::string_view name, std::string_view billing) {
    Ok("CreateTable", R"({"TableName": ")" + std::string(name) + R"(", )" + std::string(billing) +
                          R"(, "AttributeDefinitions": [{"AttributeName": "pk", )"
                          R"("AttributeType": "S"}], "KeySchema": [{"AttributeName": "pk", )"
                          R"("KeyType": "HASH"}]})");
  }

  std::shared_ptr<capacity::ManualClock> clock_;
  Database db_;
};

constexpr std::string_view kProvisionedOne =
    R"("ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1})";
constexpr std::string_view kPutA = R"({"TableName": "One", "Item": {"pk": {"S": "a"}}})";

TEST_F(CapacityDispatchTest, ProvisionedRoundTrip) {
  CreateTable("One", kProvisionedOne);
  // Contributor Insights are off until turned on (the library's default, as in DynamoDB).
  EXPECT_EQ(Call("Partstore.GetContributorInsights", R"({"TableName": "One"})").http_status, 400);
  EXPECT_EQ(Ok("UpdateContributorInsights",
               R"({"TableName": "One", "ContributorInsightsAction": "ENABLE"})"),
            R"({"TableName":"One","ContributorInsightsStatus":"ENABLING"})");
  // 1 WCU: the partition's first second holds one write.
  Ok("PutItem", kPutA);
  Response r = Call("PutItem", kPutA);
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(r.body,
            R"({"__type":"com.amazonaws.dynamodb.v20120810#)"
            R"(ProvisionedThroughputExceededException",)"
            R"("message":"The level of configured provisioned throughput for the table was )"
            R"(exceeded. Consider increasing your provisioning level with the UpdateTable API.",)"
            R"("ThrottlingReasons":[{"reason":"TableWriteProvisionedThroughputExceeded",)"
            R"("resource":"arn:aws:dynamodb:us-east-1:000000000000:table/One"}]})");

  // Half a second on: the write allocation (1 WCU) refills and its overflow, 0.5, goes to burst,
  // as the unused read allocation's 1.5 does.
  EXPECT_EQ(Ok("Partstore.AdvanceClock", R"({"Seconds": 1.5})"), R"({"Now":1.5})");
  EXPECT_EQ(clock_->NowMicros(), 1'500'000);
  Ok("PutItem", kPutA);

  EXPECT_EQ(Ok("Partstore.DescribePartitions", R"({"TableName": "One"})"),
            R"({"TableName":"One","BillingMode":"PROVISIONED","Now":1.5,)"
            R"("Partitions":[{"PartitionId":0,"HashRangeStart":"0000000000000000",)"
            R"("HashRangeEnd":"ffffffffffffffff","SizeBytes":3,"ItemCount":1,)"
            R"("AllocatedReadUnits":1,"AllocatedWriteUnits":1,"MaxReadUnits":3000,)"
            R"("MaxWriteUnits":1000,"BurstReadUnits":1.5,"BurstWriteUnits":0.5,)"
            R"("ConsumedReadUnits":0,"ConsumedWriteUnits":2,"AdaptiveReadUnits":0,)"
            R"("AdaptiveWriteUnits":0,"ThrottledReadRequests":0,"ThrottledWriteRequests":1,)"
            R"("ThrottleEvents":1,"CreatedAt":0}],"Splits":[],)"
            R"("RecentThrottles":[{"Time":0,"PartitionId":0,)"
            R"("Reason":"TableWriteProvisionedThroughputExceeded","Key":{"pk":{"S":"a"}}}]})");

  const std::string write_point =
      R"("ConsumedReadCapacityUnits":0,"ConsumedWriteCapacityUnits":1,"ReadRequests":0,)"
      R"("WriteRequests":1,)";
  EXPECT_EQ(Ok("Partstore.GetMetrics", R"({"TableName": "One", "Period": 1})"),
            R"({"TableName":"One","Period":1,"Datapoints":[{"Timestamp":0,)" + write_point +
                R"("ThrottledReadRequests":0,"ThrottledWriteRequests":1,"ThrottledRequests":1,)"
                R"("ReadThrottleEvents":0,"WriteThrottleEvents":1,"ReturnedItemCount":0,)"
                R"("ThrottleEventsByReason":{"TableWriteProvisionedThroughputExceeded":1}},)"
                R"({"Timestamp":1,)" +
                write_point +
                R"("ThrottledReadRequests":0,"ThrottledWriteRequests":0,"ThrottledRequests":0,)"
                R"("ReadThrottleEvents":0,"WriteThrottleEvents":0,"ReturnedItemCount":0,)"
                R"("ThrottleEventsByReason":{}}]})");
  // A window: StartTime / EndTime are inclusive second timestamps.
  std::string body = Ok("Partstore.GetMetrics",
                        R"({"TableName": "One", "Period": 1, "StartTime": 1, "EndTime": 1,
                            "IncludePartitions": true})");
  EXPECT_NE(body.find(R"("Datapoints":[{"Timestamp":1,)"), std::string::npos) << body;
  EXPECT_NE(body.find(R"("Partitions":[{"PartitionId":0,"Datapoints":[{"Timestamp":1,)"),
            std::string::npos)
      << body;
  EXPECT_EQ(body.find(R"("Timestamp":0)"), std::string::npos) << body;

  EXPECT_EQ(Ok("Partstore.GetContributorInsights", R"({"TableName": "One", "TopN": 1})"),
            R"({"TableName":"One","Rules":[)"
            R"({"RuleName":"MostAccessedPartitionKeys","Contributors":[)"
            R"({"Key":{"pk":{"S":"a"}},"Value":6,"Minute":0}]},)"
            R"({"RuleName":"MostAccessedItems","Contributors":[)"
            R"({"Key":{"pk":{"S":"a"}},"Value":6,"Minute":0}]},)"
            R"({"RuleName":"MostThrottledPartitionKeys","Contributors":[)"
            R"({"Key":{"pk":{"S":"a"}},"Value":1,"Minute":0}]},)"
            R"({"RuleName":"MostThrottledItems","Contributors":[)"
            R"({"Key":{"pk":{"S":"a"}},"Value":1,"Minute":0}]}]})");
}

TEST_F(CapacityDispatchTest, OnDemandThrottlingIsThrottlingException) {
  CreateTable("Ond", R"("BillingMode": "PAY_PER_REQUEST")");
  EXPECT_EQ(
      Ok("Partstore.DescribePartitions", R"({"TableName": "Ond"})")
          .find(R"({"TableName":"Ond","BillingMode":"PAY_PER_REQUEST","Now":0,)"
                R"("PeakReadUnits":6000,"PeakWriteUnits":2000,"Partitions":[{"PartitionId":0,)"),
      0u);
  // Items of about 390 KB cost 390 WCU: a partition's hard limit (1,000 WCU per second) takes two.
  const std::string put = R"({"TableName": "Ond", "Item": {"pk": {"S": "big"}, "v": {"S": ")" +
                          std::string(390 * 1024 - 10, 'x') + R"("}}})";
  Ok("PutItem", put);
  Ok("PutItem", put);
  Response r = Call("PutItem", put);
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(r.body, R"({"__type":"com.amazonaws.dynamodb.v20120810#ThrottlingException",)"
                    R"("message":"Throughput exceeds the current capacity of your table or index. )"
                    R"(DynamoDB is automatically scaling your table or index so please try again )"
                    R"(shortly. If exceptions persist, check if you have a hot key: )"
                    R"(https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/)"
                    R"(bp-partition-key-design.html.","throttlingReasons":[)"
                    R"({"reason":"TableWriteKeyRangeThroughputExceeded",)"
                    R"("resource":"arn:aws:dynamodb:us-east-1:000000000000:table/Ond"}]})");
  // The metrics name the reason.
  const std::string body = Ok("Partstore.GetMetrics", R"({"TableName": "Ond"})");
  EXPECT_NE(body.find(R"("ThrottledRequests":1,"ReadThrottleEvents":0,"WriteThrottleEvents":1,)"),
            std::string::npos)
      << body;
  EXPECT_NE(body.find(R"("ThrottleEventsByReason":{"TableWriteKeyRangeThroughputExceeded":1})"),
            std::string::npos)
      << body;
}

TEST_F(CapacityDispatchTest, EngineErrors) {
  CreateTable("One", kProvisionedOne);
  Response r = Call("Partstore.AdvanceClock", R"({"Seconds": -1})");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_NE(r.body.find(R"("__type":"com.amazon.coral.validate#ValidationException")"),
            std::string::npos)
      << r.body;
  EXPECT_NE(r.body.find("at 'seconds'"), std::string::npos) << r.body;
  r = Call("Partstore.AdvanceClock", R"({"Seconds": "soon"})");
  EXPECT_EQ(r.body, R"({"__type":"com.amazon.coral.service#SerializationException",)"
                    R"("Message":"STRING_VALUE cannot be converted to Double"})");
  r = Call("Partstore.DescribePartitions", R"({"TableName": "Missing"})");
  EXPECT_EQ(r.body, R"({"__type":"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",)"
                    R"("message":"Requested resource not found: Table: Missing not found"})");
  r = Call("Partstore.GetContributorInsights", R"({"TableName": "One", "IndexName": "Nope"})");
  EXPECT_EQ(r.body, R"({"__type":"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",)"
                    R"("message":"Requested resource not found: Index Nope for table One"})");
  r = Call("Partstore.GetMetrics", R"({"TableName": "One", "Period": 5})");
  EXPECT_NE(r.body.find("at 'period'"), std::string::npos) << r.body;
  r = Call("Partstore.GetContributorInsights", R"({"TableName": "One", "TopN": 0})");
  EXPECT_NE(r.body.find("at 'topN'"), std::string::npos) << r.body;
  // Dispatch's first checks apply to the extensions too.
  r = Call("Partstore.NoSuchOperation", "{}");
  EXPECT_EQ(r.body, R"({"__type":"com.amazon.coral.service#UnknownOperationException",)"
                    R"("message":"Unknown operation exception: Partstore.NoSuchOperation"})");
  r = Call("Partstore.GetMetrics", "");
  EXPECT_EQ(r.body, R"({"__type":"com.amazon.coral.service#SerializationException"})");
}

TEST(CapacityOffDispatchTest, ExtensionsNeedCapacity) {
  Database db;  // capacity simulation off
  Dispatch(db, "CreateTable",
           R"({"TableName": "One", "BillingMode": "PAY_PER_REQUEST",
               "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
               "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]})");
  for (std::string_view operation : {"Partstore.DescribePartitions", "Partstore.GetMetrics",
                                     "Partstore.GetContributorInsights"}) {
    Response r = Dispatch(db, operation, R"({"TableName": "One"})");
    EXPECT_EQ(r.http_status, 400) << operation;
    EXPECT_EQ(r.body.rfind(R"({"__type":"com.amazon.coral.validate#ValidationException",)"
                           R"("message":"Capacity simulation is off)",
                           0),
              0u)
        << operation << " -> " << r.body;
  }
  Response r = Dispatch(db, "Partstore.AdvanceClock", R"({"Seconds": 1})");
  EXPECT_EQ(r.body.rfind(R"({"__type":"com.amazon.coral.validate#ValidationException",)"
                         R"("message":"The clock is not manual)",
                         0),
            0u)
      << r.body;
  // Writes are never throttled with capacity off.
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(Dispatch(db, "PutItem", R"({"TableName": "One", "Item": {"pk": {"S": "a"}}})").body,
              "{}");
  }
}

TEST_F(CapacityDispatchTest, ContributorInsightsOnAndOff) {
  CreateTable("One", kProvisionedOne);
  const std::string off = Ok("DescribeContributorInsights", R"({"TableName": "One"})");
  EXPECT_EQ(off, R"({"TableName":"One","ContributorInsightsRuleList":[],)"
                 R"("ContributorInsightsStatus":"DISABLED"})");
  Ok("UpdateContributorInsights", R"({"TableName": "One", "ContributorInsightsAction": "ENABLE"})");
  const std::string on = Ok("DescribeContributorInsights", R"({"TableName": "One"})");
  // A table without a sort key has the partition-key rules only; names end with a timestamp.
  EXPECT_TRUE(std::regex_search(
      on, std::regex(R"(^\{"TableName":"One","ContributorInsightsRuleList":\[)"
                     R"("DynamoDBContributorInsights-PKC-One-[0-9]+",)"
                     R"("DynamoDBContributorInsights-PKT-One-[0-9]+"\],)"
                     R"("ContributorInsightsStatus":"ENABLED","LastUpdateDateTime":[0-9.]+\}$)")))
      << on;
  EXPECT_EQ(Ok("UpdateContributorInsights",
               R"({"TableName": "One", "ContributorInsightsAction": "DISABLE"})"),
            R"({"TableName":"One","ContributorInsightsStatus":"DISABLING"})");
  // Numbers beyond int are out of range, not wrapped (4294967297 is not 1).
  for (std::string_view body : {R"({"TableName": "One", "Period": 4294967297})"}) {
    Response r = Call("Partstore.GetMetrics", body);
    EXPECT_EQ(r.http_status, 400) << r.body;
  }
  EXPECT_EQ(Call("Partstore.GetContributorInsights", R"({"TableName": "One", "TopN": 4294967306})")
                .http_status,
            400);
  Response bad = Call("UpdateContributorInsights",
                      R"({"TableName": "One", "ContributorInsightsAction": "PAUSE"})");
  EXPECT_EQ(bad.http_status, 400);
  EXPECT_NE(bad.body.find("Member must satisfy enum value set: [ENABLE, DISABLE]"),
            std::string::npos)
      << bad.body;
  EXPECT_EQ(
      Call("UpdateContributorInsights",
           R"({"TableName": "One", "IndexName": "Nope", "ContributorInsightsAction": "ENABLE"})")
          .http_status,
      400);
}

TEST(CapacitySystemClockDispatchTest, AdvanceClockNeedsTheManualClock) {
  DatabaseOptions options;
  options.capacity.enabled = true;  // a SystemClock
  Database db(options);
  Response r = Dispatch(db, "Partstore.AdvanceClock", R"({"Seconds": 1})");
  EXPECT_NE(r.body.find("The clock is not manual"), std::string::npos) << r.body;
}

}  // namespace
}  // namespace partstore::protocol
