// Database::PutStoredItem: a put of an item given in the engine's form (a StoredItem) rather than
// as a tree. Its buffer is stored as given, shared with the caller's handle. Everything a caller
// sees is what PutItem of the same item as a tree gives: the results (old item, consumed
// capacity, item collection metrics), the errors in PutItem's order, the items afterwards, in the
// table and in its indexes. A random sequence of puts runs against two databases, one through
// each call, and compares all of that.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <ostream>
#include <random>
#include <string>

#include "partstore/clock.h"
#include "partstore/database.h"
#include "partstore/stored_item.h"
#include "tests/shard/database_testutil.h"
#include "tests/testutil/random_put_items.h"
#include "tests/testutil/random_values.h"

namespace partstore {
namespace {

using testing::ErrorText;
using testing::MustCreate;
using testing::SortedItems;
using testing::StringKeys;

CreateTableRequest IndexedTable() {
  CreateTableRequest request = SimpleTable("Orders", StringKeys());
  request.attribute_definitions.push_back({"GSI1PK", KeyType::kString});
  request.attribute_definitions.push_back({"LSK", KeyType::kNumber});
  GlobalSecondaryIndex gsi;
  gsi.index_name = "GSI1";
  gsi.key_schema = {{"GSI1PK", KeyRoleName::kHash}};
  gsi.projection.projection_type = ProjectionType::kKeysOnly;
  request.global_secondary_indexes.push_back(gsi);
  LocalSecondaryIndex lsi;
  lsi.index_name = "LSI1";
  lsi.key_schema = {{"PK", KeyRoleName::kHash}, {"LSK", KeyRoleName::kRange}};
  lsi.projection.projection_type = ProjectionType::kAll;
  request.local_secondary_indexes.push_back(lsi);
  return request;
}

TEST(PutStoredItemTest, StoresTheGivenBuffer) {
  Database db;
  MustCreate(db, "Items", StringKeys());
  const StoredItem item =
      StoredItem::Encode({{"PK", Value("a")}, {"SK", Value("1")}, {"n", Value(int64_t{7})}});
  ASSERT_TRUE(db.PutStoredItem({.table_name = "Items"}, item).ok());
  Result<GetItemViewResult> read =
      db.GetItemView({.table_name = "Items", .key = {{"PK", Value("a")}, {"SK", Value("1")}}});
  ASSERT_TRUE(read.ok()) << ErrorText(read);
  ASSERT_TRUE(read->item);
  EXPECT_TRUE(read->item->SharesBufferWith(item));

  // An item read as a view goes into another table as it is.
  MustCreate(db, "Copy", StringKeys());
  ASSERT_TRUE(db.PutStoredItem({.table_name = "Copy"}, *read->item).ok());
  EXPECT_EQ(SortedItems(db, "Copy"), SortedItems(db, "Items"));
}

TEST(PutStoredItemTest, RefusesARequestThatAlsoHasATree) {
  Database db;
  MustCreate(db, "Items", StringKeys());
  const Item item{{"PK", Value("a")}, {"SK", Value("1")}};
  Result<PutItemResult> put =
      db.PutStoredItem({.table_name = "Items", .item = item}, StoredItem::Encode(item));
  ASSERT_FALSE(put.ok());
  EXPECT_EQ(put.status().code(), Code::kValidation);
  EXPECT_EQ(put.status().message(), kPutStoredItemWithTree);
  EXPECT_TRUE(SortedItems(db, "Items").empty());
}

TEST(PutStoredItemTest, AnEmptyHandleIsAnItemWithoutAttributes) {
  Database db;
  MustCreate(db, "Items", StringKeys());
  Result<PutItemResult> stored = db.PutStoredItem({.table_name = "Items"}, StoredItem());
  Result<PutItemResult> tree = db.PutItem({.table_name = "Items"});
  ASSERT_FALSE(stored.ok());
  EXPECT_EQ(stored.status(), tree.status());
}

// A random put: an item with or without its keys, over the size limit or with a GSI or LSI key of
// the wrong type at times (a GSI key sometimes empty; RandomOrdersItem), with a condition,
// ReturnValues, ReturnConsumedCapacity (TOTAL or INDEXES) and item collection metrics asked at
// random.
PutItemRequest MakeRandomPut(std::mt19937_64& rng) {
  using testing::RandomChance;
  using testing::RandomInt;
  PutItemRequest request;
  request.table_name = RandomChance(rng, 0.02) ? "Missing" : "Orders";
  request.item = testing::RandomOrdersItem(rng);
  if (RandomChance(rng, 0.3)) {
    request.condition_expression =
        RandomChance(rng, 0.5) ? "attribute_not_exists(PK)" : "attribute_exists(#n)";
    if (*request.condition_expression == "attribute_exists(#n)") {
      request.expression_attribute_names = expr::NameMap{{"#n", "LSK"}};
    }
  }
  if (RandomChance(rng, 0.5)) request.return_values = ReturnValue::kAllOld;
  if (RandomChance(rng, 0.5)) {
    request.return_values_on_condition_check_failure = ReturnValuesOnConditionCheckFailure::kAllOld;
  }
  request.return_consumed_capacity =
      RandomChance(rng, 0.5) ? ReturnConsumedCapacity::kIndexes : ReturnConsumedCapacity::kTotal;
  if (RandomChance(rng, 0.5)) {
    request.return_item_collection_metrics = ReturnItemCollectionMetrics::kSize;
  }
  return request;
}

std::vector<Item> IndexItems(Database& db, const std::string& index) {
  std::vector<Item> out;
  ScanRequest scan{.table_name = "Orders", .index_name = index};
  for (const StoredItem& item : db.ScanAll(scan)) out.push_back(item.ToItem());
  // Each base item has at most one entry in an index: its table key orders them.
  auto order = [](const Item& item) {
    return EncodeKey(item.at("PK")) + '\0' + EncodeKey(item.at("SK"));
  };
  std::sort(out.begin(), out.end(),
            [&](const Item& a, const Item& b) { return order(a) < order(b); });
  return out;
}

// What the capacity simulation holds after the puts, as text: each partition's items and bytes
// (the table's and the GSI's), and the Contributor Insights rules' top keys.
std::string SimulationState(Database& db) {
  std::string out;
  for (const std::optional<std::string>& index :
       {std::optional<std::string>(), std::optional<std::string>("GSI1")}) {
    Result<DescribePartitionsResult> partitions =
        db.DescribePartitions({.table_name = "Orders", .index_name = index});
    EXPECT_TRUE(partitions.ok()) << ErrorText(partitions);
    if (!partitions.ok()) return out;
    for (const PartitionDescription& p : partitions->partitions) {
      out += std::to_string(p.partition_id) + ": " + std::to_string(p.item_count) + " items, " +
             std::to_string(p.size_bytes) + " B\n";
    }
    out += std::to_string(partitions->recent_throttles.size()) + " throttles\n";
    Result<GetContributorInsightsResult> insights =
        db.GetContributorInsights({.table_name = "Orders", .index_name = index, .top_n = 20});
    EXPECT_TRUE(insights.ok()) << ErrorText(insights);
    if (!insights.ok()) return out;
    for (const InsightsRuleResult& rule : insights->rules) {
      out += rule.rule_name + ":";
      for (const Contributor& c : rule.contributors) {
        out += " " + std::to_string(c.value) + "@" + std::to_string(c.minute);
        for (const auto& [name, value] : c.key) out += "," + name + "=" + EncodeKey(value);
      }
      out += "\n";
    }
  }
  return out;
}

struct RandomPutsCase {
  const char* name;
  bool simulate;  // capacity simulation on: a provisioned table small enough to throttle
  friend void PrintTo(const RandomPutsCase& c, std::ostream* os) { *os << c.name; }
};

class RandomPutsTest : public ::testing::TestWithParam<RandomPutsCase> {};

TEST_P(RandomPutsTest, GiveWhatPutItemGives) {
  DatabaseOptions options;
  CreateTableRequest table = IndexedTable();
  const auto clock = std::make_shared<capacity::ManualClock>();  // both databases' time
  if (GetParam().simulate) {
    options.capacity.enabled = true;
    options.capacity.clock = clock;
    options.capacity.contributor_insights = true;
    // With the clock 0.2 s further at each put: 0.6 write units a put for the table, 0.4 for the
    // GSI, less than the puts ask for, so that some are throttled.
    table.billing_mode = BillingMode::kProvisioned;
    table.provisioned_throughput = ProvisionedThroughput{50, 3};
    table.global_secondary_indexes[0].provisioned_throughput = ProvisionedThroughput{50, 2};
  }
  Database by_tree(options);
  Database by_stored(options);
  ASSERT_TRUE(by_tree.CreateTable(table).ok());
  ASSERT_TRUE(by_stored.CreateTable(table).ok());
  std::mt19937_64 rng(51);
  int written = 0;
  int refused = 0;
  int throttled = 0;
  int with_old_item = 0;
  for (int i = 0; i < 1500; ++i) {
    SCOPED_TRACE(i);
    clock->Advance(200'000);
    PutItemRequest request = MakeRandomPut(rng);
    Result<PutItemResult> want = by_tree.PutItem(request);
    const StoredItem stored = StoredItem::Encode(request.item);
    request.item.clear();
    Result<PutItemResult> got = by_stored.PutStoredItem(request, stored);
    ASSERT_EQ(got.ok(), want.ok()) << ErrorText(want) << " / " << ErrorText(got);
    if (!want.ok()) {
      ++refused;
      if (want.status().code() == Code::kProvisionedThroughputExceeded) ++throttled;
      EXPECT_EQ(got.status(), want.status());
      ASSERT_EQ(got.status().detail() != nullptr, want.status().detail() != nullptr);
      if (want.status().detail() != nullptr) {
        const ErrorDetail& a = *got.status().detail();
        const ErrorDetail& b = *want.status().detail();
        EXPECT_EQ(a.item, b.item);  // ReturnValuesOnConditionCheckFailure's old item
        if (b.item) ++with_old_item;
        EXPECT_EQ(a.throttling_reasons, b.throttling_reasons);
      }
      continue;
    }
    ++written;
    EXPECT_EQ(got->attributes, want->attributes);
    EXPECT_EQ(got->consumed_capacity, want->consumed_capacity);
    EXPECT_EQ(got->item_collection_metrics, want->item_collection_metrics);
  }
  EXPECT_GT(written, 300);
  EXPECT_GT(refused, 100);
  EXPECT_GT(with_old_item, 10);
  if (GetParam().simulate) {
    EXPECT_GT(throttled, 50);
    const std::string state = SimulationState(by_tree);
    EXPECT_NE(state.find("MostThrottledItems: "), std::string::npos) << state;  // a contributor
    EXPECT_EQ(SimulationState(by_stored), state);
  }
  EXPECT_EQ(SortedItems(by_stored, "Orders"), SortedItems(by_tree, "Orders"));
  EXPECT_EQ(IndexItems(by_stored, "GSI1"), IndexItems(by_tree, "GSI1"));
  EXPECT_EQ(IndexItems(by_stored, "LSI1"), IndexItems(by_tree, "LSI1"));
}

INSTANTIATE_TEST_SUITE_P(PutStoredItemTest, RandomPutsTest,
                         ::testing::Values(RandomPutsCase{"NoSimulation", false},
                                           RandomPutsCase{"ProvisionedWithInsights", true}),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace partstore
