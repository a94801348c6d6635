// What RemoteStore reads from a server, fed any bytes: the first byte picks the reader, the rest
// is the response body. Every reader must return a value or a Status (never crash, assert, throw
// or run away), whatever the body:
//   0     DecodeErrorResponse (an error body, with the status 400 or 500 from the next byte)
//   1..   ParseJson, then one operation's Decode<Op>Result (kDecoders below)
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tools/protocol/attribute_value_json.h"
#include "tools/protocol/client_control_json.h"
#include "tools/protocol/client_data_json.h"
#include "tools/protocol/error_json.h"

namespace {

using namespace partstore;  // NOLINT: a fuzz target
using Decoder = void (*)(const rapidjson::Value&);

template <typename R, Result<R> (*decode)(const rapidjson::Value&)>
void Run(const rapidjson::Value& body) {
  Result<R> result = decode(body);
  (void)result.ok();
}

namespace p = partstore::protocol;
const Decoder kDecoders[] = {
    Run<PutItemResult, p::DecodePutItemResult>,
    Run<GetItemResult, p::DecodeGetItemResult>,
    Run<UpdateItemResult, p::DecodeUpdateItemResult>,
    Run<DeleteItemResult, p::DecodeDeleteItemResult>,
    Run<ReadPageResult, p::DecodeReadPageResult>,
    Run<BatchGetItemResult, p::DecodeBatchGetItemResult>,
    Run<BatchWriteItemResult, p::DecodeBatchWriteItemResult>,
    Run<TransactWriteItemsResult, p::DecodeTransactWriteItemsResult>,
    Run<TransactGetItemsResult, p::DecodeTransactGetItemsResult>,
    Run<ExecuteStatementResult, p::DecodeExecuteStatementResult>,
    Run<BatchExecuteStatementResult, p::DecodeBatchExecuteStatementResult>,
    Run<ExecuteTransactionResult, p::DecodeExecuteTransactionResult>,
    Run<CreateTableResult, p::DecodeCreateTableResult>,
    Run<DescribeTableResult, p::DecodeDescribeTableResult>,
    Run<ListTablesResult, p::DecodeListTablesResult>,
    Run<UpdateTableResult, p::DecodeUpdateTableResult>,
    Run<DeleteTableResult, p::DecodeDeleteTableResult>,
    Run<DescribeTimeToLiveResult, p::DecodeDescribeTimeToLiveResult>,
    Run<ListTagsOfResourceResult, p::DecodeListTagsOfResourceResult>,
    Run<DescribeBackupResult, p::DecodeDescribeBackupResult>,
    Run<ListBackupsResult, p::DecodeListBackupsResult>,
    Run<ContinuousBackupsResult, p::DecodeDescribeContinuousBackupsResult>,
    Run<DescribeStreamResult, p::DecodeDescribeStreamResult>,
    Run<GetRecordsResult, p::DecodeGetRecordsResult>,
    Run<ListStreamsResult, p::DecodeListStreamsResult>,
    Run<DescribeContributorInsightsResult, p::DecodeDescribeContributorInsightsResult>,
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const std::string_view body(reinterpret_cast<const char*>(data) + 2, size - 2);
  const size_t pick = data[0] % (std::size(kDecoders) + 1);
  if (pick == 0) {
    Status status = p::DecodeErrorResponse(data[1] % 2 == 0 ? 400 : 500, body, "fuzz");
    (void)status.ok();
    return 0;
  }
  rapidjson::Document document;
  if (!p::ParseJson(body, &document).ok()) return 0;
  kDecoders[pick - 1](document);
  return 0;
}
