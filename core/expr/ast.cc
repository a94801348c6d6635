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

}  // namespace partstore::expr
