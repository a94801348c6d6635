// AnalyzeKeyCondition / CheckKeyConditionShape / MatchesSortKey. Texts: DynamoDB's
// KeyConditionExpression extractor (via DynamoDB Local and dynalite's tests against DynamoDB, in
// DynamoDB's classic wording, see key_condition.cc), "Query condition missed key schema element:
// pk" (live, conformance suite), Scylla test_key_condition_expression.py for which cases fail.
#include "core/expr/key_condition.h"

#include <gtest/gtest.h>

#include <array>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include "core/expr/parser.h"
#include "core/expr/resolve.h"
#include "tests/expr/condition_builders.h"
#include "tests/testutil/random_values.h"

namespace partstore::expr {
namespace {

using namespace builders;  // NOLINT

KeySchema StringSort() {
  return KeySchema{{"pk", KeyType::kString}, KeyAttribute{"sk", KeyType::kString}};
}
KeySchema NumberSort() {
  return KeySchema{{"pk", KeyType::kString}, KeyAttribute{"sk", KeyType::kNumber}};
}
KeySchema HashOnly() { return KeySchema{{"pk", KeyType::kString}, std::nullopt}; }

// DynamoDB's classic wording has no "Invalid KeyConditionExpression: " prefix here.
std::string KCE(std::string_view m) { return std::string(m); }

TEST(KeyConditionTest, Rejections) {
  Constants c;
  struct Case {
    const char* label;
    Condition condition;
    KeySchema schema;
    std::string error;
  };
  const std::string kMultiple =
      KCE("Invalid condition in KeyConditionExpression: Multiple attribute names used in one "
          "condition");
  const std::string kNoKey =
      KCE("Invalid condition in KeyConditionExpression: No key attribute specified");
  const std::string kOnePerKey =
      KCE("KeyConditionExpressions must only contain one condition per key");
  const std::string kNested =
      KCE("KeyConditionExpressions cannot have conditions on nested attributes");
  const std::string kNestedOp = KCE("KeyConditionExpressions cannot contain nested operations");
  const std::string kMismatch =
      "One or more parameter values were invalid: Condition parameter type does not match schema "
      "type";
  std::vector<Case> cases;
  auto add = [&](const char* label, Condition cond, KeySchema schema, std::string error) {
    cases.push_back({label, std::move(cond), std::move(schema), std::move(error)});
  };
  auto pk = [&] { return Cmp(PathOp("pk"), "=", c(Str("p"))); };

  // Operators (dynalite's test list; the OR / NOT / IN / <> / function names are DynamoDB's).
  add("OR", Or(pk(), Cmp(PathOp("sk"), "=", c(Str("x")))), StringSort(),
      KCE("Invalid operator used in KeyConditionExpression: OR"));
  add("NOT", And(Not(Cmp(PathOp("sk"), "=", c(Str("x")))), pk()), StringSort(),
      KCE("Invalid operator used in KeyConditionExpression: NOT"));
  add("IN", And(pk(), In(PathOp("sk"), {c(Str("x"))})), StringSort(),
      KCE("Invalid operator used in KeyConditionExpression: IN"));
  add("<>", And(pk(), Cmp(PathOp("sk"), "<>", c(Str("x")))), StringSort(),
      KCE("Invalid operator used in KeyConditionExpression: <>"));
  add("attribute_exists", Fn("attribute_exists", {PathOp("pk")}), StringSort(),
      KCE("Invalid operator used in KeyConditionExpression: attribute_exists"));
  add("attribute_not_exists", And(pk(), Fn("attribute_not_exists", {PathOp("sk")})), StringSort(),
      KCE("Invalid operator used in KeyConditionExpression: attribute_not_exists"));
  add("contains", And(pk(), Fn("contains", {PathOp("sk"), c(Str("x"))})), StringSort(),
      KCE("Invalid operator used in KeyConditionExpression: contains"));
  add("attribute_type", Fn("attribute_type", {PathOp("pk"), c(Str("S"))}), StringSort(),
      KCE("Invalid operator used in KeyConditionExpression: attribute_type"));
  add("the walk reports the first bad node",
      And(Fn("contains", {PathOp("sk"), c(Str("x"))}), Or(pk(), pk())), StringSort(),
      KCE("Invalid operator used in KeyConditionExpression: contains"));

  // Operands.
  add("two paths", Cmp(PathOp("pk"), "=", PathOp("sk")), StringSort(), kMultiple);
  add("BETWEEN with a path bound", Between(PathOp("sk"), PathOp("c[1]"), c(Str("x"))), StringSort(),
      kMultiple);
  add("begins_with of two paths", Fn("begins_with", {PathOp("pk"), PathOp("sk")}), StringSort(),
      kMultiple);
  add("two constants", Cmp(c(Str("a")), "=", c(Str("b"))), StringSort(), kNoKey);
  add("nested path", And(pk(), Cmp(PathOp("sk.foo"), "=", c(Str("x")))), StringSort(), kNested);
  add("list element", Cmp(PathOp("pk[0]"), "=", c(Str("x"))), StringSort(), kNested);
  add("nested path on the right", And(pk(), Cmp(c(Str("a")), "<=", PathOp("sk.foo"))), StringSort(),
      kNested);
  add("size()", And(pk(), Cmp(SizeOp(PathOp("sk")), ">", c(Num("1")))), StringSort(), kNestedOp);
  add("BETWEEN value first", Between(c(Str("a")), PathOp("sk"), c(Str("z"))), StringSort(),
      KCE("Invalid condition in KeyConditionExpression: BETWEEN operator must have the key "
          "attribute as its first operand"));
  add("begins_with value first", And(Fn("begins_with", {c(Str("a")), PathOp("sk")}), pk()),
      StringSort(),
      KCE("Invalid condition in KeyConditionExpression: begins_with operator must have the key "
          "attribute as its first operand"));
  // Scylla test_key_condition_expression_and_same / _multi.
  add("p = :p AND p = :p", And(pk(), pk()), StringSort(), kOnePerKey);
  add("two on the sort key",
      And(And(pk(), Cmp(PathOp("sk"), ">=", c(Str("a")))), Cmp(PathOp("sk"), "<=", c(Str("b")))),
      StringSort(), kOnePerKey);
  add("three keys",
      And(And(pk(), Cmp(PathOp("sk"), "<", c(Str("a")))), Cmp(PathOp("a"), "<", c(Str("a")))),
      StringSort(), "Conditions can be of length 1 or 2 only");

  // Schema. Live: "Query condition missed key schema element: pk" for "sk = :v" and for a
  // non-key attribute alone (conformance query.test.ts).
  add("sort key only", Cmp(PathOp("sk"), "=", c(Str("x"))), StringSort(),
      "Query condition missed key schema element: pk");
  add("non-key attribute", Cmp(PathOp("attr1"), "=", c(Str("x"))), StringSort(),
      "Query condition missed key schema element: pk");
  add("partition key and a non-key attribute", And(pk(), Cmp(PathOp("a"), "<", c(Str("x")))),
      StringSort(), "Query condition missed key schema element: sk");
  add("two conditions on a hash-only table", And(pk(), Cmp(PathOp("a"), "<", c(Str("x")))),
      HashOnly(), "Query key condition not supported");
  add("partition key with <", Cmp(PathOp("pk"), "<", c(Str("x"))), StringSort(),
      "Query key condition not supported");
  add("partition key BETWEEN", Between(PathOp("pk"), c(Str("a")), c(Str("b"))), StringSort(),
      "Query key condition not supported");
  add("partition key begins_with", Fn("begins_with", {PathOp("pk"), c(Str("a"))}), StringSort(),
      "Query key condition not supported");
  add("partition key type", Cmp(PathOp("pk"), "=", c(Num("3"))), StringSort(), kMismatch);
  add("partition key type before operator", Cmp(PathOp("pk"), ">", c(Num("3"))), StringSort(),
      kMismatch);
  add("sort key type", And(pk(), Cmp(PathOp("sk"), "=", c(Str("hello")))), NumberSort(), kMismatch);
  add("begins_with string on a number sort key",
      And(pk(), Fn("begins_with", {PathOp("sk"), c(Str("1"))})), NumberSort(), kMismatch);
  add("BETWEEN upper bound type", And(pk(), Between(PathOp("sk"), c(Num("1")), c(Str("9")))),
      NumberSort(), kMismatch);
  add("empty partition key", Cmp(PathOp("pk"), "=", c(Str(""))), StringSort(),
      "One or more parameter values are not valid. The AttributeValue for a key attribute cannot "
      "contain an empty string value. Key: pk");
  add("long sort key", And(pk(), Cmp(PathOp("sk"), ">", c(Str(std::string(1025, 'x'))))),
      StringSort(),
      "One or more parameter values were invalid: Aggregated size of all range keys has exceeded "
      "the size limit of 1024 bytes");

  for (Case& cs : cases) {
    SCOPED_TRACE(cs.label);
    Result<KeyCondition> result = AnalyzeKeyCondition(cs.condition, cs.schema);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.status().code(), Code::kValidation);
    EXPECT_EQ(result.status().message(), cs.error);
    // The shape errors are also found without the schema.
    Status shape = CheckKeyConditionShape(cs.condition);
    const bool schema_error = cs.error.starts_with("Query ") || cs.error.starts_with("One or more");
    if (!schema_error) {
      EXPECT_EQ(shape.message(), cs.error);
    } else {
      EXPECT_TRUE(shape.ok()) << shape.ToString();
    }
  }
}

TEST(KeyConditionTest, Accepted) {
  Constants c;
  {
    Result<KeyCondition> k = AnalyzeKeyCondition(Cmp(PathOp("pk"), "=", c(Str("p"))), StringSort());
    ASSERT_TRUE(k.ok()) << k.status().ToString();
    EXPECT_EQ(*k->partition, Str("p"));
    EXPECT_EQ(k->sort_op, SortKeyOp::kNone);
    EXPECT_TRUE(k->MatchesSortKey(Str("anything")));
  }
  {
    // Either order, and a value on the left reverses the comparator (live: conformance
    // keyConditionSemantics "accepts a reversed-operand sort-key comparison").
    Result<KeyCondition> k = AnalyzeKeyCondition(
        And(Cmp(c(Str("m")), "<", PathOp("sk")), Cmp(c(Str("p")), "=", PathOp("pk"))),
        StringSort());
    ASSERT_TRUE(k.ok()) << k.status().ToString();
    EXPECT_EQ(k->sort_op, SortKeyOp::kGt);
    EXPECT_EQ(*k->sort_low, Str("m"));
    EXPECT_EQ(*k->partition, Str("p"));
  }
  {
    Result<KeyCondition> k = AnalyzeKeyCondition(
        And(Cmp(PathOp("pk"), "=", c(Str("p"))), Between(PathOp("sk"), c(Num("4")), c(Num("7")))),
        NumberSort());
    ASSERT_TRUE(k.ok()) << k.status().ToString();
    EXPECT_EQ(k->sort_op, SortKeyOp::kBetween);
    EXPECT_EQ(*k->sort_low, Num("4"));
    EXPECT_EQ(*k->sort_high, Num("7"));
    EXPECT_TRUE(k->MatchesSortKey(Num("4")));
    EXPECT_TRUE(k->MatchesSortKey(Num("7.0")));
    EXPECT_FALSE(k->MatchesSortKey(Num("7.0001")));
  }
  {
    // Hash-only table: a lone partition key condition.
    Result<KeyCondition> k = AnalyzeKeyCondition(Cmp(PathOp("pk"), "=", c(Str("p"))), HashOnly());
    ASSERT_TRUE(k.ok()) << k.status().ToString();
  }
}

TEST(KeyConditionTest, MatchesSortKey) {
  Value low = Str("b"), high = Str("d"), nlow = Num("10"), blow = Bin(std::string("\x7f", 1));
  auto match = [](SortKeyOp op, const Value* lo, const Value* hi, const Value& v) {
    KeyCondition k;
    k.sort_op = op;
    k.sort_low = lo;
    k.sort_high = hi;
    return k.MatchesSortKey(v);
  };
  EXPECT_TRUE(match(SortKeyOp::kEq, &low, nullptr, Str("b")));
  EXPECT_FALSE(match(SortKeyOp::kEq, &low, nullptr, Str("bb")));
  EXPECT_TRUE(match(SortKeyOp::kLt, &low, nullptr, Str("a")));
  EXPECT_FALSE(match(SortKeyOp::kLt, &low, nullptr, Str("b")));
  EXPECT_TRUE(match(SortKeyOp::kLe, &low, nullptr, Str("b")));
  EXPECT_TRUE(match(SortKeyOp::kGt, &low, nullptr, Str("ba")));
  EXPECT_TRUE(match(SortKeyOp::kGe, &low, nullptr, Str("b")));
  EXPECT_FALSE(match(SortKeyOp::kGe, &low, nullptr, Str("a")));
  EXPECT_TRUE(match(SortKeyOp::kBetween, &low, &high, Str("c")));
  EXPECT_TRUE(match(SortKeyOp::kBetween, &low, &high, Str("d")));
  EXPECT_FALSE(match(SortKeyOp::kBetween, &low, &high, Str("da")));
  EXPECT_TRUE(match(SortKeyOp::kBeginsWith, &low, nullptr, Str("bxy")));
  EXPECT_FALSE(match(SortKeyOp::kBeginsWith, &low, nullptr, Str("ab")));
  EXPECT_FALSE(match(SortKeyOp::kGt, &nlow, nullptr, Num("9.99")));
  EXPECT_TRUE(match(SortKeyOp::kGt, &nlow, nullptr, Num("9.99E+1")));
  EXPECT_TRUE(match(SortKeyOp::kGt, &nlow, nullptr, Num("1E+2")));
  // Binary sort keys are unsigned bytes (Scylla test_key_condition_expression_unsigned_bytes).
  EXPECT_TRUE(match(SortKeyOp::kGt, &blow, nullptr, Bin("\x80")));
  EXPECT_TRUE(match(SortKeyOp::kBeginsWith, &blow, nullptr, Bin("\x7f\x01")));
  // A sort key of another type never matches.
  EXPECT_FALSE(match(SortKeyOp::kLt, &nlow, nullptr, Str("1")));
}

// MatchesSortKey agrees with a model that sorts random keys and compares positions.
TEST(KeyConditionTest, RandomizedMatchesSortKey) {
  std::mt19937_64 rng(11);
  ::partstore::testing::RandomValueOptions options;
  options.allow_empty = false;
  for (int round = 0; round < 3000; ++round) {
    const Type type =
        std::array{Type::kS, Type::kN, Type::kB}[::partstore::testing::RandomInt(rng, 0, 2)];
    Value a = ::partstore::testing::RandomScalar(rng, type, options);
    Value b = ::partstore::testing::RandomScalar(rng, type, options);
    Value key = ::partstore::testing::RandomChance(rng, 0.2)
                    ? a
                    : ::partstore::testing::RandomScalar(rng, type, options);
    if (Compare(a, b) == std::partial_ordering::greater) std::swap(a, b);
    auto cmp = [](const Value& x, const Value& y) {
      // Model ordering: S and B by unsigned bytes, N by Number.
      if (x.is(Type::kN)) return x.as_number() <=> y.as_number();
      const std::string& xs = x.is(Type::kS) ? x.as_string() : x.as_binary();
      const std::string& ys = y.is(Type::kS) ? y.as_string() : y.as_binary();
      return std::lexicographical_compare_three_way(
          xs.begin(), xs.end(), ys.begin(), ys.end(), [](char p, char q) {
            return static_cast<unsigned char>(p) <=> static_cast<unsigned char>(q);
          });
    };
    KeyCondition k;
    k.sort_low = &a;
    k.sort_high = &b;
    k.sort_op = SortKeyOp::kBetween;
    EXPECT_EQ(k.MatchesSortKey(key), cmp(key, a) >= 0 && cmp(key, b) <= 0);
    k.sort_op = SortKeyOp::kLt;
    EXPECT_EQ(k.MatchesSortKey(key), cmp(key, a) < 0);
    k.sort_op = SortKeyOp::kGe;
    EXPECT_EQ(k.MatchesSortKey(key), cmp(key, a) >= 0);
    if (type != Type::kN) {
      k.sort_op = SortKeyOp::kBeginsWith;
      const std::string& ks = type == Type::kS ? key.as_string() : key.as_binary();
      const std::string& as = type == Type::kS ? a.as_string() : a.as_binary();
      EXPECT_EQ(k.MatchesSortKey(key), ks.rfind(as, 0) == 0);
    }
  }
}

// Through the parser and the resolver, as a Query runs it (Scylla
// test_key_condition_expression.py cases; which ones fail, and DynamoDB's texts).
TEST(KeyConditionTest, FromText) {
  const KeySchema schema{{"p", KeyType::kString}, KeyAttribute{"c", KeyType::kNumber}};
  AttributeMap values;
  values.insert_or_assign(":p", Str("pk"));
  values.insert_or_assign(":c", Num("3"));
  values.insert_or_assign(":c2", Num("7"));
  values.insert_or_assign(":s", Str("hello"));
  NameMap names = {{"#name1", "p"}, {"#name2", "c"}};
  struct Row {
    const char* text;
    std::string error;  // empty: analyzes
    SortKeyOp op = SortKeyOp::kNone;
  } rows[] = {
      {"p=:p", "", SortKeyOp::kNone},
      {" p  =   :p ", "", SortKeyOp::kNone},
      {"p=:p AND c<:c", "", SortKeyOp::kLt},
      {":p=p AND :c<c", "", SortKeyOp::kGt},
      {"c=:c AND p=:p", "", SortKeyOp::kEq},
      {"p=:p AnD c BeTwEeN :c aNd :c2", "", SortKeyOp::kBetween},
      {"((c=:c) AND (p=:p))", "", SortKeyOp::kEq},
      {"#name1=:p AND #name2=:c", "", SortKeyOp::kEq},
      {"p=:p AND p=:p", "KeyConditionExpressions must only contain one condition per key"},
      {"p<:p", "Query key condition not supported"},
      {"c=:c", "Query condition missed key schema element: p"},
      {"p=:p AND begins_with(c, :c)",
       "Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator "
       "or function: begins_with, operand type: N"},
      {"p=:p AND c<>:c", "Invalid operator used in KeyConditionExpression: <>"},
      {"p=:p AND c IN (:c)", "Invalid operator used in KeyConditionExpression: IN"},
      {"c=:c OR p=:p", "Invalid operator used in KeyConditionExpression: OR"},
      {"NOT c=:c AND p=:p", "Invalid operator used in KeyConditionExpression: NOT"},
      {"p=:p AND c>=:c AND c<=:c2",
       "KeyConditionExpressions must only contain one condition per key"},
      {"p=:p AND c<:c AND a<:c", "Conditions can be of length 1 or 2 only"},
      {"p=:p AND a<:c", "Query condition missed key schema element: c"},
      {"p=:p AND a.b<:c", "KeyConditionExpressions cannot have conditions on nested attributes"},
      {"p=c",
       "Invalid condition in KeyConditionExpression: Multiple attribute names used in one "
       "condition"},
      {":p=:c", "Invalid condition in KeyConditionExpression: No key attribute specified"},
      {"p=:c",
       "One or more parameter values were invalid: Condition parameter type does not match schema "
       "type"},
      {"p=:p AND c=:s",
       "One or more parameter values were invalid: Condition parameter type does not match schema "
       "type"},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.text);
    Result<Condition> parsed = ParseCondition(row.text, ExpressionKind::kKeyCondition);
    ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
    Resolver resolver(&names, &values);
    Result<Condition> resolved = resolver.Resolve(*parsed, ExpressionKind::kKeyCondition);
    Status status = resolved.status();
    Result<KeyCondition> analyzed = Status::Internal("not analyzed");
    if (resolved.ok()) {
      analyzed = AnalyzeKeyCondition(*resolved, schema);
      status = analyzed.status();
    }
    if (row.error.empty()) {
      ASSERT_TRUE(status.ok()) << status.ToString();
      EXPECT_EQ(analyzed->sort_op, row.op);
      EXPECT_EQ(*analyzed->partition, Str("pk"));
    } else {
      EXPECT_EQ(status.message(), row.error);
    }
  }
}

}  // namespace
}  // namespace partstore::expr
