// The typed syntax tree shared by DynamoDB's five expression kinds.
//
// Expressions go through three stages:
//   1. parse   (parser.h):   text -> tree. Depends on the text only, so parsed trees are cached by
//                            text (cache.h). Placeholders are kept as written: a path element
//                            whose name starts with '#' is an ExpressionAttributeNames reference
//                            (bare names never contain '#'), and a value operand holds its ":name".
//   2. resolve (resolve.h):  the request's ExpressionAttributeNames / Values are bound: '#' names
//                            are replaced by the real names, value operands point at the request's
//                            Values. Errors that need names or values (undefined or unused
//                            placeholders, overlapping update paths, operand types of constants,
//                            BETWEEN bounds) are found here.
//   3. evaluate (evaluate.h, update.h, projection.h, key_condition.h): on typed items.
//
// A resolved tree borrows the request's Values (Operand::value): it is valid while the request's
// ExpressionAttributeValues are alive and unchanged.
//
// Thread safety: plain values; const trees may be shared between threads (the cache does).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "partstore/value.h"

namespace partstore::expr {

// One step of a document path: a map member or a list index.
struct PathElement {
  // The member name; empty for a list index. Before resolution a name starting with '#' is an
  // ExpressionAttributeNames placeholder.
  std::string name;
  // The list index for `[n]` steps; -1 for a member name.
  int64_t index = -1;

  bool is_index() const { return index >= 0; }
  friend bool operator==(const PathElement&, const PathElement&) = default;
};

// `a.b[2].c`: the first element is always a name.
struct Path {
  std::vector<PathElement> elements;

  const std::string& top() const { return elements.front().name; }
  bool nested() const { return elements.size() > 1; }
  // As written in DynamoDB's messages: "a.b[2].c".
  std::string ToString() const;
  // As DynamoDB lists paths in overlap / conflict messages: "[a, b, [2], c]".
  std::string ToListString() const;
  friend bool operator==(const Path&, const Path&) = default;
};

// ---- Operands -------------------------------------------------------------------------------

enum class OperandKind : uint8_t {
  kPath,         // a document path: the attribute's value in the item (may be missing)
  kValue,        // an ExpressionAttributeValues placeholder, e.g. :v
  kSize,         // size(path)                                          (conditions)
  kIfNotExists,  // if_not_exists(path, operand)                         (update SET)
  kListAppend,   // list_append(operand, operand)                        (update SET)
  kPlus,         // operand + operand                                   (update SET)
  kMinus,        // operand - operand                                   (update SET)
};

struct Operand {
  OperandKind kind = OperandKind::kPath;
  Path path;                     // kPath
  std::string placeholder;       // kValue: ":v" as written
  const Value* value = nullptr;  // kValue, after resolution: the request's value
  std::vector<Operand> args;     // kSize: 1; kIfNotExists, kListAppend, kPlus, kMinus: 2
};

// ---- Conditions (ConditionExpression, FilterExpression, KeyConditionExpression) ---------------

enum class Comparator : uint8_t { kEq, kNe, kLt, kLe, kGt, kGe };

enum class ConditionKind : uint8_t {
  kCompare,             // operands[0] <comparator> operands[1]
  kBetween,             // operands[0] BETWEEN operands[1] AND operands[2]
  kIn,                  // operands[0] IN (operands[1..])
  kAttributeExists,     // attribute_exists(operands[0])        operands[0] is a path
  kAttributeNotExists,  // attribute_not_exists(operands[0])    operands[0] is a path
  kAttributeType,       // attribute_type(operands[0], operands[1])
  kBeginsWith,          // begins_with(operands[0], operands[1])
  kContains,            // contains(operands[0], operands[1])
  kAnd,                 // children[0] AND children[1]
  kOr,                  // children[0] OR children[1]
  kNot,                 // NOT children[0]
};

struct Condition {
  ConditionKind kind = ConditionKind::kCompare;
  Comparator comparator = Comparator::kEq;  // kCompare
  std::vector<Operand> operands;
  std::vector<Condition> children;
};

// ---- UpdateExpression -----------------------------------------------------------------------

enum class UpdateActionKind : uint8_t { kSet, kRemove, kAdd, kDelete };

struct UpdateAction {
  UpdateActionKind kind = UpdateActionKind::kSet;
  Path path;
  // kSet: the value expression; kAdd / kDelete: a kValue operand; kRemove: unused.
  Operand operand;
};

struct UpdateExpression {
  // In the order written (clauses may come in any order; each clause at most once).
  std::vector<UpdateAction> actions;
  // True for trees translated from the legacy AttributeUpdates parameter (legacy.h), whose
  // semantics differ from UpdateExpression's in two ways: ADD also accepts a list operand and
  // appends it to a list attribute, and a runtime type clash of ADD or DELETE reports
  // "Type mismatch for attribute to update" instead of the expression's message.
  bool from_attribute_updates = false;
};

// ---- ProjectionExpression -------------------------------------------------------------------

struct ProjectionExpression {
  std::vector<Path> paths;
};

// DynamoDB's name for a comparator in messages: "=", "<>", "<", ...
std::string_view ComparatorText(Comparator comparator);
// DynamoDB's name for a condition's operator or function in messages: "BETWEEN", "IN", "AND",
// "attribute_exists", ...; empty for kCompare (use ComparatorText).
std::string_view ConditionKindText(ConditionKind kind);
// DynamoDB's long type names, as operand-type messages print them: "STRING", "NUMBER_SET", ...
std::string_view LongTypeName(Type type);
// How operand-type messages print "any type".
inline constexpr std::string_view kAnyTypeSymbols = "{NS,SS,L,BS,N,M,B,BOOL,NULL,S}";

}  // namespace partstore::expr
