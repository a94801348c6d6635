// Partstore.DescribeMemory JSON (see operations_json.h): what the store holds, its limit, and per
// table its bytes, evictions and expirations (partstore/memory.h). The request has no members.
#include <rapidjson/stringbuffer.h>

#include <span>

#include "tools/protocol/operations_json.h"
#include "tools/protocol/request_json.h"

namespace partstore::protocol {

Result<DescribeMemoryRequest> DecodeDescribeMemoryRequest(const JsonValue& body) {
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "DescribeMemory", {}, {}));
  return DescribeMemoryRequest{};
}

std::string EncodeDescribeMemoryResult(const DescribeMemoryResult& result) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  w.Key("LimitBytes");
  w.Uint64(result.limit_bytes);
  w.Key("Policy");
  w.String(result.policy == MemoryPolicy::kReject ? "REJECT" : "EVICT");
  w.Key("UsedBytes");
  w.Int64(result.used_bytes);
  w.Key("RejectedWrites");
  w.Uint64(result.rejected_writes);
  w.Key("Tables");
  w.StartArray();
  for (const TableMemory& t : result.tables) {
    w.StartObject();
    w.Key("TableName");
    w.String(t.table_name.data(), static_cast<rapidjson::SizeType>(t.table_name.size()));
    w.Key("Bytes");
    w.Int64(t.bytes);
    w.Key("EvictedItems");
    w.Uint64(t.evicted_items);
    w.Key("EvictedCollections");
    w.Uint64(t.evicted_collections);
    w.Key("ExpiredItems");
    w.Uint64(t.expired_items);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace partstore::protocol
