// The last step of parsing: a post-order walk over a freshly parsed tree for the rules that the
// text alone decides (path depth, operand counts, fixed operand types, IN's operand count,
// "requires a document path", the operator count), in the order DynamoDB's own validator visits
// nodes: children first, then the node's operand count, operand types, its own rule, and finally
// the operator count. Internal to parser.cc; split out to keep one concept per file.
//
// Thread safety: a TreeValidator is used by one thread for one expression.
#pragma once

#include <string>
#include <string_view>

#include "core/expr/ast.h"
#include "core/expr/parser.h"

namespace partstore::expr::internal {

class TreeValidator {
 public:
  // Post-order, as DynamoDB's ExpressionValidator: children first, then the node's operand
  // count, operand types, its own rule, and finally the operator count.
  bool Visit(const Condition& c);
  bool Visit(const Operand& o);
  bool VisitPath(const Path& p);

  std::string message;

 private:
  bool Fail(std::string text) {
    message = std::move(text);
    return false;
  }
  bool CountOperator() {
    if (++operators_ > kMaxOperators) {
      return Fail("The expression contains too many operators; operator count: " +
                  std::to_string(operators_));
    }
    return true;
  }
  bool OperandCount(std::string_view name, size_t count, size_t expected) {
    if (count == expected) return true;
    std::string text(
        "Incorrect number of operands for operator or function; operator or function: ");
    text.append(name).append(", number of operands: ").append(std::to_string(count));
    return Fail(std::move(text));
  }
  bool OperandType(std::string_view name, std::string_view type) {
    std::string text("Incorrect operand type for operator or function; operator or function: ");
    text.append(name).append(", operand type: ").append(type);
    return Fail(std::move(text));
  }
  bool RequiresPath(std::string_view name) {
    std::string text("Operator or function requires a document path; operator or function: ");
    text.append(name);
    return Fail(std::move(text));
  }

  int operators_ = 0;
};

}  // namespace partstore::expr::internal
