// Table-driven tests of the parse stage (core/expr/parser.h): one table of valid inputs with the
// expected tree (in the canonical text of expr_testutil.h) and one of invalid inputs with
// DynamoDB's exact message, per expression kind; plus the limits at their boundaries.
//
// Where a message is backed by a DynamoDB observation, the row says so (sources: the nubo-db
// conformance suite run against DynamoDB, scylladb test/alternator comments recording DynamoDB's
// answers, dynalite's tests, user reports). The other rows follow DynamoDB's published grammar
// and validation order (see parser.cc).
#include "core/expr/parser.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/expr/ast.h"
#include "tests/expr/expr_testutil.h"

namespace partstore::expr {
namespace {

using testing::Show;

struct Valid {
  std::string input;
  std::string tree;
};

struct Invalid {
  std::string input;
  std::string message;  // without the "Invalid <Parameter>: " prefix
};

std::string Repeat(std::string_view s, size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (size_t i = 0; i < n; ++i) out.append(s);
  return out;
}

std::string Syntax(std::string_view token, std::string_view near) {
  return "Syntax error; token: \"" + std::string(token) + "\", near: \"" + std::string(near) + "\"";
}

// ---- ConditionExpression / FilterExpression -----------------------------------------------------

TEST(ParseConditionTest, ValidTable) {
  const std::vector<Valid> table = {
      {"a = :v", "(a = :v)"},
      {"a <> :v", "(a <> :v)"},
      {"a < :v", "(a < :v)"},
      {"a <= :v", "(a <= :v)"},
      {"a > :v", "(a > :v)"},
      {"a >= :v", "(a >= :v)"},
      {"a=b", "(a = b)"},
      {":v = a", "(:v = a)"},
      {"  a\t=\r\n:v  ", "(a = :v)"},
      {"attribute_not_exists(PK) AND #s = :s OR size(tags) > :n",
       "((attribute_not_exists(PK) AND (#s = :s)) OR (size(tags) > :n))"},
      // AND binds tighter than OR; both associate to the right.
      {"a = :a OR b = :b AND c = :c", "((a = :a) OR ((b = :b) AND (c = :c)))"},
      {"a = :a AND b = :b OR c = :c", "(((a = :a) AND (b = :b)) OR (c = :c))"},
      {"a = :a AND b = :b AND c = :c", "((a = :a) AND ((b = :b) AND (c = :c)))"},
      {"a = :a OR b = :b OR c = :c", "((a = :a) OR ((b = :b) OR (c = :c)))"},
      // NOT binds tighter than AND.
      {"NOT a = :a AND b = :b", "((NOT (a = :a)) AND (b = :b))"},
      {"NOT NOT NOT NOT a < b", "(NOT (NOT (NOT (NOT (a < b)))))"},
      {"nOt b < a", "(NOT (b < a))"},
      {"NOT (a = :v)", "(NOT (a = :v))"},
      {"NOT attribute_exists(a)", "(NOT attribute_exists(a))"},
      {"(NOT a = b)", "(NOT (a = b))"},
      // Keywords are case-insensitive.
      {"a < b aNd b < c", "((a < b) AND (b < c))"},
      {"a < b oR b < c", "((a < b) OR (b < c))"},
      {"a BETWEEN :lo AND :hi", "(a BETWEEN :lo AND :hi)"},
      {"a between x and y", "(a BETWEEN x AND y)"},
      {"b BETWEEN a AND c AND a < b", "((b BETWEEN a AND c) AND (a < b))"},
      {"a IN (:x, :y, b)", "(a IN (:x, :y, b))"},
      {"a IN (b)", "(a IN (b))"},
      {"attribute_exists (a)", "attribute_exists(a)"},
      {"attribute_type(a, :t)", "attribute_type(a, :t)"},
      {"attribute_type(:v, :t)", "attribute_type(:v, :t)"},
      {"begins_with(a, :p)", "begins_with(a, :p)"},
      {"begins_with(:s, a)", "begins_with(:s, a)"},
      {"contains(a, :v)", "contains(a, :v)"},
      {"contains(a, a1)", "contains(a, a1)"},
      {"size(a)=:n", "(size(a) = :n)"},
      {":n < size(a)", "(:n < size(a))"},
      {"size(a.b[1]) BETWEEN :x AND :y", "(size(a.b[1]) BETWEEN :x AND :y)"},
      {"a IN (size(b), :c)", "(a IN (size(b), :c))"},
      {"contains(size(a), :v)", "contains(size(a), :v)"},
      {"size((a)) = :v", "(size(a) = :v)"},
      {"b.x < b.y[1]", "(b.x < b.y[1])"},
      {"#name1.#name2 = :two", "(#name1.#name2 = :two)"},
      {"a.b[2].#c = :v", "(a.b[2].#c = :v)"},
      {"a[0] = :v", "(a[0] = :v)"},
      {"a[2147483647] = :v", "(a[2147483647] = :v)"},
      {"Alpha_Numeric_123 = :Alpha_Numeric_123", "(Alpha_Numeric_123 = :Alpha_Numeric_123)"},
      {"#123 = :_", "(#123 = :_)"},
      {"#_ = :123a", "(#_ = :123a)"},
      // Parentheses that are not redundant (scylla test_condition_expression, nubo-db
      // conditionExpressionParens / filterExpressionParens, all run against DynamoDB).
      {"(a < b OR b < a) AND (b < c AND (a < b OR b < c))",
       "(((a < b) OR (b < a)) AND ((b < c) AND ((a < b) OR (b < c))))"},
      {"(attribute_not_exists(pk)) AND (attribute_not_exists(#s))",
       "(attribute_not_exists(pk) AND attribute_not_exists(#s))"},
      {"(attribute_not_exists(pk) AND attribute_not_exists(#s))",
       "(attribute_not_exists(pk) AND attribute_not_exists(#s))"},
      {"(attribute_not_exists(pk) AND (attribute_not_exists(#s)))",
       "(attribute_not_exists(pk) AND attribute_not_exists(#s))"},
      {"(#t = :a OR (#t = :b))", "((#t = :a) OR (#t = :b))"},
      {"((c=:c) AND (p=:p))", "((c = :c) AND (p = :p))"},
      {"(a) = :v", "(a = :v)"},
      {"a = (:v)", "(a = :v)"},
      {"((a) = b)", "(a = b)"},
      {"(size(a)) > :n", "(size(a) > :n)"},
      {"(a = :v)", "(a = :v)"},
      {"(a) IN ((b), :c)", "(a IN (b, :c))"},
      {"(a) BETWEEN (:x) AND (b)", "(a BETWEEN :x AND b)"},
      {"((a) = b) AND (c)  <  d", "((a = b) AND (c < d))"},
      // 32 levels of nesting are allowed (scylla test_projection_expression_path_nesting_levels).
      {"a" + Repeat(".b", 31) + " = :v", "(a" + Repeat(".b", 31) + " = :v)"},
      {"a" + Repeat("[0]", 31) + " = :v", "(a" + Repeat("[0]", 31) + " = :v)"},
  };
  for (const Valid& row : table) {
    SCOPED_TRACE(row.input);
    for (ExpressionKind kind :
         {ExpressionKind::kCondition, ExpressionKind::kFilter, ExpressionKind::kKeyCondition}) {
      Result<Condition> parsed = ParseCondition(row.input, kind);
      ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
      EXPECT_EQ(Show(*parsed), row.tree);
    }
  }
}

TEST(ParseConditionTest, InvalidTable) {
  const std::vector<Invalid> table = {
      // Empty (scylla test_update_condition_empty; nubo-db query "empty KeyConditionExpression").
      {"", "The expression can not be empty;"},
      {"   ", Syntax("<EOF>", "   ")},
      // Syntax errors: the token where reading stopped, and the text from the token before it to
      // the token after it.
      {"foo", Syntax("<EOF>", "foo")},  // DynamoDB, recorded by a PynamoDB-era test
      {"a", Syntax("<EOF>", "a")},
      {"attribute_not_exists(", Syntax("<EOF>", "(")},          // nubo-db transactWrite error test
      {"contains (themes, :theme", Syntax("<EOF>", ":theme")},  // user report
      {"NOT (#attr0)", Syntax("<EOF>", ")")},                   // user report
      {"attribute_type()", Syntax(")", "()")},                  // emulator test of DynamoDB text
      {"a IN ()", Syntax(")", "()")},  // scylla: "IN with zero arguments results in a syntax error"
      {"a = :v AND", Syntax("<EOF>", "AND")},
      {"a = :v AND ", Syntax("<EOF>", "AND ")},
      {"a = :v OR", Syntax("<EOF>", "OR")},
      {"NOT", Syntax("<EOF>", "NOT")},
      {"a AND b = c", Syntax("AND", "a AND b")},
      {"(a AND b = c)", Syntax("AND", "a AND b")},
      {"a = b c", Syntax("c", "b c")},
      {"a = b = c", Syntax("=", "b = c")},
      {"a = :v)", Syntax(")", ":v)")},
      {"(a = :v", Syntax("<EOF>", ":v")},
      {"a < b)", Syntax(")", "b)")},
      {"a != b", Syntax("!", "a !=")},
      {"p=:p AND c!=:c", Syntax("!", "c!=")},
      {"a = :", Syntax(":", "= :")},
      {"a = \"x\"", Syntax("\"x\"", "= \"x\"")},
      {"a = 'x", Syntax("'", "= 'x")},
      {"_abc = :v", Syntax("_", "_abc")},
      {"set = :v", Syntax("set", "set =")},
      {"a.add = :v", Syntax("add", ".add =")},
      {"(a) AND b = c", Syntax("AND", ") AND b")},
      {"NOT a AND b = c", Syntax("AND", "a AND b")},
      {"a IN :v", Syntax(":v", "IN :v")},
      {"a BETWEEN :x OR :y", Syntax("OR", ":x OR :y")},
      {"a = b AND c)", Syntax(")", "c)")},
      {"a[:xyz] = :v", Syntax(":xyz", "[:xyz]")},  // scylla: an index placeholder is a syntax error
      {"a[#xyz] = :v", Syntax("#xyz", "[#xyz]")},
      {"a[01] = :v", Syntax("1", "01]")},
      {"a.1 = :v", Syntax("1", ".1 =")},
      {"a = size(a) + 1", Syntax("+", ") + 1")},
      {"((a)) x", Syntax("x", ") x")},  // the decision around ((a)) fails before it is reported
      {Repeat("(", 4096), Syntax("<EOF>", "(")},
      {"\xc3\xa9 = :v", Syntax("\xc3\xa9", "\xc3\xa9 =")},
      // Redundant parentheses (nubo-db putItem error test; scylla; conformance comments).
      {"((attribute_not_exists(pk)))", "The expression has redundant parentheses;"},
      {"((#pk = :pk)) AND ((#sk = :sk))", "The expression has redundant parentheses;"},
      {"((c=:c) AND ((p=:p)))", "The expression has redundant parentheses;"},
      {"((a = :v))", "The expression has redundant parentheses;"},
      {"((a)) = :v", "The expression has redundant parentheses;"},
      {"a = ((:v))", "The expression has redundant parentheses;"},
      {"size(((a))) = :v", "The expression has redundant parentheses;"},
      {"((a = :v)) AND", "The expression has redundant parentheses;"},  // reported while reading
      {Repeat("(", 2046) + "a<b" + Repeat(")", 2046),
       "The expression has redundant parentheses;"},  // scylla test_deeply_nested_expression_3
      // Functions (scylla test_update_condition_* comments record DynamoDB's messages).
      {"size(a)",
       "The function is not allowed to be used this way in an expression; function: size"},
      {"(size(a))",
       "The function is not allowed to be used this way in an expression; function: size"},
      {"attribute_exists(a) < :val",
       "The function is not allowed to be used this way in an expression; function: "
       "attribute_exists"},
      {"contains(attribute_exists(a), :v)",
       "The function is not allowed to be used this way in an expression; function: "
       "attribute_exists"},
      {"dog(a)=:arg", "Invalid function name; function: dog"},
      {"ATTRIBUTE_EXISTS(a)", "Invalid function name; function: ATTRIBUTE_EXISTS"},
      {"a < " + Repeat("f(", 1355) + "b" + Repeat(")", 1355),
       "Invalid function name; function: f"},  // scylla test_deeply_nested_expression_5
      {"if_not_exists(a, a)=:arg",
       "The function is not allowed in a condition expression; function: if_not_exists"},
      {"list_append(a, a)=:arg",
       "The function is not allowed in a condition expression; function: list_append"},
      {"size(a, a)=:arg",
       "Incorrect number of operands for operator or function; operator or function: size, "
       "number of operands: 2"},
      {"contains(a)",
       "Incorrect number of operands for operator or function; operator or function: contains, "
       "number of operands: 1"},
      {"begins_with(a, :b, :c)",
       "Incorrect number of operands for operator or function; operator or function: "
       "begins_with, number of operands: 3"},
      {"attribute_exists(a, b)",
       "Incorrect number of operands for operator or function; operator or function: "
       "attribute_exists, number of operands: 2"},
      {"attribute_exists (:val)",
       "Operator or function requires a document path; operator or function: attribute_exists"},
      {"attribute_not_exists(size(a))",
       "Operator or function requires a document path; operator or function: "
       "attribute_not_exists"},
      {"attribute_type (a, b)",
       "Incorrect operand type for operator or function; operator or function: attribute_type, "
       "operand type: {NS,SS,L,BS,N,M,B,BOOL,NULL,S}"},
      {"attribute_type(a, size(b))",
       "Incorrect operand type for operator or function; operator or function: attribute_type, "
       "operand type: N"},
      {"size(size(a)) = :v",
       "Incorrect operand type for operator or function; operator or function: size, operand "
       "type: N"},
      {"a < " + Repeat("size(", 680) + "b" + Repeat(")", 680),
       "Incorrect operand type for operator or function; operator or function: size, operand "
       "type: N"},
      {"begins_with(size(a), :v)",
       "Incorrect operand type for operator or function; operator or function: begins_with, "
       "operand type: N"},
      // Reserved words, as written.
      {"name = :v", "Attribute name is a reserved keyword; reserved keyword: name"},
      {"a.Name = :v", "Attribute name is a reserved keyword; reserved keyword: Name"},
      {"#a.b.status = :v", "Attribute name is a reserved keyword; reserved keyword: status"},
      {"a = :v OR size(COUNT) > :n",
       "Attribute name is a reserved keyword; reserved keyword: COUNT"},
      {"a[2147483648] = :v", "List index is not within the allowable range; index: [2147483648]"},
      {"a[99999999999999999999] = :v",
       "List index is not within the allowable range; index: [99999999999999999999]"},
      {"a.:v = :w", "Internal server error"},
      // Error precedence: syntax before the tree walk, the walk in text order, then validation.
      {"name = :v AND", Syntax("<EOF>", "AND")},
      {"dog(name) = :v", "Invalid function name; function: dog"},
      {"name = dog(a)", "Attribute name is a reserved keyword; reserved keyword: name"},
      {"size(a, b)",
       "The function is not allowed to be used this way in an expression; function: size"},
      {"size(a, b) > :n AND attribute_exists(:v)",
       "Incorrect number of operands for operator or function; operator or function: size, "
       "number of operands: 2"},
      {"attribute_exists(:v) AND size(a, b) > :n",
       "Operator or function requires a document path; operator or function: attribute_exists"},
      {"((a)) = :v AND name = :w", "The expression has redundant parentheses;"},
      {"a" + Repeat(".b", 32) + " = :v AND attribute_exists(:v)",
       "The document path has too many nesting levels; nesting levels: 33"},
      // Limits.
      {"a" + Repeat(".b", 32) + " = :v",
       "The document path has too many nesting levels; nesting levels: 33"},
      {"a" + Repeat("[1]", 32) + " = :v",
       "The document path has too many nesting levels; nesting levels: 33"},
  };
  for (const Invalid& row : table) {
    SCOPED_TRACE(row.input.substr(0, 200));
    Result<Condition> parsed = ParseCondition(row.input, ExpressionKind::kCondition);
    ASSERT_FALSE(parsed.ok()) << Show(*parsed);
    EXPECT_EQ(parsed.error().code(), Code::kValidation);
    EXPECT_EQ(parsed.error().message(), "Invalid ConditionExpression: " + row.message);
  }
}

TEST(ParseConditionTest, PrefixNamesTheParameter) {
  EXPECT_EQ(ParseCondition("", ExpressionKind::kKeyCondition).error().message(),
            "Invalid KeyConditionExpression: The expression can not be empty;");
  EXPECT_EQ(ParseCondition("a", ExpressionKind::kFilter).error().message(),
            "Invalid FilterExpression: Syntax error; token: \"<EOF>\", near: \"a\"");
  EXPECT_EQ(ParseCondition("a = :v", ExpressionKind::kUpdate).error().code(), Code::kInternal);
}

TEST(ParseConditionTest, ExpressionSizeBoundary) {
  // scylla test_limit_expression_len: 4096 accepted, 4097 rejected, spaces count.
  const std::string spaces4085(4085, ' ');
  const std::string ok = "a" + spaces4085 + " = :oldval";
  ASSERT_EQ(ok.size(), 4096u);
  EXPECT_TRUE(ParseCondition(ok, ExpressionKind::kCondition).ok());
  const std::string too_long = "a " + spaces4085 + " = :oldval";
  EXPECT_EQ(ParseCondition(too_long, ExpressionKind::kCondition).error().message(),
            "Invalid ConditionExpression: Expression size has exceeded the maximum allowed size; "
            "expression size: 4097");
  EXPECT_EQ(ParseCondition(too_long, ExpressionKind::kFilter).error().message(),
            "Invalid FilterExpression: Expression size has exceeded the maximum allowed size; "
            "expression size: 4097");
  // The size is checked before the syntax (scylla test_limit_expression_len_crash3).
  EXPECT_EQ(ParseCondition(Repeat("(", 15000), ExpressionKind::kCondition).error().message(),
            "Invalid ConditionExpression: Expression size has exceeded the maximum allowed size; "
            "expression size: 15000");
  // DynamoDB measures UTF-16 code units: 2048 two-byte characters are 2048 units, not 4096.
  const std::string accents = Repeat("\xc3\xa9", 4097);
  EXPECT_EQ(ParseCondition(accents, ExpressionKind::kCondition).error().message(),
            "Invalid ConditionExpression: Expression size has exceeded the maximum allowed size; "
            "expression size: 4097");
  const std::string four_byte = Repeat("\xf0\x9f\x98\x80", 2049);  // 4098 UTF-16 units
  EXPECT_EQ(ParseCondition(four_byte, ExpressionKind::kCondition).error().message(),
            "Invalid ConditionExpression: Expression size has exceeded the maximum allowed size; "
            "expression size: 4098");
}

TEST(ParseConditionTest, OperatorCountBoundary) {
  // scylla test_deeply_nested_expression_2: "a<b or (a<b or (...))" has 2 * depth + 1
  // operators; 299 are accepted. Parentheses are not operators.
  std::string ok = "a<b " + Repeat("or (a<b ", 149) + Repeat(")", 149);
  EXPECT_TRUE(ParseCondition(ok, ExpressionKind::kCondition).ok());
  // 300 operators: "a<b" and 149 "or a<b" make 299, one NOT makes 300.
  std::string exactly = "NOT a<b " + Repeat("or a<b ", 149);
  EXPECT_TRUE(ParseCondition(exactly, ExpressionKind::kCondition).ok());
  std::string over = "NOT NOT a<b " + Repeat("or a<b ", 149);
  EXPECT_EQ(ParseCondition(over, ExpressionKind::kCondition).error().message(),
            "Invalid ConditionExpression: The expression contains too many operators; operator "
            "count: 301");
  std::string deep = "a<b " + Repeat("or (a<b ", 454) + Repeat(")", 454);
  ASSERT_LT(deep.size(), 4096u);
  EXPECT_EQ(ParseCondition(deep, ExpressionKind::kCondition).error().message(),
            "Invalid ConditionExpression: The expression contains too many operators; operator "
            "count: 301");
  // scylla test_deeply_nested_expression_4: 1000 NOTs.
  EXPECT_EQ(
      ParseCondition(Repeat("not ", 1000) + "a<b", ExpressionKind::kCondition).error().message(),
      "Invalid ConditionExpression: The expression contains too many operators; operator "
      "count: 301");
  // Functions count: 150 size() comparisons are 300 operators, 151 are 302.
  std::string sizes = "size(a) < :n" + Repeat(" OR size(a) < :n", 74);  // 75 * 2 + 74 = 224
  EXPECT_TRUE(ParseCondition(sizes, ExpressionKind::kCondition).ok());
  std::string more_sizes = "size(a) < :n" + Repeat(" OR size(a) < :n", 100);  // 302
  EXPECT_EQ(ParseCondition(more_sizes, ExpressionKind::kCondition).error().message(),
            "Invalid ConditionExpression: The expression contains too many operators; operator "
            "count: 301");
}

TEST(ParseConditionTest, InOperandBoundary) {
  std::string list = ":v0";
  for (int i = 1; i < 100; ++i) list += ", :v" + std::to_string(i);
  Result<Condition> ok = ParseCondition("a IN (" + list + ")", ExpressionKind::kCondition);
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(ok->operands.size(), 101u);
  EXPECT_EQ(
      ParseCondition("a IN (" + list + ", :v100)", ExpressionKind::kCondition).error().message(),
      "Invalid ConditionExpression: The IN operator is provided with too many operands; "
      "number of operands: 101");
}

TEST(ParseConditionTest, PlaceholdersStayUnresolved) {
  Result<Condition> parsed = ParseCondition("#a.b[3].#c = :val", ExpressionKind::kCondition);
  ASSERT_TRUE(parsed.ok());
  const Path& path = parsed->operands[0].path;
  ASSERT_EQ(path.elements.size(), 4u);
  EXPECT_EQ(path.elements[0].name, "#a");
  EXPECT_EQ(path.elements[1].name, "b");
  EXPECT_EQ(path.elements[2].index, 3);
  EXPECT_EQ(path.elements[3].name, "#c");
  EXPECT_EQ(parsed->operands[1].kind, OperandKind::kValue);
  EXPECT_EQ(parsed->operands[1].placeholder, ":val");
  EXPECT_EQ(parsed->operands[1].value, nullptr);
  EXPECT_EQ(path.ToString(), "#a.b[3].#c");
  EXPECT_EQ(path.ToListString(), "[#a, b, [3], #c]");
}

// ---- KeyConditionExpression shape -------------------------------------------------------------

TEST(KeyConditionShapeTest, Table) {
  // Rows from dynalite's test/query.js, whose expected messages were taken from DynamoDB.
  const std::vector<Invalid> table = {
      {"p = :p", ""},
      {"p = :p AND c BETWEEN :a AND :b", ""},
      {"p = :p AND begins_with(c, :x)", ""},
      {":p = p AND :c < c", ""},
      {"(p = :p) AND (c > :c)", ""},
      {"a > b and size(b) > c or a > c", "Invalid operator used in KeyConditionExpression: OR"},
      {"a in (b, size(c), d)", "Invalid operator used in KeyConditionExpression: IN"},
      {"attribute_exists(a)", "Invalid operator used in KeyConditionExpression: attribute_exists"},
      {"attribute_not_exists(a)",
       "Invalid operator used in KeyConditionExpression: attribute_not_exists"},
      {"attribute_type(a, :a)", "Invalid operator used in KeyConditionExpression: attribute_type"},
      {"contains(a.d, b)", "Invalid operator used in KeyConditionExpression: contains"},
      {"not a > b", "Invalid operator used in KeyConditionExpression: NOT"},
      {"a <> b", "Invalid operator used in KeyConditionExpression: <>"},
      {":a between size(b) and size(a) and b > :b",
       "Invalid condition in KeyConditionExpression: BETWEEN operator must have the key "
       "attribute as its first operand"},
      {"begins_with(:a, b) and a > :b",
       "Invalid condition in KeyConditionExpression: begins_with operator must have the key "
       "attribute as its first operand"},
      {"size(b) > a AND a.b > b AND b > c",
       "KeyConditionExpressions cannot contain nested operations"},
      {"a > size(b.d)", "KeyConditionExpressions cannot contain nested operations"},
      {"a between size(b) and size(a)", "KeyConditionExpressions cannot contain nested operations"},
      {"b > a.b",
       "Invalid condition in KeyConditionExpression: Multiple attribute names used in one "
       "condition"},
      {"b between c[1] and d",
       "Invalid condition in KeyConditionExpression: Multiple attribute names used in one "
       "condition"},
      {"a between b and size(a)",
       "Invalid condition in KeyConditionExpression: Multiple attribute names used in one "
       "condition"},
      {"begins_with(a, b)",
       "Invalid condition in KeyConditionExpression: Multiple attribute names used in one "
       "condition"},
      {"b.d > a AND c.d > e.f",
       "KeyConditionExpressions cannot have conditions on nested attributes"},
      {"a.d > c", "KeyConditionExpressions cannot have conditions on nested attributes"},
      {"b[0] > a", "KeyConditionExpressions cannot have conditions on nested attributes"},
      {":b > :a AND a < :b",
       "Invalid condition in KeyConditionExpression: No key attribute specified"},
      {":a > b AND :a < :b",
       "Invalid condition in KeyConditionExpression: No key attribute specified"},
      {"b > :a AND b < :a and c = :a and d = :a",
       "KeyConditionExpressions must only contain one condition per key"},
      {"(a > :a and b > :a) and (b > :a and c > :a)",
       "KeyConditionExpressions must only contain one condition per key"},
      {"p=:p AND p=:p", "KeyConditionExpressions must only contain one condition per key"},
  };
  for (const Invalid& row : table) {
    SCOPED_TRACE(row.input);
    Result<Condition> parsed = ParseCondition(row.input, ExpressionKind::kKeyCondition);
    ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
    const Status shape = CheckKeyConditionShape(*parsed);
    if (row.message.empty()) {
      EXPECT_TRUE(shape.ok()) << shape.ToString();
    } else {
      EXPECT_EQ(shape.code(), Code::kValidation);
      EXPECT_EQ(shape.message(), row.message);
    }
  }
}

// ---- UpdateExpression ---------------------------------------------------------------------------

TEST(ParseUpdateTest, ValidTable) {
  const std::vector<Valid> table = {
      {"SET a = :v", "SET a = :v"},
      {"SET x = :val1, y = :val1", "SET x = :val1; SET y = :val1"},
      {"set b = :val1", "SET b = :val1"},
      {"sEt b = :val1", "SET b = :val1"},
      {"  set   b=:val1  ", "SET b = :val1"},
      {"REMOVE a SET b = :val2", "REMOVE a; SET b = :val2"},
      {"SET c = :val2 REMOVE b", "SET c = :val2; REMOVE b"},
      {"SET a = :v1, b = :v2 ADD c :n DELETE d :s REMOVE e, f",
       "SET a = :v1; SET b = :v2; ADD c :n; DELETE d :s; REMOVE e; REMOVE f"},
      {"SET b = :val1 + :val2", "SET b = (:val1 + :val2)"},
      {"SET b = :val1 - :val2", "SET b = (:val1 - :val2)"},
      {"SET a = a + :val1", "SET a = (a + :val1)"},
      {"SET #nn = :seven - #n", "SET #nn = (:seven - #n)"},
      {"SET a = list_append(:val1, :val2)", "SET a = list_append(:val1, :val2)"},
      {"SET #nnnn = list_append(:val1, #nnn)", "SET #nnnn = list_append(:val1, #nnn)"},
      {"SET a = if_not_exists(a, :val1)", "SET a = if_not_exists(a, :val1)"},
      {"SET b = if_not_exists(b, :val1)+:val2", "SET b = (if_not_exists(b, :val1) + :val2)"},
      {"SET b = :val2 - if_not_exists(b, :val1)", "SET b = (:val2 - if_not_exists(b, :val1))"},
      {"SET a = if_not_exists(b, if_not_exists(c, :val1))",
       "SET a = if_not_exists(b, if_not_exists(c, :val1))"},
      {"SET a = list_append(if_not_exists(a, :val1), :val2)",
       "SET a = list_append(if_not_exists(a, :val1), :val2)"},
      {"SET a.c[1].#name.y[1] = :val1", "SET a.c[1].#name.y[1] = :val1"},
      {"SET a.z = a.c[1].#name.y[1]", "SET a.z = a.c[1].#name.y[1]"},
      {"REMOVE a.c[1].x.y[1], a.c[1].q", "REMOVE a.c[1].x.y[1]; REMOVE a.c[1].q"},
      {"SET a[84] = :val1, a[37] = :val2", "SET a[84] = :val1; SET a[37] = :val2"},
      {"ADD a :val1", "ADD a :val1"},
      {"DELETE a :val1", "DELETE a :val1"},
      {"ADD a :v, b :w", "ADD a :v; ADD b :w"},
      {"SET #one = #two", "SET #one = #two"},
      {"SET a = b", "SET a = b"},
      {"SET a = (:v)", "SET a = :v"},
      {"SET a = (b + c)", "SET a = (b + c)"},
      {"SET a = (b) + (c)", "SET a = (b + c)"},
      {"SET a = ((b) + c)", "SET a = (b + c)"},
      {"SET a = (if_not_exists(a, :v)) + :w", "SET a = (if_not_exists(a, :v) + :w)"},
      {"SET a = :v REMOVE b ADD c :w DELETE d :x", "SET a = :v; REMOVE b; ADD c :w; DELETE d :x"},
      {"SET a" + Repeat(".b", 31) + " = :v", "SET a" + Repeat(".b", 31) + " = :v"},
  };
  for (const Valid& row : table) {
    SCOPED_TRACE(row.input);
    Result<UpdateExpression> parsed = ParseUpdate(row.input);
    ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
    EXPECT_EQ(Show(*parsed), row.tree);
  }
}

TEST(ParseUpdateTest, InvalidTable) {
  const std::vector<Invalid> table = {
      {"", "The expression can not be empty;"},
      {"SET", Syntax("<EOF>", "SET")},
      {"SET a = :v,", Syntax("<EOF>", ",")},  // moto's recording of DynamoDB
      {"SET a = ", Syntax("<EOF>", "= ")},
      {"HELLO b = :val1", Syntax("HELLO", "HELLO b")},
      {"SET _123 = :val1", Syntax("_", "SET _123")},  // scylla test_update_expression_name_token
      {"SET 123a = :val1", Syntax("123", "SET 123a")},
      {"SET hi-there = :val1", Syntax("-", "hi-there")},
      {"SET \"hithere\" = :val1", Syntax("\"hithere\"", "SET \"hithere\" =")},
      {"SET #hi-there = :val1", Syntax("-", "#hi-there")},
      {"SET # = :val1", Syntax("#", "SET # =")},
      {"SET a = :hi!there", Syntax("!", ":hi!there")},
      {"SET a = :", Syntax(":", "= :")},
      {"SET :a = :b", Syntax(":a", "SET :a =")},
      {"SET b = :val1 + :val2 + :val3", Syntax("+", ":val2 + :val3")},
      {"SET a = :v + :w - :x", Syntax("-", ":w - :x")},
      {"SET a = -:v", Syntax("-", "= -:v")},
      {"SET b = if_not_exists(non@sense, :val1)", Syntax("@", "non@sense")},
      {"SET c = if_not_exists(c, :val1+:val2)", Syntax("+", ":val1+:val2")},
      {"SET a = _f(b,c,d)", Syntax("_", "= _f")},
      {"SET a[:xyz] = :val1", Syntax(":xyz", "[:xyz]")},
      {"SET a[#xyz] = :val1", Syntax("#xyz", "[#xyz]")},
      {"ADD a b", Syntax("b", "a b")},
      {"DELETE a", Syntax("<EOF>", "a")},
      {"SET a", Syntax("<EOF>", "a")},
      {"SET a = :v REMOVE", Syntax("<EOF>", "REMOVE")},
      {"SET a = :v,, b = :w", Syntax(",", ",, b")},
      {"SET a = (b + c) + d", Syntax("+", ") + d")},
      {"SET a = b + (c + d)", Syntax("+", "c + d")},
      {"SET a = ((b)) c", Syntax("c", ") c")},
      {"REMOVE a = :v", Syntax("=", "a = :v")},
      // Sections (scylla test_update_expression_multi).
      {"SET a = :val1 SET b = :val2",
       "The \"SET\" section can only be used once in an update expression;"},
      {"SET a = :val1 REMOVE a SET b = :val2",
       "The \"SET\" section can only be used once in an update expression;"},
      {"REMOVE a remove b",
       "The \"REMOVE\" section can only be used once in an update expression;"},
      {"ADD a :v ADD b :w", "The \"ADD\" section can only be used once in an update expression;"},
      {"DELETE a :v DELETE b :w",
       "The \"DELETE\" section can only be used once in an update expression;"},
      // The walk checks the names inside the repeated section before leaving it.
      {"SET a = :v SET name = :w", "Attribute name is a reserved keyword; reserved keyword: name"},
      {"SET a = :v SET b = :w REMOVE name",
       "The \"SET\" section can only be used once in an update expression;"},
      // Functions (scylla comments record DynamoDB's texts).
      {"SET a = LIST_APPEND(:val1, :val2)", "Invalid function name; function: LIST_APPEND"},
      {"SET a = f(b,c,d)", "Invalid function name; function: f"},
      {"SET a = f123_hi(b,c,d)", "Invalid function name; function: f123_hi"},
      {"SET a = size(b)", "The function is not allowed in an update expression; function: size"},
      {"SET a = if_not_exists(b, size(c))",
       "The function is not allowed in an update expression; function: size"},
      {"SET a = attribute_exists(b)",
       "The function is not allowed in an update expression; function: attribute_exists"},
      {"SET a = list_append(list_append(:val1, :val2), :val3)",
       "The function is not allowed to be used this way in an expression; function: "
       "list_append"},
      {"SET a = :v + list_append(a, :b)",
       "The function is not allowed to be used this way in an expression; function: "
       "list_append"},
      {"SET a = list_append(a, :b) + :v",
       "The function is not allowed to be used this way in an expression; function: "
       "list_append"},
      {"SET a = if_not_exists(list_append(a, :b), :v)",
       "The function is not allowed to be used this way in an expression; function: "
       "list_append"},
      {"SET a = list_append(:val1)",
       "Incorrect number of operands for operator or function; operator or function: "
       "list_append, number of operands: 1"},
      {"SET a = list_append(:val1, :val2, :val3)",
       "Incorrect number of operands for operator or function; operator or function: "
       "list_append, number of operands: 3"},
      {"SET a = if_not_exists(a)",
       "Incorrect number of operands for operator or function; operator or function: "
       "if_not_exists, number of operands: 1"},
      {"SET b = if_not_exists(if_not_exists(a, :val2), :val1)",
       "Operator or function requires a document path; operator or function: if_not_exists"},
      {"SET b = if_not_exists(:val2, :val1)",
       "Operator or function requires a document path; operator or function: if_not_exists"},
      // Redundant parentheses.
      {"SET a = ((b))", "The expression has redundant parentheses;"},
      {"SET a = ((b + c))", "The expression has redundant parentheses;"},
      {"SET a = ((b)) + c", "The expression has redundant parentheses;"},
      {"SET a = b + ((c))", "The expression has redundant parentheses;"},
      {"SET a = if_not_exists(((b)), :v)", "The expression has redundant parentheses;"},
      // Names and indexes.
      {"SET name = :v", "Attribute name is a reserved keyword; reserved keyword: name"},
      {"SET a = :v REMOVE b.Value",
       "Attribute name is a reserved keyword; reserved keyword: Value"},
      {"SET a[2147483648] = :v",
       "List index is not within the allowable range; index: [2147483648]"},
      // Validation order: actions last to first, every path before any value.
      {"SET a = list_append(:v), b = if_not_exists(:w, :x)",
       "Operator or function requires a document path; operator or function: if_not_exists"},
      {"SET a = list_append(:v), b" + Repeat(".b", 32) + " = :w",
       "The document path has too many nesting levels; nesting levels: 33"},
      {"SET a = b" + Repeat(".b", 32),
       "The document path has too many nesting levels; nesting levels: 33"},
      {"REMOVE a" + Repeat("[0]", 32),
       "The document path has too many nesting levels; nesting levels: 33"},
  };
  for (const Invalid& row : table) {
    SCOPED_TRACE(row.input);
    Result<UpdateExpression> parsed = ParseUpdate(row.input);
    ASSERT_FALSE(parsed.ok()) << Show(*parsed);
    EXPECT_EQ(parsed.error().code(), Code::kValidation);
    EXPECT_EQ(parsed.error().message(), "Invalid UpdateExpression: " + row.message);
  }
}

TEST(ParseUpdateTest, ExpressionSizeBoundary) {
  // scylla test_limit_expression_len.
  const std::string spaces4085(4085, ' ');
  EXPECT_TRUE(ParseUpdate("SET" + spaces4085 + "a = :val").ok());
  EXPECT_EQ(ParseUpdate("SET " + spaces4085 + "a = :val").error().message(),
            "Invalid UpdateExpression: Expression size has exceeded the maximum allowed size;");
}

TEST(ParseUpdateTest, OperatorCountBoundary) {
  // Every +, - and function counts (the documentation's example: "SET a = :val1 + :val2 +
  // :val3" would have two).
  auto actions = [](int n) {
    std::string text = "SET a0=:v+:v";
    for (int i = 1; i < n; ++i) text += ",a" + std::to_string(i) + "=:v+:v";
    return text;
  };
  ASSERT_LT(actions(301).size(), 4096u);
  EXPECT_TRUE(ParseUpdate(actions(300)).ok());
  EXPECT_EQ(ParseUpdate(actions(301)).error().message(),
            "Invalid UpdateExpression: The expression contains too many operators; operator "
            "count: 301");
  // Functions are operators too: 120 nested if_not_exists and 180 additions make 300.
  auto mixed = [](int additions) {
    std::string text = "SET a = " + Repeat("if_not_exists(a,", 120) + ":v" + Repeat(")", 120);
    for (int i = 0; i < additions; ++i) text += ",x" + std::to_string(i) + "=a+b";
    return text;
  };
  ASSERT_LT(mixed(181).size(), 4096u);
  EXPECT_TRUE(ParseUpdate(mixed(180)).ok());
  EXPECT_EQ(ParseUpdate(mixed(181)).error().message(),
            "Invalid UpdateExpression: The expression contains too many operators; operator "
            "count: 301");
}

TEST(ParseUpdateTest, ActionsKeepTheirOrderAndOperands) {
  Result<UpdateExpression> parsed = ParseUpdate("REMOVE x SET a = :v ADD n :one DELETE s :two");
  ASSERT_TRUE(parsed.ok());
  ASSERT_EQ(parsed->actions.size(), 4u);
  EXPECT_EQ(parsed->actions[0].kind, UpdateActionKind::kRemove);
  EXPECT_EQ(parsed->actions[1].kind, UpdateActionKind::kSet);
  EXPECT_EQ(parsed->actions[2].kind, UpdateActionKind::kAdd);
  EXPECT_EQ(parsed->actions[2].operand.kind, OperandKind::kValue);
  EXPECT_EQ(parsed->actions[2].operand.placeholder, ":one");
  EXPECT_EQ(parsed->actions[3].kind, UpdateActionKind::kDelete);
  EXPECT_EQ(parsed->actions[3].operand.placeholder, ":two");
}

// ---- ProjectionExpression -----------------------------------------------------------------------

TEST(ParseProjectionTest, ValidTable) {
  const std::vector<Valid> table = {
      {"a", "a"},
      {"a, b", "a, b"},
      {" a , b ", "a, b"},
      {"a.b[1].#c, d", "a.b[1].#c, d"},
      {"#a.#b", "#a.#b"},
      {"#l[2], #l[0]", "#l[2], #l[0]"},
      {"a, a", "a, a"},  // duplicates are a resolve-time error
      {std::string(4096, 'x'), std::string(4096, 'x')},
      {"a" + Repeat(".b", 31), "a" + Repeat(".b", 31)},
  };
  for (const Valid& row : table) {
    SCOPED_TRACE(row.input.substr(0, 100));
    Result<ProjectionExpression> parsed = ParseProjection(row.input);
    ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
    EXPECT_EQ(Show(*parsed), row.tree);
  }
}

TEST(ParseProjectionTest, InvalidTable) {
  const std::vector<Invalid> table = {
      {"", "The expression can not be empty;"},
      {std::string(4097, 'x'), "Expression size has exceeded the maximum allowed size;"},
      {"a b", Syntax("b", "a b")},
      {"a,", Syntax("<EOF>", ",")},
      {"!!!", Syntax("!", "!!")},
      {",a", Syntax(",", ",a")},
      {"l[a]", Syntax("a", "[a]")},
      {"a[]", Syntax("]", "[]")},
      {"size(a)", Syntax("(", "size(a")},
      {"(a)", Syntax("(", "(a")},
      {"a = b", Syntax("=", "a = b")},
      {"name", "Attribute name is a reserved keyword; reserved keyword: name"},
      {"a, b.Name", "Attribute name is a reserved keyword; reserved keyword: Name"},
      {"a[4294967296]", "List index is not within the allowable range; index: [4294967296]"},
      // scylla test_projection_expression_path_nesting_levels records this message.
      {"a" + Repeat(".b", 32), "The document path has too many nesting levels; nesting levels: 33"},
      {"a.:v", "Internal server error"},
  };
  for (const Invalid& row : table) {
    SCOPED_TRACE(row.input.substr(0, 100));
    Result<ProjectionExpression> parsed = ParseProjection(row.input);
    ASSERT_FALSE(parsed.ok()) << Show(*parsed);
    EXPECT_EQ(parsed.error().code(), Code::kValidation);
    EXPECT_EQ(parsed.error().message(), "Invalid ProjectionExpression: " + row.message);
  }
}

// ---- Adversarial shapes stay within bounds
// --------------------------------------------------------

TEST(ParserRobustnessTest, DeepInputsWithinTheSizeLimit) {
  const std::vector<std::string> inputs = {
      Repeat("(", 4096),
      Repeat("(", 2000) + "a",
      Repeat("NOT ", 1023) + "a",
      Repeat("NOT(", 818) + "a<b" + Repeat(")", 818),
      Repeat("(NOT ", 682) + "a<b" + Repeat(")", 682),
      "a < " + Repeat("f(", 1364) + "b",
      "a < " + Repeat("size(", 818),
      Repeat("a.", 2048),
      Repeat("a[0]", 1024),
      "a IN (" + Repeat(":v,", 1363),
      Repeat("a=b AND ", 512),
  };
  for (const std::string& input : inputs) {
    SCOPED_TRACE(input.substr(0, 40));
    ASSERT_LE(input.size(), 4096u);
    EXPECT_FALSE(ParseCondition(input, ExpressionKind::kCondition).ok());
    EXPECT_FALSE(ParseUpdate("SET x = " + input.substr(0, 4000)).ok());
    EXPECT_FALSE(ParseProjection(input).ok());
  }
}

}  // namespace
}  // namespace partstore::expr
