// ExecuteStatement, BatchExecuteStatement and ExecuteTransaction JSON: DynamoDB JSON 1.0 body <->
// the engine's PartiQL requests and results (partstore/partiql_requests.h).
//
// Wire shapes (AWS API reference):
//   ExecuteStatement       {"Statement", "Parameters"?: [AttributeValue...], "ConsistentRead"?,
//                           "NextToken"?, "ReturnConsumedCapacity"?, "Limit"?,
//                           "ReturnValuesOnConditionCheckFailure"?}
//     response             {"Items": [...], "NextToken"?, "ConsumedCapacity"?, "LastEvaluatedKey"?}
//   BatchExecuteStatement  {"Statements": [{"Statement", "Parameters"?, "ConsistentRead"?,
//                           "ReturnValuesOnConditionCheckFailure"?}], "ReturnConsumedCapacity"?}
//     response             {"Responses": [{"TableName"?, "Item"?} |
//                           {"Error": {"Code", "Message", "Item"?}}], "ConsumedCapacity"?: [...]}
//   ExecuteTransaction     {"TransactStatements": [{"Statement", "Parameters"?,
//                           "ReturnValuesOnConditionCheckFailure"?}], "ClientRequestToken"?,
//                           "ReturnConsumedCapacity"?}
//     response             {"Responses"?: [{"Item"?}...], "ConsumedCapacity"?: [...]}
//
// Decoding follows request_json.h's three steps (shapes, then model constraints: the required
// members, Statement's length 1..8192, Parameters' at least 1, Limit >= 1, the enums, 1..25
// Statements, 1..100 TransactStatements; then the values).
//
// Thread safety: free functions; thread-safe for distinct arguments.
#pragma once

#include <rapidjson/document.h>

#include <string>

#include "partstore/partiql_requests.h"
#include "partstore/status.h"

namespace partstore::protocol {

Result<ExecuteStatementRequest> DecodeExecuteStatementRequest(const rapidjson::Value& body);
Result<BatchExecuteStatementRequest> DecodeBatchExecuteStatementRequest(
    const rapidjson::Value& body);
Result<ExecuteTransactionRequest> DecodeExecuteTransactionRequest(const rapidjson::Value& body);
std::string EncodeExecuteStatementResult(const ExecuteStatementResult& result);
std::string EncodeBatchExecuteStatementResult(const BatchExecuteStatementResult& result);
std::string EncodeExecuteTransactionResult(const ExecuteTransactionResult& result);

}  // namespace partstore::protocol
