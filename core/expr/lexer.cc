#include "core/expr/lexer.h"

#include <cstddef>

namespace partstore::expr {
namespace {

bool IsAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsIdChar(char c) { return IsAlpha(c) || IsDigit(c) || c == '_'; }
bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Case-insensitive comparison of a word against an upper-case keyword.
bool EqualsKeyword(std::string_view word, std::string_view keyword) {
  if (word.size() != keyword.size()) return false;
  for (size_t i = 0; i < word.size(); ++i) {
    char c = word[i];
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (c != keyword[i]) return false;
  }
  return true;
}

TokenKind WordKind(std::string_view word) {
  switch (word.size()) {
    case 2:
      if (EqualsKeyword(word, "IN")) return TokenKind::kIn;
      if (EqualsKeyword(word, "OR")) return TokenKind::kOr;
      break;
    case 3:
      if (EqualsKeyword(word, "NOT")) return TokenKind::kNot;
      if (EqualsKeyword(word, "AND")) return TokenKind::kAnd;
      if (EqualsKeyword(word, "SET")) return TokenKind::kSet;
      if (EqualsKeyword(word, "ADD")) return TokenKind::kAdd;
      break;
    case 6:
      if (EqualsKeyword(word, "DELETE")) return TokenKind::kDelete;
      if (EqualsKeyword(word, "REMOVE")) return TokenKind::kRemove;
      break;
    case 7:
      if (EqualsKeyword(word, "BETWEEN")) return TokenKind::kBetween;
      break;
    default:
      break;
  }
  return TokenKind::kId;
}

// Length of the UTF-8 sequence starting at text[i], or 1 for a byte that does not start a
// well-formed sequence (an invalid byte is a token of its own).
size_t CodePointLength(std::string_view text, size_t i) {
  const auto b = static_cast<unsigned char>(text[i]);
  size_t n;
  if (b < 0x80) return 1;
  if (b >= 0xC2 && b <= 0xDF) {
    n = 2;
  } else if (b >= 0xE0 && b <= 0xEF) {
    n = 3;
  } else if (b >= 0xF0 && b <= 0xF4) {
    n = 4;
  } else {
    return 1;
  }
  if (i + n > text.size()) return 1;
  for (size_t k = 1; k < n; ++k) {
    if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return 1;
  }
  return n;
}

}  // namespace

void Lex(std::string_view text, std::vector<Token>* tokens) {
  tokens->clear();
  const size_t n = text.size();
  size_t i = 0;
  auto push = [&](TokenKind kind, size_t begin, size_t end) {
    tokens->push_back(Token{kind, static_cast<uint32_t>(begin), static_cast<uint32_t>(end)});
  };
  while (i < n) {
    const char c = text[i];
    const size_t begin = i;
    if (IsSpace(c)) {
      ++i;
      continue;
    }
    if (IsAlpha(c)) {
      ++i;
      while (i < n && IsIdChar(text[i])) ++i;
      push(WordKind(text.substr(begin, i - begin)), begin, i);
      continue;
    }
    if (IsDigit(c)) {
      ++i;
      if (c != '0') {
        while (i < n && IsDigit(text[i])) ++i;
      }
      push(TokenKind::kIndex, begin, i);
      continue;
    }
    switch (c) {
      case '#':
      case ':': {
        size_t j = i + 1;
        while (j < n && IsIdChar(text[j])) ++j;
        if (j == i + 1) {
          push(TokenKind::kUnknown, begin, j);
        } else {
          push(c == '#' ? TokenKind::kNameSub : TokenKind::kValueSub, begin, j);
        }
        i = j;
        continue;
      }
      case '"':
      case '\'': {
        // Non-greedy: the literal ends at the first matching quote. Without one, the quote is a
        // single unknown character.
        const size_t close = text.find(c, i + 1);
        if (close == std::string_view::npos) {
          push(TokenKind::kUnknown, begin, i + 1);
          i = i + 1;
        } else {
          push(TokenKind::kString, begin, close + 1);
          i = close + 1;
        }
        continue;
      }
      case ',':
        push(TokenKind::kComma, begin, ++i);
        continue;
      case '(':
        push(TokenKind::kLParen, begin, ++i);
        continue;
      case ')':
        push(TokenKind::kRParen, begin, ++i);
        continue;
      case '.':
        push(TokenKind::kDot, begin, ++i);
        continue;
      case '[':
        push(TokenKind::kLBracket, begin, ++i);
        continue;
      case ']':
        push(TokenKind::kRBracket, begin, ++i);
        continue;
      case '=':
        push(TokenKind::kEq, begin, ++i);
        continue;
      case '+':
        push(TokenKind::kPlus, begin, ++i);
        continue;
      case '-':
        push(TokenKind::kMinus, begin, ++i);
        continue;
      case '<':
        if (i + 1 < n && text[i + 1] == '>') {
          push(TokenKind::kNe, begin, i += 2);
        } else if (i + 1 < n && text[i + 1] == '=') {
          push(TokenKind::kLe, begin, i += 2);
        } else {
          push(TokenKind::kLt, begin, ++i);
        }
        continue;
      case '>':
        if (i + 1 < n && text[i + 1] == '=') {
          push(TokenKind::kGe, begin, i += 2);
        } else {
          push(TokenKind::kGt, begin, ++i);
        }
        continue;
      default:
        i += CodePointLength(text, i);
        push(TokenKind::kUnknown, begin, i);
        continue;
    }
  }
  push(TokenKind::kEof, n, n);
}

std::string_view TokenText(std::string_view source, const Token& token) {
  if (token.kind == TokenKind::kEof) return "<EOF>";
  return token.text(source);
}

std::string_view NearText(std::string_view source, const std::vector<Token>& tokens, size_t index) {
  const Token& current = tokens[index];
  const size_t begin = index > 0 ? tokens[index - 1].begin : 0;
  size_t end = source.size();
  if (current.kind != TokenKind::kEof && index + 1 < tokens.size() &&
      tokens[index + 1].kind != TokenKind::kEof) {
    end = tokens[index + 1].end;
  }
  return source.substr(begin, end - begin);
}

}  // namespace partstore::expr
