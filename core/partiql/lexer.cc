// The PartiQL lexer (see lexer.h).
#include "core/partiql/lexer.h"

namespace partstore::partiql {
namespace {

bool IsIdentifierStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsIdentifierChar(char c) { return IsIdentifierStart(c) || IsDigit(c); }
bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

// A quoted run starting at text[*pos] == quote; the doubled quote is one quote character.
Result<std::string> Quoted(std::string_view text, size_t* pos, char quote) {
  std::string out;
  size_t i = *pos + 1;
  while (true) {
    if (i >= text.size()) {
      return MalformedStatement(quote == '\'' ? "Unterminated string literal"
                                              : "Unterminated quoted identifier");
    }
    if (text[i] == quote) {
      if (i + 1 < text.size() && text[i + 1] == quote) {
        out.push_back(quote);
        i += 2;
        continue;
      }
      *pos = i + 1;
      return out;
    }
    out.push_back(text[i++]);
  }
}

}  // namespace

Status MalformedStatement(std::string_view detail) {
  return Status::Validation("Statement wasn't well formed, can't be processed: " +
                            std::string(detail));
}

Result<std::vector<Token>> Tokenize(std::string_view text) {
  std::vector<Token> tokens;
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (IsSpace(c)) {
      ++i;
      continue;
    }
    // Comments: -- to the end of the line, /* ... */.
    if (c == '-' && i + 1 < text.size() && text[i + 1] == '-') {
      while (i < text.size() && text[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      const size_t end = text.find("*/", i + 2);
      if (end == std::string_view::npos) return MalformedStatement("Unterminated comment");
      i = end + 2;
      continue;
    }
    Token token;
    if (IsIdentifierStart(c)) {
      const size_t start = i;
      while (i < text.size() && IsIdentifierChar(text[i])) ++i;
      token.kind = Token::Kind::kIdentifier;
      token.text = std::string(text.substr(start, i - start));
    } else if (c == '"' || c == '\'') {
      PARTSTORE_ASSIGN_OR_RETURN(token.text, Quoted(text, &i, c));
      token.kind = c == '"' ? Token::Kind::kQuotedIdentifier : Token::Kind::kString;
    } else if (IsDigit(c) || (c == '.' && i + 1 < text.size() && IsDigit(text[i + 1]) &&
                              (tokens.empty() || tokens.back().kind == Token::Kind::kPunct))) {
      const size_t start = i;
      while (i < text.size() && IsDigit(text[i])) ++i;
      if (i < text.size() && text[i] == '.') {
        ++i;
        while (i < text.size() && IsDigit(text[i])) ++i;
      }
      if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        size_t j = i + 1;
        if (j < text.size() && (text[j] == '+' || text[j] == '-')) ++j;
        if (j < text.size() && IsDigit(text[j])) {
          i = j;
          while (i < text.size() && IsDigit(text[i])) ++i;
        }
      }
      token.kind = Token::Kind::kNumber;
      token.text = std::string(text.substr(start, i - start));
    } else {
      static constexpr std::string_view kTwo[] = {"<<", ">>", "<>", "!=", "<=", ">="};
      token.kind = Token::Kind::kPunct;
      for (std::string_view two : kTwo) {
        if (text.substr(i, 2) == two) {
          token.text = std::string(two);
          break;
        }
      }
      if (token.text.empty()) {
        static constexpr std::string_view kOne = "()[]{},.*=<>+-?:;";
        if (kOne.find(c) == std::string_view::npos) {
          return MalformedStatement("Unexpected character");
        }
        token.text = std::string(1, c);
      }
      i += token.text.size();
    }
    tokens.push_back(std::move(token));
  }
  tokens.push_back(Token{});
  return tokens;
}

}  // namespace partstore::partiql
