// Partstore.CreateSnapshot JSON (see operations_json.h): a snapshot to the path the server was
// started with (partstore serve --data-dir). The request has no members: a client names no file.
#include <rapidjson/stringbuffer.h>

#include "tools/protocol/operations_json.h"
#include "tools/protocol/request_json.h"

namespace partstore::protocol {

Result<CreateSnapshotRequest> DecodeCreateSnapshotRequest(const JsonValue& body) {
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "CreateSnapshot", {}, {}));
  return CreateSnapshotRequest{};
}

std::string EncodeSnapshotInfo(const SnapshotInfo& info) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  w.Key("Path");
  w.String(info.path.data(), static_cast<rapidjson::SizeType>(info.path.size()));
  w.Key("Tables");
  w.Int64(info.tables);
  w.Key("Items");
  w.Int64(info.items);
  w.Key("Bytes");
  w.Int64(info.bytes);
  w.Key("Seconds");
  w.Double(info.seconds);
  w.Key("PauseSeconds");
  w.Double(info.pause_seconds);
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace partstore::protocol
