// Secondary indexes: definitions and their validation, synchronous maintenance (insert, delete,
// key change, projected change, sparse), rejected writes, Query / Scan on indexes with paging,
// Select rules, LSI fetches, capacity and UpdateTable's index creation with backfill.
#include <gtest/gtest.h>

#include "tests/shard/database_testutil.h"

namespace partstore {
namespace {

using testing::ErrorText;
using testing::MustPut;

// Orders: PK/SK strings; GSI1 (GSI1PK, GSI1SK) KEYS_ONLY... as in the e-commerce seed.
CreateTableRequest Orders(ProjectionType gsi_projection = ProjectionType::kAll) {
  CreateTableRequest request = SimpleTable("Orders", testing::StringKeys());
  request.attribute_definitions.push_back({"GSI1PK", KeyType::kString});
  request.attribute_definitions.push_back({"GSI1SK", KeyType::kString});
  request.attribute_definitions.push_back({"placed", KeyType::kNumber});
  GlobalSecondaryIndex gsi;
  gsi.index_name = "GSI1";
  gsi.key_schema = {{"GSI1PK", KeyRoleName::kHash}, {"GSI1SK", KeyRoleName::kRange}};
  gsi.projection.projection_type = gsi_projection;
  if (gsi_projection == ProjectionType::kInclude) {
    gsi.projection.non_key_attributes = std::vector<std::string>{"status"};
  }
  request.global_secondary_indexes.push_back(gsi);
  LocalSecondaryIndex lsi;
  lsi.index_name = "ByPlaced";
  lsi.key_schema = {{"PK", KeyRoleName::kHash}, {"placed", KeyRoleName::kRange}};
  lsi.projection.projection_type = ProjectionType::kKeysOnly;
  request.local_secondary_indexes.push_back(lsi);
  return request;
}

class IndexTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto created = db_.CreateTable(Orders());
    ASSERT_TRUE(created.ok()) << created.status().ToString();
  }

  ReadPageResult QueryIndex(const std::string& index, const std::string& condition,
                            AttributeMap values, std::optional<int32_t> limit = std::nullopt,
                            std::optional<Item> start = std::nullopt, bool forward = true) {
    QueryRequest request;
    request.table_name = "Orders";
    request.index_name = index;
    request.key_condition_expression = condition;
    request.expression_attribute_values = std::move(values);
    request.limit = limit;
    request.exclusive_start_key = std::move(start);
    request.scan_index_forward = forward;
    auto result = db_.Query(request);
    EXPECT_TRUE(result.ok()) << result.status().ToString();
    return result.ok() ? *result : ReadPageResult{};
  }

  static std::vector<std::string> Attr(const ReadPageResult& page, const std::string& name) {
    std::vector<std::string> out;
    for (const Item& item : page.items) {
      auto it = item.find(name);
      out.push_back(it == item.end()                ? "-"
                    : it->second.type() == Type::kS ? it->second.as_string()
                                                    : DebugString(it->second));
    }
    return out;
  }

  Database db_;
};

TEST_F(IndexTest, EntriesFollowEveryWrite) {
  MustPut(db_, "Orders",
          {{"PK", "USER#1"},
           {"SK", "ORDER#1"},
           {"GSI1PK", "STATUS#open"},
           {"GSI1SK", "2024-01-02"},
           {"status", "open"}});
  MustPut(db_, "Orders",
          {{"PK", "USER#2"},
           {"SK", "ORDER#2"},
           {"GSI1PK", "STATUS#open"},
           {"GSI1SK", "2024-01-01"},
           {"status", "open"}});
  MustPut(db_, "Orders", {{"PK", "USER#3"}, {"SK", "PROFILE"}});  // sparse: not in GSI1
  auto open = QueryIndex("GSI1", "GSI1PK = :s", {{":s", "STATUS#open"}});
  EXPECT_EQ(Attr(open, "SK"), (std::vector<std::string>{"ORDER#2", "ORDER#1"}));

  // Key change A -> B moves the entry.
  UpdateItemRequest ship;
  ship.table_name = "Orders";
  ship.key = {{"PK", "USER#1"}, {"SK", "ORDER#1"}};
  ship.update_expression = "SET GSI1PK = :shipped, #s = :s";
  ship.expression_attribute_names = expr::NameMap{{"#s", "status"}};
  ship.expression_attribute_values =
      AttributeMap{{":shipped", "STATUS#shipped"}, {":s", "shipped"}};
  ship.return_consumed_capacity = ReturnConsumedCapacity::kIndexes;
  auto shipped = db_.UpdateItem(ship);
  ASSERT_TRUE(shipped.ok()) << shipped.status().ToString();
  ASSERT_TRUE(shipped->consumed_capacity);
  EXPECT_EQ(shipped->consumed_capacity->global_secondary_indexes.at("GSI1"), 4)  // delete + put
      << "2 index writes of 1 unit each, in half units";
  EXPECT_EQ(Attr(QueryIndex("GSI1", "GSI1PK = :s", {{":s", "STATUS#open"}}), "SK"),
            (std::vector<std::string>{"ORDER#2"}));
  EXPECT_EQ(Attr(QueryIndex("GSI1", "GSI1PK = :s", {{":s", "STATUS#shipped"}}), "status"),
            (std::vector<std::string>{"shipped"}));

  // Removing an index key attribute removes the entry; deleting the item removes the other.
  UpdateItemRequest drop;
  drop.table_name = "Orders";
  drop.key = {{"PK", "USER#1"}, {"SK", "ORDER#1"}};
  drop.update_expression = "REMOVE GSI1SK";
  ASSERT_TRUE(db_.UpdateItem(drop).ok());
  EXPECT_TRUE(QueryIndex("GSI1", "GSI1PK = :s", {{":s", "STATUS#shipped"}}).items.empty());
  DeleteItemRequest del;
  del.table_name = "Orders";
  del.key = {{"PK", "USER#2"}, {"SK", "ORDER#2"}};
  del.return_consumed_capacity = ReturnConsumedCapacity::kIndexes;
  auto deleted = db_.DeleteItem(del);
  ASSERT_TRUE(deleted.ok());
  EXPECT_EQ(deleted->consumed_capacity->global_secondary_indexes.at("GSI1"), 2);
  EXPECT_TRUE(QueryIndex("GSI1", "GSI1PK = :s", {{":s", "STATUS#open"}}).items.empty());

  auto described = db_.DescribeTable({"Orders"});
  ASSERT_TRUE(described.ok());
  ASSERT_EQ(described->table.global_secondary_indexes.size(), 1u);
  EXPECT_EQ(described->table.global_secondary_indexes[0].item_count, 0);
  ASSERT_EQ(described->table.local_secondary_indexes.size(), 1u);
  EXPECT_EQ(described->table.local_secondary_indexes[0].item_count, 0);
}

TEST_F(IndexTest, BadIndexKeysRejectTheWholeWrite) {
  PutItemRequest put;
  put.table_name = "Orders";
  put.item = {{"PK", "U"}, {"SK", "O"}, {"GSI1PK", 5}};
  EXPECT_EQ(ErrorText(db_.PutItem(put)),
            "One or more parameter values were invalid: Type mismatch for Index Key GSI1PK "
            "Expected: S Actual: N IndexName: GSI1");
  put.item = {{"PK", "U"}, {"SK", "O"}, {"GSI1SK", ""}};
  EXPECT_EQ(ErrorText(db_.PutItem(put)),
            "One or more parameter values are not valid. A value specified for a secondary index "
            "key is not supported. The AttributeValue for a key attribute cannot contain an empty "
            "string value. IndexName: GSI1, IndexKey: GSI1SK");
  EXPECT_EQ(testing::MustGet(db_, "Orders", {{"PK", "U"}, {"SK", "O"}}), std::nullopt);
  MustPut(db_, "Orders", {{"PK", "U"}, {"SK", "O"}, {"placed", 1}});
  UpdateItemRequest update;
  update.table_name = "Orders";
  update.key = {{"PK", "U"}, {"SK", "O"}};
  update.update_expression = "SET placed = :s";
  update.expression_attribute_values = AttributeMap{{":s", "soon"}};
  EXPECT_EQ(ErrorText(db_.UpdateItem(update)),
            "One or more parameter values were invalid: Type mismatch for Index Key placed "
            "Expected: N Actual: S IndexName: ByPlaced");
  EXPECT_EQ(testing::MustGet(db_, "Orders", {{"PK", "U"}, {"SK", "O"}})->at("placed"), Value(1));
}

TEST_F(IndexTest, EqualIndexKeysOrderByTableKeyAndPage) {
  for (const char* user : {"USER#3", "USER#1", "USER#2"}) {
    for (const char* order : {"ORDER#b", "ORDER#a"}) {
      MustPut(db_, "Orders", {{"PK", user}, {"SK", order}, {"GSI1PK", "DAY#1"}, {"GSI1SK", "x"}});
    }
  }
  std::vector<std::string> all;
  std::optional<Item> start;
  for (int page = 0; page < 10; ++page) {
    auto result =
        QueryIndex("GSI1", "GSI1PK = :d AND GSI1SK = :x", {{":d", "DAY#1"}, {":x", "x"}}, 4, start);
    for (const Item& item : result.items) {
      all.push_back(item.at("PK").as_string() + "/" + item.at("SK").as_string());
    }
    if (!result.last_evaluated_key) break;
    EXPECT_EQ(result.last_evaluated_key->size(), 4u) << "index keys + table keys";
    start = result.last_evaluated_key;
  }
  EXPECT_EQ(all, (std::vector<std::string>{"USER#1/ORDER#a", "USER#1/ORDER#b", "USER#2/ORDER#a",
                                           "USER#2/ORDER#b", "USER#3/ORDER#a", "USER#3/ORDER#b"}));
  auto backward = QueryIndex("GSI1", "GSI1PK = :d", {{":d", "DAY#1"}}, 2, std::nullopt, false);
  EXPECT_EQ(Attr(backward, "PK"), (std::vector<std::string>{"USER#3", "USER#3"}));

  ScanRequest scan;
  scan.table_name = "Orders";
  scan.index_name = "GSI1";
  scan.limit = 5;
  size_t seen = 0;
  for (;;) {
    auto page = db_.Scan(scan);
    ASSERT_TRUE(page.ok()) << page.status().ToString();
    seen += page->items.size();
    if (!page->last_evaluated_key) break;
    scan.exclusive_start_key = page->last_evaluated_key;
  }
  EXPECT_EQ(seen, 6u);
}

// An index's ExclusiveStartKey, DynamoDB's texts and order (dynalite test/scan.js and
// test/query.js, recorded against DynamoDB): the wrong number of attributes or an index key
// missing, "...is invalid"; an index key of the wrong type, "...does not match the schema"; the
// table's key missing or mistyped, "...is invalid: ...does not match the schema".
TEST_F(IndexTest, IndexStartKeyTexts) {
  const std::string invalid = "The provided starting key is invalid";
  const std::string mismatch = "The provided key element does not match the schema";
  const std::string table_mismatch = invalid + ": " + mismatch;
  // GSI1 (GSI1PK, GSI1SK) over PK/SK strings: 4 attributes.
  const std::vector<std::pair<Item, std::string>> gsi_cases = {
      {Item{{"GSI1PK", "d"}, {"GSI1SK", "x"}, {"PK", "u"}}, invalid},
      {Item{{"GSI1PK", "d"}, {"GSI1SK", "x"}, {"PK", "u"}, {"SK", "o"}, {"z", 1}}, invalid},
      {Item{{"GSI1PK", 1}, {"GSI1SK", "x"}, {"PK", "u"}, {"SK", "o"}}, mismatch},
      {Item{{"GSI1PK", "d"}, {"GSI1SK", 1}, {"PK", "u"}, {"SK", "o"}}, mismatch},
      {Item{{"z", "d"}, {"GSI1SK", "x"}, {"PK", "u"}, {"SK", "o"}}, invalid},
      {Item{{"GSI1PK", "d"}, {"GSI1SK", "x"}, {"PK", 1}, {"SK", "o"}}, table_mismatch},
      {Item{{"GSI1PK", "d"}, {"GSI1SK", "x"}, {"z", "u"}, {"SK", "o"}}, table_mismatch},
  };
  for (const auto& [key, text] : gsi_cases) {
    ScanRequest scan;
    scan.table_name = "Orders";
    scan.index_name = "GSI1";
    scan.exclusive_start_key = key;
    EXPECT_EQ(ErrorText(db_.Scan(scan)), text) << DebugString(Value::Map(key));
    QueryRequest query;
    query.table_name = "Orders";
    query.index_name = "GSI1";
    query.key_condition_expression = "GSI1PK = :d";
    query.expression_attribute_values = AttributeMap{{":d", "d"}};
    query.exclusive_start_key = key;
    EXPECT_EQ(ErrorText(db_.Query(query)), text) << DebugString(Value::Map(key));
  }
  // Before the key condition only the size and the index's partition key are checked.
  QueryRequest no_key;
  no_key.table_name = "Orders";
  no_key.index_name = "GSI1";
  no_key.key_condition_expression = "z = :d";
  no_key.expression_attribute_values = AttributeMap{{":d", "d"}};
  no_key.exclusive_start_key = Item{{"GSI1PK", 1}, {"GSI1SK", "x"}, {"PK", "u"}, {"SK", "o"}};
  EXPECT_EQ(ErrorText(db_.Query(no_key)), mismatch);
  no_key.exclusive_start_key = Item{{"GSI1PK", "d"}, {"GSI1SK", 1}, {"PK", 1}, {"SK", "o"}};
  EXPECT_EQ(ErrorText(db_.Query(no_key)), "Query condition missed key schema element: GSI1PK");
  // The LSI ByPlaced (PK, placed) shares PK with the table: 3 attributes.
  ScanRequest lsi;
  lsi.table_name = "Orders";
  lsi.index_name = "ByPlaced";
  lsi.exclusive_start_key = Item{{"PK", "u"}, {"placed", "1"}, {"SK", "o"}};
  EXPECT_EQ(ErrorText(db_.Scan(lsi)), mismatch);
  lsi.exclusive_start_key = Item{{"PK", "u"}, {"placed", 1}, {"SK", 1}};
  EXPECT_EQ(ErrorText(db_.Scan(lsi)), table_mismatch);
  lsi.exclusive_start_key = Item{{"PK", "u"}, {"placed", 1}, {"SK", "o"}, {"x", 1}};
  EXPECT_EQ(ErrorText(db_.Scan(lsi)), invalid);
  lsi.exclusive_start_key = Item{{"PK", "u"}, {"placed", 1}, {"SK", "o"}};
  EXPECT_TRUE(db_.Scan(lsi).ok());
}

TEST_F(IndexTest, SortConditionsOnIndexKeys) {
  for (int n : {5, 1, 3, 2, 4}) {
    MustPut(db_, "Orders", {{"PK", "U"}, {"SK", "O" + std::to_string(n)}, {"placed", n * 10}});
  }
  auto between = QueryIndex("ByPlaced", "PK = :u AND placed BETWEEN :a AND :b",
                            {{":u", "U"}, {":a", 20}, {":b", 40}});
  EXPECT_EQ(Attr(between, "SK"), (std::vector<std::string>{"O2", "O3", "O4"}));
  EXPECT_EQ(
      Attr(QueryIndex("ByPlaced", "PK = :u AND placed < :a", {{":u", "U"}, {":a", 30}}), "SK"),
      (std::vector<std::string>{"O1", "O2"}));
  EXPECT_EQ(
      Attr(QueryIndex("ByPlaced", "PK = :u AND placed <= :a", {{":u", "U"}, {":a", 30}}), "SK"),
      (std::vector<std::string>{"O1", "O2", "O3"}));
  EXPECT_EQ(Attr(QueryIndex("ByPlaced", "PK = :u AND placed > :a", {{":u", "U"}, {":a", 30}},
                            std::nullopt, std::nullopt, false),
                 "SK"),
            (std::vector<std::string>{"O5", "O4"}));
  // KEYS_ONLY entries carry the keys only; ALL_ATTRIBUTES on an LSI fetches the base items.
  auto keys_only = QueryIndex("ByPlaced", "PK = :u AND placed = :a", {{":u", "U"}, {":a", 10}});
  ASSERT_EQ(keys_only.items.size(), 1u);
  EXPECT_EQ(keys_only.items[0], (Item{{"PK", "U"}, {"SK", "O1"}, {"placed", 10}}));
}

TEST_F(IndexTest, IndexReadRules) {
  auto created = db_.CreateTable([] {
    CreateTableRequest r = Orders(ProjectionType::kInclude);
    r.table_name = "Included";
    return r;
  }());
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  MustPut(db_, "Included",
          {{"PK", "U"},
           {"SK", "O"},
           {"GSI1PK", "G"},
           {"GSI1SK", "1"},
           {"status", "open"},
           {"secret", "x"},
           {"placed", 7}});
  QueryRequest request;
  request.table_name = "Included";
  request.index_name = "GSI1";
  request.key_condition_expression = "GSI1PK = :g";
  request.expression_attribute_values = AttributeMap{{":g", "G"}};
  auto projected = db_.Query(request);
  ASSERT_TRUE(projected.ok());
  EXPECT_EQ(projected->items[0].count("secret"), 0u);
  EXPECT_EQ(projected->items[0].at("status"), Value("open"));
  request.select = Select::kAllAttributes;
  EXPECT_EQ(ErrorText(db_.Query(request)),
            "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not "
            "supported for global secondary index GSI1 because its projection type is not ALL");
  request.select.reset();
  request.projection_expression = "#s, secret";
  request.expression_attribute_names = expr::NameMap{{"#s", "status"}};
  EXPECT_EQ(ErrorText(db_.Query(request)),
            "One or more parameter values were invalid: Global secondary index GSI1 does not "
            "project attribute secret");
  request.projection_expression = "#s, GSI1PK, PK";
  auto specific = db_.Query(request);
  ASSERT_TRUE(specific.ok()) << specific.status().ToString();
  EXPECT_EQ(specific->items[0], (Item{{"GSI1PK", "G"}, {"PK", "U"}, {"status", "open"}}));
  request.projection_expression.reset();
  request.expression_attribute_names.reset();
  request.consistent_read = true;
  EXPECT_EQ(ErrorText(db_.Query(request)),
            "Consistent reads are not supported on global secondary indexes");

  QueryRequest lsi;
  lsi.table_name = "Included";
  lsi.index_name = "ByPlaced";
  lsi.key_condition_expression = "PK = :u";
  lsi.expression_attribute_values = AttributeMap{{":u", "U"}};
  lsi.select = Select::kAllAttributes;
  lsi.return_consumed_capacity = ReturnConsumedCapacity::kIndexes;
  auto fetched = db_.Query(lsi);
  ASSERT_TRUE(fetched.ok()) << fetched.status().ToString();
  ASSERT_EQ(fetched->items.size(), 1u);
  EXPECT_EQ(fetched->items[0].at("secret"), Value("x")) << "fetched from the base item";
  ASSERT_TRUE(fetched->consumed_capacity);
  EXPECT_FALSE(fetched->consumed_capacity->table_half_units) << "index reads report no Table";
  EXPECT_EQ(fetched->consumed_capacity->local_secondary_indexes.at("ByPlaced"), 2)
      << "0.5 for the entries + 0.5 for the fetched item (eventual), in half units";
}

TEST_F(IndexTest, CreateTableIndexValidation) {
  CreateTableRequest lsi_without_range = SimpleTable("T1x", testing::StringKeys(false));
  lsi_without_range.attribute_definitions.push_back({"x", KeyType::kString});
  lsi_without_range.local_secondary_indexes.push_back(
      {"L1x",
       {{"PK", KeyRoleName::kHash}, {"x", KeyRoleName::kRange}},
       {ProjectionType::kAll, {}}});
  EXPECT_EQ(ErrorText(db_.CreateTable(lsi_without_range)),
            "One or more parameter values were invalid: Table KeySchema does not have a range key, "
            "which is required when specifying a LocalSecondaryIndex");
  CreateTableRequest duplicate = Orders();
  duplicate.table_name = "T2x";
  duplicate.global_secondary_indexes.push_back(duplicate.global_secondary_indexes[0]);
  EXPECT_EQ(ErrorText(db_.CreateTable(duplicate)),
            "One or more parameter values were invalid: Duplicate index name: GSI1");
  CreateTableRequest no_projection = Orders();
  no_projection.table_name = "T3x";
  no_projection.global_secondary_indexes[0].projection.projection_type.reset();
  EXPECT_EQ(ErrorText(db_.CreateTable(no_projection)),
            "One or more parameter values were invalid: Unknown ProjectionType: null");
  CreateTableRequest include_without = Orders();
  include_without.table_name = "T4x";
  include_without.global_secondary_indexes[0].projection.projection_type = ProjectionType::kInclude;
  EXPECT_EQ(ErrorText(db_.CreateTable(include_without)),
            "One or more parameter values were invalid: ProjectionType is INCLUDE, but "
            "NonKeyAttributes is not specified");
  CreateTableRequest unused = Orders();
  unused.table_name = "T5x";
  unused.attribute_definitions.push_back({"extra", KeyType::kString});
  EXPECT_EQ(ErrorText(db_.CreateTable(unused)),
            "One or more parameter values were invalid: Some AttributeDefinitions are not used. "
            "AttributeDefinitions: [PK, SK, GSI1PK, GSI1SK, placed, extra], keys used: [PK, SK, "
            "placed, GSI1PK, GSI1SK]");
  CreateTableRequest provisioned = Orders();
  provisioned.table_name = "T6x";
  provisioned.billing_mode = BillingMode::kProvisioned;
  provisioned.provisioned_throughput = ProvisionedThroughput{5, 5};
  EXPECT_EQ(ErrorText(db_.CreateTable(provisioned)),
            "One or more parameter values were invalid: ProvisionedThroughput is not specified for "
            "index: GSI1");
}

TEST_F(IndexTest, UpdateTableCreatesWithBackfillAndDeletes) {
  for (int i = 0; i < 50; ++i) {
    Item item = {{"PK", "U" + std::to_string(i)}, {"SK", "O"}};
    if (i % 2 == 0) item["color"] = (i % 4 == 0) ? "red" : "blue";
    MustPut(db_, "Orders", item);
  }
  UpdateTableRequest add;
  add.table_name = "Orders";
  add.attribute_definitions = {{"color", KeyType::kString}};
  GlobalSecondaryIndex by_color;
  by_color.index_name = "ByColor";
  by_color.key_schema = {{"color", KeyRoleName::kHash}};
  by_color.projection.projection_type = ProjectionType::kKeysOnly;
  add.global_secondary_index_updates =
      std::vector<GlobalSecondaryIndexUpdate>{{.create = by_color}};
  auto added = db_.UpdateTable(add);
  ASSERT_TRUE(added.ok()) << added.status().ToString();
  EXPECT_EQ(QueryIndex("ByColor", "color = :c", {{":c", "red"}}).count, 13);
  MustPut(db_, "Orders", {{"PK", "new"}, {"SK", "O"}, {"color", "red"}});
  EXPECT_EQ(QueryIndex("ByColor", "color = :c", {{":c", "red"}}).count, 14) << "maintained";
  EXPECT_EQ(ErrorText(db_.UpdateTable(add)), "Attempting to create an index which already exists");

  UpdateTableRequest remove;
  remove.table_name = "Orders";
  GlobalSecondaryIndexUpdate del;
  del.remove = GlobalSecondaryIndexUpdate::Delete{"ByColor"};
  remove.global_secondary_index_updates = std::vector<GlobalSecondaryIndexUpdate>{del};
  // With a billing change that is refused, the index change is not applied either.
  UpdateTableRequest refused = remove;
  refused.billing_mode = BillingMode::kProvisioned;  // without ProvisionedThroughput
  EXPECT_EQ(ErrorText(db_.UpdateTable(refused)),
            "One or more parameter values were invalid: ProvisionedThroughput must be specified "
            "when BillingMode is PROVISIONED");
  EXPECT_EQ(QueryIndex("ByColor", "color = :c", {{":c", "red"}}).count, 14) << "still there";
  ASSERT_TRUE(db_.UpdateTable(remove).ok());
  QueryRequest gone;
  gone.table_name = "Orders";
  gone.index_name = "ByColor";
  gone.key_condition_expression = "color = :c";
  gone.expression_attribute_values = AttributeMap{{":c", "red"}};
  EXPECT_EQ(ErrorText(db_.Query(gone)), "The table does not have the specified index: ByColor");
  EXPECT_EQ(ErrorText(db_.UpdateTable(remove)),
            "Requested resource not found: Index ByColor for table Orders");
}

}  // namespace
}  // namespace partstore

namespace partstore {
namespace {

TEST(LocalIndexCollectionTest, SizeLimitAndItemCollectionMetrics) {
  DatabaseOptions options;
  options.item_collection_size_limit = 3000;  // bytes, so a test can reach it
  Database db(options);
  ASSERT_TRUE(db.CreateTable(Orders()).ok());
  PutItemRequest put;
  put.table_name = "Orders";
  put.item = {{"PK", "U"}, {"SK", "1"}, {"placed", 1}, {"blob", std::string(1000, 'x')}};
  put.return_item_collection_metrics = ReturnItemCollectionMetrics::kSize;
  auto first = db.PutItem(put);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  ASSERT_TRUE(first->item_collection_metrics);
  EXPECT_EQ(first->item_collection_metrics->item_collection_key, (Item{{"PK", "U"}}));
  EXPECT_EQ(first->item_collection_metrics->size_estimate_range_gb[0], 0.0);
  EXPECT_EQ(first->item_collection_metrics->size_estimate_range_gb[1], 1.0);
  put.item["SK"] = "2";
  ASSERT_TRUE(db.PutItem(put).ok());
  put.item["SK"] = "3";
  auto over = db.PutItem(put);
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.error().code(), Code::kItemCollectionSizeLimitExceeded);
  EXPECT_EQ(over.error().message(), "Collection size exceeded.");
  EXPECT_EQ(testing::MustGet(db, "Orders", {{"PK", "U"}, {"SK", "3"}}), std::nullopt);
  // Shrinking writes are still allowed; other partition keys are not affected.
  put.item = {{"PK", "U"}, {"SK", "1"}, {"placed", 1}};
  EXPECT_TRUE(db.PutItem(put).ok());
  put.item = {{"PK", "V"}, {"SK", "1"}, {"blob", std::string(1000, 'x')}};
  EXPECT_TRUE(db.PutItem(put).ok());
  // Without the parameter, or on a table without LSIs, no metrics.
  put.return_item_collection_metrics = ReturnItemCollectionMetrics::kNone;
  EXPECT_FALSE(db.PutItem(put)->item_collection_metrics);
  testing::MustCreate(db, "Plain", testing::StringKeys());
  put.table_name = "Plain";
  put.return_item_collection_metrics = ReturnItemCollectionMetrics::kSize;
  EXPECT_FALSE(db.PutItem(put)->item_collection_metrics);
}

}  // namespace
}  // namespace partstore
