// Stage 1: expression text -> syntax tree (see ast.h). Pure functions of the text.
//
// Grammars, limits and messages: reference/dynamodb-semantics.md §5. Errors are
// ValidationExceptions whose messages are DynamoDB's, prefixed by the parameter, e.g.
//   "Invalid ConditionExpression: Syntax error; token: \"AND\", near: \"a AND\""
//   "Invalid UpdateExpression: The \"SET\" section can only be used once in an update expression;"
//   "Invalid ProjectionExpression: Attribute name is a reserved keyword; reserved keyword: name"
//
// Thread safety: pure functions; thread-safe.
#pragma once

#include <cstddef>
#include <string_view>

#include "core/expr/ast.h"
#include "core/status.h"

namespace partstore::expr {

// Which request parameter an expression came from: it names the expression in messages and
// selects the grammar.
enum class ExpressionKind : uint8_t { kCondition, kFilter, kKeyCondition, kUpdate, kProjection };

// "ConditionExpression", "FilterExpression", "KeyConditionExpression", "UpdateExpression",
// "ProjectionExpression".
std::string_view ParameterName(ExpressionKind kind);

inline constexpr size_t kMaxExpressionSize = 4096;  // bytes; 4096 is accepted, 4097 rejected
inline constexpr int kMaxOperators = 300;           // operators and functions (not parentheses)
inline constexpr size_t kMaxInOperands = 100;       // right-hand operands of IN
inline constexpr int kMaxPathDepth = 32;            // document path nesting

// kind is kCondition, kFilter or kKeyCondition (the key-condition grammar is checked here for
// its shape; which attributes are keys is checked by AnalyzeKeyCondition).
Result<Condition> ParseCondition(std::string_view text, ExpressionKind kind);
Result<UpdateExpression> ParseUpdate(std::string_view text);
Result<ProjectionExpression> ParseProjection(std::string_view text);

}  // namespace partstore::expr
