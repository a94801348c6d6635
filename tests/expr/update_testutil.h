// Shared helpers for the ApplyUpdate tests (update_*_test.cc): a small DSL for hand-built
// (already "resolved") update trees, the key schema and the error messages the cases expect, and
// the row type of the Table/UpdateCaseTest table, whose rows are split between update_test.cc and
// update_paths_test.cc.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/expr/ast.h"
#include "partstore/item.h"
#include "partstore/key.h"
#include "partstore/value.h"
#include "tests/expr/condition_builders.h"

namespace partstore::expr::testing {

// ---- A small DSL for hand-built (already "resolved") trees -----------------------------------
// Values and paths come from the condition builders; update actions are added below.
using builders::L;
using builders::M;
using builders::N;
using builders::NS;
using builders::Num;
using builders::P;
using builders::SS;

inline Operand Ref(std::string_view path) {
  return Operand{OperandKind::kPath, P(path), "", nullptr, {}};
}
// A constant, bound to the case's value map by Bind().
inline Operand Val(std::string_view placeholder) {
  return Operand{OperandKind::kValue, {}, std::string(placeholder), nullptr, {}};
}
inline Operand Fn(OperandKind kind, Operand a, Operand b) {
  Operand op;
  op.kind = kind;
  op.args = {std::move(a), std::move(b)};
  return op;
}
inline Operand Plus(Operand a, Operand b) {
  return Fn(OperandKind::kPlus, std::move(a), std::move(b));
}
inline Operand Minus(Operand a, Operand b) {
  return Fn(OperandKind::kMinus, std::move(a), std::move(b));
}
inline Operand IfNotExists(Operand a, Operand b) {
  return Fn(OperandKind::kIfNotExists, std::move(a), std::move(b));
}
inline Operand ListAppend(Operand a, Operand b) {
  return Fn(OperandKind::kListAppend, std::move(a), std::move(b));
}

inline UpdateAction Set(std::string_view path, Operand value) {
  return UpdateAction{UpdateActionKind::kSet, P(path), std::move(value)};
}
inline UpdateAction Remove(std::string_view path) {
  return UpdateAction{UpdateActionKind::kRemove, P(path), {}};
}
inline UpdateAction Add(std::string_view path, std::string_view placeholder) {
  return UpdateAction{UpdateActionKind::kAdd, P(path), Val(placeholder)};
}
inline UpdateAction Delete(std::string_view path, std::string_view placeholder) {
  return UpdateAction{UpdateActionKind::kDelete, P(path), Val(placeholder)};
}

inline void BindOperand(Operand* op, const AttributeMap& values) {
  if (op->kind == OperandKind::kValue) {
    auto it = values.find(op->placeholder);
    ASSERT_NE(it, values.end()) << "test bug: no value " << op->placeholder;
    op->value = &it->second;
  }
  for (Operand& arg : op->args) BindOperand(&arg, values);
}

inline UpdateExpression Bind(std::vector<UpdateAction> actions, const AttributeMap& values) {
  UpdateExpression update;
  update.actions = std::move(actions);
  for (UpdateAction& action : update.actions) BindOperand(&action.operand, values);
  return update;
}

inline std::string Show(const Item& item) { return DebugString(Value::Map(item)); }

inline const KeySchema kSchema{KeyAttribute{"pk", KeyType::kString},
                               KeyAttribute{"sk", KeyType::kNumber}};

inline const std::string kPathInvalid =
    "The document path provided in the update expression is invalid for update";
inline const std::string kMissing =
    "The provided expression refers to an attribute that does not exist in the item";
inline const std::string kWrongType =
    "An operand in the update expression has an incorrect data type";
inline const std::string kMismatch = "Type mismatch for attribute to update";

// ---- Table-driven cases: one row of Table/UpdateCaseTest (update_test.cc) ---------------------

struct UpdateCase {
  std::string name;
  std::optional<Item> before;  // nullopt: no item
  std::vector<UpdateAction> actions;
  AttributeMap values;
  std::string error;          // non-empty: the exact message expected
  std::optional<Item> after;  // nullopt (and no error): no item afterwards
  Item updated_old;
  Item updated_new;
  bool legacy = false;
};

// The table's list-index, nested-path and invalid-path rows (update_paths_test.cc), which come
// right after the list_append rows.
std::vector<UpdateCase> PathUpdateCases();

}  // namespace partstore::expr::testing
