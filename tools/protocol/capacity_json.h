// Capacity JSON: the request decoders and result encoders of partstore's capacity extensions
// (partstore/capacity_requests.h), Partstore.<Op> in Dispatch, and the ThrottlingReasons member of
// throttling errors. Member names are DynamoDB-style (PascalCase); metric names are CloudWatch's.
//
//   Partstore.AdvanceClock            {"Seconds": 1.5}  ->  {"Now": 1.5}
//   Partstore.DescribePartitions      {"TableName", "IndexName"?}
//     -> {"TableName", "IndexName"?, "BillingMode", "Now", "PeakReadUnits"?, "PeakWriteUnits"?,
//         "Partitions": [{"PartitionId", "HashRangeStart", "HashRangeEnd", "SizeBytes",
//                         "ItemCount", "AllocatedReadUnits", ..., "CreatedAt"}],
//         "Splits": [{"Time", "ParentId", "LeftId", "RightId", "SplitHash", "Reason"}]}
//   Partstore.GetMetrics              {"TableName", "IndexName"?, "Period"?, "StartTime"?,
//                                      "EndTime"?, "IncludePartitions"?}
//     -> {"TableName", "IndexName"?, "Period", "Datapoints": [point, ...],
//         "Partitions"?: [{"PartitionId", "Datapoints": [...]}]}
//   Partstore.GetContributorInsights  {"TableName", "IndexName"?, "TopN"?}
//     -> {"TableName", "IndexName"?, "Rules": [{"RuleName", "Contributors":
//                                                [{"Key": {...}, "Value", "Minute"}]}]}
//
// Decoders apply request_json.h's steps 1 and 2 (member shapes: SerializationException; a missing
// TableName or Seconds: ValidationException); every other check (names, Period, TopN, the clock,
// capacity being on) is the engine's. Encoders write numbers that hold an integer as JSON
// integers (5, not 5.0) and others as decimals (0.5); hashes as 16 lowercase hex digits
// ("00000000000000ff"); PeakReadUnits / PeakWriteUnits only when positive (on-demand); the
// "Partitions" of GetMetrics only when asked for (IncludePartitions).
//
// Thread safety: free functions; thread-safe for distinct arguments.
#pragma once

#include <rapidjson/document.h>

#include <span>
#include <string>

#include "partstore/capacity_requests.h"
#include "partstore/error_detail.h"
#include "partstore/status.h"
#include "tools/protocol/attribute_value_json.h"

namespace partstore::protocol {

Result<AdvanceClockRequest> DecodeAdvanceClockRequest(const rapidjson::Value& body);
Result<DescribePartitionsRequest> DecodeDescribePartitionsRequest(const rapidjson::Value& body);
Result<GetMetricsRequest> DecodeGetMetricsRequest(const rapidjson::Value& body);
Result<GetContributorInsightsRequest> DecodeGetContributorInsightsRequest(
    const rapidjson::Value& body);

// DynamoDB's UpdateContributorInsights {"TableName", "IndexName"?, "ContributorInsightsAction":
// "ENABLE" | "DISABLE"} -> {"TableName", "IndexName"?, "ContributorInsightsStatus"} and
// DescribeContributorInsights {"TableName", "IndexName"?} -> {"TableName", "IndexName"?,
// "ContributorInsightsRuleList": [...], "ContributorInsightsStatus", "LastUpdateDateTime"?}.
Result<UpdateContributorInsightsRequest> DecodeUpdateContributorInsightsRequest(
    const rapidjson::Value& body);
// ListContributorInsights (DynamoDB's operation; answered with capacity simulation off too).
Result<ListContributorInsightsRequest> DecodeListContributorInsightsRequest(
    const rapidjson::Value& body);
std::string EncodeListContributorInsightsResult(const ListContributorInsightsResult& result);
Result<DescribeContributorInsightsRequest> DecodeDescribeContributorInsightsRequest(
    const rapidjson::Value& body);
std::string EncodeUpdateContributorInsightsResult(const UpdateContributorInsightsResult& result);
std::string EncodeDescribeContributorInsightsResult(
    const DescribeContributorInsightsResult& result);

std::string EncodeAdvanceClockResult(const AdvanceClockResult& result);
std::string EncodeDescribePartitionsResult(const DescribePartitionsResult& result);
std::string EncodeGetMetricsResult(const GetMetricsResult& result);
std::string EncodeGetContributorInsightsResult(const GetContributorInsightsResult& result);

// A throttling error's reasons as the member `key` ("ThrottlingReasons" for
// ProvisionedThroughputExceededException and RequestLimitExceeded, "throttlingReasons" for
// ThrottlingException): [{"reason": "TableWriteKeyRangeThroughputExceeded", "resource": <ARN>}].
void WriteThrottlingReasons(std::string_view key, std::span<const ThrottlingReason> reasons,
                            JsonWriter& writer);

}  // namespace partstore::protocol
