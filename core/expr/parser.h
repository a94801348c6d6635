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
#include "partstore/status.h"

namespace partstore::expr {

// Which request parameter an expression came from: it names the expression in messages and
// selects the grammar.
enum class ExpressionKind : uint8_t { kCondition, kFilter, kKeyCondition, kUpdate, kProjection };

// "ConditionExpression", "FilterExpression", "KeyConditionExpression", "UpdateExpression",
// "ProjectionExpression".
std::string_view ParameterName(ExpressionKind kind);
// The ValidationException "Invalid <ParameterName(kind)>: <message>".
Status InvalidExpression(ExpressionKind kind, std::string_view message);

inline constexpr size_t kMaxExpressionSize = 4096;  // bytes; 4096 is accepted, 4097 rejected
inline constexpr int kMaxOperators = 300;           // operators and functions (not parentheses)
inline constexpr size_t kMaxInOperands = 100;       // right-hand operands of IN
inline constexpr int kMaxPathDepth = 32;            // document path nesting

// kind is kCondition, kFilter or kKeyCondition. A KeyConditionExpression is parsed with the
// condition grammar, as DynamoDB does; its shape is checked by CheckKeyConditionShape() after
// resolution (see there).
//
// What is checked here, in DynamoDB's order (parser.cc has the details and the evidence):
//   1. empty, size (> 4096 UTF-16 code units, as DynamoDB measures a Java string);
//   2. syntax ("Syntax error; token: \"<token>\", near: \"<previous token to next token>\"")
//      and redundant parentheses, whichever DynamoDB's parser meets first;
//   3. unknown functions, functions in the wrong place, bare reserved words, list indexes
//      beyond 2^31-1, repeated update sections — the first in text order;
//   4. document path depth, operand counts, operand types the tree fixes (size(size(x))),
//      attribute_type's type operand not a :value, IN with more than 100 operands,
//      "requires a document path", more than 300 operators — in DynamoDB's validation order
//      (post-order; an update's actions last to first, paths before values).
// Known divergence: DynamoDB runs step 4 together with the lookups of #names and :values (our
// resolve stage), so for an expression that also has an undefined placeholder or a constant of
// the wrong type earlier in that walk, DynamoDB reports the latter and we report the former.
Result<Condition> ParseCondition(std::string_view text, ExpressionKind kind);
Result<UpdateExpression> ParseUpdate(std::string_view text);
Result<ProjectionExpression> ParseProjection(std::string_view text);

// The shape DynamoDB requires of a KeyConditionExpression: only AND, =, <, <=, >, >=, BETWEEN
// and begins_with, each on a single top-level attribute, one condition per attribute. Messages
// are DynamoDB's (they carry no "Invalid KeyConditionExpression:" prefix), e.g.
//   "Invalid operator used in KeyConditionExpression: OR"
//   "KeyConditionExpressions must only contain one condition per key"
// DynamoDB checks this after the whole request's expressions are resolved (a constant of the
// wrong type or an undefined placeholder is reported first), so call it on the resolved tree;
// "one condition per key" compares the names in the tree as they are. Defined in
// key_condition.cc (its owner's file).
Status CheckKeyConditionShape(const Condition& condition);

}  // namespace partstore::expr
