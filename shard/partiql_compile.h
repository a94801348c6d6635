// PartiQL statements compiled into the engine's own requests: a statement's tree (core/partiql)
// with its parameters bound becomes a QueryRequest / ScanRequest / GetItemRequest /
// PutItemRequest / UpdateItemRequest / DeleteItemRequest / ConditionCheckRequest whose
// expressions use generated placeholders (#n0.. for names, :v0.. for values). The Database then
// runs that request as it runs any other, so PartiQL has no evaluator of its own.
//
// The plan for SELECT: equality or IN on the partition key of the table (or of the index named in
// FROM) makes a Query per partition value, with one sort-key condition (=, <, <=, >, >=,
// BETWEEN, begins_with) as part of the key condition and the rest as the filter; when the rest
// names a key attribute (which a Query filter may not) or there is no partition-key condition,
// a Scan with the whole WHERE as its filter. Writes and transaction / batch reads need equality on
// every key attribute ("Where clause does not contain a mandatory equality on all key
// attributes"); the rest of their WHERE becomes the condition expression.
//
// Thread safety: free functions over values; thread-safe for distinct arguments.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/expr/ast.h"
#include "core/partiql/ast.h"
#include "partstore/partiql_requests.h"
#include "partstore/read_requests.h"
#include "partstore/status.h"
#include "partstore/table_requests.h"
#include "partstore/transaction_requests.h"

namespace partstore::internal::partiql {

// Where a statement runs: alone (ExecuteStatement), in a batch, or in a transaction (reads must
// name one item; EXISTS is allowed only here).
enum class Context : uint8_t { kSingle, kBatch, kTransaction };

struct CompiledStatement {
  enum class Kind : uint8_t { kQuery, kScan, kGet, kPut, kUpdate, kDelete, kConditionCheck };
  Kind kind = Kind::kScan;
  std::string table_name{};
  bool is_read() const { return kind == Kind::kQuery || kind == Kind::kScan || kind == Kind::kGet; }

  // kQuery: the key condition names the partition value as ":p"; one Query per value (IN).
  QueryRequest query{};
  std::vector<Value> partition_values{};
  ScanRequest scan{};
  GetItemRequest get{};
  PutItemRequest put{};
  UpdateItemRequest update{};
  DeleteItemRequest del{};
  ConditionCheckRequest check{};

  // SELECT of nested paths: the read's projection keeps the nesting (`m.a` gives {"m": {"a": ..}}),
  // but DynamoDB's answer keys each selected value by the path's last element ({"a": ..}). Each
  // selected path with its name in the answer; empty when every path is a top-level attribute, and
  // the read's items are the answer as they are.
  struct Selected {
    expr::Path path;
    std::string name;
  };
  std::vector<Selected> selected{};
};

// A SELECT's result item made from the item its read returned (CompiledStatement::selected).
Item SelectedItem(const CompiledStatement& c, Item read);

// The table a statement names (FROM / INTO / UPDATE), to describe before Compile.
const std::string& TableOf(const ::partstore::partiql::Statement& statement);

// Compiles `statement` with `parameters` bound against `table` (its description: key schema and
// indexes). ValidationException for what DynamoDB refuses before running anything: a parameter
// count that does not match, a missing key equality, an ORDER BY it cannot serve, ...
Result<CompiledStatement> Compile(const ::partstore::partiql::Statement& statement,
                                  const std::vector<Value>& parameters,
                                  const TableDescription& table, Context context);

// The NextToken of a SELECT page: the statement it belongs to, which partition value (IN) it
// stopped at, and that Query's / Scan's LastEvaluatedKey (absent: start that value afresh).
struct ContinuationToken {
  size_t partition_index = 0;
  std::optional<Item> exclusive_start_key{};
};
std::string EncodeNextToken(std::string_view statement, const ContinuationToken& token);
// ValidationException "Invalid NextToken", or "NextToken does not match request" for a token of
// another statement.
Result<ContinuationToken> DecodeNextToken(std::string_view statement, std::string_view text);

}  // namespace partstore::internal::partiql
