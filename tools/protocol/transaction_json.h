// TransactWriteItems and TransactGetItems JSON: DynamoDB JSON 1.0 body <-> the engine's
// transaction requests and results (partstore/transaction_requests.h), and the CancellationReasons
// member of TransactionCanceledException's error body.
//
// Wire shapes (AWS API reference, TransactWriteItems / TransactGetItems):
//
//   TransactWriteItems  {"TransactItems": [<TransactWriteItem>, ...], "ClientRequestToken"?,
//                        "ReturnConsumedCapacity"?, "ReturnItemCollectionMetrics"?}
//     TransactWriteItem {"ConditionCheck": {TableName, Key, ConditionExpression,
//                                           ExpressionAttributeNames?, ExpressionAttributeValues?,
//                                           ReturnValuesOnConditionCheckFailure?}}
//                     | {"Put":    {TableName, Item, ConditionExpression?, ...the same three?}}
//                     | {"Delete": {TableName, Key, ConditionExpression?, ...}}
//                     | {"Update": {TableName, Key, UpdateExpression, ConditionExpression?, ...}}
//     response          {} plus "ConsumedCapacity": [one per table] when asked for, and
//                       "ItemCollectionMetrics": {"<table>": [<metrics>, ...]} (tables with an LSI,
//                       ReturnItemCollectionMetrics=SIZE)
//   TransactGetItems    {"TransactItems": [{"Get": {TableName, Key, ProjectionExpression?,
//                                                   ExpressionAttributeNames?}}, ...],
//                        "ReturnConsumedCapacity"?}
//     response          {"Responses": [{"Item": {...}} or {} for a missing item, ...]} plus
//                       "ConsumedCapacity": [one per table] when asked for
//
// Decoding follows request_json.h's three steps. Step 1 (shape): TransactItems is a list of
// structures (a scalar element: "Unexpected value type in payload", an array element:
// "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.TransactWriteItem"), each
// action a structure member (Put, Delete, Update, ConditionCheck, Get: "Unexpected field type" /
// "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.Put"), whose members are
// checked as the single-item operations' are. Step 2 (model constraints): the required members
// of the API model ('transactItems', and per action e.g.
// 'transactItems.1.member.put.tableName', '...update.updateExpression',
// '...conditionCheck.conditionExpression', '...get'), table names, the enums. Step 3: values.
// Members that DynamoDB's transaction actions do not have (Expected, AttributeUpdates,
// ReturnValues, ...) are unknown members and ignored. Left to the engine (its messages): an
// empty or too long TransactItems, the ClientRequestToken's length, an action with zero or
// several of its four members (each such action reaches the engine as it was sent), duplicate
// items, the expressions.
//
// Thread safety: free functions; thread-safe for distinct arguments.
#pragma once

#include <rapidjson/document.h>

#include <string>
#include <vector>

#include "partstore/error_detail.h"
#include "partstore/status.h"
#include "partstore/transaction_requests.h"
#include "tools/protocol/attribute_value_json.h"

namespace partstore::protocol {

Result<TransactWriteItemsRequest> DecodeTransactWriteItemsRequest(const rapidjson::Value& body);
Result<TransactGetItemsRequest> DecodeTransactGetItemsRequest(const rapidjson::Value& body);
std::string EncodeTransactWriteItemsResult(const TransactWriteItemsResult& result);
std::string EncodeTransactGetItemsResult(const TransactGetItemsResult& result);

// The error body's "CancellationReasons" member (key and list) into the object the caller has
// started: [{"Code": "None"}, {"Code": "ConditionalCheckFailed", "Message": "...", "Item": {...}}]
// (a reason with Code "None" has no Message; Item only when the action asked for ALL_OLD and an
// item existed).
void WriteCancellationReasons(const std::vector<CancellationReason>& reasons, JsonWriter& writer);

}  // namespace partstore::protocol
