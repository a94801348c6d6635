// KeyConditionExpression analysis, in DynamoDB's two steps (its KeyConditionExpressionExtractor
// and Query validation, as reproduced by DynamoDB Local and dynalite, with live-verified texts):
//
// 1. Shape, before the table is looked up (CheckKeyConditionShape, declared in parser.h). The
//    tree is walked depth first through ANDs; each other node must be =, <, <=, >, >=, BETWEEN or
//    begins_with ("Invalid operator used in KeyConditionExpression: OR"); its operands are read
//    left to right: a second path is "Multiple attribute names used in one condition", a nested
//    path "KeyConditionExpressions cannot have conditions on nested attributes", a value before
//    the path reverses the comparator (:v < k is k > :v) but is an error for BETWEEN /
//    begins_with, a function such as size() is "KeyConditionExpressions cannot contain nested
//    operations"; a second condition on one attribute is "KeyConditionExpressions must only
//    contain one condition per key", a condition without a path "No key attribute specified";
//    then 1 or 2 conditions in all ("Conditions can be of length 1 or 2 only").
//    These texts have no "Invalid KeyConditionExpression: " prefix in DynamoDB's classic wording
//    (production logs: "Invalid operator used in KeyConditionExpression: IN" in 2016,
//    "KeyConditionExpressions must only contain one condition per key" in 2023; dynalite;
//    DynamoDB Local), the wording the rest of partstore follows. DynamoDB's 2026 rewording,
//    rolled out by region, adds the prefix (dynoxide's eu-west-2 check, an Amplify bug report of
//    2026-09): see kShapePrefix.
// 2. Schema: more conditions than key attributes: "Query key condition not supported"; the
//    partition key: missing ("Query condition missed key schema element: pk"), value type
//    ("One or more parameter values were invalid: Condition parameter type does not match schema
//    type"), operator other than = ("Query key condition not supported"), empty value; the sort
//    key: missing while two conditions exist ("...missed key schema element: sk"), size, type.
#include "core/expr/key_condition.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "core/expr/parser.h"

namespace partstore::expr {
namespace {

// Empty for DynamoDB's classic wording; "Invalid KeyConditionExpression: " after its 2026
// rewording (see the file comment).
constexpr std::string_view kShapePrefix = "";

Status ShapeError(std::string_view message) {
  std::string text(kShapePrefix);
  text += message;
  return Status::Validation(std::move(text));
}

struct KeyTerm {
  std::string_view name;
  SortKeyOp op = SortKeyOp::kNone;
  const Value* values[2] = {nullptr, nullptr};
  int value_count = 0;
};

SortKeyOp Reversed(SortKeyOp op) {
  switch (op) {
    case SortKeyOp::kLt:
      return SortKeyOp::kGt;
    case SortKeyOp::kLe:
      return SortKeyOp::kGe;
    case SortKeyOp::kGt:
      return SortKeyOp::kLt;
    case SortKeyOp::kGe:
      return SortKeyOp::kLe;
    default:
      return op;
  }
}

// The operator of a non-AND node, or kNone with its name for the error.
SortKeyOp OperatorOf(const Condition& c, std::string_view* name) {
  switch (c.kind) {
    case ConditionKind::kCompare:
      *name = ComparatorText(c.comparator);
      switch (c.comparator) {
        case Comparator::kEq:
          return SortKeyOp::kEq;
        case Comparator::kLt:
          return SortKeyOp::kLt;
        case Comparator::kLe:
          return SortKeyOp::kLe;
        case Comparator::kGt:
          return SortKeyOp::kGt;
        case Comparator::kGe:
          return SortKeyOp::kGe;
        case Comparator::kNe:
          return SortKeyOp::kNone;
      }
      return SortKeyOp::kNone;
    case ConditionKind::kBetween:
      *name = "BETWEEN";
      return SortKeyOp::kBetween;
    case ConditionKind::kBeginsWith:
      *name = "begins_with";
      return SortKeyOp::kBeginsWith;
    case ConditionKind::kIn:
      *name = "IN";
      break;
    case ConditionKind::kAttributeExists:
      *name = "attribute_exists";
      break;
    case ConditionKind::kAttributeNotExists:
      *name = "attribute_not_exists";
      break;
    case ConditionKind::kAttributeType:
      *name = "attribute_type";
      break;
    case ConditionKind::kContains:
      *name = "contains";
      break;
    case ConditionKind::kOr:
      *name = "OR";
      break;
    case ConditionKind::kNot:
      *name = "NOT";
      break;
    case ConditionKind::kAnd:
      *name = "AND";
      break;
  }
  return SortKeyOp::kNone;
}

Status Extract(const Condition& c, std::vector<KeyTerm>* terms) {
  if (c.kind == ConditionKind::kAnd) {
    for (const Condition& child : c.children) PARTSTORE_RETURN_IF_ERROR(Extract(child, terms));
    return Status::Ok();
  }
  std::string_view op_name;
  KeyTerm term;
  term.op = OperatorOf(c, &op_name);
  if (term.op == SortKeyOp::kNone) {
    return ShapeError("Invalid operator used in KeyConditionExpression: " + std::string(op_name));
  }
  for (const Operand& operand : c.operands) {
    switch (operand.kind) {
      case OperandKind::kPath:
        if (!term.name.empty()) {
          return ShapeError(
              "Invalid condition in KeyConditionExpression: Multiple attribute names used in one "
              "condition");
        }
        if (operand.path.nested()) {
          return ShapeError("KeyConditionExpressions cannot have conditions on nested attributes");
        }
        term.name = operand.path.top();
        break;
      case OperandKind::kValue:
        if (term.name.empty()) {
          if (term.op == SortKeyOp::kBetween || term.op == SortKeyOp::kBeginsWith) {
            return ShapeError(
                "Invalid condition in KeyConditionExpression: " + std::string(op_name) +
                " operator must have the key attribute as its first operand");
          }
          term.op = Reversed(term.op);
        }
        if (term.value_count < 2) term.values[term.value_count] = operand.value;
        ++term.value_count;
        break;
      default:
        return ShapeError("KeyConditionExpressions cannot contain nested operations");
    }
  }
  if (term.name.empty()) {
    return ShapeError("Invalid condition in KeyConditionExpression: No key attribute specified");
  }
  for (const KeyTerm& other : *terms) {
    if (other.name == term.name) {
      return ShapeError("KeyConditionExpressions must only contain one condition per key");
    }
  }
  terms->push_back(term);
  return Status::Ok();
}

Result<std::vector<KeyTerm>> ExtractTerms(const Condition& condition) {
  std::vector<KeyTerm> terms;
  PARTSTORE_RETURN_IF_ERROR(Extract(condition, &terms));
  if (terms.empty() || terms.size() > 2) {
    return Status::Validation("Conditions can be of length 1 or 2 only");
  }
  return terms;
}

const KeyTerm* FindTerm(const std::vector<KeyTerm>& terms, std::string_view name) {
  for (const KeyTerm& t : terms) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

Status TypeMismatch() {
  return Status::Validation(
      "One or more parameter values were invalid: Condition parameter type does not match schema "
      "type");
}

bool StartsWith(std::string_view whole, std::string_view prefix) {
  return whole.size() >= prefix.size() && whole.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

// Declared in parser.h (the parser's callers run it on the resolved KeyConditionExpression).
Status CheckKeyConditionShape(const Condition& condition) {
  return ExtractTerms(condition).status();
}

Result<KeyCondition> AnalyzeKeyCondition(const Condition& condition, const KeySchema& schema) {
  PARTSTORE_ASSIGN_OR_RETURN(std::vector<KeyTerm> terms, ExtractTerms(condition));
  const size_t key_count = schema.sort ? 2 : 1;
  if (terms.size() > key_count) return Status::Validation("Query key condition not supported");

  KeyCondition out;
  const KeyTerm* hash = FindTerm(terms, schema.partition.name);
  if (hash == nullptr || hash->value_count == 0) {
    return Status::Validation("Query condition missed key schema element: " +
                              schema.partition.name);
  }
  const Type partition_type = ValueTypeOf(schema.partition.type);
  for (int i = 0; i < std::min(hash->value_count, 2); ++i) {
    if (hash->values[i]->type() != partition_type) return TypeMismatch();
  }
  if (hash->op != SortKeyOp::kEq) return Status::Validation("Query key condition not supported");
  PARTSTORE_RETURN_IF_ERROR(CheckKeyValue(schema.partition, KeyRole::kPartition, *hash->values[0]));
  out.partition = hash->values[0];

  if (schema.sort) {
    const KeyTerm* range = FindTerm(terms, schema.sort->name);
    if (range == nullptr) {
      if (terms.size() > 1) {
        return Status::Validation("Query condition missed key schema element: " +
                                  schema.sort->name);
      }
    } else if (range->value_count == 0) {
      return Status::Validation("Query key condition not supported");
    } else {
      const Type sort_type = ValueTypeOf(schema.sort->type);
      for (int i = 0; i < std::min(range->value_count, 2); ++i) {
        if (range->values[i]->type() != sort_type) return TypeMismatch();
        PARTSTORE_RETURN_IF_ERROR(CheckKeyValue(*schema.sort, KeyRole::kSort, *range->values[i]));
      }
      out.sort_op = range->op;
      out.sort_low = range->values[0];
      out.sort_high = range->op == SortKeyOp::kBetween ? range->values[1] : nullptr;
    }
  }
  return out;
}

bool KeyCondition::MatchesSortKey(const Value& sort_key) const {
  switch (sort_op) {
    case SortKeyOp::kNone:
      return true;
    case SortKeyOp::kEq:
      return Compare(sort_key, *sort_low) == std::partial_ordering::equivalent;
    case SortKeyOp::kLt:
      return Compare(sort_key, *sort_low) == std::partial_ordering::less;
    case SortKeyOp::kLe: {
      auto o = Compare(sort_key, *sort_low);
      return o == std::partial_ordering::less || o == std::partial_ordering::equivalent;
    }
    case SortKeyOp::kGt:
      return Compare(sort_key, *sort_low) == std::partial_ordering::greater;
    case SortKeyOp::kGe: {
      auto o = Compare(sort_key, *sort_low);
      return o == std::partial_ordering::greater || o == std::partial_ordering::equivalent;
    }
    case SortKeyOp::kBetween: {
      auto lo = Compare(sort_key, *sort_low);
      auto hi = Compare(sort_key, *sort_high);
      return (lo == std::partial_ordering::greater || lo == std::partial_ordering::equivalent) &&
             (hi == std::partial_ordering::less || hi == std::partial_ordering::equivalent);
    }
    case SortKeyOp::kBeginsWith:
      if (sort_key.type() != sort_low->type()) return false;
      if (sort_key.is(Type::kS)) return StartsWith(sort_key.as_string(), sort_low->as_string());
      if (sort_key.is(Type::kB)) return StartsWith(sort_key.as_binary(), sort_low->as_binary());
      return false;
  }
  return false;
}

}  // namespace partstore::expr
