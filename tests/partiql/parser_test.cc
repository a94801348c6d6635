// The PartiQL parser: what each statement form parses to, DynamoDB's refusals, and the limits.
#include "core/partiql/parser.h"

#include <gtest/gtest.h>

#include <string>

namespace partstore::partiql {
namespace {

Statement MustParse(const std::string& text) {
  Result<Statement> parsed = ParseStatement(text);
  EXPECT_TRUE(parsed.ok()) << text << ": " << parsed.status().ToString();
  return parsed.ok() ? *parsed : Statement{};
}

std::string ParseError(const std::string& text) {
  Result<Statement> parsed = ParseStatement(text);
  if (parsed.ok()) return "OK";
  EXPECT_EQ(parsed.error().code(), Code::kValidation) << text;
  return std::string(parsed.error().message());
}

TEST(PartiqlParserTest, SelectStarFromTable) {
  Statement s = MustParse(R"(SELECT * FROM "Music")");
  const auto& select = std::get<SelectStatement>(s.body);
  EXPECT_EQ(select.from.table, "Music");
  EXPECT_FALSE(select.from.index);
  EXPECT_TRUE(select.projection.empty());
  EXPECT_FALSE(select.where);
}

TEST(PartiqlParserTest, SelectPathsFromIndexWithWhereAndOrder) {
  Statement s = MustParse(
      R"(select a, b.c, d[0], "e f" from Music."GSI1" where pk = ? and sk >= 3 order by sk desc;)");
  const auto& select = std::get<SelectStatement>(s.body);
  EXPECT_EQ(select.from.table, "Music");
  EXPECT_EQ(select.from.index, "GSI1");
  ASSERT_EQ(select.projection.size(), 4u);
  EXPECT_EQ(select.projection[1].elements[1].name, "c");
  EXPECT_EQ(select.projection[2].elements[1].index, 0);
  EXPECT_EQ(select.projection[3].elements[0].name, "e f");
  ASSERT_TRUE(select.where);
  EXPECT_EQ(select.where->kind, Expr::Kind::kAnd);
  ASSERT_TRUE(select.order_by);
  EXPECT_EQ(select.order_by->attribute, "sk");
  EXPECT_FALSE(select.order_by->ascending);
  EXPECT_EQ(s.parameter_count, 1);
}

TEST(PartiqlParserTest, ConditionForms) {
  Statement s = MustParse(
      "SELECT * FROM T1 WHERE NOT (a <> 1 OR b != 2) AND c BETWEEN 1 AND 5 AND d IN [1, 2] AND e "
      "NOT IN ('x') AND f IS MISSING AND g IS NOT NULL AND begins_with(h, 'x') AND size(i) > 2 "
      "AND j IS STRING AND k NOT BETWEEN 1 AND 2");
  EXPECT_EQ(std::get<SelectStatement>(s.body).where->kind, Expr::Kind::kAnd);
}

TEST(PartiqlParserTest, InsertLiterals) {
  Statement s = MustParse(
      "INSERT INTO \"Music\" VALUE {'pk': 'it''s', 'n': -1.5e3, 's': <<'x','y'>>, 'l': [1, 'b', "
      "?], 'm': {'k': true}, 'z': null, 'f': false}");
  const auto& insert = std::get<InsertStatement>(s.body);
  EXPECT_EQ(insert.table, "Music");
  ASSERT_EQ(insert.item.kind, Literal::Kind::kMap);
  ASSERT_EQ(insert.item.members.size(), 7u);
  EXPECT_EQ(insert.item.members[0].second.value, Value("it's"));
  EXPECT_EQ(insert.item.members[1].second.value, Value(Number::Parse("-1500").value()));
  EXPECT_EQ(insert.item.members[2].second.kind, Literal::Kind::kSet);
  EXPECT_EQ(insert.item.members[3].second.elements[2].kind, Literal::Kind::kParameter);
  EXPECT_EQ(insert.item.members[5].second.value, Value::Nil());
  EXPECT_EQ(s.parameter_count, 1);
}

TEST(PartiqlParserTest, UpdateActionsAndReturning) {
  Statement s = MustParse(
      "UPDATE Music SET a = 1, b.c = 'x' SET n = n + 1 REMOVE d, e[1] SET s = set_add(s, <<'a'>>) "
      "WHERE pk = 'a' AND sk = 1 RETURNING MODIFIED NEW *");
  const auto& update = std::get<UpdateStatement>(s.body);
  ASSERT_EQ(update.actions.size(), 6u);
  EXPECT_EQ(update.actions[2].value.kind, Expr::Kind::kArith);
  EXPECT_EQ(update.actions[3].kind, UpdateAction::Kind::kRemove);
  EXPECT_EQ(update.actions[5].value.op, "set_add");
  EXPECT_EQ(update.returning, Returning::kModifiedNew);
}

TEST(PartiqlParserTest, DeleteAndExists) {
  Statement d = MustParse("DELETE FROM Music WHERE pk = 'a' RETURNING ALL OLD *");
  EXPECT_EQ(std::get<DeleteStatement>(d.body).returning, Returning::kAllOld);
  Statement e = MustParse("EXISTS(SELECT * FROM Music WHERE pk = 'a' AND n > 1)");
  EXPECT_EQ(std::get<ExistsStatement>(e.body).select.from.table, "Music");
}

TEST(PartiqlParserTest, Refusals) {
  const std::string prefix = "Statement wasn't well formed, can't be processed: ";
  EXPECT_EQ(ParseError("CREATE TABLE x"), prefix + "Expected data manipulation");
  EXPECT_EQ(ParseError(""), prefix + "Expected data manipulation");
  EXPECT_EQ(ParseError("SELECT * FROM"), prefix + "Unexpected end of statement");
  EXPECT_EQ(ParseError("SELECT * FROM T1 WHERE"), prefix + "Unexpected end of statement");
  EXPECT_EQ(ParseError("SELECT * FROM T1 WHERE a = 'x"), prefix + "Unterminated string literal");
  EXPECT_EQ(ParseError("SELECT * FROM T1 WHERE a = 1 a"), prefix + "Unexpected identifier");
  EXPECT_EQ(ParseError("SELECT * FROM SELECT"), prefix + "Unexpected keyword");
  EXPECT_EQ(ParseError("SELECT * FROM T1 WHERE a = #"), prefix + "Unexpected character");
  EXPECT_EQ(ParseError("INSERT INTO T1 VALUE {'a': <<>>}"), "Empty bags are not supported");
  EXPECT_EQ(ParseError("INSERT INTO T1 VALUE {'a': 1} RETURNING ALL OLD *"),
            "RETURNING is not supported in INSERT");
  EXPECT_EQ(ParseError("DELETE FROM T1 WHERE a = 1 RETURNING ALL NEW *"),
            "Invalid returning clause: RETURNING ALL NEW *. Only RETURNING ALL OLD * is allowed in "
            "DELETE statements.");
  EXPECT_EQ(ParseError("UPDATE T1 SET a = 1"),
            "Where clause does not contain a mandatory equality on all key attributes");
  EXPECT_EQ(ParseError("SELECT * FROM T1 WHERE a = MISSING"),
            "MISSING must be compared using IS operator");
  EXPECT_EQ(ParseError("INSERT INTO T1 VALUE [1]"),
            "Unsupported format in item expression. Please use struct format {...} to express "
            "item values for insert statement.");
  EXPECT_EQ(ParseError("INSERT INTO T1 VALUE {'a': 1, 'a': 2}"), "Duplicate keys in tuple. Key: a");
  EXPECT_EQ(ParseError("SELECT * FROM T1 WHERE a = 1e999"),
            ParseError("SELECT * FROM T1 WHERE a = 1e999"));  // the Number's own refusal
}

TEST(PartiqlParserTest, NestingIsLimited) {
  std::string deep = "SELECT * FROM T1 WHERE ";
  for (int i = 0; i < 10000; ++i) deep += "(";
  EXPECT_EQ(ParseError(deep),
            "Statement wasn't well formed, can't be processed: Statement is nested too deeply");
  std::string literal = "INSERT INTO T1 VALUE {'a': ";
  for (int i = 0; i < 10000; ++i) literal += "[";
  EXPECT_NE(ParseError(literal), "OK");
  std::string nots = "SELECT * FROM T1 WHERE ";
  for (int i = 0; i < 10000; ++i) nots += "NOT ";
  EXPECT_NE(ParseError(nots + "a = 1"), "OK");
  // Within the limit, nesting parses.
  std::string ok = "SELECT * FROM T1 WHERE ";
  for (int i = 0; i < 20; ++i) ok += "(";
  ok += "a = 1";
  for (int i = 0; i < 20; ++i) ok += ")";
  MustParse(ok);
}

TEST(PartiqlParserTest, CommentsAndCase) {
  MustParse("-- a comment\nselect /* inline */ * from \"T1\"");
  MustParse("SeLeCt * FrOm T1 WhErE a = TRUE");
}

}  // namespace
}  // namespace partstore::partiql
