// Sharding JSON: the request decoders and result encoders of partstore's write-sharding
// extensions (partstore/sharding_requests.h), Partstore.<Op> in Dispatch. Member names are
// DynamoDB-style (PascalCase).
//
//   Partstore.PutShardingPolicy  {"TableName", "IndexName"?, "Key", "KeyMatch"?, "ShardCount",
//                                 "SuffixFormat"?, "Strategy"?, "CalculatedFrom"?,
//                                 "LogicalKeyAttribute"?}            ->  {"ShardingPolicy": P}
//   Partstore.DeleteShardingPolicy  {"TableName", "IndexName"?, "Key", "KeyMatch"?}
//                                                                    ->  {"ShardingPolicy": P}
//   Partstore.DescribeShardingPolicies  {"TableName"}
//                                    ->  {"TableName", "ShardingPolicies": [P, ...]}
//   where P = {"IndexName"?, "Key", "KeyMatch", "ShardCount", "SuffixFormat", "Strategy",
//              "CalculatedFrom"?, "LogicalKeyAttribute"}
//   KeyMatch: "EXACT" (default) | "PREFIX"; Strategy: "RANDOM" (default) | "CALCULATED".
//
//   Partstore.ShardedPutItem / ShardedGetItem / ShardedUpdateItem / ShardedDeleteItem
//     request: PutItem's / GetItem's / UpdateItem's / DeleteItem's (operations_json.h)
//     -> that operation's response members, then "ShardsTouched": n, "Shard"?: n (only when the
//        operation used exactly one shard)
//   Partstore.ShardedBatchWriteItem  BatchWriteItem's request
//     -> BatchWriteItem's response members, then "PhysicalWrites": n
//   Partstore.ShardedQuery  Query's request
//     -> Query's response members, then "ShardsQueried": n, "ShardReads": n
//   Partstore.ShardedAggregate  Query's request plus "SumAttribute"?: "name"
//     -> {"Count", "ScannedCount", "Sum"?: {"N": "<number>"}, "SummedItems"? (with Sum),
//         "ShardsQueried", "ShardReads", "ConsumedCapacity"?}
//
// Decoders apply request_json.h's steps 1 and 2: a member of the wrong JSON type is a
// SerializationException with request_json.cc's texts (ShardCount is an Integer: a string is
// "STRING_VALUE cannot be converted to Integer", a fraction is truncated as for Limit); a missing
// TableName, Key or ShardCount is "Value null at 'tableName' ... must not be null"; TableName and
// IndexName must be valid table / index names; a KeyMatch or Strategy outside its set is "Value
// 'X' at 'keyMatch' failed to satisfy constraint: Member must satisfy enum value set: [EXACT,
// PREFIX]" ('strategy', [RANDOM, CALCULATED]). Every other check (ShardCount's range, the
// SuffixFormat's placeholder, the key schema, CalculatedFrom) is the engine's. The sharded
// data-plane requests are decoded by DynamoDB's decoders; ShardedAggregate checks the shape of
// SumAttribute first, then decodes the rest as a Query (which ignores the unknown SumAttribute).
//
// Thread safety: free functions; thread-safe for distinct arguments.
#pragma once

#include <rapidjson/document.h>

#include <string>
#include <string_view>

#include "partstore/sharding_requests.h"
#include "partstore/status.h"
#include "tools/protocol/attribute_value_json.h"

namespace partstore::protocol {

Result<PutShardingPolicyRequest> DecodePutShardingPolicyRequest(const rapidjson::Value& body);
Result<DeleteShardingPolicyRequest> DecodeDeleteShardingPolicyRequest(const rapidjson::Value& body);
Result<DescribeShardingPoliciesRequest> DecodeDescribeShardingPoliciesRequest(
    const rapidjson::Value& body);
Result<ShardedAggregateRequest> DecodeShardedAggregateRequest(const rapidjson::Value& body);

std::string EncodePutShardingPolicyResult(const PutShardingPolicyResult& result);
std::string EncodeDeleteShardingPolicyResult(const DeleteShardingPolicyResult& result);
// The result does not carry the table's name: the response echoes the request's.
std::string EncodeDescribeShardingPoliciesResult(std::string_view table_name,
                                                 const DescribeShardingPoliciesResult& result);

std::string EncodeShardedPutItemResult(const ShardedPutItemResult& result);
std::string EncodeShardedGetItemResult(const ShardedGetItemResult& result);
std::string EncodeShardedUpdateItemResult(const ShardedUpdateItemResult& result);
std::string EncodeShardedDeleteItemResult(const ShardedDeleteItemResult& result);
std::string EncodeShardedBatchWriteItemResult(const ShardedBatchWriteItemResult& result);
std::string EncodeShardedQueryResult(const ShardedQueryResult& result);
std::string EncodeShardedAggregateResult(const ShardedAggregateResult& result);

// One policy object P at the writer's position.
void WriteShardingPolicy(const sharding::ShardingPolicy& policy, JsonWriter& writer);

}  // namespace partstore::protocol
