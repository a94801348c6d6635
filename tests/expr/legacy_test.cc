// Legacy parameters: validation messages (DynamoDB Local's rules, dynalite's and ExtendDB's tests
// against live DynamoDB) and semantics (Scylla's test_expected.py, test_query_filter.py,
// test_key_conditions.py and test_item.py), checked through the shared evaluator, update engine,
// projection and key-condition analysis.
#include "core/expr/legacy.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "core/expr/evaluate.h"
#include "core/expr/key_condition.h"
#include "core/expr/projection.h"
#include "core/expr/update.h"
#include "tests/expr/condition_builders.h"

namespace partstore::expr {
namespace {

using CO = ComparisonOperator;

using builders::L;
using builders::N;
using builders::NS;
using builders::SS;
Value B(std::string bytes) { return Value::Binary(std::move(bytes)); }

const std::string kPrefix = "One or more parameter values were invalid: ";

ExpectedAttribute Op(std::string name, CO op, std::vector<Value> list) {
  ExpectedAttribute e;
  e.name = std::move(name);
  e.comparison_operator = op;
  e.attribute_value_list = std::move(list);
  return e;
}
ExpectedAttribute ValueIs(std::string name, Value v, std::optional<bool> exists = std::nullopt) {
  ExpectedAttribute e;
  e.name = std::move(name);
  e.value = std::move(v);
  e.exists = exists;
  return e;
}
ExpectedAttribute Absent(std::string name) {
  ExpectedAttribute e;
  e.name = std::move(name);
  e.exists = false;
  return e;
}

// Evaluates Expected on `item` (null: no item). Expected must translate.
bool Holds(const std::vector<ExpectedAttribute>& expected, const Item* item,
           std::optional<ConditionalOperator> op = std::nullopt) {
  Result<std::optional<Condition>> c = TranslateExpected(expected, op);
  EXPECT_TRUE(c.ok()) << c.status().ToString();
  if (!c.ok()) return false;
  if (!c->has_value()) return true;
  return Evaluate(**c, item);
}

std::string ExpectedError(const std::vector<ExpectedAttribute>& expected,
                          std::optional<ConditionalOperator> op = std::nullopt) {
  Result<std::optional<Condition>> c = TranslateExpected(expected, op);
  if (c.ok()) return "<ok>";
  EXPECT_EQ(c.error().code(), Code::kValidation);
  return std::string(c.error().message());
}

// ---- Expected: validation ------------------------------------------------------------------

TEST(LegacyExpectedTest, EntryValidationMessages) {
  ExpectedAttribute e;
  e.name = "a";
  e.exists = true;
  e.comparison_operator = CO::kLt;
  EXPECT_EQ(ExpectedError({e}),
            kPrefix + "Exists and ComparisonOperator cannot be used together for Attribute: a");

  e = {};
  e.name = "a";
  e.value = Value("a");
  e.attribute_value_list = std::vector<Value>{};
  EXPECT_EQ(ExpectedError({e}),
            kPrefix + "Value and AttributeValueList cannot be used together for Attribute: a");
  e.comparison_operator = CO::kEq;  // still both
  EXPECT_EQ(ExpectedError({e}),
            kPrefix + "Value and AttributeValueList cannot be used together for Attribute: a");

  e = {};
  e.name = "a";
  e.attribute_value_list = std::vector<Value>{};
  EXPECT_EQ(
      ExpectedError({e}),
      kPrefix + "AttributeValueList can only be used with a ComparisonOperator for Attribute: a");
  e.exists = true;  // dynalite: AttributeValueList and Exists together -> the same message
  EXPECT_EQ(
      ExpectedError({e}),
      kPrefix + "AttributeValueList can only be used with a ComparisonOperator for Attribute: a");

  EXPECT_EQ(ExpectedError({ValueIs("a", 1, false)}),
            kPrefix + "Value cannot be used when Exists is false for Attribute: a");

  e = {};
  e.name = "a";
  e.comparison_operator = CO::kLt;
  EXPECT_EQ(ExpectedError({e}),
            kPrefix +
                "Value or AttributeValueList must be used with ComparisonOperator: LT for "
                "Attribute: a");
  e.comparison_operator = CO::kNotNull;  // needs no value
  EXPECT_EQ(ExpectedError({e}), "<ok>");

  e = {};
  e.name = "a";
  EXPECT_EQ(ExpectedError({e}),
            kPrefix + "Value must be provided when Exists is null for Attribute: a");
  e.exists = true;
  EXPECT_EQ(ExpectedError({e}),
            kPrefix + "Value must be provided when Exists is true for Attribute: a");

  // The first bad entry is reported, in the request's order.
  EXPECT_EQ(ExpectedError({Absent("x"), ValueIs("b", 1, false), ValueIs("c", 1, false)}),
            kPrefix + "Value cannot be used when Exists is false for Attribute: b");
}

TEST(LegacyExpectedTest, ArgumentCounts) {
  // dynalite test/deleteItem.js: Value counts as one argument.
  ExpectedAttribute e;
  e.name = "a";
  e.value = Value("a");
  e.comparison_operator = CO::kBetween;
  EXPECT_EQ(ExpectedError({e}),
            kPrefix + "Invalid number of argument(s) for the BETWEEN ComparisonOperator");
  e.comparison_operator = CO::kNull;
  EXPECT_EQ(ExpectedError({e}),
            kPrefix + "Invalid number of argument(s) for the NULL ComparisonOperator");

  struct Count {
    CO op;
    std::vector<Value> list;
  };
  for (const Count& c : std::vector<Count>{{CO::kEq, {2, 3}},
                                           {CO::kNe, {2, 3}},
                                           {CO::kLe, {2, 3}},
                                           {CO::kLt, {}},
                                           {CO::kGe, {2, 3}},
                                           {CO::kGt, {2, 3}},
                                           {CO::kNotNull, {2}},
                                           {CO::kNull, {2}},
                                           {CO::kContains, {2, 3}},
                                           {CO::kContains, {}},
                                           {CO::kNotContains, {}},
                                           {CO::kBeginsWith, {"hell", "heaven"}},
                                           {CO::kIn, {}},
                                           {CO::kBetween, {}},
                                           {CO::kBetween, {2, 3, 4}}}) {
    EXPECT_EQ(ExpectedError({Op("a", c.op, c.list)}),
              kPrefix + "Invalid number of argument(s) for the " +
                  std::string(ComparisonOperatorName(c.op)) + " ComparisonOperator");
  }
}

TEST(LegacyExpectedTest, ArgumentTypes) {
  auto type_error = [](CO op, std::string_view type) {
    return kPrefix + "ComparisonOperator " + std::string(ComparisonOperatorName(op)) +
           " is not valid for " + std::string(type) + " AttributeValue type";
  };
  // dynalite test/scan.js: LT LE GT GE IN take only S, N, B.
  for (CO op : {CO::kLt, CO::kLe, CO::kGt, CO::kGe, CO::kIn}) {
    for (const Value& v : {Value(true), Value::Nil(), SS({"a"}), NS({"1"}),
                           Value(BinarySet{Bytes{"x"}}), Value::Map({}), Value::List({})}) {
      EXPECT_EQ(ExpectedError({Op("a", op, {v})}), type_error(op, TypeName(v.type())));
    }
  }
  // CONTAINS / NOT_CONTAINS: no sets, maps or lists (Scylla: CONTAINS [[1]] is rejected).
  for (CO op : {CO::kContains, CO::kNotContains}) {
    for (const Value& v : {SS({"a"}), NS({"1"}), Value::Map({}), L({1})}) {
      EXPECT_EQ(ExpectedError({Op("a", op, {v})}), type_error(op, TypeName(v.type())));
    }
    EXPECT_EQ(ExpectedError({Op("a", op, {Value(true)})}), "<ok>");
  }
  // BETWEEN: S, N, B.
  EXPECT_EQ(ExpectedError({Op("d", CO::kBetween, {NS({"1"}), NS({"2"})})}),
            type_error(CO::kBetween, "NS"));
  // BEGINS_WITH: S and B only (Scylla: a number is a ValidationException, not a false condition).
  EXPECT_EQ(ExpectedError({Op("a", CO::kBeginsWith, {3})}), type_error(CO::kBeginsWith, "N"));
  EXPECT_EQ(ExpectedError({Op("a", CO::kBeginsWith, {B("x")})}), "<ok>");
  // EQ and NE take any type, lists and maps included.
  for (CO op : {CO::kEq, CO::kNe}) {
    for (const Value& v : {Value(true), Value::Nil(), SS({"a"}), Value::Map({}), L({1})}) {
      EXPECT_EQ(ExpectedError({Op("a", op, {v})}), "<ok>");
    }
  }
  // Mixed types in one list.
  EXPECT_EQ(ExpectedError({Op("c", CO::kIn, {3, "dog"})}),
            kPrefix + "AttributeValues inside AttributeValueList must be of same type");
  EXPECT_EQ(ExpectedError({Op("a", CO::kBetween, {4, "dog"})}),
            kPrefix + "AttributeValues inside AttributeValueList must be of same type");
  // A bad type is reported before a type mismatch further on.
  EXPECT_EQ(ExpectedError({Op("c", CO::kIn, {3, L({1})})}), type_error(CO::kIn, "L"));
  // BETWEEN bounds out of order (no prefix).
  const std::string reversed =
      "The BETWEEN condition was provided a range where the lower bound is greater than the upper "
      "bound";
  EXPECT_EQ(ExpectedError({Op("a", CO::kBetween, {4, 3})}), reversed);
  EXPECT_EQ(ExpectedError({Op("b", CO::kBetween, {"dog", "aardvark"})}), reversed);
  EXPECT_EQ(ExpectedError({Op("a", CO::kBetween, {3, 3})}), "<ok>");
}

TEST(LegacyExpectedTest, ConditionalOperatorNeedsTwoEntries) {
  // ExtendDB tests against DynamoDB; Scylla test_update_expected_empty.
  EXPECT_EQ(ExpectedError({}, ConditionalOperator::kOr),
            "ConditionalOperator cannot be used without Filter or Expected");
  EXPECT_EQ(ExpectedError({}, ConditionalOperator::kAnd),
            "ConditionalOperator cannot be used without Filter or Expected");
  EXPECT_EQ(
      ExpectedError({ValueIs("a", 1)}, ConditionalOperator::kAnd),
      "ConditionalOperator can only be used when Filter or Expected has two or more elements");
  EXPECT_EQ(ExpectedError({ValueIs("a", 1), ValueIs("b", 2)}, ConditionalOperator::kAnd), "<ok>");
  // Entries are checked first.
  EXPECT_EQ(ExpectedError({ValueIs("a", 1, false)}, ConditionalOperator::kAnd),
            kPrefix + "Value cannot be used when Exists is false for Attribute: a");
  // An empty Expected is no condition at all.
  Result<std::optional<Condition>> none = TranslateExpected({}, std::nullopt);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
}

// ---- Expected: semantics (Scylla's test_expected.py) -----------------------------------------

TEST(LegacyExpectedTest, EqNe) {
  const Item item{{"p", "k"}, {"a", 1}, {"s", SS({"chinchilla", "cat", "dog", "mouse"})}};
  EXPECT_TRUE(Holds({Op("a", CO::kEq, {1})}, &item));
  EXPECT_FALSE(Holds({Op("a", CO::kEq, {2})}, &item));
  EXPECT_FALSE(Holds({Op("a", CO::kEq, {"1"})}, &item));  // other type: false, not an error
  EXPECT_FALSE(Holds({Op("q", CO::kEq, {1})}, &item));
  EXPECT_TRUE(Holds({Op("s", CO::kEq, {SS({"mouse", "dog", "cat", "chinchilla"})})}, &item));
  EXPECT_TRUE(Holds({Op("a", CO::kNe, {2})}, &item));
  EXPECT_FALSE(Holds({Op("a", CO::kNe, {1})}, &item));
  EXPECT_TRUE(Holds({Op("a", CO::kNe, {"1"})}, &item));  // other type: not equal
  EXPECT_TRUE(Holds({Op("q", CO::kNe, {1})}, &item));    // missing: not equal
  EXPECT_TRUE(Holds({Op("q", CO::kNe, {1})}, nullptr));
}

TEST(LegacyExpectedTest, Ordering) {
  const Item item{{"a", 1}, {"b", "cat"}, {"c", B("cat")}};
  EXPECT_TRUE(Holds({Op("a", CO::kLe, {2})}, &item));
  EXPECT_TRUE(Holds({Op("a", CO::kLe, {1})}, &item));
  EXPECT_FALSE(Holds({Op("a", CO::kLe, {0})}, &item));
  EXPECT_TRUE(Holds({Op("b", CO::kLe, {"dog"})}, &item));
  EXPECT_FALSE(Holds({Op("b", CO::kLe, {"aardvark"})}, &item));
  EXPECT_TRUE(Holds({Op("c", CO::kLt, {B("dog")})}, &item));
  EXPECT_FALSE(Holds({Op("a", CO::kLt, {1})}, &item));
  EXPECT_FALSE(Holds({Op("a", CO::kLe, {"1"})}, &item));  // other type: false
  EXPECT_TRUE(Holds({Op("a", CO::kGe, {1})}, &item));
  EXPECT_FALSE(Holds({Op("a", CO::kGt, {1})}, &item));
  EXPECT_FALSE(Holds({Op("q", CO::kGt, {0})}, &item));
}

TEST(LegacyExpectedTest, NullAndNotNullTestPresence) {
  const Item item{{"a", 1}, {"b", "cat"}, {"c", Value::Nil()}};
  for (const char* present : {"a", "b", "c"}) {
    EXPECT_TRUE(Holds({Op(present, CO::kNotNull, {})}, &item)) << present;
    EXPECT_FALSE(Holds({Op(present, CO::kNull, {})}, &item)) << present;
  }
  EXPECT_FALSE(Holds({Op("q", CO::kNotNull, {})}, &item));
  EXPECT_TRUE(Holds({Op("q", CO::kNull, {})}, &item));
  EXPECT_TRUE(Holds({Op("q", CO::kNull, {})}, nullptr));
}

TEST(LegacyExpectedTest, ContainsAndNotContains) {
  const Item item{
      {"a", "hello"}, {"b", NS({"2", "4", "7"})}, {"c", L({2, 4, 7})}, {"d", B("hi there")}};
  EXPECT_TRUE(Holds({Op("a", CO::kContains, {"ell"})}, &item));
  EXPECT_TRUE(Holds({Op("b", CO::kContains, {4})}, &item));
  EXPECT_TRUE(Holds({Op("c", CO::kContains, {4})}, &item));
  EXPECT_TRUE(Holds({Op("d", CO::kContains, {B("here")})}, &item));
  EXPECT_FALSE(Holds({Op("a", CO::kContains, {"dog"})}, &item));
  EXPECT_FALSE(Holds({Op("a", CO::kContains, {1})}, &item));
  EXPECT_FALSE(Holds({Op("b", CO::kContains, {1})}, &item));
  EXPECT_FALSE(Holds({Op("c", CO::kContains, {1})}, &item));
  EXPECT_FALSE(Holds({Op("q", CO::kContains, {1})}, &item));
  EXPECT_FALSE(Holds({Op("d", CO::kContains, {B("dog")})}, &item));

  EXPECT_TRUE(Holds({Op("a", CO::kNotContains, {"dog"})}, &item));
  EXPECT_TRUE(Holds({Op("a", CO::kNotContains, {1})}, &item));
  EXPECT_TRUE(Holds({Op("b", CO::kNotContains, {1})}, &item));
  EXPECT_TRUE(Holds({Op("c", CO::kNotContains, {1})}, &item));
  EXPECT_TRUE(Holds({Op("d", CO::kNotContains, {B("dog")})}, &item));
  EXPECT_FALSE(Holds({Op("a", CO::kNotContains, {"ell"})}, &item));
  EXPECT_FALSE(Holds({Op("b", CO::kNotContains, {4})}, &item));
  EXPECT_FALSE(Holds({Op("c", CO::kNotContains, {4})}, &item));
  EXPECT_FALSE(Holds({Op("d", CO::kNotContains, {B("here")})}, &item));
  // Surprisingly, NOT_CONTAINS on a missing attribute is false too.
  EXPECT_FALSE(Holds({Op("q", CO::kNotContains, {1})}, &item));
  EXPECT_FALSE(Holds({Op("q", CO::kNotContains, {1})}, nullptr));
}

TEST(LegacyExpectedTest, BeginsWithInBetween) {
  const Item item{{"a", "hello"}, {"d", B("hi there")}, {"x", 3}, {"s", NS({"2", "4", "7"})},
                  {"n", 2},       {"b", "cat"}};
  EXPECT_TRUE(Holds({Op("a", CO::kBeginsWith, {"hell"})}, &item));
  EXPECT_TRUE(Holds({Op("d", CO::kBeginsWith, {B("hi")})}, &item));
  EXPECT_FALSE(Holds({Op("a", CO::kBeginsWith, {"dog"})}, &item));
  EXPECT_FALSE(Holds({Op("x", CO::kBeginsWith, {"dog"})}, &item));  // number attribute: false
  // IN: the attribute equals one of the values; it is not a set-membership test.
  EXPECT_TRUE(Holds({Op("x", CO::kIn, {2, 3, 8})}, &item));
  EXPECT_FALSE(Holds({Op("x", CO::kIn, {1, 2, 4})}, &item));
  EXPECT_FALSE(Holds({Op("s", CO::kIn, {2})}, &item));
  EXPECT_FALSE(Holds({Op("s", CO::kIn, {1, 2, 4, 7, 8})}, &item));
  EXPECT_TRUE(Holds({Op("n", CO::kBetween, {1, 3})}, &item));
  EXPECT_TRUE(Holds({Op("n", CO::kBetween, {1, 2})}, &item));
  EXPECT_TRUE(Holds({Op("n", CO::kBetween, {2, 3})}, &item));
  EXPECT_TRUE(Holds({Op("b", CO::kBetween, {"aardvark", "dog"})}, &item));
  EXPECT_FALSE(Holds({Op("n", CO::kBetween, {0, 1})}, &item));
  EXPECT_FALSE(Holds({Op("n", CO::kBetween, {"cat", "dog"})}, &item));
  EXPECT_FALSE(Holds({Op("q", CO::kBetween, {0, 100})}, &item));
}

TEST(LegacyExpectedTest, ValueAndExistsForms) {
  const Item item{{"a", 1}};
  EXPECT_TRUE(Holds({ValueIs("a", 1)}, &item));
  EXPECT_FALSE(Holds({ValueIs("a", 2)}, &item));
  EXPECT_FALSE(Holds({ValueIs("z", 1)}, &item));
  EXPECT_TRUE(Holds({ValueIs("a", 1, true)}, &item));
  EXPECT_FALSE(Holds({ValueIs("a", 2, true)}, &item));
  EXPECT_TRUE(Holds({Absent("z")}, &item));
  EXPECT_FALSE(Holds({Absent("a")}, &item));
  EXPECT_TRUE(Holds({Absent("a")}, nullptr));
  EXPECT_FALSE(Holds({ValueIs("a", 1)}, nullptr));
}

TEST(LegacyExpectedTest, SeveralEntriesAndOrAnd) {
  const Item item{{"a", 1}, {"b", 2}, {"c", 3}};
  const std::vector<ExpectedAttribute> all_true{ValueIs("a", 1, true), Op("b", CO::kEq, {2}),
                                                Absent("d")};
  EXPECT_TRUE(Holds(all_true, &item));
  EXPECT_TRUE(Holds(all_true, &item, ConditionalOperator::kAnd));
  const std::vector<ExpectedAttribute> one_false{ValueIs("a", 1, true), Op("b", CO::kEq, {3}),
                                                 Absent("d")};
  EXPECT_FALSE(Holds(one_false, &item));
  EXPECT_FALSE(Holds(one_false, &item, ConditionalOperator::kAnd));
  EXPECT_TRUE(Holds(one_false, &item, ConditionalOperator::kOr));
  const std::vector<ExpectedAttribute> all_false{ValueIs("a", 74, true), Op("b", CO::kEq, {999}),
                                                 Absent("c")};
  EXPECT_FALSE(Holds(all_false, &item, ConditionalOperator::kOr));
}

TEST(LegacyExpectedTest, TreeShape) {
  std::vector<ExpectedAttribute> expected{Op("a", CO::kEq, {1}), Op("b", CO::kNotContains, {"x"}),
                                          Absent("c")};
  Result<std::optional<Condition>> c = TranslateExpected(expected, ConditionalOperator::kOr);
  ASSERT_TRUE(c.ok());
  const Condition& root = **c;
  ASSERT_EQ(root.kind, ConditionKind::kOr);  // ((a OR b) OR c)
  EXPECT_EQ(root.children[1].kind, ConditionKind::kAttributeNotExists);
  ASSERT_EQ(root.children[0].kind, ConditionKind::kOr);
  const Condition& eq = root.children[0].children[0];
  EXPECT_EQ(eq.kind, ConditionKind::kCompare);
  EXPECT_EQ(eq.comparator, Comparator::kEq);
  EXPECT_EQ(eq.operands[0].path.ToString(), "a");
  // The value operand points into the request's struct.
  EXPECT_EQ(eq.operands[1].value, &(*expected[0].attribute_value_list)[0]);
  const Condition& not_contains = root.children[0].children[1];
  ASSERT_EQ(not_contains.kind, ConditionKind::kAnd);
  EXPECT_EQ(not_contains.children[0].kind, ConditionKind::kAttributeExists);
  EXPECT_EQ(not_contains.children[1].kind, ConditionKind::kNot);
  // Attribute names are literal: dots are not path separators.
  const std::vector<ExpectedAttribute> dotted_expected{Absent("a.b[1]")};
  Result<std::optional<Condition>> dotted = TranslateExpected(dotted_expected, std::nullopt);
  ASSERT_TRUE(dotted.ok());
  ASSERT_EQ((*dotted)->operands[0].path.elements.size(), 1u);
  EXPECT_EQ((*dotted)->operands[0].path.top(), "a.b[1]");
  const Item item{{"a.b[1]", 1}};
  EXPECT_FALSE(Evaluate(**dotted, &item));
}

// ---- QueryFilter / ScanFilter ---------------------------------------------------------------

AttributeCondition Cond(std::string name, CO op, std::vector<Value> list) {
  return AttributeCondition{std::move(name), op, std::move(list)};
}

TEST(LegacyFilterTest, TranslatesAndEvaluates) {
  const Item item{{"p", "k"},     {"c", 2},         {"i", 5},
                  {"s", "hello"}, {"l", L({1, 2})}, {"m", Value::Map({{"x", Value(1)}})},
                  {"bool", true}};
  auto passes = [&](std::vector<AttributeCondition> filter,
                    std::optional<ConditionalOperator> op = std::nullopt) {
    Result<std::optional<Condition>> c = TranslateFilter(filter, op);
    EXPECT_TRUE(c.ok()) << c.status().ToString();
    return c.ok() && (!c->has_value() || Evaluate(**c, &item));
  };
  EXPECT_TRUE(passes({}));  // an empty filter is no filter
  // EQ on every type (Scylla test_query_filter_eq).
  for (const char* name : {"i", "s", "l", "m", "bool"}) {
    EXPECT_TRUE(passes({Cond(name, CO::kEq, {item.at(name)})})) << name;
  }
  EXPECT_FALSE(passes({Cond("non_existent", CO::kEq, {3})}));
  EXPECT_TRUE(passes({Cond("i", CO::kEq, {5}), Cond("s", CO::kEq, {"hello"})}));
  EXPECT_FALSE(
      passes({Cond("i", CO::kEq, {5}), Cond("s", CO::kEq, {"x"})}, ConditionalOperator::kAnd));
  EXPECT_TRUE(
      passes({Cond("i", CO::kEq, {5}), Cond("s", CO::kEq, {"x"})}, ConditionalOperator::kOr));
  EXPECT_TRUE(passes({Cond("l", CO::kContains, {2}), Cond("s", CO::kBeginsWith, {"he"})}));
  EXPECT_TRUE(passes({Cond("missing", CO::kNull, {}), Cond("i", CO::kNotNull, {})}));
}

TEST(LegacyFilterTest, Errors) {
  auto error = [](std::vector<AttributeCondition> filter,
                  std::optional<ConditionalOperator> op = std::nullopt) -> std::string {
    Result<std::optional<Condition>> c = TranslateFilter(filter, op);
    return c.ok() ? "<ok>" : std::string(c.error().message());
  };
  EXPECT_EQ(error({Cond("a", CO::kEq, {})}),
            kPrefix + "Invalid number of argument(s) for the EQ ComparisonOperator");
  EXPECT_EQ(error({Cond("a", CO::kNotNull, {"a"})}),
            kPrefix + "Invalid number of argument(s) for the NOT_NULL ComparisonOperator");
  EXPECT_EQ(error({Cond("i", CO::kIn, {"a", 3})}),
            kPrefix + "AttributeValues inside AttributeValueList must be of same type");
  EXPECT_EQ(error({Cond("l", CO::kLt, {L({1})})}),
            kPrefix + "ComparisonOperator LT is not valid for L AttributeValue type");
  EXPECT_EQ(error({Cond("i", CO::kBetween, {5, 3})}),
            "The BETWEEN condition was provided a range where the lower bound is greater than the "
            "upper bound");
  EXPECT_EQ(error({}, ConditionalOperator::kAnd),
            "ConditionalOperator cannot be used without Filter or Expected");
  EXPECT_EQ(
      error({Cond("a", CO::kEq, {"x"})}, ConditionalOperator::kAnd),
      "ConditionalOperator can only be used when Filter or Expected has two or more elements");
  // Argument errors come before the ConditionalOperator rule.
  EXPECT_EQ(error({Cond("a", CO::kEq, {})}, ConditionalOperator::kAnd),
            kPrefix + "Invalid number of argument(s) for the EQ ComparisonOperator");
  // Names as items have them: 1..65535 bytes; Expected's too.
  EXPECT_EQ(error({Cond("", CO::kNull, {})}), "Empty attribute name");
  EXPECT_EQ(error({Cond(std::string(65536, 'a'), CO::kNull, {})}),
            "Attribute name is too large, must be less than 65536 bytes");
  EXPECT_EQ(ExpectedError({Absent("")}), "Empty attribute name");
  EXPECT_EQ(ExpectedError({Absent(std::string(65536, 'a'))}),
            "Attribute name is too large, must be less than 65536 bytes");
  EXPECT_EQ(ExpectedError({Absent(std::string(65535, 'a'))}), "<ok>");
}

TEST(LegacyFilterTest, QueryFilterMayNotNameKeys) {
  const KeySchema schema{KeyAttribute{"p", KeyType::kString}, KeyAttribute{"c", KeyType::kNumber}};
  EXPECT_TRUE(
      CheckQueryFilterKeys(std::vector<AttributeCondition>{Cond("i", CO::kEq, {3})}, schema).ok());
  EXPECT_EQ(CheckQueryFilterKeys(std::vector<AttributeCondition>{Cond("p", CO::kEq, {"x"})}, schema)
                .message(),
            "QueryFilter can only contain non-primary key attributes: Primary key attribute: p");
  EXPECT_EQ(
      CheckQueryFilterKeys(
          std::vector<AttributeCondition>{Cond("i", CO::kEq, {3}), Cond("c", CO::kEq, {3})}, schema)
          .message(),
      "QueryFilter can only contain non-primary key attributes: Primary key attribute: c");
  EXPECT_EQ(CheckQueryFilterKeys(
                std::vector<AttributeCondition>{Cond("c", CO::kEq, {3}), Cond("p", CO::kEq, {"x"})},
                schema)
                .message(),
            "QueryFilter can only contain non-primary key attributes: Primary key attribute: p");
}

// ---- KeyConditions ----------------------------------------------------------------------------

class LegacyKeyConditionsTest : public ::testing::Test {
 protected:
  const KeySchema composite_{KeyAttribute{"p", KeyType::kString},
                             KeyAttribute{"c", KeyType::kNumber}};
  const KeySchema hash_only_{KeyAttribute{"p", KeyType::kString}, std::nullopt};

  std::string Error(std::vector<AttributeCondition> conditions, const KeySchema& schema) {
    Result<Condition> c = TranslateKeyConditions(conditions, schema);
    return c.ok() ? "<ok>" : std::string(c.error().message());
  }
};

TEST_F(LegacyKeyConditionsTest, ValidShapesAnalyze) {
  struct Shape {
    std::vector<AttributeCondition> conditions;
    SortKeyOp op;
  };
  const std::vector<Shape> shapes{
      {{Cond("p", CO::kEq, {"k"})}, SortKeyOp::kNone},
      {{Cond("p", CO::kEq, {"k"}), Cond("c", CO::kEq, {3})}, SortKeyOp::kEq},
      {{Cond("c", CO::kLt, {5}), Cond("p", CO::kEq, {"k"})}, SortKeyOp::kLt},
      {{Cond("p", CO::kEq, {"k"}), Cond("c", CO::kLe, {5})}, SortKeyOp::kLe},
      {{Cond("p", CO::kEq, {"k"}), Cond("c", CO::kGt, {5})}, SortKeyOp::kGt},
      {{Cond("p", CO::kEq, {"k"}), Cond("c", CO::kGe, {5})}, SortKeyOp::kGe},
      {{Cond("p", CO::kEq, {"k"}), Cond("c", CO::kBetween, {4, 7})}, SortKeyOp::kBetween},
  };
  for (const Shape& shape : shapes) {
    Result<Condition> c = TranslateKeyConditions(shape.conditions, composite_);
    ASSERT_TRUE(c.ok()) << c.status().ToString();
    Result<KeyCondition> analyzed = AnalyzeKeyCondition(*c, composite_);
    ASSERT_TRUE(analyzed.ok()) << analyzed.status().ToString();
    EXPECT_EQ(*analyzed->partition, Value("k"));
    EXPECT_EQ(analyzed->sort_op, shape.op);
  }
  const KeySchema string_sort{KeyAttribute{"p", KeyType::kString},
                              KeyAttribute{"c", KeyType::kString}};
  // The tree points into the conditions: they must outlive it.
  const std::vector<AttributeCondition> prefix{Cond("p", CO::kEq, {"k"}),
                                               Cond("c", CO::kBeginsWith, {"00"})};
  Result<Condition> begins = TranslateKeyConditions(prefix, string_sort);
  ASSERT_TRUE(begins.ok());
  Result<KeyCondition> analyzed = AnalyzeKeyCondition(*begins, string_sort);
  ASSERT_TRUE(analyzed.ok()) << analyzed.status().ToString();
  EXPECT_EQ(analyzed->sort_op, SortKeyOp::kBeginsWith);
  EXPECT_TRUE(analyzed->MatchesSortKey(Value("001")));
  EXPECT_FALSE(analyzed->MatchesSortKey(Value("101")));
  EXPECT_EQ(Error({Cond("p", CO::kEq, {"k"})}, hash_only_), "<ok>");
}

TEST_F(LegacyKeyConditionsTest, Errors) {
  // Scylla test_key_conditions.py; messages from dynalite's query action.
  for (CO op : {CO::kLe, CO::kLt, CO::kGe, CO::kGt, CO::kBeginsWith}) {
    EXPECT_EQ(Error({Cond("p", op, {"k"})}, composite_), "Query key condition not supported");
  }
  EXPECT_EQ(Error({Cond("p", CO::kBetween, {"a", "b"})}, composite_),
            "Query key condition not supported");
  for (CO op : {CO::kIn, CO::kContains, CO::kNotContains, CO::kNe}) {
    EXPECT_EQ(Error({Cond("p", op, {"k"})}, composite_),
              "Attempted conditional constraint is not an indexable operation");
    EXPECT_EQ(Error({Cond("p", CO::kEq, {"k"}), Cond("c", op, {3})}, composite_),
              "Attempted conditional constraint is not an indexable operation");
  }
  EXPECT_EQ(Error({Cond("p", CO::kNull, {})}, composite_),
            "Attempted conditional constraint is not an indexable operation");
  EXPECT_EQ(Error({Cond("p", CO::kEq, {})}, composite_),
            kPrefix + "Invalid number of argument(s) for the EQ ComparisonOperator");
  EXPECT_EQ(Error({Cond("p", CO::kEq, {"k", "k"})}, composite_),
            kPrefix + "Invalid number of argument(s) for the EQ ComparisonOperator");
  EXPECT_EQ(Error({Cond("c", CO::kEq, {3})}, composite_),
            "Query condition missed key schema element: p");
  EXPECT_EQ(Error({Cond("p", CO::kEq, {"k"}), Cond("a", CO::kEq, {5})}, composite_),
            "Query condition missed key schema element: c");
  EXPECT_EQ(Error({Cond("p", CO::kEq, {"k"}), Cond("a", CO::kEq, {5})}, hash_only_),
            "Query key condition not supported");
  EXPECT_EQ(Error({Cond("p", CO::kEq, {"k"}), Cond("c", CO::kEq, {3}), Cond("a", CO::kEq, {5})},
                  composite_),
            "Conditions can be of length 1 or 2 only");
  EXPECT_EQ(Error({}, composite_), "Conditions can be of length 1 or 2 only");
  EXPECT_EQ(Error({Cond("p", CO::kEq, {3})}, composite_),
            kPrefix + "Condition parameter type does not match schema type");
  EXPECT_EQ(Error({Cond("p", CO::kEq, {"k"}), Cond("c", CO::kEq, {"3"})}, composite_),
            kPrefix + "Condition parameter type does not match schema type");
  // BEGINS_WITH on a number sort key fails the argument check first.
  EXPECT_EQ(Error({Cond("p", CO::kEq, {"k"}), Cond("c", CO::kBeginsWith, {3})}, composite_),
            kPrefix + "ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type");
}

// ---- AttributesToGet -------------------------------------------------------------------------

TEST(LegacyAttributesToGetTest, ProjectsTopLevelNames) {
  const Item item{{"p", "k"}, {"c", "s"}, {"a", "hello"}, {"b", "hi"}, {"x.y", 1}};
  auto project = [&](std::vector<std::string> names) {
    Result<ProjectionExpression> p = TranslateAttributesToGet(names);
    EXPECT_TRUE(p.ok());
    return Project(*p, item);
  };
  EXPECT_EQ(project({"a"}), (Item{{"a", "hello"}}));
  EXPECT_EQ(project({"c", "a"}), (Item{{"a", "hello"}, {"c", "s"}}));
  EXPECT_EQ(project({"p", "c"}), (Item{{"p", "k"}, {"c", "s"}}));
  EXPECT_EQ(project({"nonexistent"}), Item{});
  EXPECT_EQ(project({"x.y"}), (Item{{"x.y", 1}}));  // a literal name, not a path
  // Names as items have them: 1..65535 bytes.
  for (const std::string& bad : {std::string(), std::string(65536, 'a')}) {
    const std::vector<std::string> names{"a", bad};
    Result<ProjectionExpression> refused = TranslateAttributesToGet(names);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().message(), bad.empty()
                                             ? "Empty attribute name"
                                             : "Attribute name is too large, must be less than "
                                               "65536 bytes");
  }
  std::vector<std::string> dup{"a", "b", "a"};
  Result<ProjectionExpression> p = TranslateAttributesToGet(dup);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().message(), kPrefix + "Duplicate value in attribute name: a");
}

// ---- AttributeUpdates --------------------------------------------------------------------------

AttributeUpdate Put(std::string name, Value v) {
  return {std::move(name), AttributeAction::kPut, std::move(v)};
}
AttributeUpdate AddU(std::string name, Value v) {
  return {std::move(name), AttributeAction::kAdd, std::move(v)};
}
AttributeUpdate DeleteU(std::string name, std::optional<Value> v = std::nullopt) {
  return {std::move(name), AttributeAction::kDelete, std::move(v)};
}

const KeySchema kHashSchema{KeyAttribute{"p", KeyType::kString}, std::nullopt};

// Applies AttributeUpdates to `item` (nullopt: no item), as UpdateItem would.
Result<UpdateOutcome> Apply(const std::vector<AttributeUpdate>& updates,
                            const std::optional<Item>& item,
                            UpdatedAttributes wanted = UpdatedAttributes::kNone) {
  PARTSTORE_ASSIGN_OR_RETURN(UpdateExpression update, TranslateAttributeUpdates(updates));
  return ApplyUpdate(update, item ? &*item : nullptr, kHashSchema, wanted);
}

TEST(LegacyAttributeUpdatesTest, ValidationMessages) {
  auto error = [](std::vector<AttributeUpdate> updates) -> std::string {
    Result<UpdateExpression> u = TranslateAttributeUpdates(updates);
    return u.ok() ? "<ok>" : std::string(u.error().message());
  };
  EXPECT_EQ(error({AttributeUpdate{"a", std::nullopt, std::nullopt}}),
            kPrefix + "Only DELETE action is allowed when no attribute value is specified");
  EXPECT_EQ(error({Put("", 1)}), "Empty attribute name");
  EXPECT_EQ(error({Put(std::string(65536, 'a'), 1)}),
            "Attribute name is too large, must be less than 65536 bytes");
  EXPECT_EQ(error({AttributeUpdate{"a", AttributeAction::kAdd, std::nullopt}}),
            kPrefix + "Only DELETE action is allowed when no attribute value is specified");
  for (const Value& v : {Value("b"), Value(3), B("b"), Value(true), Value::Nil(), L({2, 3}),
                         Value::Map({{"a", Value(3)}})}) {
    EXPECT_EQ(error({DeleteU("a", v)}),
              kPrefix + "DELETE action with value is not supported for the type " +
                  std::string(TypeName(v.type())));
  }
  for (const Value& v : {Value("1"), B("b"), Value::Nil(), Value(true), Value::Map({})}) {
    EXPECT_EQ(error({AddU("a", v)}), kPrefix + "ADD action is not supported for the type " +
                                         std::string(TypeName(v.type())));
  }
  EXPECT_EQ(error({Put("a", 1), DeleteU("b"), AddU("c", 1), AddU("d", L({})), AddU("e", SS({"x"})),
                   DeleteU("f", NS({"1"}))}),
            "<ok>");
  // Key attributes: ApplyUpdate's check, UpdateExpression's message.
  Result<UpdateOutcome> key = Apply({Put("p", "new-key")}, Item{{"p", "k"}});
  ASSERT_FALSE(key.ok());
  EXPECT_EQ(key.error().message(),
            kPrefix + "Cannot update attribute p. This attribute is part of the key");
}

TEST(LegacyAttributeUpdatesTest, PutAndDelete) {
  Result<UpdateOutcome> r = Apply({Put("a", "hello"), Put("b", "hi")}, Item{{"p", "k"}});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->item, (Item{{"p", "k"}, {"a", "hello"}, {"b", "hi"}}));
  // A Value without Action is a PUT.
  r = Apply({AttributeUpdate{"col", std::nullopt, Value("written")}}, std::nullopt);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->item, (Item{{"col", "written"}}));
  // A Value-less DELETE removes the attribute.
  r = Apply({DeleteU("a")}, Item{{"p", "k"}, {"a", "x"}});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->item, (Item{{"p", "k"}}));
  // Set DELETE: elements go; all gone removes the attribute; absent elements are ignored.
  r = Apply({DeleteU("a", NS({"2", "4"}))}, Item{{"a", NS({"1", "2", "3", "4", "5"})}});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->item, (Item{{"a", NS({"1", "3", "5"})}}));
  r = Apply({DeleteU("a", SS({"dog"}))}, Item{{"a", SS({"dog", "cat", "lion"})}});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->item, (Item{{"a", SS({"cat", "lion"})}}));
  r = Apply({DeleteU("a", NS({"1", "2", "3"}))}, Item{{"p", "k"}, {"a", NS({"1", "2", "3"})}});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->item, (Item{{"p", "k"}}));
  r = Apply({DeleteU("a", NS({"2", "5"}))}, Item{{"a", NS({"1", "2", "3"})}});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->item, (Item{{"a", NS({"1", "3"})}}));
  // Type mismatches: the legacy message.
  for (const Item& item : {Item{{"a", "b"}}, Item{{"a", L({2, 3})}}, Item{{"a", SS({"hi"})}}}) {
    r = Apply({DeleteU("a", NS({"1", "2"}))}, item);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message(), "Type mismatch for attribute to update");
  }
  // DELETE on a missing item creates nothing.
  for (const AttributeUpdate& u : {DeleteU("a"), DeleteU("a", NS({"4"}))}) {
    r = Apply({u}, std::nullopt);
    ASSERT_TRUE(r.ok());
    EXPECT_FALSE(r->exists);
  }
}

TEST(LegacyAttributeUpdatesTest, AddNumbersSetsLists) {
  // Scylla test_item.py::test_update_item_add, step by step.
  std::optional<Item> item = Item{{"p", "k"}, {"a", 7}};
  auto apply = [&](std::vector<AttributeUpdate> updates) {
    Result<UpdateOutcome> r = Apply(updates, item);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    if (r.ok()) item = r->item;
  };
  apply({AddU("a", 2)});
  EXPECT_EQ(item->at("a"), Value(9));
  apply({AddU("a", Value(N("-3.5")))});
  EXPECT_EQ(item->at("a"), Value(N("5.5")));
  apply({AddU("b", 2)});
  EXPECT_EQ(*item, (Item{{"p", "k"}, {"a", Value(N("5.5"))}, {"b", 2}}));

  item = Item{{"p", "k"}, {"a", NS({"1", "2"})}};
  apply({AddU("a", NS({"3", "4"}))});
  apply({AddU("a", NS({"3", "5"}))});
  apply({AddU("b", NS({"7"}))});
  apply({AddU("c", SS({"a", "b"}))});
  EXPECT_EQ(*item, (Item{{"p", "k"},
                         {"a", NS({"1", "2", "3", "4", "5"})},
                         {"b", NS({"7"})},
                         {"c", SS({"a", "b"})}}));

  item = Item{{"p", "k"}, {"a", L({1, 2})}};
  apply({AddU("a", L({3, 4}))});
  apply({AddU("a", L({3, 5}))});
  apply({AddU("b", L({7}))});
  apply({AddU("c", L({"a", "b"}))});
  apply({AddU("c", L({3}))});
  EXPECT_EQ(
      *item,
      (Item{{"p", "k"}, {"a", L({1, 2, 3, 4, 3, 5})}, {"b", L({7})}, {"c", L({"a", "b", 3})}}));

  // Mixing kinds is a type mismatch.
  struct Mismatch {
    Item item;
    Value add;
  };
  for (const Mismatch& m : std::vector<Mismatch>{{Item{{"a", SS({"dog"})}}, Value(2)},
                                                 {Item{{"a", SS({"dog"})}}, L({"cat"})},
                                                 {Item{{"a", L({"dog"})}}, SS({"cat"})},
                                                 {Item{{"a", L({"dog"})}}, Value(3)},
                                                 {Item{{"a", 2}}, L({"dog"})},
                                                 {Item{{"a", 2}}, SS({"dog"})},
                                                 {Item{{"a", NS({"1", "2"})}}, SS({"a"})}}) {
    Result<UpdateOutcome> r = Apply({AddU("a", m.add)}, m.item);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message(), "Type mismatch for attribute to update");
  }
  // ADD creates a missing item.
  for (const Value& v : {Value(3), NS({"1", "2"}), SS({"a", "b"}), L({1, 2})}) {
    Result<UpdateOutcome> r = Apply({AddU("a", v)}, std::nullopt);
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(r->exists);
    EXPECT_EQ(r->item, (Item{{"a", v}}));
  }
}

TEST(LegacyAttributeUpdatesTest, ReturnValuesAndEmptyUpdates) {
  // dynalite's live-verified updateItem tests.
  const Item before{{"p", "k"}, {"b", "a"}, {"c", "a"}};
  Result<UpdateOutcome> r =
      Apply({Put("b", "b"), Put("c", "a")}, before, UpdatedAttributes::kUpdatedOld);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->attributes, (Item{{"b", "a"}, {"c", "a"}}));
  r = Apply({Put("b", "b"), Put("c", "a")}, before, UpdatedAttributes::kUpdatedNew);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->attributes, (Item{{"b", "b"}, {"c", "a"}}));
  r = Apply({DeleteU("b"), Put("c", "a")}, before, UpdatedAttributes::kUpdatedNew);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->attributes, (Item{{"c", "a"}}));
  // ADD / DELETE on a missing item: only what ADD created comes back.
  r = Apply({DeleteU("b"), DeleteU("c", SS({"a", "b"})), AddU("d", 5), AddU("e", SS({"a", "b"}))},
            std::nullopt, UpdatedAttributes::kUpdatedNew);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->exists);
  EXPECT_EQ(r->attributes, (Item{{"d", 5}, {"e", SS({"a", "b"})}}));
  EXPECT_EQ(r->item, (Item{{"d", 5}, {"e", SS({"a", "b"})}}));
  // AttributeUpdates {}: creates the key-only item; no Attributes.
  r = Apply({}, std::nullopt, UpdatedAttributes::kUpdatedNew);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->exists);
  EXPECT_TRUE(r->item.empty());
  EXPECT_TRUE(r->attributes.empty());
  r = Apply({}, before, UpdatedAttributes::kUpdatedOld);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->item, before);
  EXPECT_TRUE(r->attributes.empty());
}

// ---- The mixing rule -------------------------------------------------------------------------

std::string Mixing(RequestParameters p) {
  Status s = CheckParameterMixing(p);
  return s.ok() ? "<ok>" : std::string(s.message());
}

std::string MixingMessage(std::string_view legacy, std::string_view expressions) {
  return "Can not use both expression and non-expression parameters in the same request: "
         "Non-expression parameters: {" +
         std::string(legacy) + "} Expression parameters: {" + std::string(expressions) + "}";
}

TEST(LegacyMixingTest, MessagesFromDynamoDB) {
  // nubo-db/dynamodb-conformance (live): GetItem, UpdateItem, PutItem.
  EXPECT_EQ(Mixing({.attributes_to_get = true, .projection_expression = true}),
            MixingMessage("AttributesToGet", "ProjectionExpression"));
  EXPECT_EQ(Mixing({.attribute_updates = true, .update_expression = true}),
            MixingMessage("AttributeUpdates", "UpdateExpression"));
  EXPECT_EQ(Mixing({.expected = true, .condition_expression = true}),
            MixingMessage("Expected", "ConditionExpression"));
  // ExtendDB's dual-target tests (live DynamoDB): full orderings.
  EXPECT_EQ(Mixing({.attributes_to_get = true,
                    .scan_filter = true,
                    .conditional_operator = true,
                    .projection_expression = true,
                    .filter_expression = true}),
            MixingMessage("AttributesToGet, ScanFilter, ConditionalOperator",
                          "ProjectionExpression, FilterExpression"));
  EXPECT_EQ(Mixing({.query_filter = true,
                    .conditional_operator = true,
                    .key_conditions = true,
                    .projection_expression = true,
                    .filter_expression = true,
                    .key_condition_expression = true}),
            MixingMessage("QueryFilter, ConditionalOperator, KeyConditions",
                          "ProjectionExpression, FilterExpression, KeyConditionExpression"));
  EXPECT_EQ(Mixing({.attribute_updates = true,
                    .expected = true,
                    .conditional_operator = true,
                    .update_expression = true,
                    .condition_expression = true}),
            MixingMessage("AttributeUpdates, Expected, ConditionalOperator",
                          "UpdateExpression, ConditionExpression"));
  EXPECT_EQ(Mixing({.conditional_operator = true, .projection_expression = true}),
            MixingMessage("ConditionalOperator", "ProjectionExpression"));
  EXPECT_EQ(Mixing({.conditional_operator = true, .update_expression = true}),
            MixingMessage("ConditionalOperator", "UpdateExpression"));
  EXPECT_EQ(Mixing({.expected = true, .conditional_operator = true, .condition_expression = true}),
            MixingMessage("Expected, ConditionalOperator", "ConditionExpression"));
  // Across concerns.
  EXPECT_EQ(Mixing({.scan_filter = true, .projection_expression = true}),
            MixingMessage("ScanFilter", "ProjectionExpression"));
  EXPECT_EQ(Mixing({.attributes_to_get = true, .filter_expression = true}),
            MixingMessage("AttributesToGet", "FilterExpression"));
  EXPECT_EQ(Mixing({.attributes_to_get = true, .key_condition_expression = true}),
            MixingMessage("AttributesToGet", "KeyConditionExpression"));
  EXPECT_EQ(Mixing({.query_filter = true, .key_condition_expression = true}),
            MixingMessage("QueryFilter", "KeyConditionExpression"));
  EXPECT_EQ(Mixing({.attribute_updates = true, .condition_expression = true}),
            MixingMessage("AttributeUpdates", "ConditionExpression"));
  EXPECT_EQ(Mixing({.expected = true, .update_expression = true}),
            MixingMessage("Expected", "UpdateExpression"));
  // KeyConditions alone never mixes: it is accepted with FilterExpression / ProjectionExpression.
  EXPECT_EQ(Mixing({.key_conditions = true, .filter_expression = true}), "<ok>");
  EXPECT_EQ(Mixing({.key_conditions = true, .projection_expression = true}), "<ok>");
  EXPECT_EQ(Mixing({.key_conditions = true, .key_condition_expression = true}),
            MixingMessage("KeyConditions", "KeyConditionExpression"));
  // One style only.
  EXPECT_EQ(Mixing({.attributes_to_get = true,
                    .query_filter = true,
                    .conditional_operator = true,
                    .key_conditions = true}),
            "<ok>");
  EXPECT_EQ(Mixing({.projection_expression = true, .filter_expression = true}), "<ok>");
  EXPECT_EQ(Mixing({}), "<ok>");
}

TEST(LegacyNamesTest, RoundTrip) {
  for (int i = 0; i <= static_cast<int>(CO::kBetween); ++i) {
    const CO op = static_cast<CO>(i);
    EXPECT_EQ(ComparisonOperatorFromName(ComparisonOperatorName(op)), op);
  }
  EXPECT_EQ(ComparisonOperatorName(CO::kNotContains), "NOT_CONTAINS");
  EXPECT_FALSE(ComparisonOperatorFromName("eq").has_value());
  EXPECT_FALSE(ComparisonOperatorFromName("DOG").has_value());
  EXPECT_EQ(ConditionalOperatorFromName("OR"), ConditionalOperator::kOr);
  EXPECT_FALSE(ConditionalOperatorFromName("and").has_value());
  EXPECT_EQ(AttributeActionFromName("DELETE"), AttributeAction::kDelete);
  EXPECT_FALSE(AttributeActionFromName("NONEXISTENT").has_value());
  EXPECT_EQ(AttributeActionName(AttributeAction::kAdd), "ADD");
}

}  // namespace
}  // namespace partstore::expr
