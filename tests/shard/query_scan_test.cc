// Query and Scan: key conditions in both directions, paging (Limit, 1 MB, ExclusiveStartKey),
// Select, filters, segments and consumed capacity.
#include <gtest/gtest.h>

#include <set>

#include "tests/shard/database_testutil.h"

namespace partstore {
namespace {

using testing::ErrorText;
using testing::MustPut;
using testing::N;

class QueryScanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::MustCreate(db_, "Items", testing::NumberSortKeys());
    // Partition "p": n = -5, -1.5, 0, 1, 2, ..., 10 (13 items); partition "q": 3 items.
    for (const char* n : {"-5", "-1.5", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"}) {
      MustPut(db_, "Items", {{"PK", "p"}, {"n", N(n)}, {"odd", std::string(n).size() % 2 == 1}});
    }
    for (int n : {1, 2, 3}) MustPut(db_, "Items", {{"PK", "q"}, {"n", n}});
  }

  QueryRequest Q(std::string condition, AttributeMap values) {
    QueryRequest request;
    request.table_name = "Items";
    request.key_condition_expression = std::move(condition);
    request.expression_attribute_values = std::move(values);
    return request;
  }

  static std::vector<std::string> Ns(const ReadPageResult& page) {
    std::vector<std::string> out;
    for (const Item& item : page.items) out.push_back(item.at("n").as_number().ToString());
    return out;
  }

  Database db_;
};

TEST_F(QueryScanTest, SortKeyConditionsBothDirections) {
  struct Case {
    std::string condition;
    AttributeMap values;
    std::vector<std::string> forward;
  };
  const std::vector<Case> cases = {
      {"PK = :p",
       {{":p", "p"}},
       {"-5", "-1.5", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"}},
      {"PK = :p AND n = :v", {{":p", "p"}, {":v", N("1.0")}}, {"1"}},
      {"PK = :p AND n < :v", {{":p", "p"}, {":v", 0}}, {"-5", "-1.5"}},
      {"PK = :p AND n <= :v", {{":p", "p"}, {":v", 0}}, {"-5", "-1.5", "0"}},
      {"PK = :p AND n > :v", {{":p", "p"}, {":v", 8}}, {"9", "10"}},
      {"PK = :p AND :v <= n", {{":p", "p"}, {":v", 8}}, {"8", "9", "10"}},
      {"n BETWEEN :a AND :b AND PK = :p",
       {{":p", "p"}, {":a", N("-1.5")}, {":b", 1}},
       {"-1.5", "0", "1"}},
      {"PK = :p AND n > :v", {{":p", "p"}, {":v", 100}}, {}},
      {"PK = :p", {{":p", "nobody"}}, {}},
  };
  for (const Case& c : cases) {
    QueryRequest request = Q(c.condition, c.values);
    auto forward = db_.Query(request);
    ASSERT_TRUE(forward.ok()) << c.condition << ": " << forward.status().ToString();
    EXPECT_EQ(Ns(*forward), c.forward) << c.condition;
    EXPECT_EQ(forward->count, static_cast<int32_t>(c.forward.size()));
    EXPECT_FALSE(forward->last_evaluated_key);
    request.scan_index_forward = false;
    auto backward = db_.Query(request);
    ASSERT_TRUE(backward.ok());
    std::vector<std::string> reversed(c.forward.rbegin(), c.forward.rend());
    EXPECT_EQ(Ns(*backward), reversed) << c.condition << " backward";
  }
}

TEST_F(QueryScanTest, BeginsWithOnStringSortKeys) {
  testing::MustCreate(db_, "Str", testing::StringKeys());
  for (const char* sk : {"ORDER#1", "ORDER#2", "ORDER#20", "ORDERS", "ORDER", "PROFILE", "ORD"}) {
    MustPut(db_, "Str", {{"PK", "u"}, {"SK", sk}});
  }
  QueryRequest request;
  request.table_name = "Str";
  request.key_condition_expression = "PK = :u AND begins_with(SK, :o)";
  request.expression_attribute_values = AttributeMap{{":u", "u"}, {":o", "ORDER#"}};
  auto forward = db_.Query(request);
  ASSERT_TRUE(forward.ok()) << forward.status().ToString();
  std::vector<std::string> sks;
  for (const Item& item : forward->items) sks.push_back(item.at("SK").as_string());
  EXPECT_EQ(sks, (std::vector<std::string>{"ORDER#1", "ORDER#2", "ORDER#20"}));
  request.scan_index_forward = false;
  request.limit = 2;
  auto backward = db_.Query(request);
  ASSERT_TRUE(backward.ok());
  ASSERT_EQ(backward->items.size(), 2u);
  EXPECT_EQ(backward->items[0].at("SK"), Value("ORDER#20"));
  EXPECT_EQ(backward->items[1].at("SK"), Value("ORDER#2"));
  ASSERT_TRUE(backward->last_evaluated_key);
  request.exclusive_start_key = backward->last_evaluated_key;
  auto rest = db_.Query(request);
  ASSERT_TRUE(rest.ok()) << rest.status().ToString();
  ASSERT_EQ(rest->items.size(), 1u);
  EXPECT_EQ(rest->items[0].at("SK"), Value("ORDER#1"));
}

TEST_F(QueryScanTest, BeginsWithBackwardOnBinaryKeysEndingIn0xFF) {
  KeySchema schema = testing::StringKeys();
  schema.sort->type = KeyType::kBinary;
  testing::MustCreate(db_, "Bin", schema);
  for (std::string sk : {std::string("\x01"), std::string("\x01\xff"),
                         std::string("\x01\xff\x00", 3), std::string("\x01\xff\xff"),
                         std::string("\x02"), std::string("\xff"), std::string("\xff\xff")}) {
    MustPut(db_, "Bin", {{"PK", "p"}, {"SK", Value::Binary(sk)}});
  }
  auto backward = [&](std::string prefix) {
    QueryRequest request;
    request.table_name = "Bin";
    request.key_condition_expression = "PK = :p AND begins_with(SK, :b)";
    request.expression_attribute_values = AttributeMap{{":p", "p"}, {":b", Value::Binary(prefix)}};
    request.scan_index_forward = false;
    auto result = db_.Query(request);
    EXPECT_TRUE(result.ok()) << result.status().ToString();
    std::vector<std::string> out;
    for (const Item& item : result->items) out.push_back(item.at("SK").as_binary());
    return out;
  };
  EXPECT_EQ(backward("\x01\xff"),
            (std::vector<std::string>{"\x01\xff\xff", std::string("\x01\xff\x00", 3), "\x01\xff"}));
  EXPECT_EQ(backward("\xff"), (std::vector<std::string>{"\xff\xff", "\xff"}));
  EXPECT_EQ(backward("\x01"),
            (std::vector<std::string>{"\x01\xff\xff", std::string("\x01\xff\x00", 3), "\x01\xff",
                                      "\x01"}));
}

TEST_F(QueryScanTest, LimitPagingAndFilters) {
  QueryRequest request = Q("PK = :p AND n >= :z", {{":p", "p"}, {":z", 0}, {":t", true}});
  request.filter_expression = "odd = :t";
  request.limit = 4;
  std::vector<std::string> seen;
  int pages = 0;
  for (;; ++pages) {
    auto page = db_.Query(request);
    ASSERT_TRUE(page.ok()) << page.status().ToString();
    EXPECT_LE(page->scanned_count, 4);
    auto ns = Ns(*page);
    seen.insert(seen.end(), ns.begin(), ns.end());
    if (!page->last_evaluated_key) break;
    EXPECT_EQ(page->last_evaluated_key->size(), 2u);
    request.exclusive_start_key = page->last_evaluated_key;
  }
  // 0..10 = 11 items read: pages of 4, 4, 3 — the filter keeps one-digit values.
  EXPECT_EQ(pages, 2);
  EXPECT_EQ(seen, (std::vector<std::string>{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}));

  // Limit equal to what is left still returns a LastEvaluatedKey.
  QueryRequest exact = Q("PK = :q", {{":q", "q"}});
  exact.limit = 3;
  auto page = db_.Query(exact);
  ASSERT_TRUE(page.ok());
  EXPECT_TRUE(page->last_evaluated_key);
  exact.exclusive_start_key = page->last_evaluated_key;
  auto empty = db_.Query(exact);
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->count, 0);
  EXPECT_FALSE(empty->last_evaluated_key);
}

TEST_F(QueryScanTest, SelectCountAndProjection) {
  QueryRequest request = Q("PK = :p", {{":p", "p"}});
  request.select = Select::kCount;
  auto counted = db_.Query(request);
  ASSERT_TRUE(counted.ok());
  EXPECT_EQ(counted->count, 13);
  EXPECT_TRUE(counted->items.empty());
  EXPECT_TRUE(counted->items_omitted);

  request.projection_expression = "n";
  EXPECT_EQ(ErrorText(db_.Query(request)),
            "Cannot specify the ProjectionExpression when choosing to get only the Count");
  request.select = Select::kAllProjectedAttributes;
  request.projection_expression.reset();
  EXPECT_EQ(ErrorText(db_.Query(request)),
            "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName");
  request.select = Select::kSpecificAttributes;
  EXPECT_EQ(ErrorText(db_.Query(request)),
            "Must specify the AttributesToGet or ProjectionExpression when choosing to get "
            "SPECIFIC_ATTRIBUTES");
  request.projection_expression = "odd";
  auto projected = db_.Query(request);
  ASSERT_TRUE(projected.ok());
  EXPECT_EQ(projected->items.front(), (Item{{"odd", false}}));
}

TEST_F(QueryScanTest, QueryValidation) {
  QueryRequest request = Q("PK = :p", {{":p", "p"}});
  request.filter_expression = "n > :z";
  request.expression_attribute_values->emplace(":z", 1);
  EXPECT_EQ(ErrorText(db_.Query(request)),
            "Filter Expression can only contain non-primary key attributes: Primary key attribute: "
            "n");
  request.filter_expression.reset();
  request.expression_attribute_values->erase(":z");
  request.limit = 0;
  EXPECT_EQ(ErrorText(db_.Query(request)),
            "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: "
            "Member must have value greater than or equal to 1");
  request.limit.reset();
  request.index_name = "GSI1";
  EXPECT_EQ(ErrorText(db_.Query(request)), "The table does not have the specified index: GSI1");
  request.index_name.reset();

  QueryRequest missing;
  missing.table_name = "Items";
  EXPECT_EQ(ErrorText(db_.Query(missing)),
            "Either the KeyConditions or KeyConditionExpression parameter must be specified in the "
            "request.");
  QueryRequest no_pk = Q("n = :v", {{":v", 1}});
  EXPECT_EQ(ErrorText(db_.Query(no_pk)), "Query condition missed key schema element: PK");

  QueryRequest start = Q("PK = :p AND n > :v", {{":p", "p"}, {":v", 5}});
  start.exclusive_start_key = Item{{"PK", "q"}, {"n", 1}};
  EXPECT_EQ(ErrorText(db_.Query(start)),
            "The provided starting key is outside query boundaries based on provided conditions");
  start.exclusive_start_key = Item{{"PK", "p"}, {"n", 1}};
  EXPECT_EQ(ErrorText(db_.Query(start)),
            "The provided starting key does not match the range key predicate");
  start.exclusive_start_key = Item{{"PK", "p"}};
  EXPECT_EQ(ErrorText(db_.Query(start)), "The provided starting key is invalid");
  start.exclusive_start_key = Item{{"PK", "p"}, {"n", "7"}};
  EXPECT_EQ(ErrorText(db_.Query(start)), "The provided key element does not match the schema");
  start.exclusive_start_key = Item{{"PK", "p"}, {"n", 7}, {"x", 1}};
  EXPECT_EQ(ErrorText(db_.Query(start)), "The provided starting key is invalid");
  start.exclusive_start_key = Item{{"n", 7}, {"x", 1}};
  EXPECT_EQ(ErrorText(db_.Query(start)), "The provided starting key is invalid");
  // The start key's size and partition key are checked before the key condition, its sort key
  // after (dynalite test/query.js, recorded against DynamoDB).
  QueryRequest no_key = Q("x = :v", {{":v", 1}});
  no_key.exclusive_start_key = Item{{"PK", 1}, {"z", "a"}};
  EXPECT_EQ(ErrorText(db_.Query(no_key)), "The provided key element does not match the schema");
  no_key.exclusive_start_key = Item{{"PK", "a"}, {"z", "a"}};
  EXPECT_EQ(ErrorText(db_.Query(no_key)), "Query condition missed key schema element: PK");
  no_key.exclusive_start_key = Item{{"PK", "a"}, {"n", "1"}};
  EXPECT_EQ(ErrorText(db_.Query(no_key)), "Query condition missed key schema element: PK");
  no_key.exclusive_start_key = Item{{"n", "a"}, {"z", "a"}};
  EXPECT_EQ(ErrorText(db_.Query(no_key)), "The provided starting key is invalid");
  start.exclusive_start_key = Item{{"PK", ""}, {"n", 7}};
  EXPECT_EQ(ErrorText(db_.Query(start)),
            "The provided starting key is invalid: One or more parameter values are not valid. The "
            "AttributeValue for a key attribute cannot contain an empty string value. Key: PK");
  start.exclusive_start_key = Item{{"PK", "p"}, {"n", 7}};
  auto after = db_.Query(start);
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(Ns(*after), (std::vector<std::string>{"8", "9", "10"}));

  // Legacy KeyConditions.
  QueryRequest legacy;
  legacy.table_name = "Items";
  legacy.key_conditions =
      std::vector<expr::AttributeCondition>{{.name = "PK",
                                             .comparison_operator = expr::ComparisonOperator::kEq,
                                             .attribute_value_list = {Value("q")}},
                                            {.name = "n",
                                             .comparison_operator = expr::ComparisonOperator::kGt,
                                             .attribute_value_list = {Value(1)}}};
  auto legacy_result = db_.Query(legacy);
  ASSERT_TRUE(legacy_result.ok()) << legacy_result.status().ToString();
  EXPECT_EQ(Ns(*legacy_result), (std::vector<std::string>{"2", "3"}));
}

TEST_F(QueryScanTest, OneMegabytePages) {
  testing::MustCreate(db_, "Big", testing::NumberSortKeys());
  // 30 items of ~100 KB: 1 MB = 10.x items, so a page holds 11 (the one that reaches 1 MB counts).
  const std::string blob(100 * 1024, 'x');
  for (int n = 0; n < 30; ++n) MustPut(db_, "Big", {{"PK", "p"}, {"n", n}, {"blob", blob}});
  QueryRequest request;
  request.table_name = "Big";
  request.key_condition_expression = "PK = :p";
  request.expression_attribute_values = AttributeMap{{":p", "p"}};
  request.select = Select::kCount;
  std::vector<int32_t> sizes;
  for (;;) {
    auto page = db_.Query(request);
    ASSERT_TRUE(page.ok());
    sizes.push_back(page->scanned_count);
    if (!page->last_evaluated_key) break;
    request.exclusive_start_key = page->last_evaluated_key;
  }
  EXPECT_EQ(sizes, (std::vector<int32_t>{11, 11, 8}));

  ScanRequest scan;
  scan.table_name = "Big";
  scan.select = Select::kCount;
  auto first = db_.Scan(scan);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->scanned_count, 11);
  EXPECT_TRUE(first->last_evaluated_key);
}

TEST_F(QueryScanTest, ScanVisitsEveryItemOnceAcrossSegmentsAndPages) {
  for (int i = 0; i < 300; ++i)
    MustPut(db_, "Items", {{"PK", "k" + std::to_string(i)}, {"n", i % 7}});
  const int total = 300 + 16;
  for (int segments : {1, 2, 3, 7}) {
    std::multiset<std::string> seen;
    std::vector<std::string> order;
    for (int s = 0; s < segments; ++s) {
      ScanRequest request;
      request.table_name = "Items";
      if (segments > 1) {
        request.segment = s;
        request.total_segments = segments;
      }
      request.limit = 17;
      for (;;) {
        auto page = db_.Scan(request);
        ASSERT_TRUE(page.ok()) << page.status().ToString();
        for (const Item& item : page->items) {
          std::string id = item.at("PK").as_string() + "/" + item.at("n").as_number().ToString();
          seen.insert(id);
          order.push_back(id);
        }
        if (!page->last_evaluated_key) break;
        request.exclusive_start_key = page->last_evaluated_key;
      }
    }
    EXPECT_EQ(seen.size(), static_cast<size_t>(total)) << segments << " segments";
    EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()).size(), seen.size())
        << "an item was returned twice with " << segments << " segments";
    if (segments == 1) {
      ScanRequest all;
      all.table_name = "Items";
      auto once = db_.Scan(all);
      ASSERT_TRUE(once.ok());
      std::vector<std::string> unpaged;
      for (const Item& item : once->items) {
        unpaged.push_back(item.at("PK").as_string() + "/" + item.at("n").as_number().ToString());
      }
      EXPECT_EQ(order, unpaged) << "paging changes nothing in the order";
    }
  }
}

TEST_F(QueryScanTest, ScanValidation) {
  ScanRequest request;
  request.table_name = "Items";
  request.segment = 1;
  EXPECT_EQ(ErrorText(db_.Scan(request)),
            "The TotalSegments parameter is required but was not present in the request when "
            "Segment parameter is present");
  request.segment.reset();
  request.total_segments = 5;
  EXPECT_EQ(ErrorText(db_.Scan(request)),
            "The Segment parameter is required but was not present in the request when parameter "
            "TotalSegments is present");
  request.segment = 5;
  EXPECT_EQ(ErrorText(db_.Scan(request)),
            "The Segment parameter is zero-based and must be less than parameter TotalSegments: "
            "Segment: 5 is not less than TotalSegments: 5");
  request.segment = -1;
  request.total_segments = 1000001;
  EXPECT_EQ(ErrorText(db_.Scan(request)),
            "2 validation errors detected: Value '-1' at 'segment' failed to satisfy constraint: "
            "Member must have value greater than or equal to 0; Value '1000001' at 'totalSegments' "
            "failed to satisfy constraint: Member must have value less than or equal to 1000000");
  ScanRequest bad_start;
  bad_start.table_name = "Items";
  bad_start.exclusive_start_key = Item{{"PK", "p"}, {"n", "1"}};
  EXPECT_EQ(ErrorText(db_.Scan(bad_start)),
            "The provided starting key is invalid: The provided key element does not match the "
            "schema");
  // A start key of another segment (dynalite test/scan.js, recorded against DynamoDB): every
  // key belongs to exactly one of 4 segments and is refused by the other 3.
  int refused = 0;
  for (int p = 0; p < 8; ++p) {
    for (int segment = 0; segment < 4; ++segment) {
      ScanRequest segmented;
      segmented.table_name = "Items";
      segmented.segment = segment;
      segmented.total_segments = 4;
      segmented.exclusive_start_key = Item{{"PK", "p" + std::to_string(p)}, {"n", 1}};
      auto page = db_.Scan(segmented);
      if (page.ok()) continue;
      ++refused;
      EXPECT_EQ(page.error().message(),
                "The provided starting key is invalid: Invalid ExclusiveStartKey. Please use "
                "ExclusiveStartKey with correct Segment. TotalSegments: 4 Segment: " +
                    std::to_string(segment));
    }
  }
  EXPECT_EQ(refused, 8 * 3);
}

TEST_F(QueryScanTest, ReadCapacity) {
  testing::MustCreate(db_, "Cap", testing::NumberSortKeys());
  // 10 items of 4,180 bytes (PK 2+1, n 1+2, blob 4+4170) = 41,800 B -> 11 x 4 KB.
  for (int n = 10; n < 20; ++n) {
    MustPut(db_, "Cap", {{"PK", "p"}, {"n", n}, {"blob", std::string(4170, 'x')}});
  }
  QueryRequest query;
  query.table_name = "Cap";
  query.key_condition_expression = "PK = :p";
  query.expression_attribute_values = AttributeMap{{":p", "p"}};
  query.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  query.consistent_read = true;
  EXPECT_EQ(db_.Query(query)->consumed_capacity->CapacityUnits(), 11.0);
  query.consistent_read = false;
  query.select = Select::kCount;  // COUNT costs the same
  EXPECT_EQ(db_.Query(query)->consumed_capacity->CapacityUnits(), 5.5);

  // A fresh on-demand table (4 partitions) with one tiny item: Scan costs 4.0 strong, 2.0
  // eventual, as DynamoDB reports.
  testing::MustCreate(db_, "Tiny", testing::StringKeys(false));
  MustPut(db_, "Tiny", {{"PK", "a"}});
  ScanRequest scan;
  scan.table_name = "Tiny";
  scan.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  scan.consistent_read = true;
  EXPECT_EQ(db_.Scan(scan)->consumed_capacity->CapacityUnits(), 4.0);
  scan.consistent_read = false;
  EXPECT_EQ(db_.Scan(scan)->consumed_capacity->CapacityUnits(), 2.0);
}

// Table::KeyOf builds the LastEvaluatedKey in order for its map: here the sort key's name ("id")
// sorts before the partition key's ("user"). The key must hold both, findable, and resume the
// query.
TEST(QueryLastKeyTest, AKeyWhoseSortNameSortsFirstResumesTheQuery) {
  Database db;
  KeySchema schema;
  schema.partition = {"user", KeyType::kString};
  schema.sort = KeyAttribute{"id", KeyType::kString};
  testing::MustCreate(db, "Reversed", schema);
  for (const char* id : {"a", "b", "c"}) MustPut(db, "Reversed", {{"user", "u"}, {"id", id}});
  QueryRequest request;
  request.table_name = "Reversed";
  request.key_condition_expression = "#u = :u";
  request.expression_attribute_names = expr::NameMap{{"#u", "user"}};
  request.expression_attribute_values = AttributeMap{{":u", "u"}};
  request.limit = 1;
  std::vector<std::string> ids;
  for (int page = 0; page < 4; ++page) {
    auto result = db.Query(request);
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    for (const Item& item : result->items) ids.push_back(item.at("id").as_string());
    if (!result->last_evaluated_key) break;
    const Item& key = *result->last_evaluated_key;
    ASSERT_EQ(key.size(), 2u);
    ASSERT_NE(key.find("user"), key.end());
    ASSERT_NE(key.find("id"), key.end());
    EXPECT_EQ(key.at("id"), Value(ids.back()));
    request.exclusive_start_key = key;
  }
  EXPECT_EQ(ids, (std::vector<std::string>{"a", "b", "c"}));
}

}  // namespace
}  // namespace partstore
