// ApplyUpdate on hand-built (already resolved) trees: the table of core semantics, taken from
// Scylla's test_update_expression.py and test_returnvalues.py (written to pass against DynamoDB):
// SET, + and -, if_not_exists, list_append, REMOVE, ADD, DELETE, key attributes, empty updates and
// legacy AttributeUpdates. The table's document-path rows are in update_paths_test.cc; the
// expression-text cases in update_text_test.cc, ReturnValues sequences in
// update_return_values_test.cc and the randomized model checks in update_random_test.cc.
#include "core/expr/update.h"

#include <gtest/gtest.h>

#include <cctype>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/expr/ast.h"
#include "tests/expr/update_testutil.h"

namespace partstore::expr {
namespace {

using ::partstore::expr::testing::Add;
using ::partstore::expr::testing::Bind;
using ::partstore::expr::testing::Delete;
using ::partstore::expr::testing::IfNotExists;
using ::partstore::expr::testing::kMismatch;
using ::partstore::expr::testing::kMissing;
using ::partstore::expr::testing::kSchema;
using ::partstore::expr::testing::kWrongType;
using ::partstore::expr::testing::L;
using ::partstore::expr::testing::ListAppend;
using ::partstore::expr::testing::M;
using ::partstore::expr::testing::Minus;
using ::partstore::expr::testing::N;
using ::partstore::expr::testing::NS;
using ::partstore::expr::testing::Num;
using ::partstore::expr::testing::PathUpdateCases;
using ::partstore::expr::testing::Plus;
using ::partstore::expr::testing::Ref;
using ::partstore::expr::testing::Remove;
using ::partstore::expr::testing::Set;
using ::partstore::expr::testing::Show;
using ::partstore::expr::testing::SS;
using ::partstore::expr::testing::UpdateCase;
using ::partstore::expr::testing::Val;

// ---- Table-driven cases ----------------------------------------------------------------------

// Error cases leave the trailing expectation fields out.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
std::vector<UpdateCase> Cases() {
  std::vector<UpdateCase> c;
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

  // -- list indexes, nested paths, bad paths: update_paths_test.cc --
  for (UpdateCase& path_case : PathUpdateCases()) c.push_back(std::move(path_case));

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

class UpdateCaseTest : public ::testing::TestWithParam<UpdateCase> {};

TEST_P(UpdateCaseTest, Applies) {
  const UpdateCase& tc = GetParam();
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
                         [](const ::testing::TestParamInfo<UpdateCase>& info) {
                           std::string name = std::to_string(info.index) + "_" + info.param.name;
                           for (char& ch : name) {
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           }
                           return name;
                         });

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

}  // namespace
}  // namespace partstore::expr
