// The PartiQL lexer: statement text -> tokens. Keywords are not told apart here (a bare word is an
// identifier; the parser compares it case-insensitively); "..." is a quoted identifier ("" inside
// is one quote), '...' a string ('' inside is one quote).
//
// Thread safety: free functions; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "partstore/status.h"

namespace partstore::partiql {

struct Token {
  enum class Kind : uint8_t {
    kIdentifier,        // bare word: keyword or name
    kQuotedIdentifier,  // "name"
    kString,            // 'text'
    kNumber,            // 12, -1.5, 1e3 (the sign is a separate kPunct token)
    kPunct,             // ( ) [ ] { } << >> , . * = <> != < <= > >= + - ? : ;
    kEnd,
  };
  Kind kind = Kind::kEnd;
  std::string text{};  // unquoted, unescaped for strings and quoted identifiers
};

// The tokens of `text`, ending with one kEnd token; a ValidationException ("Statement wasn't well
// formed, can't be processed: ...") for an unterminated quote or a character no token starts
// with.
Result<std::vector<Token>> Tokenize(std::string_view text);

// DynamoDB's message for a statement it cannot parse: the detail after its fixed prefix.
Status MalformedStatement(std::string_view detail);

}  // namespace partstore::partiql
