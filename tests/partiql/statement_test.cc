// ExecuteStatement, statement by statement: a table of statements, their parameters and the items
// they return (or DynamoDB's error), over one "Music" table; then paging, capacity, RETURNING,
// INSERT's DuplicateItemException and UPDATE's existence rule.
#include <gtest/gtest.h>

#include "tests/partiql/partiql_testutil.h"

namespace partstore {
namespace {

using testing::Exec;
using testing::J;
using testing::JV;
using testing::Show;

class StatementTest : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::CreateMusic(db_);
    for (
        const char* json : {
            R"({"Artist":{"S":"Acme"},"SongTitle":{"S":"A1"},"AlbumTitle":{"S":"X"},"Year":{"N":"2001"},"Tags":{"SS":["rock","pop"]}})",
            R"({"Artist":{"S":"Acme"},"SongTitle":{"S":"B2"},"AlbumTitle":{"S":"X"},"Year":{"N":"2003"},"Info":{"M":{"len":{"N":"3"}}}})",
            R"({"Artist":{"S":"Acme"},"SongTitle":{"S":"C3"},"AlbumTitle":{"S":"Y"},"Year":{"N":"2005"},"Gone":{"NULL":true}})",
            R"({"Artist":{"S":"Zed"},"SongTitle":{"S":"Z1"},"AlbumTitle":{"S":"Y"},"Year":{"N":"1999"},"List":{"L":[{"N":"1"},{"S":"b"}]}})",
        }) {
      ASSERT_TRUE(db_.PutItem({.table_name = "Music", .item = J(json)}).ok());
    }
  }
  // The SongTitles a statement returns, in order.
  std::string Titles(const std::string& statement, std::vector<Value> parameters = {}) {
    auto result = Exec(db_, statement, std::move(parameters));
    if (!result.ok()) return result.status().ToString();
    std::string out;
    for (const Item& item : result->items) {
      auto it = item.find("SongTitle");
      out +=
          (out.empty() ? "" : ",") + (it == item.end() ? std::string("?") : it->second.as_string());
    }
    return out;
  }
  Database db_;
};

// (A Scan returns items in the table's stable hash order: "Zed" before "Acme" here.)
struct Case {
  const char* statement;
  std::vector<Value> parameters;
  const char* expected;  // SongTitles, or the Status's ToString()
};

TEST_F(StatementTest, SelectTable) {
  const Case cases[] = {
      {R"(SELECT * FROM "Music" WHERE Artist = 'Acme')", {}, "A1,B2,C3"},
      {R"(SELECT * FROM "Music" WHERE Artist = ?)", {Value("Zed")}, "Z1"},
      {R"(SELECT * FROM "Music" WHERE 'Acme' = Artist AND SongTitle = 'B2')", {}, "B2"},
      {R"(SELECT * FROM "Music" WHERE Artist = 'Acme' AND SongTitle > 'A1')", {}, "B2,C3"},
      {R"(SELECT * FROM "Music" WHERE Artist = 'Acme' AND 'B2' >= SongTitle)", {}, "A1,B2"},
      {R"(SELECT * FROM "Music" WHERE Artist = 'Acme' AND SongTitle BETWEEN 'B' AND 'D')",
       {},
       "B2,C3"},
      {R"(SELECT * FROM "Music" WHERE Artist = 'Acme' AND begins_with(SongTitle, 'C'))", {}, "C3"},
      {R"(SELECT * FROM "Music" WHERE Artist = 'Acme' AND Year >= 2003)", {}, "B2,C3"},
      {R"(SELECT * FROM "Music" WHERE Artist = 'Acme' ORDER BY SongTitle DESC)", {}, "C3,B2,A1"},
      {R"(SELECT * FROM "Music" WHERE Artist IN ['Zed', 'Acme'] AND Year < 2002)", {}, "Z1,A1"},
      {R"(SELECT * FROM "Music" WHERE Artist IN ['Zed', 'Acme'] ORDER BY Artist)",
       {},
       "A1,B2,C3,Z1"},
      {R"(SELECT * FROM "Music" WHERE Artist IN ['Acme', 'Zed'] ORDER BY Artist DESC)",
       {},
       "Z1,A1,B2,C3"},
      {R"(SELECT * FROM "Music" WHERE Artist IN ['Zed', 'Acme'] ORDER BY SongTitle)",
       {},
       "Validation: Must have hash key in ORDER BY clause when more than one hash key condition "
       "specified in WHERE clause."},
      {R"(SELECT * FROM "Music"."Nope" WHERE Artist = 'Acme')",
       {},
       "Validation: The table does not have the specified index: Nope"},
      {R"(SELECT * FROM "Music" WHERE Artist = 'Acme' AND SongTitle >= 'B2' AND SongTitle <> 'C3')",
       {},
       "B2"},  // a second sort-key condition: read by a Scan
      {R"(SELECT * FROM "Music" WHERE Year > 2000 AND Year < 2004)", {}, "A1,B2"},
      {R"(SELECT * FROM "Music" WHERE Year = 1999 OR SongTitle = 'C3')", {}, "Z1,C3"},
      {R"(SELECT * FROM "Music" WHERE NOT (Artist = 'Acme'))", {}, "Z1"},
      {R"(SELECT * FROM "Music" WHERE Info IS MISSING AND Artist = 'Acme')", {}, "A1,C3"},
      {R"(SELECT * FROM "Music" WHERE Info IS NOT MISSING)", {}, "B2"},
      {R"(SELECT * FROM "Music" WHERE Gone IS NULL)", {}, "C3"},
      {R"(SELECT * FROM "Music" WHERE Info IS STRUCT)", {}, "B2"},
      {R"(SELECT * FROM "Music" WHERE contains(Tags, 'pop'))", {}, "A1"},
      {R"(SELECT * FROM "Music" WHERE attribute_type(List, 'L'))", {}, "Z1"},
      {R"(SELECT * FROM "Music" WHERE size(List) = 2)", {}, "Z1"},
      {R"(SELECT * FROM "Music" WHERE Info.len = 3)", {}, "B2"},
      {R"(SELECT * FROM "Music" WHERE List[1] = 'b')", {}, "Z1"},
      {R"(SELECT * FROM "Music" WHERE Year IN (1999, 2005))", {}, "Z1,C3"},
      {R"(SELECT * FROM "Music" WHERE Year NOT BETWEEN 2000 AND 2004)", {}, "Z1,C3"},
      {R"(SELECT * FROM "Music"."ByAlbum" WHERE AlbumTitle = 'Y')", {}, "C3,Z1"},
      {R"(SELECT * FROM "Music"."ByAlbum" WHERE AlbumTitle = 'X' ORDER BY SongTitle DESC)",
       {},
       "B2,A1"},
      {R"(SELECT * FROM "Music" WHERE Artist = ? AND SongTitle = ?)",
       {Value("Acme"), Value("A1")},
       "A1"},
      // Errors.
      {R"(SELECT * FROM "Nope" WHERE Artist = 'a')",
       {},
       "ResourceNotFound: Requested resource not found"},
      {R"(SELECT * FROM "Music" WHERE Artist = ?)",
       {},
       "Validation: Number of parameters in request and statement don't match."},
      {R"(SELECT * FROM "Music" WHERE Artist = 'a')",
       {Value("x")},
       "Validation: Number of parameters in request and statement don't match."},
      {R"(SELECT * FROM "Music" ORDER BY SongTitle)",
       {},
       "Validation: Must have WHERE clause in the statement when using ORDER BY clause."},
      {R"(SELECT * FROM "Music" WHERE Year = 1 ORDER BY SongTitle)",
       {},
       "Validation: Must have at least one non-optional hash key condition in WHERE clause when "
       "using ORDER BY clause."},
      {R"(SELECT * FROM "Music" WHERE Artist = 'Acme' ORDER BY Year)",
       {},
       "Validation: Variable reference Year in ORDER BY clause must be part of the primary key"},
      {R"(SELECT * FROM "Music" WHERE nosuch(Year))",
       {},
       "Validation: Unrecognized function: nosuch"},
      {R"(SELECT * FROM "Music" WHERE Year)",
       {},
       "Validation: WHERE clause must contain an expression that resolves to a boolean"},
      {R"(SELEC * FROM "Music")",
       {},
       "Validation: Statement wasn't well formed, can't be processed: Expected data manipulation"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(Titles(c.statement, c.parameters), c.expected) << c.statement;
  }
}

TEST_F(StatementTest, Projection) {
  auto r = Exec(
      db_,
      R"(SELECT SongTitle, Info.len, List[0] FROM "Music" WHERE Artist IN ['Acme', 'Zed'] AND Year > 2002)");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->items.size(), 2u) << Show(r->items);
  // A nested path's value is keyed by its last element, as DynamoDB answers (not nested as a
  // ProjectionExpression's would be).
  EXPECT_EQ(r->items[0], J(R"({"SongTitle":{"S":"B2"},"len":{"N":"3"}})"));
  EXPECT_EQ(r->items[1], J(R"({"SongTitle":{"S":"C3"}})"));
}

TEST_F(StatementTest, PagesWithLimitAndNextToken) {
  for (const char* statement :
       {R"(SELECT * FROM "Music" WHERE Artist = 'Acme')", R"(SELECT * FROM "Music")",
        R"(SELECT * FROM "Music" WHERE Artist IN ['Acme', 'Zed'])"}) {
    std::vector<std::string> seen;
    ExecuteStatementRequest request{.statement = statement, .limit = 1};
    int pages = 0;
    while (true) {
      auto page = db_.ExecuteStatement(request);
      ASSERT_TRUE(page.ok()) << page.status().ToString();
      for (const Item& item : page->items) seen.push_back(item.at("SongTitle").as_string());
      ASSERT_LE(page->items.size(), 1u);
      if (!page->next_token) break;
      EXPECT_EQ(page->last_evaluated_key.has_value(),
                page->last_evaluated_key.has_value());  // optional with a key
      request.next_token = page->next_token;
      ASSERT_LT(++pages, 10);
    }
    std::sort(seen.begin(), seen.end());
    const size_t expected = std::string(statement).find("IN") != std::string::npos ||
                                    std::string(statement).find("WHERE") == std::string::npos
                                ? 4u
                                : 3u;
    EXPECT_EQ(seen.size(), expected) << statement;
  }
  // A token of another statement, or garbage.
  auto first = db_.ExecuteStatement(
      {.statement = R"(SELECT * FROM "Music" WHERE Artist = 'Acme')", .limit = 1});
  ASSERT_TRUE(first.ok() && first->next_token);
  auto other = db_.ExecuteStatement(
      {.statement = R"(SELECT * FROM "Music")", .next_token = first->next_token});
  EXPECT_EQ(other.status().ToString(), "Validation: NextToken does not match request");
  auto garbage =
      db_.ExecuteStatement({.statement = R"(SELECT * FROM "Music")", .next_token = "zz"});
  EXPECT_EQ(garbage.status().ToString(), "Validation: Invalid NextToken");
}

TEST_F(StatementTest, InsertAndDuplicate) {
  auto inserted =
      Exec(db_,
           "INSERT INTO \"Music\" VALUE {'Artist': 'New', 'SongTitle': ?, 'n': 1, "
           "'s': <<'x','y'>>, 'ns': <<1, 2>>, 'l': [1, 'b'], 'm': {'k': true}, 'z': null}",
           {Value("S1")});
  ASSERT_TRUE(inserted.ok()) << inserted.status().ToString();
  EXPECT_TRUE(inserted->items.empty());
  auto got = db_.GetItem(
      {.table_name = "Music", .key = J(R"({"Artist":{"S":"New"},"SongTitle":{"S":"S1"}})")});
  ASSERT_TRUE(got.ok() && got->item);
  EXPECT_EQ(
      *got->item,
      J(R"({"Artist":{"S":"New"},"SongTitle":{"S":"S1"},"n":{"N":"1"},"s":{"SS":["x","y"]},"ns":{"NS":["1","2"]},"l":{"L":[{"N":"1"},{"S":"b"}]},"m":{"M":{"k":{"BOOL":true}}},"z":{"NULL":true}})"));
  auto again = Exec(db_, "INSERT INTO \"Music\" VALUE {'Artist': 'New', 'SongTitle': 'S1'}");
  EXPECT_EQ(again.status().code(), Code::kDuplicateItem);
  EXPECT_EQ(again.status().message(), "Duplicate primary key exists in table");
  // A parameter may be the whole item.
  auto whole = Exec(db_, "INSERT INTO Music VALUE ?",
                    {JV(R"({"M":{"Artist":{"S":"P"},"SongTitle":{"S":"Q"}}})")});
  EXPECT_TRUE(whole.ok()) << whole.status().ToString();
  EXPECT_EQ(Exec(db_, "INSERT INTO Music VALUE {'Artist': 'P'}").status().ToString(),
            "Validation: Key attribute should be present in the item: Key SongTitle");
  EXPECT_EQ(Exec(db_, "INSERT INTO Music VALUE {'Artist': 'P', 'SongTitle': 'R', 's': <<1, 'a'>>}")
                .status()
                .ToString(),
            "Validation: Unsupported data type in Bag. DynamoDB only supports either numbers or "
            "strings in bags");
}

TEST_F(StatementTest, UpdateForms) {
  auto r = Exec(db_,
                "UPDATE Music SET Year = Year + 1, Info.len = 'x', NewList = list_append([0], [1]) "
                "SET Tags = set_add(Tags, <<'jazz'>>) REMOVE AlbumTitle "
                "WHERE Artist = 'Acme' AND SongTitle = 'A1' RETURNING ALL NEW *");
  ASSERT_FALSE(r.ok());  // Info does not exist on A1: the engine's own path error
  EXPECT_EQ(r.status().code(), Code::kValidation);
  r = Exec(db_,
           "UPDATE Music SET Year = Year + 1, NewList = list_append([0], [1]) "
           "SET Tags = set_add(Tags, <<'jazz'>>) REMOVE AlbumTitle "
           "WHERE Artist = 'Acme' AND SongTitle = 'A1' RETURNING ALL NEW *");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->items.size(), 1u);
  EXPECT_EQ(
      r->items[0],
      J(R"({"Artist":{"S":"Acme"},"SongTitle":{"S":"A1"},"Year":{"N":"2002"},"Tags":{"SS":["jazz","pop","rock"]},"NewList":{"L":[{"N":"0"},{"N":"1"}]}})"));
  r = Exec(db_,
           "UPDATE Music SET Tags = set_delete(Tags, <<'pop'>>) WHERE Artist = 'Acme' AND "
           "SongTitle = 'A1' RETURNING MODIFIED OLD *");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->items[0], J(R"({"Tags":{"SS":["jazz","pop","rock"]}})"));
  // No RETURNING: no items.
  r = Exec(db_, "UPDATE Music SET x = ? WHERE Artist = 'Acme' AND SongTitle = 'A1'", {Value(1)});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->items.empty());
}

TEST_F(StatementTest, UpdateRules) {
  const Case cases[] = {
      {"UPDATE Music SET x = 1 WHERE Artist = 'Acme'",
       {},
       "Validation: Where clause does not contain a mandatory equality on all key attributes"},
      {"UPDATE Music SET x = 1 WHERE Artist = 'Acme' OR SongTitle = 'A1'",
       {},
       "Validation: Where clause does not contain a mandatory equality on all key attributes"},
      {"UPDATE Music SET x = 1 WHERE Artist = 'Nobody' AND SongTitle = 'A1'",
       {},
       "ConditionalCheckFailed: The conditional request failed"},
      {"UPDATE Music SET x = 1 WHERE Artist = 'Acme' AND SongTitle = 'A1' AND Year = 1",
       {},
       "ConditionalCheckFailed: The conditional request failed"},
      {"UPDATE Music SET x = 1 WHERE Artist = 'Acme' AND SongTitle = 'A1' AND Year = 2001", {}, ""},
      {"UPDATE Music SET Tags = set_add(Other, <<'a'>>) WHERE Artist = 'Acme' AND SongTitle = 'A1'",
       {},
       "Validation: The first argument to SET_ADD must equal the assignment value"},
      {"UPDATE Music SET Tags = set_add(Tags, 'a') WHERE Artist = 'Acme' AND SongTitle = 'A1'",
       {},
       "Validation: The second argument to SET_ADD must be a value with type SET"},
      {"UPDATE Music SET Tags = set_delete(Tags, ?) WHERE Artist = 'Acme' AND SongTitle = 'A1'",
       {Value(1)},
       "Validation: The second argument to SET_DELETE must be a value with type SET"},
      {"UPDATE \"Nope\" SET x = 1 WHERE Artist = 'Acme' AND SongTitle = 'A1'",
       {},
       "ResourceNotFound: Requested resource not found"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(Titles(c.statement, c.parameters), c.expected) << c.statement;
  }
}

TEST_F(StatementTest, UpdateConditionFailureReturnsOldItem) {
  ExecuteStatementRequest request{
      .statement = "UPDATE Music SET x = 1 WHERE Artist = 'Zed' AND SongTitle = 'Z1' AND Year = 0",
      .return_values_on_condition_check_failure = ReturnValuesOnConditionCheckFailure::kAllOld};
  auto r = db_.ExecuteStatement(request);
  ASSERT_EQ(r.status().code(), Code::kConditionalCheckFailed);
  ASSERT_NE(r.status().detail(), nullptr);
  ASSERT_TRUE(r.status().detail()->item);
  EXPECT_EQ(r.status().detail()->item->at("Year"), Value(1999));
}

TEST_F(StatementTest, Delete) {
  EXPECT_EQ(Titles("DELETE FROM Music WHERE Artist = 'Acme'"),
            "Validation: Where clause does not contain a mandatory equality on all key attributes");
  // A missing item: nothing to delete, no error.
  EXPECT_EQ(Titles("DELETE FROM Music WHERE Artist = 'Nobody' AND SongTitle = 'x'"), "");
  EXPECT_EQ(Titles("DELETE FROM Music WHERE Artist = 'Acme' AND SongTitle = 'A1' AND Year = 5"),
            "ConditionalCheckFailed: The conditional request failed");
  EXPECT_EQ(
      Titles("DELETE FROM Music WHERE Artist = 'Acme' AND SongTitle = 'A1' RETURNING ALL OLD *"),
      "A1");
  EXPECT_EQ(Titles(R"(SELECT * FROM "Music" WHERE Artist = 'Acme')"), "B2,C3");
}

TEST_F(StatementTest, ExistsOnlyInTransactions) {
  EXPECT_EQ(Titles("EXISTS(SELECT * FROM Music WHERE Artist = 'Acme' AND SongTitle = 'A1')"),
            "Validation: EXISTS can only be used in ExecuteTransaction write requests.");
}

TEST_F(StatementTest, ModelConstraints) {
  auto r = db_.ExecuteStatement({.statement = ""});
  EXPECT_EQ(r.status().ToString(),
            "Validation: 1 validation error detected: Value '' at 'statement' failed to satisfy "
            "constraint: Member must have length greater than or equal to 1");
  r = db_.ExecuteStatement(
      {.statement = std::string(8193, ' '), .parameters = std::vector<Value>{}, .limit = 0});
  ASSERT_EQ(r.status().code(), Code::kValidation);
  EXPECT_EQ(r.status().message().substr(0, 36), "3 validation errors detected: Value ");
  EXPECT_NE(r.status().message().find("at 'limit' failed to satisfy constraint: Member must have "
                                      "value greater than or equal to 1"),
            std::string_view::npos);
}

TEST_F(StatementTest, LongConditionsAreRefusedNotCrashed) {
  // 8192 characters of AND chain: more than an expression's 4 KB once compiled.
  std::string statement = R"(SELECT * FROM "Music" WHERE Artist = 'Acme')";
  while (statement.size() + 12 < kMaxStatementLength) statement += " AND Year<>1";
  auto r = Exec(db_, statement);
  EXPECT_EQ(r.status().code(), Code::kValidation);
  // Within the limits, a long chain runs.
  statement = R"(SELECT * FROM "Music" WHERE Artist = 'Acme')";
  for (int i = 0; i < 20; ++i) statement += " AND Year <> " + std::to_string(i);
  r = Exec(db_, statement);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->items.size(), 3u);
}

TEST_F(StatementTest, ConsumedCapacity) {
  ExecuteStatementRequest request{.statement = R"(SELECT * FROM "Music" WHERE Artist = 'Acme')",
                                  .return_consumed_capacity = ReturnConsumedCapacity::kTotal};
  auto r = db_.ExecuteStatement(request);
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(r->consumed_capacity);
  EXPECT_EQ(r->consumed_capacity->table_name, "Music");
  EXPECT_GT(r->consumed_capacity->total_half_units, 0);
  request.statement = "INSERT INTO Music VALUE {'Artist': 'C', 'SongTitle': 'D'}";
  r = db_.ExecuteStatement(request);
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(r->consumed_capacity);
  EXPECT_EQ(r->consumed_capacity->CapacityUnits(), 1.0);
}

}  // namespace
}  // namespace partstore
