// Database::Open: the options are checked, and a bad one is a ValidationException naming it;
// good options give a working database.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "partstore/database.h"

namespace partstore {
namespace {

TEST(DatabaseOpen, DefaultsOpenAndWork) {
  auto db = Database::Open({});
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  const KeySchema key{{"PK", KeyType::kString}, std::nullopt};
  ASSERT_TRUE((*db)->CreateTable(SimpleTable("Tab", key)).ok());
  ASSERT_TRUE((*db)->PutItem({.table_name = "Tab", .item = {{"PK", "a"}, {"n", 1}}}).ok());
  auto got = (*db)->GetItem({.table_name = "Tab", .key = {{"PK", "a"}}});
  ASSERT_TRUE(got.ok());
  ASSERT_TRUE(got->item);
  EXPECT_EQ(got->item->at("n"), Value(1));
  EXPECT_EQ((*db)->options().stripes_per_table, 64u);
  EXPECT_NE((*db)->options().capacity.clock, nullptr);  // a SystemClock was supplied
}

TEST(DatabaseOpen, EachOptionOutOfRangeIsRefusedByName) {
  const std::pair<std::string, std::function<void(DatabaseOptions&)>> cases[] = {
      {"stripes_per_table = 0", [](DatabaseOptions& o) { o.stripes_per_table = 0; }},
      {"stripes_per_table = 65537", [](DatabaseOptions& o) { o.stripes_per_table = 65537; }},
      {"item_collection_size_limit = 0",
       [](DatabaseOptions& o) { o.item_collection_size_limit = 0; }},
      {"region is empty", [](DatabaseOptions& o) { o.region.clear(); }},
      {"account_id is empty", [](DatabaseOptions& o) { o.account_id.clear(); }},
      {"capacity.partition_read_units = 0",
       [](DatabaseOptions& o) { o.capacity.partition_read_units = 0; }},
      {"capacity.partition_write_units = -5",
       [](DatabaseOptions& o) { o.capacity.partition_write_units = -5; }},
      {"capacity.burst_seconds = -1", [](DatabaseOptions& o) { o.capacity.burst_seconds = -1; }},
      {"capacity.heat_percent = 101", [](DatabaseOptions& o) { o.capacity.heat_percent = 101; }},
      {"capacity.heat_percent = 0", [](DatabaseOptions& o) { o.capacity.heat_percent = 0; }},
      {"capacity.partition_size_limit = 0",
       [](DatabaseOptions& o) { o.capacity.partition_size_limit = 0; }},
      {"capacity.on_demand_table_write_quota = 0",
       [](DatabaseOptions& o) { o.capacity.on_demand_table_write_quota = 0; }},
      {"capacity.insights_sketch_capacity = 65537 is out of range: 1..65536",
       [](DatabaseOptions& o) { o.capacity.insights_sketch_capacity = 65537; }},
      {"capacity.insights_minutes = 0",
       [](DatabaseOptions& o) { o.capacity.insights_minutes = 0; }},
      {"capacity.metric_minutes = -1", [](DatabaseOptions& o) { o.capacity.metric_minutes = -1; }},
  };
  for (const auto& [expected, change] : cases) {
    DatabaseOptions options;
    change(options);
    auto db = Database::Open(options);
    ASSERT_FALSE(db.ok()) << expected;
    EXPECT_EQ(db.status().code(), Code::kValidation) << expected;
    EXPECT_NE(db.status().message().find(expected), std::string::npos)
        << expected << " in: " << db.status().message();
  }
}

TEST(DatabaseOpen, BoundariesAreAccepted) {
  DatabaseOptions options;
  options.stripes_per_table = 1;
  options.capacity.heat_percent = 100;
  options.capacity.burst_seconds = 0;
  EXPECT_TRUE(Database::Open(options).ok());
  options.stripes_per_table = 65536;
  options.capacity.heat_percent = 1;
  options.capacity.insights_sketch_capacity = 65536;
  EXPECT_TRUE(Database::Open(options).ok());
}

}  // namespace
}  // namespace partstore
