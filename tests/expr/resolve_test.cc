// Resolver: every message and its precedence, table-driven. Sources for each text are in
// resolve.cc's comments; the cases marked "live" reproduce responses recorded from DynamoDB
// (conformance suites, issue threads), the others follow DynamoDB's validator code order.
#include "core/expr/resolve.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "core/expr/parser.h"
#include "tests/expr/condition_builders.h"

namespace partstore::expr {
namespace {

using namespace builders;  // NOLINT

Operand PlusOp(Operand a, Operand b) { return Fn2(OperandKind::kPlus, std::move(a), std::move(b)); }
Operand MinusOp(Operand a, Operand b) {
  return Fn2(OperandKind::kMinus, std::move(a), std::move(b));
}
Operand ListAppendOp(Operand a, Operand b) {
  return Fn2(OperandKind::kListAppend, std::move(a), std::move(b));
}
Operand IfNotExistsOp(Operand a, Operand b) {
  return Fn2(OperandKind::kIfNotExists, std::move(a), std::move(b));
}

// The request maps every case resolves against.
NameMap TestNames() { return {{"#a", "a"}, {"#a2", "a"}, {"#b", "b"}}; }
AttributeMap TestValues() {
  AttributeMap v;
  v.insert_or_assign(":s", Str("x"));
  v.insert_or_assign(":s2", Str("y"));
  v.insert_or_assign(":n", Num("1"));
  v.insert_or_assign(":n2", Num("2"));
  v.insert_or_assign(":b1", Bin(std::string("\x01", 1)));
  v.insert_or_assign(":b2", Bin(std::string("\x02\xff", 2)));
  v.insert_or_assign(":l", L({Num("1")}));
  v.insert_or_assign(":m", M({{"k", Num("1")}}));
  v.insert_or_assign(":bool", Value(true));
  v.insert_or_assign(":null", Value::Nil());
  v.insert_or_assign(":ss", SS({"a"}));
  v.insert_or_assign(":ns", NS({"1"}));
  v.insert_or_assign(":bs", BS({"a"}));
  v.insert_or_assign(":t", Str("SS"));
  v.insert_or_assign(":badt", Str("STRING"));
  return v;
}

struct ConditionCase {
  const char* label;
  Condition condition;
  std::string error;  // empty: resolves
  ExpressionKind kind = ExpressionKind::kCondition;
};

std::string CE(std::string_view m) { return "Invalid ConditionExpression: " + std::string(m); }

constexpr const char* kDistinct =
    "The first operand must be distinct from the remaining operands for this operator or "
    "function; ";
std::string Distinct(std::string_view op, std::string_view first) {
  return CE(std::string(kDistinct) + "operator: " + std::string(op) +
            ", first operand: " + std::string(first));
}
std::string OperandType(std::string_view op, std::string_view type) {
  return CE("Incorrect operand type for operator or function; operator or function: " +
            std::string(op) + ", operand type: " + std::string(type));
}

std::vector<ConditionCase> ConditionCases() {
  std::vector<ConditionCase> cases;
  auto add = [&](const char* label, Condition c, std::string error,
                 ExpressionKind kind = ExpressionKind::kCondition) {
    cases.push_back({label, std::move(c), std::move(error), kind});
  };
  // Placeholders. Live: conformance query.test.ts "filter references undefined
  // ExpressionAttributeNames" and the UpdateExpression capture for values.
  add("undefined name", Cmp(PathOp("#x"), "=", ValOp(":s")),
      CE("An expression attribute name used in the document path is not defined; attribute name: "
         "#x"));
  add("undefined nested name", Cmp(PathOp("a.#x[1]"), "=", ValOp(":s")),
      CE("An expression attribute name used in the document path is not defined; attribute name: "
         "#x"));
  add("undefined value", Cmp(PathOp("a"), "=", ValOp(":zz")),
      CE("An expression attribute value used in expression is not defined; attribute value: :zz"));
  add("name before value, left to right", Cmp(PathOp("#x"), "=", ValOp(":zz")),
      CE("An expression attribute name used in the document path is not defined; attribute name: "
         "#x"));
  add("value before name, left to right", Cmp(ValOp(":zz"), "=", PathOp("#x")),
      CE("An expression attribute value used in expression is not defined; attribute value: :zz"));
  add("an operator's error precedes a later condition's placeholder",
      And(Fn("begins_with", {PathOp("a"), ValOp(":n")}), Cmp(PathOp("b"), "=", ValOp(":zz"))),
      OperandType("begins_with", "N"));
  add("a placeholder precedes a later condition's operator error",
      And(Cmp(PathOp("b"), "=", ValOp(":zz")), Fn("begins_with", {PathOp("a"), ValOp(":n")})),
      CE("An expression attribute value used in expression is not defined; attribute value: :zz"));
  add("placeholder before the operator's own type check",
      Fn("begins_with", {ValOp(":n"), ValOp(":zz")}),
      CE("An expression attribute value used in expression is not defined; attribute value: :zz"));
  add("names resolve",
      And(Cmp(PathOp("#a"), "=", ValOp(":s")), Cmp(PathOp("#b.c"), "<", ValOp(":n"))), "");

  // begins_with: S or B constants only (brief; dynalite conditionParser).
  add("begins_with number", Fn("begins_with", {PathOp("a"), ValOp(":n")}),
      OperandType("begins_with", "N"));
  add("begins_with number first", Fn("begins_with", {ValOp(":n"), PathOp("a")}),
      OperandType("begins_with", "N"));
  add("begins_with list", Fn("begins_with", {PathOp("a"), ValOp(":l")}),
      OperandType("begins_with", "L"));
  add("begins_with size()", Fn("begins_with", {SizeOp(PathOp("a")), ValOp(":s")}),
      OperandType("begins_with", "N"));
  add("begins_with string", Fn("begins_with", {PathOp("a"), ValOp(":s")}), "");
  add("begins_with binary", Fn("begins_with", {PathOp("a"), ValOp(":b1")}), "");
  add("begins_with same path", Fn("begins_with", {PathOp("a"), PathOp("a")}),
      Distinct("begins_with", "[a]"));
  add("key condition prefix", Fn("begins_with", {PathOp("a"), ValOp(":n")}),
      "Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator "
      "or "
      "function: begins_with, operand type: N",
      ExpressionKind::kKeyCondition);
  add("filter prefix", Cmp(PathOp("a"), "=", ValOp(":zz")),
      "Invalid FilterExpression: An expression attribute value used in expression is not defined; "
      "attribute value: :zz",
      ExpressionKind::kFilter);

  // Distinct operands. Live: "operator: contains, first operand: [data]" (conformance capture).
  add("contains same path", Fn("contains", {PathOp("data"), PathOp("data")}),
      Distinct("contains", "[data]"));
  add("contains same path via names", Fn("contains", {PathOp("#a"), PathOp("a")}),
      Distinct("contains", "[a]"));
  add("two names for one attribute", Cmp(PathOp("#a"), "=", PathOp("#a2")), Distinct("=", "[a]"));
  add("nested same path", Fn("contains", {PathOp("a.b[1]"), PathOp("a.b[1]")}),
      Distinct("contains", "[a, b, [1]]"));
  add("= same path", Cmp(PathOp("a"), "=", PathOp("a")), Distinct("=", "[a]"));
  add("<> same path", Cmp(PathOp("a"), "<>", PathOp("a")), Distinct("<>", "[a]"));
  add("< same path", Cmp(PathOp("a"), "<", PathOp("a")), Distinct("<", "[a]"));
  add("different paths", Cmp(PathOp("a.b"), "=", PathOp("a")), "");
  add("same constant twice", Cmp(ValOp(":s"), "=", ValOp(":s")), "");
  add("size() of the same path", Cmp(SizeOp(PathOp("a")), "=", SizeOp(PathOp("a"))), "");
  add("IN repeats the first path", In(PathOp("a"), {ValOp(":s"), PathOp("a")}),
      Distinct("IN", "[a]"));
  add("IN", In(PathOp("a"), {ValOp(":s"), ValOp(":n"), PathOp("b")}), "");
  add("BETWEEN repeats the first path", Between(PathOp("a"), PathOp("a"), ValOp(":n")),
      Distinct("BETWEEN", "[a]"));
  add("attribute_type repeats the path", Fn("attribute_type", {PathOp("a"), PathOp("a")}),
      Distinct("attribute_type", "[a]"));

  // Ordering comparators take S, N, B constants (Scylla test_update_condition_lt: a list
  // constant is a ValidationException; the text is DynamoDB's operand-type message).
  add("< list constant", Cmp(PathOp("a"), "<", ValOp(":l")), OperandType("<", "L"));
  add(">= map constant first", Cmp(ValOp(":m"), ">=", PathOp("a")), OperandType(">=", "M"));
  add("<= bool", Cmp(PathOp("a"), "<=", ValOp(":bool")), OperandType("<=", "BOOL"));
  add("> set", Cmp(PathOp("a"), ">", ValOp(":ss")), OperandType(">", "SS"));
  add("< size() with a list", Cmp(SizeOp(PathOp("a")), "<", ValOp(":l")), OperandType("<", "L"));
  add("= list constant is fine", Cmp(PathOp("a"), "=", ValOp(":l")), "");
  add("<> null constant is fine", Cmp(PathOp("a"), "<>", ValOp(":null")), "");
  add("< binary", Cmp(PathOp("a"), "<", ValOp(":b1")), "");

  // BETWEEN. Live texts via dynalite's tests ({N:1} / {S:a} formatting).
  add("BETWEEN different types", Between(PathOp("a"), ValOp(":n"), ValOp(":s")),
      CE("The BETWEEN operator requires same data type for lower and upper bounds; lower bound "
         "operand: AttributeValue: {N:1}, upper bound operand: AttributeValue: {S:x}"));
  add("BETWEEN lower > upper", Between(PathOp("a"), ValOp(":n2"), ValOp(":n")),
      CE("The BETWEEN operator requires upper bound to be greater than or equal to lower bound; "
         "lower bound operand: AttributeValue: {N:2}, upper bound operand: AttributeValue: {N:1}"));
  add("BETWEEN strings reversed", Between(PathOp("a"), ValOp(":s2"), ValOp(":s")),
      CE("The BETWEEN operator requires upper bound to be greater than or equal to lower bound; "
         "lower bound operand: AttributeValue: {S:y}, upper bound operand: AttributeValue: {S:x}"));
  add("BETWEEN binaries reversed (base64)", Between(PathOp("a"), ValOp(":b2"), ValOp(":b1")),
      CE("The BETWEEN operator requires upper bound to be greater than or equal to lower bound; "
         "lower bound operand: AttributeValue: {B:Av8=}, upper bound operand: AttributeValue: "
         "{B:AQ==}"));
  add("BETWEEN equal bounds", Between(PathOp("a"), ValOp(":n"), ValOp(":n")), "");
  add("BETWEEN bound from the item", Between(PathOp("a"), PathOp("b"), ValOp(":s")), "");
  add("BETWEEN bool bound", Between(PathOp("a"), ValOp(":bool"), ValOp(":n")),
      OperandType("BETWEEN", "BOOL"));
  add("BETWEEN type check before distinct", Between(PathOp("a"), PathOp("a"), ValOp(":bool")),
      OperandType("BETWEEN", "BOOL"));
  add("BETWEEN key condition", Between(PathOp("a"), ValOp(":n"), ValOp(":s")),
      "Invalid KeyConditionExpression: The BETWEEN operator requires same data type for lower and "
      "upper bounds; lower bound operand: AttributeValue: {N:1}, upper bound operand: "
      "AttributeValue: {S:x}",
      ExpressionKind::kKeyCondition);

  // attribute_type (valid-types text: dynalite's tests).
  add("attribute_type number", Fn("attribute_type", {PathOp("a"), ValOp(":n")}),
      OperandType("attribute_type", "N"));
  add("attribute_type path", Fn("attribute_type", {PathOp("a"), PathOp("b")}),
      OperandType("attribute_type", "{NS,SS,L,BS,N,M,B,BOOL,NULL,S}"));
  add("attribute_type size()", Fn("attribute_type", {PathOp("a"), SizeOp(PathOp("b"))}),
      OperandType("attribute_type", "N"));
  add("attribute_type bad name", Fn("attribute_type", {PathOp("a"), ValOp(":badt")}),
      CE("Invalid attribute type name found; type: STRING, valid types: "
         "{B,NULL,SS,BOOL,L,BS,N,NS,S,M}"));
  add("attribute_type", Fn("attribute_type", {PathOp("a"), ValOp(":t")}), "");

  // size(). Live: scylladb#14592 "operator or function: size, operand type: N".
  add("size of a number", Cmp(SizeOp(ValOp(":n")), "=", ValOp(":n")), OperandType("size", "N"));
  add("size of size", Cmp(SizeOp(SizeOp(PathOp("a"))), "=", ValOp(":n")), OperandType("size", "N"));
  add("size of a bool", Cmp(SizeOp(ValOp(":bool")), "=", ValOp(":n")), OperandType("size", "BOOL"));
  add("size of null", Cmp(SizeOp(ValOp(":null")), "=", ValOp(":n")), OperandType("size", "NULL"));
  add("size of a string constant", Cmp(SizeOp(ValOp(":s")), "=", ValOp(":n")), "");
  add("size of a map constant", Cmp(SizeOp(ValOp(":m")), "=", ValOp(":n")), "");

  add("attribute_exists of a value", Fn("attribute_exists", {ValOp(":s")}),
      CE("Operator or function requires a document path; operator or function: attribute_exists"));
  add("attribute_not_exists of a value", Fn("attribute_not_exists", {ValOp(":s")}),
      CE("Operator or function requires a document path; operator or function: "
         "attribute_not_exists"));
  add("NOT / OR",
      Not(Or(Fn("attribute_exists", {PathOp("#a")}), Cmp(PathOp("b"), "<>", ValOp(":n")))), "");
  return cases;
}

TEST(ResolveTest, ConditionCases) {
  NameMap names = TestNames();
  AttributeMap values = TestValues();
  for (ConditionCase& c : ConditionCases()) {
    SCOPED_TRACE(c.label);
    Resolver resolver(&names, &values);
    Result<Condition> result = resolver.Resolve(c.condition, c.kind);
    if (c.error.empty()) {
      EXPECT_TRUE(result.ok()) << result.status().ToString();
    } else {
      ASSERT_FALSE(result.ok());
      EXPECT_EQ(result.status().code(), Code::kValidation);
      EXPECT_EQ(result.status().message(), c.error);
    }
  }
}

TEST(ResolveTest, ResolvedTreeBindsNamesAndValues) {
  NameMap names = TestNames();
  AttributeMap values = TestValues();
  Resolver resolver(&names, &values);
  Condition parsed =
      And(Cmp(PathOp("#a.#b[2]"), "=", ValOp(":s")), Cmp(SizeOp(PathOp("c")), ">", ValOp(":n")));
  Result<Condition> resolved = resolver.Resolve(parsed, ExpressionKind::kCondition);
  ASSERT_TRUE(resolved.ok()) << resolved.status().ToString();
  const Condition& left = resolved->children[0];
  EXPECT_EQ(left.operands[0].path, P("a.b[2]"));
  EXPECT_EQ(left.operands[1].value, &values.find(":s")->second);
  EXPECT_EQ(resolved->children[1].operands[1].value, &values.find(":n")->second);
  // The parsed tree is untouched (it may be shared through the cache).
  EXPECT_EQ(parsed.children[0].operands[0].path, P("#a.#b[2]"));
  EXPECT_EQ(parsed.children[0].operands[1].value, nullptr);
}

// ---- UpdateExpression ------------------------------------------------------------------------

struct ResolveUpdateCase {
  const char* label;
  UpdateExpression update;
  std::string error;
};

std::string UE(std::string_view m) { return "Invalid UpdateExpression: " + std::string(m); }
std::string Overlap(std::string_view one, std::string_view two) {
  return "Two document paths overlap with each other; must remove or rewrite one of these paths; "
         "path one: " +
         std::string(one) + ", path two: " + std::string(two);
}
std::string Conflict(std::string_view one, std::string_view two) {
  return "Two document paths conflict with each other; must remove or rewrite one of these paths; "
         "path one: " +
         std::string(one) + ", path two: " + std::string(two);
}

std::vector<ResolveUpdateCase> ResolveUpdateCases() {
  std::vector<ResolveUpdateCase> cases;
  auto add = [&](const char* label, UpdateExpression u, std::string error) {
    cases.push_back({label, std::move(u), std::move(error)});
  };
  add("undefined name in a target", Update({Set("#x", ValOp(":s"))}),
      UE("An expression attribute name used in the document path is not defined; attribute name: "
         "#x"));
  add("undefined value (live text)", Update({Set("a", ValOp(":v"))}),
      UE("An expression attribute value used in expression is not defined; attribute value: :v"));
  add("targets are checked before any value",
      Update({Set("a", ValOp(":zz")), Set("#x", ValOp(":s"))}),
      UE("An expression attribute name used in the document path is not defined; attribute name: "
         "#x"));
  add("values are checked last action first",
      Update({Set("a", ValOp(":z1")), Set("b", ValOp(":z2"))}),
      UE("An expression attribute value used in expression is not defined; attribute value: :z2"));
  add("targets last action first: an overlap before an earlier undefined name",
      Update({Set("#x", ValOp(":s")), Set("a", ValOp(":s")), Remove("a")}),
      UE(Overlap("[a]", "[a]")));
  // Live: "path one: [user_join_notifications], path two: [user_join_notifications,
  // total_disabled]" for SET #ujn = ..., ... ADD #ujn.#t_disabled :v (an application's log).
  add("parent then child", Update({Set("a", ValOp(":s")), Set("a.b", ValOp(":s"))}),
      UE(Overlap("[a]", "[a, b]")));
  add("child then parent", Update({Set("a.b", ValOp(":s")), Remove("a")}),
      UE(Overlap("[a, b]", "[a]")));
  add("same path", Update({Set("a", ValOp(":s")), Remove("a")}), UE(Overlap("[a]", "[a]")));
  add("same list element", Update({Remove("a[1]"), Set("a[1]", ValOp(":s"))}),
      UE(Overlap("[a, [1]]", "[a, [1]]")));
  add("map member vs list index", Update({Set("a.b", ValOp(":s")), Set("a[1]", ValOp(":s"))}),
      UE(Conflict("[a, b]", "[a, [1]]")));
  add("list index vs map member", Update({Remove("a[1]"), Set("a.b", ValOp(":s"))}),
      UE(Conflict("[a, [1]]", "[a, b]")));
  add("names resolved before comparing",
      Update({Set("#a", ValOp(":s")), Set("#a2.c", ValOp(":s"))}), UE(Overlap("[a]", "[a, c]")));
  add("siblings do not overlap",
      Update({Set("a.b", ValOp(":s")), Set("a.c", ValOp(":s")), Remove("a.d[1]")}), "");
  add("different list elements", Update({Set("a[1]", ValOp(":s")), Remove("a[2]")}), "");
  // DynamoDB names "path two" by walking the first child of a Java HashMap from where the paths
  // collide, which need not be the colliding path (live: "path one: [createdAt], path two:
  // [cost]" in an application's error log; "cost" hashes to bucket 0, so it iterates first among
  // any siblings). With {a, x} under the root, x (bucket 6) iterates before a (bucket 13).
  add("path two follows Java's HashMap order",
      Update({Set("a", ValOp(":s")), Set("x", ValOp(":s")), Set("a.b", ValOp(":s"))}),
      UE(Overlap("[a]", "[x]")));

  // ADD / DELETE operand types. Live: "operator: ADD, operand type: STRING, typeSet:
  // ALLOWED_FOR_ADD_OPERAND" (pynamodb/dynamoid users' errors), DELETE likewise (zio-dynamodb).
  auto add_type = [&](const char* label, const char* value, const char* type) {
    add(label, Update({Add("a", ValOp(value))}),
        UE(std::string("Incorrect operand type for operator or function; operator: ADD, operand "
                       "type: ") +
           type + ", typeSet: ALLOWED_FOR_ADD_OPERAND"));
  };
  add_type("ADD string", ":s", "STRING");
  add_type("ADD binary", ":b1", "BINARY");
  add_type("ADD bool", ":bool", "BOOLEAN");
  add_type("ADD null", ":null", "NULL");
  add_type("ADD list", ":l", "LIST");
  add_type("ADD map", ":m", "MAP");
  add("ADD number", Update({Add("a", ValOp(":n"))}), "");
  add("ADD sets", Update({Add("a", ValOp(":ss")), Add("b", ValOp(":ns")), Add("c", ValOp(":bs"))}),
      "");
  add("DELETE string", Update({Delete("a", ValOp(":s"))}),
      UE("Incorrect operand type for operator or function; operator: DELETE, operand type: STRING, "
         "typeSet: ALLOWED_FOR_DELETE_OPERAND"));
  add("DELETE number", Update({Delete("a", ValOp(":n"))}),
      UE("Incorrect operand type for operator or function; operator: DELETE, operand type: NUMBER, "
         "typeSet: ALLOWED_FOR_DELETE_OPERAND"));
  add("DELETE set", Update({Delete("a", ValOp(":ss"))}), "");
  add("ADD undefined value", Update({Add("a", ValOp(":zz"))}),
      UE("An expression attribute value used in expression is not defined; attribute value: :zz"));

  // SET operators.
  add("+ with a string", Update({Set("a", PlusOp(ValOp(":s"), ValOp(":n")))}),
      UE("Incorrect operand type for operator or function; operator or function: +, operand type: "
         "S"));
  add("- with a list", Update({Set("a", MinusOp(PathOp("a"), ValOp(":l")))}),
      UE("Incorrect operand type for operator or function; operator or function: -, operand type: "
         "L"));
  add("+ of paths", Update({Set("a", PlusOp(PathOp("a"), PathOp("b")))}), "");
  add("list_append with a number", Update({Set("a", ListAppendOp(ValOp(":n"), PathOp("a")))}),
      UE("Incorrect operand type for operator or function; operator or function: list_append, "
         "operand type: N"));
  add("list_append", Update({Set("a", ListAppendOp(PathOp("a"), ValOp(":l")))}), "");
  add("list_append(if_not_exists(...), :l)",
      Update({Set("a", ListAppendOp(IfNotExistsOp(PathOp("a"), ValOp(":l")), ValOp(":l")))}), "");
  add("if_not_exists needs a path", Update({Set("a", IfNotExistsOp(ValOp(":s"), ValOp(":n")))}),
      UE("Operator or function requires a document path; operator or function: if_not_exists"));
  add("if_not_exists repeats its path", Update({Set("a", IfNotExistsOp(PathOp("b"), PathOp("b")))}),
      UE(std::string(kDistinct) + "operator: if_not_exists, first operand: [b]"));
  add("+ of if_not_exists",
      Update({Set("a", PlusOp(IfNotExistsOp(PathOp("a"), ValOp(":n")), ValOp(":n")))}), "");
  return cases;
}

TEST(ResolveTest, UpdateCases) {
  NameMap names = TestNames();
  AttributeMap values = TestValues();
  for (ResolveUpdateCase& c : ResolveUpdateCases()) {
    SCOPED_TRACE(c.label);
    Resolver resolver(&names, &values);
    Result<UpdateExpression> result = resolver.Resolve(c.update);
    if (c.error.empty()) {
      EXPECT_TRUE(result.ok()) << result.status().ToString();
    } else {
      ASSERT_FALSE(result.ok());
      EXPECT_EQ(result.status().message(), c.error);
    }
  }
}

TEST(ResolveTest, UpdateKeepsTextualOrder) {
  NameMap names = TestNames();
  AttributeMap values = TestValues();
  Resolver resolver(&names, &values);
  Result<UpdateExpression> u =
      resolver.Resolve(Update({Set("#a", ValOp(":s")), Remove("c"), Add("#b", ValOp(":n"))}));
  ASSERT_TRUE(u.ok()) << u.status().ToString();
  ASSERT_EQ(u->actions.size(), 3u);
  EXPECT_EQ(u->actions[0].path, P("a"));
  EXPECT_EQ(u->actions[1].path, P("c"));
  EXPECT_EQ(u->actions[2].path, P("b"));
  EXPECT_EQ(u->actions[2].operand.value, &values.find(":n")->second);
}

// ---- ProjectionExpression --------------------------------------------------------------------

TEST(ResolveTest, ProjectionCases) {
  NameMap names = TestNames();
  struct Case {
    ProjectionExpression projection;
    std::string error;
  } cases[] = {
      // Live (an emulator author's probe of DynamoDB): "top, top" and "obj, obj.a".
      {Projection({"top", "top"}), Overlap("[top]", "[top]")},
      {Projection({"obj", "obj.a"}), Overlap("[obj]", "[obj, a]")},
      {Projection({"obj.a", "obj"}), Overlap("[obj, a]", "[obj]")},
      {Projection({"l", "l[0]"}), Overlap("[l]", "[l, [0]]")},
      {Projection({"a.b", "a[0]"}), Conflict("[a, b]", "[a, [0]]")},
      {Projection({"a[1]", "a[2]", "a.b"}), Conflict("[a, [2]]", "[a, b]")},
      {Projection({"#a", "#a2"}), Overlap("[a]", "[a]")},
      {Projection({"#x", "b"}),
       "An expression attribute name used in the document path is not defined; attribute name: #x"},
      {Projection({"a.b", "a.c", "a.d[1]", "l[0].x", "l[0].y", "l[2]"}), ""},
  };
  for (Case& c : cases) {
    Resolver resolver(&names, nullptr);
    Result<ProjectionExpression> result = resolver.Resolve(c.projection);
    if (c.error.empty()) {
      EXPECT_TRUE(result.ok()) << result.status().ToString();
    } else {
      ASSERT_FALSE(result.ok());
      EXPECT_EQ(result.status().message(), "Invalid ProjectionExpression: " + c.error);
    }
  }
}

// ---- Request-level rules ---------------------------------------------------------------------

TEST(ResolveTest, CheckMaps) {
  NameMap names = TestNames();
  AttributeMap values = TestValues();
  NameMap empty_names;
  AttributeMap empty_values;
  // Live: "ExpressionAttributeNames can only be specified when using expressions" and the
  // values text (conformance captures; DynamoDB Local's validators give the ": ... is null" tail).
  EXPECT_EQ(Resolver(&names, &values).CheckMaps(0).message(),
            "ExpressionAttributeNames can only be specified when using expressions");
  EXPECT_EQ(Resolver(nullptr, &values).CheckMaps(0).message(),
            "ExpressionAttributeValues can only be specified when using expressions");
  EXPECT_TRUE(Resolver(nullptr, nullptr).CheckMaps(0).ok());
  EXPECT_EQ(Resolver(&empty_names, &empty_values).CheckMaps(1).message(),
            "ExpressionAttributeNames must not be empty");
  EXPECT_EQ(Resolver(&names, &empty_values).CheckMaps(1).message(),
            "ExpressionAttributeValues must not be empty");
  EXPECT_TRUE(Resolver(&names, &values).CheckMaps(2).ok());
  NameMap bad_names = {{"a", "a"}};
  EXPECT_EQ(Resolver(&bad_names, nullptr).CheckMaps(1).message(),
            "ExpressionAttributeNames contains invalid key: Syntax error; key: \"a\"");
  // A name's value: empty (DynamoDB's text as an application quotes it), over 65535 bytes.
  NameMap empty_name = {{"#a", "a"}, {"#DE", ""}};
  EXPECT_EQ(Resolver(&empty_name, nullptr).CheckMaps(1).message(),
            "ExpressionAttributeNames contains invalid value: Empty attribute name for key #DE");
  NameMap long_name = {{"#a", std::string(65536, 'a')}};
  EXPECT_EQ(Resolver(&long_name, nullptr).CheckMaps(1).message(),
            "Attribute name is too large, must be less than 65536 bytes");
  long_name["#a"].pop_back();
  EXPECT_TRUE(Resolver(&long_name, nullptr).CheckMaps(1).ok());
  AttributeMap bad_values;
  bad_values.insert_or_assign("v", Str("x"));
  EXPECT_EQ(Resolver(nullptr, &bad_values).CheckMaps(1).message(),
            "ExpressionAttributeValues contains invalid key: Syntax error; key: \"v\"");

  using K = ExpressionKind;
  const K update_item[] = {K::kUpdate, K::kCondition};
  const K query[] = {K::kFilter, K::kKeyCondition};
  const K put_item[] = {K::kCondition};
  const K projection_only[] = {K::kProjection};
  EXPECT_EQ(Resolver(nullptr, &values).CheckMaps({}, update_item).message(),
            "ExpressionAttributeValues can only be specified when using expressions: "
            "UpdateExpression and ConditionExpression are null");
  EXPECT_EQ(Resolver(nullptr, &values).CheckMaps(projection_only, query).message(),
            "ExpressionAttributeValues can only be specified when using expressions: "
            "FilterExpression and KeyConditionExpression are null");
  EXPECT_EQ(Resolver(nullptr, &values).CheckMaps({}, put_item).message(),
            "ExpressionAttributeValues can only be specified when using expressions: "
            "ConditionExpression is null");
  EXPECT_EQ(Resolver(&names, &values).CheckMaps({}, put_item).message(),
            "ExpressionAttributeNames can only be specified when using expressions");
  EXPECT_TRUE(Resolver(&names, nullptr).CheckMaps(projection_only, {}).ok());
  EXPECT_TRUE(Resolver(&names, &values).CheckMaps(put_item, put_item).ok());
  EXPECT_EQ(Resolver(&names, &empty_values).CheckMaps(put_item, put_item).message(),
            "ExpressionAttributeValues must not be empty");
}

TEST(ResolveTest, CheckAllUsed) {
  // Live: "Value provided in ExpressionAttributeNames unused in expressions: keys: {#unused}".
  NameMap names = {{"#a", "a"}, {"#unused", "u"}};
  AttributeMap values;
  values.insert_or_assign(":v", Str("x"));
  values.insert_or_assign(":unused", Str("y"));
  {
    Resolver r(&names, &values);
    ASSERT_TRUE(r.Resolve(Cmp(PathOp("#a"), "=", ValOp(":v")), ExpressionKind::kCondition).ok());
    EXPECT_EQ(r.CheckAllUsed().message(),
              "Value provided in ExpressionAttributeNames unused in expressions: keys: {#unused}");
  }
  {
    Resolver r(&names, &values);
    ASSERT_TRUE(
        r.Resolve(Cmp(PathOp("#a"), "=", PathOp("#unused")), ExpressionKind::kCondition).ok());
    EXPECT_EQ(
        r.CheckAllUsed().message(),
        "Value provided in ExpressionAttributeValues unused in expressions: keys: {:unused, :v}");
  }
  {
    // Usage counts across the request's expressions.
    Resolver r(&names, &values);
    ASSERT_TRUE(r.Resolve(Cmp(PathOp("#a"), "=", ValOp(":v")), ExpressionKind::kCondition).ok());
    ASSERT_TRUE(r.Resolve(Update({Set("#unused", ValOp(":unused"))})).ok());
    EXPECT_TRUE(r.CheckAllUsed().ok());
  }
  {
    // Several keys are listed in the iteration order of DynamoDB's java.util.HashSet: "#z"
    // hashes to bucket 7 of 16 and "#b" to bucket 15, so "#z" comes first.
    NameMap many = {{"#a", "a"}, {"#b", "b"}, {"#z", "z"}};
    Resolver r(&many, nullptr);
    ASSERT_TRUE(r.Resolve(Fn("attribute_exists", {PathOp("#a")}), ExpressionKind::kCondition).ok());
    EXPECT_EQ(r.CheckAllUsed().message(),
              "Value provided in ExpressionAttributeNames unused in expressions: keys: {#z, #b}");
  }
  {
    NameMap none_used = {{"#b", "b"}};
    Resolver r(&none_used, nullptr);
    EXPECT_EQ(r.CheckAllUsed().message(),
              "Value provided in ExpressionAttributeNames unused in expressions: keys: {#b}");
  }
}

// ---- The same rules through the parser -------------------------------------------------------

namespace text {

// Parses and resolves one expression; returns "" or the error message.
std::string Run(std::string_view text, ExpressionKind kind, const NameMap* names,
                const AttributeMap* values) {
  Resolver resolver(names, values);
  if (kind == ExpressionKind::kUpdate) {
    Result<UpdateExpression> parsed = ParseUpdate(text);
    if (!parsed.ok()) return "parse: " + std::string(parsed.status().message());
    Result<UpdateExpression> resolved = resolver.Resolve(*parsed);
    return resolved.ok() ? "" : std::string(resolved.status().message());
  }
  if (kind == ExpressionKind::kProjection) {
    Result<ProjectionExpression> parsed = ParseProjection(text);
    if (!parsed.ok()) return "parse: " + std::string(parsed.status().message());
    Result<ProjectionExpression> resolved = resolver.Resolve(*parsed);
    return resolved.ok() ? "" : std::string(resolved.status().message());
  }
  Result<Condition> parsed = ParseCondition(text, kind);
  if (!parsed.ok()) return "parse: " + std::string(parsed.status().message());
  Result<Condition> resolved = resolver.Resolve(*parsed, kind);
  return resolved.ok() ? "" : std::string(resolved.status().message());
}

}  // namespace text

TEST(ResolveTextTest, Table) {
  NameMap names = TestNames();
  AttributeMap values = TestValues();
  using K = ExpressionKind;
  struct Row {
    const char* text;
    K kind;
    std::string error;
  } rows[] = {
      {"#a = :s AND #b.c < :n", K::kCondition, ""},
      {"#x = :s", K::kCondition,
       CE("An expression attribute name used in the document path is not defined; attribute "
          "name: #x")},
      {"a = :zz", K::kFilter,
       "Invalid FilterExpression: An expression attribute value used in expression is not "
       "defined; attribute value: :zz"},
      {"begins_with(a, :n)", K::kCondition, OperandType("begins_with", "N")},
      {"begins_with(a, :n) AND b = :zz", K::kCondition, OperandType("begins_with", "N")},
      {"b = :zz AND begins_with(a, :n)", K::kCondition,
       CE("An expression attribute value used in expression is not defined; attribute value: "
          ":zz")},
      {"contains(#a, a)", K::kCondition, Distinct("contains", "[a]")},
      {"#a = #a2", K::kCondition, Distinct("=", "[a]")},
      {"a IN (:s, a)", K::kCondition, Distinct("IN", "[a]")},
      {"a BETWEEN a AND :n", K::kCondition, Distinct("BETWEEN", "[a]")},
      {"a < :l", K::kCondition, OperandType("<", "L")},
      {"a BETWEEN :n AND :s", K::kCondition,
       CE("The BETWEEN operator requires same data type for lower and upper bounds; lower bound "
          "operand: AttributeValue: {N:1}, upper bound operand: AttributeValue: {S:x}")},
      {"a BETWEEN :n2 AND :n", K::kCondition,
       CE("The BETWEEN operator requires upper bound to be greater than or equal to lower bound; "
          "lower bound operand: AttributeValue: {N:2}, upper bound operand: AttributeValue: "
          "{N:1}")},
      {"attribute_type(a, :badt)", K::kCondition,
       CE("Invalid attribute type name found; type: STRING, valid types: "
          "{B,NULL,SS,BOOL,L,BS,N,NS,S,M}")},
      {"attribute_type(a, :n)", K::kCondition, OperandType("attribute_type", "N")},
      {"size(:n) = :n", K::kCondition, OperandType("size", "N")},
      {"size(:s) = :n", K::kCondition, ""},
      {"begins_with(pk, :n)", K::kKeyCondition,
       "Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator "
       "or function: begins_with, operand type: N"},
      {"SET a = :s + :n", K::kUpdate,
       UE("Incorrect operand type for operator or function; operator or function: +, operand "
          "type: S")},
      {"ADD a :s", K::kUpdate,
       UE("Incorrect operand type for operator or function; operator: ADD, operand type: STRING, "
          "typeSet: ALLOWED_FOR_ADD_OPERAND")},
      {"DELETE a :n", K::kUpdate,
       UE("Incorrect operand type for operator or function; operator: DELETE, operand type: "
          "NUMBER, typeSet: ALLOWED_FOR_DELETE_OPERAND")},
      {"SET a = :s, a.b = :s", K::kUpdate, UE(Overlap("[a]", "[a, b]"))},
      {"SET a.b = :s REMOVE a", K::kUpdate, UE(Overlap("[a, b]", "[a]"))},
      {"SET a = :s REMOVE a", K::kUpdate, UE(Overlap("[a]", "[a]"))},
      {"SET a.b = :s, a[1] = :s", K::kUpdate, UE(Conflict("[a, b]", "[a, [1]]"))},
      {"SET a = :z1, b = :z2", K::kUpdate,
       UE("An expression attribute value used in expression is not defined; attribute value: "
          ":z2")},
      {"SET a = list_append(:n, a)", K::kUpdate,
       UE("Incorrect operand type for operator or function; operator or function: list_append, "
          "operand type: N")},
      {"SET a = if_not_exists(a, :l)", K::kUpdate, ""},
      {"obj, obj.a", K::kProjection,
       "Invalid ProjectionExpression: " + Overlap("[obj]", "[obj, a]")},
      {"#a, #a2", K::kProjection, "Invalid ProjectionExpression: " + Overlap("[a]", "[a]")},
      {"a.b, a[0]", K::kProjection,
       "Invalid ProjectionExpression: " + Conflict("[a, b]", "[a, [0]]")},
  };
  for (const Row& row : rows) {
    EXPECT_EQ(text::Run(row.text, row.kind, &names, &values), row.error) << row.text;
  }
}

// One Resolver across a request's expressions: DynamoDB's order for UpdateItem is the update,
// then the condition, then the unused placeholders.
TEST(ResolveTextTest, RequestOrder) {
  NameMap names = {{"#a", "a"}, {"#c", "c"}};
  AttributeMap values;
  values.insert_or_assign(":v", Str("x"));
  values.insert_or_assign(":w", Str("y"));
  Resolver resolver(&names, &values);
  ASSERT_TRUE(resolver.CheckMaps(2).ok());
  Result<UpdateExpression> update = ParseUpdate("SET #a = :v");
  ASSERT_TRUE(update.ok());
  ASSERT_TRUE(resolver.Resolve(*update).ok());
  Result<Condition> condition = ParseCondition("#c <> :w", ExpressionKind::kCondition);
  ASSERT_TRUE(condition.ok());
  ASSERT_TRUE(resolver.Resolve(*condition, ExpressionKind::kCondition).ok());
  EXPECT_TRUE(resolver.CheckAllUsed().ok());
}

// Overlap / conflict detection against a model: DynamoDB inserts the paths last to first; a path
// overlaps when it is a prefix of, or has as a prefix, one inserted before; it conflicts when it
// leaves the inserted paths at an element of the other kind (name vs index). "path one" is the
// path being inserted; "path two" is some inserted path (which one follows Java's HashMap order).
TEST(ResolveTest, RandomizedOverlapAgainstModel) {
  std::mt19937_64 rng(5);
  const char* const names[] = {"a", "b", "c"};
  int errors = 0;
  for (int round = 0; round < 5000; ++round) {
    ProjectionExpression projection;
    int count = std::uniform_int_distribution<int>(1, 5)(rng);
    for (int i = 0; i < count; ++i) {
      Path p;
      p.elements.push_back(PathElement{names[rng() % 3], -1});
      int extra = std::uniform_int_distribution<int>(0, 3)(rng);
      for (int k = 0; k < extra; ++k) {
        if (rng() % 2)
          p.elements.push_back(PathElement{names[rng() % 3], -1});
        else
          p.elements.push_back(PathElement{"", int64_t(rng() % 2)});
      }
      projection.paths.push_back(std::move(p));
    }
    // The model.
    std::string expected;
    std::vector<const Path*> inserted;
    for (size_t i = projection.paths.size(); i-- > 0 && expected.empty();) {
      const Path& p = projection.paths[i];
      for (const Path* q : inserted) {
        size_t n = std::min(p.elements.size(), q->elements.size());
        size_t k = 0;
        while (k < n && p.elements[k] == q->elements[k]) ++k;
        if (k == n) {
          expected = "overlap " + p.ToListString();
          break;
        }
        if (p.elements[k].is_index() != q->elements[k].is_index()) {
          expected = "conflict " + p.ToListString();
          // An overlap with another inserted path is found first when the trie reaches it.
        }
      }
      inserted.push_back(&p);
    }
    Resolver resolver(nullptr, nullptr);
    Result<ProjectionExpression> result = resolver.Resolve(projection);
    std::string actual;
    if (!result.ok()) {
      std::string m(result.status().message());
      const bool overlap = m.find("overlap") != std::string::npos;
      size_t one = m.find("path one: ") + 10;
      size_t two = m.find(", path two: ");
      actual = std::string(overlap ? "overlap " : "conflict ") + m.substr(one, two - one);
      // path two is one of the paths inserted before.
      std::string second = m.substr(two + 12);
      bool known = false;
      for (size_t j = 0; j < projection.paths.size(); ++j)
        known |= projection.paths[j].ToListString() == second;
      EXPECT_TRUE(known) << m;
      ++errors;
    }
    ASSERT_EQ(actual, expected) << "round " << round;
  }
  EXPECT_GT(errors, 500);
  EXPECT_LT(errors, 4500);
}

}  // namespace
}  // namespace partstore::expr
