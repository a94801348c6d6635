// Shared checks for the expression-parser fuzz targets: print a parsed tree back as expression
// text (fully parenthesized, never redundantly), so that a target can check that the text
// re-parses to the same tree; and the invariants every rejection must satisfy.
#pragma once

#include <cstdlib>
#include <string>
#include <string_view>

#include "core/expr/ast.h"
#include "core/expr/parser.h"
#include "partstore/status.h"

namespace partstore::expr::fuzz {

inline void Check(bool condition) {
  if (!condition) std::abort();
}

inline std::string Print(const Path& path) { return path.ToString(); }

inline std::string Print(const Operand& o) {
  auto call = [&](std::string_view name) {
    std::string out(name);
    out += '(';
    for (size_t i = 0; i < o.args.size(); ++i) out += (i ? ", " : "") + Print(o.args[i]);
    return out + ')';
  };
  switch (o.kind) {
    case OperandKind::kPath:
      return Print(o.path);
    case OperandKind::kValue:
      return o.placeholder;
    case OperandKind::kSize:
      return call("size");
    case OperandKind::kIfNotExists:
      return call("if_not_exists");
    case OperandKind::kListAppend:
      return call("list_append");
    case OperandKind::kPlus:
    case OperandKind::kMinus:
      Check(o.args.size() == 2);
      return Print(o.args[0]) + (o.kind == OperandKind::kPlus ? " + " : " - ") + Print(o.args[1]);
  }
  std::abort();
}

inline std::string Print(const Condition& c) {
  auto operands = [&](size_t from) {
    std::string out;
    for (size_t i = from; i < c.operands.size(); ++i) {
      out += (i > from ? ", " : "") + Print(c.operands[i]);
    }
    return out;
  };
  switch (c.kind) {
    case ConditionKind::kCompare:
      Check(c.operands.size() == 2);
      return "(" + Print(c.operands[0]) + " " + std::string(ComparatorText(c.comparator)) + " " +
             Print(c.operands[1]) + ")";
    case ConditionKind::kBetween:
      Check(c.operands.size() == 3);
      return "(" + Print(c.operands[0]) + " BETWEEN " + Print(c.operands[1]) + " AND " +
             Print(c.operands[2]) + ")";
    case ConditionKind::kIn:
      Check(c.operands.size() >= 2);
      return "(" + Print(c.operands[0]) + " IN (" + operands(1) + "))";
    case ConditionKind::kAttributeExists:
      return "attribute_exists(" + operands(0) + ")";
    case ConditionKind::kAttributeNotExists:
      return "attribute_not_exists(" + operands(0) + ")";
    case ConditionKind::kAttributeType:
      return "attribute_type(" + operands(0) + ")";
    case ConditionKind::kBeginsWith:
      return "begins_with(" + operands(0) + ")";
    case ConditionKind::kContains:
      return "contains(" + operands(0) + ")";
    case ConditionKind::kAnd:
    case ConditionKind::kOr:
      Check(c.children.size() == 2);
      return "(" + Print(c.children[0]) + (c.kind == ConditionKind::kAnd ? " AND " : " OR ") +
             Print(c.children[1]) + ")";
    case ConditionKind::kNot:
      Check(c.children.size() == 1);
      return "(NOT " + Print(c.children[0]) + ")";
  }
  std::abort();
}

inline std::string Print(const UpdateExpression& u) {
  // One section per kind, in a fixed order; the actions of a kind keep their order.
  std::string out;
  const UpdateActionKind kinds[] = {UpdateActionKind::kSet, UpdateActionKind::kRemove,
                                    UpdateActionKind::kAdd, UpdateActionKind::kDelete};
  const char* names[] = {"SET ", "REMOVE ", "ADD ", "DELETE "};
  for (int k = 0; k < 4; ++k) {
    bool first = true;
    for (const UpdateAction& a : u.actions) {
      if (a.kind != kinds[k]) continue;
      out += first ? (out.empty() ? "" : " ") + std::string(names[k]) : ", ";
      first = false;
      out += Print(a.path);
      if (a.kind == UpdateActionKind::kSet) out += " = " + Print(a.operand);
      if (a.kind == UpdateActionKind::kAdd || a.kind == UpdateActionKind::kDelete) {
        out += " " + Print(a.operand);
      }
    }
  }
  return out;
}

inline std::string Print(const ProjectionExpression& p) {
  std::string out;
  for (size_t i = 0; i < p.paths.size(); ++i) out += (i ? ", " : "") + Print(p.paths[i]);
  return out;
}

// Every rejection is a ValidationException naming the parameter.
inline void CheckRejection(const Status& status, ExpressionKind kind) {
  Check(status.code() == Code::kValidation);
  const std::string prefix = "Invalid " + std::string(ParameterName(kind)) + ": ";
  Check(status.message().substr(0, prefix.size()) == prefix);
  Check(status.message().size() > prefix.size());
}

}  // namespace partstore::expr::fuzz
