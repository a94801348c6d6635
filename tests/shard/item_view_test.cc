// Reads that answer with the stored items themselves (Database::GetItemView, QueryView,
// ScanView): the engine's own buffers, shared and never copied; the same items, pages and
// capacity as the tree-returning calls; projections as buffers; GSI entries with an ALL projection
// sharing the base item's buffer; and a view held by a reader never changing while writers
// replace and delete the item (under ThreadSanitizer in CI: the test name holds "Concurrent").
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "partstore/stored_item.h"
#include "tests/shard/database_testutil.h"

namespace partstore {
namespace {

using testing::MustPut;

Item Order(const std::string& pk, const std::string& sk, int n) {
  return Item{{"PK", Value(pk)},
              {"SK", Value(sk)},
              {"GSI1PK", Value("STATUS#open")},
              {"GSI1SK", Value(sk)},
              {"n", Value(static_cast<int64_t>(n))},
              {"tags", Value(StringSet({"a", "b"}))},
              {"nested", Value(AttributeMap{{"x", Value(static_cast<int64_t>(n))},
                                            {"y", Value(ValueList{Value("l0"), Value("l1")})}})}};
}

CreateTableRequest OrdersTable(ProjectionType projection) {
  CreateTableRequest request = SimpleTable("Orders", testing::StringKeys());
  request.attribute_definitions.push_back({"GSI1PK", KeyType::kString});
  request.attribute_definitions.push_back({"GSI1SK", KeyType::kString});
  GlobalSecondaryIndex gsi;
  gsi.index_name = "GSI1";
  gsi.key_schema = {{"GSI1PK", KeyRoleName::kHash}, {"GSI1SK", KeyRoleName::kRange}};
  gsi.projection.projection_type = projection;
  request.global_secondary_indexes.push_back(gsi);
  return request;
}

class ItemViewTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.CreateTable(OrdersTable(ProjectionType::kAll)).ok());
    for (int i = 0; i < 5; ++i)
      MustPut(db_, "Orders", Order("USER#1", "ORDER#" + std::to_string(i), i));
  }

  GetItemRequest Get(const std::string& sk) {
    return {.table_name = "Orders", .key = {{"PK", Value("USER#1")}, {"SK", Value(sk)}}};
  }

  Database db_;
};

TEST_F(ItemViewTest, GetItemViewIsTheStoredBufferItself) {
  GetItemRequest request = Get("ORDER#2");
  request.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  auto a = db_.GetItemView(request);
  auto b = db_.GetItemView(request);
  auto tree = db_.GetItem(request);
  ASSERT_TRUE(a.ok() && b.ok() && tree.ok());
  ASSERT_TRUE(a->item.has_value());
  EXPECT_TRUE(a->item->SharesBufferWith(*b->item));  // no copy: both hold the table's buffer
  EXPECT_TRUE(*a->item == *tree->item);
  EXPECT_EQ(a->consumed_capacity->total_half_units, tree->consumed_capacity->total_half_units);
  // Read in place: lookup by name, typed accessors, iteration.
  EXPECT_EQ(a->item->Find("n")->as_number(), Number::FromInt64(2));
  EXPECT_EQ(a->item->Find("nested")->as_map().Find("y")->as_list().at(1)->as_string(), "l1");
  EXPECT_TRUE(a->item->Find("tags")->as_set().contains("b"));
  size_t attributes = 0;
  for (const MapEntry& entry : a->item->attributes()) attributes += !entry.name.empty();
  EXPECT_EQ(attributes, 7u);

  auto missing = db_.GetItemView(Get("ORDER#9"));
  ASSERT_TRUE(missing.ok());
  EXPECT_FALSE(missing->item.has_value());
}

TEST_F(ItemViewTest, ProjectionsAreBuffersOfTheProjectedAttributes) {
  GetItemRequest request = Get("ORDER#3");
  request.projection_expression = "n, tags, absent";
  auto top = db_.GetItemView(request);
  ASSERT_TRUE(top.ok()) << top.status().ToString();
  EXPECT_TRUE(*top->item == (Item{{"n", Value(static_cast<int64_t>(3))},
                                  {"tags", Value(StringSet({"a", "b"}))}}));
  EXPECT_EQ(top->item->item_size(), ItemSize(top->item->ToItem()));
  request.projection_expression = "nested.y[1], PK";
  auto nested = db_.GetItemView(request);
  auto tree = db_.GetItem(request);
  ASSERT_TRUE(nested.ok() && tree.ok()) << nested.status().ToString();
  EXPECT_TRUE(*nested->item == *tree->item);
  EXPECT_TRUE(*tree->item ==
              (Item{{"PK", Value("USER#1")},
                    {"nested", Value(AttributeMap{{"y", Value(ValueList{Value("l1")})}})}}));
  // Every attribute chosen: the stored buffer itself.
  request.projection_expression = "PK, SK, GSI1PK, GSI1SK, n, tags, nested";
  auto all = db_.GetItemView(request);
  auto plain = db_.GetItemView(Get("ORDER#3"));
  ASSERT_TRUE(all.ok() && plain.ok());
  EXPECT_TRUE(all->item->SharesBufferWith(*plain->item));
}

TEST_F(ItemViewTest, QueryAndScanViewsMatchTheTreePages) {
  QueryRequest query{
      .table_name = "Orders",
      .key_condition_expression = "PK = :pk",
      .filter_expression = "n <> :one",
      .projection_expression = "SK, n",
      .expression_attribute_values =
          AttributeMap{{":pk", Value("USER#1")}, {":one", Value(static_cast<int64_t>(1))}},
      .limit = 3,
      .return_consumed_capacity = ReturnConsumedCapacity::kTotal};
  for (int page = 0; page < 3; ++page) {
    auto tree = db_.Query(query);
    auto view = db_.QueryView(query);
    ASSERT_TRUE(tree.ok() && view.ok());
    ASSERT_EQ(view->items.size(), tree->items.size());
    for (size_t i = 0; i < tree->items.size(); ++i) EXPECT_TRUE(view->items[i] == tree->items[i]);
    EXPECT_EQ(view->count, tree->count);
    EXPECT_EQ(view->scanned_count, tree->scanned_count);
    EXPECT_TRUE(view->last_evaluated_key == tree->last_evaluated_key);
    EXPECT_EQ(view->consumed_capacity->total_half_units, tree->consumed_capacity->total_half_units);
    if (!tree->last_evaluated_key) break;
    query.exclusive_start_key = tree->last_evaluated_key;
  }
  ScanRequest scan{.table_name = "Orders", .select = Select::kCount};
  auto count = db_.ScanView(scan);
  ASSERT_TRUE(count.ok());
  EXPECT_EQ(count->count, 5);
  EXPECT_TRUE(count->items.empty());
  EXPECT_TRUE(count->items_omitted);
  scan.select.reset();
  auto all = db_.ScanView(scan);
  auto plain = db_.GetItemView(Get("ORDER#0"));
  ASSERT_TRUE(all.ok() && plain.ok());
  ASSERT_EQ(all->items.size(), 5u);
  EXPECT_TRUE(all->items[0].SharesBufferWith(*plain->item));
}

TEST_F(ItemViewTest, AllProjectionIndexesShareTheBaseBuffer) {
  QueryRequest query{.table_name = "Orders",
                     .index_name = "GSI1",
                     .key_condition_expression = "GSI1PK = :s AND GSI1SK = :sk",
                     .expression_attribute_values =
                         AttributeMap{{":s", Value("STATUS#open")}, {":sk", Value("ORDER#4")}}};
  auto entry = db_.QueryView(query);
  auto base = db_.GetItemView(Get("ORDER#4"));
  ASSERT_TRUE(entry.ok() && base.ok());
  ASSERT_EQ(entry->items.size(), 1u);
  EXPECT_TRUE(entry->items[0].SharesBufferWith(*base->item));
  // Table and index hold it, and so do the two results.
  EXPECT_EQ(base->item->use_count(), 4u);

  // KEYS_ONLY keeps only the entry's size: the result is rebuilt from the entry's keys.
  Database keys_only;
  ASSERT_TRUE(keys_only.CreateTable(OrdersTable(ProjectionType::kKeysOnly)).ok());
  MustPut(keys_only, "Orders", Order("USER#1", "ORDER#4", 4));
  auto projected = keys_only.QueryView(query);
  ASSERT_TRUE(projected.ok());
  ASSERT_EQ(projected->items.size(), 1u);
  EXPECT_TRUE(projected->items[0] == (Item{{"PK", Value("USER#1")},
                                           {"SK", Value("ORDER#4")},
                                           {"GSI1PK", Value("STATUS#open")},
                                           {"GSI1SK", Value("ORDER#4")}}));
  EXPECT_EQ(projected->items[0].use_count(), 1u);  // this result's own
}

TEST_F(ItemViewTest, AHeldViewOutlivesOverwritesAndDeletes) {
  auto held = db_.GetItemView(Get("ORDER#1"));
  ASSERT_TRUE(held.ok());
  const Item before = held->item->ToItem();
  MustPut(db_, "Orders", Order("USER#1", "ORDER#1", 100));
  UpdateItemRequest update{.table_name = "Orders",
                           .key = Get("ORDER#1").key,
                           .update_expression = "SET n = :v",
                           .expression_attribute_values = AttributeMap{{":v", Value("changed")}}};
  ASSERT_TRUE(db_.UpdateItem(update).ok());
  EXPECT_TRUE(*held->item == before);
  ASSERT_TRUE(db_.DeleteItem({.table_name = "Orders", .key = Get("ORDER#1").key}).ok());
  ASSERT_TRUE(db_.DeleteTable({.table_name = "Orders"}).ok());
  EXPECT_TRUE(*held->item == before);  // the last reference: the table and its index are gone
  EXPECT_EQ(held->item->use_count(), 1u);
}

// Bad requests get the same DynamoDB errors from the view calls as from the tree calls (they share
// preparation and validation), and change nothing.
TEST_F(ItemViewTest, BadRequestsGetTheTreeCallsErrors) {
  const std::vector<GetItemRequest> gets = {
      {.table_name = "Missing", .key = Get("ORDER#1").key},
      {.table_name = "Orders", .key = {{"PK", Value("USER#1")}}},  // no sort key
      {.table_name = "Orders", .key = {{"PK", Value(static_cast<int64_t>(1))}, {"SK", Value("x")}}},
      {.table_name = "Orders", .key = Get("ORDER#1").key, .projection_expression = "a,,b"}};
  for (const GetItemRequest& request : gets) {
    auto tree = db_.GetItem(request);
    auto view = db_.GetItemView(request);
    ASSERT_FALSE(tree.ok());
    ASSERT_FALSE(view.ok());
    EXPECT_EQ(testing::ErrorText(view), testing::ErrorText(tree));
  }
  const std::vector<QueryRequest> queries = {
      {.table_name = "Missing",
       .key_condition_expression = "PK = :pk",
       .expression_attribute_values = AttributeMap{{":pk", Value("USER#1")}}},
      {.table_name = "Orders",
       .key_condition_expression = "n = :pk",
       .expression_attribute_values = AttributeMap{{":pk", Value("USER#1")}}},
      {.table_name = "Orders",
       .index_name = "NoSuchIndex",
       .key_condition_expression = "PK = :pk",
       .expression_attribute_values = AttributeMap{{":pk", Value("USER#1")}}}};
  for (const QueryRequest& request : queries) {
    auto tree = db_.Query(request);
    auto view = db_.QueryView(request);
    ASSERT_FALSE(tree.ok());
    ASSERT_FALSE(view.ok());
    EXPECT_EQ(testing::ErrorText(view), testing::ErrorText(tree));
  }
  const ScanRequest scan{.table_name = "Orders", .filter_expression = "n >"};
  ASSERT_FALSE(db_.ScanView(scan).ok());
  EXPECT_EQ(testing::ErrorText(db_.ScanView(scan)), testing::ErrorText(db_.Scan(scan)));
  // Nothing changed.
  auto all = db_.ScanView({.table_name = "Orders"});
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->count, 5);
}

// Readers take views of a few hot items and hold them while writers replace, update and delete
// those items. A writer always stores an item whose attributes "a" and "b" are equal; a view must
// show them equal, and unchanged when read again after the writers went on.
TEST(ItemViewConcurrentTest, ReadersHoldViewsWhileWritersReplaceAndDelete) {
  Database db;
  ASSERT_TRUE(db.CreateTable(OrdersTable(ProjectionType::kAll)).ok());
  constexpr int kKeys = 4;
  constexpr int kWrites = 800;
  constexpr int64_t kMinViews = 200;  // the writers go on until the readers took this many
  std::atomic<bool> done{false};
  std::atomic<int> readers_started{0};
  std::atomic<int64_t> views{0};
  auto key = [](int k) {
    return Item{{"PK", Value("HOT")}, {"SK", Value("K" + std::to_string(k))}};
  };
  std::vector<std::thread> threads;
  for (int w = 0; w < 2; ++w) {
    threads.emplace_back([&, w] {
      while (readers_started.load() < 2) std::this_thread::yield();
      for (int i = 0; i < kWrites || (views.load() < kMinViews && i < 200 * kWrites); ++i) {
        const int k = (i + w) % kKeys;
        const std::string v = std::to_string(w) + ":" + std::to_string(i);
        if (i % 7 == 3) {
          ASSERT_TRUE(db.DeleteItem({.table_name = "Orders", .key = key(k)}).ok());
        } else if (i % 3 == 0) {
          UpdateItemRequest update{.table_name = "Orders",
                                   .key = key(k),
                                   .update_expression = "SET a = :v, b = :v",
                                   .expression_attribute_values = AttributeMap{{":v", Value(v)}}};
          ASSERT_TRUE(db.UpdateItem(update).ok());
        } else {
          Item item = key(k);
          item.insert_or_assign("a", Value(v));
          item.insert_or_assign("b", Value(v));
          item.insert_or_assign("GSI1PK", Value("G"));
          item.insert_or_assign("GSI1SK", Value(v));
          ASSERT_TRUE(db.PutItem({.table_name = "Orders", .item = std::move(item)}).ok());
        }
      }
    });
  }
  auto consistent = [](const StoredItem& item) {
    return item.Find("a").has_value() && *item.Find("a") == *item.Find("b");
  };
  for (int r = 0; r < 2; ++r) {
    threads.emplace_back([&, r] {
      std::vector<std::pair<StoredItem, Item>> held;
      readers_started.fetch_add(1);
      while (!done.load(std::memory_order_relaxed)) {
        if (r == 0) {
          auto got = db.GetItemView(
              {.table_name = "Orders", .key = key(static_cast<int>(held.size()) % kKeys)});
          ASSERT_TRUE(got.ok());
          if (got->item) {
            ASSERT_TRUE(consistent(*got->item));
            held.emplace_back(*got->item, got->item->ToItem());
          }
        } else {
          auto page =
              db.QueryView({.table_name = "Orders",
                            .key_condition_expression = "PK = :pk",
                            .expression_attribute_values = AttributeMap{{":pk", Value("HOT")}}});
          ASSERT_TRUE(page.ok());
          for (const StoredItem& item : page->items) {
            ASSERT_TRUE(consistent(item));
            held.emplace_back(item, item.ToItem());
          }
        }
        views.fetch_add(1, std::memory_order_relaxed);
        if (held.size() > 64) {
          for (const auto& [view, when_read] : held) ASSERT_TRUE(view == when_read);
          held.clear();
        }
      }
      for (const auto& [view, when_read] : held) ASSERT_TRUE(view == when_read);
    });
  }
  threads[0].join();
  threads[1].join();
  done.store(true);
  for (size_t t = 2; t < threads.size(); ++t) threads[t].join();
  EXPECT_GE(views.load(), kMinViews);
}

}  // namespace
}  // namespace partstore
