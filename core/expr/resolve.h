// Stage 2: bind one request's ExpressionAttributeNames and ExpressionAttributeValues to parsed
// trees (see ast.h).
//
// One Resolver serves every expression of one request (e.g. ConditionExpression +
// UpdateExpression, or KeyConditionExpression + FilterExpression + ProjectionExpression), because
// DynamoDB's "unused placeholder" errors are about the request as a whole.
//
// Errors (DynamoDB's texts, §5.4): undefined "#name" / ":value"; unused ones (CheckAllUsed);
// empty maps ("ExpressionAttributeNames must not be empty"); reserved words are a parse error;
// update paths that overlap or conflict; constant operands of the wrong type (e.g. a string
// placeholder in `a + :s`, `begins_with(a, :n)` with a number, attribute_type with an unknown
// type name, `ADD a :s` with a string); BETWEEN with constant bounds of different types or
// lower > upper; `contains(a, a)`.
//
// Thread safety: not thread-safe; one Resolver per request. The maps must outlive the resolved
// trees, which point into `values`.
#pragma once

#include <map>
#include <set>
#include <string>

#include "core/expr/ast.h"
#include "core/expr/parser.h"
#include "core/status.h"
#include "core/value.h"

namespace partstore::expr {

// ExpressionAttributeNames: "#placeholder" -> attribute name.
using NameMap = std::map<std::string, std::string, std::less<>>;

class Resolver {
 public:
  // Either map may be null (the parameter was absent). The request-level rule "must not be
  // empty" is checked by CheckMaps().
  Resolver(const NameMap* names, const AttributeMap* values);

  // Empty maps, and maps given without any expression, are errors.
  Status CheckMaps(int expression_count) const;

  Result<Condition> Resolve(const Condition& parsed, ExpressionKind kind);
  Result<UpdateExpression> Resolve(const UpdateExpression& parsed);
  Result<ProjectionExpression> Resolve(const ProjectionExpression& parsed);

  // After every expression of the request has been resolved: names or values never used.
  Status CheckAllUsed() const;

 private:
  const NameMap* names_;
  const AttributeMap* values_;
  std::set<std::string, std::less<>> used_names_;
  std::set<std::string, std::less<>> used_values_;
};

}  // namespace partstore::expr
