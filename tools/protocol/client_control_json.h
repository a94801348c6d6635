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
// trusted: any input gives a value or a Status, never a crash, an exception, unbounded recursion
// or an allocation out of proportion to the input. The rules:
//   - a body that is not an object, a member of the wrong JSON type, or an enum spelling the
//     struct cannot hold (e.g. TableStatus ARCHIVED) is Code::kInternal "malformed <Op> response:
//     <member path> is not <what>", the path as "TableDescription.GlobalSecondaryIndexes[0].
//     IndexName";
//   - unknown members are ignored (DynamoDB adds members over time); a null member is absent;
//     an absent member leaves the struct's default;
//   - items and attribute values go through DecodeItem (its message kept, after the path).
// Integers must be JSON integers (int64), times any JSON number. What a server-side encoder
// writes decodes to a result that the same encoder writes back byte for byte.
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

// Where a response member stands: the operation at the root, then member names and array
// indexes. Nodes live on the reader's stack; the text is built only for an error.
struct PathNode {
  const PathNode* parent = nullptr;
  std::string_view name{};  // a member's name (the operation's, at the root)
  int64_t index = -1;       // >= 0: element `index` of the parent array
};

// "malformed <Op> response: <path>.<member> is not <what>" (no member: the path alone; at the
// root with no member: "the body").
Status Malformed(const PathNode& at, std::string_view member, std::string_view what);

// One JSON object of a response (REQUIRES: value.IsObject()), read member by member into a
// result. Each reader leaves *out unchanged when the member is absent (missing or null); a member
// of the wrong JSON type records Malformed in the error the whole body's readers share (the first
// error recorded wins; reading on after it is harmless and is cut short at arrays). A repeated
// member counts by its last occurrence. Defined in client_control_reader.cc.
class ResponseObject {
 public:
  ResponseObject(const rapidjson::Value& value, const PathNode& at, Status* error)
      : value_(value), at_(at), error_(error) {}

  // The member's value, or null when absent.
  const rapidjson::Value* Find(std::string_view member) const;
  // Records Malformed(this object, member, what) / `status`, unless an error is recorded already.
  void Fail(std::string_view member, std::string_view what) const;
  void Fail(Status status) const;
  bool failed() const { return !error_->ok(); }

  void String(std::string_view member, std::string* out) const;
  void String(std::string_view member, std::optional<std::string>* out) const;
  void Int64(std::string_view member, int64_t* out) const;
  void Int64(std::string_view member, std::optional<int64_t>* out) const;
  void Double(std::string_view member, double* out) const;  // any JSON number
  void Double(std::string_view member, std::optional<double>* out) const;
  void Bool(std::string_view member, bool* out) const;
  void StringList(std::string_view member, std::vector<std::string>* out) const;
  void StringList(std::string_view member, std::optional<std::vector<std::string>>* out) const;
  // An item or key ({"name": AttributeValue, ...}) through DecodeItem.
  void Item(std::string_view member, partstore::Item* out) const;
  void Item(std::string_view member, std::optional<partstore::Item>* out) const;

  // An enum spelled as name_of(E(i)) for some i < count; another string is malformed.
  template <typename E>
  void Enum(std::string_view member, std::string_view (*name_of)(E), int count, E* out) const;
  template <typename E>
  void Enum(std::string_view member, std::string_view (*name_of)(E), int count,
            std::optional<E>* out) const;

  // An object member: read(const ResponseObject&), not called when absent.
  template <typename F>
  void Object(std::string_view member, F&& read) const;
  // An array of objects: read(const ResponseObject&) for each element in order, until an error.
  template <typename F>
  void Objects(std::string_view member, F&& read) const;

 private:
  // Fail: "<member> is not a known value (\"<text>\")".
  void UnknownEnum(std::string_view member, std::string_view text) const;

  const rapidjson::Value& value_;
  const PathNode& at_;
  Status* error_;
};

// Reads a whole response body into a T: Malformed unless it is an object, else
// read(const ResponseObject& root, T& out) and the first error it recorded, if any.
template <typename T, typename F>
Result<T> ReadBody(const rapidjson::Value& body, std::string_view operation, F&& read) {
  const PathNode root{.name = operation};
  if (!body.IsObject()) return Malformed(root, "", "an object");
  Status error;
  T out{};
  read(ResponseObject(body, root, &error), out);
  if (!error.ok()) return error;
  return out;
}

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

// ---- Template definitions ----

template <typename E>
void ResponseObject::Enum(std::string_view member, std::string_view (*name_of)(E), int count,
                          E* out) const {
  const rapidjson::Value* value = Find(member);
  if (value == nullptr) return;
  if (!value->IsString()) return Fail(member, "a string");
  const std::string_view text(value->GetString(), value->GetStringLength());
  for (int i = 0; i < count; ++i) {
    if (name_of(static_cast<E>(i)) == text) {
      *out = static_cast<E>(i);
      return;
    }
  }
  UnknownEnum(member, text);
}

template <typename E>
void ResponseObject::Enum(std::string_view member, std::string_view (*name_of)(E), int count,
                          std::optional<E>* out) const {
  if (Find(member) == nullptr) return;
  E value{};
  Enum(member, name_of, count, &value);
  if (!failed()) *out = value;
}

template <typename F>
void ResponseObject::Object(std::string_view member, F&& read) const {
  const rapidjson::Value* value = Find(member);
  if (value == nullptr) return;
  const PathNode node{.parent = &at_, .name = member};
  if (!value->IsObject()) return Fail(Malformed(node, "", "an object"));
  read(ResponseObject(*value, node, error_));
}

template <typename F>
void ResponseObject::Objects(std::string_view member, F&& read) const {
  const rapidjson::Value* value = Find(member);
  if (value == nullptr) return;
  const PathNode list{.parent = &at_, .name = member};
  if (!value->IsArray()) return Fail(Malformed(list, "", "an array"));
  int64_t index = 0;
  for (const rapidjson::Value& element : value->GetArray()) {
    if (failed()) return;
    const PathNode node{.parent = &list, .index = index++};
    if (!element.IsObject()) return Fail(Malformed(node, "", "an object"));
    read(ResponseObject(element, node, error_));
  }
}

}  // namespace client_control
}  // namespace partstore::protocol
