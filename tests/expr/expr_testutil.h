// Test helpers for expression trees: a compact canonical text form, so that expected trees can
// be written as strings in tables.
//
//   path          a.b[2].#c          (placeholders as written)
//   value         :v
//   size          size(a)            if_not_exists(a, :v)   list_append(a, :v)
//   arithmetic    (a + :v)  (a - :v)
//   comparison    (a = :v)  (a BETWEEN :lo AND :hi)  (a IN (:x, :y))
//   functions     attribute_exists(a)  begins_with(a, :p) ...
//   logic         (X AND Y)  (X OR Y)  (NOT X)
//   update        SET a = :v; REMOVE b; ADD c :n; DELETE d :s
//   projection    a, b.c[1]
#pragma once

#include <string>

#include "core/expr/ast.h"

namespace partstore::expr::testing {

std::string Show(const Path& path);
std::string Show(const Operand& operand);
std::string Show(const Condition& condition);
std::string Show(const UpdateExpression& update);
std::string Show(const ProjectionExpression& projection);

}  // namespace partstore::expr::testing
