// The PartiQL parser: one statement's text -> its tree (ast.h), with DynamoDB's dialect:
//
//   SELECT * | path, ... FROM "T" | "T"."I" [WHERE cond] [ORDER BY key [ASC | DESC]]
//   INSERT INTO "T" VALUE {'name': literal, ...}
//   UPDATE "T" (SET path = operand, ... | REMOVE path, ...)... WHERE cond
//       [RETURNING (ALL | MODIFIED) (OLD | NEW) *]
//   DELETE FROM "T" WHERE cond [RETURNING ALL OLD *]
//   EXISTS(SELECT * FROM "T" WHERE cond)
//
// Conditions: = <> != < <= > >=, [NOT] BETWEEN .. AND .., [NOT] IN [..] / (..), IS [NOT]
// MISSING | NULL | <type>, AND, OR, NOT, parentheses, function calls. Operands: paths, literals
// ('s', numbers, TRUE, FALSE, NULL, [..], {..}, <<..>>), `?`, calls, `+` / `-`. Keywords are
// case-insensitive; a reserved word as a name needs double quotes.
//
// Limits: nesting (parentheses, literals, NOT) to kMaxDepth; any input is parsed or refused with
// a ValidationException ("Statement wasn't well formed, can't be processed: ..."), never a crash.
// (The statement's length, 1..8192, is a request constraint, checked before parsing.)
//
// Thread safety: free functions; thread-safe.
#pragma once

#include <string_view>

#include "core/partiql/ast.h"
#include "partstore/status.h"

namespace partstore::partiql {

inline constexpr int kMaxDepth = 64;

Result<Statement> ParseStatement(std::string_view text);

}  // namespace partstore::partiql
