// The seeds' access patterns (/work/shared/seeds: the single-table e-commerce model with its GSI,
// the adjacency-list social graph with its inverted index, invoices and their lines) written as
// PartiQL return exactly the items of their Query / GetItem forms.
#include <gtest/gtest.h>

#include "tests/partiql/partiql_testutil.h"

namespace partstore {
namespace {

using testing::Show;

class SeedPatternsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    KeySchema key;
    key.partition = KeyAttribute{"PK", KeyType::kString};
    key.sort = KeyAttribute{"SK", KeyType::kString};
    CreateTableRequest request = SimpleTable("EcommerceData", key);
    request.attribute_definitions.push_back({"GSI1PK", KeyType::kString});
    request.attribute_definitions.push_back({"GSI1SK", KeyType::kString});
    GlobalSecondaryIndex gsi1;
    gsi1.index_name = "GSI1";
    gsi1.key_schema = {{"GSI1PK", KeyRoleName::kHash}, {"GSI1SK", KeyRoleName::kRange}};
    gsi1.projection.projection_type = ProjectionType::kAll;
    request.global_secondary_indexes.push_back(gsi1);
    // The adjacency list's inverted index: SK as the partition key, PK as the sort key.
    GlobalSecondaryIndex inverted;
    inverted.index_name = "Inverted";
    inverted.key_schema = {{"SK", KeyRoleName::kHash}, {"PK", KeyRoleName::kRange}};
    inverted.projection.projection_type = ProjectionType::kAll;
    request.global_secondary_indexes.push_back(inverted);
    ASSERT_TRUE(db_.CreateTable(request).ok());

    auto put = [&](Item item) {
      ASSERT_TRUE(db_.PutItem({.table_name = "EcommerceData", .item = std::move(item)}).ok());
    };
    for (int u = 1; u <= 3; ++u) {
      const std::string user = "USER#" + std::to_string(u);
      put({{"PK", user}, {"SK", user}, {"name", "User " + std::to_string(u)}});
      for (int o = 1; o <= 4; ++o) {
        const std::string order = "ORDER#2024-0" + std::to_string(o) + "#" + std::to_string(u);
        const std::string status = o % 2 ? "SHIPPED" : "PLACED";
        put({{"PK", user},
             {"SK", order},
             {"total", o * 10 + u},
             {"GSI1PK", "STATUS#" + status},
             {"GSI1SK", order}});
      }
      for (int f = 1; f <= 3; ++f) {
        if (f == u) continue;
        put({{"PK", user}, {"SK", "FRIEND#USER#" + std::to_string(f)}, {"since", 2020 + f}});
      }
    }
    for (int i = 1; i <= 2; ++i) {
      const std::string invoice = "INVOICE#" + std::to_string(i);
      put({{"PK", invoice}, {"SK", invoice}, {"customer", "USER#1"}});
      for (int l = 1; l <= 3; ++l) {
        put({{"PK", invoice}, {"SK", "LINE#" + std::to_string(l)}, {"qty", l}});
      }
    }
  }

  std::vector<Item> Select(const std::string& statement, std::vector<Value> parameters = {}) {
    ExecuteStatementRequest request{.statement = statement};
    if (!parameters.empty()) request.parameters = std::move(parameters);
    std::vector<Item> items;
    while (true) {
      auto page = db_.ExecuteStatement(request);
      EXPECT_TRUE(page.ok()) << statement << ": " << page.status().ToString();
      if (!page.ok()) return items;
      for (Item& item : page->items) items.push_back(std::move(item));
      if (!page->next_token) return items;
      request.next_token = page->next_token;
    }
  }
  std::vector<Item> Query(QueryRequest request) {
    request.table_name = "EcommerceData";
    std::vector<Item> items;
    for (const StoredItem& item : db_.QueryAll(request)) items.push_back(item.ToItem());
    return items;
  }
  Database db_;
};

TEST_F(SeedPatternsTest, UserProfileIsGetItem) {
  auto got =
      db_.GetItem({.table_name = "EcommerceData", .key = Item{{"PK", "USER#2"}, {"SK", "USER#2"}}});
  ASSERT_TRUE(got.ok() && got->item);
  const std::vector<Item> selected =
      Select(R"(SELECT * FROM "EcommerceData" WHERE PK = ? AND SK = ?)",
             {Value("USER#2"), Value("USER#2")});
  ASSERT_EQ(selected.size(), 1u);
  EXPECT_EQ(selected[0], *got->item);
}

TEST_F(SeedPatternsTest, OrdersOfAUserNewestFirst) {
  const auto expected = Query({.key_condition_expression = "PK = :pk AND begins_with(SK, :o)",
                               .expression_attribute_values =
                                   AttributeMap{{":pk", Value("USER#1")}, {":o", Value("ORDER#")}},
                               .scan_index_forward = false});
  ASSERT_EQ(expected.size(), 4u);
  const auto selected = Select(
      R"(SELECT * FROM "EcommerceData" WHERE PK = 'USER#1' AND begins_with(SK, 'ORDER#') ORDER BY SK DESC)");
  EXPECT_EQ(selected, expected) << Show(selected);
}

TEST_F(SeedPatternsTest, OrdersByStatusOnTheGsi) {
  const auto expected =
      Query({.index_name = "GSI1",
             .key_condition_expression = "GSI1PK = :s AND GSI1SK BETWEEN :a AND :b",
             .expression_attribute_values = AttributeMap{{":s", Value("STATUS#SHIPPED")},
                                                         {":a", Value("ORDER#2024-01")},
                                                         {":b", Value("ORDER#2024-02")}}});
  ASSERT_EQ(expected.size(), 3u);
  const auto selected = Select(
      R"(SELECT * FROM "EcommerceData"."GSI1" WHERE GSI1PK = ? AND GSI1SK BETWEEN 'ORDER#2024-01' AND 'ORDER#2024-02')",
      {Value("STATUS#SHIPPED")});
  EXPECT_EQ(selected, expected) << Show(selected);
}

TEST_F(SeedPatternsTest, FriendsBothDirections) {
  const auto outgoing = Query({.key_condition_expression = "PK = :u AND begins_with(SK, :f)",
                               .expression_attribute_values = AttributeMap{
                                   {":u", Value("USER#1")}, {":f", Value("FRIEND#")}}});
  EXPECT_EQ(
      Select(R"(SELECT * FROM EcommerceData WHERE PK = 'USER#1' AND begins_with(SK, 'FRIEND#'))"),
      outgoing);
  const auto incoming =
      Query({.index_name = "Inverted",
             .key_condition_expression = "SK = :f",
             .expression_attribute_values = AttributeMap{{":f", Value("FRIEND#USER#1")}}});
  ASSERT_EQ(incoming.size(), 2u);
  EXPECT_EQ(Select(R"(SELECT * FROM EcommerceData.Inverted WHERE SK = 'FRIEND#USER#1')"), incoming);
}

TEST_F(SeedPatternsTest, InvoiceWithItsLinesAndAFilter) {
  const auto expected = Query(
      {.key_condition_expression = "PK = :i",
       .filter_expression = "attribute_not_exists(qty) OR qty >= :q",
       .expression_attribute_values = AttributeMap{{":i", Value("INVOICE#2")}, {":q", Value(2)}}});
  ASSERT_EQ(expected.size(), 3u);
  EXPECT_EQ(
      Select(
          R"(SELECT * FROM EcommerceData WHERE PK = 'INVOICE#2' AND (qty IS MISSING OR qty >= 2))"),
      expected);
}

TEST_F(SeedPatternsTest, ProjectionMatchesProjectionExpression) {
  const auto expected = Query({.key_condition_expression = "PK = :u AND SK > :s",
                               .projection_expression = "SK, #t",
                               .expression_attribute_names = expr::NameMap{{"#t", "total"}},
                               .expression_attribute_values = AttributeMap{
                                   {":u", Value("USER#3")}, {":s", Value("ORDER#2024-02")}}});
  EXPECT_EQ(
      Select(
          R"(SELECT SK, "total" FROM EcommerceData WHERE PK = 'USER#3' AND SK > 'ORDER#2024-02')"),
      expected);
}

TEST_F(SeedPatternsTest, ScanWithFilterMatchesScan) {
  ScanRequest scan{.table_name = "EcommerceData",
                   .filter_expression = "begins_with(PK, :i)",
                   .expression_attribute_values = AttributeMap{{":i", Value("INVOICE#")}}};
  std::vector<Item> expected;
  for (const StoredItem& item : db_.ScanAll(scan)) expected.push_back(item.ToItem());
  ASSERT_EQ(expected.size(), 8u);
  EXPECT_EQ(Select(R"(SELECT * FROM EcommerceData WHERE begins_with(PK, 'INVOICE#'))"), expected);
}

}  // namespace
}  // namespace partstore
