// DynamoDB's legacy (pre-expression) request parameters as typed structs, and their translation
// into the same resolved trees the expression stages produce (ast.h), so that one evaluator
// (evaluate.h), one update engine (update.h), one projection (projection.h) and one key-condition
// analysis (key_condition.h) serve both styles.
//
//   Expected + ConditionalOperator        -> Condition            TranslateExpected
//   QueryFilter / ScanFilter + ConditionalOperator -> Condition   TranslateFilter
//   KeyConditions                         -> key Condition        TranslateKeyConditions
//   AttributesToGet                       -> ProjectionExpression TranslateAttributesToGet
//   AttributeUpdates                      -> UpdateExpression     TranslateAttributeUpdates
//   the "Can not use both expression and non-expression parameters" rule: CheckParameterMixing
//
// The wire layer decodes JSON into these structs (keeping the JSON map order: messages name the
// first offending attribute) and validates each AttributeValue on its own (empty sets, numbers,
// ...) and the enum spellings (an unknown ComparisonOperator is a "1 validation error detected"
// model error there). Everything else is checked here, with DynamoDB's messages and order.
//
// Semantics are DynamoDB's legacy ones, expressed in expression terms: EQ / NE / LT / LE / GT /
// GE / BETWEEN / IN / BEGINS_WITH / CONTAINS map to the expression comparators and functions
// (same rules for missing attributes and mismatched types: NE is true on a missing attribute,
// the others false); NULL / NOT_NULL are attribute_not_exists / attribute_exists (they test
// presence, not the NULL type); NOT_CONTAINS is false on a missing attribute, so it becomes
// `attribute_exists(a) AND NOT contains(a, v)`. AttributeUpdates ADD also appends lists, which
// UpdateExpression's ADD refuses; the tree carries UpdateExpression::from_attribute_updates.
//
// Lifetime: a translated tree points into the struct it came from (Operand::value), exactly as a
// resolved expression points into ExpressionAttributeValues. Keep the input alive and unchanged
// while the tree is used.
//
// Thread safety: pure functions; thread-safe for const arguments.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/expr/ast.h"
#include "partstore/expression_parameters.h"
#include "partstore/key.h"
#include "partstore/status.h"
#include "partstore/value.h"

namespace partstore::expr {

// ---- The parameters' names (the parameters: partstore/expression_parameters.h) ----

// "EQ", "NOT_NULL", "BEGINS_WITH", ...
std::string_view ComparisonOperatorName(ComparisonOperator op);
// Case-sensitive, as DynamoDB ("eq" is not an operator). nullopt for an unknown name.
std::optional<ComparisonOperator> ComparisonOperatorFromName(std::string_view name);
std::string_view ConditionalOperatorName(ConditionalOperator op);
std::optional<ConditionalOperator> ConditionalOperatorFromName(std::string_view name);
std::string_view AttributeActionName(AttributeAction action);
std::optional<AttributeAction> AttributeActionFromName(std::string_view name);

// ---- Translations -------------------------------------------------------------------------

// Expected + ConditionalOperator (PutItem, UpdateItem, DeleteItem). nullopt: no condition
// (Expected absent or {}: the write is unconditional). Per entry, in DynamoDB's order
// ("One or more parameter values were invalid: " + ...):
//   "Exists and ComparisonOperator cannot be used together for Attribute: a",
//   "Value and AttributeValueList cannot be used together for Attribute: a",
//   "AttributeValueList can only be used with a ComparisonOperator for Attribute: a",
//   "Value cannot be used when Exists is false for Attribute: a",
//   "Value or AttributeValueList must be used with ComparisonOperator: LT for Attribute: a",
//   "Value must be provided when Exists is null for Attribute: a" (or "... is true ..."),
// then the operator's arguments (see CheckComparisonArguments); after all entries the
// ConditionalOperator rule (see CheckConditionalOperator). Call it (with no entries) also when
// Expected is absent but ConditionalOperator is present: that is an error too.
Result<std::optional<Condition>> TranslateExpected(
    std::span<const ExpectedAttribute> expected,
    std::optional<ConditionalOperator> conditional_operator);

// QueryFilter or ScanFilter + ConditionalOperator. nullopt: no filter (absent or {}). Checks each
// entry's arguments, then the ConditionalOperator rule (so call it, with no entries, also when
// only ConditionalOperator is present). For a Query, DynamoDB's order is: this, then
// TranslateKeyConditions, then CheckQueryFilterKeys.
Result<std::optional<Condition>> TranslateFilter(
    std::span<const AttributeCondition> filter,
    std::optional<ConditionalOperator> conditional_operator);

// QueryFilter may not name a key attribute of the table or index queried:
// "QueryFilter can only contain non-primary key attributes: Primary key attribute: pk"
// (partition key checked before sort key).
Status CheckQueryFilterKeys(std::span<const AttributeCondition> filter, const KeySchema& schema);

// KeyConditions -> `pk = v` or `pk = v AND <sort key condition>`, the shape
// AnalyzeKeyCondition (key_condition.h) takes. `schema` is the table's or the queried index's.
// Checks, in DynamoDB's order: each entry's arguments; "Conditions can be of length 1 or 2
// only"; then per key attribute (partition first): "Query key condition not supported" (two
// conditions on a table without sort key), "Query condition missed key schema element: sk",
// "Attempted conditional constraint is not an indexable operation" (NE, IN, NULL, NOT_NULL,
// CONTAINS, NOT_CONTAINS), "One or more parameter values were invalid: Condition parameter type
// does not match schema type", "Query key condition not supported" (partition key not EQ).
Result<Condition> TranslateKeyConditions(std::span<const AttributeCondition> conditions,
                                         const KeySchema& schema);

// AttributesToGet -> a projection of top-level names (GetItem, BatchGetItem, Query, Scan).
// "One or more parameter values were invalid: Duplicate value in attribute name: a". (The
// list's length bounds 1..255 are wire-model constraints, checked by the wire layer.)
Result<ProjectionExpression> TranslateAttributesToGet(std::span<const std::string> names);

// AttributeUpdates -> an UpdateExpression with from_attribute_updates set: PUT -> SET a = v,
// ADD -> ADD a v (numbers, sets, and lists, which it appends), DELETE with a value -> DELETE a v,
// DELETE without -> REMOVE a. Per entry ("One or more parameter values were invalid: " + ...):
//   "Only DELETE action is allowed when no attribute value is specified",
//   "DELETE action with value is not supported for the type S",
//   "ADD action is not supported for the type S".
// Key attributes are rejected by ApplyUpdate, with UpdateExpression's message. An empty map is a
// valid update with no actions (UpdateItem then creates the key-only item).
Result<UpdateExpression> TranslateAttributeUpdates(std::span<const AttributeUpdate> updates);

// ---- Shared rules -------------------------------------------------------------------------

// The arguments of a ComparisonOperator, in DynamoDB's order ("One or more parameter values
// were invalid: " + ...): their number ("Invalid number of argument(s) for the BETWEEN
// ComparisonOperator": 1 for EQ NE LT LE GT GE CONTAINS NOT_CONTAINS BEGINS_WITH, 0 for NULL and
// NOT_NULL, at least 1 for IN, 2 for BETWEEN); each one's type ("ComparisonOperator LT is not
// valid for SS AttributeValue type": S/N/B for LT LE GT GE IN BETWEEN, S/B for BEGINS_WITH,
// S/N/B/BOOL/NULL for CONTAINS and NOT_CONTAINS, anything for EQ and NE) and sameness
// ("AttributeValues inside AttributeValueList must be of same type"); then BETWEEN's order
// ("The BETWEEN condition was provided a range where the lower bound is greater than the upper
// bound", no prefix).
Status CheckComparisonArguments(ComparisonOperator op, std::span<const Value> arguments);

// ConditionalOperator needs two or more Expected / filter entries:
// "ConditionalOperator cannot be used without Filter or Expected" (none, or the map absent),
// "ConditionalOperator can only be used when Filter or Expected has two or more elements" (one).
Status CheckConditionalOperator(std::optional<ConditionalOperator> conditional_operator,
                                size_t condition_count);

// Which parameters a request carries: present on the wire, even if empty ({} or "").
struct RequestParameters {
  // Non-expression (legacy) parameters.
  bool attribute_updates = false;
  bool attributes_to_get = false;
  bool expected = false;
  bool query_filter = false;
  bool scan_filter = false;
  bool conditional_operator = false;
  bool key_conditions = false;
  // Expression parameters.
  bool update_expression = false;
  bool projection_expression = false;
  bool condition_expression = false;
  bool filter_expression = false;
  bool key_condition_expression = false;
};

// DynamoDB's mixing rule, checked before anything else about the expressions:
//   "Can not use both expression and non-expression parameters in the same request:
//    Non-expression parameters: {AttributeUpdates, Expected, ConditionalOperator} Expression
//    parameters: {UpdateExpression, ConditionExpression}"
// Each side lists what the request has, in a fixed order: AttributeUpdates, AttributesToGet,
// Expected, QueryFilter, ScanFilter, ConditionalOperator, KeyConditions / UpdateExpression,
// ProjectionExpression, ConditionExpression, FilterExpression, KeyConditionExpression.
// KeyConditions counts only when KeyConditionExpression is present too (KeyConditions with
// FilterExpression or ProjectionExpression is accepted). Every pair is checked, across concerns
// (ScanFilter with ProjectionExpression is rejected too). Pass only the parameters the operation
// defines.
Status CheckParameterMixing(const RequestParameters& parameters);

}  // namespace partstore::expr
