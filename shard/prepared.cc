#include "shard/prepared.h"

#include <array>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/expr/legacy.h"
#include "core/expr/parser.h"
#include "core/expr/resolve.h"
#include "shard/constraints.h"

namespace partstore {

namespace {

using expr::ExpressionKind;

template <typename T>
const T* OrNull(const std::optional<T>& value) {
  return value ? &*value : nullptr;
}

Result<expr::Condition> ConditionOf(expr::Resolver& resolver, expr::ExpressionCache* cache,
                                    std::string_view text, ExpressionKind kind) {
  std::shared_ptr<const expr::Condition> parsed;
  if (cache != nullptr) {
    PARTSTORE_ASSIGN_OR_RETURN(parsed, cache->GetCondition(text, kind));
  } else {
    PARTSTORE_ASSIGN_OR_RETURN(expr::Condition tree, expr::ParseCondition(text, kind));
    parsed = std::make_shared<const expr::Condition>(std::move(tree));
  }
  return resolver.Resolve(*parsed, kind);
}

Result<expr::UpdateExpression> UpdateOf(expr::Resolver& resolver, expr::ExpressionCache* cache,
                                        std::string_view text) {
  std::shared_ptr<const expr::UpdateExpression> parsed;
  if (cache != nullptr) {
    PARTSTORE_ASSIGN_OR_RETURN(parsed, cache->GetUpdate(text));
  } else {
    PARTSTORE_ASSIGN_OR_RETURN(expr::UpdateExpression tree, expr::ParseUpdate(text));
    parsed = std::make_shared<const expr::UpdateExpression>(std::move(tree));
  }
  return resolver.Resolve(*parsed);
}

Result<expr::ProjectionExpression> ProjectionOf(expr::Resolver& resolver,
                                                expr::ExpressionCache* cache,
                                                std::string_view text) {
  std::shared_ptr<const expr::ProjectionExpression> parsed;
  if (cache != nullptr) {
    PARTSTORE_ASSIGN_OR_RETURN(parsed, cache->GetProjection(text));
  } else {
    PARTSTORE_ASSIGN_OR_RETURN(expr::ProjectionExpression tree, expr::ParseProjection(text));
    parsed = std::make_shared<const expr::ProjectionExpression>(std::move(tree));
  }
  return resolver.Resolve(*parsed);
}

// The expression parameters a request carries (at most three: Query's), without a heap
// allocation per request.
class PresentKinds {
 public:
  void push_back(ExpressionKind kind) { kinds_[size_++] = kind; }
  bool empty() const { return size_ == 0; }
  operator std::span<const ExpressionKind>() const { return {kinds_.data(), size_}; }

 private:
  std::array<ExpressionKind, 3> kinds_{};
  size_t size_ = 0;
};

// PutItem and DeleteItem share their parameters' shapes.
template <typename Request>
Result<PreparedCondition> PrepareConditionalWrite(const Request& request,
                                                  std::string_view table_name,
                                                  expr::ExpressionCache* cache) {
  PARTSTORE_RETURN_IF_ERROR(CheckTableName(table_name));
  if (request.return_values != ReturnValue::kNone &&
      request.return_values != ReturnValue::kAllOld) {
    return Status::Validation("ReturnValues can only be ALL_OLD or NONE");
  }
  expr::RequestParameters parameters;
  parameters.expected = request.expected.has_value();
  parameters.conditional_operator = request.conditional_operator.has_value();
  parameters.condition_expression = request.condition_expression.has_value();
  PARTSTORE_RETURN_IF_ERROR(expr::CheckParameterMixing(parameters));

  expr::Resolver resolver(OrNull(request.expression_attribute_names),
                          OrNull(request.expression_attribute_values));
  PresentKinds present;
  if (request.condition_expression) present.push_back(ExpressionKind::kCondition);
  static constexpr ExpressionKind kValueKinds[] = {ExpressionKind::kCondition};
  PARTSTORE_RETURN_IF_ERROR(resolver.CheckMaps(present, kValueKinds));

  PreparedCondition out;
  if (request.condition_expression) {
    PARTSTORE_ASSIGN_OR_RETURN(
        out.condition,
        ConditionOf(resolver, cache, *request.condition_expression, ExpressionKind::kCondition));
    PARTSTORE_RETURN_IF_ERROR(resolver.CheckAllUsed());
    return out;
  }
  if (request.expected || request.conditional_operator) {
    static const std::vector<expr::ExpectedAttribute> kNone;
    PARTSTORE_ASSIGN_OR_RETURN(out.condition,
                               expr::TranslateExpected(request.expected ? *request.expected : kNone,
                                                       request.conditional_operator));
  }
  return out;
}

// The projection of GetItem and of BatchGetItem's KeysAndAttributes.
template <typename Request>
Result<PreparedProjection> PrepareProjection(const Request& request, expr::ExpressionCache* cache) {
  expr::RequestParameters parameters;
  parameters.attributes_to_get = request.attributes_to_get.has_value();
  parameters.projection_expression = request.projection_expression.has_value();
  PARTSTORE_RETURN_IF_ERROR(expr::CheckParameterMixing(parameters));

  expr::Resolver resolver(OrNull(request.expression_attribute_names), nullptr);
  PresentKinds present;
  if (request.projection_expression) present.push_back(ExpressionKind::kProjection);
  PARTSTORE_RETURN_IF_ERROR(resolver.CheckMaps(present, {}));

  PreparedProjection out;
  if (request.projection_expression) {
    PARTSTORE_ASSIGN_OR_RETURN(out.projection,
                               ProjectionOf(resolver, cache, *request.projection_expression));
    PARTSTORE_RETURN_IF_ERROR(resolver.CheckAllUsed());
  } else if (request.attributes_to_get) {
    PARTSTORE_ASSIGN_OR_RETURN(out.projection,
                               expr::TranslateAttributesToGet(*request.attributes_to_get));
  }
  return out;
}

// Select against the projection parameters (Query and Scan), DynamoDB's texts (DynamoDB Local's
// and the conformance suite's expectations agree):
//   "Cannot specify the ProjectionExpression when choosing to get ALL_ATTRIBUTES"
//   ("... to get only the Count" for COUNT; "AttributesToGet" for the legacy parameter),
//   "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName",
//   "Must specify the AttributesToGet or ProjectionExpression when choosing to get
//   SPECIFIC_ATTRIBUTES".
Result<Select> ResolveSelect(std::optional<Select> select, bool has_index, bool projection,
                             bool attributes_to_get) {
  if (select && *select != Select::kSpecificAttributes && (projection || attributes_to_get)) {
    return Status::Validation(std::string("Cannot specify the ") +
                              (projection ? "ProjectionExpression" : "AttributesToGet") +
                              " when choosing to get " +
                              (*select == Select::kCount ? std::string("only the Count")
                                                         : std::string(SelectName(*select))));
  }
  if (select == Select::kAllProjectedAttributes && !has_index) {
    return Status::Validation(
        "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName");
  }
  if (select == Select::kSpecificAttributes && !projection && !attributes_to_get) {
    return Status::Validation(
        "Must specify the AttributesToGet or ProjectionExpression when choosing to get "
        "SPECIFIC_ATTRIBUTES");
  }
  if (select) return *select;
  if (projection || attributes_to_get) return Select::kSpecificAttributes;
  return has_index ? Select::kAllProjectedAttributes : Select::kAllAttributes;
}

// The expression half of Query and Scan, in DynamoDB's order: the maps, then Filter, Projection
// and KeyCondition each parsed and resolved, unused placeholders, then the legacy filter and
// AttributesToGet translated.
template <typename Request>
Status PrepareReadExpressions(const Request& request,
                              const std::optional<std::string>& key_condition_expression,
                              const std::optional<std::vector<expr::AttributeCondition>>& filter,
                              std::span<const ExpressionKind> value_kinds,
                              expr::ExpressionCache* cache, PreparedRead* out) {
  expr::Resolver resolver(OrNull(request.expression_attribute_names),
                          OrNull(request.expression_attribute_values));
  PresentKinds present;
  if (request.filter_expression) present.push_back(ExpressionKind::kFilter);
  if (request.projection_expression) present.push_back(ExpressionKind::kProjection);
  if (key_condition_expression) present.push_back(ExpressionKind::kKeyCondition);
  PARTSTORE_RETURN_IF_ERROR(resolver.CheckMaps(present, value_kinds));

  if (request.filter_expression) {
    PARTSTORE_ASSIGN_OR_RETURN(out->filter, ConditionOf(resolver, cache, *request.filter_expression,
                                                        ExpressionKind::kFilter));
  }
  if (request.projection_expression) {
    PARTSTORE_ASSIGN_OR_RETURN(out->projection,
                               ProjectionOf(resolver, cache, *request.projection_expression));
  }
  if (key_condition_expression) {
    PARTSTORE_ASSIGN_OR_RETURN(
        out->key_condition,
        ConditionOf(resolver, cache, *key_condition_expression, ExpressionKind::kKeyCondition));
  }
  if (!present.empty()) PARTSTORE_RETURN_IF_ERROR(resolver.CheckAllUsed());

  if (filter || (request.conditional_operator && !request.filter_expression)) {
    static const std::vector<expr::AttributeCondition> kNone;
    PARTSTORE_ASSIGN_OR_RETURN(
        out->filter, expr::TranslateFilter(filter ? *filter : kNone, request.conditional_operator));
  }
  if (request.attributes_to_get) {
    PARTSTORE_ASSIGN_OR_RETURN(out->projection,
                               expr::TranslateAttributesToGet(*request.attributes_to_get));
  }
  return Status::Ok();
}

}  // namespace

Result<PreparedCondition> PreparePut(const PutItemRequest& request, std::string_view table_name,
                                     expr::ExpressionCache* cache) {
  return PrepareConditionalWrite(request, table_name, cache);
}

Result<PreparedCondition> PrepareDelete(const DeleteItemRequest& request,
                                        std::string_view table_name, expr::ExpressionCache* cache) {
  return PrepareConditionalWrite(request, table_name, cache);
}

Result<PreparedUpdate> PrepareUpdate(const UpdateItemRequest& request, std::string_view table_name,
                                     expr::ExpressionCache* cache) {
  PARTSTORE_RETURN_IF_ERROR(CheckTableName(table_name));
  expr::RequestParameters parameters;
  parameters.attribute_updates = request.attribute_updates.has_value();
  parameters.expected = request.expected.has_value();
  parameters.conditional_operator = request.conditional_operator.has_value();
  parameters.update_expression = request.update_expression.has_value();
  parameters.condition_expression = request.condition_expression.has_value();
  PARTSTORE_RETURN_IF_ERROR(expr::CheckParameterMixing(parameters));

  expr::Resolver resolver(OrNull(request.expression_attribute_names),
                          OrNull(request.expression_attribute_values));
  PresentKinds present;
  if (request.update_expression) present.push_back(ExpressionKind::kUpdate);
  if (request.condition_expression) present.push_back(ExpressionKind::kCondition);
  static constexpr ExpressionKind kValueKinds[] = {ExpressionKind::kUpdate,
                                                   ExpressionKind::kCondition};
  PARTSTORE_RETURN_IF_ERROR(resolver.CheckMaps(present, kValueKinds));

  PreparedUpdate out;
  if (!present.empty()) {
    if (request.update_expression) {
      PARTSTORE_ASSIGN_OR_RETURN(out.update, UpdateOf(resolver, cache, *request.update_expression));
    }
    if (request.condition_expression) {
      PARTSTORE_ASSIGN_OR_RETURN(
          out.condition,
          ConditionOf(resolver, cache, *request.condition_expression, ExpressionKind::kCondition));
    }
    PARTSTORE_RETURN_IF_ERROR(resolver.CheckAllUsed());
    return out;
  }
  if (request.attribute_updates) {
    PARTSTORE_ASSIGN_OR_RETURN(out.update,
                               expr::TranslateAttributeUpdates(*request.attribute_updates));
  }
  if (request.expected || request.conditional_operator) {
    static const std::vector<expr::ExpectedAttribute> kNone;
    PARTSTORE_ASSIGN_OR_RETURN(out.condition,
                               expr::TranslateExpected(request.expected ? *request.expected : kNone,
                                                       request.conditional_operator));
  }
  return out;
}

Result<PreparedProjection> PrepareGet(const GetItemRequest& request, std::string_view table_name,
                                      expr::ExpressionCache* cache) {
  PARTSTORE_RETURN_IF_ERROR(CheckTableName(table_name));
  return PrepareProjection(request, cache);
}

Result<PreparedProjection> PrepareKeysAndAttributes(const KeysAndAttributes& request,
                                                    expr::ExpressionCache* cache) {
  return PrepareProjection(request, cache);
}

Result<PreparedRead> PrepareQuery(const QueryRequest& request, std::string_view table_name,
                                  expr::ExpressionCache* cache) {
  ConstraintViolations violations;
  violations.TableName(table_name);
  if (request.index_name) violations.Name(*request.index_name, "indexName");
  if (request.limit) violations.Range(*request.limit, 1, INT32_MAX, "limit");
  PARTSTORE_RETURN_IF_ERROR(violations.ToStatus());

  expr::RequestParameters parameters;
  parameters.attributes_to_get = request.attributes_to_get.has_value();
  parameters.query_filter = request.query_filter.has_value();
  parameters.conditional_operator = request.conditional_operator.has_value();
  parameters.key_conditions = request.key_conditions.has_value();
  parameters.projection_expression = request.projection_expression.has_value();
  parameters.filter_expression = request.filter_expression.has_value();
  parameters.key_condition_expression = request.key_condition_expression.has_value();
  PARTSTORE_RETURN_IF_ERROR(expr::CheckParameterMixing(parameters));

  PreparedRead out;
  PARTSTORE_ASSIGN_OR_RETURN(out.select,
                             ResolveSelect(request.select, request.index_name.has_value(),
                                           request.projection_expression.has_value(),
                                           request.attributes_to_get.has_value()));

  if (!request.key_condition_expression && !request.key_conditions) {
    return Status::Validation(
        "Either the KeyConditions or KeyConditionExpression parameter must be specified in the "
        "request.");
  }

  static constexpr ExpressionKind kValueKinds[] = {ExpressionKind::kFilter,
                                                   ExpressionKind::kKeyCondition};
  PARTSTORE_RETURN_IF_ERROR(PrepareReadExpressions(request, request.key_condition_expression,
                                                   request.query_filter, kValueKinds, cache, &out));
  if (request.query_filter) out.query_filter = &*request.query_filter;
  return out;
}

Result<PreparedRead> PrepareScan(const ScanRequest& request, std::string_view table_name,
                                 expr::ExpressionCache* cache) {
  ConstraintViolations violations;
  violations.TableName(table_name);
  if (request.index_name) violations.Name(*request.index_name, "indexName");
  if (request.limit) violations.Range(*request.limit, 1, INT32_MAX, "limit");
  if (request.segment) violations.Range(*request.segment, 0, 999999, "segment");
  if (request.total_segments)
    violations.Range(*request.total_segments, 1, 1000000, "totalSegments");
  PARTSTORE_RETURN_IF_ERROR(violations.ToStatus());
  if (request.segment && !request.total_segments) {
    return Status::Validation(
        "The TotalSegments parameter is required but was not present in the request when Segment "
        "parameter is present");
  }
  if (request.total_segments && !request.segment) {
    return Status::Validation(
        "The Segment parameter is required but was not present in the request when parameter "
        "TotalSegments is present");
  }
  if (request.segment && *request.segment >= *request.total_segments) {
    return Status::Validation(
        "The Segment parameter is zero-based and must be less than parameter TotalSegments: "
        "Segment: " +
        std::to_string(*request.segment) +
        " is not less than TotalSegments: " + std::to_string(*request.total_segments));
  }

  expr::RequestParameters parameters;
  parameters.attributes_to_get = request.attributes_to_get.has_value();
  parameters.scan_filter = request.scan_filter.has_value();
  parameters.conditional_operator = request.conditional_operator.has_value();
  parameters.projection_expression = request.projection_expression.has_value();
  parameters.filter_expression = request.filter_expression.has_value();
  PARTSTORE_RETURN_IF_ERROR(expr::CheckParameterMixing(parameters));

  PreparedRead out;
  PARTSTORE_ASSIGN_OR_RETURN(out.select,
                             ResolveSelect(request.select, request.index_name.has_value(),
                                           request.projection_expression.has_value(),
                                           request.attributes_to_get.has_value()));

  static const std::optional<std::string> kNoKeyCondition;
  static constexpr ExpressionKind kValueKinds[] = {ExpressionKind::kFilter};
  PARTSTORE_RETURN_IF_ERROR(PrepareReadExpressions(request, kNoKeyCondition, request.scan_filter,
                                                   kValueKinds, cache, &out));
  return out;
}

namespace {

void CollectOperandNames(const expr::Operand& operand, std::vector<std::string>* names) {
  if (operand.kind == expr::OperandKind::kPath) names->push_back(operand.path.top());
  for (const expr::Operand& argument : operand.args) CollectOperandNames(argument, names);
}

}  // namespace

void CollectTopLevelNames(const expr::Condition& condition, std::vector<std::string>* names) {
  for (const expr::Operand& operand : condition.operands) CollectOperandNames(operand, names);
  for (const expr::Condition& child : condition.children) CollectTopLevelNames(child, names);
}

}  // namespace partstore
