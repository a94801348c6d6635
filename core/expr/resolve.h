// Stage 2: bind one request's ExpressionAttributeNames and ExpressionAttributeValues to parsed
// trees (see ast.h).
//
// One Resolver serves every expression of one request (e.g. ConditionExpression +
// UpdateExpression, or KeyConditionExpression + FilterExpression + ProjectionExpression), because
// DynamoDB's "unused placeholder" errors are about the request as a whole.
//
// Errors (DynamoDB's texts, §5.4; resolve.cc has the order and the evidence): undefined "#name"
// / ":value"; unused ones (CheckAllUsed); empty maps ("ExpressionAttributeNames must not be
// empty"); update and projection paths that overlap or conflict ("Two document paths overlap
// with each other; must remove or rewrite one of these paths; path one: [a], path two: [a, b]");
// constant operands of the wrong type ("Incorrect operand type for operator or function;
// operator or function: begins_with, operand type: N", `a < :list`, size(:number), a string in
// `a + :s` or list_append, "operator: ADD, operand type: STRING, typeSet:
// ALLOWED_FOR_ADD_OPERAND"); attribute_type's type name; BETWEEN with constant bounds of
// different types or lower > upper; the same path twice ("The first operand must be distinct
// from the remaining operands for this operator or function; operator: contains, first
// operand: [a]"). Reserved words and syntax are the parser's.
//
// Operands already bound (value set, placeholder empty: legacy.h's translations) are left as
// they are.
//
// Thread safety: not thread-safe; one Resolver per request. The maps must outlive the resolved
// trees, which point into `values`.
#pragma once

#include <boost/container/small_vector.hpp>
#include <span>
#include <string>

#include "core/expr/ast.h"
#include "core/expr/parser.h"
#include "partstore/expression_parameters.h"
#include "partstore/status.h"
#include "partstore/value.h"

namespace partstore::expr {

class Resolver {
 public:
  // Either map may be null (the parameter was absent). The request-level rule "must not be
  // empty" is checked by CheckMaps().
  Resolver(const NameMap* names, const AttributeMap* values);

  // The request-level rules DynamoDB checks before parsing any expression, in its order:
  //   "ExpressionAttributeNames can only be specified when using expressions" (no expression),
  //   "ExpressionAttributeValues can only be specified when using expressions" (no expression),
  //   "ExpressionAttributeNames must not be empty", an invalid names key ("...contains invalid
  //   key: Syntax error; key: \"a\""), then the same two for ExpressionAttributeValues.
  Status CheckMaps(int expression_count) const;
  // The same with DynamoDB's operation-specific text for values given without a value-taking
  // expression, e.g. "ExpressionAttributeValues can only be specified when using expressions:
  // UpdateExpression and ConditionExpression are null". `present`: the expression parameters the
  // request carries. `value_kinds`: the operation's value-taking expression parameters in
  // DynamoDB's order: {kUpdate, kCondition} for UpdateItem, {kCondition} for PutItem, DeleteItem
  // and transaction actions, {kFilter, kKeyCondition} for Query, {kFilter} for Scan, {} for
  // GetItem-like reads (then ExpressionAttributeValues are not looked at).
  Status CheckMaps(std::span<const ExpressionKind> present,
                   std::span<const ExpressionKind> value_kinds) const;

  // Each returns a resolved copy of `parsed` or the first error in DynamoDB's order (see
  // resolve.cc), prefixed like "Invalid UpdateExpression: ". DynamoDB parses and resolves one
  // expression completely before the next, in this order: UpdateItem: Update, Condition;
  // Query / Scan: Filter, Projection, KeyCondition; then CheckAllUsed(). So callers interleave
  // Parse* and Resolve per expression in that order.
  Result<Condition> Resolve(const Condition& parsed, ExpressionKind kind);
  Result<UpdateExpression> Resolve(const UpdateExpression& parsed);
  Result<ProjectionExpression> Resolve(const ProjectionExpression& parsed);

  // After every expression of the request has been resolved: names or values never used
  // ("Value provided in ExpressionAttributeNames unused in expressions: keys: {#a, #b}", names
  // before values; keys listed in the order of DynamoDB's Java HashSet).
  Status CheckAllUsed() const;

 private:
  Status ResolvePath(Path* path, ExpressionKind kind);
  Status ResolveValue(Operand* operand, ExpressionKind kind);
  Status ResolveOperand(Operand* operand, ExpressionKind kind);
  Status ResolveCondition(Condition* condition, ExpressionKind kind);

  // The keys used so far, each once: pointers to the maps' own keys (the maps do not change
  // while a Resolver is alive). A request names a few placeholders, so a short vector searched
  // in order costs less than a set's node per key.
  using UsedKeys = boost::container::small_vector<const std::string*, 8>;
  static void MarkUsed(UsedKeys* used, const std::string& key);
  static bool Used(const UsedKeys& used, const std::string& key);

  const NameMap* names_;
  const AttributeMap* values_;
  UsedKeys used_names_;
  UsedKeys used_values_;
};

}  // namespace partstore::expr
