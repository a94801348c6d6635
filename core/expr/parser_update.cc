// The update and projection grammars of the expression parser (see parser.cc for the pipeline
// and the grammar).
#include <string>
#include <utility>
#include <vector>

#include "core/expr/parser_internal.h"
#include "core/expr/reserved_words.h"

namespace partstore::expr::internal {

// ---- Updates --------------------------------------------------------------------------------

bool Parser::ParseUpdateRoot(UpdateExpression* out) {
  if (!IsSectionToken(PeekKind())) return SyntaxError();
  bool seen[4] = {false, false, false, false};
  while (IsSectionToken(PeekKind())) {
    const TokenKind section = PeekKind();
    ++pos_;
    while (true) {
      UpdateAction& action = out->actions.emplace_back();
      if (!ParsePath(&action.path)) return false;
      switch (section) {
        case TokenKind::kSet:
          action.kind = UpdateActionKind::kSet;
          if (PeekKind() != TokenKind::kEq) return SyntaxError();
          ++pos_;
          if (!ParseSetValue(&action.operand)) return false;
          break;
        case TokenKind::kRemove:
          action.kind = UpdateActionKind::kRemove;
          break;
        default:
          action.kind =
              section == TokenKind::kAdd ? UpdateActionKind::kAdd : UpdateActionKind::kDelete;
          if (PeekKind() != TokenKind::kValueSub) return SyntaxError();
          action.operand.kind = OperandKind::kValue;
          action.operand.placeholder.assign(TextOf(pos_));
          ++pos_;
          break;
      }
      if (PeekKind() != TokenKind::kComma) break;
      ++pos_;
    }
    // DynamoDB checks for a repeated section when it leaves the section.
    int index;
    std::string_view name;
    switch (section) {
      case TokenKind::kSet:
        index = 0, name = "SET";
        break;
      case TokenKind::kRemove:
        index = 1, name = "REMOVE";
        break;
      case TokenKind::kAdd:
        index = 2, name = "ADD";
        break;
      default:
        index = 3, name = "DELETE";
        break;
    }
    if (seen[index]) {
      const uint64_t position = 2 * uint64_t{pos_ - 1} + 1;
      if (WalkSlotFree(position)) {
        std::string message("The \"");
        message.append(name).append("\" section can only be used once in an update expression;");
        WalkError(position, std::move(message));
      }
    }
    seen[index] = true;
  }
  if (PeekKind() != TokenKind::kEof) return SyntaxError();
  return true;
}

bool Parser::FollowsSetValue() const {
  const TokenKind k = PeekKind();
  return k == TokenKind::kComma || k == TokenKind::kEof || IsSectionToken(k);
}

// set value := operand | arithmetic. Which one is decided at the first + or - or at the end.
bool Parser::ParseSetValue(Operand* out) {
  ++pending_;
  ValueItem item;
  if (!ParseValueItem(&item)) return false;
  if (!FollowsSetValue()) return SyntaxError();
  if (!Resolve(/*all=*/true)) return false;
  if (item.call_token >= 0) {
    Call call;
    call.name_token = static_cast<uint32_t>(item.call_token);
    call.fn = LookupFunction(TextOf(call.name_token));
    CheckFunction(call, /*nested=*/false);
  }
  *out = std::move(item.operand);
  return true;
}

// An operand or an arithmetic expression, with any number of enclosing parentheses; consecutive
// '(' are read in a loop.
bool Parser::ParseValueItem(ValueItem* out) {
  size_t opens = 0;
  while (PeekKind() == TokenKind::kLParen) {
    ++pos_;
    ++opens;
  }
  if (!ParseValueAtom(out) || !MaybeArithmetic(out)) return false;
  for (size_t i = 0; i < opens; ++i) {
    if (PeekKind() != TokenKind::kRParen) return SyntaxError();
    ++pos_;
    if (out->paren && !Redundant()) return false;
    out->paren = true;
    if (!MaybeArithmetic(out)) return false;
  }
  return true;
}

bool Parser::ParseValueAtom(ValueItem* out) {
  out->paren = false;
  out->arithmetic = false;
  out->call_token = -1;
  if (PeekKind() == TokenKind::kId && PeekKind(1) == TokenKind::kLParen) {
    Call call;
    if (!ParseCall(&call)) return false;
    out->call_token = call.name_token;
    out->operand = CallToUpdateOperand(std::move(call));
    return true;
  }
  return ParseOperandAtom(&out->operand);
}

// An operand followed by + or - is the left side of an arithmetic expression.
bool Parser::MaybeArithmetic(ValueItem* item) {
  if (item->arithmetic) return true;
  const TokenKind op = PeekKind();
  if (op != TokenKind::kPlus && op != TokenKind::kMinus) return true;
  if (!Resolve(/*all=*/true)) return false;
  if (item->call_token >= 0) {
    Call call;
    call.name_token = static_cast<uint32_t>(item->call_token);
    call.fn = LookupFunction(TextOf(call.name_token));
    CheckFunction(call, /*nested=*/true);
    item->call_token = -1;
  }
  ++pos_;
  Operand node;
  node.kind = op == TokenKind::kPlus ? OperandKind::kPlus : OperandKind::kMinus;
  node.args.reserve(2);
  node.args.push_back(std::move(item->operand));
  node.args.emplace_back();
  if (!ParseOperand(&node.args.back())) return false;
  item->operand = std::move(node);
  item->arithmetic = true;
  item->paren = false;
  return true;
}

Operand Parser::CallToUpdateOperand(Call call) {
  Operand operand;
  operand.kind = call.fn == Fn::kListAppend ? OperandKind::kListAppend : OperandKind::kIfNotExists;
  operand.args = std::move(call.args);
  return operand;
}

// ---- Projections ----------------------------------------------------------------------------

bool Parser::ParseProjectionRoot(ProjectionExpression* out) {
  while (true) {
    out->paths.emplace_back();
    if (!ParsePath(&out->paths.back())) return false;
    if (PeekKind() != TokenKind::kComma) break;
    ++pos_;
  }
  if (PeekKind() != TokenKind::kEof) return SyntaxError();
  return true;
}

}  // namespace partstore::expr::internal
