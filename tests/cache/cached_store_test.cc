// CachedStore in front of an in-process Database: hits, misses and negative entries, TTLs,
// write-through and the pages each write drops, pass-through (with the upstream's own errors),
// coherence from the stream, the memory limit, and many threads at once.
#include "partstore/cached_store.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "partstore/clock.h"
#include "partstore/database.h"
#include "tests/testutil/filler.h"

namespace partstore {
namespace {

using capacity::ManualClock;

Item Row(const std::string& pk, const std::string& sk, const std::string& data) {
  return {{"PK", Value(pk)}, {"SK", Value(sk)}, {"data", Value(data)}};
}
Item KeyOf(const std::string& pk, const std::string& sk) {
  return {{"PK", Value(pk)}, {"SK", Value(sk)}};
}

CreateTableRequest TableWithIndex(bool stream, StreamViewType view) {
  KeySchema key;
  key.partition = KeyAttribute{"PK", KeyType::kString};
  key.sort = KeyAttribute{"SK", KeyType::kString};
  CreateTableRequest t = SimpleTable("Tab", key);
  t.attribute_definitions.push_back({"G", KeyType::kString});
  t.global_secondary_indexes.push_back(
      {.index_name = "ByG",
       .key_schema = {{"G", KeyRoleName::kHash}, {"SK", KeyRoleName::kRange}},
       .projection = {.projection_type = ProjectionType::kAll}});
  if (stream) t.stream_specification = StreamSpecification{true, view};
  return t;
}

class CachedStoreTest : public ::testing::Test {
 protected:
  void SetUp() override { Start(TableWithIndex(false, StreamViewType::kKeysOnly)); }

  void Start(const CreateTableRequest& table, CacheOptions options = {}) {
    cache_.reset();
    upstream_ = std::make_unique<Database>();
    auto created = upstream_->CreateTable(table);
    ASSERT_TRUE(created.ok()) << created.status().ToString();
    options.clock = clock_;
    auto opened = CachedStore::Open(*upstream_, options);
    ASSERT_TRUE(opened.ok()) << opened.status().ToString();
    cache_ = std::move(*opened);
  }

  // The upstream's own answer for the key (a second writer's view).
  std::optional<Item> Upstream(const Item& key) {
    auto got = upstream_->GetItem({.table_name = "Tab", .key = key, .consistent_read = true});
    EXPECT_TRUE(got.ok());
    return got->item;
  }
  std::optional<Item> Cached(const Item& key) {
    auto got = cache_->GetItem({.table_name = "Tab", .key = key});
    EXPECT_TRUE(got.ok()) << got.status().ToString();
    return got.ok() ? got->item : std::nullopt;
  }
  std::vector<Item> QueryPk(const std::string& pk) {
    auto page = cache_->Query({.table_name = "Tab",
                               .key_condition_expression = "PK = :p",
                               .expression_attribute_values = AttributeMap{{":p", Value(pk)}}});
    EXPECT_TRUE(page.ok()) << page.status().ToString();
    return page.ok() ? page->items : std::vector<Item>{};
  }
  std::vector<Item> QueryG(const std::string& g) {
    auto page = cache_->Query({.table_name = "Tab",
                               .index_name = "ByG",
                               .key_condition_expression = "G = :g",
                               .expression_attribute_values = AttributeMap{{":g", Value(g)}}});
    EXPECT_TRUE(page.ok()) << page.status().ToString();
    return page.ok() ? page->items : std::vector<Item>{};
  }

  std::shared_ptr<ManualClock> clock_ = std::make_shared<ManualClock>();
  std::unique_ptr<Database> upstream_;
  std::unique_ptr<CachedStore> cache_;
};

TEST_F(CachedStoreTest, MissThenHitWithTheCallersProjection) {
  ASSERT_TRUE(upstream_->PutItem({.table_name = "Tab", .item = Row("a", "1", "x")}).ok());
  EXPECT_EQ(Cached(KeyOf("a", "1")), Row("a", "1", "x"));
  EXPECT_EQ(cache_->stats().item_misses, 1u);
  const uint64_t calls = cache_->stats().upstream_calls;
  EXPECT_EQ(Cached(KeyOf("a", "1")), Row("a", "1", "x"));  // no hidden attribute in the answer
  auto projected = cache_->GetItem({.table_name = "Tab",
                                    .key = KeyOf("a", "1"),
                                    .projection_expression = "#d",
                                    .expression_attribute_names = expr::NameMap{{"#d", "data"}},
                                    .return_consumed_capacity = ReturnConsumedCapacity::kTotal});
  ASSERT_TRUE(projected.ok());
  EXPECT_EQ(projected->item, (Item{{"data", Value("x")}}));
  ASSERT_TRUE(projected->consumed_capacity);
  EXPECT_EQ(projected->consumed_capacity->total_half_units, 0);  // not read from the table
  auto view = cache_->GetItemView({.table_name = "Tab", .key = KeyOf("a", "1")});
  ASSERT_TRUE(view.ok() && view->item);
  EXPECT_EQ(view->item->ToItem(), Row("a", "1", "x"));
  EXPECT_EQ(cache_->stats().item_hits, 3u);
  EXPECT_EQ(cache_->stats().upstream_calls, calls);
}

TEST_F(CachedStoreTest, NoSuchItemIsCachedForTheNegativeTtl) {
  Start(TableWithIndex(false, StreamViewType::kKeysOnly),
        {.item_ttl_seconds = 100, .negative_ttl_seconds = 10});
  EXPECT_EQ(Cached(KeyOf("none", "1")), std::nullopt);
  ASSERT_TRUE(upstream_->PutItem({.table_name = "Tab", .item = Row("none", "1", "late")}).ok());
  EXPECT_EQ(Cached(KeyOf("none", "1")), std::nullopt);  // a negative hit: stale, as DAX
  EXPECT_EQ(cache_->stats().negative_hits, 1u);
  clock_->Advance(11'000'000);
  EXPECT_EQ(Cached(KeyOf("none", "1")), Row("none", "1", "late"));
  EXPECT_EQ(cache_->stats().item_misses, 2u);
}

TEST_F(CachedStoreTest, ItemsExpireAfterTheItemTtl) {
  Start(TableWithIndex(false, StreamViewType::kKeysOnly), {.item_ttl_seconds = 5});
  ASSERT_TRUE(upstream_->PutItem({.table_name = "Tab", .item = Row("a", "1", "old")}).ok());
  EXPECT_EQ(Cached(KeyOf("a", "1")), Row("a", "1", "old"));
  ASSERT_TRUE(upstream_->PutItem({.table_name = "Tab", .item = Row("a", "1", "new")}).ok());
  clock_->Advance(4'000'000);
  EXPECT_EQ(Cached(KeyOf("a", "1")), Row("a", "1", "old"));  // no stream: the TTL bounds it
  clock_->Advance(2'000'000);
  EXPECT_EQ(Cached(KeyOf("a", "1")), Row("a", "1", "new"));
}

TEST_F(CachedStoreTest, WritesGoThroughAndLeaveTheNewItemCached) {
  auto put = cache_->PutItem({.table_name = "Tab", .item = Row("a", "1", "v1")});
  ASSERT_TRUE(put.ok());
  EXPECT_FALSE(put->attributes);  // the caller asked NONE; the cache asked ALL_OLD
  EXPECT_EQ(Upstream(KeyOf("a", "1")), Row("a", "1", "v1"));
  auto old = cache_->PutItem(
      {.table_name = "Tab", .item = Row("a", "1", "v2"), .return_values = ReturnValue::kAllOld});
  ASSERT_TRUE(old.ok());
  EXPECT_EQ(old->attributes, Row("a", "1", "v1"));
  EXPECT_EQ(Cached(KeyOf("a", "1")), Row("a", "1", "v2"));
  EXPECT_EQ(cache_->stats().item_misses, 0u);

  auto updated =
      cache_->UpdateItem({.table_name = "Tab",
                          .key = KeyOf("a", "1"),
                          .update_expression = "SET #d = :v",
                          .expression_attribute_names = expr::NameMap{{"#d", "data"}},
                          .expression_attribute_values = AttributeMap{{":v", Value("v3")}}});
  ASSERT_TRUE(updated.ok());
  EXPECT_FALSE(updated->attributes);
  EXPECT_EQ(Cached(KeyOf("a", "1")), Row("a", "1", "v3"));
  EXPECT_EQ(cache_->stats().item_misses, 0u);

  // UPDATED_NEW is handed back as asked; the cache forgets the key rather than guess the item.
  auto partial =
      cache_->UpdateItem({.table_name = "Tab",
                          .key = KeyOf("a", "1"),
                          .update_expression = "SET n = :n",
                          .expression_attribute_values = AttributeMap{{":n", Value("x")}},
                          .return_values = ReturnValue::kUpdatedNew});
  ASSERT_TRUE(partial.ok());
  EXPECT_EQ(partial->attributes, (Item{{"n", Value("x")}}));
  Item full = Row("a", "1", "v3");
  full["n"] = Value("x");
  EXPECT_EQ(Cached(KeyOf("a", "1")), full);
  EXPECT_EQ(cache_->stats().item_misses, 1u);

  ASSERT_TRUE(cache_->DeleteItem({.table_name = "Tab", .key = KeyOf("a", "1")}).ok());
  EXPECT_EQ(Cached(KeyOf("a", "1")), std::nullopt);
  EXPECT_EQ(cache_->stats().negative_hits, 1u);
  EXPECT_EQ(Upstream(KeyOf("a", "1")), std::nullopt);
}

TEST_F(CachedStoreTest, AFailedConditionalWriteForgetsTheKey) {
  ASSERT_TRUE(cache_->PutItem({.table_name = "Tab", .item = Row("a", "1", "mine")}).ok());
  ASSERT_TRUE(upstream_->PutItem({.table_name = "Tab", .item = Row("a", "1", "theirs")}).ok());
  auto refused =
      cache_->PutItem({.table_name = "Tab",
                       .item = Row("a", "1", "again"),
                       .condition_expression = "#d = :mine",
                       .expression_attribute_names = expr::NameMap{{"#d", "data"}},
                       .expression_attribute_values = AttributeMap{{":mine", Value("mine")}}});
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), Code::kConditionalCheckFailed);
  EXPECT_EQ(Cached(KeyOf("a", "1")), Row("a", "1", "theirs"));
}

TEST_F(CachedStoreTest, QueryPagesAreCachedAndDroppedByWritesToTheirPartition) {
  ASSERT_TRUE(upstream_->PutItem({.table_name = "Tab", .item = Row("p", "1", "x")}).ok());
  ASSERT_TRUE(upstream_->PutItem({.table_name = "Tab", .item = Row("q", "1", "y")}).ok());
  EXPECT_EQ(QueryPk("p").size(), 1u);
  EXPECT_EQ(QueryPk("q").size(), 1u);
  EXPECT_EQ(QueryPk("p").size(), 1u);
  EXPECT_EQ(cache_->stats().query_hits, 1u);
  EXPECT_EQ(cache_->stats().query_misses, 2u);

  ASSERT_TRUE(cache_->PutItem({.table_name = "Tab", .item = Row("p", "2", "z")}).ok());
  EXPECT_EQ(QueryPk("p").size(), 2u);  // dropped: read again
  EXPECT_EQ(QueryPk("q").size(), 1u);  // another partition: still a hit
  EXPECT_EQ(cache_->stats().query_hits, 2u);
  EXPECT_EQ(cache_->stats().query_misses, 3u);

  // A second writer straight to the table, no stream: the page stays until its TTL (as DAX).
  ASSERT_TRUE(upstream_->PutItem({.table_name = "Tab", .item = Row("q", "2", "w")}).ok());
  EXPECT_EQ(QueryPk("q").size(), 1u);
  clock_->Advance(301'000'000);
  EXPECT_EQ(QueryPk("q").size(), 2u);
}

TEST_F(CachedStoreTest, AnIndexPageIsDroppedWhenItsItemMovesToAnotherIndexKey) {
  Item item = Row("p", "1", "x");
  item["G"] = Value("A");
  ASSERT_TRUE(cache_->PutItem({.table_name = "Tab", .item = item}).ok());
  EXPECT_EQ(QueryG("A").size(), 1u);
  EXPECT_EQ(QueryG("B").size(), 0u);
  auto moved =
      cache_->UpdateItem({.table_name = "Tab",
                          .key = KeyOf("p", "1"),
                          .update_expression = "SET G = :b",
                          .expression_attribute_values = AttributeMap{{":b", Value("B")}}});
  ASSERT_TRUE(moved.ok());
  EXPECT_EQ(QueryG("A").size(), 0u);
  EXPECT_EQ(QueryG("B").size(), 1u);
  // An update that leaves the index key alone keeps the other index keys' pages.
  const uint64_t hits = cache_->stats().query_hits;
  EXPECT_EQ(QueryG("A").size(), 0u);
  ASSERT_TRUE(cache_
                  ->UpdateItem({.table_name = "Tab",
                                .key = KeyOf("p", "1"),
                                .update_expression = "SET note = :o",
                                .expression_attribute_values = AttributeMap{{":o", Value("o")}}})
                  .ok());
  EXPECT_EQ(QueryG("A").size(), 0u);
  EXPECT_EQ(cache_->stats().query_hits, hits + 2);
}

TEST_F(CachedStoreTest, APageHitReportsNoConsumedCapacity) {
  ASSERT_TRUE(upstream_->PutItem({.table_name = "Tab", .item = Row("p", "1", "x")}).ok());
  QueryRequest query{.table_name = "Tab",
                     .key_condition_expression = "PK = :p",
                     .expression_attribute_values = AttributeMap{{":p", Value("p")}},
                     .return_consumed_capacity = ReturnConsumedCapacity::kTotal};
  auto miss = cache_->Query(query);
  auto hit = cache_->Query(query);
  ASSERT_TRUE(miss.ok() && hit.ok());
  ASSERT_TRUE(miss->consumed_capacity && hit->consumed_capacity);
  EXPECT_GT(miss->consumed_capacity->total_half_units, 0);  // the table's answer
  EXPECT_EQ(hit->consumed_capacity->total_half_units, 0);
  EXPECT_EQ(hit->consumed_capacity->table_name, "Tab");
  EXPECT_EQ(cache_->stats().query_hits, 1u);
}

// A table deleted and created again through the cache: the reading thread's pinned table (the
// hit path's) is the old one, and must not answer.
TEST_F(CachedStoreTest, ATableCreatedAgainIsNotAnsweredFromTheOldOne) {
  ASSERT_TRUE(cache_->PutItem({.table_name = "Tab", .item = Row("a", "1", "old")}).ok());
  EXPECT_EQ(Cached(KeyOf("a", "1")), Row("a", "1", "old"));  // a hit: the table is pinned
  ASSERT_TRUE(cache_->DeleteTable({.table_name = "Tab"}).ok());
  ASSERT_TRUE(cache_->CreateTable(TableWithIndex(false, StreamViewType::kKeysOnly)).ok());
  ASSERT_TRUE(upstream_->PutItem({.table_name = "Tab", .item = Row("a", "1", "new")}).ok());
  EXPECT_EQ(Cached(KeyOf("a", "1")), Row("a", "1", "new"));
}

TEST_F(CachedStoreTest, ScanPagesAreDroppedByAnyWrite) {
  ASSERT_TRUE(upstream_->PutItem({.table_name = "Tab", .item = Row("p", "1", "x")}).ok());
  auto scan = [&] {
    auto page = cache_->Scan({.table_name = "Tab"});
    EXPECT_TRUE(page.ok());
    return page.ok() ? page->count : -1;
  };
  EXPECT_EQ(scan(), 1);
  EXPECT_EQ(scan(), 1);
  EXPECT_EQ(cache_->stats().query_hits, 1u);
  ASSERT_TRUE(cache_->PutItem({.table_name = "Tab", .item = Row("z", "9", "x")}).ok());
  EXPECT_EQ(scan(), 2);
}

TEST_F(CachedStoreTest, StronglyConsistentReadsAndTransactGetItemsPassThrough) {
  ASSERT_TRUE(upstream_->PutItem({.table_name = "Tab", .item = Row("a", "1", "old")}).ok());
  EXPECT_EQ(Cached(KeyOf("a", "1")), Row("a", "1", "old"));
  ASSERT_TRUE(upstream_->PutItem({.table_name = "Tab", .item = Row("a", "1", "new")}).ok());
  auto strong =
      cache_->GetItem({.table_name = "Tab", .key = KeyOf("a", "1"), .consistent_read = true});
  ASSERT_TRUE(strong.ok());
  EXPECT_EQ(strong->item, Row("a", "1", "new"));
  auto transact = cache_->TransactGetItems(
      {.transact_items = {{.get = {.table_name = "Tab", .key = KeyOf("a", "1")}}}});
  ASSERT_TRUE(transact.ok());
  EXPECT_EQ(transact->responses.at(0), Row("a", "1", "new"));
  EXPECT_EQ(cache_->stats().passed_through, 2u);
}

TEST_F(CachedStoreTest, ErrorsAreTheUpstreamsOwn) {
  auto expect_same = [&](const GetItemRequest& request) {
    auto direct = upstream_->GetItem(request);
    auto cached = cache_->GetItem(request);
    ASSERT_FALSE(direct.ok());
    ASSERT_FALSE(cached.ok());
    EXPECT_EQ(cached.status().code(), direct.status().code());
    EXPECT_EQ(cached.status().message(), direct.status().message());
  };
  expect_same({.table_name = "Missing", .key = KeyOf("a", "1")});
  expect_same({.table_name = "Tab", .key = {{"PK", Value("a")}}});
  expect_same({.table_name = "Tab", .key = KeyOf("a", "1"), .projection_expression = "#nope"});
  auto query = cache_->Query({.table_name = "Tab",
                              .key_condition_expression = "SK = :s",
                              .expression_attribute_values = AttributeMap{{":s", Value("1")}}});
  auto direct = upstream_->Query({.table_name = "Tab",
                                  .key_condition_expression = "SK = :s",
                                  .expression_attribute_values = AttributeMap{{":s", Value("1")}}});
  ASSERT_FALSE(query.ok());
  EXPECT_EQ(query.status().message(), direct.status().message());
}

TEST_F(CachedStoreTest, BatchGetItemMixesHitsMissesAndAbsentKeys) {
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(
        upstream_->PutItem({.table_name = "Tab", .item = Row("b", std::to_string(i), "v")}).ok());
  }
  EXPECT_TRUE(Cached(KeyOf("b", "0")));
  BatchGetItemRequest batch;
  KeysAndAttributes keys{.projection_expression = "SK"};
  for (const char* sk : {"0", "1", "2", "9"}) keys.keys.push_back(KeyOf("b", sk));
  batch.request_items.emplace_back("Tab", keys);
  auto sorted = [](std::vector<Item> items) {
    std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
      return a.at("SK").as_string() < b.at("SK").as_string();
    });
    return items;
  };
  auto first = cache_->BatchGetItem(batch);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  auto direct = upstream_->BatchGetItem(batch);
  ASSERT_TRUE(direct.ok());
  ASSERT_EQ(first->responses.size(), 1u);
  EXPECT_EQ(sorted(first->responses[0].second), sorted(direct->responses[0].second));
  EXPECT_EQ(cache_->stats().item_misses, 4u);  // "0" by GetItem, then 1, 2, 9
  auto second = cache_->BatchGetItem(batch);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(sorted(second->responses[0].second), sorted(direct->responses[0].second));
  EXPECT_EQ(cache_->stats().item_misses, 4u);
  EXPECT_EQ(cache_->stats().negative_hits, 1u);
}

TEST_F(CachedStoreTest, BatchWritesAndTransactionsGoThrough) {
  BatchWriteItemRequest batch;
  batch.request_items.emplace_back(
      "Tab", std::vector<WriteRequest>{{WriteRequest::Kind::kPut, Row("w", "1", "a")},
                                       {WriteRequest::Kind::kPut, Row("w", "2", "b")}});
  ASSERT_TRUE(cache_->BatchWriteItem(batch).ok());
  EXPECT_EQ(Cached(KeyOf("w", "1")), Row("w", "1", "a"));
  EXPECT_EQ(cache_->stats().item_misses, 0u);
  EXPECT_EQ(QueryPk("w").size(), 2u);

  TransactWriteItemsRequest transaction;
  transaction.transact_items.push_back(
      {.put = PutItemRequest{.table_name = "Tab", .item = Row("w", "3", "c")}});
  transaction.transact_items.push_back(
      {.update = UpdateItemRequest{
           .table_name = "Tab",
           .key = KeyOf("w", "1"),
           .update_expression = "SET #d = :d",
           .expression_attribute_names = expr::NameMap{{"#d", "data"}},
           .expression_attribute_values = AttributeMap{{":d", Value("changed")}}}});
  ASSERT_TRUE(cache_->TransactWriteItems(transaction).ok());
  EXPECT_EQ(Cached(KeyOf("w", "3")), Row("w", "3", "c"));
  EXPECT_EQ(Cached(KeyOf("w", "1")), Row("w", "1", "changed"));  // forgotten, then read
  EXPECT_EQ(QueryPk("w").size(), 3u);
}

TEST_F(CachedStoreTest, APartiqlWriteForgetsItsTable) {
  ASSERT_TRUE(cache_->PutItem({.table_name = "Tab", .item = Row("s", "1", "a")}).ok());
  ASSERT_TRUE(cache_
                  ->ExecuteStatement(
                      {.statement = "UPDATE \"Tab\" SET data = 'b' WHERE PK = 's' AND SK = '1'"})
                  .ok());
  EXPECT_EQ(Cached(KeyOf("s", "1")), Row("s", "1", "b"));
}

TEST_F(CachedStoreTest, TheStreamKeepsItemsAndPagesCoherentWithOtherWriters) {
  Start(TableWithIndex(true, StreamViewType::kNewAndOldImages),
        {.follow_streams = true, .stream_poll_interval = std::chrono::minutes(1)});
  Item item = Row("p", "1", "old");
  item["G"] = Value("A");
  ASSERT_TRUE(upstream_->PutItem({.table_name = "Tab", .item = item}).ok());
  EXPECT_EQ(Cached(KeyOf("p", "1")), item);
  EXPECT_EQ(QueryPk("p").size(), 1u);
  EXPECT_EQ(QueryG("A").size(), 1u);
  EXPECT_EQ(QueryG("B").size(), 0u);

  Item moved = Row("p", "1", "new");
  moved["G"] = Value("B");
  ASSERT_TRUE(upstream_->PutItem({.table_name = "Tab", .item = moved}).ok());
  ASSERT_TRUE(upstream_->PutItem({.table_name = "Tab", .item = Row("p", "2", "x")}).ok());
  EXPECT_EQ(Cached(KeyOf("p", "1")), item);  // not yet polled
  cache_->PollStreams();
  EXPECT_EQ(cache_->stats().stream_records, 2u);
  const uint64_t misses = cache_->stats().item_misses;
  EXPECT_EQ(Cached(KeyOf("p", "1")), moved);  // refreshed from the record's new image
  EXPECT_EQ(cache_->stats().item_misses, misses);
  EXPECT_EQ(QueryPk("p").size(), 2u);
  EXPECT_EQ(QueryG("A").size(), 0u);
  EXPECT_EQ(QueryG("B").size(), 1u);

  ASSERT_TRUE(upstream_->DeleteItem({.table_name = "Tab", .key = KeyOf("p", "1")}).ok());
  cache_->PollStreams();
  EXPECT_EQ(Cached(KeyOf("p", "1")), std::nullopt);
  EXPECT_EQ(cache_->stats().item_misses, misses);  // "no such item", from the REMOVE record
}

TEST_F(CachedStoreTest, AKeysOnlyStreamForgetsTheChangedKeys) {
  Start(TableWithIndex(true, StreamViewType::kKeysOnly),
        {.stream_poll_interval = std::chrono::minutes(1)});
  ASSERT_TRUE(upstream_->PutItem({.table_name = "Tab", .item = Row("k", "1", "old")}).ok());
  EXPECT_EQ(Cached(KeyOf("k", "1")), Row("k", "1", "old"));
  ASSERT_TRUE(upstream_->PutItem({.table_name = "Tab", .item = Row("k", "1", "new")}).ok());
  cache_->PollStreams();
  EXPECT_EQ(Cached(KeyOf("k", "1")), Row("k", "1", "new"));
  EXPECT_EQ(cache_->stats().item_misses, 2u);
}

TEST_F(CachedStoreTest, TheMemoryLimitEvictsLeastRecentlyUsedEntries) {
  Start(TableWithIndex(false, StreamViewType::kKeysOnly), {.memory_limit_bytes = 1 << 20});
  const std::string payload = partstore::testing::Filler(2000);
  for (int i = 0; i < 2000; ++i) {
    ASSERT_TRUE(
        cache_->PutItem({.table_name = "Tab", .item = Row("e" + std::to_string(i), "1", payload)})
            .ok());
  }
  const CacheStats stats = cache_->stats();
  EXPECT_GT(stats.evicted_items, 0u);
  EXPECT_LE(stats.memory_bytes, int64_t{1} << 20);
  // Evicted or not, every answer is the table's.
  for (int i = 0; i < 2000; i += 97) {
    EXPECT_EQ(Cached(KeyOf("e" + std::to_string(i), "1")),
              Row("e" + std::to_string(i), "1", payload));
  }
}

TEST_F(CachedStoreTest, OptionsOutOfRangeAreRefused) {
  Database db;
  EXPECT_FALSE(CachedStore::Open(db, {.item_ttl_seconds = 0}).ok());
  EXPECT_FALSE(CachedStore::Open(db, {.negative_ttl_seconds = -1}).ok());
  EXPECT_FALSE(CachedStore::Open(db, {.query_ttl_seconds = 0}).ok());
  EXPECT_FALSE(CachedStore::Open(db, {.memory_limit_bytes = 1000}).ok());
  EXPECT_FALSE(CachedStore::Open(db, {.stream_poll_interval = std::chrono::milliseconds(0)}).ok());
}

TEST_F(CachedStoreTest, PrometheusMetricsNameEveryCounter) {
  ASSERT_TRUE(upstream_->PutItem({.table_name = "Tab", .item = Row("a", "1", "x")}).ok());
  Cached(KeyOf("a", "1"));
  Cached(KeyOf("a", "1"));
  const std::string text = cache_->PrometheusMetrics();
  EXPECT_NE(text.find("partstore_cache_item_hits_total 1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("partstore_cache_item_misses_total 1\n"), std::string::npos);
  EXPECT_NE(text.find("# TYPE partstore_cache_memory_bytes gauge"), std::string::npos);
  EXPECT_NE(text.find("partstore_cache_stream_lag_seconds 0\n"), std::string::npos);
}

// Readers and writers through one cache, a second writer straight to the table, the stream
// applied meanwhile: once everyone stops and the stream is read to its end, every cached answer
// is the table's.
TEST_F(CachedStoreTest, ConcurrentReadersWritersAndTheStreamEndCoherent) {
  Start(TableWithIndex(true, StreamViewType::kNewAndOldImages),
        {.stream_poll_interval = std::chrono::milliseconds(2)});
  constexpr int kKeys = 16;
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 400; ++i) {
        const std::string sk = std::to_string((i * 7 + t) % kKeys);
        switch ((i + t) % 4) {
          case 0:
            (void)cache_->PutItem({.table_name = "Tab", .item = Row("c", sk, std::to_string(i))});
            break;
          case 1:
            (void)cache_->GetItem({.table_name = "Tab", .key = KeyOf("c", sk)});
            break;
          case 2:
            (void)cache_->Query({.table_name = "Tab",
                                 .key_condition_expression = "PK = :p",
                                 .expression_attribute_values = AttributeMap{{":p", Value("c")}}});
            break;
          default:
            (void)cache_->DeleteItem({.table_name = "Tab", .key = KeyOf("c", sk)});
        }
      }
    });
  }
  threads.emplace_back([&] {
    for (int i = 0; !stop.load(); ++i) {
      (void)upstream_->PutItem(
          {.table_name = "Tab", .item = Row("c", std::to_string(i % kKeys), "direct")});
    }
  });
  for (size_t i = 0; i + 1 < threads.size(); ++i) threads[i].join();
  stop = true;
  threads.back().join();
  cache_->PollStreams();
  cache_->PollStreams();
  for (int k = 0; k < kKeys; ++k) {
    EXPECT_EQ(Cached(KeyOf("c", std::to_string(k))), Upstream(KeyOf("c", std::to_string(k))))
        << "key " << k;
  }
  auto direct = upstream_->Query({.table_name = "Tab",
                                  .key_condition_expression = "PK = :p",
                                  .expression_attribute_values = AttributeMap{{":p", Value("c")}}});
  ASSERT_TRUE(direct.ok());
  EXPECT_EQ(QueryPk("c"), direct->items);
}

}  // namespace
}  // namespace partstore
