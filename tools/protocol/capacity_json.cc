// Capacity JSON: see capacity_json.h for the shapes.
//
// The extensions are partstore's own, so their member names and texts have no DynamoDB evidence
// to follow beyond its conventions: PascalCase members, the SerializationException texts of
// request_json.cc for a member of the wrong JSON type (a Double takes any number), and "Value null
// at 'tableName' ... must not be null" for a missing required member. The metric names of a
// datapoint are CloudWatch's for DynamoDB (ConsumedReadCapacityUnits, ThrottledRequests,
// ReadThrottleEvents, ...); ThrottleEventsByReason names each reason as ThrottlingReasons does.
#include "tools/protocol/capacity_json.h"

#include <rapidjson/stringbuffer.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "core/capacity_units.h"
#include "tools/protocol/client_control_json.h"
#include "tools/protocol/request_json.h"

namespace partstore::protocol {
namespace {

// A number that holds an integer as a JSON integer (5), any other as a decimal (0.5).
void Number(JsonWriter& w, double value) {
  constexpr double kExactIntegers = 9007199254740992.0;  // 2^53
  if (std::isfinite(value) && value == std::trunc(value) && std::fabs(value) <= kExactIntegers) {
    w.Int64(static_cast<int64_t>(value));
  } else {
    w.Double(value);
  }
}
// A 64-bit hash as 16 lowercase hex digits.
void Hash(JsonWriter& w, uint64_t hash) {
  constexpr char kDigits[] = "0123456789abcdef";
  std::array<char, 16> text;
  for (int i = 15; i >= 0; --i, hash >>= 4) text[static_cast<size_t>(i)] = kDigits[hash & 0xf];
  w.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
}

void WriteNames(JsonWriter& w, const std::string& table_name,
                const std::optional<std::string>& index_name) {
  Key(w, "TableName");
  String(w, table_name);
  if (index_name) {
    Key(w, "IndexName");
    String(w, *index_name);
  }
}

void WritePoint(JsonWriter& w, const capacity::MetricPoint& point) {
  const capacity::MetricCounters& c = point.counters;
  int64_t read_events = 0, write_events = 0;
  for (int i = 0; i < kThrottleReasonCount; ++i) {
    const int64_t events = c.throttle_events[static_cast<size_t>(i)];
    (ThrottleReason::FromIndex(i).operation == ThrottleOperation::kRead ? read_events
                                                                        : write_events) += events;
  }
  w.StartObject();
  Key(w, "Timestamp");
  w.Int64(point.timestamp);
  Key(w, "ConsumedReadCapacityUnits");
  Number(w, HalfUnitsToDouble(c.consumed_read_half_units));
  Key(w, "ConsumedWriteCapacityUnits");
  Number(w, HalfUnitsToDouble(c.consumed_write_half_units));
  Key(w, "ReadRequests");
  w.Int64(c.read_requests);
  Key(w, "WriteRequests");
  w.Int64(c.write_requests);
  Key(w, "ThrottledReadRequests");
  w.Int64(c.throttled_read_requests);
  Key(w, "ThrottledWriteRequests");
  w.Int64(c.throttled_write_requests);
  Key(w, "ThrottledRequests");
  w.Int64(c.throttled_read_requests + c.throttled_write_requests);
  Key(w, "ReadThrottleEvents");
  w.Int64(read_events);
  Key(w, "WriteThrottleEvents");
  w.Int64(write_events);
  Key(w, "ReturnedItemCount");
  w.Int64(c.returned_item_count);
  Key(w, "ThrottleEventsByReason");
  w.StartObject();
  for (int i = 0; i < kThrottleReasonCount; ++i) {
    const int64_t events = c.throttle_events[static_cast<size_t>(i)];
    if (events == 0) continue;
    Key(w, ThrottleReason::FromIndex(i).name());
    w.Int64(events);
  }
  w.EndObject();
  w.EndObject();
}

void WritePoints(JsonWriter& w, const std::vector<capacity::MetricPoint>& points) {
  Key(w, "Datapoints");
  w.StartArray();
  for (const capacity::MetricPoint& point : points) WritePoint(w, point);
  w.EndArray();
}

// ---- Member tables ----

constexpr MemberSpec kAdvanceClockMembers[] = {{"Seconds", Shape::kDouble}};

enum PartitionsMember { kPartitionsTableName, kPartitionsIndexName, kPartitionsMemberCount };
constexpr MemberSpec kPartitionsMembers[kPartitionsMemberCount] = {
    {"TableName", Shape::kString},
    {"IndexName", Shape::kString},
};

enum MetricsMember {
  kMetricsTableName,
  kMetricsIndexName,
  kMetricsPeriod,
  kMetricsStartTime,
  kMetricsEndTime,
  kMetricsIncludePartitions,
  kMetricsMemberCount,
};
constexpr MemberSpec kMetricsMembers[kMetricsMemberCount] = {
    {"TableName", Shape::kString}, {"IndexName", Shape::kString},
    {"Period", Shape::kInteger},   {"StartTime", Shape::kLong},
    {"EndTime", Shape::kLong},     {"IncludePartitions", Shape::kBoolean},
};

enum InsightsMember { kInsightsTableName, kInsightsIndexName, kInsightsTopN, kInsightsMemberCount };
constexpr MemberSpec kInsightsMembers[kInsightsMemberCount] = {
    {"TableName", Shape::kString},
    {"IndexName", Shape::kString},
    {"TopN", Shape::kInteger},
};

enum UpdateInsightsMember {
  kUpdateInsightsTableName,
  kUpdateInsightsIndexName,
  kUpdateInsightsAction,
  kUpdateInsightsMemberCount,
};
constexpr MemberSpec kUpdateInsightsMembers[kUpdateInsightsMemberCount] = {
    {"TableName", Shape::kString},
    {"IndexName", Shape::kString},
    {"ContributorInsightsAction", Shape::kString},
};
constexpr std::string_view kInsightsActionNames[] = {"ENABLE", "DISABLE"};

// ---- The client's direction ----

// {"TableName", "IndexName"?, ...}: a Contributor Insights request's leading members.
std::string EncodeInsightsRequest(const std::string& table_name,
                                  const std::optional<std::string>& index_name,
                                  const std::optional<ContributorInsightsAction>& action) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteNames(w, table_name, index_name);
  if (action) {
    Key(w, "ContributorInsightsAction");
    String(w, kInsightsActionNames[static_cast<size_t>(*action)]);
  }
  w.EndObject();
  return Finish(buffer);
}

void ReadNames(const ResponseObject& o, std::string* table_name,
               std::optional<std::string>* index_name) {
  o.String("TableName", table_name);
  o.String("IndexName", index_name);
}

}  // namespace

// ---- Decoders ----

Result<AdvanceClockRequest> DecodeAdvanceClockRequest(const JsonValue& body) {
  std::array<const JsonValue*, 1> m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "AdvanceClock", kAdvanceClockMembers, m));
  Constraints c;
  c.Required(m[0], "seconds");
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());
  return AdvanceClockRequest{.seconds = DoubleOf(*m[0])};
}

Result<DescribePartitionsRequest> DecodeDescribePartitionsRequest(const JsonValue& body) {
  std::array<const JsonValue*, kPartitionsMemberCount> m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "DescribePartitions", kPartitionsMembers, m));
  Constraints c;
  c.Required(m[kPartitionsTableName], "tableName");
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());
  return DescribePartitionsRequest{
      .table_name = std::string(StringOf(*m[kPartitionsTableName])),
      .index_name = OptionalString(m[kPartitionsIndexName]),
  };
}

Result<GetMetricsRequest> DecodeGetMetricsRequest(const JsonValue& body) {
  std::array<const JsonValue*, kMetricsMemberCount> m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "GetMetrics", kMetricsMembers, m));
  Constraints c;
  c.Required(m[kMetricsTableName], "tableName");
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());
  GetMetricsRequest request;
  request.table_name = std::string(StringOf(*m[kMetricsTableName]));
  request.index_name = OptionalString(m[kMetricsIndexName]);
  if (m[kMetricsPeriod]) request.period = NarrowForValidation(IntegerOf(*m[kMetricsPeriod]));
  request.start_time = OptionalInteger(m[kMetricsStartTime]);
  request.end_time = OptionalInteger(m[kMetricsEndTime]);
  if (m[kMetricsIncludePartitions]) {
    request.include_partitions = BooleanOf(*m[kMetricsIncludePartitions]);
  }
  return request;
}

Result<GetContributorInsightsRequest> DecodeGetContributorInsightsRequest(const JsonValue& body) {
  std::array<const JsonValue*, kInsightsMemberCount> m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "GetContributorInsights", kInsightsMembers, m));
  Constraints c;
  c.Required(m[kInsightsTableName], "tableName");
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());
  GetContributorInsightsRequest request;
  request.table_name = std::string(StringOf(*m[kInsightsTableName]));
  request.index_name = OptionalString(m[kInsightsIndexName]);
  if (m[kInsightsTopN]) request.top_n = NarrowForValidation(IntegerOf(*m[kInsightsTopN]));
  return request;
}

Result<UpdateContributorInsightsRequest> DecodeUpdateContributorInsightsRequest(
    const JsonValue& body) {
  std::array<const JsonValue*, kUpdateInsightsMemberCount> m;
  PARTSTORE_RETURN_IF_ERROR(
      ReadMembers(body, "UpdateContributorInsights", kUpdateInsightsMembers, m));
  Constraints c;
  c.Required(m[kUpdateInsightsTableName], "tableName");
  c.TableName(m[kUpdateInsightsTableName]);
  c.Name(m[kUpdateInsightsIndexName], "indexName");
  c.Required(m[kUpdateInsightsAction], "contributorInsightsAction");
  c.Enum(m[kUpdateInsightsAction], kInsightsActionNames, "[ENABLE, DISABLE]",
         "contributorInsightsAction");
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());
  UpdateContributorInsightsRequest request;
  request.table_name = std::string(StringOf(*m[kUpdateInsightsTableName]));
  request.index_name = OptionalString(m[kUpdateInsightsIndexName]);
  request.action =
      EnumOf(m[kUpdateInsightsAction], kInsightsActionNames, ContributorInsightsAction::kEnable);
  return request;
}

std::string EncodeUpdateContributorInsightsRequest(
    const UpdateContributorInsightsRequest& request) {
  return EncodeInsightsRequest(request.table_name, request.index_name, request.action);
}

Result<DescribeContributorInsightsRequest> DecodeDescribeContributorInsightsRequest(
    const JsonValue& body) {
  std::array<const JsonValue*, kPartitionsMemberCount> m;  // TableName, IndexName
  PARTSTORE_RETURN_IF_ERROR(
      ReadMembers(body, "DescribeContributorInsights", kPartitionsMembers, m));
  Constraints c;
  c.Required(m[kPartitionsTableName], "tableName");
  c.TableName(m[kPartitionsTableName]);
  c.Name(m[kPartitionsIndexName], "indexName");
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());
  return DescribeContributorInsightsRequest{
      .table_name = std::string(StringOf(*m[kPartitionsTableName])),
      .index_name = OptionalString(m[kPartitionsIndexName]),
  };
}

std::string EncodeDescribeContributorInsightsRequest(
    const DescribeContributorInsightsRequest& request) {
  return EncodeInsightsRequest(request.table_name, request.index_name, std::nullopt);
}

Result<ListContributorInsightsRequest> DecodeListContributorInsightsRequest(const JsonValue& body) {
  constexpr MemberSpec kMembers[] = {{"TableName", Shape::kString},
                                     {"NextToken", Shape::kString},
                                     {"MaxResults", Shape::kInteger}};
  std::array<const JsonValue*, 3> m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "ListContributorInsights", kMembers, m));
  Constraints c;
  c.TableName(m[0]);
  c.Range(m[2], 0, 100, "maxResults");
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());
  ListContributorInsightsRequest request;
  request.table_name = OptionalString(m[0]);
  request.next_token = OptionalString(m[1]);
  if (m[2]) request.max_results = static_cast<int32_t>(IntegerOf(*m[2]));
  return request;
}

std::string EncodeListContributorInsightsRequest(const ListContributorInsightsRequest& request) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  if (request.table_name) {
    Key(w, "TableName");
    String(w, *request.table_name);
  }
  if (request.next_token) {
    Key(w, "NextToken");
    String(w, *request.next_token);
  }
  if (request.max_results) {
    Key(w, "MaxResults");
    w.Int(*request.max_results);
  }
  w.EndObject();
  return Finish(buffer);
}

// ---- Encoders ----

std::string EncodeListContributorInsightsResult(const ListContributorInsightsResult& result) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  Key(w, "ContributorInsightsSummaries");
  w.StartArray();
  for (const ContributorInsightsSummary& summary : result.summaries) {
    w.StartObject();
    WriteNames(w, summary.table_name, summary.index_name);
    Key(w, "ContributorInsightsStatus");
    String(w, summary.status);
    w.EndObject();
  }
  w.EndArray();
  if (result.next_token) {
    Key(w, "NextToken");
    String(w, *result.next_token);
  }
  w.EndObject();
  return Finish(buffer);
}

Result<ListContributorInsightsResult> DecodeListContributorInsightsResult(const JsonValue& body) {
  return ReadBody<ListContributorInsightsResult>(
      body, "ListContributorInsights",
      [](const ResponseObject& o, ListContributorInsightsResult& out) {
        o.Objects("ContributorInsightsSummaries", [&](const ResponseObject& x) {
          ContributorInsightsSummary& summary = out.summaries.emplace_back();
          ReadNames(x, &summary.table_name, &summary.index_name);
          x.String("ContributorInsightsStatus", &summary.status);
        });
        o.String("NextToken", &out.next_token);
      });
}

std::string EncodeUpdateContributorInsightsResult(const UpdateContributorInsightsResult& result) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteNames(w, result.table_name, result.index_name);
  Key(w, "ContributorInsightsStatus");
  String(w, result.status);
  w.EndObject();
  return Finish(buffer);
}

Result<UpdateContributorInsightsResult> DecodeUpdateContributorInsightsResult(
    const JsonValue& body) {
  return ReadBody<UpdateContributorInsightsResult>(
      body, "UpdateContributorInsights",
      [](const ResponseObject& o, UpdateContributorInsightsResult& out) {
        ReadNames(o, &out.table_name, &out.index_name);
        o.String("ContributorInsightsStatus", &out.status);
      });
}

std::string EncodeDescribeContributorInsightsResult(
    const DescribeContributorInsightsResult& result) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteNames(w, result.table_name, result.index_name);
  Key(w, "ContributorInsightsRuleList");
  w.StartArray();
  for (const std::string& rule : result.rule_list) String(w, rule);
  w.EndArray();
  Key(w, "ContributorInsightsStatus");
  String(w, result.status);
  if (result.last_update_date_time) {
    Key(w, "LastUpdateDateTime");
    Number(w, *result.last_update_date_time);
  }
  w.EndObject();
  return Finish(buffer);
}

Result<DescribeContributorInsightsResult> DecodeDescribeContributorInsightsResult(
    const JsonValue& body) {
  return ReadBody<DescribeContributorInsightsResult>(
      body, "DescribeContributorInsights",
      [](const ResponseObject& o, DescribeContributorInsightsResult& out) {
        ReadNames(o, &out.table_name, &out.index_name);
        o.StringList("ContributorInsightsRuleList", &out.rule_list);
        o.String("ContributorInsightsStatus", &out.status);
        o.Double("LastUpdateDateTime", &out.last_update_date_time);
      });
}

std::string EncodeAdvanceClockResult(const AdvanceClockResult& result) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  Key(w, "Now");
  Number(w, result.now_seconds);
  w.EndObject();
  return Finish(buffer);
}

std::string EncodeDescribePartitionsResult(const DescribePartitionsResult& result) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteNames(w, result.table_name, result.index_name);
  Key(w, "BillingMode");
  String(w, result.billing_mode);
  Key(w, "Now");
  Number(w, result.now_seconds);
  if (result.peak_read_units > 0) {
    Key(w, "PeakReadUnits");
    Number(w, result.peak_read_units);
  }
  if (result.peak_write_units > 0) {
    Key(w, "PeakWriteUnits");
    Number(w, result.peak_write_units);
  }
  Key(w, "Partitions");
  w.StartArray();
  for (const PartitionDescription& p : result.partitions) {
    w.StartObject();
    Key(w, "PartitionId");
    w.Int(p.partition_id);
    Key(w, "HashRangeStart");
    Hash(w, p.hash_range_start);
    Key(w, "HashRangeEnd");
    Hash(w, p.hash_range_end);
    Key(w, "SizeBytes");
    w.Int64(p.size_bytes);
    Key(w, "ItemCount");
    w.Int64(p.item_count);
    const std::pair<std::string_view, double> units[] = {
        {"AllocatedReadUnits", p.allocated_read_units},
        {"AllocatedWriteUnits", p.allocated_write_units},
        {"MaxReadUnits", p.max_read_units},
        {"MaxWriteUnits", p.max_write_units},
        {"BurstReadUnits", p.burst_read_units},
        {"BurstWriteUnits", p.burst_write_units},
        {"ConsumedReadUnits", p.consumed_read_units},
        {"ConsumedWriteUnits", p.consumed_write_units},
        {"AdaptiveReadUnits", p.adaptive_read_units},
        {"AdaptiveWriteUnits", p.adaptive_write_units},
    };
    for (const auto& [name, value] : units) {
      Key(w, name);
      Number(w, value);
    }
    Key(w, "ThrottledReadRequests");
    w.Int64(p.throttled_read_requests);
    Key(w, "ThrottledWriteRequests");
    w.Int64(p.throttled_write_requests);
    Key(w, "ThrottleEvents");
    w.Int64(p.throttle_events);
    Key(w, "CreatedAt");
    Number(w, p.created_seconds);
    w.EndObject();
  }
  w.EndArray();
  Key(w, "Splits");
  w.StartArray();
  for (const PartitionSplitDescription& s : result.splits) {
    w.StartObject();
    Key(w, "Time");
    Number(w, s.time_seconds);
    Key(w, "ParentId");
    w.Int(s.parent_id);
    Key(w, "LeftId");
    w.Int(s.left_id);
    Key(w, "RightId");
    w.Int(s.right_id);
    Key(w, "SplitHash");
    Hash(w, s.split_hash);
    Key(w, "Reason");
    String(w, s.reason);
    w.EndObject();
  }
  w.EndArray();
  Key(w, "RecentThrottles");
  w.StartArray();
  for (const ThrottledRequestDescription& t : result.recent_throttles) {
    w.StartObject();
    Key(w, "Time");
    Number(w, t.time_seconds);
    Key(w, "PartitionId");
    w.Int(t.partition_id);
    Key(w, "Reason");
    String(w, t.reason);
    Key(w, "Key");
    WriteItem(t.key, w);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return Finish(buffer);
}

std::string EncodeGetMetricsResult(const GetMetricsResult& result) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteNames(w, result.table_name, result.index_name);
  Key(w, "Period");
  w.Int(result.period);
  WritePoints(w, result.points);
  if (!result.partitions.empty()) {
    Key(w, "Partitions");
    w.StartArray();
    for (const PartitionMetrics& partition : result.partitions) {
      w.StartObject();
      Key(w, "PartitionId");
      w.Int(partition.partition_id);
      WritePoints(w, partition.points);
      w.EndObject();
    }
    w.EndArray();
  }
  w.EndObject();
  return Finish(buffer);
}

std::string EncodeGetContributorInsightsResult(const GetContributorInsightsResult& result) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteNames(w, result.table_name, result.index_name);
  Key(w, "Rules");
  w.StartArray();
  for (const InsightsRuleResult& rule : result.rules) {
    w.StartObject();
    Key(w, "RuleName");
    String(w, rule.rule_name);
    Key(w, "Contributors");
    w.StartArray();
    for (const Contributor& contributor : rule.contributors) {
      w.StartObject();
      Key(w, "Key");
      WriteItem(contributor.key, w);
      Key(w, "Value");
      Number(w, contributor.value);
      Key(w, "Minute");
      w.Int64(contributor.minute);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return Finish(buffer);
}

void WriteThrottlingReasons(std::string_view key, std::span<const ThrottlingReason> reasons,
                            JsonWriter& writer) {
  Key(writer, key);
  writer.StartArray();
  for (const ThrottlingReason& reason : reasons) {
    writer.StartObject();
    Key(writer, "reason");
    String(writer, reason.reason.name());
    Key(writer, "resource");
    String(writer, reason.resource);
    writer.EndObject();
  }
  writer.EndArray();
}

}  // namespace partstore::protocol
