// libFuzzer target for Dispatch: arbitrary request bodies for the data-plane operations (and a
// few control-plane ones) against a small database. The first input byte picks the operation
// ('P' PutItem, 'G' GetItem, 'U' UpdateItem, 'D' DeleteItem, 'Q' Query, 'S' Scan,
// 'B' BatchGetItem, 'W' BatchWriteItem, 'T' DescribeTable, 'L' ListTables, 'C' CreateTable,
// 'A' Partstore.AdvanceClock, 'R' Partstore.DescribePartitions, 'M' Partstore.GetMetrics,
// 'I' Partstore.GetContributorInsights, 'F' TransactWriteItems, '@' TransactGetItems,
// '$' UpdateTimeToLive, '%' DescribeTimeToLive, '&' Partstore.DescribeMemory, the streams
// operations '(' ListStreams, ')' DescribeStream, '*' GetShardIterator, '+' GetRecords (in a body,
// %ARN%, %SHARD% and %ITER% stand for the stream of "Tab", its first shard and a fresh
// TRIM_HORIZON iterator of it, so the fuzzer reaches past the lookups), and the sharding
// extensions listed below; any other
// byte picks by its value modulo the count), the rest is the body. An upper-case letter (or '@')
// runs on a database without capacity simulation; the lower-case letter (or '`', the byte 0x20
// above '@' as 'a' is above 'A'), and every Partstore.<Op>, runs on one with capacity simulation on
// a manual clock (same tables and items), so throttling, splits and metrics are fuzzed too. Every
// answer must be an HTTP status DynamoDB uses and a JSON object; an error answer must carry a
// `__type`. Never a crash, hang or exception. The databases are rebuilt every kResetEvery inputs,
// so that writes do not pile up.
#include <rapidjson/document.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "partstore/clock.h"
#include "tools/protocol/attribute_value_json.h"
#include "tools/protocol/dispatch.h"

namespace {

namespace protocol = partstore::protocol;

constexpr int kResetEvery = 2000;

struct Operation {
  char letter;
  std::string_view name;
};
constexpr Operation kOperations[] = {
    {'P', "PutItem"},
    {'G', "GetItem"},
    {'U', "UpdateItem"},
    {'D', "DeleteItem"},
    {'Q', "Query"},
    {'S', "Scan"},
    {'B', "BatchGetItem"},
    {'W', "BatchWriteItem"},
    {'T', "DescribeTable"},
    {'L', "ListTables"},
    {'C', "CreateTable"},
    {'A', "Partstore.AdvanceClock"},
    {'R', "Partstore.DescribePartitions"},
    {'M', "Partstore.GetMetrics"},
    {'I', "Partstore.GetContributorInsights"},
    {'H', "Partstore.PutShardingPolicy"},
    {'E', "Partstore.DeleteShardingPolicy"},
    {'K', "Partstore.DescribeShardingPolicies"},
    {'N', "Partstore.ShardedPutItem"},
    {'O', "Partstore.ShardedGetItem"},
    {'V', "Partstore.ShardedUpdateItem"},
    {'X', "Partstore.ShardedDeleteItem"},
    {'J', "Partstore.ShardedBatchWriteItem"},
    {'Y', "Partstore.ShardedQuery"},
    {'Z', "Partstore.ShardedAggregate"},
    {'#', "Partstore.ShardedTransactWriteItems"},  // reached by the modulo
    {'F', "TransactWriteItems"},                   // (the only letter left)
    {'@', "TransactGetItems"},
    {'$', "UpdateTimeToLive"},
    {'%', "DescribeTimeToLive"},
    {'&', "Partstore.DescribeMemory"},
    {'(', "DynamoDBStreams.ListStreams"},
    {')', "DynamoDBStreams.DescribeStream"},
    {'*', "DynamoDBStreams.GetShardIterator"},
    {'+', "DynamoDBStreams.GetRecords"},
};
constexpr size_t kOperationCount = sizeof(kOperations) / sizeof(kOperations[0]);

void Check(bool condition) {
  if (!condition) std::abort();
}

// A table "Tab" (pk S, sk N) with a few items, and a hash-only table "Hsh" (id S); with capacity
// simulation on a manual clock when `capacity`. The plain database has a 1 MiB memory limit with
// the evict policy and cache expiry (large items evict), the simulated one DynamoDB's expiry.
std::unique_ptr<partstore::Database> MakeDatabase(bool capacity) {
  partstore::DatabaseOptions options;
  if (capacity) {
    options.capacity.enabled = true;
    options.capacity.clock = std::make_shared<partstore::capacity::ManualClock>();
    options.time_to_live.expiry_mode = partstore::ExpiryMode::kDynamoDb;
  } else {
    options.memory = {.limit_bytes = 1 << 20, .policy = partstore::MemoryPolicy::kEvict};
  }
  auto db = std::make_unique<partstore::Database>(std::move(options));
  protocol::Dispatch(*db, "CreateTable",
                     R"({"TableName":"Tab","BillingMode":"PAY_PER_REQUEST",)"
                     R"("AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},)"
                     R"({"AttributeName":"sk","AttributeType":"N"}],)"
                     R"("KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},)"
                     R"({"AttributeName":"sk","KeyType":"RANGE"}],)"
                     R"("StreamSpecification":{"StreamEnabled":true,)"
                     R"("StreamViewType":"NEW_AND_OLD_IMAGES"}})");
  protocol::Dispatch(*db, "CreateTable",
                     R"({"TableName":"Hsh","BillingMode":"PAY_PER_REQUEST",)"
                     R"("AttributeDefinitions":[{"AttributeName":"id","AttributeType":"S"}],)"
                     R"("KeySchema":[{"AttributeName":"id","KeyType":"HASH"}]})");
  // Sharded keys: "s" (random, 4 shards) and prefix "c" (calculated from the sort key, 3).
  protocol::Dispatch(*db, "Partstore.PutShardingPolicy",
                     R"({"TableName":"Tab","Key":"s","ShardCount":4})");
  protocol::Dispatch(*db, "Partstore.PutShardingPolicy",
                     R"({"TableName":"Tab","Key":"c","KeyMatch":"PREFIX","ShardCount":3,)"
                     R"("Strategy":"CALCULATED"})");
  for (int i = 0; i < 5; ++i) {
    protocol::Dispatch(*db, "Partstore.ShardedPutItem",
                       R"({"TableName":"Tab","Item":{"pk":{"S":"s"},"sk":{"N":")" +
                           std::to_string(i) + R"("},"v":{"N":"2"}}})");
    protocol::Dispatch(*db, "PutItem",
                       R"({"TableName":"Tab","Item":{"pk":{"S":"a"},"sk":{"N":")" +
                           std::to_string(i) +
                           R"("},"tags":{"SS":["x","y"]},"m":{"M":{"l":{"L":[{"N":"1"}]}}}}})");
  }
  return db;
}

// The body with %ARN%, %SHARD% and %ITER% replaced by the stream of "Tab", its first shard and a
// fresh iterator of that shard (only where they appear).
std::string WithStreamNames(partstore::Database& db, std::string body) {
  if (body.find('%') == std::string::npos) return body;
  auto described = db.DescribeTable({"Tab"});
  if (!described.ok() || !described->table.latest_stream_arn) return body;
  const std::string arn = *described->table.latest_stream_arn;
  std::string shard, iterator;
  if (auto stream = db.DescribeStream({.stream_arn = arn}); stream.ok()) {
    if (!stream->stream_description.shards.empty()) {
      shard = stream->stream_description.shards[0].shard_id;
      if (auto it = db.GetShardIterator({arn, shard}); it.ok()) iterator = it->shard_iterator;
    }
  }
  for (const auto& [token, value] : {std::pair<std::string_view, const std::string&>{"%ARN%", arn},
                                     {"%SHARD%", shard},
                                     {"%ITER%", iterator}}) {
    for (size_t at = body.find(token); at != std::string::npos; at = body.find(token, at)) {
      body.replace(at, token.size(), value);
      at += value.size();
    }
  }
  return body;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static std::unique_ptr<partstore::Database> plain, simulated;
  static int runs = 0;
  if (!plain || ++runs % kResetEvery == 0) {
    plain = MakeDatabase(false);
    simulated = MakeDatabase(true);
  }
  if (size == 0) return 0;

  const char first = static_cast<char>(data[0]);
  const bool lower = first >= '`' && first <= 'z';
  const char letter = lower ? static_cast<char>(first - 'a' + 'A') : first;
  std::string_view operation = kOperations[data[0] % kOperationCount].name;
  for (const Operation& op : kOperations) {
    if (op.letter == letter) operation = op.name;
  }
  // Time to Live too runs on the manual clock, where AdvanceClock sweeps (no background thread).
  const bool capacity = lower || std::string_view("ARMI$%").find(letter) != std::string_view::npos;
  partstore::Database& db = capacity ? *simulated : *plain;
  const std::string body =
      WithStreamNames(db, std::string(reinterpret_cast<const char*>(data) + 1, size - 1));

  protocol::Response response = protocol::Dispatch(db, operation, body);
  Check(response.http_status == 200 || response.http_status == 400 || response.http_status == 500);
  rapidjson::Document document;
  Check(protocol::ParseJson(response.body, &document).ok());
  Check(document.IsObject());
  if (response.http_status != 200) {
    const rapidjson::Document& object = document;  // C++20: the mutable iterators' != is ambiguous
    auto type = object.FindMember("__type");
    Check(type != object.MemberEnd() && type->value.IsString());
  }
  return 0;
}
