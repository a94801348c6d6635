// Request preparation: the checks a request's expression parameters get before any item is
// touched, and the resolved trees the operation then runs.
//
// Per operation, in DynamoDB's order (core/expr/resolve.h and legacy.h have the messages):
//   1. the mixing rule: expression and legacy parameters never together (CheckParameterMixing);
//   2. ExpressionAttributeNames / Values: only with expressions, never empty, valid keys
//      (Resolver::CheckMaps with the operation's value-taking expressions);
//   3. each expression parsed (through the ExpressionCache when there is one) and resolved, in
//      DynamoDB's order (UpdateItem: Update, Condition; Query / Scan: Filter, Projection,
//      KeyCondition);
//   4. unused names and values (Resolver::CheckAllUsed);
//   5. legacy parameters translated into the same trees (legacy.h).
// What needs the table (key schema: key conditions, filters on key attributes, keys) is checked
// by the table afterwards.
//
// A prepared request borrows the request's ExpressionAttributeValues (and legacy values): keep
// the request alive and unchanged while the prepared one is used.
//
// Thread safety: pure functions of their arguments (the cache is thread-safe).
#pragma once

#include <optional>

#include "core/expr/ast.h"
#include "core/expr/cache.h"
#include "partstore/batch_requests.h"
#include "partstore/item_requests.h"
#include "partstore/read_requests.h"
#include "partstore/status.h"

namespace partstore {

struct PreparedCondition {
  std::optional<expr::Condition> condition;  // absent: unconditional
};

struct PreparedUpdate {
  expr::UpdateExpression update;  // empty (no actions) when neither parameter is given
  std::optional<expr::Condition> condition;
};

struct PreparedProjection {
  std::optional<expr::ProjectionExpression> projection;  // absent: the whole item
};

struct PreparedRead {
  std::optional<expr::Condition> key_condition;  // Query only
  std::optional<expr::Condition> filter;
  std::optional<expr::ProjectionExpression> projection;
  // The legacy QueryFilter entries, for the key-attribute check (CheckQueryFilterKeys).
  const std::vector<expr::AttributeCondition>* query_filter = nullptr;
  Select select = Select::kAllAttributes;
};

// `table_name`: the name the request addresses (checked for form: 3..255 characters of
// [a-zA-Z0-9_.-]); the Database passes request.table_name, a Table its own name (so C++ callers of
// Table need not fill it in). `cache` may be null (parse every time).
Result<PreparedCondition> PreparePut(const PutItemRequest& request, std::string_view table_name,
                                     expr::ExpressionCache* cache);
Result<PreparedCondition> PrepareDelete(const DeleteItemRequest& request,
                                        std::string_view table_name, expr::ExpressionCache* cache);
Result<PreparedUpdate> PrepareUpdate(const UpdateItemRequest& request, std::string_view table_name,
                                     expr::ExpressionCache* cache);
Result<PreparedProjection> PrepareGet(const GetItemRequest& request, std::string_view table_name,
                                      expr::ExpressionCache* cache);
Result<PreparedProjection> PrepareKeysAndAttributes(const KeysAndAttributes& request,
                                                    expr::ExpressionCache* cache);
// Query: everything but the key-schema checks. The key condition comes from
// KeyConditionExpression; legacy KeyConditions need the key schema and are translated by the
// table (TranslateKeyConditions).
Result<PreparedRead> PrepareQuery(const QueryRequest& request, std::string_view table_name,
                                  expr::ExpressionCache* cache);
Result<PreparedRead> PrepareScan(const ScanRequest& request, std::string_view table_name,
                                 expr::ExpressionCache* cache);

// The top-level attribute names a condition's paths start with, in the order written.
void CollectTopLevelNames(const expr::Condition& condition, std::vector<std::string>* names);

}  // namespace partstore
