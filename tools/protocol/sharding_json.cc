// Sharding JSON: see sharding_json.h for the shapes.
//
// The extensions are partstore's own, so, as in capacity_json.cc, their texts follow DynamoDB's
// conventions: request_json.cc's SerializationException texts for a member of the wrong JSON type,
// "Value null at 'tableName' ... must not be null" for a missing required member and the enum
// text "Member must satisfy enum value set: [...]" with the values in their documented order.
// The constraint violations are listed in member order (tableName, indexName, key, keyMatch,
// shardCount, strategy). The sharded data-plane responses are DynamoDB's response objects
// (operations_json.h's Write*ResultMembers) with partstore's members appended.
#include "tools/protocol/sharding_json.h"

#include <rapidjson/stringbuffer.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <utility>

#include "tools/protocol/operations_json.h"
#include "tools/protocol/request_json.h"

namespace partstore::protocol {
namespace {

// One response object: `write_members(writer)` between StartObject and EndObject.
template <typename WriteMembers>
std::string EncodeObject(WriteMembers write_members) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  write_members(w);
  w.EndObject();
  return {buffer.GetString(), buffer.GetSize()};
}

// The enum values in enum order (index = enumerator: kExact, kPrefix; kRandom, kCalculated), and
// the sets as the messages list them.
constexpr std::string_view kKeyMatchNames[] = {"EXACT", "PREFIX"};
constexpr std::string_view kKeyMatchSet = "[EXACT, PREFIX]";
constexpr std::string_view kStrategyNames[] = {"RANDOM", "CALCULATED"};
constexpr std::string_view kStrategySet = "[RANDOM, CALCULATED]";

// ---- Member tables ----

enum PutPolicyMember {
  kPutPolicyTableName,
  kPutPolicyIndexName,
  kPutPolicyKey,
  kPutPolicyKeyMatch,
  kPutPolicyShardCount,
  kPutPolicySuffixFormat,
  kPutPolicyStrategy,
  kPutPolicyCalculatedFrom,
  kPutPolicyLogicalKeyAttribute,
  kPutPolicyMemberCount,
};
constexpr MemberSpec kPutPolicyMembers[kPutPolicyMemberCount] = {
    {"TableName", Shape::kString},
    {"IndexName", Shape::kString},
    {"Key", Shape::kString},
    {"KeyMatch", Shape::kString},
    {"ShardCount", Shape::kInteger},
    {"SuffixFormat", Shape::kString},
    {"Strategy", Shape::kString},
    {"CalculatedFrom", Shape::kString},
    {"LogicalKeyAttribute", Shape::kString},
};

enum DeletePolicyMember {
  kDeletePolicyTableName,
  kDeletePolicyIndexName,
  kDeletePolicyKey,
  kDeletePolicyKeyMatch,
  kDeletePolicyMemberCount,
};
constexpr MemberSpec kDeletePolicyMembers[kDeletePolicyMemberCount] = {
    {"TableName", Shape::kString},
    {"IndexName", Shape::kString},
    {"Key", Shape::kString},
    {"KeyMatch", Shape::kString},
};

constexpr MemberSpec kDescribePoliciesMembers[] = {{"TableName", Shape::kString}};

// ShardedAggregate's own member; the rest of its body is a Query.
constexpr MemberSpec kAggregateMembers[] = {{"SumAttribute", Shape::kString}};

// TableName (required) and IndexName, as table and index names.
void Names(Constraints& c, const JsonValue* table_name, const JsonValue* index_name) {
  c.Required(table_name, "tableName");
  c.TableName(table_name);
  c.Name(index_name, "indexName");
}

void KeyAndMatch(Constraints& c, const JsonValue* key, const JsonValue* match) {
  c.Required(key, "key");
  c.Enum(match, kKeyMatchNames, kKeyMatchSet, "keyMatch");
}

sharding::KeyMatch KeyMatchOf(const JsonValue* value) {
  return EnumOf(value, kKeyMatchNames, sharding::KeyMatch::kExact);
}

void WriteShardUse(const ShardUse& shards, JsonWriter& w) {
  Key(w, "ShardsTouched");
  w.Int(shards.shards_touched);
  if (shards.shard) {
    Key(w, "Shard");
    w.Int(*shards.shard);
  }
}

void WriteScatter(int32_t shards_queried, int32_t shard_reads, JsonWriter& w) {
  Key(w, "ShardsQueried");
  w.Int(shards_queried);
  Key(w, "ShardReads");
  w.Int(shard_reads);
}

std::string EncodePolicyResult(const sharding::ShardingPolicy& policy) {
  return EncodeObject([&](JsonWriter& w) {
    Key(w, "ShardingPolicy");
    WriteShardingPolicy(policy, w);
  });
}

}  // namespace

// ---- Decoders ----

Result<PutShardingPolicyRequest> DecodePutShardingPolicyRequest(const JsonValue& body) {
  std::array<const JsonValue*, kPutPolicyMemberCount> m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "PutShardingPolicy", kPutPolicyMembers, m));
  Constraints c;
  Names(c, m[kPutPolicyTableName], m[kPutPolicyIndexName]);
  KeyAndMatch(c, m[kPutPolicyKey], m[kPutPolicyKeyMatch]);
  c.Required(m[kPutPolicyShardCount], "shardCount");
  c.Enum(m[kPutPolicyStrategy], kStrategyNames, kStrategySet, "strategy");
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());

  PutShardingPolicyRequest request;
  request.table_name = std::string(StringOf(*m[kPutPolicyTableName]));
  sharding::ShardingPolicy& policy = request.policy;
  policy.index_name = OptionalString(m[kPutPolicyIndexName]);
  policy.key = std::string(StringOf(*m[kPutPolicyKey]));
  policy.match = KeyMatchOf(m[kPutPolicyKeyMatch]);
  policy.shard_count = NarrowForValidation(IntegerOf(*m[kPutPolicyShardCount]));
  if (m[kPutPolicySuffixFormat])
    policy.suffix_format = std::string(StringOf(*m[kPutPolicySuffixFormat]));
  policy.strategy = EnumOf(m[kPutPolicyStrategy], kStrategyNames, sharding::ShardStrategy::kRandom);
  policy.calculated_from = OptionalString(m[kPutPolicyCalculatedFrom]);
  if (m[kPutPolicyLogicalKeyAttribute]) {
    policy.logical_key_attribute = std::string(StringOf(*m[kPutPolicyLogicalKeyAttribute]));
  }
  return request;
}

Result<DeleteShardingPolicyRequest> DecodeDeleteShardingPolicyRequest(const JsonValue& body) {
  std::array<const JsonValue*, kDeletePolicyMemberCount> m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "DeleteShardingPolicy", kDeletePolicyMembers, m));
  Constraints c;
  Names(c, m[kDeletePolicyTableName], m[kDeletePolicyIndexName]);
  KeyAndMatch(c, m[kDeletePolicyKey], m[kDeletePolicyKeyMatch]);
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());
  return DeleteShardingPolicyRequest{
      .table_name = std::string(StringOf(*m[kDeletePolicyTableName])),
      .index_name = OptionalString(m[kDeletePolicyIndexName]),
      .key = std::string(StringOf(*m[kDeletePolicyKey])),
      .match = KeyMatchOf(m[kDeletePolicyKeyMatch]),
  };
}

Result<DescribeShardingPoliciesRequest> DecodeDescribeShardingPoliciesRequest(
    const JsonValue& body) {
  std::array<const JsonValue*, 1> m;
  PARTSTORE_RETURN_IF_ERROR(
      ReadMembers(body, "DescribeShardingPolicies", kDescribePoliciesMembers, m));
  Constraints c;
  Names(c, m[0], nullptr);
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());
  return DescribeShardingPoliciesRequest{.table_name = std::string(StringOf(*m[0]))};
}

Result<ShardedAggregateRequest> DecodeShardedAggregateRequest(const JsonValue& body) {
  std::array<const JsonValue*, 1> m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "ShardedAggregate", kAggregateMembers, m));
  ShardedAggregateRequest request;
  PARTSTORE_ASSIGN_OR_RETURN(request.query, DecodeQueryRequest(body));
  request.sum_attribute = OptionalString(m[0]);
  return request;
}

// ---- Encoders ----

void WriteShardingPolicy(const sharding::ShardingPolicy& policy, JsonWriter& w) {
  w.StartObject();
  if (policy.index_name) {
    Key(w, "IndexName");
    String(w, *policy.index_name);
  }
  Key(w, "Key");
  String(w, policy.key);
  Key(w, "KeyMatch");
  String(w, sharding::KeyMatchName(policy.match));
  Key(w, "ShardCount");
  w.Int(policy.shard_count);
  Key(w, "SuffixFormat");
  String(w, policy.suffix_format);
  Key(w, "Strategy");
  String(w, sharding::ShardStrategyName(policy.strategy));
  if (policy.calculated_from) {
    Key(w, "CalculatedFrom");
    String(w, *policy.calculated_from);
  }
  Key(w, "LogicalKeyAttribute");
  String(w, policy.logical_key_attribute);
  w.EndObject();
}

std::string EncodePutShardingPolicyResult(const PutShardingPolicyResult& result) {
  return EncodePolicyResult(result.policy);
}

std::string EncodeDeleteShardingPolicyResult(const DeleteShardingPolicyResult& result) {
  return EncodePolicyResult(result.policy);
}

std::string EncodeDescribeShardingPoliciesResult(std::string_view table_name,
                                                 const DescribeShardingPoliciesResult& result) {
  return EncodeObject([&](JsonWriter& w) {
    Key(w, "TableName");
    String(w, table_name);
    Key(w, "ShardingPolicies");
    w.StartArray();
    for (const sharding::ShardingPolicy& policy : result.policies) WriteShardingPolicy(policy, w);
    w.EndArray();
  });
}

std::string EncodeShardedPutItemResult(const ShardedPutItemResult& result) {
  return EncodeObject([&](JsonWriter& w) {
    WritePutItemResultMembers(result.result, w);
    WriteShardUse(result.shards, w);
  });
}

std::string EncodeShardedGetItemResult(const ShardedGetItemResult& result) {
  return EncodeObject([&](JsonWriter& w) {
    WriteGetItemResultMembers(result.result, w);
    WriteShardUse(result.shards, w);
  });
}

std::string EncodeShardedUpdateItemResult(const ShardedUpdateItemResult& result) {
  return EncodeObject([&](JsonWriter& w) {
    WriteUpdateItemResultMembers(result.result, w);
    WriteShardUse(result.shards, w);
  });
}

std::string EncodeShardedDeleteItemResult(const ShardedDeleteItemResult& result) {
  return EncodeObject([&](JsonWriter& w) {
    WriteDeleteItemResultMembers(result.result, w);
    WriteShardUse(result.shards, w);
  });
}

std::string EncodeShardedBatchWriteItemResult(const ShardedBatchWriteItemResult& result) {
  return EncodeObject([&](JsonWriter& w) {
    WriteBatchWriteItemResultMembers(result.result, w);
    Key(w, "PhysicalWrites");
    w.Int(result.physical_writes);
  });
}

std::string EncodeShardedQueryResult(const ShardedQueryResult& result) {
  return EncodeObject([&](JsonWriter& w) {
    WriteReadPageResultMembers(result.result, w);
    WriteScatter(result.shards_queried, result.shard_reads, w);
  });
}

std::string EncodeShardedAggregateResult(const ShardedAggregateResult& result) {
  return EncodeObject([&](JsonWriter& w) {
    Key(w, "Count");
    w.Int64(result.count);
    Key(w, "ScannedCount");
    w.Int64(result.scanned_count);
    if (result.sum) {
      Key(w, "Sum");
      WriteAttributeValue(Value(*result.sum), w);
      Key(w, "SummedItems");
      w.Int64(result.summed_items);
    }
    WriteScatter(result.shards_queried, result.shard_reads, w);
    if (result.consumed_capacity) {
      Key(w, "ConsumedCapacity");
      WriteConsumedCapacity(*result.consumed_capacity, w);
    }
  });
}

}  // namespace partstore::protocol
