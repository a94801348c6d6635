// Internal to the expression parser (parser.cc, parser_update.cc): the token-level helpers and
// the Parser class shared by the grammars. Not part of the public API; see parser.h.
//
// Thread safety: a Parser is used by one thread for one expression.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/expr/ast.h"
#include "core/expr/lexer.h"
#include "core/expr/parser.h"

namespace partstore::expr::internal {

// Recursion guard. Every nested call consumes at least one token, and a valid-length
// expression has at most 4096 tokens, so this is never reached after the size check; it makes
// the stack bound explicit.
inline constexpr int kMaxNesting = 4200;

inline constexpr std::string_view kRedundantParentheses =
    "The expression has redundant parentheses;";
// DynamoDB's rendering of "any type" for a document path operand of attribute_type
// (dynalite, db/conditionParser.pegjs, recorded from DynamoDB).

enum class Grammar : uint8_t { kCondition, kUpdate, kProjection };

// The functions DynamoDB knows. Function names are case-sensitive.
enum class Fn : uint8_t {
  kUnknown,
  kAttributeExists,
  kAttributeNotExists,
  kAttributeType,
  kBeginsWith,
  kContains,
  kSize,
  kIfNotExists,
  kListAppend,
};

inline Fn LookupFunction(std::string_view name) {
  if (name == "attribute_exists") return Fn::kAttributeExists;
  if (name == "attribute_not_exists") return Fn::kAttributeNotExists;
  if (name == "attribute_type") return Fn::kAttributeType;
  if (name == "begins_with") return Fn::kBeginsWith;
  if (name == "contains") return Fn::kContains;
  if (name == "size") return Fn::kSize;
  if (name == "if_not_exists") return Fn::kIfNotExists;
  if (name == "list_append") return Fn::kListAppend;
  return Fn::kUnknown;
}

inline bool IsUpdateFunction(Fn fn) { return fn == Fn::kIfNotExists || fn == Fn::kListAppend; }
inline bool IsConditionFunction(Fn fn) { return fn != Fn::kUnknown && !IsUpdateFunction(fn); }

inline ConditionKind FunctionConditionKind(Fn fn) {
  switch (fn) {
    case Fn::kAttributeNotExists:
      return ConditionKind::kAttributeNotExists;
    case Fn::kAttributeType:
      return ConditionKind::kAttributeType;
    case Fn::kBeginsWith:
      return ConditionKind::kBeginsWith;
    case Fn::kContains:
      return ConditionKind::kContains;
    default:
      return ConditionKind::kAttributeExists;
  }
}

inline bool IsComparatorToken(TokenKind k) { return k >= TokenKind::kEq && k <= TokenKind::kGe; }

inline Comparator ToComparator(TokenKind k) {
  switch (k) {
    case TokenKind::kNe:
      return Comparator::kNe;
    case TokenKind::kLt:
      return Comparator::kLt;
    case TokenKind::kLe:
      return Comparator::kLe;
    case TokenKind::kGt:
      return Comparator::kGt;
    case TokenKind::kGe:
      return Comparator::kGe;
    default:
      return Comparator::kEq;
  }
}

inline bool IsSectionToken(TokenKind k) {
  return k == TokenKind::kSet || k == TokenKind::kRemove || k == TokenKind::kAdd ||
         k == TokenKind::kDelete;
}

// A function call whose role (condition or operand) is not known yet.
struct Call {
  uint32_t name_token = 0;
  Fn fn = Fn::kUnknown;
  std::vector<Operand> args;
};

// One parsed piece at condition level: a condition, an operand, or a function call that may
// still turn out to be either.
struct Item {
  enum class Kind : uint8_t { kCondition, kOperand, kCall };
  Kind kind = Kind::kOperand;
  bool paren = false;  // the piece is a parenthesized group
  Condition condition;
  Operand operand;
  Call call;
};

// One parsed piece of an update's SET value.
struct ValueItem {
  Operand operand;
  bool paren = false;       // a parenthesized group
  bool arithmetic = false;  // a + b or a - b (possibly parenthesized)
  int64_t call_token = -1;  // operand is a function call whose nesting is not known yet
};

inline Condition FoldRight(std::vector<Condition>* conditions, ConditionKind kind) {
  Condition acc = std::move(conditions->back());
  for (size_t i = conditions->size() - 1; i-- > 0;) {
    Condition node;
    node.kind = kind;
    node.children.reserve(2);
    node.children.push_back(std::move((*conditions)[i]));
    node.children.push_back(std::move(acc));
    acc = std::move(node);
  }
  conditions->clear();
  return acc;
}

// ---- Stages 1 and 2 -------------------------------------------------------------------------

class Parser {
 public:
  Parser(std::string_view text, Grammar grammar, std::vector<Token>* tokens)
      : text_(text), grammar_(grammar), tokens_(*tokens) {
    Lex(text, tokens);
  }

  bool ParseConditionRoot(Condition* out);
  bool ParseUpdateRoot(UpdateExpression* out);
  bool ParseProjectionRoot(ProjectionExpression* out);

  // After a successful parse: whether stage 2 found a problem.
  bool has_walk_error() const { return walk_position_ != kNoPosition; }
  // The problem: the parse error, or else the first stage-2 problem.
  const std::string& message() const { return message_.empty() ? walk_message_ : message_; }
  // A redundant group whose decision never closed (cannot happen after a complete parse; kept
  // as a guard).
  bool Finish() { return !deferred_redundant_ || Fail(kRedundantParentheses); }

 private:
  static constexpr uint64_t kNoPosition = std::numeric_limits<uint64_t>::max();

  TokenKind PeekKind(size_t ahead = 0) const {
    const size_t i = std::min(pos_ + ahead, tokens_.size() - 1);
    return tokens_[i].kind;
  }
  std::string_view TextOf(size_t index) const { return tokens_[index].text(text_); }

  bool Fail(std::string_view message) {
    message_.assign(message);
    return false;
  }
  bool SyntaxError() {
    const Token& token = tokens_[pos_];
    message_.clear();
    message_.append("Syntax error; token: \"")
        .append(TokenText(text_, token))
        .append("\", near: \"")
        .append(NearText(text_, tokens_, pos_))
        .append("\"");
    return false;
  }

  // Stage 2 problems are reported after a complete parse, first in walk order. Positions are
  // 2 * token index for events on entering a node (function calls) and 2 * token index + 1 for
  // events on leaving one (names, list indexes, sections).
  bool WalkSlotFree(uint64_t position) const { return position < walk_position_; }
  void WalkError(uint64_t position, std::string message) {
    walk_position_ = position;
    walk_message_ = std::move(message);
  }
  void CheckFunction(const Call& call, bool nested);

  // A redundant group was closed. DynamoDB reports it at once unless a decision that spans it
  // is still open (pending_ > 0), in which case it waits for that decision.
  bool Redundant() {
    if (pending_ > 0) {
      deferred_redundant_ = true;
      return true;
    }
    return Fail(kRedundantParentheses);
  }
  // The open decisions are settled (all of them, or only the innermost).
  bool Resolve(bool all) {
    if (all) {
      pending_ = 0;
    } else if (pending_ > 0) {
      --pending_;
    }
    if (pending_ == 0 && deferred_redundant_) return Fail(kRedundantParentheses);
    return true;
  }
  // The innermost open decision turned out not to be a decision (a group held an operand).
  void Abandon() {
    if (pending_ > 0) --pending_;
  }

  // Conditions.
  bool ParsePrimary(Item* out);
  bool ParseUnit(Item* out);
  bool ParseNot(Item* out);
  bool ParseGroups(Item* out);
  bool AfterUnit(Item* item);
  bool ParseOrFrom(Item* item);
  bool FinishCondition(Item* item);
  bool FollowsCondition() const;
  Operand TakeOperand(Item* item);

  // Operands, functions and paths (all grammars).
  bool ParseOperand(Operand* out);
  bool ParseOperandAtom(Operand* out);
  bool ParseCall(Call* out);
  bool ParsePath(Path* out);
  void AddName(Path* path, size_t token);

  // Updates.
  bool ParseSetValue(Operand* out);
  bool ParseValueItem(ValueItem* out);
  bool ParseValueAtom(ValueItem* out);
  bool MaybeArithmetic(ValueItem* item);
  bool FollowsSetValue() const;
  Operand CallToUpdateOperand(Call call);

  std::string_view text_;
  Grammar grammar_;
  std::vector<Token>& tokens_;
  size_t pos_ = 0;
  int depth_ = 0;
  int pending_ = 0;
  bool deferred_redundant_ = false;
  int paren_depth_ = 0;  // condition groups around the current position
  std::string message_;
  uint64_t walk_position_ = kNoPosition;
  std::string walk_message_;
};

}  // namespace partstore::expr::internal
