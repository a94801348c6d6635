// ShardedQuery against a Query of an unsharded copy: for random data, key conditions, filters,
// projections, limits and both directions, paging through ShardedQuery yields exactly the items
// the unsharded Query yields, in the same order; and continuation tokens resume every shard.
#include <gtest/gtest.h>

#include <random>

#include "tests/shard/database_testutil.h"
#include "tests/sharding/sharding_testutil.h"

namespace partstore::testing {
namespace {

using sharding::KeyMatch;
using sharding::ShardStrategy;

class ScatterGatherTest : public ::testing::TestWithParam<ShardStrategy> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.CreateTable(ShardedTestTable("Sharded")).ok());
    ASSERT_TRUE(db_.CreateTable(ShardedTestTable("Plain")).ok());
    MustSetPolicy(db_, "Sharded", Policy("USER#", 7, GetParam(), KeyMatch::kPrefix));
    MustSetPolicy(db_, "Sharded",
                  Policy("GROUP#1", 5, GetParam(), KeyMatch::kExact, std::string("GSI1")));
  }

  // The same item into both tables: through the policies into Sharded, as it is into Plain.
  void PutBoth(const Item& item) {
    PutItemRequest put{.table_name = "Plain", .item = item};
    ASSERT_TRUE(db_.PutItem(put).ok());
    put.table_name = "Sharded";
    auto sharded = db_.ShardedPutItem(put);
    ASSERT_TRUE(sharded.ok()) << sharded.status().ToString();
  }

  // Random items: three sharded users and one unsharded key, unique sort keys per user and unique
  // GSI sort keys (a GSI orders equal sort keys by the physical table key, which sharding
  // changes).
  void Load(std::mt19937& rng, int per_user) {
    int gsi = 0;
    for (const char* user : {"USER#a", "USER#b", "USER#c", "ORG#x"}) {
      std::vector<int> sorts(200);
      for (int i = 0; i < 200; ++i) sorts[i] = i;
      std::shuffle(sorts.begin(), sorts.end(), rng);
      for (int i = 0; i < per_user; ++i) {
        char sk[16];
        snprintf(sk, sizeof sk, "%c#%03d", "ABC"[sorts[i] % 3], sorts[i]);
        Item item{{"PK", user}, {"SK", sk}, {"v", static_cast<int>(rng() % 100)}};
        if (rng() % 3 != 0) {
          item.emplace("GSI1PK", rng() % 4 != 0 ? "GROUP#1" : "GROUP#2");
          char gsk[16];
          snprintf(gsk, sizeof gsk, "G%04d", static_cast<int>((gsi++ * 7919) % 10007));
          item.emplace("GSI1SK", gsk);
        }
        if (rng() % 5 == 0) item.emplace("pad", std::string(rng() % 3000, 'x'));
        PutBoth(item);
      }
    }
  }

  QueryRequest RandomQuery(std::mt19937& rng) {
    QueryRequest q;
    q.table_name = "Plain";
    AttributeMap values;
    expr::NameMap names;
    const bool index = rng() % 3 == 0;
    if (index) {
      q.index_name = "GSI1";
      q.key_condition_expression = "GSI1PK = :pk";
      values.emplace(":pk", rng() % 5 != 0 ? "GROUP#1" : "GROUP#2");
      switch (rng() % 3) {
        case 0:
          break;
        case 1:
          *q.key_condition_expression += " AND GSI1SK > :lo";
          values.emplace(":lo", "G3000");
          break;
        case 2:
          *q.key_condition_expression += " AND GSI1SK BETWEEN :lo AND :hi";
          values.emplace(":lo", "G1000");
          values.emplace(":hi", "G8000");
          break;
      }
    } else {
      q.key_condition_expression = "PK = :pk";
      const char* users[] = {"USER#a", "USER#b", "USER#c", "ORG#x", "USER#none"};
      values.emplace(":pk", users[rng() % 5]);
      switch (rng() % 4) {
        case 0:
          break;
        case 1:
          *q.key_condition_expression += " AND begins_with(SK, :p)";
          values.emplace(":p", rng() % 2 ? "A#" : "B#");
          break;
        case 2:
          *q.key_condition_expression += " AND SK BETWEEN :lo AND :hi";
          values.emplace(":lo", "A#050");
          values.emplace(":hi", "C#150");
          break;
        case 3:
          *q.key_condition_expression += " AND SK <= :hi";
          values.emplace(":hi", "B#100");
          break;
      }
    }
    if (rng() % 2 == 0) {
      q.filter_expression = "#v >= :t";
      names.emplace("#v", "v");
      values.emplace(":t", static_cast<int>(rng() % 100));
    }
    switch (rng() % 4) {
      case 0:
        q.projection_expression = "SK, PK, v, GSI1PK";
        break;
      case 1:
        q.select = Select::kCount;
        break;
      default:
        break;
    }
    if (rng() % 4 != 0) q.limit = 1 + static_cast<int>(rng() % 40);
    q.scan_index_forward = rng() % 2 == 0;
    q.expression_attribute_values = std::move(values);
    if (!names.empty()) q.expression_attribute_names = std::move(names);
    return q;
  }

  Database db_;
};

TEST_P(ScatterGatherTest, PagingMatchesAnUnshardedQuery) {
  std::mt19937 rng(GetParam() == ShardStrategy::kRandom ? 11 : 12);
  Load(rng, 120);
  int sharded_queries = 0;
  for (int round = 0; round < 300; ++round) {
    QueryRequest plain = RandomQuery(rng);
    QueryRequest sharded = plain;
    sharded.table_name = "Sharded";
    SCOPED_TRACE(*plain.key_condition_expression + " index=" + plain.index_name.value_or("-") +
                 " limit=" + std::to_string(plain.limit.value_or(0)) +
                 " forward=" + std::to_string(*plain.scan_index_forward));
    const Paged want = PageThrough([&](const QueryRequest& r) { return db_.Query(r); }, plain);
    int shards_queried = 0;
    const Paged got = PageThrough(
        [&](const QueryRequest& r) -> Result<QueryResult> {
          PARTSTORE_ASSIGN_OR_RETURN(ShardedQueryResult page, db_.ShardedQuery(r));
          shards_queried = page.shards_queried;
          return std::move(page.result);
        },
        sharded);
    if (shards_queried > 1) ++sharded_queries;
    ASSERT_EQ(got.items, want.items);
    EXPECT_EQ(got.count, want.count);
    EXPECT_EQ(got.scanned, want.scanned);
  }
  EXPECT_GT(sharded_queries, 150);  // most queries went to sharded keys
}

TEST_P(ScatterGatherTest, ConcurrentFirstReadsGiveTheSameResult) {
  std::mt19937 rng(5);
  Load(rng, 60);
  for (int round = 0; round < 40; ++round) {
    QueryRequest q = RandomQuery(rng);
    q.table_name = "Sharded";
    auto in_turn = db_.ShardedQuery(q);
    auto concurrent = db_.ShardedQuery(q, {.concurrent_first_reads = true});
    ASSERT_TRUE(in_turn.ok() && concurrent.ok());
    EXPECT_EQ(in_turn->result.items, concurrent->result.items);
    EXPECT_EQ(in_turn->result.last_evaluated_key, concurrent->result.last_evaluated_key);
  }
}

INSTANTIATE_TEST_SUITE_P(Strategies, ScatterGatherTest,
                         ::testing::Values(ShardStrategy::kRandom, ShardStrategy::kCalculated),
                         [](const auto& info) {
                           return std::string(sharding::ShardStrategyName(info.param));
                         });

// The same logical key in several shards (random-suffix writes of one key twice): every copy is
// returned exactly once, in (sort key, shard) order forward and the reverse backward, whatever the
// page size.
TEST(ScatterGatherResume, DuplicatesAcrossShardsAreNeitherLostNorRepeated) {
  Database db;
  ASSERT_TRUE(db.CreateTable(ShardedTestTable("Tbl")).ok());
  MustSetPolicy(db, "Tbl", Policy("HOT", 4, ShardStrategy::kRandom));
  // Raw physical items: sort keys 1..3 in shards 0, 2, 3; key 2 in all of them.
  for (int shard : {0, 2, 3}) {
    for (const char* sk : {"1", "2", "3"}) {
      if (std::string(sk) != "2" && shard == 2) continue;
      MustPut(db, "Tbl",
              {{"PK", "HOT#SHARD" + std::to_string(shard)},
               {"SK", sk},
               {"LogicalPK", "HOT"},
               {"shard", shard}});
    }
  }
  for (bool forward : {true, false}) {
    std::vector<std::pair<std::string, int>> want = {{"1", 0}, {"1", 3}, {"2", 0},
                                                     {"2", 2}, {"2", 3}, {"3", 0}, {"3", 3}};
    if (!forward) std::reverse(want.begin(), want.end());
    for (int limit = 1; limit <= 8; ++limit) {
      QueryRequest q{.table_name = "Tbl",
                     .key_condition_expression = "PK = :pk",
                     .expression_attribute_values = AttributeMap{{":pk", "HOT"}},
                     .limit = limit,
                     .scan_index_forward = forward};
      const Paged got = PageThrough(
          [&](const QueryRequest& r) -> Result<QueryResult> {
            PARTSTORE_ASSIGN_OR_RETURN(ShardedQueryResult page, db.ShardedQuery(r));
            return std::move(page.result);
          },
          q);
      std::vector<std::pair<std::string, int>> seen;
      for (const Item& item : got.items) {
        EXPECT_EQ(item.at("PK"), Value("HOT"));  // presented with the logical key
        EXPECT_FALSE(item.contains("LogicalPK"));
        seen.emplace_back(item.at("SK").as_string(),
                          static_cast<int>(*item.at("shard").as_number().ToInt64()));
      }
      EXPECT_EQ(seen, want) << "limit " << limit << " forward " << forward;
    }
  }
}

TEST(ScatterGatherResume, TokenIsAPhysicalKeyOfTheShardTheMergeStoppedIn) {
  Database db;
  ASSERT_TRUE(db.CreateTable(ShardedTestTable("Tbl")).ok());
  MustSetPolicy(db, "Tbl", Policy("K", 3, ShardStrategy::kCalculated));
  for (int i = 0; i < 30; ++i) {
    char sk[8];
    snprintf(sk, sizeof sk, "%02d", i);
    ASSERT_TRUE(db.ShardedPutItem({.table_name = "Tbl", .item = {{"PK", "K"}, {"SK", sk}}}).ok());
  }
  QueryRequest q{.table_name = "Tbl",
                 .key_condition_expression = "PK = :pk",
                 .expression_attribute_values = AttributeMap{{":pk", "K"}},
                 .limit = 10};
  auto page = db.ShardedQuery(q);
  ASSERT_TRUE(page.ok());
  ASSERT_EQ(page->result.items.size(), 10u);
  EXPECT_EQ(page->shards_queried, 3);
  const Item& token = *page->result.last_evaluated_key;
  EXPECT_EQ(token.at("SK"), Value("09"));
  EXPECT_TRUE(token.at("PK").as_string().starts_with("K#SHARD")) << token.at("PK").as_string();
  EXPECT_EQ(token.size(), 2u);

  // A token from another logical key (or a made-up shard) is refused, as Query refuses a start key
  // outside its key condition.
  q.exclusive_start_key = Item{{"PK", "K#SHARD7"}, {"SK", "01"}};
  EXPECT_EQ(ErrorText(db.ShardedQuery(q)),
            "The provided starting key is outside query boundaries based on provided conditions");
}

TEST(ScatterGather, ReadsAFewItemsPerShardNotLimitTimesShards) {
  Database db;
  ASSERT_TRUE(db.CreateTable(ShardedTestTable("Tbl")).ok());
  MustSetPolicy(db, "Tbl", Policy("K", 16, ShardStrategy::kCalculated));
  for (int i = 0; i < 2000; ++i) {
    ASSERT_TRUE(
        db.ShardedPutItem({.table_name = "Tbl", .item = {{"PK", "K"}, {"SK", std::to_string(i)}}})
            .ok());
  }
  QueryRequest q{.table_name = "Tbl",
                 .key_condition_expression = "PK = :pk",
                 .expression_attribute_values = AttributeMap{{":pk", "K"}},
                 .limit = 100,
                 .return_consumed_capacity = ReturnConsumedCapacity::kTotal};
  auto page = db.ShardedQuery(q);
  ASSERT_TRUE(page.ok());
  EXPECT_EQ(page->result.count, 100);
  // 16 first reads of 10 items each (1.5 x 100 / 16 + 1), plus a few refills.
  EXPECT_GE(page->shard_reads, 16);
  EXPECT_LE(page->shard_reads, 32);
  // Each shard read is charged on its own (at least 0.5 RCU each, eventually consistent).
  EXPECT_GE(page->result.consumed_capacity->CapacityUnits(), 8.0);
}

TEST(ScatterGather, TheLargestLimitReadsEverythingInOnePage) {
  Database db;
  ASSERT_TRUE(db.CreateTable(ShardedTestTable("Tbl")).ok());
  MustSetPolicy(db, "Tbl", Policy("K", 3, ShardStrategy::kRandom));
  for (int i = 0; i < 50; ++i) {
    ASSERT_TRUE(
        db.ShardedPutItem({.table_name = "Tbl", .item = {{"PK", "K"}, {"SK", std::to_string(i)}}})
            .ok());
  }
  QueryRequest q{.table_name = "Tbl",
                 .key_condition_expression = "PK = :pk",
                 .expression_attribute_values = AttributeMap{{":pk", "K"}},
                 .limit = INT32_MAX};
  auto page = db.ShardedQuery(q);
  ASSERT_TRUE(page.ok());
  EXPECT_EQ(page->result.count, 50);
  EXPECT_FALSE(page->result.last_evaluated_key);
}

TEST(ScatterGather, UnshardedKeysRunThePlainQuery) {
  Database db;
  ASSERT_TRUE(db.CreateTable(ShardedTestTable("Tbl")).ok());
  MustSetPolicy(db, "Tbl", Policy("K", 4, ShardStrategy::kRandom));
  MustPut(db, "Tbl", {{"PK", "OTHER"}, {"SK", "1"}});
  QueryRequest q{.table_name = "Tbl",
                 .key_condition_expression = "PK = :pk",
                 .expression_attribute_values = AttributeMap{{":pk", "OTHER"}}};
  auto page = db.ShardedQuery(q);
  ASSERT_TRUE(page.ok());
  EXPECT_EQ(page->shards_queried, 1);
  EXPECT_EQ(page->shard_reads, 1);
  EXPECT_EQ(page->result.count, 1);
}

TEST(ScatterGather, RequestErrorsAreQuerysErrors) {
  Database db;
  ASSERT_TRUE(db.CreateTable(ShardedTestTable("Tbl")).ok());
  MustSetPolicy(db, "Tbl", Policy("K", 4, ShardStrategy::kRandom));
  QueryRequest q{.table_name = "Tbl",
                 .key_condition_expression = "PK = :pk",
                 .filter_expression = "SK = :pk",
                 .expression_attribute_values = AttributeMap{{":pk", "K"}}};
  EXPECT_EQ(ErrorText(db.ShardedQuery(q)),
            "Filter Expression can only contain non-primary key attributes: Primary key "
            "attribute: SK");
  q.filter_expression.reset();
  q.index_name = "Nope";
  EXPECT_EQ(ErrorText(db.ShardedQuery(q)), "The table does not have the specified index: Nope");
  q.index_name.reset();
  q.key_condition_expression = "PK = :pk AND begins_with(SK, :pk)";
  EXPECT_TRUE(ErrorText(db.ShardedQuery(q)).starts_with("A sharded read needs the partition key"));
  q.key_condition_expression.reset();
  q.expression_attribute_values.reset();
  q.key_conditions = std::vector<expr::AttributeCondition>{};
  EXPECT_TRUE(ErrorText(db.ShardedQuery(q)).starts_with("Sharded reads take"));
  q.key_conditions.reset();
  q.table_name = "Missing";
  q.key_condition_expression = "PK = :pk";
  q.expression_attribute_values = AttributeMap{{":pk", "K"}};
  EXPECT_EQ(db.ShardedQuery(q).status().code(), Code::kResourceNotFound);
}

}  // namespace
}  // namespace partstore::testing
