// TTL's cache expiry mode (partstore/time_to_live.h, ExpiryMode::kCache): an expired item is
// invisible to every read and write the instant it expires, though the sweeper has not deleted it
// (a long expiry delay keeps it stored). A model-based test runs random puts, updates, deletes,
// conditional writes and clock steps against a model of what is live, and checks every read
// kind after each step: GetItem, BatchGetItem, TransactGetItems, Query, Scan, and Query and Scan
// of a KEYS_ONLY GSI (whose entries do not carry the TTL attribute).
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <utility>

#include "partstore/database.h"
#include "shard/database_state.h"
#include "tests/shard/database_testutil.h"

namespace partstore::testing {
namespace {

constexpr int64_t kEpoch = 1'800'000'000;  // Unix seconds at the manual clock's zero

class CacheExpiryTest : public ::testing::Test {
 protected:
  explicit CacheExpiryTest(ExpiryMode mode = ExpiryMode::kCache)
      : clock_(std::make_shared<capacity::ManualClock>()), db_(Options(mode)) {
    CreateTableRequest table = SimpleTable("Cache", StringKeys());
    table.attribute_definitions.push_back({"G", KeyType::kString});
    GlobalSecondaryIndex gsi;
    gsi.index_name = "ByG";
    gsi.key_schema = {{"G", KeyRoleName::kHash}};
    gsi.projection.projection_type = ProjectionType::kKeysOnly;  // no TTL attribute in entries
    table.global_secondary_indexes.push_back(gsi);
    auto created = db_.CreateTable(table);
    EXPECT_TRUE(created.ok()) << created.status().ToString();
    EXPECT_TRUE(db_.UpdateTimeToLive({"Cache", {"exp", true}}).ok());
  }

  DatabaseOptions Options(ExpiryMode mode) {
    DatabaseOptions options;
    options.capacity.enabled = true;  // AdvanceClock needs the simulation on
    options.capacity.clock = clock_;
    options.time_to_live.epoch_at_clock_zero = kEpoch;
    options.time_to_live.expiry_mode = mode;
    // The sweeper deletes nothing during a test: what hides expired items is the mode alone.
    options.time_to_live.expiry_delay_seconds = 1e6;
    return options;
  }

  static Value Epoch(double offset) {
    return Value(Number::Parse(std::to_string(static_cast<double>(kEpoch) + offset)).value());
  }
  static Item Key(const std::string& pk, const std::string& sk) {
    return {{"PK", Value(pk)}, {"SK", Value(sk)}};
  }
  void Put(const std::string& pk, const std::string& sk, std::optional<double> expires) {
    Item item = Key(pk, sk);
    item["G"] = Value("g");
    if (expires) item["exp"] = Epoch(*expires);
    MustPut(db_, "Cache", std::move(item));
  }
  void Advance(double seconds) {
    auto advanced = db_.AdvanceClock({seconds});
    ASSERT_TRUE(advanced.ok()) << advanced.status().ToString();
  }
  bool Exists(const std::string& pk, const std::string& sk) {
    return MustGet(db_, "Cache", Key(pk, sk)).has_value();
  }
  int64_t ScanCount(std::optional<std::string> index = std::nullopt) {
    ScanRequest scan;
    scan.table_name = "Cache";
    scan.index_name = index;
    auto scanned = db_.Scan(scan);
    EXPECT_TRUE(scanned.ok()) << scanned.status().ToString();
    return scanned.ok() ? scanned->count : -1;
  }
  int64_t IndexQueryCount() {
    QueryRequest query;
    query.table_name = "Cache";
    query.index_name = "ByG";
    query.key_condition_expression = "G = :g";
    query.expression_attribute_values = AttributeMap{{":g", Value("g")}};
    auto found = db_.Query(query);
    EXPECT_TRUE(found.ok()) << found.status().ToString();
    return found.ok() ? found->count : -1;
  }
  int64_t StoredItems() { return internal::GetTable(db_, "Cache").value()->item_count(); }
  uint64_t Reclaimed() { return internal::GetTable(db_, "Cache").value()->expired_items(); }

  std::shared_ptr<capacity::ManualClock> clock_;
  Database db_;
};

TEST_F(CacheExpiryTest, AnItemVanishesAtItsInstantThoughStillStored) {
  Put("a", "1", 10);
  Put("a", "2", std::nullopt);
  Advance(10);  // now == the expiry: not yet before now
  EXPECT_TRUE(Exists("a", "1"));
  Advance(0.001);
  EXPECT_FALSE(Exists("a", "1"));
  EXPECT_TRUE(Exists("a", "2"));
  EXPECT_EQ(StoredItems(), 2) << "not deleted: the sweeper's delay has not passed";
  EXPECT_EQ(ScanCount(), 1);
  EXPECT_EQ(ScanCount("ByG"), 1);
  EXPECT_EQ(IndexQueryCount(), 1);
}

TEST_F(CacheExpiryTest, WritesFindNoItemAndReclaimIt) {
  Put("a", "1", 5);
  Advance(6);
  // A condition sees no item; ALL_OLD returns none; the write reclaims the expired one.
  PutItemRequest put;
  put.table_name = "Cache";
  put.item = Key("a", "1");
  put.condition_expression = "attribute_not_exists(PK)";
  put.return_values = ReturnValue::kAllOld;
  auto stored = db_.PutItem(put);
  ASSERT_TRUE(stored.ok()) << stored.status().ToString();
  EXPECT_FALSE(stored->attributes.has_value());
  EXPECT_EQ(Reclaimed(), 1u);
  EXPECT_EQ(StoredItems(), 1);
  EXPECT_EQ(ScanCount("ByG"), 0) << "the expired item's GSI entry left with it";

  // An update starts from an empty item.
  Put("b", "1", 5 + 6);
  Advance(6);
  UpdateItemRequest update;
  update.table_name = "Cache";
  update.key = Key("b", "1");
  update.update_expression = "ADD n :one";
  update.expression_attribute_values = AttributeMap{{":one", N("1")}};
  update.return_values = ReturnValue::kAllNew;
  auto updated = db_.UpdateItem(update);
  ASSERT_TRUE(updated.ok()) << updated.status().ToString();
  ASSERT_TRUE(updated->attributes.has_value());
  EXPECT_EQ(*updated->attributes, (Item{{"PK", Value("b")}, {"SK", Value("1")}, {"n", N("1")}}));

  // A delete of an expired item deletes nothing visible: ALL_OLD is empty, a condition on it fails.
  Put("c", "1", 12 + 1);
  Advance(2);
  DeleteItemRequest del;
  del.table_name = "Cache";
  del.key = Key("c", "1");
  del.condition_expression = "attribute_exists(PK)";
  EXPECT_EQ(db_.DeleteItem(del).status().code(), Code::kConditionalCheckFailed);
  EXPECT_EQ(StoredItems(), 2) << "reclaimed though the condition failed";

  // A transaction's condition check sees no item either.
  Put("d", "1", 14 + 1);
  Advance(2);
  TransactWriteItemsRequest transaction;
  TransactWriteItem check;
  check.condition_check = ConditionCheckRequest{.table_name = "Cache",
                                                .key = Key("d", "1"),
                                                .condition_expression = "attribute_not_exists(PK)"};
  transaction.transact_items.push_back(check);
  EXPECT_TRUE(db_.TransactWriteItems(transaction).ok());
}

TEST_F(CacheExpiryTest, ModelOfLiveItemsUnderRandomOperations) {
  std::mt19937 rng(20261127);
  // (pk, sk) -> expiry offset (nullopt: never)
  std::map<std::pair<std::string, std::string>, std::optional<double>> model;
  double now = 0;
  auto live = [&](const std::optional<double>& expires) { return !expires || *expires >= now; };
  const std::vector<std::string> pks = {"p0", "p1", "p2", "p3"};
  const std::vector<std::string> sks = {"a", "b", "c", "d", "e"};
  auto pick = [&](const std::vector<std::string>& v) { return v[rng() % v.size()]; };
  for (int step = 0; step < 600; ++step) {
    const std::string pk = pick(pks);
    const std::string sk = pick(sks);
    const auto it = model.find({pk, sk});
    const bool visible = it != model.end() && live(it->second);
    switch (rng() % 6) {
      case 0:
      case 1: {  // a put, half of them with a condition that the key is free
        std::optional<double> expires;
        if (rng() % 4 != 0) expires = now + static_cast<double>(rng() % 12) - 2;
        PutItemRequest put;
        put.table_name = "Cache";
        put.item = Key(pk, sk);
        put.item["G"] = Value("g");
        if (expires) put.item["exp"] = Epoch(*expires);
        const bool conditional = rng() % 2 == 0;
        if (conditional) put.condition_expression = "attribute_not_exists(PK)";
        put.return_values = ReturnValue::kAllOld;
        auto stored = db_.PutItem(put);
        if (conditional && visible) {
          EXPECT_EQ(stored.status().code(), Code::kConditionalCheckFailed) << step;
          break;
        }
        ASSERT_TRUE(stored.ok()) << step << " " << stored.status().ToString();
        EXPECT_EQ(stored->attributes.has_value(), visible) << step;
        model[{pk, sk}] = expires;
        break;
      }
      case 2: {  // a delete returning what it deleted
        DeleteItemRequest del;
        del.table_name = "Cache";
        del.key = Key(pk, sk);
        del.return_values = ReturnValue::kAllOld;
        auto deleted = db_.DeleteItem(del);
        ASSERT_TRUE(deleted.ok()) << step;
        EXPECT_EQ(deleted->attributes.has_value(), visible) << step;
        if (it != model.end()) model.erase(it);
        break;
      }
      case 3: {  // an update that keeps the expiry: creates the item when none is visible
        UpdateItemRequest update;
        update.table_name = "Cache";
        update.key = Key(pk, sk);
        update.update_expression = "SET G = :g";
        update.expression_attribute_values = AttributeMap{{":g", Value("g")}};
        update.return_values = ReturnValue::kAllOld;
        auto updated = db_.UpdateItem(update);
        ASSERT_TRUE(updated.ok()) << step;
        EXPECT_EQ(updated->attributes.has_value(), visible) << step;
        if (!visible) model[{pk, sk}] = std::nullopt;  // a new item, without expiry
        break;
      }
      default:
        Advance(0.5 * static_cast<double>(rng() % 4));
        now = clock_->NowMicros() / 1e6;
    }

    // Every read agrees with the model.
    int64_t live_count = 0;
    std::map<std::string, int64_t> per_pk;
    for (const auto& [key, expires] : model) {
      if (!live(expires)) continue;
      ++live_count;
      ++per_pk[key.first];
    }
    ASSERT_EQ(ScanCount(), live_count) << step;
    ASSERT_EQ(ScanCount("ByG"), live_count) << step;
    ASSERT_EQ(IndexQueryCount(), live_count) << step;
    if (step % 20 != 0) continue;  // the per-key reads now and then
    BatchGetItemRequest batch;
    KeysAndAttributes keys;
    TransactGetItemsRequest transaction;
    for (const std::string& p : pks) {
      QueryRequest query;
      query.table_name = "Cache";
      query.key_condition_expression = "PK = :p";
      query.expression_attribute_values = AttributeMap{{":p", Value(p)}};
      auto found = db_.Query(query);
      ASSERT_TRUE(found.ok());
      EXPECT_EQ(found->count, per_pk[p]) << step << " " << p;
      for (const std::string& s : sks) {
        const auto m = model.find({p, s});
        EXPECT_EQ(Exists(p, s), m != model.end() && live(m->second)) << step << p << s;
        keys.keys.push_back(Key(p, s));
      }
    }
    batch.request_items.emplace_back("Cache", keys);
    auto got = db_.BatchGetItem(batch);
    ASSERT_TRUE(got.ok());
    ASSERT_EQ(got->responses.size(), 1u);
    EXPECT_EQ(static_cast<int64_t>(got->responses[0].second.size()), live_count) << step;
    for (size_t i = 0; i < 20 && i < keys.keys.size(); ++i) {
      transaction.transact_items.push_back({.get = {.table_name = "Cache", .key = keys.keys[i]}});
    }
    auto read = db_.TransactGetItems(transaction);
    ASSERT_TRUE(read.ok()) << read.status().ToString();
    for (size_t i = 0; i < read->responses.size(); ++i) {
      const Item& key = keys.keys[i];
      const auto m = model.find({key.at("PK").as_string(), key.at("SK").as_string()});
      EXPECT_EQ(read->responses[i].has_value(), m != model.end() && live(m->second)) << step;
    }
  }
}

class DynamoDbExpiryTest : public CacheExpiryTest {
 protected:
  DynamoDbExpiryTest() : CacheExpiryTest(ExpiryMode::kDynamoDb) {}
};

TEST_F(DynamoDbExpiryTest, ExpiredItemsStayVisibleToReadsAndWrites) {
  Put("a", "1", 5);
  Advance(6);
  EXPECT_TRUE(Exists("a", "1"));
  EXPECT_EQ(ScanCount(), 1);
  EXPECT_EQ(IndexQueryCount(), 1);
  PutItemRequest put;
  put.table_name = "Cache";
  put.item = Key("a", "1");
  put.condition_expression = "attribute_not_exists(PK)";
  EXPECT_EQ(db_.PutItem(put).status().code(), Code::kConditionalCheckFailed);
  EXPECT_EQ(Reclaimed(), 0u);
}

}  // namespace
}  // namespace partstore::testing
