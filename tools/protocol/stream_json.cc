// DynamoDB Streams' operations (the dynamodbstreams service, X-Amz-Target
// DynamoDBStreams_20120810.<Op>): ListStreams, DescribeStream, GetShardIterator, GetRecords.
// Shapes as botocore's dynamodbstreams model; a record's AttributeValues are written as DynamoDB's
// (the same writer as GetItem's). Model constraints: the ARN 37..1024, shard ids 28..65, sequence
// numbers 21..40, iterators 1..2048, Limit 1..100 (1..1000 for GetRecords).
#include <rapidjson/stringbuffer.h>

#include <array>

#include "tools/protocol/client_control_json.h"
#include "tools/protocol/operations_json.h"
#include "tools/protocol/request_json.h"

namespace partstore::protocol {
namespace {

constexpr std::string_view kIteratorTypeNames[] = {"TRIM_HORIZON", "LATEST", "AT_SEQUENCE_NUMBER",
                                                   "AFTER_SEQUENCE_NUMBER"};
constexpr std::string_view kIteratorTypeSet =
    "[TRIM_HORIZON, LATEST, AT_SEQUENCE_NUMBER, AFTER_SEQUENCE_NUMBER]";
constexpr std::string_view kShardFilterTypeNames[] = {"CHILD_SHARDS"};
constexpr std::string_view kShardFilterTypeSet = "[CHILD_SHARDS]";

int32_t IntOf(const JsonValue* value) { return static_cast<int32_t>(IntegerOf(*value)); }

// ---- The client's direction ----

// A request's optional members.
void OptionalText(JsonWriter& w, const char* key, const std::optional<std::string>& value) {
  if (!value) return;
  w.Key(key);
  String(w, *value);
}
void OptionalInt(JsonWriter& w, const char* key, const std::optional<int32_t>& value) {
  if (!value) return;
  w.Key(key);
  w.Int(*value);
}

// userIdentity's PrincipalId of each StreamRemover but kClient (which has no userIdentity).
constexpr std::string_view kTimeToLivePrincipal = "dynamodb.amazonaws.com";
constexpr std::string_view kEvictionPrincipal = "partstore.eviction";

void ReadRecord(const ResponseObject& o, StreamRecord* r) {
  o.String("eventID", &r->event_id);
  o.Enum("eventName", StreamEventNameText, 3, &r->event_name);
  o.Object("dynamodb", [&](const ResponseObject& d) {
    d.Double("ApproximateCreationDateTime", &r->approximate_creation_date_time);
    d.Item("Keys", &r->keys);
    for (const auto& [key, image] :
         {std::pair{"NewImage", &r->new_image}, std::pair{"OldImage", &r->old_image}}) {
      std::optional<Item> item;
      d.Item(key, &item);
      if (item) *image = StoredItem::Encode(*item);
    }
    d.String("SequenceNumber", &r->sequence_number);
    d.Int64("SizeBytes", &r->size_bytes);
    d.Enum("StreamViewType", StreamViewTypeName, 4, &r->stream_view_type);
  });
  o.Object("userIdentity", [&](const ResponseObject& u) {
    std::string principal;
    u.String("PrincipalId", &principal);
    if (u.failed()) return;
    if (principal == kTimeToLivePrincipal) {
      r->remover = StreamRemover::kTimeToLive;
    } else if (principal == kEvictionPrincipal) {
      r->remover = StreamRemover::kEviction;
    } else {
      u.Fail("PrincipalId", "dynamodb.amazonaws.com or partstore.eviction");
    }
  });
}

}  // namespace

Result<ListStreamsRequest> DecodeListStreamsRequest(const JsonValue& body) {
  constexpr MemberSpec kMembers[] = {{"TableName", Shape::kString},
                                     {"Limit", Shape::kInteger},
                                     {"ExclusiveStartStreamArn", Shape::kString}};
  std::array<const JsonValue*, 3> m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "ListStreams", kMembers, m));
  Constraints c;
  c.Range(m[1], 1, 100, "limit");  // (before it is narrowed to an int32)
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());
  ListStreamsRequest request;
  request.table_name = OptionalString(m[0]);
  if (m[1]) request.limit = IntOf(m[1]);
  request.exclusive_start_stream_arn = OptionalString(m[2]);
  return request;
}

std::string EncodeListStreamsRequest(const ListStreamsRequest& request) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  OptionalText(w, "TableName", request.table_name);
  OptionalInt(w, "Limit", request.limit);
  OptionalText(w, "ExclusiveStartStreamArn", request.exclusive_start_stream_arn);
  w.EndObject();
  return Finish(buffer);
}

Result<DescribeStreamRequest> DecodeDescribeStreamRequest(const JsonValue& body) {
  constexpr MemberSpec kMembers[] = {{"StreamArn", Shape::kString},
                                     {"Limit", Shape::kInteger},
                                     {"ExclusiveStartShardId", Shape::kString},
                                     {"ShardFilter", Shape::kStructure}};
  constexpr MemberSpec kFilterMembers[] = {{"Type", Shape::kString}, {"ShardId", Shape::kString}};
  std::array<const JsonValue*, 4> m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "DescribeStream", kMembers, m));
  std::array<const JsonValue*, 2> filter{};
  if (m[3] != nullptr) {
    PARTSTORE_RETURN_IF_ERROR(ReadMembers(*m[3], "ShardFilter", kFilterMembers, filter));
  }
  Constraints c;
  c.Required(m[0], "streamArn");
  c.Range(m[1], 1, 100, "limit");
  if (m[3] != nullptr) {
    // The model makes both members optional; a filter without either names nothing to filter by,
    // and partstore refuses it as a missing required member (DynamoDB's answer is not known).
    c.Required(filter[0], "shardFilter.type");
    c.Enum(filter[0], kShardFilterTypeNames, kShardFilterTypeSet, "shardFilter.type");
    c.Required(filter[1], "shardFilter.shardId");
  }
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());
  DescribeStreamRequest request;
  request.stream_arn = std::string(StringOf(*m[0]));
  if (m[1]) request.limit = IntOf(m[1]);
  request.exclusive_start_shard_id = OptionalString(m[2]);
  if (m[3] != nullptr) {
    request.shard_filter = ShardFilter{.type = *ParseShardFilterType(StringOf(*filter[0])),
                                       .shard_id = std::string(StringOf(*filter[1]))};
  }
  return request;
}

std::string EncodeDescribeStreamRequest(const DescribeStreamRequest& request) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  w.Key("StreamArn");
  String(w, request.stream_arn);
  OptionalInt(w, "Limit", request.limit);
  OptionalText(w, "ExclusiveStartShardId", request.exclusive_start_shard_id);
  if (request.shard_filter) {
    w.Key("ShardFilter");
    w.StartObject();
    w.Key("Type");
    String(w, ShardFilterTypeName(request.shard_filter->type));
    w.Key("ShardId");
    String(w, request.shard_filter->shard_id);
    w.EndObject();
  }
  w.EndObject();
  return Finish(buffer);
}

Result<GetShardIteratorRequest> DecodeGetShardIteratorRequest(const JsonValue& body) {
  constexpr MemberSpec kMembers[] = {{"StreamArn", Shape::kString},
                                     {"ShardId", Shape::kString},
                                     {"ShardIteratorType", Shape::kString},
                                     {"SequenceNumber", Shape::kString}};
  std::array<const JsonValue*, 4> m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "GetShardIterator", kMembers, m));
  Constraints c;
  c.Required(m[0], "streamArn");
  c.Required(m[1], "shardId");
  c.Required(m[2], "shardIteratorType");
  c.Enum(m[2], kIteratorTypeNames, kIteratorTypeSet, "shardIteratorType");
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());
  GetShardIteratorRequest request;
  request.stream_arn = std::string(StringOf(*m[0]));
  request.shard_id = std::string(StringOf(*m[1]));
  request.shard_iterator_type = *ParseShardIteratorType(StringOf(*m[2]));
  request.sequence_number = OptionalString(m[3]);
  return request;
}

std::string EncodeGetShardIteratorRequest(const GetShardIteratorRequest& request) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  w.Key("StreamArn");
  String(w, request.stream_arn);
  w.Key("ShardId");
  String(w, request.shard_id);
  w.Key("ShardIteratorType");  // required: written even for TRIM_HORIZON
  String(w, ShardIteratorTypeName(request.shard_iterator_type));
  OptionalText(w, "SequenceNumber", request.sequence_number);
  w.EndObject();
  return Finish(buffer);
}

Result<GetRecordsRequest> DecodeGetRecordsRequest(const JsonValue& body) {
  constexpr MemberSpec kMembers[] = {{"ShardIterator", Shape::kString}, {"Limit", Shape::kInteger}};
  std::array<const JsonValue*, 2> m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "GetRecords", kMembers, m));
  Constraints c;
  c.Required(m[0], "shardIterator");
  c.Range(m[1], 1, 1000, "limit");
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());
  GetRecordsRequest request;
  request.shard_iterator = std::string(StringOf(*m[0]));
  if (m[1]) request.limit = IntOf(m[1]);
  return request;
}

std::string EncodeGetRecordsRequest(const GetRecordsRequest& request) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  w.Key("ShardIterator");
  String(w, request.shard_iterator);
  OptionalInt(w, "Limit", request.limit);
  w.EndObject();
  return Finish(buffer);
}

std::string EncodeListStreamsResult(const ListStreamsResult& result) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  w.Key("Streams");
  w.StartArray();
  for (const StreamSummary& s : result.streams) {
    w.StartObject();
    w.Key("StreamArn");
    String(w, s.stream_arn);
    w.Key("TableName");
    String(w, s.table_name);
    w.Key("StreamLabel");
    String(w, s.stream_label);
    w.EndObject();
  }
  w.EndArray();
  if (result.last_evaluated_stream_arn) {
    w.Key("LastEvaluatedStreamArn");
    String(w, *result.last_evaluated_stream_arn);
  }
  w.EndObject();
  return Finish(buffer);
}

Result<ListStreamsResult> DecodeListStreamsResult(const JsonValue& body) {
  return ReadBody<ListStreamsResult>(
      body, "ListStreams", [](const ResponseObject& o, ListStreamsResult& out) {
        o.Objects("Streams", [&](const ResponseObject& x) {
          StreamSummary& summary = out.streams.emplace_back();
          x.String("StreamArn", &summary.stream_arn);
          x.String("TableName", &summary.table_name);
          x.String("StreamLabel", &summary.stream_label);
        });
        o.String("LastEvaluatedStreamArn", &out.last_evaluated_stream_arn);
      });
}

std::string EncodeDescribeStreamResult(const DescribeStreamResult& result) {
  const StreamDescription& d = result.stream_description;
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  w.Key("StreamDescription");
  w.StartObject();
  w.Key("StreamArn");
  String(w, d.stream_arn);
  w.Key("StreamLabel");
  String(w, d.stream_label);
  w.Key("StreamStatus");
  String(w, StreamStatusName(d.stream_status));
  w.Key("StreamViewType");
  String(w, StreamViewTypeName(d.stream_view_type));
  w.Key("CreationRequestDateTime");
  w.Double(d.creation_request_date_time);
  w.Key("TableName");
  String(w, d.table_name);
  w.Key("KeySchema");
  w.StartArray();
  for (const KeySchemaElement& k : d.key_schema) {
    w.StartObject();
    w.Key("AttributeName");
    String(w, k.attribute_name);
    w.Key("KeyType");
    String(w, k.key_type == KeyRoleName::kHash ? "HASH" : "RANGE");
    w.EndObject();
  }
  w.EndArray();
  w.Key("Shards");
  w.StartArray();
  for (const StreamShard& s : d.shards) {
    w.StartObject();
    w.Key("ShardId");
    String(w, s.shard_id);
    w.Key("SequenceNumberRange");
    w.StartObject();
    w.Key("StartingSequenceNumber");
    String(w, s.sequence_number_range.starting_sequence_number);
    if (s.sequence_number_range.ending_sequence_number) {
      w.Key("EndingSequenceNumber");
      String(w, *s.sequence_number_range.ending_sequence_number);
    }
    w.EndObject();
    if (s.parent_shard_id) {
      w.Key("ParentShardId");
      String(w, *s.parent_shard_id);
    }
    w.EndObject();
  }
  w.EndArray();
  if (d.last_evaluated_shard_id) {
    w.Key("LastEvaluatedShardId");
    String(w, *d.last_evaluated_shard_id);
  }
  w.EndObject();
  w.EndObject();
  return Finish(buffer);
}

Result<DescribeStreamResult> DecodeDescribeStreamResult(const JsonValue& body) {
  return ReadBody<DescribeStreamResult>(
      body, "DescribeStream", [](const ResponseObject& o, DescribeStreamResult& out) {
        o.Object("StreamDescription", [&](const ResponseObject& x) {
          StreamDescription& d = out.stream_description;
          x.String("StreamArn", &d.stream_arn);
          x.String("StreamLabel", &d.stream_label);
          x.Enum("StreamStatus", StreamStatusName, 4, &d.stream_status);
          x.Enum("StreamViewType", StreamViewTypeName, 4, &d.stream_view_type);
          x.Double("CreationRequestDateTime", &d.creation_request_date_time);
          x.String("TableName", &d.table_name);
          client_control::ReadKeySchema(x, &d.key_schema);
          x.Objects("Shards", [&](const ResponseObject& y) {
            StreamShard& shard = d.shards.emplace_back();
            y.String("ShardId", &shard.shard_id);
            y.Object("SequenceNumberRange", [&](const ResponseObject& z) {
              z.String("StartingSequenceNumber",
                       &shard.sequence_number_range.starting_sequence_number);
              z.String("EndingSequenceNumber", &shard.sequence_number_range.ending_sequence_number);
            });
            y.String("ParentShardId", &shard.parent_shard_id);
          });
          x.String("LastEvaluatedShardId", &d.last_evaluated_shard_id);
        });
      });
}

std::string EncodeGetShardIteratorResult(const GetShardIteratorResult& result) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  w.Key("ShardIterator");
  String(w, result.shard_iterator);
  w.EndObject();
  return Finish(buffer);
}

Result<GetShardIteratorResult> DecodeGetShardIteratorResult(const JsonValue& body) {
  return ReadBody<GetShardIteratorResult>(body, "GetShardIterator",
                                          [](const ResponseObject& o, GetShardIteratorResult& out) {
                                            o.String("ShardIterator", &out.shard_iterator);
                                          });
}

std::string EncodeGetRecordsResult(const GetRecordsResult& result, std::string_view region) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  w.Key("Records");
  w.StartArray();
  for (const StreamRecord& r : result.records) {
    w.StartObject();
    w.Key("eventID");
    String(w, r.event_id);
    w.Key("eventName");
    String(w, StreamEventNameText(r.event_name));
    w.Key("eventVersion");
    w.String("1.1");
    w.Key("eventSource");
    w.String("aws:dynamodb");
    w.Key("awsRegion");
    String(w, region);
    w.Key("dynamodb");
    w.StartObject();
    w.Key("ApproximateCreationDateTime");
    w.Double(r.approximate_creation_date_time);
    w.Key("Keys");
    WriteItem(r.keys, w);
    if (r.new_image) {
      w.Key("NewImage");
      WriteItem(*r.new_image, w);
    }
    if (r.old_image) {
      w.Key("OldImage");
      WriteItem(*r.old_image, w);
    }
    w.Key("SequenceNumber");
    String(w, r.sequence_number);
    w.Key("SizeBytes");
    w.Int64(r.size_bytes);
    w.Key("StreamViewType");
    String(w, StreamViewTypeName(r.stream_view_type));
    w.EndObject();
    if (r.remover != StreamRemover::kClient) {
      w.Key("userIdentity");
      w.StartObject();
      w.Key("PrincipalId");
      String(w,
             r.remover == StreamRemover::kTimeToLive ? kTimeToLivePrincipal : kEvictionPrincipal);
      w.Key("Type");
      w.String("Service");
      w.EndObject();
    }
    w.EndObject();
  }
  w.EndArray();
  if (result.next_shard_iterator) {
    w.Key("NextShardIterator");
    String(w, *result.next_shard_iterator);
  }
  w.EndObject();
  return Finish(buffer);
}

Result<GetRecordsResult> DecodeGetRecordsResult(const JsonValue& body) {
  return ReadBody<GetRecordsResult>(
      body, "GetRecords", [](const ResponseObject& o, GetRecordsResult& out) {
        o.Objects("Records",
                  [&](const ResponseObject& x) { ReadRecord(x, &out.records.emplace_back()); });
        o.String("NextShardIterator", &out.next_shard_iterator);
      });
}

}  // namespace partstore::protocol
