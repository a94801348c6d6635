// The table settings of partstore/table_settings.h on the wire: CreateTable's and UpdateTable's
// TableClass, DeletionProtectionEnabled, SSESpecification, OnDemandThroughput, WarmThroughput
// (and CreateTable's Tags), DescribeTable's DeletionProtectionEnabled, TableClassSummary,
// SSEDescription, OnDemandThroughput and WarmThroughput; and the tag operations TagResource,
// UntagResource, ListTagsOfResource (partstore/tags.h).
#pragma once

#include <string>

#include "partstore/table_requests.h"
#include "partstore/tags.h"
#include "tools/protocol/attribute_value_json.h"
#include "tools/protocol/request_json.h"

namespace partstore::protocol {

// The settings members of a CreateTable or UpdateTable body (null: absent).
struct SettingsMembers {
  const JsonValue* table_class = nullptr;
  const JsonValue* deletion_protection_enabled = nullptr;
  const JsonValue* sse_specification = nullptr;
  const JsonValue* on_demand_throughput = nullptr;
  const JsonValue* warm_throughput = nullptr;
  const JsonValue* tags = nullptr;  // CreateTable only
};
Status DecodeSettings(const SettingsMembers& m, CreateTableRequest* out);
Status DecodeSettings(const SettingsMembers& m, UpdateTableRequest* out);
// DescribeTable's members for them.
void WriteSettings(const TableDescription& table, JsonWriter& w);

// A GSI's, or a Create or Update index action's, OnDemandThroughput and WarmThroughput members
// (their shapes already checked: CheckIndexThroughputMember in request_json.cc).
void DecodeIndexThroughputs(const JsonValue& index, std::optional<OnDemandThroughput>* on_demand,
                            std::optional<WarmThroughput>* warm);
// A GSI description's (or a table's) OnDemandThroughput and WarmThroughput, when set.
void WriteThroughputSettings(const std::optional<OnDemandThroughput>& on_demand,
                             const std::optional<WarmThroughput>& warm, JsonWriter& w);

Result<TagResourceRequest> DecodeTagResourceRequest(const JsonValue& body);
Result<UntagResourceRequest> DecodeUntagResourceRequest(const JsonValue& body);
Result<ListTagsOfResourceRequest> DecodeListTagsOfResourceRequest(const JsonValue& body);
std::string EncodeTagResourceResult(const TagResourceResult& result);
std::string EncodeListTagsOfResourceResult(const ListTagsOfResourceResult& result);

}  // namespace partstore::protocol
