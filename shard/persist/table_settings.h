// TableSettings: everything a snapshot keeps of a table besides its items, in a binary encoding
// (a snapshot's table block: shard/persist/snapshot_format.h). Restoring replays it through the
// public API (CreateTable, UpdateTimeToLive, PutShardingPolicy), so a restored table passes the
// same checks as a new one.
//
// Thread safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "partstore/sharding_policy.h"
#include "partstore/table_requests.h"

namespace partstore::persist {

struct TableSettings {
  // Name, key schema, attribute definitions, billing mode and throughput, LSIs and GSIs (with
  // their projections and throughput), and the stream's view type while one is enabled.
  CreateTableRequest create{};
  // The TTL attribute while TTL is enabled.
  std::optional<std::string> time_to_live_attribute{};
  std::vector<sharding::ShardingPolicy> sharding_policies{};
  std::vector<Tag> tags{};
  // The table's number in the write-ahead log (shard/persist/write_ahead_log.h).
  uint64_t log_number = 0;
};

// The CreateTableRequest that makes a table like `description` (no items).
CreateTableRequest CreateRequestOf(const TableDescription& description);

// A table's tags (the kTags log record's body; also TableSettings's).
void EncodeTags(const std::vector<Tag>& tags, std::string* out);
bool DecodeTags(std::string_view bytes, std::vector<Tag>* out);

void EncodeTableSettings(const TableSettings& settings, std::string* out);
// False for bytes EncodeTableSettings does not produce (a count or enum out of range, bytes cut
// short or left over); the values themselves are checked when they are replayed.
bool DecodeTableSettings(std::string_view bytes, TableSettings* out);

// The control plane's changes as the write-ahead log records them (the same rules as above).
void EncodeUpdateTable(const UpdateTableRequest& request, std::string* out);
bool DecodeUpdateTable(std::string_view bytes, UpdateTableRequest* out);
void EncodeShardingPolicy(const sharding::ShardingPolicy& policy, std::string* out);
class ByteReader;
bool DecodeShardingPolicy(ByteReader& reader, sharding::ShardingPolicy* out);

}  // namespace partstore::persist
