// The control plane's client direction: for each table, Time to Live, tag, backup, continuous
// backup, Streams and Contributor Insights operation, its request encoder and its result decoder,
// the reverse of the server's decoders and encoders (operations_json.h, table_settings_json.h,
// capacity_json.h). Each sits in the .cc file of its operation's server-side twin.
//
// Encode<Op>Request writes the body an AWS SDK sends: DynamoDB's member names in the SDK model's
// member order (botocore's service-2.json), absent std::optional members omitted (an optional
// list that is present is written, even empty: a restore's empty index override means "none"),
// an empty plain std::vector omitted unless the operation requires the member (CreateTable's
// AttributeDefinitions and KeySchema, TagResource's Tags, UntagResource's TagKeys), enums in
// DynamoDB's spelling, times as epoch seconds (JSON numbers). Required strings are always written
// (an empty one as ""). Encoding never fails.
// RestoreTableFromBackup's and RestoreTableToPointInTime's OnDemandThroughputOverride and
// SSESpecificationOverride, which partstore holds only as "given", are written as {}.
//
// Decode<Op>Result reads a 200 response body parsed by ParseJson, from a server that is not
// trusted, with the reader in response_reader.h (its rules: any input gives a value or a Status,
// never a crash; a malformed member is "malformed <Op> response: <path> is not <what>"). An enum
// spelling the struct cannot hold (e.g. TableStatus ARCHIVED) is malformed. Integers must be JSON
// integers (int64), times any JSON number. What a server-side encoder writes decodes to a result
// that the same encoder writes back byte for byte.
//
// Thread safety: free functions; thread-safe for distinct arguments.
#pragma once

#include <rapidjson/document.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "partstore/backups.h"
#include "partstore/capacity_requests.h"
#include "partstore/continuous_backups.h"
#include "partstore/status.h"
#include "partstore/streams.h"
#include "partstore/table_requests.h"
#include "partstore/tags.h"
#include "partstore/time_to_live.h"
#include "tools/protocol/attribute_value_json.h"
#include "tools/protocol/response_reader.h"

namespace partstore::protocol {

// ---- Tables (table_json.cc) ----
std::string EncodeCreateTableRequest(const CreateTableRequest& request);
std::string EncodeDeleteTableRequest(const DeleteTableRequest& request);
std::string EncodeDescribeTableRequest(const DescribeTableRequest& request);
std::string EncodeListTablesRequest(const ListTablesRequest& request);
std::string EncodeUpdateTableRequest(const UpdateTableRequest& request);
Result<CreateTableResult> DecodeCreateTableResult(const rapidjson::Value& body);
Result<DeleteTableResult> DecodeDeleteTableResult(const rapidjson::Value& body);
Result<DescribeTableResult> DecodeDescribeTableResult(const rapidjson::Value& body);
Result<ListTablesResult> DecodeListTablesResult(const rapidjson::Value& body);
Result<UpdateTableResult> DecodeUpdateTableResult(const rapidjson::Value& body);

// ---- Time to Live (time_to_live_json.cc) ----
std::string EncodeUpdateTimeToLiveRequest(const UpdateTimeToLiveRequest& request);
std::string EncodeDescribeTimeToLiveRequest(const DescribeTimeToLiveRequest& request);
Result<UpdateTimeToLiveResult> DecodeUpdateTimeToLiveResult(const rapidjson::Value& body);
Result<DescribeTimeToLiveResult> DecodeDescribeTimeToLiveResult(const rapidjson::Value& body);

// ---- Tags (table_settings_json.cc) ----
std::string EncodeTagResourceRequest(const TagResourceRequest& request);
std::string EncodeUntagResourceRequest(const UntagResourceRequest& request);
std::string EncodeListTagsOfResourceRequest(const ListTagsOfResourceRequest& request);
Result<TagResourceResult> DecodeTagResourceResult(const rapidjson::Value& body);
Result<TagResourceResult> DecodeUntagResourceResult(const rapidjson::Value& body);
Result<ListTagsOfResourceResult> DecodeListTagsOfResourceResult(const rapidjson::Value& body);

// ---- On-demand backups (backup_json.cc) ----
std::string EncodeCreateBackupRequest(const CreateBackupRequest& request);
std::string EncodeDescribeBackupRequest(const DescribeBackupRequest& request);
std::string EncodeListBackupsRequest(const ListBackupsRequest& request);
std::string EncodeDeleteBackupRequest(const DeleteBackupRequest& request);
std::string EncodeRestoreTableFromBackupRequest(const RestoreTableFromBackupRequest& request);
Result<CreateBackupResult> DecodeCreateBackupResult(const rapidjson::Value& body);
Result<DescribeBackupResult> DecodeDescribeBackupResult(const rapidjson::Value& body);
Result<ListBackupsResult> DecodeListBackupsResult(const rapidjson::Value& body);
Result<DeleteBackupResult> DecodeDeleteBackupResult(const rapidjson::Value& body);
Result<RestoreTableFromBackupResult> DecodeRestoreTableFromBackupResult(
    const rapidjson::Value& body);

// ---- Continuous backups (continuous_backups_json.cc) ----
std::string EncodeUpdateContinuousBackupsRequest(const UpdateContinuousBackupsRequest& request);
std::string EncodeDescribeContinuousBackupsRequest(const DescribeContinuousBackupsRequest& request);
std::string EncodeRestoreTableToPointInTimeRequest(const RestoreTableToPointInTimeRequest& request);
// Both operations answer a ContinuousBackupsDescription (EncodeContinuousBackupsResult).
Result<ContinuousBackupsResult> DecodeUpdateContinuousBackupsResult(const rapidjson::Value& body);
Result<ContinuousBackupsResult> DecodeDescribeContinuousBackupsResult(const rapidjson::Value& body);
Result<RestoreTableToPointInTimeResult> DecodeRestoreTableToPointInTimeResult(
    const rapidjson::Value& body);

// ---- Streams (stream_json.cc): DynamoDBStreams.<Op> ----
std::string EncodeListStreamsRequest(const ListStreamsRequest& request);
std::string EncodeDescribeStreamRequest(const DescribeStreamRequest& request);
std::string EncodeGetShardIteratorRequest(const GetShardIteratorRequest& request);
std::string EncodeGetRecordsRequest(const GetRecordsRequest& request);
Result<ListStreamsResult> DecodeListStreamsResult(const rapidjson::Value& body);
Result<DescribeStreamResult> DecodeDescribeStreamResult(const rapidjson::Value& body);
Result<GetShardIteratorResult> DecodeGetShardIteratorResult(const rapidjson::Value& body);
// Each record's awsRegion is not kept (StreamRecord has no member for it); its userIdentity
// PrincipalId must be one partstore writes ("dynamodb.amazonaws.com": Time to Live,
// "partstore.eviction"): another is malformed, as StreamRecord cannot hold it.
Result<GetRecordsResult> DecodeGetRecordsResult(const rapidjson::Value& body);

// ---- Contributor Insights (capacity_json.cc) ----
std::string EncodeUpdateContributorInsightsRequest(const UpdateContributorInsightsRequest& request);
std::string EncodeDescribeContributorInsightsRequest(
    const DescribeContributorInsightsRequest& request);
std::string EncodeListContributorInsightsRequest(const ListContributorInsightsRequest& request);
Result<UpdateContributorInsightsResult> DecodeUpdateContributorInsightsResult(
    const rapidjson::Value& body);
Result<DescribeContributorInsightsResult> DecodeDescribeContributorInsightsResult(
    const rapidjson::Value& body);
Result<ListContributorInsightsResult> DecodeListContributorInsightsResult(
    const rapidjson::Value& body);

// ---- Shared by the files above; not for other callers ----
namespace client_control {

// table_json.cc: the shapes the other families share with the table operations.
void ReadKeySchema(const ResponseObject& object, std::vector<KeySchemaElement>* out);
void ReadProjection(const ResponseObject& object, Projection* out);  // its "Projection"
// The member `member` ("TableDescription", or DescribeTable's "Table").
void ReadTableDescription(const ResponseObject& object, std::string_view member,
                          TableDescription* out);
// The restores' BillingModeOverride .. ProvisionedThroughputOverride members, as set.
void WriteTableOverrideMembers(const RestoreTableFromBackupRequest& request, JsonWriter& writer);
void WriteTableOverrideMembers(const RestoreTableToPointInTimeRequest& request, JsonWriter& writer);
// The restores' OnDemandThroughputOverride and SSESpecificationOverride, each {} when given.
void WriteGivenOverrideMembers(bool on_demand_throughput, bool sse_specification,
                               JsonWriter& writer);

// table_settings_json.cc: CreateTable's / UpdateTable's members from SSESpecification on (the
// settings; StreamSpecification precedes them in both), an index's OnDemandThroughput and
// WarmThroughput, and their readers in a description.
void WriteSettingsMembers(const CreateTableRequest& request, JsonWriter& writer);
void WriteSettingsMembers(const UpdateTableRequest& request, JsonWriter& writer);
void WriteIndexThroughputMembers(const std::optional<OnDemandThroughput>& on_demand,
                                 const std::optional<WarmThroughput>& warm, JsonWriter& writer);
void ReadThroughputSettings(const ResponseObject& object,
                            std::optional<OnDemandThroughput>* on_demand,
                            std::optional<WarmThroughput>* warm);
void ReadSettings(const ResponseObject& table, TableDescription* out);

}  // namespace client_control
}  // namespace partstore::protocol
