// The typed tree of one PartiQL statement, as DynamoDB's dialect has them (SELECT, INSERT, UPDATE,
// DELETE, and EXISTS for ExecuteTransaction's condition checks). The parser (parser.h) builds it;
// the engine compiles it into the request structs its operations already run (expression strings
// with generated placeholders), so PartiQL has no evaluator of its own.
//
// `?` parameters stay in the tree as their ordinal (0-based, in text order); they are bound when
// the statement is compiled.
//
// Thread safety: value types.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "partstore/value.h"

namespace partstore::partiql {

// One step of a document path: an attribute / map member name, or a list index.
struct PathElement {
  std::string name{};
  std::optional<int64_t> index{};  // set for `[n]`
};

// `a`, `a.b`, `a[0].c`, `"quoted name".b`. The first element is always a name.
struct Path {
  std::vector<PathElement> elements{};
};

// A value written in the statement: a scalar, a `?`, or a list `[...]`, map `{'k': v}` or set
// `<<...>>` of further literals.
struct Literal {
  enum class Kind : uint8_t { kValue, kParameter, kList, kMap, kSet };
  Kind kind = Kind::kValue;
  Value value{};                                           // kValue
  int parameter = 0;                                       // kParameter: its ordinal
  std::vector<Literal> elements{};                         // kList, kSet
  std::vector<std::pair<std::string, Literal>> members{};  // kMap, in text order
};

// An expression: operands (paths, literals, function calls, `+` / `-`) and conditions.
struct Expr {
  enum class Kind : uint8_t {
    kPath,     // path
    kLiteral,  // literal
    kCall,     // name(args...): name lower-cased
    kArith,    // args[0] op args[1], op "+" or "-"
    kCompare,  // args[0] op args[1], op one of = <> < <= > >=
    kBetween,  // args[0] BETWEEN args[1] AND args[2]
    kIn,       // args[0] IN [args[1..]]
    kIs,       // args[0] IS [NOT] op; op "MISSING", "NULL", or a type name (upper-cased)
    kAnd,      // args[0] AND args[1]
    kOr,       // args[0] OR args[1]
    kNot,      // NOT args[0]
  };
  Kind kind = Kind::kLiteral;
  Path path{};
  Literal literal{};
  std::string op{};      // kCall: the function; kArith, kCompare: the operator; kIs: the type
  bool negated = false;  // kIs: IS NOT
  std::vector<Expr> args{};
};

// FROM "Table" or FROM "Table"."Index".
struct TableRef {
  std::string table{};
  std::optional<std::string> index{};
};

struct OrderBy {
  std::string attribute{};
  bool ascending = true;
};

struct SelectStatement {
  TableRef from{};
  std::vector<Path> projection{};  // empty: SELECT *
  std::optional<Expr> where{};
  std::optional<OrderBy> order_by{};
};

struct InsertStatement {
  std::string table{};
  Literal item{};  // a kMap (or a kParameter bound to a map)
};

// RETURNING ALL OLD * | MODIFIED OLD * | ALL NEW * | MODIFIED NEW *.
enum class Returning : uint8_t { kNone, kAllOld, kModifiedOld, kAllNew, kModifiedNew };

struct UpdateAction {
  enum class Kind : uint8_t { kSet, kRemove };
  Kind kind = Kind::kSet;
  Path path{};
  Expr value{};  // kSet
};

struct UpdateStatement {
  std::string table{};
  std::vector<UpdateAction> actions{};
  Expr where{};
  Returning returning = Returning::kNone;
};

struct DeleteStatement {
  std::string table{};
  Expr where{};
  Returning returning = Returning::kNone;
};

// EXISTS(SELECT * FROM "T" WHERE <full key> AND <condition>): a transaction's condition check.
struct ExistsStatement {
  SelectStatement select{};
};

struct Statement {
  std::variant<SelectStatement, InsertStatement, UpdateStatement, DeleteStatement, ExistsStatement>
      body{};
  int parameter_count = 0;  // the `?`s in the text
};

}  // namespace partstore::partiql
