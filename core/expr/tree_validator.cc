#include "core/expr/tree_validator.h"

#include <string>

#include "core/expr/parser.h"

namespace partstore::expr::internal {

bool TreeValidator::VisitPath(const Path& p) {
  if (p.elements.size() > static_cast<size_t>(kMaxPathDepth)) {
    return Fail("The document path has too many nesting levels; nesting levels: " +
                std::to_string(p.elements.size()));
  }
  for (const PathElement& e : p.elements) {
    // ".:value" steps parse, but DynamoDB cannot run them.
    if (!e.is_index() && !e.name.empty() && e.name[0] == ':') return Fail("Internal server error");
  }
  return true;
}

bool TreeValidator::Visit(const Operand& o) {
  switch (o.kind) {
    case OperandKind::kPath:
      return VisitPath(o.path);
    case OperandKind::kValue:
      return true;
    default:
      break;
  }
  for (const Operand& arg : o.args) {
    if (!Visit(arg)) return false;
  }
  switch (o.kind) {
    case OperandKind::kSize:
      if (!OperandCount("size", o.args.size(), 1)) return false;
      // size() takes a string, binary, set, list or map; a nested size() is a number.
      for (const Operand& arg : o.args) {
        if (arg.kind == OperandKind::kSize) return OperandType("size", "N");
      }
      break;
    case OperandKind::kIfNotExists:
      if (!OperandCount("if_not_exists", o.args.size(), 2)) return false;
      if (o.args[0].kind != OperandKind::kPath) return RequiresPath("if_not_exists");
      break;
    case OperandKind::kListAppend:
      if (!OperandCount("list_append", o.args.size(), 2)) return false;
      break;
    default:  // + and -: always two operands; nested functions there are numbers or anything.
      break;
  }
  return CountOperator();
}

bool TreeValidator::Visit(const Condition& c) {
  for (const Condition& child : c.children) {
    if (!Visit(child)) return false;
  }
  for (const Operand& operand : c.operands) {
    if (!Visit(operand)) return false;
  }
  switch (c.kind) {
    case ConditionKind::kIn:
      if (c.operands.size() - 1 > kMaxInOperands) {
        return Fail("The IN operator is provided with too many operands; number of operands: " +
                    std::to_string(c.operands.size() - 1));
      }
      break;
    case ConditionKind::kAttributeExists:
    case ConditionKind::kAttributeNotExists: {
      const std::string_view name = ConditionKindText(c.kind);
      if (!OperandCount(name, c.operands.size(), 1)) return false;
      if (c.operands[0].kind != OperandKind::kPath) return RequiresPath(name);
      break;
    }
    case ConditionKind::kAttributeType:
      if (!OperandCount("attribute_type", c.operands.size(), 2)) return false;
      // The type must be a :value; a path could be anything, size() is a number.
      if (c.operands[1].kind == OperandKind::kPath) {
        return OperandType("attribute_type", kAnyTypeSymbols);
      }
      if (c.operands[1].kind == OperandKind::kSize) return OperandType("attribute_type", "N");
      break;
    case ConditionKind::kBeginsWith:
      if (!OperandCount("begins_with", c.operands.size(), 2)) return false;
      for (const Operand& operand : c.operands) {
        if (operand.kind == OperandKind::kSize) return OperandType("begins_with", "N");
      }
      break;
    case ConditionKind::kContains:
      if (!OperandCount("contains", c.operands.size(), 2)) return false;
      break;
    default:  // comparisons, BETWEEN, AND, OR, NOT: fixed operand counts; size() is ordered
      break;
  }
  return CountOperator();
}

}  // namespace partstore::expr::internal
