// Database: DynamoDB Streams' API (partstore/streams.h, shard/stream.h).
#include <fmt/format.h>

#include "partstore/database.h"
#include "shard/constraints.h"
#include "shard/database_state.h"

namespace partstore {

namespace {

// DynamoDB Streams' model constraints on ARNs, shard ids and sequence numbers. A stream ARN that
// is there but not one ("fake-stream", garbage of any length) is "Invalid StreamArn", checked
// after the model's constraints (WellFormed): the aws-sdk-js integration test run against
// DynamoDB, a live log (amazon-archives/logstash-input-dynamodb#18), and Alternator's
// test_streams.py (DescribeStream, GetShardIterator and ListStreams' ExclusiveStartStreamArn).
void CheckArn(std::string_view arn, std::string_view member, ConstraintViolations* violations) {
  if (arn.empty() || arn.size() > 1024) violations->Length(arn, 37, 1024, member);
}

// arn:PARTITION:dynamodb:REGION:ACCOUNT:table/NAME/stream/LABEL (the label has colons of its own).
Status WellFormed(std::string_view arn) {
  const Status invalid = Status::Validation("Invalid StreamArn");
  std::string_view parts[5];
  std::string_view rest = arn;
  for (std::string_view& part : parts) {
    const size_t colon = rest.find(':');
    if (colon == std::string_view::npos) return invalid;
    part = rest.substr(0, colon);
    rest = rest.substr(colon + 1);
  }
  if (parts[0] != "arn" || parts[1].empty() || parts[2] != "dynamodb" || parts[3].empty() ||
      parts[4].empty() || !rest.starts_with("table/")) {
    return invalid;
  }
  rest.remove_prefix(6);
  const size_t stream = rest.find("/stream/");
  if (stream == std::string_view::npos || !IsValidName(rest.substr(0, stream)) ||
      stream + 8 == rest.size()) {
    return invalid;
  }
  return Status::Ok();
}

Status StreamNotFound(std::string_view arn) {
  return Status::ResourceNotFound(
      fmt::format("Requested resource not found: Stream: {} not found", arn));
}

}  // namespace

Result<ListStreamsResult> Database::ListStreams(const ListStreamsRequest& request) {
  ConstraintViolations violations;
  if (request.table_name) violations.TableName(*request.table_name);
  if (request.limit) violations.Range(*request.limit, 1, 100, "limit");
  if (request.exclusive_start_stream_arn) {
    CheckArn(*request.exclusive_start_stream_arn, "exclusiveStartStreamArn", &violations);
  }
  PARTSTORE_RETURN_IF_ERROR(violations.ToStatus());
  if (request.exclusive_start_stream_arn) {
    PARTSTORE_RETURN_IF_ERROR(WellFormed(*request.exclusive_start_stream_arn));
  }
  const size_t limit = static_cast<size_t>(request.limit.value_or(100));
  ListStreamsResult result;
  // In ARN order (per table: creation order, the label being the creation time), resuming after
  // the start even when that stream is gone.
  for (const auto& stream : state_->streams_->List()) {
    if (request.exclusive_start_stream_arn &&
        stream->arn() <= *request.exclusive_start_stream_arn) {
      continue;
    }
    if (request.table_name && stream->table_name() != *request.table_name) continue;
    if (result.streams.size() == limit) {
      result.last_evaluated_stream_arn = result.streams.back().stream_arn;
      break;
    }
    result.streams.push_back(stream->Summary());
  }
  return result;
}

Result<DescribeStreamResult> Database::DescribeStream(const DescribeStreamRequest& request) {
  ConstraintViolations violations;
  CheckArn(request.stream_arn, "streamArn", &violations);
  if (request.limit) violations.Range(*request.limit, 1, 100, "limit");
  if (request.exclusive_start_shard_id) {
    violations.Length(*request.exclusive_start_shard_id, 28, 65, "exclusiveStartShardId");
  }
  if (request.shard_filter) {
    violations.Length(request.shard_filter->shard_id, 28, 65, "shardFilter.shardId");
  }
  PARTSTORE_RETURN_IF_ERROR(violations.ToStatus());
  PARTSTORE_RETURN_IF_ERROR(WellFormed(request.stream_arn));
  std::shared_ptr<Stream> stream = state_->streams_->Find(request.stream_arn);
  if (!stream) return StreamNotFound(request.stream_arn);
  DescribeStreamResult result;
  PARTSTORE_ASSIGN_OR_RETURN(result.stream_description, stream->Describe(request));
  // (It may name shards a split opened, and its ending sequence numbers those of records whose
  // changes are logged but not yet durable.)
  return state_->Shown(Result<DescribeStreamResult>(std::move(result)));
}

Result<GetShardIteratorResult> Database::GetShardIterator(const GetShardIteratorRequest& request) {
  ConstraintViolations violations;
  CheckArn(request.stream_arn, "streamArn", &violations);
  violations.Length(request.shard_id, 28, 65, "shardId");
  if (request.sequence_number) {
    violations.Length(*request.sequence_number, 21, 40, "sequenceNumber");
  }
  PARTSTORE_RETURN_IF_ERROR(violations.ToStatus());
  PARTSTORE_RETURN_IF_ERROR(WellFormed(request.stream_arn));
  std::shared_ptr<Stream> stream = state_->streams_->Find(request.stream_arn);
  if (!stream) return StreamNotFound(request.stream_arn);
  GetShardIteratorResult result;
  PARTSTORE_ASSIGN_OR_RETURN(result.shard_iterator, stream->GetShardIterator(request));
  // (LATEST points past records whose changes may not yet be durable.)
  return state_->Shown(Result<GetShardIteratorResult>(std::move(result)));
}

Result<GetRecordsResult> Database::GetRecords(const GetRecordsRequest& request) {
  auto run = [&]() -> Result<GetRecordsResult> {
    ConstraintViolations violations;
    violations.Length(request.shard_iterator, 1, 2048, "shardIterator");
    if (request.limit) violations.Range(*request.limit, 1, 1000, "limit");
    PARTSTORE_RETURN_IF_ERROR(violations.ToStatus());
    PARTSTORE_ASSIGN_OR_RETURN(Stream::DecodedIterator iterator,
                               Stream::DecodeIterator(request.shard_iterator));
    std::shared_ptr<Stream> stream = state_->streams_->Find(iterator.stream_arn);
    if (!stream) return StreamNotFound(iterator.stream_arn);
    return stream->GetRecords(iterator.position, iterator.issued_epoch_micros,
                              static_cast<size_t>(request.limit.value_or(1000)));
  };
  return state_->Shown(run());
}

}  // namespace partstore
