// Evidence for the messages and their order (see legacy.h for the rules):
//  - Expected entry checks and their order, ConditionalOperator counts, the argument checks
//    (count, per-value type, same type, BETWEEN order), the AttributeUpdates action checks and
//    the mixing rule's parameter order: DynamoDB Local (AWS's own emulator, decompiled:
//    InputConverter, LocalDBValidatorUtils, LocalDBComparisonOperator, ErrorFactory), agreeing
//    with dynalite's tests written against live DynamoDB (test/putItem.js, deleteItem.js,
//    updateItem.js, scan.js) and with ExtendDB's tests run against live DynamoDB
//    (test_conditional_operator.py: exact mixing and ConditionalOperator texts).
//  - Semantics (NOT_CONTAINS false on a missing attribute, NE true, IN only on scalars, EQ on any
//    type, AttributeUpdates ADD appending lists): Scylla's test_expected.py, test_query_filter.py
//    and test_item.py, which pass against DynamoDB.
//  - KeyConditions checks and order: dynalite's actions/query.js and validations/query.js.
//  - Type names in "is not valid for SS AttributeValue type" and "not supported for the type S"
//    are the wire names, as dynalite's live-verified tests expect (DynamoDB Local prints its own
//    enum names there; we follow the service).
#include "core/expr/legacy.h"

#include <array>
#include <utility>

#include "partstore/item.h"

namespace partstore::expr {
namespace {

constexpr std::string_view kInvalidParameters = "One or more parameter values were invalid: ";

Status InvalidParameters(std::string_view detail) {
  std::string message(kInvalidParameters);
  message.append(detail);
  return Status::Validation(std::move(message));
}

constexpr std::array<std::string_view, 13> kComparisonOperatorNames = {
    "EQ",   "NE",       "LE",           "LT",          "GE", "GT",     "NOT_NULL",
    "NULL", "CONTAINS", "NOT_CONTAINS", "BEGINS_WITH", "IN", "BETWEEN"};

Path Attribute(const std::string& name) {
  Path path;
  path.elements.push_back(PathElement{name, -1});
  return path;
}

Operand PathOperand(const std::string& name) {
  Operand op;
  op.kind = OperandKind::kPath;
  op.path = Attribute(name);
  return op;
}

Operand ValueOperand(const Value& value) {
  Operand op;
  op.kind = OperandKind::kValue;
  op.value = &value;
  return op;
}

Condition Leaf(ConditionKind kind, const std::string& name) {
  Condition c;
  c.kind = kind;
  c.operands.push_back(PathOperand(name));
  return c;
}

Condition Binary(ConditionKind kind, Condition left, Condition right) {
  Condition c;
  c.kind = kind;
  c.children.push_back(std::move(left));
  c.children.push_back(std::move(right));
  return c;
}

// One legacy comparison on attribute `name`. REQUIRES: arguments checked.
Condition Comparison(ComparisonOperator op, const std::string& name,
                     std::span<const Value> arguments) {
  auto compare = [&](Comparator comparator) {
    Condition c = Leaf(ConditionKind::kCompare, name);
    c.comparator = comparator;
    c.operands.push_back(ValueOperand(arguments[0]));
    return c;
  };
  auto with_values = [&](ConditionKind kind) {
    Condition c = Leaf(kind, name);
    for (const Value& v : arguments) c.operands.push_back(ValueOperand(v));
    return c;
  };
  switch (op) {
    case ComparisonOperator::kEq:
      return compare(Comparator::kEq);
    case ComparisonOperator::kNe:
      return compare(Comparator::kNe);
    case ComparisonOperator::kLe:
      return compare(Comparator::kLe);
    case ComparisonOperator::kLt:
      return compare(Comparator::kLt);
    case ComparisonOperator::kGe:
      return compare(Comparator::kGe);
    case ComparisonOperator::kGt:
      return compare(Comparator::kGt);
    case ComparisonOperator::kNotNull:
      return Leaf(ConditionKind::kAttributeExists, name);
    case ComparisonOperator::kNull:
      return Leaf(ConditionKind::kAttributeNotExists, name);
    case ComparisonOperator::kContains:
      return with_values(ConditionKind::kContains);
    case ComparisonOperator::kNotContains: {
      // Legacy NOT_CONTAINS is false on a missing attribute, unlike NOT contains().
      Condition negated;
      negated.kind = ConditionKind::kNot;
      negated.children.push_back(with_values(ConditionKind::kContains));
      return Binary(ConditionKind::kAnd, Leaf(ConditionKind::kAttributeExists, name),
                    std::move(negated));
    }
    case ComparisonOperator::kBeginsWith:
      return with_values(ConditionKind::kBeginsWith);
    case ComparisonOperator::kIn:
      return with_values(ConditionKind::kIn);
    case ComparisonOperator::kBetween:
      return with_values(ConditionKind::kBetween);
  }
  return compare(Comparator::kEq);
}

// Combines entries left to right: ((c1 op c2) op c3) ...
std::optional<Condition> Combine(std::vector<Condition> conditions,
                                 std::optional<ConditionalOperator> conditional_operator) {
  if (conditions.empty()) return std::nullopt;
  const ConditionKind kind =
      conditional_operator == ConditionalOperator::kOr ? ConditionKind::kOr : ConditionKind::kAnd;
  Condition combined = std::move(conditions.front());
  for (size_t i = 1; i < conditions.size(); ++i) {
    combined = Binary(kind, std::move(combined), std::move(conditions[i]));
  }
  return combined;
}

bool ArgumentCountValid(ComparisonOperator op, size_t count) {
  switch (op) {
    case ComparisonOperator::kNotNull:
    case ComparisonOperator::kNull:
      return count == 0;
    case ComparisonOperator::kIn:
      return count >= 1;
    case ComparisonOperator::kBetween:
      return count == 2;
    default:
      return count == 1;
  }
}

bool ArgumentTypeValid(ComparisonOperator op, Type type) {
  const bool sortable = type == Type::kS || type == Type::kN || type == Type::kB;
  switch (op) {
    case ComparisonOperator::kLe:
    case ComparisonOperator::kLt:
    case ComparisonOperator::kGe:
    case ComparisonOperator::kGt:
    case ComparisonOperator::kIn:
    case ComparisonOperator::kBetween:
      return sortable;
    case ComparisonOperator::kBeginsWith:
      return type == Type::kS || type == Type::kB;
    case ComparisonOperator::kContains:
    case ComparisonOperator::kNotContains:
      return sortable || type == Type::kBool || type == Type::kNull;
    default:
      return true;
  }
}

// Key-condition operators DynamoDB cannot serve from the key order.
bool Indexable(ComparisonOperator op) {
  switch (op) {
    case ComparisonOperator::kNe:
    case ComparisonOperator::kIn:
    case ComparisonOperator::kNull:
    case ComparisonOperator::kNotNull:
    case ComparisonOperator::kContains:
    case ComparisonOperator::kNotContains:
      return false;
    default:
      return true;
  }
}

// One Expected entry, checked and translated.
Result<Condition> TranslateExpectedEntry(const ExpectedAttribute& e) {
  const std::string& name = e.name;
  PARTSTORE_RETURN_IF_ERROR(CheckAttributeName(name));
  if (e.exists.has_value() && e.comparison_operator.has_value()) {
    return InvalidParameters(
        "Exists and ComparisonOperator cannot be used together for Attribute: " + name);
  }
  if (e.value.has_value() && e.attribute_value_list.has_value()) {
    return InvalidParameters(
        "Value and AttributeValueList cannot be used together for Attribute: " + name);
  }
  if (!e.comparison_operator.has_value() && e.attribute_value_list.has_value()) {
    return InvalidParameters(
        "AttributeValueList can only be used with a ComparisonOperator for Attribute: " + name);
  }
  if (e.exists == false && e.value.has_value()) {
    return InvalidParameters("Value cannot be used when Exists is false for Attribute: " + name);
  }
  if (!e.value.has_value() && !e.attribute_value_list.has_value()) {
    if (e.comparison_operator.has_value()) {
      const ComparisonOperator op = *e.comparison_operator;
      if (op != ComparisonOperator::kNull && op != ComparisonOperator::kNotNull) {
        return InvalidParameters(
            std::string("Value or AttributeValueList must be used with ComparisonOperator: ") +
            std::string(ComparisonOperatorName(op)) + " for Attribute: " + name);
      }
    } else if (!e.exists.has_value()) {
      return InvalidParameters("Value must be provided when Exists is null for Attribute: " + name);
    } else if (*e.exists) {
      return InvalidParameters("Value must be provided when Exists is true for Attribute: " + name);
    }
  }
  if (e.comparison_operator.has_value()) {
    std::span<const Value> arguments;
    if (e.value.has_value()) {
      arguments = std::span<const Value>(&*e.value, 1);
    } else if (e.attribute_value_list.has_value()) {
      arguments = *e.attribute_value_list;
    }
    PARTSTORE_RETURN_IF_ERROR(CheckComparisonArguments(*e.comparison_operator, arguments));
    return Comparison(*e.comparison_operator, name, arguments);
  }
  if (e.value.has_value()) {  // Exists absent or true: the attribute equals Value.
    return Comparison(ComparisonOperator::kEq, name, std::span<const Value>(&*e.value, 1));
  }
  return Leaf(ConditionKind::kAttributeNotExists, name);  // Exists false
}

}  // namespace

// ---- Names --------------------------------------------------------------------------------

std::string_view ComparisonOperatorName(ComparisonOperator op) {
  return kComparisonOperatorNames[static_cast<size_t>(op)];
}

std::optional<ComparisonOperator> ComparisonOperatorFromName(std::string_view name) {
  for (size_t i = 0; i < kComparisonOperatorNames.size(); ++i) {
    if (kComparisonOperatorNames[i] == name) return static_cast<ComparisonOperator>(i);
  }
  return std::nullopt;
}

std::string_view ConditionalOperatorName(ConditionalOperator op) {
  return op == ConditionalOperator::kAnd ? "AND" : "OR";
}

std::optional<ConditionalOperator> ConditionalOperatorFromName(std::string_view name) {
  if (name == "AND") return ConditionalOperator::kAnd;
  if (name == "OR") return ConditionalOperator::kOr;
  return std::nullopt;
}

std::string_view AttributeActionName(AttributeAction action) {
  switch (action) {
    case AttributeAction::kPut:
      return "PUT";
    case AttributeAction::kAdd:
      return "ADD";
    case AttributeAction::kDelete:
      return "DELETE";
  }
  return "PUT";
}

std::optional<AttributeAction> AttributeActionFromName(std::string_view name) {
  if (name == "PUT") return AttributeAction::kPut;
  if (name == "ADD") return AttributeAction::kAdd;
  if (name == "DELETE") return AttributeAction::kDelete;
  return std::nullopt;
}

// ---- Shared rules -------------------------------------------------------------------------

Status CheckComparisonArguments(ComparisonOperator op, std::span<const Value> arguments) {
  const std::string_view op_name = ComparisonOperatorName(op);
  if (!ArgumentCountValid(op, arguments.size())) {
    return InvalidParameters("Invalid number of argument(s) for the " + std::string(op_name) +
                             " ComparisonOperator");
  }
  for (const Value& v : arguments) {
    if (!ArgumentTypeValid(op, v.type())) {
      return InvalidParameters("ComparisonOperator " + std::string(op_name) + " is not valid for " +
                               std::string(TypeName(v.type())) + " AttributeValue type");
    }
    if (v.type() != arguments.front().type()) {
      return InvalidParameters("AttributeValues inside AttributeValueList must be of same type");
    }
  }
  if (op == ComparisonOperator::kBetween && Compare(arguments[0], arguments[1]) > 0) {
    return Status::Validation(
        "The BETWEEN condition was provided a range where the lower bound is greater than the "
        "upper bound");
  }
  return Status::Ok();
}

Status CheckConditionalOperator(std::optional<ConditionalOperator> conditional_operator,
                                size_t condition_count) {
  if (!conditional_operator.has_value()) return Status::Ok();
  if (condition_count == 0) {
    return Status::Validation("ConditionalOperator cannot be used without Filter or Expected");
  }
  if (condition_count == 1) {
    return Status::Validation(
        "ConditionalOperator can only be used when Filter or Expected has two or more elements");
  }
  return Status::Ok();
}

Status CheckParameterMixing(const RequestParameters& p) {
  // Every request passes through here: name the parameters only when there is an error to
  // report.
  const bool any_legacy = p.attribute_updates || p.attributes_to_get || p.expected ||
                          p.query_filter || p.scan_filter || p.conditional_operator ||
                          (p.key_conditions && p.key_condition_expression);
  const bool any_expression = p.update_expression || p.projection_expression ||
                              p.condition_expression || p.filter_expression ||
                              p.key_condition_expression;
  if (!any_legacy || !any_expression) return Status::Ok();
  std::string legacy;
  std::string expressions;
  auto add = [](std::string* list, bool present, std::string_view name) {
    if (!present) return;
    if (!list->empty()) list->append(", ");
    list->append(name);
  };
  add(&legacy, p.attribute_updates, "AttributeUpdates");
  add(&legacy, p.attributes_to_get, "AttributesToGet");
  add(&legacy, p.expected, "Expected");
  add(&legacy, p.query_filter, "QueryFilter");
  add(&legacy, p.scan_filter, "ScanFilter");
  add(&legacy, p.conditional_operator, "ConditionalOperator");
  add(&legacy, p.key_conditions && p.key_condition_expression, "KeyConditions");
  add(&expressions, p.update_expression, "UpdateExpression");
  add(&expressions, p.projection_expression, "ProjectionExpression");
  add(&expressions, p.condition_expression, "ConditionExpression");
  add(&expressions, p.filter_expression, "FilterExpression");
  add(&expressions, p.key_condition_expression, "KeyConditionExpression");
  return Status::Validation(
      "Can not use both expression and non-expression parameters in the same request: "
      "Non-expression parameters: {" +
      legacy + "} Expression parameters: {" + expressions + "}");
}

// ---- Translations -------------------------------------------------------------------------

Result<std::optional<Condition>> TranslateExpected(
    std::span<const ExpectedAttribute> expected,
    std::optional<ConditionalOperator> conditional_operator) {
  std::vector<Condition> conditions;
  conditions.reserve(expected.size());
  for (const ExpectedAttribute& entry : expected) {
    PARTSTORE_ASSIGN_OR_RETURN(Condition c, TranslateExpectedEntry(entry));
    conditions.push_back(std::move(c));
  }
  PARTSTORE_RETURN_IF_ERROR(CheckConditionalOperator(conditional_operator, expected.size()));
  return Combine(std::move(conditions), conditional_operator);
}

Result<std::optional<Condition>> TranslateFilter(
    std::span<const AttributeCondition> filter,
    std::optional<ConditionalOperator> conditional_operator) {
  std::vector<Condition> conditions;
  conditions.reserve(filter.size());
  for (const AttributeCondition& entry : filter) {
    PARTSTORE_RETURN_IF_ERROR(CheckAttributeName(entry.name));
    PARTSTORE_RETURN_IF_ERROR(
        CheckComparisonArguments(entry.comparison_operator, entry.attribute_value_list));
    conditions.push_back(
        Comparison(entry.comparison_operator, entry.name, entry.attribute_value_list));
  }
  PARTSTORE_RETURN_IF_ERROR(CheckConditionalOperator(conditional_operator, filter.size()));
  return Combine(std::move(conditions), conditional_operator);
}

Status CheckQueryFilterKeys(std::span<const AttributeCondition> filter, const KeySchema& schema) {
  auto named = [&](const std::string& key) {
    for (const AttributeCondition& entry : filter) {
      if (entry.name == key) return true;
    }
    return false;
  };
  for (const KeyAttribute* key : {&schema.partition, schema.sort ? &*schema.sort : nullptr}) {
    if (key != nullptr && named(key->name)) {
      return Status::Validation(
          "QueryFilter can only contain non-primary key attributes: Primary key attribute: " +
          key->name);
    }
  }
  return Status::Ok();
}

Result<Condition> TranslateKeyConditions(std::span<const AttributeCondition> conditions,
                                         const KeySchema& schema) {
  for (const AttributeCondition& entry : conditions) {
    PARTSTORE_RETURN_IF_ERROR(
        CheckComparisonArguments(entry.comparison_operator, entry.attribute_value_list));
  }
  if (conditions.size() != 1 && conditions.size() != 2) {
    return Status::Validation("Conditions can be of length 1 or 2 only");
  }
  auto find = [&](const std::string& key) -> const AttributeCondition* {
    for (const AttributeCondition& entry : conditions) {
      if (entry.name == key) return &entry;
    }
    return nullptr;
  };
  const AttributeCondition* found[2] = {nullptr, nullptr};
  const KeyAttribute* keys[2] = {&schema.partition, schema.sort ? &*schema.sort : nullptr};
  for (int k = 0; k < 2; ++k) {
    const KeyAttribute* key = keys[k];
    if (key == nullptr) continue;
    const bool is_partition = k == 0;
    if (is_partition && !schema.sort && conditions.size() > 1) {
      return Status::Validation("Query key condition not supported");
    }
    const AttributeCondition* entry = find(key->name);
    if (entry == nullptr) {
      if (is_partition || conditions.size() > 1) {
        return Status::Validation("Query condition missed key schema element: " + key->name);
      }
      continue;
    }
    if (!Indexable(entry->comparison_operator)) {
      return Status::Validation("Attempted conditional constraint is not an indexable operation");
    }
    for (const Value& v : entry->attribute_value_list) {
      if (v.type() != ValueTypeOf(key->type)) {
        return InvalidParameters("Condition parameter type does not match schema type");
      }
    }
    if (is_partition && entry->comparison_operator != ComparisonOperator::kEq) {
      return Status::Validation("Query key condition not supported");
    }
    found[k] = entry;
  }
  Condition partition =
      Comparison(found[0]->comparison_operator, found[0]->name, found[0]->attribute_value_list);
  if (found[1] == nullptr) return partition;
  return Binary(
      ConditionKind::kAnd, std::move(partition),
      Comparison(found[1]->comparison_operator, found[1]->name, found[1]->attribute_value_list));
}

Result<ProjectionExpression> TranslateAttributesToGet(std::span<const std::string> names) {
  ProjectionExpression projection;
  projection.paths.reserve(names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    PARTSTORE_RETURN_IF_ERROR(CheckAttributeName(names[i]));
    for (size_t j = 0; j < i; ++j) {
      if (names[j] == names[i]) {
        return InvalidParameters("Duplicate value in attribute name: " + names[i]);
      }
    }
    projection.paths.push_back(Attribute(names[i]));
  }
  return projection;
}

Result<UpdateExpression> TranslateAttributeUpdates(std::span<const AttributeUpdate> updates) {
  UpdateExpression update;
  update.from_attribute_updates = true;
  update.actions.reserve(updates.size());
  for (const AttributeUpdate& u : updates) {
    PARTSTORE_RETURN_IF_ERROR(CheckAttributeName(u.name));
    const AttributeAction action = u.action.value_or(AttributeAction::kPut);
    if (!u.value.has_value()) {
      if (action != AttributeAction::kDelete) {
        return InvalidParameters(
            "Only DELETE action is allowed when no attribute value is specified");
      }
      update.actions.push_back(UpdateAction{UpdateActionKind::kRemove, Attribute(u.name), {}});
      continue;
    }
    const Value& value = *u.value;
    const Type type = value.type();
    switch (action) {
      case AttributeAction::kPut:
        update.actions.push_back(
            UpdateAction{UpdateActionKind::kSet, Attribute(u.name), ValueOperand(value)});
        break;
      case AttributeAction::kDelete:
        if (!value.is_set()) {
          return InvalidParameters("DELETE action with value is not supported for the type " +
                                   std::string(TypeName(type)));
        }
        update.actions.push_back(
            UpdateAction{UpdateActionKind::kDelete, Attribute(u.name), ValueOperand(value)});
        break;
      case AttributeAction::kAdd:
        if (type != Type::kN && type != Type::kL && !value.is_set()) {
          return InvalidParameters("ADD action is not supported for the type " +
                                   std::string(TypeName(type)));
        }
        update.actions.push_back(
            UpdateAction{UpdateActionKind::kAdd, Attribute(u.name), ValueOperand(value)});
        break;
    }
  }
  return update;
}

}  // namespace partstore::expr
