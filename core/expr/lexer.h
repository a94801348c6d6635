// The expression lexer: text -> tokens, as DynamoDB's expression grammar splits them.
//
// Token rules (DynamoDB's ANTLR lexer, as AWS publishes it in the DAX client's Tokens.g4 and as
// DynamoDB Local's generated lexer encodes it):
//   whitespace   [ \t\n\r]+                      skipped (kept for the "near" text of errors)
//   operators    = <> < <= > >= + -   punctuation , ( ) . [ ]
//   keywords     IN BETWEEN NOT AND OR SET ADD DELETE REMOVE   (any case, whole word only)
//   kIndex       0 | [1-9][0-9]*                 ("007" is three tokens: 0, 0, 7)
//   kId          [a-zA-Z][a-zA-Z0-9_]*           (names and function names; no leading '_')
//   kNameSub     #[a-zA-Z0-9_]+                  ExpressionAttributeNames placeholder
//   kValueSub    :[a-zA-Z0-9_]+                  ExpressionAttributeValues placeholder
//   kString      "..." or '...'  (up to the first matching quote; never valid in a grammar)
//   kUnknown     any other single character (one UTF-8 code point, or one invalid byte)
// Longest match wins; on equal length a keyword beats kId ("in" is IN, "index" is kId).
//
// Thread safety: pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace partstore::expr {

enum class TokenKind : uint8_t {
  kEof,
  kComma,
  kLParen,
  kRParen,
  kDot,
  kLBracket,
  kRBracket,
  kEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,
  kPlus,
  kMinus,
  kIn,
  kBetween,
  kNot,
  kAnd,
  kOr,
  kSet,
  kAdd,
  kDelete,
  kRemove,
  kIndex,
  kId,
  kNameSub,
  kValueSub,
  kString,
  kUnknown,
};

// A token is a byte range of the expression text. The end-of-input token is empty and sits at
// text.size().
struct Token {
  TokenKind kind = TokenKind::kEof;
  uint32_t begin = 0;
  uint32_t end = 0;

  std::string_view text(std::string_view source) const { return source.substr(begin, end - begin); }
};

// Replaces `tokens` with the tokens of `text`, always ending with one kEof token.
// REQUIRES: text.size() < 2^32.
void Lex(std::string_view text, std::vector<Token>* tokens);

// DynamoDB's text for a token in "Syntax error; token: ..." messages: its text, or "<EOF>".
std::string_view TokenText(std::string_view source, const Token& token);

// DynamoDB's "near" text for a syntax error at tokens[index]: the source from the start of the
// previous token (or of the text) to the end of the next token (or of the text), whitespace
// included. This is what DynamoDB's error listener prints: previous token, hidden whitespace,
// the offending token, hidden whitespace, next token.
std::string_view NearText(std::string_view source, const std::vector<Token>& tokens, size_t index);

}  // namespace partstore::expr
