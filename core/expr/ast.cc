#include "core/expr/ast.h"

namespace partstore::expr {

std::string Path::ToString() const {
  std::string out;
  for (const PathElement& e : elements) {
    if (e.is_index()) {
      out += '[';
      out += std::to_string(e.index);
      out += ']';
    } else {
      if (!out.empty()) out += '.';
      out += e.name;
    }
  }
  return out;
}

std::string Path::ToListString() const {
  std::string out = "[";
  bool first = true;
  for (const PathElement& e : elements) {
    if (!first) out += ", ";
    first = false;
    if (e.is_index()) {
      out += '[';
      out += std::to_string(e.index);
      out += ']';
    } else {
      out += e.name;
    }
  }
  out += ']';
  return out;
}

std::string_view ComparatorText(Comparator comparator) {
  switch (comparator) {
    case Comparator::kEq:
      return "=";
    case Comparator::kNe:
      return "<>";
    case Comparator::kLt:
      return "<";
    case Comparator::kLe:
      return "<=";
    case Comparator::kGt:
      return ">";
    case Comparator::kGe:
      return ">=";
  }
  return "?";
}

std::string_view ConditionKindText(ConditionKind kind) {
  switch (kind) {
    case ConditionKind::kBetween:
      return "BETWEEN";
    case ConditionKind::kIn:
      return "IN";
    case ConditionKind::kAttributeExists:
      return "attribute_exists";
    case ConditionKind::kAttributeNotExists:
      return "attribute_not_exists";
    case ConditionKind::kAttributeType:
      return "attribute_type";
    case ConditionKind::kBeginsWith:
      return "begins_with";
    case ConditionKind::kContains:
      return "contains";
    case ConditionKind::kAnd:
      return "AND";
    case ConditionKind::kOr:
      return "OR";
    case ConditionKind::kNot:
      return "NOT";
    case ConditionKind::kCompare:
      break;
  }
  return "";
}

std::string_view LongTypeName(Type type) {
  switch (type) {
    case Type::kS:
      return "STRING";
    case Type::kN:
      return "NUMBER";
    case Type::kB:
      return "BINARY";
    case Type::kBool:
      return "BOOLEAN";
    case Type::kNull:
      return "NULL";
    case Type::kM:
      return "MAP";
    case Type::kL:
      return "LIST";
    case Type::kSS:
      return "STRING_SET";
    case Type::kNS:
      return "NUMBER_SET";
    case Type::kBS:
      return "BINARY_SET";
  }
  return "UNKNOWN";
}

}  // namespace partstore::expr
