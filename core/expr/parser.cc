// Stage 1: expression text -> syntax tree, with every check DynamoDB makes on the text alone.
//
// DynamoDB (as its own DynamoDB Local build shows: com.amazon.dynamodb.grammar and
// com.amazonaws.services.dynamodbv2.parser / .datamodel) handles an expression in four steps,
// each reporting only its first problem. This file reproduces the order:
//
//   0. size: "" -> "The expression can not be empty;"; more than 4096 UTF-16 code units ->
//      "Expression size has exceeded the maximum allowed size;" (ConditionExpression,
//      FilterExpression and KeyConditionExpression add "expression size: N").
//   1. parse (ANTLR, grammar below): the first syntax error, or redundant parentheses. Both are
//      raised in text order while the parser reads; a redundant group is only reported once the
//      parser has decided which alternative the tokens around it belong to, so a syntax error
//      inside that decision's lookahead comes first (see `pending_`).
//   2. tree walk (ASTListener), in text order: unknown function names, functions in the wrong
//      place, bare reserved words, list indexes beyond int32, repeated update sections.
//   3. validation walk (ExpressionValidator), post-order: path depth, operand counts, operand
//      types fixed by the tree, IN operand count, "requires a document path", operator count.
//      DynamoDB interleaves this walk with the lookups of #names and :values; those are stage 2
//      of our pipeline (resolve.h), so when an expression has both kinds of problem DynamoDB may
//      report the placeholder first where we report the structural one (see parser.h).
//
// Grammar (DynamoDB's, from the DAX client's DynamoDbGrammar.g4 and DynamoDB Local):
//   condition  := condition AND condition | condition OR condition  (right-assoc, AND over OR)
//               | NOT condition | '(' condition ')' | function
//               | operand comparator operand | operand BETWEEN operand AND operand
//               | operand IN '(' operand (',' operand)* ')'
//   operand    := path | :value | function | '(' operand ')'
//   function   := ID '(' operand (',' operand)* ')'
//   path       := (ID | #name) ('.' (ID | #name | :value) | '[' INDEX ']')*
//   update     := (SET set (',' set)* | REMOVE path (',' path)*
//                 | ADD path :value (',' ...)* | DELETE path :value (',' ...)*)+
//   set        := path '=' (operand | arithmetic)
//   arithmetic := operand ('+' | '-') operand | '(' arithmetic ')'
//   projection := path (',' path)*
// A group '((x))' whose content is itself a group is "redundant" (for conditions, operands and
// arithmetic alike).
//
// Points resting on indirect evidence: "Internal server error" for a ".:value" path step (a
// third-party tester's recording of DynamoDB); the type list printed for attribute_type(a, b)
// (dynalite); no "expression size: N" for UpdateExpression and ProjectionExpression (DynamoDB
// Local's code); SIZE and CONVERT being reserved (the documented list, reserved_words.h, which
// DynamoDB Local does not enforce for those two).
#include "core/expr/parser.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "core/expr/lexer.h"
#include "core/expr/parser_internal.h"
#include "core/expr/reserved_words.h"
#include "core/expr/tree_validator.h"
#include "core/utf8.h"

namespace partstore::expr {
namespace internal {

void Parser::CheckFunction(const Call& call, bool nested) {
  const uint64_t position = 2 * uint64_t{call.name_token};
  if (!WalkSlotFree(position)) return;
  const std::string_view name = TextOf(call.name_token);
  auto report = [&](std::string_view what) {
    std::string message(what);
    message.append("; function: ").append(name);
    WalkError(position, std::move(message));
  };
  if (call.fn == Fn::kUnknown) return report("Invalid function name");
  if (grammar_ == Grammar::kUpdate) {
    if (IsConditionFunction(call.fn)) {
      return report("The function is not allowed in an update expression");
    }
    if (nested && call.fn != Fn::kIfNotExists) {
      return report("The function is not allowed to be used this way in an expression");
    }
    return;
  }
  if (IsUpdateFunction(call.fn)) {
    return report("The function is not allowed in a condition expression");
  }
  // A condition is a boolean function at the top (size() returns a number); inside a comparison
  // or another function only size() may appear.
  if (nested != (call.fn == Fn::kSize)) {
    return report("The function is not allowed to be used this way in an expression");
  }
}

// ---- Conditions ---------------------------------------------------------------------------------

bool Parser::ParseConditionRoot(Condition* out) {
  Item item;
  if (!ParsePrimary(&item) || !ParseOrFrom(&item) || !FinishCondition(&item)) return false;
  if (PeekKind() != TokenKind::kEof) return SyntaxError();
  *out = std::move(item.condition);
  return true;
}

// A primary condition, or a piece that may still become one: the caller decides from what
// follows. Opens the decision DynamoDB's parser makes between the primary alternatives.
bool Parser::ParsePrimary(Item* out) {
  if (++depth_ > kMaxNesting) return SyntaxError();
  ++pending_;
  const bool ok = ParseUnit(out) && AfterUnit(out);
  --depth_;
  return ok;
}

bool Parser::ParseUnit(Item* out) {
  switch (PeekKind()) {
    case TokenKind::kNot:
      return ParseNot(out);
    case TokenKind::kLParen:
      return ParseGroups(out);
    case TokenKind::kId:
      if (PeekKind(1) == TokenKind::kLParen) {
        out->kind = Item::Kind::kCall;
        out->paren = false;
        return ParseCall(&out->call);
      }
      [[fallthrough]];
    case TokenKind::kNameSub:
      out->kind = Item::Kind::kOperand;
      out->paren = false;
      out->operand = Operand{};
      out->operand.kind = OperandKind::kPath;
      return ParsePath(&out->operand.path);
    case TokenKind::kValueSub:
      out->kind = Item::Kind::kOperand;
      out->paren = false;
      out->operand = Operand{};
      out->operand.kind = OperandKind::kValue;
      out->operand.placeholder.assign(TextOf(pos_));
      ++pos_;
      return true;
    default:
      return SyntaxError();
  }
}

// NOT binds tighter than AND and OR and looser than everything else; a run of NOTs is read in
// a loop so that "NOT NOT NOT ..." costs no stack.
bool Parser::ParseNot(Item* out) {
  size_t count = 0;
  while (PeekKind() == TokenKind::kNot) {
    ++pos_;
    ++count;
  }
  if (!Resolve(/*all=*/true)) return false;
  Item inner;
  if (!ParsePrimary(&inner) || !FinishCondition(&inner)) return false;
  Condition condition = std::move(inner.condition);
  for (size_t i = 0; i < count; ++i) {
    Condition node;
    node.kind = ConditionKind::kNot;
    node.children.push_back(std::move(condition));
    condition = std::move(node);
  }
  out->kind = Item::Kind::kCondition;
  out->paren = false;
  out->condition = std::move(condition);
  return true;
}

// One or more '(' at the start of a primary. Whether each group holds a condition or an operand
// is only known from its content or from what follows it, so the groups are read without
// committing: the innermost content first, then each level outwards, iteratively, so that
// "(((((...)))))" costs no stack.
bool Parser::ParseGroups(Item* out) {
  size_t opens = 0;
  while (PeekKind() == TokenKind::kLParen) {
    ++pos_;
    ++opens;
  }
  // Each group is a primary decision; the calling ParsePrimary counted the outermost one.
  pending_ += static_cast<int>(opens) - 1;
  paren_depth_ += static_cast<int>(opens);
  Item item;
  if (!ParsePrimary(&item) || !ParseOrFrom(&item)) return false;
  for (size_t level = opens; level-- > 0;) {
    if (PeekKind() != TokenKind::kRParen) return SyntaxError();
    ++pos_;
    --paren_depth_;
    // An operand (or a lone call) inside the group: the decision opened for the content's first
    // primary was no decision of its own.
    if (item.kind != Item::Kind::kCondition) Abandon();
    if (item.paren && !Redundant()) return false;
    item.paren = true;
    if (level == 0) break;
    // This group is the first piece of a primary one level out.
    if (!AfterUnit(&item) || !ParseOrFrom(&item)) return false;
  }
  *out = std::move(item);
  return true;
}

// After a piece that can be an operand: a comparator, BETWEEN or IN makes it a comparison.
bool Parser::AfterUnit(Item* item) {
  if (item->kind == Item::Kind::kCondition) return true;
  const TokenKind op = PeekKind();
  if (!IsComparatorToken(op) && op != TokenKind::kIn && op != TokenKind::kBetween) return true;
  if (!Resolve(/*all=*/true)) return false;
  Condition condition;
  condition.operands.push_back(TakeOperand(item));
  ++pos_;
  if (IsComparatorToken(op)) {
    condition.kind = ConditionKind::kCompare;
    condition.comparator = ToComparator(op);
    condition.operands.emplace_back();
    if (!ParseOperand(&condition.operands.back())) return false;
  } else if (op == TokenKind::kBetween) {
    condition.kind = ConditionKind::kBetween;
    condition.operands.emplace_back();
    if (!ParseOperand(&condition.operands.back())) return false;
    if (PeekKind() != TokenKind::kAnd) return SyntaxError();
    ++pos_;
    condition.operands.emplace_back();
    if (!ParseOperand(&condition.operands.back())) return false;
  } else {
    condition.kind = ConditionKind::kIn;
    if (PeekKind() != TokenKind::kLParen) return SyntaxError();
    ++pos_;
    while (true) {
      condition.operands.emplace_back();
      if (!ParseOperand(&condition.operands.back())) return false;
      if (PeekKind() != TokenKind::kComma) break;
      ++pos_;
    }
    if (PeekKind() != TokenKind::kRParen) return SyntaxError();
    ++pos_;
  }
  item->kind = Item::Kind::kCondition;
  item->paren = false;
  item->condition = std::move(condition);
  return true;
}

// The AND / OR chain that starts with `item`. Without AND or OR the piece is left as it is (the
// caller decides what it is); otherwise it becomes the chain: AND binds tighter than OR, both
// associate to the right (a AND b AND c = a AND (b AND c)), as in DynamoDB's grammar.
bool Parser::ParseOrFrom(Item* item) {
  TokenKind op = PeekKind();
  if (op != TokenKind::kAnd && op != TokenKind::kOr) return true;
  std::vector<Condition> ands;
  std::vector<Condition> ors;
  while (op == TokenKind::kAnd || op == TokenKind::kOr) {
    if (!FinishCondition(item)) return false;
    ands.push_back(std::move(item->condition));
    if (op == TokenKind::kOr) ors.push_back(FoldRight(&ands, ConditionKind::kAnd));
    ++pos_;
    if (!ParsePrimary(item)) return false;
    op = PeekKind();
  }
  if (!FinishCondition(item)) return false;
  ands.push_back(std::move(item->condition));
  ors.push_back(FoldRight(&ands, ConditionKind::kAnd));
  item->condition = FoldRight(&ors, ConditionKind::kOr);
  item->kind = Item::Kind::kCondition;
  item->paren = false;
  return true;
}

// What may follow a complete condition here.
bool Parser::FollowsCondition() const {
  const TokenKind k = PeekKind();
  if (k == TokenKind::kAnd || k == TokenKind::kOr) return true;
  return paren_depth_ > 0 ? k == TokenKind::kRParen : k == TokenKind::kEof;
}

// `item` must be a condition, given the current token: a lone function call becomes a function
// condition when a condition may end here; an operand is a syntax error.
bool Parser::FinishCondition(Item* item) {
  switch (item->kind) {
    case Item::Kind::kCondition:
      return true;
    case Item::Kind::kOperand:
      return SyntaxError();
    case Item::Kind::kCall:
      break;
  }
  if (!FollowsCondition()) return SyntaxError();
  // Before ')' the enclosing group may still be an operand group; otherwise all is settled.
  if (!Resolve(/*all=*/PeekKind() != TokenKind::kRParen)) return false;
  CheckFunction(item->call, /*nested=*/false);
  Condition condition;
  condition.kind = FunctionConditionKind(item->call.fn);
  condition.operands = std::move(item->call.args);
  item->kind = Item::Kind::kCondition;
  item->condition = std::move(condition);
  return true;
}

Operand Parser::TakeOperand(Item* item) {
  if (item->kind == Item::Kind::kOperand) return std::move(item->operand);
  CheckFunction(item->call, /*nested=*/true);
  Operand operand;
  operand.kind = OperandKind::kSize;
  operand.args = std::move(item->call.args);
  return operand;
}

// ---- Operands, functions, paths -------------------------------------------------------------

// operand := path | :value | function | '(' operand ')'. Consecutive '(' are read in a loop.
bool Parser::ParseOperand(Operand* out) {
  size_t opens = 0;
  while (PeekKind() == TokenKind::kLParen) {
    ++pos_;
    ++opens;
  }
  if (!ParseOperandAtom(out)) return false;
  for (size_t i = 0; i < opens; ++i) {
    if (PeekKind() != TokenKind::kRParen) return SyntaxError();
    ++pos_;
    if (i > 0 && !Redundant()) return false;
  }
  return true;
}

bool Parser::ParseOperandAtom(Operand* out) {
  switch (PeekKind()) {
    case TokenKind::kId:
      if (PeekKind(1) == TokenKind::kLParen) {
        Call call;
        if (!ParseCall(&call)) return false;
        CheckFunction(call, /*nested=*/true);
        if (grammar_ == Grammar::kUpdate) {
          *out = CallToUpdateOperand(std::move(call));
        } else {
          out->kind = OperandKind::kSize;
          out->args = std::move(call.args);
        }
        return true;
      }
      [[fallthrough]];
    case TokenKind::kNameSub:
      out->kind = OperandKind::kPath;
      return ParsePath(&out->path);
    case TokenKind::kValueSub:
      out->kind = OperandKind::kValue;
      out->placeholder.assign(TextOf(pos_));
      ++pos_;
      return true;
    default:
      return SyntaxError();
  }
}

// function := ID '(' operand (',' operand)* ')'. REQUIRES: an ID then '(' at the position.
bool Parser::ParseCall(Call* out) {
  if (++depth_ > kMaxNesting) return SyntaxError();
  out->name_token = static_cast<uint32_t>(pos_);
  out->fn = LookupFunction(TextOf(pos_));
  out->args.clear();
  pos_ += 2;
  while (true) {
    out->args.emplace_back();
    if (!ParseOperand(&out->args.back())) return false;
    if (PeekKind() != TokenKind::kComma) break;
    ++pos_;
  }
  if (PeekKind() != TokenKind::kRParen) return SyntaxError();
  ++pos_;
  --depth_;
  return true;
}

void Parser::AddName(Path* path, size_t token) {
  const std::string_view name = TextOf(token);
  if (tokens_[token].kind == TokenKind::kId) {
    const uint64_t position = 2 * uint64_t{token} + 1;
    if (WalkSlotFree(position) && IsReservedWord(name)) {
      std::string message("Attribute name is a reserved keyword; reserved keyword: ");
      message.append(name);
      WalkError(position, std::move(message));
    }
  }
  PathElement element;
  element.name.assign(name);
  path->elements.push_back(std::move(element));
}

bool Parser::ParsePath(Path* out) {
  out->elements.clear();
  const TokenKind first = PeekKind();
  if (first != TokenKind::kId && first != TokenKind::kNameSub) return SyntaxError();
  AddName(out, pos_++);
  while (true) {
    const TokenKind k = PeekKind();
    if (k == TokenKind::kDot) {
      ++pos_;
      const TokenKind next = PeekKind();
      // DynamoDB's grammar also takes ".:value" here (see the validation walk).
      if (next != TokenKind::kId && next != TokenKind::kNameSub && next != TokenKind::kValueSub) {
        return SyntaxError();
      }
      AddName(out, pos_++);
    } else if (k == TokenKind::kLBracket) {
      ++pos_;
      if (PeekKind() != TokenKind::kIndex) return SyntaxError();
      const std::string_view digits = TextOf(pos_);
      ++pos_;
      if (PeekKind() != TokenKind::kRBracket) return SyntaxError();
      const size_t close = pos_++;
      // DynamoDB reads the index as a Java int.
      int64_t value = 0;
      bool in_range = digits.size() <= 10;
      for (size_t i = 0; in_range && i < digits.size(); ++i) value = value * 10 + (digits[i] - '0');
      in_range = in_range && value <= std::numeric_limits<int32_t>::max();
      if (!in_range) {
        const uint64_t position = 2 * uint64_t{close} + 1;
        if (WalkSlotFree(position)) {
          std::string message("List index is not within the allowable range; index: [");
          message.append(digits).append("]");
          WalkError(position, std::move(message));
        }
        value = 0;
      }
      PathElement element;
      element.index = value;
      out->elements.push_back(std::move(element));
    } else {
      return true;
    }
  }
}

}  // namespace internal

namespace {

using internal::Grammar;
using internal::Parser;

// ---- Entry points ---------------------------------------------------------------------------

// Stage 0.
Status CheckSize(std::string_view text, ExpressionKind kind) {
  if (text.empty()) return InvalidExpression(kind, "The expression can not be empty;");
  if (text.size() <= kMaxExpressionSize) return Status::Ok();
  const size_t units = Utf16Length(text);
  if (units <= kMaxExpressionSize) return Status::Ok();
  // DynamoDB names the size only for condition-grammar expressions.
  if (kind == ExpressionKind::kUpdate || kind == ExpressionKind::kProjection) {
    return InvalidExpression(kind, "Expression size has exceeded the maximum allowed size;");
  }
  return InvalidExpression(
      kind, "Expression size has exceeded the maximum allowed size; expression size: " +
                std::to_string(units));
}

// The token buffer is reused by each thread's parses.
std::vector<Token>* TokenBuffer() {
  thread_local std::vector<Token> tokens;
  if (tokens.capacity() > 8192) {
    tokens.clear();
    tokens.shrink_to_fit();
  }
  return &tokens;
}

}  // namespace

std::string_view ParameterName(ExpressionKind kind) {
  switch (kind) {
    case ExpressionKind::kCondition:
      return "ConditionExpression";
    case ExpressionKind::kFilter:
      return "FilterExpression";
    case ExpressionKind::kKeyCondition:
      return "KeyConditionExpression";
    case ExpressionKind::kUpdate:
      return "UpdateExpression";
    case ExpressionKind::kProjection:
      return "ProjectionExpression";
  }
  return "Expression";
}

Status InvalidExpression(ExpressionKind kind, std::string_view message) {
  std::string text("Invalid ");
  text.append(ParameterName(kind)).append(": ").append(message);
  return Status::Validation(std::move(text));
}

Result<Condition> ParseCondition(std::string_view text, ExpressionKind kind) {
  if (kind == ExpressionKind::kUpdate || kind == ExpressionKind::kProjection) {
    return Status::Internal("ParseCondition: not a condition expression kind");
  }
  PARTSTORE_RETURN_IF_ERROR(CheckSize(text, kind));
  Condition condition;
  Parser parser(text, Grammar::kCondition, TokenBuffer());
  if (!parser.ParseConditionRoot(&condition) || !parser.Finish() || parser.has_walk_error()) {
    return InvalidExpression(kind, parser.message());
  }
  internal::TreeValidator validator;
  if (!validator.Visit(condition)) return InvalidExpression(kind, validator.message);
  return condition;
}

Result<UpdateExpression> ParseUpdate(std::string_view text) {
  constexpr ExpressionKind kind = ExpressionKind::kUpdate;
  PARTSTORE_RETURN_IF_ERROR(CheckSize(text, kind));
  UpdateExpression update;
  Parser parser(text, Grammar::kUpdate, TokenBuffer());
  if (!parser.ParseUpdateRoot(&update) || !parser.Finish() || parser.has_walk_error()) {
    return InvalidExpression(kind, parser.message());
  }
  // DynamoDB keeps the actions on a stack, so it validates them last to first: every action's
  // path, then every action's value.
  internal::TreeValidator validator;
  for (auto it = update.actions.rbegin(); it != update.actions.rend(); ++it) {
    if (!validator.VisitPath(it->path)) return InvalidExpression(kind, validator.message);
  }
  for (auto it = update.actions.rbegin(); it != update.actions.rend(); ++it) {
    if (it->kind == UpdateActionKind::kSet && !validator.Visit(it->operand)) {
      return InvalidExpression(kind, validator.message);
    }
  }
  return update;
}

Result<ProjectionExpression> ParseProjection(std::string_view text) {
  constexpr ExpressionKind kind = ExpressionKind::kProjection;
  PARTSTORE_RETURN_IF_ERROR(CheckSize(text, kind));
  ProjectionExpression projection;
  Parser parser(text, Grammar::kProjection, TokenBuffer());
  if (!parser.ParseProjectionRoot(&projection) || !parser.Finish() || parser.has_walk_error()) {
    return InvalidExpression(kind, parser.message());
  }
  internal::TreeValidator validator;
  for (auto it = projection.paths.rbegin(); it != projection.paths.rend(); ++it) {
    if (!validator.VisitPath(*it)) return InvalidExpression(kind, validator.message);
  }
  return projection;
}

}  // namespace partstore::expr
