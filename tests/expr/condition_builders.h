// Hand-built expression trees for the expression tests (until, and besides, the parser).
//
//   P("a.b[2].c")                 a path ("#n" elements are placeholders, as the parser keeps them)
//   PathOp("a"), ValOp(":v")      operands; SizeOp(PathOp("a"))
//   Cmp(PathOp("a"), "<", ValOp(":v")), Between(...), In(...), Fn("begins_with", ...),
//   And(...), Or(...), Not(...)
//   Num("1.5"), Str("x"), Bin("\x01"), L({...}), M({...}), SS({...}), NS({...}), BS({...})
#pragma once

#include <deque>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/expr/ast.h"
#include "partstore/value.h"

namespace partstore::expr::builders {

inline Number N(std::string_view text) { return Number::Parse(text).value(); }
inline Value Num(std::string_view text) { return Value(N(text)); }
inline Value Str(std::string_view s) { return Value(std::string(s)); }
inline Value Bin(std::string_view bytes) { return Value::Binary(std::string(bytes)); }
inline Value L(std::initializer_list<Value> elements) { return Value::List(ValueList(elements)); }
inline Value M(std::initializer_list<std::pair<std::string, Value>> members) {
  AttributeMap map;
  for (const auto& [k, v] : members) map.insert_or_assign(k, v);
  return Value::Map(std::move(map));
}
inline Value SS(std::initializer_list<std::string> elements) { return Value(StringSet(elements)); }
inline Value NS(std::initializer_list<std::string_view> elements) {
  std::vector<Number> numbers;
  for (std::string_view e : elements) numbers.push_back(N(e));
  return Value(NumberSet(std::move(numbers)));
}
inline Value BS(std::initializer_list<std::string> elements) {
  std::vector<Bytes> bytes;
  for (const std::string& e : elements) bytes.push_back(Bytes{e});
  return Value(BinarySet(std::move(bytes)));
}

// "a.b[2].c" -> Path.
inline Path P(std::string_view text) {
  Path path;
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '.') {
      ++i;
    } else if (text[i] == '[') {
      size_t close = text.find(']', i);
      path.elements.push_back(
          PathElement{"", std::stoll(std::string(text.substr(i + 1, close - i - 1)))});
      i = close + 1;
    } else {
      size_t end = text.find_first_of(".[", i);
      if (end == std::string_view::npos) end = text.size();
      path.elements.push_back(PathElement{std::string(text.substr(i, end - i)), -1});
      i = end;
    }
  }
  return path;
}

inline Operand PathOp(std::string_view path) {
  Operand o;
  o.kind = OperandKind::kPath;
  o.path = P(path);
  return o;
}
// A value placeholder; `value` set means already resolved.
inline Operand ValOp(std::string_view placeholder, const Value* value = nullptr) {
  Operand o;
  o.kind = OperandKind::kValue;
  o.placeholder = std::string(placeholder);
  o.value = value;
  return o;
}
inline Operand Fn2(OperandKind kind, Operand a, Operand b) {
  Operand o;
  o.kind = kind;
  o.args = {std::move(a), std::move(b)};
  return o;
}
inline Operand SizeOp(Operand arg) {
  Operand o;
  o.kind = OperandKind::kSize;
  o.args = {std::move(arg)};
  return o;
}

inline Comparator ComparatorOf(std::string_view text) {
  if (text == "=") return Comparator::kEq;
  if (text == "<>") return Comparator::kNe;
  if (text == "<") return Comparator::kLt;
  if (text == "<=") return Comparator::kLe;
  if (text == ">") return Comparator::kGt;
  return Comparator::kGe;
}

inline Condition Cmp(Operand a, std::string_view comparator, Operand b) {
  Condition c;
  c.kind = ConditionKind::kCompare;
  c.comparator = ComparatorOf(comparator);
  c.operands = {std::move(a), std::move(b)};
  return c;
}
inline Condition Between(Operand a, Operand lo, Operand hi) {
  Condition c;
  c.kind = ConditionKind::kBetween;
  c.operands = {std::move(a), std::move(lo), std::move(hi)};
  return c;
}
inline Condition In(Operand a, std::vector<Operand> list) {
  Condition c;
  c.kind = ConditionKind::kIn;
  c.operands.push_back(std::move(a));
  for (Operand& o : list) c.operands.push_back(std::move(o));
  return c;
}
// begins_with, contains, attribute_type, attribute_exists, attribute_not_exists.
inline Condition Fn(std::string_view name, std::vector<Operand> operands) {
  Condition c;
  if (name == "begins_with")
    c.kind = ConditionKind::kBeginsWith;
  else if (name == "contains")
    c.kind = ConditionKind::kContains;
  else if (name == "attribute_type")
    c.kind = ConditionKind::kAttributeType;
  else if (name == "attribute_exists")
    c.kind = ConditionKind::kAttributeExists;
  else
    c.kind = ConditionKind::kAttributeNotExists;
  c.operands = std::move(operands);
  return c;
}
inline Condition And(Condition a, Condition b) {
  Condition c;
  c.kind = ConditionKind::kAnd;
  c.children = {std::move(a), std::move(b)};
  return c;
}
inline Condition Or(Condition a, Condition b) {
  Condition c;
  c.kind = ConditionKind::kOr;
  c.children = {std::move(a), std::move(b)};
  return c;
}
inline Condition Not(Condition a) {
  Condition c;
  c.kind = ConditionKind::kNot;
  c.children = {std::move(a)};
  return c;
}

// Update actions.
inline UpdateAction Set(std::string_view path, Operand value) {
  return UpdateAction{UpdateActionKind::kSet, P(path), std::move(value)};
}
inline UpdateAction Remove(std::string_view path) {
  return UpdateAction{UpdateActionKind::kRemove, P(path), Operand{}};
}
inline UpdateAction Add(std::string_view path, Operand value) {
  return UpdateAction{UpdateActionKind::kAdd, P(path), std::move(value)};
}
inline UpdateAction Delete(std::string_view path, Operand value) {
  return UpdateAction{UpdateActionKind::kDelete, P(path), std::move(value)};
}
inline UpdateExpression Update(std::vector<UpdateAction> actions) {
  UpdateExpression u;
  u.actions = std::move(actions);
  return u;
}
inline ProjectionExpression Projection(std::initializer_list<std::string_view> paths) {
  ProjectionExpression p;
  for (std::string_view path : paths) p.paths.push_back(P(path));
  return p;
}

// Owns constant values so that hand-resolved operands can point at them:
// `Constants c; Cmp(PathOp("a"), "=", c(Num("1")))`.
class Constants {
 public:
  Operand operator()(Value v) {
    values_.push_back(std::move(v));
    return ValOp(":c", &values_.back());
  }

 private:
  std::deque<Value> values_;  // a deque: pointers stay valid as it grows
};

}  // namespace partstore::expr::builders
