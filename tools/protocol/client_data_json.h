// The data plane's client side: each item, read, batch, transaction and PartiQL operation's
// request encoder and result decoder, the reverse of operations_json.h / transaction_json.h /
// partiql_json.h. Each encoder sits beside its operation's request decoder and each decoder
// beside its result encoder (item_json.cc, read_json.cc, batch_json.cc, transaction_json.cc,
// partiql_json.cc), so that both directions of one shape are read and changed together.
//
// Encoders write the request body an AWS SDK sends, as DynamoDB JSON 1.0: DynamoDB's member names,
// in the order of the decoder's member table; an absent std::optional member is omitted; an enum
// member holding the value DynamoDB assumes when it is absent (ReturnValues NONE,
// ReturnValuesOnConditionCheckFailure NONE, ReturnConsumedCapacity NONE,
// ReturnItemCollectionMetrics NONE) and ConsistentRead false are omitted; items, keys and
// AttributeValues go through WriteItem / WriteAttributeValue. Encoding never fails and validates
// nothing: the server does. A struct member the operation's wire shape has no place for is not
// written: in a transaction action, the legacy members (Expected, ConditionalOperator,
// AttributeUpdates) and ReturnValues / ReturnConsumedCapacity / ReturnItemCollectionMetrics of the
// reused single-item structs; in a TransactGetItem, ConsistentRead, AttributesToGet and
// ReturnConsumedCapacity. The engine refuses a transaction with legacy members; a client must
// refuse them before encoding, or the condition is silently lost.
//
// Decoders read the body of a 200 response, parsed with ParseJson, with the reader in
// response_reader.h (a body from a remote server is not trusted; its rules: any input gives a
// value or a Status, never a crash, no recursion deeper than DecodeItem's nesting limit). Beyond
// them:
//   - an absent member leaves the struct's default: an absent Count is 0, a Query / Scan page
//     without Items has items_omitted (Select=COUNT), an ExecuteTransaction without Responses
//     has responses == nullopt;
//   - CapacityUnits must be a non-negative number; it is kept as half units, a value between two
//     halves rounded up (DynamoDB reports multiples of 0.5).
//
// Thread safety: free functions; thread-safe for distinct arguments. MemberWriter and JsonBody are
// not thread-safe.
#pragma once

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "partstore/batch_requests.h"
#include "partstore/consumed_capacity.h"
#include "partstore/expression_parameters.h"
#include "partstore/item.h"
#include "partstore/item_requests.h"
#include "partstore/partiql_requests.h"
#include "partstore/read_requests.h"
#include "partstore/status.h"
#include "partstore/transaction_requests.h"
#include "tools/protocol/attribute_value_json.h"
#include "tools/protocol/response_reader.h"

namespace partstore::protocol {

// ---- Items (item_json.cc) ----
std::string EncodePutItemRequest(const PutItemRequest& request);
std::string EncodeGetItemRequest(const GetItemRequest& request);
std::string EncodeUpdateItemRequest(const UpdateItemRequest& request);
std::string EncodeDeleteItemRequest(const DeleteItemRequest& request);
Result<PutItemResult> DecodePutItemResult(const rapidjson::Value& body);
Result<GetItemResult> DecodeGetItemResult(const rapidjson::Value& body);
Result<UpdateItemResult> DecodeUpdateItemResult(const rapidjson::Value& body);
Result<DeleteItemResult> DecodeDeleteItemResult(const rapidjson::Value& body);

// ---- Query and Scan (read_json.cc) ----
std::string EncodeQueryRequest(const QueryRequest& request);
std::string EncodeScanRequest(const ScanRequest& request);
// Query's and Scan's answer alike (messages name the operation "Query/Scan").
Result<ReadPageResult> DecodeReadPageResult(const rapidjson::Value& body);

// ---- Batches (batch_json.cc) ----
std::string EncodeBatchGetItemRequest(const BatchGetItemRequest& request);
std::string EncodeBatchWriteItemRequest(const BatchWriteItemRequest& request);
// Tables in the body's member order.
Result<BatchGetItemResult> DecodeBatchGetItemResult(const rapidjson::Value& body);
Result<BatchWriteItemResult> DecodeBatchWriteItemResult(const rapidjson::Value& body);

// ---- Transactions (transaction_json.cc) ----
std::string EncodeTransactWriteItemsRequest(const TransactWriteItemsRequest& request);
std::string EncodeTransactGetItemsRequest(const TransactGetItemsRequest& request);
Result<TransactWriteItemsResult> DecodeTransactWriteItemsResult(const rapidjson::Value& body);
Result<TransactGetItemsResult> DecodeTransactGetItemsResult(const rapidjson::Value& body);

// ---- PartiQL (partiql_json.cc) ----
std::string EncodeExecuteStatementRequest(const ExecuteStatementRequest& request);
std::string EncodeBatchExecuteStatementRequest(const BatchExecuteStatementRequest& request);
std::string EncodeExecuteTransactionRequest(const ExecuteTransactionRequest& request);
Result<ExecuteStatementResult> DecodeExecuteStatementResult(const rapidjson::Value& body);
// A statement's Error is kept as sent: its Code is any string (BatchStatementError.code).
Result<BatchExecuteStatementResult> DecodeBatchExecuteStatementResult(const rapidjson::Value& body);
Result<ExecuteTransactionResult> DecodeExecuteTransactionResult(const rapidjson::Value& body);

// ---- Shared pieces of the encoders (request_json.cc) ----

// A whole JSON text being written: the buffer and its writer.
class JsonBody {
 public:
  JsonBody() : writer_(buffer_) {}
  JsonBody(const JsonBody&) = delete;
  JsonBody& operator=(const JsonBody&) = delete;

  JsonWriter& writer() { return writer_; }
  // The text written so far. REQUIRES: one complete JSON value has been written.
  std::string Text() const { return {buffer_.GetString(), buffer_.GetSize()}; }

 private:
  rapidjson::StringBuffer buffer_;
  JsonWriter writer_;
};

// Writes request members ("key": value) into the object the caller has started. The Optional*
// and enum forms write nothing for an absent value or for the enum's `omitted` value.
class MemberWriter {
 public:
  explicit MemberWriter(JsonWriter& writer) : w_(writer) {}

  void Key(std::string_view key);
  void String(std::string_view key, std::string_view value);
  void OptionalString(std::string_view key, const std::optional<std::string>& value);
  void Item(std::string_view key, const partstore::Item& item);
  void OptionalItem(std::string_view key, const std::optional<partstore::Item>& item);
  // Written only when true.
  void TrueBool(std::string_view key, bool value);
  void OptionalBool(std::string_view key, std::optional<bool> value);
  void OptionalInt(std::string_view key, std::optional<int32_t> value);
  void NameMap(std::string_view key, const std::optional<expr::NameMap>& names);
  void ValueMap(std::string_view key, const std::optional<AttributeMap>& values);
  void StringList(std::string_view key, const std::optional<std::vector<std::string>>& list);
  void ValueList(std::string_view key, const std::optional<std::vector<Value>>& list);
  // Legacy members: {"name": {"Value"?, "Exists"?, "ComparisonOperator"?,
  // "AttributeValueList"?}}, {"name": {"AttributeValueList"? (omitted when empty),
  // "ComparisonOperator"}}, {"name": {"Value"?, "Action"?}}.
  void Expected(std::string_view key,
                const std::optional<std::vector<expr::ExpectedAttribute>>& expected);
  void Conditions(std::string_view key,
                  const std::optional<std::vector<expr::AttributeCondition>>& conditions);
  void AttributeUpdates(std::string_view key,
                        const std::optional<std::vector<expr::AttributeUpdate>>& updates);
  void OptionalConditionalOperator(std::string_view key,
                                   std::optional<expr::ConditionalOperator> op);
  // `names` holds the enum's spellings, index = value (request_json.h's k*Names tables).
  template <typename E>
  void Enum(std::string_view key, E value, std::span<const std::string_view> names, E omitted) {
    if (value != omitted) EnumName(key, static_cast<size_t>(value), names);
  }
  template <typename E>
  void OptionalEnum(std::string_view key, std::optional<E> value,
                    std::span<const std::string_view> names) {
    if (value) EnumName(key, static_cast<size_t>(*value), names);
  }

  JsonWriter& writer() { return w_; }

 private:
  void EnumName(std::string_view key, size_t index, std::span<const std::string_view> names);

  JsonWriter& w_;
};

// ---- Shared pieces of the decoders (consumed_capacity_json.cc) ----

// The member `member`, one ConsumedCapacity object as WriteConsumedCapacity writes it.
void ReadConsumedCapacity(const ResponseObject& object, std::string_view member,
                          std::optional<ConsumedCapacity>* out);
// The multi-table forms, as WriteConsumedCapacityList / WriteItemCollectionMetricsByTable write
// them: "ConsumedCapacity": [...], "ItemCollectionMetrics": {table: [...]}.
void ReadConsumedCapacityList(const ResponseObject& object, std::vector<ConsumedCapacity>* out);
void ReadItemCollectionMetricsByTable(
    const ResponseObject& object,
    std::vector<std::pair<std::string, std::vector<ItemCollectionMetrics>>>* out);
// "ItemCollectionMetrics": one object, as WriteItemCollectionMetrics writes it.
void ReadItemCollectionMetrics(const ResponseObject& object,
                               std::optional<ItemCollectionMetrics>* out);
// A list of {"Item"?} objects (TransactGetItems' and ExecuteTransaction's Responses): per
// element the item, or nullopt for one without an item (or a null element).
void ReadItemResponses(const ResponseObject& object, std::string_view member,
                       std::vector<std::optional<Item>>* out);

}  // namespace partstore::protocol
