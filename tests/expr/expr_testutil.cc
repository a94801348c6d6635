#include "tests/expr/expr_testutil.h"

#include <string_view>

namespace partstore::expr::testing {
namespace {

std::string Join(const std::vector<Operand>& operands, size_t from) {
  std::string out;
  for (size_t i = from; i < operands.size(); ++i) {
    if (i > from) out += ", ";
    out += Show(operands[i]);
  }
  return out;
}

std::string Call(std::string_view name, const std::vector<Operand>& args) {
  return std::string(name) + "(" + Join(args, 0) + ")";
}

}  // namespace

std::string Show(const Path& path) { return path.ToString(); }

std::string Show(const Operand& operand) {
  switch (operand.kind) {
    case OperandKind::kPath:
      return Show(operand.path);
    case OperandKind::kValue:
      return operand.placeholder;
    case OperandKind::kSize:
      return Call("size", operand.args);
    case OperandKind::kIfNotExists:
      return Call("if_not_exists", operand.args);
    case OperandKind::kListAppend:
      return Call("list_append", operand.args);
    case OperandKind::kPlus:
    case OperandKind::kMinus: {
      if (operand.args.size() != 2) return "<bad arithmetic>";
      const char* op = operand.kind == OperandKind::kPlus ? " + " : " - ";
      return "(" + Show(operand.args[0]) + op + Show(operand.args[1]) + ")";
    }
  }
  return "<bad operand>";
}

std::string Show(const Condition& c) {
  switch (c.kind) {
    case ConditionKind::kCompare:
      if (c.operands.size() != 2) return "<bad compare>";
      return "(" + Show(c.operands[0]) + " " + std::string(ComparatorText(c.comparator)) + " " +
             Show(c.operands[1]) + ")";
    case ConditionKind::kBetween:
      if (c.operands.size() != 3) return "<bad between>";
      return "(" + Show(c.operands[0]) + " BETWEEN " + Show(c.operands[1]) + " AND " +
             Show(c.operands[2]) + ")";
    case ConditionKind::kIn:
      if (c.operands.size() < 2) return "<bad in>";
      return "(" + Show(c.operands[0]) + " IN (" + Join(c.operands, 1) + "))";
    case ConditionKind::kAttributeExists:
      return Call("attribute_exists", c.operands);
    case ConditionKind::kAttributeNotExists:
      return Call("attribute_not_exists", c.operands);
    case ConditionKind::kAttributeType:
      return Call("attribute_type", c.operands);
    case ConditionKind::kBeginsWith:
      return Call("begins_with", c.operands);
    case ConditionKind::kContains:
      return Call("contains", c.operands);
    case ConditionKind::kAnd:
    case ConditionKind::kOr:
      if (c.children.size() != 2) return "<bad logic>";
      return "(" + Show(c.children[0]) + (c.kind == ConditionKind::kAnd ? " AND " : " OR ") +
             Show(c.children[1]) + ")";
    case ConditionKind::kNot:
      if (c.children.size() != 1) return "<bad not>";
      return "(NOT " + Show(c.children[0]) + ")";
  }
  return "<bad condition>";
}

std::string Show(const UpdateExpression& update) {
  std::string out;
  for (const UpdateAction& action : update.actions) {
    if (!out.empty()) out += "; ";
    switch (action.kind) {
      case UpdateActionKind::kSet:
        out += "SET " + Show(action.path) + " = " + Show(action.operand);
        break;
      case UpdateActionKind::kRemove:
        out += "REMOVE " + Show(action.path);
        break;
      case UpdateActionKind::kAdd:
        out += "ADD " + Show(action.path) + " " + Show(action.operand);
        break;
      case UpdateActionKind::kDelete:
        out += "DELETE " + Show(action.path) + " " + Show(action.operand);
        break;
    }
  }
  return out;
}

std::string Show(const ProjectionExpression& projection) {
  std::string out;
  for (const Path& path : projection.paths) {
    if (!out.empty()) out += ", ";
    out += Show(path);
  }
  return out;
}

}  // namespace partstore::expr::testing
