// ApplyUpdate: table-driven cases taken from Scylla's test_update_expression.py and
// test_returnvalues.py (written to pass against DynamoDB), plus randomized checks against simple
// models (numeric ADD / SET +/- sequences; REMOVE / SET index sets on lists).
#include "core/expr/update.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/expr/ast.h"
#include "core/expr/parser.h"
#include "core/expr/resolve.h"

namespace partstore::expr {
namespace {

// ---- A small DSL for hand-built (already "resolved") trees -----------------------------------

Number N(std::string_view text) { return Number::Parse(text).value(); }
Value Num(std::string_view text) { return Value(N(text)); }
Value L(std::initializer_list<Value> elements) { return Value::List(ValueList(elements)); }
Value M(std::initializer_list<std::pair<std::string, Value>> members) {
  return Value::Map(AttributeMap(members));
}
Value SS(std::initializer_list<std::string> elements) { return Value(StringSet(elements)); }
Value NS(std::initializer_list<std::string_view> elements) {
  std::vector<Number> numbers;
  for (std::string_view e : elements) numbers.push_back(N(e));
  return Value(NumberSet(std::move(numbers)));
}

// "a.b[2].c" -> Path. Names are [A-Za-z0-9_]+ here (placeholders are the Resolver's business).
Path P(std::string_view text) {
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

Operand Ref(std::string_view path) { return Operand{OperandKind::kPath, P(path), "", nullptr, {}}; }
// A constant, bound to the case's value map by Bind().
Operand Val(std::string_view placeholder) {
  return Operand{OperandKind::kValue, {}, std::string(placeholder), nullptr, {}};
}
Operand Fn(OperandKind kind, Operand a, Operand b) {
  Operand op;
  op.kind = kind;
  op.args = {std::move(a), std::move(b)};
  return op;
}
Operand Plus(Operand a, Operand b) { return Fn(OperandKind::kPlus, std::move(a), std::move(b)); }
Operand Minus(Operand a, Operand b) { return Fn(OperandKind::kMinus, std::move(a), std::move(b)); }
Operand IfNotExists(Operand a, Operand b) {
  return Fn(OperandKind::kIfNotExists, std::move(a), std::move(b));
}
Operand ListAppend(Operand a, Operand b) {
  return Fn(OperandKind::kListAppend, std::move(a), std::move(b));
}

UpdateAction Set(std::string_view path, Operand value) {
  return UpdateAction{UpdateActionKind::kSet, P(path), std::move(value)};
}
UpdateAction Remove(std::string_view path) {
  return UpdateAction{UpdateActionKind::kRemove, P(path), {}};
}
UpdateAction Add(std::string_view path, std::string_view placeholder) {
  return UpdateAction{UpdateActionKind::kAdd, P(path), Val(placeholder)};
}
UpdateAction Delete(std::string_view path, std::string_view placeholder) {
  return UpdateAction{UpdateActionKind::kDelete, P(path), Val(placeholder)};
}

void BindOperand(Operand* op, const AttributeMap& values) {
  if (op->kind == OperandKind::kValue) {
    auto it = values.find(op->placeholder);
    ASSERT_NE(it, values.end()) << "test bug: no value " << op->placeholder;
    op->value = &it->second;
  }
  for (Operand& arg : op->args) BindOperand(&arg, values);
}

UpdateExpression Bind(std::vector<UpdateAction> actions, const AttributeMap& values) {
  UpdateExpression update;
  update.actions = std::move(actions);
  for (UpdateAction& action : update.actions) BindOperand(&action.operand, values);
  return update;
}

std::string Show(const Item& item) { return DebugString(Value::Map(item)); }

const KeySchema kSchema{KeyAttribute{"pk", KeyType::kString}, KeyAttribute{"sk", KeyType::kNumber}};

const std::string kPathInvalid =
    "The document path provided in the update expression is invalid for update";
const std::string kMissing =
    "The provided expression refers to an attribute that does not exist in the item";
const std::string kWrongType = "An operand in the update expression has an incorrect data type";
const std::string kMismatch = "Type mismatch for attribute to update";

// ---- Table-driven cases ----------------------------------------------------------------------

struct Case {
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

// Error cases leave the trailing expectation fields out.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
std::vector<Case> Cases() {
  std::vector<Case> c;
  const Item base{{"pk", "k"}, {"a", "hi"}, {"b", "dog"}};

  // -- SET --
  c.push_back({"set_new_and_existing",
               base,
               {Set("b", Val(":v")), Set("c", Val(":w"))},
               {{":v", "cat"}, {":w", "hello"}},
               "",
               Item{{"pk", "k"}, {"a", "hi"}, {"b", "cat"}, {"c", "hello"}},
               Item{{"b", "dog"}},
               Item{{"b", "cat"}, {"c", "hello"}}});
  c.push_back({"set_same_value_is_still_updated",
               base,
               {Set("b", Val(":v"))},
               {{":v", "dog"}},
               "",
               base,
               Item{{"b", "dog"}},
               Item{{"b", "dog"}}});
  c.push_back({"set_copy",
               base,
               {Set("c", Ref("a"))},
               {},
               "",
               Item{{"pk", "k"}, {"a", "hi"}, {"b", "dog"}, {"c", "hi"}},
               {},
               Item{{"c", "hi"}}});
  c.push_back({"set_copy_self",
               base,
               {Set("a", Ref("a"))},
               {},
               "",
               base,
               Item{{"a", "hi"}},
               Item{{"a", "hi"}}});
  c.push_back({"set_copy_missing", base, {Set("c", Ref("z"))}, {}, kMissing});
  c.push_back({"set_copy_missing_no_item", std::nullopt, {Set("c", Ref("z"))}, {}, kMissing});
  // Operands are read before anything is written.
  c.push_back({"set_reads_before_writes",
               base,
               {Set("x", Val(":v")), Set("y", Ref("x"))},
               {{":v", 4}},
               kMissing});
  c.push_back({"remove_then_copy_reads_old",
               base,
               {Remove("a"), Set("c", Ref("a"))},
               {},
               "",
               Item{{"pk", "k"}, {"b", "dog"}, {"c", "hi"}},
               Item{{"a", "hi"}},
               Item{{"c", "hi"}}});
  c.push_back({"set_on_missing_item",
               std::nullopt,
               {Set("a", Val(":v"))},
               {{":v", 1}},
               "",
               Item{{"a", 1}},
               {},
               Item{{"a", 1}}});
  c.push_back({"set_key_attribute_read",
               Item{{"pk", "k"}, {"sk", 7}},
               {Set("n", Ref("pk")), Set("nn", Plus(Ref("sk"), Ref("sk")))},
               {},
               "",
               Item{{"pk", "k"}, {"sk", 7}, {"n", "k"}, {"nn", 14}},
               {},
               Item{{"n", "k"}, {"nn", 14}}});
  c.push_back(
      {"set_empty_values_allowed",
       std::nullopt,
       {Set("d", Val(":l")), Set("e", Val(":m")), Set("f", Val(":s")), Set("g", Val(":b"))},
       {{":l", Value::List({})}, {":m", Value::Map({})}, {":s", ""}, {":b", Value::Binary("")}},
       "",
       Item{{"d", Value::List({})}, {"e", Value::Map({})}, {"f", ""}, {"g", Value::Binary("")}},
       {},
       Item{{"d", Value::List({})}, {"e", Value::Map({})}, {"f", ""}, {"g", Value::Binary("")}}});
  c.push_back({"set_empty_set_rejected",
               std::nullopt,
               {Set("a", Val(":v"))},
               {{":v", Value(StringSet{})}},
               std::string(messages::kEmptySet)});

  // -- + and - --
  c.push_back({"plus_path_value",
               Item{{"a", 2}},
               {Set("a", Plus(Ref("a"), Val(":v")))},
               {{":v", 3}},
               "",
               Item{{"a", 5}},
               Item{{"a", 2}},
               Item{{"a", 5}}});
  c.push_back({"plus_value_path",
               Item{{"a", 5}},
               {Set("b", Plus(Val(":v"), Ref("a")))},
               {{":v", 4}},
               "",
               Item{{"a", 5}, {"b", 9}},
               {},
               Item{{"b", 9}}});
  c.push_back({"plus_two_paths",
               Item{{"a", 9}, {"b", 10}},
               {Set("a", Plus(Ref("b"), Ref("a")))},
               {},
               "",
               Item{{"a", 19}, {"b", 10}},
               Item{{"a", 9}},
               Item{{"a", 19}}});
  c.push_back({"minus_value_path",
               Item{{"n", 2}},
               {Set("nn", Minus(Val(":v"), Ref("n")))},
               {{":v", 7}},
               "",
               Item{{"n", 2}, {"nn", 5}},
               {},
               Item{{"nn", 5}}});
  c.push_back({"plus_two_values",
               std::nullopt,
               {Set("b", Minus(Val(":a"), Val(":b")))},
               {{":a", 5}, {":b", 2}},
               "",
               Item{{"b", 3}},
               {},
               Item{{"b", 3}}});
  c.push_back({"plus_exact_decimal",
               Item{{"a", Num("0.1")}},
               {Set("a", Plus(Ref("a"), Val(":v")))},
               {{":v", Num("0.2")}},
               "",
               Item{{"a", Num("0.3")}},
               Item{{"a", Num("0.1")}},
               Item{{"a", Num("0.3")}}});
  c.push_back({"minus_to_zero",
               Item{{"a", Num("1.5")}},
               {Set("a", Minus(Ref("a"), Val(":v")))},
               {{":v", Num("1.50")}},
               "",
               Item{{"a", 0}},
               Item{{"a", Num("1.5")}},
               Item{{"a", 0}}});
  c.push_back({"plus_string_attribute",
               Item{{"a", "x"}},
               {Set("b", Plus(Ref("a"), Val(":v")))},
               {{":v", 1}},
               kWrongType});
  c.push_back({"plus_missing_attribute",
               Item{{"a", 1}},
               {Set("b", Plus(Ref("z"), Val(":v")))},
               {{":v", 1}},
               kMissing});
  c.push_back({"plus_string_constant",
               std::nullopt,
               {Set("b", Plus(Val(":a"), Val(":b")))},
               {{":a", "dog"}, {":b", 3}},
               "Invalid UpdateExpression: Incorrect operand type for operator or function; "
               "operator or function: +, operand type: S"});
  c.push_back({"minus_list_constant",
               std::nullopt,
               {Set("b", Minus(Val(":b"), Val(":a")))},
               {{":a", L({1})}, {":b", 3}},
               "Invalid UpdateExpression: Incorrect operand type for operator or function; "
               "operator or function: -, operand type: L"});
  c.push_back({"plus_overflow",
               Item{{"a", Num("9e125")}},
               {Set("a", Plus(Ref("a"), Val(":v")))},
               {{":v", Num("9e125")}},
               std::string(Number::Add(N("9e125"), N("9e125")).error().message())});
  c.push_back({"plus_imprecise",
               Item{{"a", Num("1e50")}},
               {Set("a", Plus(Ref("a"), Val(":v")))},
               {{":v", 1}},
               std::string(Number::Add(N("1e50"), N("1")).error().message())});

  // -- if_not_exists --
  c.push_back({"if_not_exists_absent",
               Item{{"pk", "k"}},
               {Set("a", IfNotExists(Ref("a"), Val(":v")))},
               {{":v", 2}},
               "",
               Item{{"pk", "k"}, {"a", 2}},
               {},
               Item{{"a", 2}}});
  c.push_back({"if_not_exists_present",
               Item{{"a", 2}},
               {Set("a", IfNotExists(Ref("a"), Val(":v")))},
               {{":v", 3}},
               "",
               Item{{"a", 2}},
               Item{{"a", 2}},
               Item{{"a", 2}}});
  c.push_back({"if_not_exists_other_attribute",
               Item{{"a", 2}, {"b", 5}},
               {Set("b", IfNotExists(Ref("a"), Val(":v")))},
               {{":v", 6}},
               "",
               Item{{"a", 2}, {"b", 2}},
               Item{{"b", 5}},
               Item{{"b", 2}}});
  c.push_back({"if_not_exists_fallback_path",
               Item{{"myval", "original"}},
               {Set("backup", IfNotExists(Ref("backup"), Ref("myval")))},
               {},
               "",
               Item{{"myval", "original"}, {"backup", "original"}},
               {},
               Item{{"backup", "original"}}});
  c.push_back({"if_not_exists_plus",
               std::nullopt,
               {Set("b", Plus(IfNotExists(Ref("b"), Val(":a")), Val(":b")))},
               {{":a", 2}, {":b", 3}},
               "",
               Item{{"b", 5}},
               {},
               Item{{"b", 5}}});
  c.push_back({"if_not_exists_needs_path",
               std::nullopt,
               {Set("b", IfNotExists(Val(":a"), Val(":b")))},
               {{":a", 2}, {":b", 3}},
               "Invalid UpdateExpression: Operator or function requires a document path; operator "
               "or function: if_not_exists"});

  // -- list_append --
  c.push_back({"list_append_values",
               std::nullopt,
               {Set("a", ListAppend(Val(":a"), Val(":b")))},
               {{":a", L({4, "hello"})}, {":b", L({"hi", 7})}},
               "",
               Item{{"a", L({4, "hello", "hi", 7})}},
               {},
               Item{{"a", L({4, "hello", "hi", 7})}}});
  c.push_back({"list_append_append",
               Item{{"a", L({"hi", 2})}},
               {Set("a", ListAppend(Ref("a"), Val(":v")))},
               {{":v", L({4, "hello"})}},
               "",
               Item{{"a", L({"hi", 2, 4, "hello"})}},
               Item{{"a", L({"hi", 2})}},
               Item{{"a", L({"hi", 2, 4, "hello"})}}});
  c.push_back({"list_append_prepend",
               Item{{"a", L({"hi", 2})}},
               {Set("a", ListAppend(Val(":v"), Ref("a")))},
               {{":v", L({"dog"})}},
               "",
               Item{{"a", L({"dog", "hi", 2})}},
               Item{{"a", L({"hi", 2})}},
               Item{{"a", L({"dog", "hi", 2})}}});
  c.push_back({"list_append_two_paths",
               Item{{"a", L({1})}, {"b", L({2, 3})}},
               {Set("c", ListAppend(Ref("a"), Ref("b")))},
               {},
               "",
               Item{{"a", L({1})}, {"b", L({2, 3})}, {"c", L({1, 2, 3})}},
               {},
               Item{{"c", L({1, 2, 3})}}});
  c.push_back({"list_append_empty_list",
               Item{{"b", Value::List({})}},
               {Set("a", ListAppend(Val(":v"), Ref("b")))},
               {{":v", L({"hi", 2})}},
               "",
               Item{{"a", L({"hi", 2})}, {"b", Value::List({})}},
               {},
               Item{{"a", L({"hi", 2})}}});
  c.push_back({"list_append_missing_attribute",
               Item{{"a", 2}},
               {Set("a", ListAppend(Ref("b"), Val(":v")))},
               {{":v", L({1})}},
               kMissing});
  c.push_back({"list_append_missing_item",
               std::nullopt,
               {Set("a", ListAppend(Val(":v"), Ref("b")))},
               {{":v", L({1})}},
               kMissing});
  c.push_back({"list_append_not_a_list",
               Item{{"b", SS({"x"})}},
               {Set("a", ListAppend(Val(":v"), Ref("b")))},
               {{":v", L({1})}},
               kWrongType});
  c.push_back({"list_append_string_constant",
               std::nullopt,
               {Set("a", ListAppend(Val(":a"), Val(":b")))},
               {{":a", L({1})}, {":b", "hi"}},
               "Invalid UpdateExpression: Incorrect operand type for operator or function; "
               "operator or function: list_append, operand type: S"});

  // -- list indexes --
  c.push_back({"set_index_replaces",
               Item{{"a", L({"one", "two", "three"})}},
               {Set("a[1]", Val(":v"))},
               {{":v", "hello"}},
               "",
               Item{{"a", L({"one", "hello", "three"})}},
               Item{{"a", L({"two"})}},
               Item{{"a", L({"hello"})}}});
  c.push_back({"set_index_beyond_end_appends",
               Item{{"a", L({"one", "two", "three"})}},
               {Set("a[7]", Val(":v"))},
               {{":v", "hello"}},
               "",
               Item{{"a", L({"one", "two", "three", "hello"})}},
               {},
               {}});
  c.push_back({"set_indexes_beyond_end_in_index_order",
               Item{{"a", L({"one"})}},
               {Set("a[84]", Val(":1")), Set("a[37]", Val(":2")), Set("a[17]", Val(":3")),
                Set("a[50]", Val(":4"))},
               {{":1", "a1"}, {":2", "a2"}, {":3", "a3"}, {":4", "a4"}},
               "",
               Item{{"a", L({"one", "a3", "a2", "a4", "a1"})}},
               {},
               {}});
  c.push_back({"set_index_0_of_empty_list",
               Item{{"a", Value::List({})}},
               {Set("a[0]", Val(":v"))},
               {{":v", "first"}},
               "",
               Item{{"a", L({"first"})}},
               {},
               Item{{"a", L({"first"})}}});
  c.push_back({"remove_index_then_set_original_index",
               Item{{"a", L({2, 3, 4, 5, 6, 7})}},
               {Remove("a[1]"), Set("a[3]", Val(":v"))},
               {{":v", 17}},
               "",
               Item{{"a", L({2, 4, 17, 6, 7})}},
               Item{{"a", L({3, 5})}},
               Item{{"a", L({4, 6})}}});
  c.push_back({"set_original_index_then_remove_index",
               Item{{"a", L({2, 3, 4, 5, 6, 7})}},
               {Set("a[3]", Val(":v")), Remove("a[1]")},
               {{":v", 17}},
               "",
               Item{{"a", L({2, 4, 17, 6, 7})}},
               Item{{"a", L({3, 5})}},
               Item{{"a", L({4, 6})}}});
  c.push_back({"remove_several_indexes",
               Item{{"a", L({0, 1, 2, 3, 4})}},
               {Remove("a[3]"), Remove("a[1]"), Remove("a[9]")},
               {},
               "",
               Item{{"a", L({0, 2, 4})}},
               Item{{"a", L({1, 3})}},
               Item{{"a", L({2})}}});
  c.push_back({"remove_index_beyond_end",
               Item{{"a", L({4, 5, 6})}},
               {Remove("a[17]")},
               {},
               "",
               Item{{"a", L({4, 5, 6})}},
               {},
               {}});
  c.push_back({"remove_only_element",
               Item{{"a", L({1})}},
               {Remove("a[0]")},
               {},
               "",
               Item{{"a", Value::List({})}},
               Item{{"a", L({1})}},
               {}});
  c.push_back({"remove_and_append_same_list",
               Item{{"a", L({0, 1, 2})}},
               {Remove("a[0]"), Remove("a[3]"), Set("a[5]", Val(":v"))},
               {{":v", 9}},
               "",
               Item{{"a", L({1, 2, 9})}},
               Item{{"a", L({0})}},
               Item{{"a", L({1})}}});

  // -- nested paths --
  const Item nested{{"pk", "k"}, {"a", M({{"b", 3}, {"c", 4}})}, {"d", 5}};
  c.push_back({"set_nested_member",
               nested,
               {Set("a.c", Val(":v"))},
               {{":v", 7}},
               "",
               Item{{"pk", "k"}, {"a", M({{"b", 3}, {"c", 7}})}, {"d", 5}},
               Item{{"a", M({{"c", 4}})}},
               Item{{"a", M({{"c", 7}})}}});
  c.push_back({"set_nested_new_member",
               nested,
               {Set("a.e", Val(":v"))},
               {{":v", 3}},
               "",
               Item{{"pk", "k"}, {"a", M({{"b", 3}, {"c", 4}, {"e", 3}})}, {"d", 5}},
               {},
               Item{{"a", M({{"e", 3}})}}});
  c.push_back({"set_nested_changes_type",
               nested,
               {Set("a.c", Val(":v"))},
               {{":v", M({{"x", 1}})}},
               "",
               Item{{"pk", "k"}, {"a", M({{"b", 3}, {"c", M({{"x", 1}})}})}, {"d", 5}},
               Item{{"a", M({{"c", 4}})}},
               Item{{"a", M({{"c", M({{"x", 1}})}})}}});
  const Item deep{{"a", M({{"b", 3}, {"c", L({"hi", M({{"x", M({{"y", L({3, 5, 7})}})}})})}})}};
  c.push_back({"set_deep",
               deep,
               {Set("a.c[1].x.y[1]", Val(":v"))},
               {{":v", 9}},
               "",
               Item{{"a", M({{"b", 3}, {"c", L({"hi", M({{"x", M({{"y", L({3, 9, 7})}})}})})}})}},
               Item{{"a", M({{"c", L({M({{"x", M({{"y", L({5})}})}})})}})}},
               Item{{"a", M({{"c", L({M({{"x", M({{"y", L({9})}})}})})}})}}});
  c.push_back({"set_from_deep_path",
               deep,
               {Set("z", Ref("a.c[1].x.y[2]"))},
               {},
               "",
               [&] {
                 Item i = deep;
                 i.emplace("z", 7);
                 return i;
               }(),
               {},
               Item{{"z", 7}}});
  c.push_back(
      {"remove_deep",
       Item{{"a", M({{"b", 3}, {"c", L({"hi", M({{"x", M({{"y", L({3, 5, 7})}})}, {"q", 2}})})}})}},
       {Remove("a.c[1].x.y[1]"), Remove("a.c[1].q")},
       {},
       "",
       Item{{"a", M({{"b", 3}, {"c", L({"hi", M({{"x", M({{"y", L({3, 7})}})}})})}})}},
       Item{{"a", M({{"c", L({M({{"q", 2}, {"x", M({{"y", L({5})}})}})})}})}},
       Item{{"a", M({{"c", L({M({{"x", M({{"y", L({7})}})}})})}})}}});
  c.push_back(
      {"multi_nested",
       Item{{"a", M({{"x", 3}, {"y", 4}, {"c", M({{"y", 3}})}})}, {"b", M({{"x", 1}, {"y", 2}})}},
       {Set("a.b", Val(":1")), Set("a.c.d", Val(":2")), Set("b.x", Val(":3")), Remove("a.x"),
        Remove("b.y")},
       {{":1", 10}, {":2", "dog"}, {":3", 17}},
       "",
       Item{{"a", M({{"y", 4}, {"b", 10}, {"c", M({{"y", 3}, {"d", "dog"}})}})},
            {"b", M({{"x", 17}})}},
       Item{{"a", M({{"x", 3}})}, {"b", M({{"x", 1}, {"y", 2}})}},
       Item{{"a", M({{"b", 10}, {"c", M({{"d", "dog"}})}})}, {"b", M({{"x", 17}})}}});
  c.push_back({"nested_arithmetic",
               Item{{"m", M({{"counter", 10}})}},
               {Set("m.counter", Plus(Ref("m.counter"), Val(":inc")))},
               {{":inc", 5}},
               "",
               Item{{"m", M({{"counter", 15}})}},
               Item{{"m", M({{"counter", 10}})}},
               Item{{"m", M({{"counter", 15}})}}});
  c.push_back({"remove_only_member_leaves_empty_map",
               Item{{"a", M({{"b", 1}})}},
               {Remove("a.b")},
               {},
               "",
               Item{{"a", Value::Map({})}},
               Item{{"a", M({{"b", 1}})}},
               {}});
  c.push_back({"remove_missing_leaves_are_noops",
               Item{{"a", M({{"x", 3}})}, {"b", L({"hi"})}},
               {Remove("a.y"), Remove("b[7]"), Remove("c")},
               {},
               "",
               Item{{"a", M({{"x", 3}})}, {"b", L({"hi"})}},
               {},
               {}});

  // Bad document paths: the parent is missing or of the wrong type.
  const Item bad{{"a", "hello"}, {"b", L({"hi"})}};
  for (const char* path : {"a.c", "b.c", "c.c", "a[0]", "c[0]", "b[0].x", "b[5].x"}) {
    c.push_back({std::string("set_bad_path_") + path,
                 bad,
                 {Set(path, Val(":v"))},
                 {{":v", 7}},
                 kPathInvalid});
  }
  for (const char* path : {"a.c", "b.c", "c.c", "a[0]", "c[0]", "b[3].x"}) {
    c.push_back({std::string("remove_bad_path_") + path, bad, {Remove(path)}, {}, kPathInvalid});
  }
  c.push_back({"add_bad_path", bad, {Add("a.c", ":v")}, {{":v", 1}}, kPathInvalid});
  c.push_back({"delete_bad_path", bad, {Delete("c.d", ":v")}, {{":v", SS({"x"})}}, kPathInvalid});
  c.push_back({"set_nested_on_missing_item",
               std::nullopt,
               {Set("c.c", Val(":v"))},
               {{":v", 7}},
               kPathInvalid});
  c.push_back({"set_index_on_missing_item",
               std::nullopt,
               {Set("b[0]", Val(":v"))},
               {{":v", 7}},
               kPathInvalid});
  // DynamoDB quirk: REMOVE of any path on a missing item is silently ignored, and creates nothing.
  c.push_back({"remove_nested_on_missing_item",
               std::nullopt,
               {Remove("x.y"), Remove("x[0]")},
               {},
               "",
               std::nullopt});
  c.push_back({"remove_on_missing_item", std::nullopt, {Remove("a")}, {}, "", std::nullopt});
  c.push_back({"remove_with_set_on_missing_item",
               std::nullopt,
               {Remove("x.y"), Set("a", Val(":v"))},
               {{":v", 1}},
               "",
               Item{{"a", 1}},
               {},
               Item{{"a", 1}}});

  // -- REMOVE (top level) --
  c.push_back({"remove_attribute",
               base,
               {Remove("a")},
               {},
               "",
               Item{{"pk", "k"}, {"b", "dog"}},
               Item{{"a", "hi"}},
               {}});
  c.push_back({"remove_absent_attribute", base, {Remove("zz")}, {}, "", base, {}, {}});
  c.push_back({"updated_new_skips_removed",
               Item{{"a", "hi"}, {"b", "dog"}, {"c", 1}},
               {Set("a", Val(":v")), Set("b", Val(":w")), Remove("c")},
               {{":v", "dog"}, {":w", "tiger"}},
               "",
               Item{{"a", "dog"}, {"b", "tiger"}},
               Item{{"a", "hi"}, {"b", "dog"}, {"c", 1}},
               Item{{"a", "dog"}, {"b", "tiger"}}});

  // -- ADD --
  c.push_back({"add_number",
               Item{{"a", 3}, {"b", "hi"}},
               {Add("a", ":v")},
               {{":v", 4}},
               "",
               Item{{"a", 7}, {"b", "hi"}},
               Item{{"a", 3}},
               Item{{"a", 7}}});
  c.push_back({"add_number_to_string",
               Item{{"a", 3}, {"b", "hi"}},
               {Add("b", ":v")},
               {{":v", 1}},
               kWrongType});
  c.push_back({"add_string_constant",
               Item{{"a", 3}},
               {Add("a", ":v")},
               {{":v", "hello"}},
               "Invalid UpdateExpression: Incorrect operand type for operator or function; "
               "operator: ADD, operand type: STRING, typeSet: ALLOWED_FOR_ADD_OPERAND"});
  c.push_back({"add_list_constant",
               Item{{"a", L({1, 2})}},
               {Add("a", ":v")},
               {{":v", L({3, 4})}},
               "Invalid UpdateExpression: Incorrect operand type for operator or function; "
               "operator: ADD, operand type: LIST, typeSet: ALLOWED_FOR_ADD_OPERAND"});
  c.push_back({"add_number_absent",
               Item{{"a", "hello"}},
               {Add("b", ":v")},
               {{":v", 7}},
               "",
               Item{{"a", "hello"}, {"b", 7}},
               {},
               Item{{"b", 7}}});
  c.push_back({"add_number_missing_item",
               std::nullopt,
               {Add("b", ":v")},
               {{":v", 8}},
               "",
               Item{{"b", 8}},
               {},
               Item{{"b", 8}}});
  c.push_back({"add_number_overflow",
               Item{{"a", Num("9e125")}},
               {Add("a", ":v")},
               {{":v", Num("9e125")}},
               std::string(Number::Add(N("9e125"), N("9e125")).error().message())});
  c.push_back({"add_set",
               Item{{"a", SS({"dog", "cat", "mouse"})}},
               {Add("a", ":v")},
               {{":v", SS({"pig"})}},
               "",
               Item{{"a", SS({"dog", "cat", "mouse", "pig"})}},
               Item{{"a", SS({"dog", "cat", "mouse"})}},
               Item{{"a", SS({"dog", "cat", "mouse", "pig"})}}});
  c.push_back({"add_set_overlapping",
               Item{{"a", SS({"beaver", "lynx", "coati"})}},
               {Add("a", ":v")},
               {{":v", SS({"coati", "beaver", "badger"})}},
               "",
               Item{{"a", SS({"beaver", "badger", "lynx", "coati"})}},
               Item{{"a", SS({"beaver", "lynx", "coati"})}},
               Item{{"a", SS({"beaver", "badger", "lynx", "coati"})}}});
  c.push_back({"add_set_absent",
               Item{{"a", "hello"}},
               {Add("b", ":v")},
               {{":v", SS({"dog"})}},
               "",
               Item{{"a", "hello"}, {"b", SS({"dog"})}},
               {},
               Item{{"b", SS({"dog"})}}});
  c.push_back({"add_set_wrong_element_type",
               Item{{"a", NS({"1", "2"})}},
               {Add("a", ":v")},
               {{":v", SS({"x"})}},
               kWrongType});
  c.push_back({"add_set_to_list",
               Item{{"a", L({1, 2})}},
               {Add("a", ":v")},
               {{":v", NS({"3", "4"})}},
               kWrongType});
  c.push_back(
      {"add_number_to_set", Item{{"a", NS({"1"})}}, {Add("a", ":v")}, {{":v", 1}}, kWrongType});
  c.push_back(
      {"add_nested",
       Item{{"a", M({{"b", "c"}, {"d", L({"e", "f", SS({"g", "h"})})}, {"i", SS({"j", "k"})}})}},
       {Add("a.d[2]", ":1"), Add("a.i", ":2")},
       {{":1", SS({"l", "m"})}, {":2", SS({"n", "o"})}},
       "",
       Item{{"a", M({{"b", "c"},
                     {"d", L({"e", "f", SS({"g", "h", "l", "m"})})},
                     {"i", SS({"j", "k", "n", "o"})}})}},
       Item{{"a", M({{"d", L({SS({"g", "h"})})}, {"i", SS({"j", "k"})}})}},
       Item{{"a", M({{"d", L({SS({"g", "h", "l", "m"})})}, {"i", SS({"j", "k", "n", "o"})}})}}});
  c.push_back({"add_nested_number",
               Item{{"m", M({})}},
               {Add("m.n", ":v")},
               {{":v", 2}},
               "",
               Item{{"m", M({{"n", 2}})}},
               {},
               Item{{"m", M({{"n", 2}})}}});

  // -- DELETE --
  c.push_back({"delete_elements",
               Item{{"a", SS({"dog", "cat", "mouse"})}, {"b", "hi"}},
               {Delete("a", ":v")},
               {{":v", SS({"cat", "mouse"})}},
               "",
               Item{{"a", SS({"dog"})}, {"b", "hi"}},
               Item{{"a", SS({"dog", "cat", "mouse"})}},
               Item{{"a", SS({"dog"})}}});
  c.push_back({"delete_absent_element",
               Item{{"a", SS({"dog"})}},
               {Delete("a", ":v")},
               {{":v", SS({"pig"})}},
               "",
               Item{{"a", SS({"dog"})}},
               Item{{"a", SS({"dog"})}},
               Item{{"a", SS({"dog"})}}});
  c.push_back({"delete_last_element_removes_attribute",
               Item{{"a", SS({"dog"})}, {"b", "hi"}},
               {Delete("a", ":v")},
               {{":v", SS({"dog"})}},
               "",
               Item{{"b", "hi"}},
               Item{{"a", SS({"dog"})}},
               {}});
  c.push_back({"delete_absent_attribute",
               Item{{"b", "hi"}},
               {Delete("a", ":v")},
               {{":v", SS({"dog"})}},
               "",
               Item{{"b", "hi"}},
               {},
               {}});
  c.push_back({"delete_on_missing_item",
               std::nullopt,
               {Delete("a", ":v")},
               {{":v", SS({"dog"})}},
               "",
               std::nullopt});
  c.push_back({"delete_number_set",
               Item{{"a", NS({"1", "2", "3", "4", "5"})}},
               {Delete("a", ":v")},
               {{":v", NS({"2", "4"})}},
               "",
               Item{{"a", NS({"1", "3", "5"})}},
               Item{{"a", NS({"1", "2", "3", "4", "5"})}},
               Item{{"a", NS({"1", "3", "5"})}}});
  c.push_back({"delete_string_constant",
               Item{{"a", SS({"x"})}},
               {Delete("a", ":v")},
               {{":v", "hello"}},
               "Invalid UpdateExpression: Incorrect operand type for operator or function; "
               "operator: DELETE, operand type: STRING, typeSet: ALLOWED_FOR_DELETE_OPERAND"});
  c.push_back({"delete_from_string",
               Item{{"a", "x"}},
               {Delete("a", ":v")},
               {{":v", SS({"x"})}},
               kWrongType});
  c.push_back({"delete_wrong_set_type",
               Item{{"a", NS({"1"})}},
               {Delete("a", ":v")},
               {{":v", SS({"1"})}},
               kWrongType});
  // A set emptied inside a list goes away with its element, as a top-level one does.
  c.push_back({"delete_emptying_list_element",
               Item{{"a", L({1, SS({"x"}), 3})}},
               {Delete("a[1]", ":v")},
               {{":v", SS({"x"})}},
               "",
               Item{{"a", L({1, 3})}},
               Item{{"a", L({SS({"x"})})}},
               Item{{"a", L({3})}}});

  // -- keys --
  for (UpdateAction action : {Set("pk", Val(":s")), Remove("pk"), Add("pk", ":n"),
                              Delete("pk", ":ss"), Set("pk.x", Val(":s"))}) {
    c.push_back({"key_pk",
                 base,
                 {action},
                 {{":s", "x"}, {":n", 4}, {":ss", SS({"cat"})}},
                 "One or more parameter values were invalid: Cannot update attribute pk. This "
                 "attribute is part of the key"});
  }
  c.push_back({"key_sk",
               base,
               {Set("a", Val(":s")), Set("sk", Val(":n"))},
               {{":s", "x"}, {":n", 4}},
               "One or more parameter values were invalid: Cannot update attribute sk. This "
               "attribute is part of the key"});

  // -- empty updates (only reachable through legacy AttributeUpdates {}) --
  c.push_back({"empty_update_missing_item", std::nullopt, {}, {}, "", Item{}, {}, {}});
  c.push_back({"empty_update_existing_item", base, {}, {}, "", base, {}, {}});

  // -- legacy AttributeUpdates semantics --
  c.push_back({"legacy_add_list_appends",
               Item{{"a", L({1, 2})}},
               {Add("a", ":v")},
               {{":v", L({3, 4})}},
               "",
               Item{{"a", L({1, 2, 3, 4})}},
               Item{{"a", L({1, 2})}},
               Item{{"a", L({1, 2, 3, 4})}},
               true});
  c.push_back({"legacy_add_list_keeps_duplicates",
               Item{{"a", L({1, 2, 3})}},
               {Add("a", ":v")},
               {{":v", L({3, 5})}},
               "",
               Item{{"a", L({1, 2, 3, 3, 5})}},
               Item{{"a", L({1, 2, 3})}},
               Item{{"a", L({1, 2, 3, 3, 5})}},
               true});
  c.push_back({"legacy_add_list_absent",
               std::nullopt,
               {Add("b", ":v")},
               {{":v", L({7})}},
               "",
               Item{{"b", L({7})}},
               {},
               Item{{"b", L({7})}},
               true});
  c.push_back({"legacy_add_number_to_set",
               Item{{"a", SS({"dog"})}},
               {Add("a", ":v")},
               {{":v", 2}},
               kMismatch,
               {},
               {},
               {},
               true});
  c.push_back({"legacy_add_list_to_number",
               Item{{"a", 2}},
               {Add("a", ":v")},
               {{":v", L({"dog"})}},
               kMismatch,
               {},
               {},
               {},
               true});
  c.push_back({"legacy_delete_wrong_set",
               Item{{"a", NS({"1"})}},
               {Delete("a", ":v")},
               {{":v", SS({"hi"})}},
               kMismatch,
               {},
               {},
               {},
               true});
  c.push_back({"legacy_delete_from_number",
               Item{{"a", 1}},
               {Delete("a", ":v")},
               {{":v", NS({"1"})}},
               kMismatch,
               {},
               {},
               {},
               true});
  return c;
}
#pragma GCC diagnostic pop

class UpdateCaseTest : public ::testing::TestWithParam<Case> {};

TEST_P(UpdateCaseTest, Applies) {
  const Case& tc = GetParam();
  UpdateExpression update = Bind(tc.actions, tc.values);
  update.from_attribute_updates = tc.legacy;
  const Item* before = tc.before ? &*tc.before : nullptr;
  for (UpdatedAttributes wanted :
       {UpdatedAttributes::kNone, UpdatedAttributes::kUpdatedOld, UpdatedAttributes::kUpdatedNew}) {
    Result<UpdateOutcome> r = ApplyUpdate(update, before, kSchema, wanted);
    if (!tc.error.empty()) {
      ASSERT_FALSE(r.ok()) << Show(r->item);
      EXPECT_EQ(r.error().code(), Code::kValidation);
      EXPECT_EQ(r.error().message(), tc.error);
      continue;
    }
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->exists, tc.after.has_value());
    if (tc.after) {
      EXPECT_EQ(r->item, *tc.after) << "got " << Show(r->item) << "\nwant " << Show(*tc.after);
    } else {
      EXPECT_TRUE(r->item.empty()) << Show(r->item);
    }
    const Item& want = wanted == UpdatedAttributes::kUpdatedOld   ? tc.updated_old
                       : wanted == UpdatedAttributes::kUpdatedNew ? tc.updated_new
                                                                  : Item{};
    EXPECT_EQ(r->attributes, want) << "ReturnValues " << static_cast<int>(wanted) << " got "
                                   << Show(r->attributes) << "\nwant " << Show(want);
  }
}

INSTANTIATE_TEST_SUITE_P(Table, UpdateCaseTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           std::string name = std::to_string(info.index) + "_" + info.param.name;
                           for (char& ch : name) {
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           }
                           return name;
                         });

// ---- ReturnValues on nested updates: test_returnvalues.py::test_update_item_returnvalues_nested,
// replayed step by step on one item. --------------------------------------------------------

TEST(UpdateReturnValuesTest, NestedSequenceFromScylla) {
  Item item{{"pk", "p"}, {"a", M({{"b", "dog"}, {"c", L({1, 2, 3})}})}, {"d", "cat"}};
  auto step = [&](std::vector<UpdateAction> actions, AttributeMap values,
                  UpdatedAttributes wanted) {
    UpdateExpression update = Bind(std::move(actions), values);
    Result<UpdateOutcome> r = ApplyUpdate(update, &item, kSchema, wanted);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    if (!r.ok()) return Item{};
    item = r->item;
    return r->attributes;
  };
  using enum UpdatedAttributes;
  EXPECT_EQ(step({Set("a.b", Val(":v"))}, {{":v", "hi"}}, kUpdatedOld),
            (Item{{"a", M({{"b", "dog"}})}}));
  EXPECT_EQ(step({Set("a.b", Val(":v"))}, {{":v", "yo"}}, kUpdatedOld),
            (Item{{"a", M({{"b", "hi"}})}}));
  EXPECT_EQ(step({Set("a.c[1]", Val(":v"))}, {{":v", 7}}, kUpdatedOld),
            (Item{{"a", M({{"c", L({2})}})}}));
  EXPECT_EQ(step({Set("a.c[1]", Val(":v")), Set("a.b", Val(":w"))}, {{":v", 8}, {":w", "dog"}},
                 kUpdatedOld),
            (Item{{"a", M({{"b", "yo"}, {"c", L({7})}})}}));
  EXPECT_EQ(step({Set("a.b", Val(":v"))}, {{":v", "hello"}}, kUpdatedNew),
            (Item{{"a", M({{"b", "hello"}})}}));
  EXPECT_EQ(step({Set("a.c[1]", Val(":v"))}, {{":v", 4}}, kUpdatedNew),
            (Item{{"a", M({{"c", L({4})}})}}));
  EXPECT_EQ(step({Set("a.c[1]", Val(":v")), Set("a.b", Val(":w"))}, {{":v", 3}, {":w", "dog"}},
                 kUpdatedNew),
            (Item{{"a", M({{"b", "dog"}, {"c", L({3})}})}}));
  EXPECT_EQ(item, (Item{{"pk", "p"}, {"a", M({{"b", "dog"}, {"c", L({1, 3, 3})}})}, {"d", "cat"}}));
  // a.c[3] did not exist: not in UPDATED_OLD.
  EXPECT_EQ(step({Remove("a.c[1]"), Remove("a.c[3]")}, {}, kUpdatedOld),
            (Item{{"a", M({{"c", L({3})}})}}));
  EXPECT_EQ(step({Set("a.x1", Val(":v"))}, {{":v", 8}}, kUpdatedOld), Item{});
  EXPECT_EQ(step({Set("a.x2", Val(":v"))}, {{":v", 8}}, kUpdatedNew),
            (Item{{"a", M({{"x2", 8}})}}));
  // Appending through an index beyond the end is not in UPDATED_NEW.
  EXPECT_EQ(step({Set("a.c[100]", Val(":v"))}, {{":v", 70}}, kUpdatedNew), Item{});
  EXPECT_EQ(item.at("a").as_map().at("c"), L({1, 3, 70}));
  // REMOVE a.c[1] shows the element that shifted into a.c[1].
  EXPECT_EQ(step({Remove("a.c[1]")}, {}, kUpdatedNew), (Item{{"a", M({{"c", L({70})}})}}));
}

TEST(UpdateReturnValuesTest, OverwritesThenRemovesFromScylla) {
  Item item{{"pk", "p"}, {"a", "hi"}, {"b", "dog"}};
  auto old_of = [&](std::vector<UpdateAction> actions, AttributeMap values) {
    UpdateExpression update = Bind(std::move(actions), values);
    Result<UpdateOutcome> r = ApplyUpdate(update, &item, kSchema, UpdatedAttributes::kUpdatedOld);
    EXPECT_TRUE(r.ok());
    item = r->item;
    return r->attributes;
  };
  EXPECT_EQ(old_of({Set("b", Val(":v")), Set("c", Val(":w"))}, {{":v", "cat"}, {":w", "hello"}}),
            (Item{{"b", "dog"}}));
  EXPECT_EQ(old_of({Set("b", Val(":v"))}, {{":v", "cat"}}), (Item{{"b", "cat"}}));
  EXPECT_EQ(old_of({Remove("b")}, {}), (Item{{"b", "cat"}}));
  EXPECT_EQ(old_of({Set("b", Val(":v"))}, {{":v", "cat"}}), Item{});
  EXPECT_EQ(old_of({Set("b", Val(":v")), Set("d", Val(":w"))}, {{":v", "dog"}, {":w", "lion"}}),
            (Item{{"b", "cat"}}));
  EXPECT_EQ(old_of({Set("b", Val(":v")), Set("d", Val(":w"))}, {{":v", "cat"}, {":w", "tiger"}}),
            (Item{{"b", "dog"}, {"d", "lion"}}));
}

// The old item is never modified, even when an update fails half-way.
TEST(UpdateTest, OldItemUntouched) {
  const Item before{{"a", L({1, 2, 3})}, {"n", 1}, {"s", SS({"x", "y"})}};
  Item copy = before;
  AttributeMap values{{":v", 5}, {":s", SS({"x"})}};
  UpdateExpression ok = Bind({Remove("a[0]"), Add("n", ":v"), Delete("s", ":s")}, values);
  ASSERT_TRUE(ApplyUpdate(ok, &copy, kSchema, UpdatedAttributes::kUpdatedNew).ok());
  EXPECT_EQ(copy, before);
  UpdateExpression failing = Bind({Remove("a[0]"), Add("s", ":v")}, values);
  ASSERT_FALSE(ApplyUpdate(failing, &copy, kSchema, UpdatedAttributes::kNone).ok());
  EXPECT_EQ(copy, before);
}

// ---- From text: ParseUpdate -> Resolver -> ApplyUpdate, with Scylla's expressions verbatim --

struct TextCase {
  std::string name;
  std::optional<Item> before;
  std::string text;
  AttributeMap values;
  NameMap names;
  std::string error;  // non-empty: the exact message expected
  std::optional<Item> after;
  Item updated_old;
  Item updated_new;
};

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
std::vector<TextCase> TextCases() {
  const Item nested{{"p", "k"},
                    {"a", M({{"x", 3}, {"y", 4}, {"c", M({{"y", 3}})}})},
                    {"b", M({{"x", 1}, {"y", 2}})}};
  return {
      {"set",
       Item{{"p", "k"}},
       "SET b = :val1",
       {{":val1", 4}},
       {},
       "",
       Item{{"p", "k"}, {"b", 4}},
       {},
       Item{{"b", 4}}},
      {"set_multi",
       std::nullopt,
       "SET x = :val1, y = :val1",
       {{":val1", 4}},
       {},
       "",
       Item{{"x", 4}, {"y", 4}},
       {},
       Item{{"x", 4}, {"y", 4}}},
      {"set_lowercase_keyword",
       Item{{"b", 3}},
       "  set   b=:val1  ",
       {{":val1", 5}},
       {},
       "",
       Item{{"b", 5}},
       Item{{"b", 3}},
       Item{{"b", 5}}},
      {"copy",
       Item{{"a", "hello"}},
       "SET b = a",
       {},
       {},
       "",
       Item{{"a", "hello"}, {"b", "hello"}},
       {},
       Item{{"b", "hello"}}},
      {"copy_missing", Item{{"a", "hello"}}, "SET c = z", {}, {}, kMissing},
      {"copy_reads_old",
       Item{{"a", "hello"}},
       "SET x = :val1, y = x",
       {{":val1", 4}},
       {},
       kMissing},
      {"names",
       Item{{"a", "hello"}},
       "SET #one = #two",
       {},
       {{"#one", "c"}, {"#two", "a"}},
       "",
       Item{{"a", "hello"}, {"c", "hello"}},
       {},
       Item{{"c", "hello"}}},
      {"dot_in_name",
       std::nullopt,
       "SET #a = :val1",
       {{":val1", 3}},
       {{"#a", "a.b"}},
       "",
       Item{{"a.b", 3}},
       {},
       Item{{"a.b", 3}}},
      {"minus_names",
       Item{{"n", 2}},
       "SET #nn = :seven - #n",
       {{":seven", 7}},
       {{"#nn", "nn"}, {"#n", "n"}},
       "",
       Item{{"n", 2}, {"nn", 5}},
       {},
       Item{{"nn", 5}}},
      {"prepend",
       Item{{"nnn", L({2, 4})}},
       "SET #nnnn = list_append(:val1, #nnn)",
       {{":val1", L({1, 3})}},
       {{"#nnnn", "nnnn"}, {"#nnn", "nnn"}},
       "",
       Item{{"nnn", L({2, 4})}, {"nnnn", L({1, 3, 2, 4})}},
       {},
       Item{{"nnnn", L({1, 3, 2, 4})}}},
      {"remove_then_set",
       Item{{"a", 1}, {"b", 2}},
       "REMOVE a SET b = :val2",
       {{":val2", 3}},
       {},
       "",
       Item{{"b", 3}},
       Item{{"a", 1}, {"b", 2}},
       Item{{"b", 3}}},
      {"set_then_remove",
       Item{{"b", 3}},
       "SET c = :val2 REMOVE b",
       {{":val2", 3}},
       {},
       "",
       Item{{"c", 3}},
       Item{{"b", 3}},
       Item{{"c", 3}}},
      {"remove_then_copy",
       Item{{"a", "hello"}},
       "REMOVE a SET b = a",
       {},
       {},
       "",
       Item{{"b", "hello"}},
       Item{{"a", "hello"}},
       Item{{"b", "hello"}}},
      {"multi_nested",
       nested,
       "SET a.b = :val1, a.c.d = :val2, b.x = :val3 REMOVE a.x, b.y",
       {{":val1", 10}, {":val2", "dog"}, {":val3", 17}},
       {},
       "",
       Item{{"p", "k"},
            {"a", M({{"y", 4}, {"b", 10}, {"c", M({{"y", 3}, {"d", "dog"}})}})},
            {"b", M({{"x", 17}})}},
       Item{{"a", M({{"x", 3}})}, {"b", M({{"x", 1}, {"y", 2}})}},
       Item{{"a", M({{"b", 10}, {"c", M({{"d", "dog"}})}})}, {"b", M({{"x", 17}})}}},
      {"plus_rmw",
       Item{{"a", 9}, {"b", 10}},
       "SET a = b + a",
       {},
       {},
       "",
       Item{{"a", 19}, {"b", 10}},
       Item{{"a", 9}},
       Item{{"a", 19}}},
      {"plus_value_first",
       Item{{"a", 5}},
       "SET a = :val1 + a",
       {{":val1", 4}},
       {},
       "",
       Item{{"a", 9}},
       Item{{"a", 5}},
       Item{{"a", 9}}},
      {"if_not_exists_plus",
       std::nullopt,
       "SET b = if_not_exists(b, :val1)+:val2",
       {{":val1", 2}, {":val2", 3}},
       {},
       "",
       Item{{"b", 5}},
       {},
       Item{{"b", 5}}},
      {"list_append",
       Item{{"a", L({"hi", 2})}},
       "SET a = list_append(a, :val1)",
       {{":val1", L({4, "hello"})}},
       {},
       "",
       Item{{"a", L({"hi", 2, 4, "hello"})}},
       Item{{"a", L({"hi", 2})}},
       Item{{"a", L({"hi", 2, 4, "hello"})}}},
      {"list_append_missing",
       Item{{"a", 2}},
       "SET a = list_append(b, :val1)",
       {{":val1", L({"hi", 2})}},
       {},
       kMissing},
      {"list_append_not_list",
       Item{{"b", 7}},
       "SET a = list_append(:val1, b)",
       {{":val1", L({"hi", 2})}},
       {},
       kWrongType},
      {"add_number",
       Item{{"a", 3}, {"b", "hi"}},
       "ADD a :val1",
       {{":val1", 4}},
       {},
       "",
       Item{{"a", 7}, {"b", "hi"}},
       Item{{"a", 3}},
       Item{{"a", 7}}},
      {"add_to_string", Item{{"a", 3}, {"b", "hi"}}, "ADD b :val1", {{":val1", 1}}, {}, kWrongType},
      {"add_set",
       Item{{"a", SS({"dog", "cat", "mouse"})}},
       "ADD a :val1",
       {{":val1", SS({"pig"})}},
       {},
       "",
       Item{{"a", SS({"dog", "cat", "mouse", "pig"})}},
       Item{{"a", SS({"dog", "cat", "mouse"})}},
       Item{{"a", SS({"dog", "cat", "mouse", "pig"})}}},
      {"delete_set",
       Item{{"a", SS({"dog", "cat", "mouse"})}, {"b", "hi"}},
       "DELETE a :val1",
       {{":val1", SS({"cat", "mouse"})}},
       {},
       "",
       Item{{"a", SS({"dog"})}, {"b", "hi"}},
       Item{{"a", SS({"dog", "cat", "mouse"})}},
       Item{{"a", SS({"dog"})}}},
      {"deep_with_name",
       Item{{"a", M({{"b", 3}, {"c", L({"hi", M({{"x", M({{"y", L({3, 5, 7})}})}})})}})}},
       "SET a.c[1].#name.y[1] = :val1",
       {{":val1", 9}},
       {{"#name", "x"}},
       "",
       Item{{"a", M({{"b", 3}, {"c", L({"hi", M({{"x", M({{"y", L({3, 9, 7})}})}})})}})}},
       Item{{"a", M({{"c", L({M({{"x", M({{"y", L({5})}})}})})}})}},
       Item{{"a", M({{"c", L({M({{"x", M({{"y", L({9})}})}})})}})}}},
      {"remove_original_numbering",
       Item{{"a", L({2, 3, 4, 5, 6, 7})}},
       "REMOVE a[1] SET a[3] = :val",
       {{":val", 17}},
       {},
       "",
       Item{{"a", L({2, 4, 17, 6, 7})}},
       Item{{"a", L({3, 5})}},
       Item{{"a", L({4, 6})}}},
      {"set_original_numbering",
       Item{{"a", L({2, 3, 4, 5, 6, 7})}},
       "SET a[3] = :val REMOVE a[1]",
       {{":val", 17}},
       {},
       "",
       Item{{"a", L({2, 4, 17, 6, 7})}},
       Item{{"a", L({3, 5})}},
       Item{{"a", L({4, 6})}}},
      {"appends_in_index_order",
       Item{{"a", L({"one", "two", "three", "hello"})}},
       "SET a[84] = :val1, a[37] = :val2, a[17] = :val3, a[50] = :val4",
       {{":val1", "a1"}, {":val2", "a2"}, {":val3", "a3"}, {":val4", "a4"}},
       {},
       "",
       Item{{"a", L({"one", "two", "three", "hello", "a3", "a2", "a4", "a1"})}},
       {},
       {}},
      {"bad_path",
       Item{{"a", "hello"}, {"b", L({"hi"})}},
       "SET b.c = :val1",
       {{":val1", 7}},
       {},
       kPathInvalid},
      {"remove_missing_item_nested", std::nullopt, "REMOVE x.y", {}, {}, "", std::nullopt},
      {"returnvalues_remove_absent_index",
       Item{{"a", M({{"b", "dog"}, {"c", L({1, 3, 3})}})}},
       "REMOVE a.c[1], a.c[3]",
       {},
       {},
       "",
       Item{{"a", M({{"b", "dog"}, {"c", L({1, 3})}})}},
       Item{{"a", M({{"c", L({3})}})}},
       Item{{"a", M({{"c", L({3})}})}}},
      {"add_nested",
       Item{{"a", M({{"d", L({"e", SS({"g"})})}, {"i", SS({"j"})}})}},
       "ADD a.d[1] :val1, a.i :val2",
       {{":val1", SS({"l"})}, {":val2", SS({"n"})}},
       {},
       "",
       Item{{"a", M({{"d", L({"e", SS({"g", "l"})})}, {"i", SS({"j", "n"})}})}},
       Item{{"a", M({{"d", L({SS({"g"})})}, {"i", SS({"j"})}})}},
       Item{{"a", M({{"d", L({SS({"g", "l"})})}, {"i", SS({"j", "n"})}})}}},
      {"key",
       Item{{"pk", "k"}},
       "SET pk = :val1",
       {{":val1", 4}},
       {},
       "One or more parameter values were invalid: Cannot update attribute pk. This attribute is "
       "part of the key"},
  };
}
#pragma GCC diagnostic pop

class UpdateTextTest : public ::testing::TestWithParam<TextCase> {};

TEST_P(UpdateTextTest, ParsesResolvesApplies) {
  const TextCase& tc = GetParam();
  Result<UpdateExpression> parsed = ParseUpdate(tc.text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  Resolver resolver(tc.names.empty() ? nullptr : &tc.names,
                    tc.values.empty() ? nullptr : &tc.values);
  Result<UpdateExpression> resolved = resolver.Resolve(*parsed);
  ASSERT_TRUE(resolved.ok()) << resolved.status().ToString();
  ASSERT_TRUE(resolver.CheckAllUsed().ok());
  const Item* before = tc.before ? &*tc.before : nullptr;
  for (UpdatedAttributes wanted :
       {UpdatedAttributes::kUpdatedOld, UpdatedAttributes::kUpdatedNew}) {
    Result<UpdateOutcome> r = ApplyUpdate(*resolved, before, kSchema, wanted);
    if (!tc.error.empty()) {
      ASSERT_FALSE(r.ok());
      EXPECT_EQ(r.error().message(), tc.error);
      continue;
    }
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->exists, tc.after.has_value());
    if (tc.after) {
      EXPECT_EQ(r->item, *tc.after) << Show(r->item);
    }
    const Item& want = wanted == UpdatedAttributes::kUpdatedOld ? tc.updated_old : tc.updated_new;
    EXPECT_EQ(r->attributes, want) << Show(r->attributes);
  }
}

INSTANTIATE_TEST_SUITE_P(Scylla, UpdateTextTest, ::testing::ValuesIn(TextCases()),
                         [](const ::testing::TestParamInfo<TextCase>& info) {
                           return std::to_string(info.index) + "_" + info.param.name;
                         });

// ---- Randomized: numeric sequences against an exact scaled-integer model ---------------------

// Values are multiples of 10^-6 below 10^15 in magnitude, so every sum in a short sequence stays
// well inside 38 digits and the model (an __int128 count of millionths) is exact.
using Scaled = __int128;
constexpr int kScale = 6;

std::string ScaledText(Scaled v) {
  bool negative = v < 0;
  unsigned __int128 m =
      negative ? static_cast<unsigned __int128>(-v) : static_cast<unsigned __int128>(v);
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(m % 10)));
    m /= 10;
  } while (m != 0);
  while (digits.size() <= kScale) digits.insert(digits.begin(), '0');
  std::string text;
  if (negative) text.push_back('-');
  text.append(digits, 0, digits.size() - kScale);
  text.push_back('.');
  text.append(digits, digits.size() - kScale, kScale);
  return text;
}

TEST(UpdateRandomTest, NumericSequencesMatchModel) {
  std::mt19937_64 rng(20240611);
  for (int round = 0; round < 300; ++round) {
    const bool nested = round % 3 == 0;
    const std::string target = nested ? "m.n" : "n";
    std::optional<Item> item;  // nullopt: no item yet
    if (round % 2 == 0) item = Item{{"pk", "k"}, {"m", Value::Map({})}};
    std::optional<Scaled> model;  // the attribute's value; nullopt: absent
    for (int step = 0; step < 40; ++step) {
      const int64_t mantissa =
          std::uniform_int_distribution<int64_t>(-999999999999LL, 999999999999LL)(rng);
      const int scale = std::uniform_int_distribution<int>(0, kScale)(rng);
      Scaled x = mantissa;
      for (int i = scale; i < kScale; ++i) x *= 10;
      AttributeMap values{{":x", Num(ScaledText(x))}, {":zero", 0}};
      std::vector<UpdateAction> actions;
      std::optional<Scaled> expect;
      std::string expect_error;
      const int op = std::uniform_int_distribution<int>(0, 4)(rng);
      switch (op) {
        case 0:  // ADD n :x
          actions.push_back(Add(target, ":x"));
          expect = model.value_or(0) + x;
          break;
        case 1:  // SET n = n + :x
          actions.push_back(Set(target, Plus(Ref(target), Val(":x"))));
          if (model)
            expect = *model + x;
          else
            expect_error = kMissing;
          break;
        case 2:  // SET n = :x - n
          actions.push_back(Set(target, Minus(Val(":x"), Ref(target))));
          if (model)
            expect = x - *model;
          else
            expect_error = kMissing;
          break;
        case 3:  // SET n = if_not_exists(n, :zero) - :x
          actions.push_back(Set(target, Minus(IfNotExists(Ref(target), Val(":zero")), Val(":x"))));
          expect = model.value_or(0) - x;
          break;
        case 4:  // SET n = :x
          actions.push_back(Set(target, Val(":x")));
          expect = x;
          break;
      }
      // Without an item there is no map m: operands are evaluated first (ops 1 and 2 fail on the
      // missing operand), then the target path is found invalid.
      if (nested && !item && op != 1 && op != 2) expect_error = kPathInvalid;
      UpdateExpression update = Bind(actions, values);
      Result<UpdateOutcome> r =
          ApplyUpdate(update, item ? &*item : nullptr, kSchema, UpdatedAttributes::kUpdatedNew);
      if (!expect_error.empty()) {
        ASSERT_FALSE(r.ok()) << "round " << round << " step " << step;
        ASSERT_EQ(r.error().message(), expect_error);
        continue;
      }
      ASSERT_TRUE(r.ok()) << r.status().ToString() << " round " << round << " step " << step;
      item = r->item;
      model = expect;
      const Value want = Num(ScaledText(*model));
      const Value* got = nested ? &item->at("m").as_map().at("n") : &item->at("n");
      ASSERT_EQ(*got, want) << "round " << round << " step " << step << " op " << op << ": got "
                            << DebugString(*got) << " want " << ScaledText(*model);
      const Item want_new = nested ? Item{{"m", Value::Map({{"n", want}})}} : Item{{"n", want}};
      ASSERT_EQ(r->attributes, want_new);
    }
  }
}

// ---- Randomized: top-level SET / REMOVE / ADD / DELETE on random items against a std::map ----

TEST(UpdateRandomTest, TopLevelActionsMatchModel) {
  std::mt19937_64 rng(4242);
  auto name_of = [](int k) { return std::string(1, static_cast<char>('a' + k)); };
  for (int round = 0; round < 3000; ++round) {
    std::map<std::string, Value> model;
    std::optional<Item> before;
    if (round % 5 != 0) {
      before = Item{};
      for (int k = 0; k < 12; ++k) {
        if (!std::bernoulli_distribution(0.5)(rng)) continue;
        Value v = std::bernoulli_distribution(0.5)(rng) ? Value(k) : Value(SS({name_of(k), "x"}));
        before->emplace(name_of(k), v);
        model.emplace(name_of(k), v);
      }
    }
    AttributeMap values;
    std::vector<UpdateAction> actions;
    std::set<std::string> touched;
    bool creates = before.has_value();
    std::string expect_error;
    for (int n = std::uniform_int_distribution<int>(0, 6)(rng); n > 0; --n) {
      const std::string name = name_of(std::uniform_int_distribution<int>(0, 12)(rng));
      if (!touched.insert(name).second) continue;
      const std::string placeholder = ":" + name;
      auto it = model.find(name);
      switch (std::uniform_int_distribution<int>(0, 3)(rng)) {
        case 0:
          values.emplace(placeholder, Value("s" + name));
          actions.push_back(Set(name, Val(placeholder)));
          model[name] = Value("s" + name);
          creates = true;
          break;
        case 1:
          actions.push_back(Remove(name));
          if (it != model.end()) model.erase(it);
          break;
        case 2:  // ADD a string set
          values.emplace(placeholder, SS({"y"}));
          actions.push_back(Add(name, placeholder));
          creates = true;
          if (it == model.end()) {
            model[name] = SS({"y"});
          } else if (it->second.is(Type::kSS)) {
            it->second.as_string_set().insert("y");
          } else if (expect_error.empty()) {
            expect_error = kWrongType;
          }
          break;
        case 3:  // DELETE from a string set
          values.emplace(placeholder, SS({"x"}));
          actions.push_back(Delete(name, placeholder));
          if (it != model.end()) {
            if (!it->second.is(Type::kSS)) {
              if (expect_error.empty()) expect_error = kWrongType;
            } else {
              it->second.as_string_set().erase("x");
              if (it->second.as_string_set().empty()) model.erase(it);
            }
          }
          break;
      }
    }
    UpdateExpression update = Bind(actions, values);
    Result<UpdateOutcome> r =
        ApplyUpdate(update, before ? &*before : nullptr, kSchema, UpdatedAttributes::kUpdatedNew);
    if (!expect_error.empty()) {
      ASSERT_FALSE(r.ok()) << "round " << round;
      ASSERT_EQ(r.error().message(), expect_error);
      continue;
    }
    ASSERT_TRUE(r.ok()) << r.status().ToString() << " round " << round;
    ASSERT_EQ(r->exists, creates || actions.empty());
    if (!r->exists) continue;
    const Item want(model.begin(), model.end());
    ASSERT_EQ(r->item, want) << "round " << round << " got " << Show(r->item) << " want "
                             << Show(want);
    Item want_new;
    for (const std::string& name : touched) {
      if (auto it = model.find(name); it != model.end()) want_new.emplace(name, it->second);
    }
    ASSERT_EQ(r->attributes, want_new) << "round " << round;
  }
}

// ---- Randomized: index REMOVE / SET sets on a list against a model ---------------------------

TEST(UpdateRandomTest, ListIndexActionsMatchModel) {
  std::mt19937_64 rng(77);
  for (int round = 0; round < 2000; ++round) {
    const bool nested = round % 2 == 1;
    const std::string list_path = nested ? "m.l" : "l";
    const int size = std::uniform_int_distribution<int>(0, 10)(rng);
    ValueList elements;
    for (int i = 0; i < size; ++i) elements.push_back(Value(100 + i));
    Item before = nested ? Item{{"m", Value::Map({{"l", Value::List(elements)}})}, {"x", 1}}
                         : Item{{"l", Value::List(elements)}, {"x", 1}};

    // Distinct indexes (DynamoDB rejects two actions on one path), each removed or set.
    std::set<int> used;
    std::map<int, bool> removes;  // index -> true
    std::map<int, int> sets;      // index -> new value
    const int actions_count = std::uniform_int_distribution<int>(1, 6)(rng);
    std::vector<UpdateAction> actions;
    AttributeMap values;
    for (int k = 0; k < actions_count; ++k) {
      int index = std::uniform_int_distribution<int>(0, 14)(rng);
      if (!used.insert(index).second) continue;
      const std::string path = list_path + "[" + std::to_string(index) + "]";
      if (std::bernoulli_distribution(0.5)(rng)) {
        removes[index] = true;
        actions.push_back(Remove(path));
      } else {
        const std::string placeholder = ":v" + std::to_string(index);
        values.emplace(placeholder, 1000 + index);
        sets[index] = 1000 + index;
        actions.push_back(Set(path, Val(placeholder)));
      }
    }
    std::shuffle(actions.begin(), actions.end(), rng);

    // Model: replacements and removals address the old positions; SETs beyond the end append in
    // index order.
    ValueList expected;
    for (int i = 0; i < size; ++i) {
      if (removes.count(i)) continue;
      expected.push_back(sets.count(i) ? Value(sets[i]) : elements[i]);
    }
    for (const auto& [index, v] : sets) {
      if (index >= size) expected.push_back(Value(v));
    }
    ValueList expect_old, expect_new;
    for (int index : used) {
      if (index < size) expect_old.push_back(elements[index]);
      if (index < static_cast<int>(expected.size())) expect_new.push_back(expected[index]);
    }
    auto wrap = [&](ValueList list) -> Item {
      if (list.empty()) return Item{};
      return nested ? Item{{"m", Value::Map({{"l", Value::List(std::move(list))}})}}
                    : Item{{"l", Value::List(std::move(list))}};
    };

    UpdateExpression update = Bind(actions, values);
    Result<UpdateOutcome> r_old =
        ApplyUpdate(update, &before, kSchema, UpdatedAttributes::kUpdatedOld);
    Result<UpdateOutcome> r_new =
        ApplyUpdate(update, &before, kSchema, UpdatedAttributes::kUpdatedNew);
    ASSERT_TRUE(r_old.ok() && r_new.ok()) << r_old.status().ToString();
    const Value& got = nested ? r_new->item.at("m").as_map().at("l") : r_new->item.at("l");
    ASSERT_EQ(got, Value::List(expected)) << "round " << round << " got " << DebugString(got)
                                          << " want " << DebugString(Value::List(expected));
    ASSERT_EQ(r_old->item, r_new->item);
    ASSERT_EQ(r_old->attributes, wrap(expect_old)) << "round " << round;
    ASSERT_EQ(r_new->attributes, wrap(expect_new))
        << "round " << round << " got " << Show(r_new->attributes);
    ASSERT_EQ(r_new->item.at("x"), Value(1));
  }
}

}  // namespace
}  // namespace partstore::expr
