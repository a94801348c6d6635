#include "tools/simulator/workload_toml.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "tests/simulator/workload_toml_testutil.h"

namespace partstore::sim {
namespace {

using namespace toml_testing;  // NOLINT(google-build-using-namespace): the tests' own helpers

// --- A complete workload -------------------------------------------------------------------------

constexpr std::string_view kFull = R"(name = "viral-product"
description = "A product goes viral"
seed = 42
top_n = 5

[retries]
mode = "exponential"
max_attempts = 4
base_delay = "50ms"
max_delay = "2s"
jitter = "equal"

[capacity]
heat_split_seconds = 120

[[tables]]
name = "Shop"
partition_key = "PK"
sort_key = "SK"
billing = "provisioned"
read_capacity = 3000
write_capacity = 2000
  [[tables.indexes]]
  name = "GSI1"
  partition_key = "GSI1PK"
  sort_key = "GSI1SK"
  projection = "KEYS_ONLY"
  read_capacity = 1000
  write_capacity = 500

[[tables]]
name = "Events"
partition_key = "id"
billing = "on-demand"
  [[tables.indexes]]
  name = "ByDay"
  partition_key = "day"

[[sharding]]
table = "Shop"
key = "PRODUCT#viral"
shards = 10

[[sharding]]
table = "Shop"
index = "GSI1"
prefix = "CATEGORY#"
shards = 4
strategy = "calculated"
calculated_from = "GSI1SK"
suffix = "-<n>"
logical_key_attribute = "LogicalCategory"

[[preload]]
table = "Shop"
key = "PRODUCT#{key}"
sort = "REVIEW#{item:04}"
keys = 1000
items_per_key = 10
size = { min = 100, max = 800 }
attributes = { GSI1PK = "CATEGORY#{key}", GSI1SK = "{time}" }

[[preload]]
table = "Events"
key = "EVENT#{key}"
keys = 50

[[phases]]
name = "warmup"
duration = "1.5s"
rate = 100
keys = { distribution = "uniform", count = 1000 }
  [[phases.mix]]
  op = "get"
  table = "Shop"
  key = "PRODUCT#{key}"
  sort = "REVIEW#{item:04}"
  items = 10
  consistent_read = true

[[phases]]
name = "launch"
duration = 60
rate = 5000.5
rate_end = 10000
keys = { distribution = "zipfian", count = 1000, theta = 0.8 }
  [[phases.sharding]]
  table = "Events"
  prefix = "EVENT#"
  shards = 3
  [[phases.mix]]
  op = "put"
  weight = 70
  table = "Shop"
  key = "PRODUCT#{key}"
  sort = "ORDER#{seq:08}"
  size = { mean = 400, stddev = 100, min = 200 }
  attributes = { GSI1PK = "CATEGORY#{key}" }
  [[phases.mix]]
  op = "update"
  weight = 2.5
  table = "Shop"
  key = "PRODUCT#viral"
  sort = "META"
  size = 250
  counter = "views"
  attributes = { status = "hot" }
  keys = { distribution = "hot-key", key = 7 }
  [[phases.mix]]
  op = "query"
  table = "Shop"
  index = "GSI1"
  key = "CATEGORY#{key}"
  sort_prefix = "0000"
  limit = 20
  scan_forward = false
  consistent_read = false
  keys = { distribution = "hotspot", count = 100, hot_keys = 0.1, hot_traffic = 0.9 }
  [[phases.mix]]
  op = "scan"
  table = "Events"
  limit = 100
  consistent_read = true
  [[phases.mix]]
  op = "batch_write"
  table = "Events"
  key = "EVENT#{key}"
  batch = 25
  keys = { distribution = "time-ordered", bucket = "250ms" }
  [[phases.mix]]
  op = "batch_get"
  table = "Events"
  key = "EVENT#{key}"
  batch = 100
  consistent_read = true
  [[phases.mix]]
  op = "transact_write"
  table = "Shop"
  key = "CART#{key}"
  sort = "ITEM#{item}"
  batch = 4
  [[phases.mix]]
  op = "transact_get"
  table = "Shop"
  key = "CART#{key}"
  sort = "ITEM#{item}"
  batch = 2
  [[phases.mix]]
  op = "delete"
  table = "Events"
  key = "EVENT#{key}"
)";

TEST(WorkloadTomlTest, ParsesEveryKey) {
  const Workload w = MustParse(kFull);
  EXPECT_EQ(w.name, "viral-product");
  EXPECT_EQ(w.description, "A product goes viral");
  EXPECT_EQ(w.seed, 42u);
  EXPECT_EQ(w.top_n, 5);
  EXPECT_EQ(w.retries.mode, RetryPolicy::Mode::kExponential);
  EXPECT_EQ(w.retries.max_attempts, 4);
  EXPECT_EQ(w.retries.base_micros, 50'000);
  EXPECT_EQ(w.retries.max_backoff_micros, 2'000'000);
  EXPECT_EQ(w.retries.jitter, RetryPolicy::Jitter::kEqual);
  EXPECT_EQ(w.heat_split_seconds, 120);

  ASSERT_EQ(w.tables.size(), 2u);
  const TableSpec& shop = w.tables[0];
  EXPECT_EQ(shop.name, "Shop");
  EXPECT_EQ(shop.partition_key, "PK");
  EXPECT_EQ(shop.sort_key, "SK");
  EXPECT_FALSE(shop.on_demand);
  EXPECT_EQ(shop.read_capacity, 3000);
  EXPECT_EQ(shop.write_capacity, 2000);
  ASSERT_EQ(shop.indexes.size(), 1u);
  EXPECT_EQ(shop.indexes[0].name, "GSI1");
  EXPECT_EQ(shop.indexes[0].partition_key, "GSI1PK");
  EXPECT_EQ(shop.indexes[0].sort_key, "GSI1SK");
  EXPECT_EQ(shop.indexes[0].projection, "KEYS_ONLY");
  EXPECT_EQ(shop.indexes[0].read_capacity, 1000);
  EXPECT_EQ(shop.indexes[0].write_capacity, 500);
  const TableSpec& events = w.tables[1];
  EXPECT_EQ(events.name, "Events");
  EXPECT_EQ(events.sort_key, std::nullopt);
  EXPECT_TRUE(events.on_demand);
  EXPECT_EQ(events.read_capacity, 0);
  ASSERT_EQ(events.indexes.size(), 1u);
  EXPECT_EQ(events.indexes[0].sort_key, std::nullopt);
  EXPECT_EQ(events.indexes[0].projection, "ALL");

  ASSERT_EQ(w.sharding.size(), 2u);
  EXPECT_EQ(w.sharding[0].table, "Shop");
  EXPECT_EQ(w.sharding[0].policy.index_name, std::nullopt);
  EXPECT_EQ(w.sharding[0].policy.key, "PRODUCT#viral");
  EXPECT_EQ(w.sharding[0].policy.match, KeyMatch::kExact);
  EXPECT_EQ(w.sharding[0].policy.shard_count, 10);
  EXPECT_EQ(w.sharding[0].policy.strategy, ShardStrategy::kRandom);
  EXPECT_EQ(w.sharding[0].policy.suffix_format, "#SHARD<n>");
  EXPECT_EQ(w.sharding[0].policy.calculated_from, std::nullopt);
  EXPECT_EQ(w.sharding[0].policy.logical_key_attribute, "");
  const sharding::ShardingPolicy& category = w.sharding[1].policy;
  EXPECT_EQ(category.index_name, "GSI1");
  EXPECT_EQ(category.key, "CATEGORY#");
  EXPECT_EQ(category.match, KeyMatch::kPrefix);
  EXPECT_EQ(category.shard_count, 4);
  EXPECT_EQ(category.strategy, ShardStrategy::kCalculated);
  EXPECT_EQ(category.calculated_from, "GSI1SK");
  EXPECT_EQ(category.suffix_format, "-<n>");
  EXPECT_EQ(category.logical_key_attribute, "LogicalCategory");

  ASSERT_EQ(w.preload.size(), 2u);
  const Preload& reviews = w.preload[0];
  EXPECT_EQ(reviews.table, "Shop");
  EXPECT_EQ(reviews.key.text(), "PRODUCT#{key}");
  EXPECT_EQ(Text(reviews.sort), "REVIEW#{item:04}");
  EXPECT_EQ(reviews.keys, 1000);
  EXPECT_EQ(reviews.items_per_key, 10);
  EXPECT_EQ(reviews.size.kind, SizeDistribution::Kind::kUniform);
  EXPECT_EQ(reviews.size.min, 100);
  EXPECT_EQ(reviews.size.max, 800);
  ASSERT_EQ(reviews.attributes.size(), 2u);
  EXPECT_EQ(reviews.attributes[0].first, "GSI1PK");
  EXPECT_EQ(reviews.attributes[0].second.text(), "CATEGORY#{key}");
  EXPECT_EQ(reviews.attributes[1].first, "GSI1SK");
  EXPECT_EQ(reviews.attributes[1].second.Expand({.time_millis = 5}), "000000000005");
  EXPECT_EQ(w.preload[1].sort, std::nullopt);
  EXPECT_EQ(w.preload[1].keys, 50);

  ASSERT_EQ(w.phases.size(), 2u);
  const Phase& warmup = w.phases[0];
  EXPECT_EQ(warmup.name, "warmup");
  EXPECT_EQ(warmup.duration_micros, 1'500'000);
  EXPECT_EQ(warmup.rate, 100);
  EXPECT_EQ(warmup.rate_end, std::nullopt);
  EXPECT_EQ(warmup.keys.kind, KeyDistribution::Kind::kUniform);
  EXPECT_EQ(warmup.keys.count, 1000);
  ASSERT_EQ(warmup.mix.size(), 1u);
  EXPECT_EQ(warmup.mix[0].kind, OpKind::kGet);
  EXPECT_EQ(warmup.mix[0].items, 10);
  EXPECT_TRUE(warmup.mix[0].consistent_read);
  EXPECT_EQ(Text(warmup.mix[0].sort), "REVIEW#{item:04}");

  const Phase& launch = w.phases[1];
  EXPECT_EQ(launch.duration_micros, 60'000'000);
  EXPECT_EQ(launch.rate, 5000.5);
  EXPECT_EQ(launch.rate_end, 10000);
  EXPECT_EQ(launch.keys.kind, KeyDistribution::Kind::kZipfian);
  EXPECT_EQ(launch.keys.count, 1000);
  EXPECT_EQ(launch.keys.theta, 0.8);
  ASSERT_EQ(launch.sharding.size(), 1u);
  EXPECT_EQ(launch.sharding[0].table, "Events");
  EXPECT_EQ(launch.sharding[0].policy.match, KeyMatch::kPrefix);
  EXPECT_EQ(launch.sharding[0].policy.shard_count, 3);
  ASSERT_EQ(launch.mix.size(), 9u);

  const Operation& put = launch.mix[0];
  EXPECT_EQ(put.kind, OpKind::kPut);
  EXPECT_EQ(put.weight, 70);
  EXPECT_EQ(put.table, "Shop");
  EXPECT_EQ(put.key.text(), "PRODUCT#{key}");
  EXPECT_EQ(Text(put.sort), "ORDER#{seq:08}");
  ASSERT_TRUE(put.size.has_value());
  EXPECT_EQ(put.size->kind, SizeDistribution::Kind::kNormal);
  EXPECT_EQ(put.size->mean, 400);
  EXPECT_EQ(put.size->stddev, 100);
  EXPECT_EQ(put.size->min, 200);
  EXPECT_EQ(put.size->max, 409'600);
  ASSERT_EQ(put.attributes.size(), 1u);
  EXPECT_EQ(put.attributes[0].first, "GSI1PK");
  EXPECT_EQ(put.keys, std::nullopt);

  const Operation& update = launch.mix[1];
  EXPECT_EQ(update.kind, OpKind::kUpdate);
  EXPECT_EQ(update.weight, 2.5);
  EXPECT_EQ(update.counter, "views");
  ASSERT_TRUE(update.size.has_value());
  EXPECT_EQ(update.size->kind, SizeDistribution::Kind::kFixed);
  EXPECT_EQ(update.size->bytes, 250);
  ASSERT_TRUE(update.keys.has_value());
  EXPECT_EQ(update.keys->kind, KeyDistribution::Kind::kHotKey);
  EXPECT_EQ(update.keys->hot_key, 7);

  const Operation& query = launch.mix[2];
  EXPECT_EQ(query.kind, OpKind::kQuery);
  EXPECT_EQ(query.index, "GSI1");
  EXPECT_EQ(Text(query.sort_prefix), "0000");
  EXPECT_EQ(query.sort, std::nullopt);
  EXPECT_EQ(query.limit, 20);
  EXPECT_FALSE(query.scan_forward);
  EXPECT_FALSE(query.consistent_read);
  ASSERT_TRUE(query.keys.has_value());
  EXPECT_EQ(query.keys->kind, KeyDistribution::Kind::kHotspot);
  EXPECT_EQ(query.keys->count, 100);
  EXPECT_EQ(query.keys->hot_keys, 0.1);
  EXPECT_EQ(query.keys->hot_traffic, 0.9);

  const Operation& scan = launch.mix[3];
  EXPECT_EQ(scan.kind, OpKind::kScan);
  EXPECT_TRUE(scan.key.empty());
  EXPECT_EQ(scan.limit, 100);
  EXPECT_TRUE(scan.consistent_read);

  const Operation& batch_write = launch.mix[4];
  EXPECT_EQ(batch_write.kind, OpKind::kBatchWrite);
  EXPECT_EQ(batch_write.batch, 25);
  ASSERT_TRUE(batch_write.keys.has_value());
  EXPECT_EQ(batch_write.keys->kind, KeyDistribution::Kind::kTimeOrdered);
  EXPECT_EQ(batch_write.keys->bucket_micros, 250'000);

  EXPECT_EQ(launch.mix[5].kind, OpKind::kBatchGet);
  EXPECT_EQ(launch.mix[5].batch, 100);
  EXPECT_TRUE(launch.mix[5].consistent_read);
  EXPECT_EQ(launch.mix[6].kind, OpKind::kTransactWrite);
  EXPECT_EQ(launch.mix[6].batch, 4);
  EXPECT_EQ(launch.mix[7].kind, OpKind::kTransactGet);
  EXPECT_EQ(launch.mix[7].batch, 2);
  EXPECT_EQ(launch.mix[7].weight, 1);
  EXPECT_EQ(launch.mix[8].kind, OpKind::kDelete);
  EXPECT_EQ(launch.mix[8].table, "Events");

  EXPECT_EQ(TotalMicros(w), 61'500'000);
}

TEST(WorkloadTomlTest, Defaults) {
  const Workload w = MustParse(R"(
name = "minimal"
[[tables]]
name = "T01"
partition_key = "PK"
read_capacity = 5
write_capacity = 6
  [[tables.indexes]]
  name = "G01"
  partition_key = "G"
  read_capacity = 1
  write_capacity = 1
[[preload]]
table = "T01"
key = "K{key}"
keys = 3
[[phases]]
name = "only"
duration = 1
rate = 0
  [[phases.mix]]
  op = "update"
  table = "T01"
  key = "K{key}"
  [[phases.mix]]
  op = "query"
  table = "T01"
  key = "K{key}"
)");
  EXPECT_EQ(w.description, "");
  EXPECT_EQ(w.seed, 1u);
  EXPECT_EQ(w.top_n, 10);
  EXPECT_EQ(w.heat_split_seconds, std::nullopt);
  const RetryPolicy defaults;
  EXPECT_EQ(w.retries.mode, defaults.mode);
  EXPECT_EQ(w.retries.max_attempts, defaults.max_attempts);
  EXPECT_EQ(w.retries.base_micros, defaults.base_micros);
  EXPECT_EQ(w.retries.max_backoff_micros, defaults.max_backoff_micros);
  EXPECT_EQ(w.retries.jitter, defaults.jitter);
  EXPECT_TRUE(w.sharding.empty());
  ASSERT_EQ(w.tables.size(), 1u);
  EXPECT_FALSE(w.tables[0].on_demand);
  EXPECT_EQ(w.tables[0].indexes[0].projection, "ALL");
  ASSERT_EQ(w.preload.size(), 1u);
  EXPECT_EQ(w.preload[0].items_per_key, 1);
  EXPECT_EQ(w.preload[0].size.kind, SizeDistribution::Kind::kFixed);
  EXPECT_EQ(w.preload[0].size.bytes, 100);
  EXPECT_TRUE(w.preload[0].attributes.empty());
  ASSERT_EQ(w.phases.size(), 1u);
  const Phase& phase = w.phases[0];
  EXPECT_EQ(phase.rate, 0);
  EXPECT_EQ(phase.rate_end, std::nullopt);
  EXPECT_EQ(phase.keys.kind, KeyDistribution::Kind::kUniform);
  EXPECT_EQ(phase.keys.count, 1);
  EXPECT_TRUE(phase.sharding.empty());
  ASSERT_EQ(phase.mix.size(), 2u);
  const Operation& update = phase.mix[0];
  EXPECT_EQ(update.weight, 1);
  EXPECT_EQ(update.index, std::nullopt);
  EXPECT_EQ(update.sort, std::nullopt);
  EXPECT_EQ(update.keys, std::nullopt);
  EXPECT_EQ(update.items, 1);
  EXPECT_EQ(update.size, std::nullopt);
  EXPECT_EQ(update.batch, 1);
  EXPECT_EQ(update.counter, "n");
  const Operation& query = phase.mix[1];
  EXPECT_EQ(query.limit, 0);
  EXPECT_FALSE(query.consistent_read);
  EXPECT_TRUE(query.scan_forward);
  EXPECT_EQ(query.sort_prefix, std::nullopt);
}

TEST(WorkloadTomlTest, OpKindNames) {
  const char* names[] = {"get",  "put",       "update",      "delete",         "query",
                         "scan", "batch_get", "batch_write", "transact_write", "transact_get"};
  for (int i = 0; i < kOpKindCount; ++i) {
    EXPECT_EQ(OpKindName(static_cast<OpKind>(i)), names[i]);
  }
}

// --- TOML syntax and positions -------------------------------------------------------------------

TEST(WorkloadTomlTest, SyntaxErrorsHaveLineAndColumn) {
  EXPECT_EQ(Error("name = \"x\"\nseed = \n"),
            "test.toml:2:8: Error while parsing key-value pair: expected value, saw '\\n'");
  const std::string error = Error("name = \"x\"\n\n[[tables]\n");
  EXPECT_EQ(error.rfind("test.toml:3:", 0), 0u) << error;
  EXPECT_EQ(Error("a = 1\na = 2\n").rfind("test.toml:2:", 0), 0u);
}

TEST(WorkloadTomlTest, EmptySourceName) {
  Result<Workload> parsed = ParseWorkload("seed = ", "");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().message().rfind("<workload>:1:", 0), 0u) << parsed.error().message();
}

TEST(WorkloadTomlTest, ErrorsPointAtTheValue) {
  const std::string doc = WithOp("op = \"puts\"\ntable = \"Flat\"\nkey = \"K\"\n");
  // The op line is the last but two: count the lines before it.
  int line = 1;
  for (char c : doc.substr(0, doc.find("op = \"puts\""))) line += c == '\n';
  EXPECT_EQ(Error(doc), "test.toml:" + std::to_string(line) +
                            ":6: phases[0].mix[0].op: unknown operation \"puts\" (expected one of "
                            "get, put, update, delete, query, scan, batch_get, batch_write, "
                            "transact_write, transact_get)");
}

TEST(WorkloadTomlTest, EmptyDocument) {
  EXPECT_EQ(Error(""), "test.toml:1:1: missing required key \"name\"");
  EXPECT_TRUE(FailsWith("name = \"x\"", "at least one [[tables]] is required"));
}

// --- Unknown keys --------------------------------------------------------------------------------

TEST(WorkloadTomlTest, UnknownKeys) {
  EXPECT_EQ(Error("nmae = \"x\"\n"),
            "test.toml:1:1: unknown key \"nmae\" at the top level (expected one of: name, "
            "description, seed, top_n, retries, capacity, auto_scaling, tables, sharding, "
            "preload, phases)");
  EXPECT_TRUE(FailsWith(Doc("", "[auto_scaling]\ndelay = \"1m\"\n"),
                        "auto_scaling: unknown key \"delay\""));
  EXPECT_TRUE(FailsWith(Doc("", "[auto_scaling]\nupdate_delay = \"2h\"\n"),
                        "auto_scaling.update_delay: must be at most 1h"));
  EXPECT_TRUE(FailsWith(Doc("", "[retries]\nmod = \"none\"\n"),
                        "retries: unknown key \"mod\" (expected one of: mode, "));
  EXPECT_TRUE(FailsWith(Doc("", "[capacity]\nsplit = 1\n"), "capacity: unknown key \"split\""));
  EXPECT_TRUE(FailsWith(Doc("",
                            "[[tables]]\nname = \"Other\"\npartition_key = \"P\"\n"
                            "billing = \"on-demand\"\nsortkey = \"S\"\n"),
                        "tables[2]: unknown key \"sortkey\""));
  EXPECT_TRUE(FailsWith(Doc("",
                            "[[tables]]\nname = \"Other\"\npartition_key = \"P\"\n"
                            "billing = \"on-demand\"\n[[tables.indexes]]\nname = \"IDX\"\n"
                            "partition_key = \"Q\"\nprojected = \"ALL\"\n"),
                        "tables[2].indexes[0]: unknown key \"projected\""));
  EXPECT_TRUE(FailsWith(Doc("",
                            "[[sharding]]\ntable = \"Flat\"\nkey = \"A\"\nshards = 2\n"
                            "count = 3\n"),
                        "sharding[0]: unknown key \"count\""));
  EXPECT_TRUE(FailsWith(Doc("",
                            "[[preload]]\ntable = \"Flat\"\nkey = \"A\"\nkeys = 2\n"
                            "item = 3\n"),
                        "preload[0]: unknown key \"item\""));
  EXPECT_TRUE(FailsWith(WithPhase("name = \"p\"\nduration = 1\nrate = 1\nratee = 2\n"),
                        "phases[0]: unknown key \"ratee\""));
  EXPECT_TRUE(FailsWith(WithOp("op = \"get\"\ntable = \"Flat\"\nkey = \"K\"\nconsistent = true\n"),
                        "phases[0].mix[0]: unknown key \"consistent\""));
  EXPECT_TRUE(FailsWith(WithOp("op = \"put\"\ntable = \"Flat\"\nkey = \"K\"\n"
                               "size = { min = 1, max = 2, avg = 3 }\n"),
                        "phases[0].mix[0].size: unknown key \"avg\""));
  EXPECT_TRUE(FailsWith(WithPhase("name = \"p\"\nduration = 1\nrate = 1\n"
                                  "keys = { distribution = \"zipfian\", skew = 1 }\n"),
                        "phases[0].keys: unknown key \"skew\""));
  // A sub-table nobody asked for.
  EXPECT_TRUE(FailsWith(WithPhase("name = \"p\"\nduration = 1\nrate = 1\n[phases.extra]\na = 1\n"),
                        "phases[0]: unknown key \"extra\""));
}

// --- Types ---------------------------------------------------------------------------------------

TEST(WorkloadTomlTest, WrongTypes) {
  EXPECT_TRUE(FailsWith("name = 5\n", "test.toml:1:8: name: expected a string, got an integer"));
  EXPECT_TRUE(FailsWith(Doc("seed = \"42\"\n"), "seed: expected an integer, got a string"));
  EXPECT_TRUE(FailsWith(Doc("top_n = 5.0\n"), "top_n: expected an integer, got a float"));
  EXPECT_TRUE(
      FailsWith(Doc("description = [\"a\"]\n"), "description: expected a string, got an array"));
  EXPECT_TRUE(
      FailsWith(Doc("retries = 3\n"), "retries: expected a table ([retries]), got an integer"));
  EXPECT_TRUE(FailsWith("name = \"x\"\n[tables]\nname = \"Shop\"\n",
                        "tables: expected an array of tables ([[tables]]), got a table"));
  EXPECT_TRUE(
      FailsWith("name = \"x\"\ntables = [1]\n", "tables[0]: expected a table, got an integer"));
  EXPECT_TRUE(FailsWith(WithPhase("name = \"p\"\nduration = 1\nrate = \"fast\"\n"),
                        "phases[0].rate: expected a number, got a string"));
  EXPECT_TRUE(
      FailsWith(WithPhase("name = \"p\"\nduration = 1\nrate = 1\nmix = 3\n"),
                "phases[0].mix: expected an array of tables ([[phases.mix]]), got an integer"));
  EXPECT_TRUE(
      FailsWith(WithOp("op = \"get\"\ntable = \"Flat\"\nkey = \"K\"\nconsistent_read = 1\n"),
                "consistent_read: expected a boolean (true or false), got an integer"));
  EXPECT_TRUE(FailsWith(WithOp("op = \"batch_get\"\ntable = \"Flat\"\nkey = \"K\"\nbatch = 2.0\n"),
                        "batch: expected an integer, got a float"));
  EXPECT_TRUE(FailsWith(WithOp("op = \"get\"\ntable = \"Flat\"\nkey = 7\n"),
                        "phases[0].mix[0].key: expected a string (a template), got an integer"));
  EXPECT_TRUE(FailsWith(WithOp("op = 1\ntable = \"Flat\"\nkey = \"K\"\n"),
                        "op: expected a string (operation), got an integer"));
  EXPECT_TRUE(FailsWith(WithOp("op = \"get\"\ntable = \"Flat\"\nkey = \"K\"\nkeys = 5\n"),
                        "keys: expected a key distribution"));
  EXPECT_TRUE(FailsWith(WithOp("op = \"put\"\ntable = \"Flat\"\nkey = \"K\"\nattributes = \"x\"\n"),
                        "attributes: expected a table of attribute names to templates"));
  EXPECT_TRUE(
      FailsWith(WithOp("op = \"put\"\ntable = \"Flat\"\nkey = \"K\"\nattributes = { a = 1 }\n"),
                "attributes.a: expected a string (a template), got an integer"));
  EXPECT_TRUE(FailsWith(WithOp("op = \"get\"\ntable = \"Flat\"\nkey = \"K\"\nweight = inf\n"),
                        "weight: must be a finite number"));
  EXPECT_TRUE(FailsWith(WithPhase("name = \"p\"\nduration = 1\nrate = nan\n"),
                        "rate: must be a finite number"));
  EXPECT_TRUE(
      FailsWith(WithPhase("name = \"p\"\nduration = 1979-05-27\nrate = 1\n"),
                "duration: expected a duration (seconds, or a string such as \"250ms\"), got "
                "a date"));
}

// --- Required keys -------------------------------------------------------------------------------

TEST(WorkloadTomlTest, MissingRequiredKeys) {
  EXPECT_TRUE(FailsWith("name = \"x\"\n[[tables]]\npartition_key = \"P\"\n",
                        "test.toml:2:1: tables[0]: missing required key \"name\""));
  EXPECT_TRUE(FailsWith("name = \"x\"\n[[tables]]\nname = \"Abc\"\n",
                        "tables[0]: missing required key \"partition_key\""));
  EXPECT_TRUE(FailsWith("name = \"x\"\n[[tables]]\nname = \"Abc\"\npartition_key = \"P\"\n",
                        "tables[0]: missing required key \"read_capacity\""));
  EXPECT_TRUE(
      FailsWith("name = \"x\"\n[[tables]]\nname = \"Abc\"\npartition_key = \"P\"\n"
                "read_capacity = 1\n",
                "tables[0]: missing required key \"write_capacity\""));
  EXPECT_TRUE(
      FailsWith("name = \"x\"\n" + std::string(kTables), "at least one [[phases]] is required"));
  EXPECT_TRUE(FailsWith("name = \"x\"\nphases = []\n" + std::string(kTables),
                        "phases: at least one [[phases]] is required"));
  EXPECT_TRUE(
      FailsWith(WithPhase("duration = 1\nrate = 1\n"), "phases[0]: missing required key \"name\""));
  EXPECT_TRUE(FailsWith(WithPhase("name = \"p\"\nrate = 1\n"),
                        "phases[0]: missing required key \"duration\""));
  EXPECT_TRUE(FailsWith(WithPhase("name = \"p\"\nduration = 1\n"),
                        "phases[0]: missing required key \"rate\""));
  EXPECT_TRUE(FailsWith(WithPhase("name = \"p\"\nduration = 1\nrate = 1\n"),
                        "phases[0]: at least one [[phases.mix]] is required"));
  EXPECT_TRUE(FailsWith(WithOp("table = \"Flat\"\nkey = \"K\"\n"),
                        "phases[0].mix[0]: missing required key \"op\""));
  EXPECT_TRUE(FailsWith(WithOp("op = \"get\"\nkey = \"K\"\n"),
                        "phases[0].mix[0]: missing required key \"table\""));
  EXPECT_TRUE(FailsWith(WithOp("op = \"get\"\ntable = \"Flat\"\n"),
                        "phases[0].mix[0]: missing required key \"key\""));
  EXPECT_TRUE(FailsWith(WithOp("op = \"query\"\ntable = \"Flat\"\n"),
                        "phases[0].mix[0]: missing required key \"key\""));
  EXPECT_TRUE(FailsWith(Doc("", "[[preload]]\ntable = \"Flat\"\nkey = \"K\"\n"),
                        "preload[0]: missing required key \"keys\""));
  EXPECT_TRUE(FailsWith(Doc("", "[[preload]]\ntable = \"Flat\"\nkeys = 1\n"),
                        "preload[0]: missing required key \"key\""));
  EXPECT_TRUE(FailsWith(Doc("", "[[sharding]]\ntable = \"Flat\"\nkey = \"A\"\n"),
                        "sharding[0]: missing required key \"shards\""));
  EXPECT_TRUE(FailsWith(Doc("", "[[tables.indexes]]\nname = \"Idx\"\n"),
                        "tables[1].indexes[1]: missing required key \"partition_key\""));
}

// --- Ranges --------------------------------------------------------------------------------------

TEST(WorkloadTomlTest, TopLevelRanges) {
  EXPECT_TRUE(FailsWith("name = \"\"\n", "name: must not be empty"));
  EXPECT_TRUE(FailsWith("name = \"" + std::string(101, 'x') + "\"\n",
                        "name: must be 1 to 100 characters long, got 101"));
  EXPECT_EQ(MustParse(Doc("").replace(8, 4, std::string(100, 'x'))).name.size(), 100u);
  EXPECT_TRUE(FailsWith(Doc("seed = -1\n"), "seed: must be at least 0, got -1"));
  EXPECT_EQ(MustParse(Doc("seed = 0\n")).seed, 0u);
  EXPECT_TRUE(FailsWith(Doc("top_n = 0\n"), "top_n: must be between 1 and 100, got 0"));
  EXPECT_TRUE(FailsWith(Doc("top_n = 101\n"), "top_n: must be between 1 and 100, got 101"));
  EXPECT_TRUE(FailsWith(Doc("", "[capacity]\nheat_split_seconds = 0\n"),
                        "capacity.heat_split_seconds: must be between 1 and 86400, got 0"));
  EXPECT_TRUE(FailsWith(Doc("", "[capacity]\nheat_split_seconds = 86401\n"),
                        "must be between 1 and 86400"));
  EXPECT_EQ(MustParse(Doc("", "[capacity]\n")).heat_split_seconds, std::nullopt);
}

TEST(WorkloadTomlTest, Retries) {
  const Workload none = MustParse(Doc("", "[retries]\nmode = \"none\"\njitter = \"none\"\n"));
  EXPECT_EQ(none.retries.mode, RetryPolicy::Mode::kNone);
  EXPECT_EQ(none.retries.jitter, RetryPolicy::Jitter::kNone);
  EXPECT_EQ(MustParse(Doc("", "[retries]\njitter = \"full\"\n")).retries.jitter,
            RetryPolicy::Jitter::kFull);
  EXPECT_TRUE(FailsWith(Doc("", "[retries]\nmode = \"linear\"\n"),
                        "retries.mode: unknown retry mode \"linear\" (expected one of exponential, "
                        "none)"));
  EXPECT_TRUE(
      FailsWith(Doc("", "[retries]\njitter = \"half\"\n"),
                "retries.jitter: unknown jitter \"half\" (expected one of full, equal, none)"));
  EXPECT_TRUE(FailsWith(Doc("", "[retries]\nmax_attempts = 0\n"),
                        "retries.max_attempts: must be between 1 and 100, got 0"));
  EXPECT_TRUE(FailsWith(Doc("", "[retries]\nmax_attempts = 101\n"), "must be between 1 and 100"));
  EXPECT_TRUE(FailsWith(Doc("", "[retries]\nbase_delay = \"2s\"\nmax_delay = \"1s\"\n"),
                        "retries.max_delay: max_delay (1000000 us) is shorter than base_delay "
                        "(2000000 us)"));
  // Against the default max_delay (20 s).
  EXPECT_TRUE(
      FailsWith(Doc("", "[retries]\nbase_delay = \"21s\"\n"), "retries.base_delay: max_delay"));
  const Workload zero = MustParse(Doc("", "[retries]\nbase_delay = 0\nmax_delay = 0\n"));
  EXPECT_EQ(zero.retries.base_micros, 0);
  EXPECT_EQ(zero.retries.max_backoff_micros, 0);
}

TEST(WorkloadTomlTest, TableRules) {
  const std::string other = "[[tables]]\npartition_key = \"P\"\nbilling = \"on-demand\"\n";
  EXPECT_TRUE(FailsWith(Doc("", other + "name = \"ab\"\n"),
                        "tables[2].name: bad name \"ab\": 3 to 255 characters"));
  EXPECT_TRUE(FailsWith(Doc("", other + "name = \"my table\"\n"), "bad name \"my table\""));
  EXPECT_TRUE(FailsWith(Doc("", other + "name = \"" + std::string(256, 'a') + "\"\n"), "bad name"));
  MustParse(Doc("", other + "name = \"a.b-c_D9\"\n"));
  EXPECT_TRUE(FailsWith(Doc("", other + "name = \"Shop\"\n"),
                        "tables[2].name: duplicate table name \"Shop\" (also tables[0])"));
  EXPECT_TRUE(FailsWith(Doc("", "[[tables]]\nname = \"Other\"\npartition_key = \"\"\n"),
                        "tables[2].partition_key: an attribute name must not be empty"));
  EXPECT_TRUE(FailsWith(Doc("", other + "name = \"Other\"\nsort_key = \"P\"\n"),
                        "tables[2].sort_key: the sort key must differ from the partition key"));
  EXPECT_TRUE(FailsWith(Doc("", other + "name = \"Other\"\nread_capacity = 5\n"),
                        "tables[2].read_capacity: an on-demand table takes no read_capacity or "
                        "write_capacity"));
  EXPECT_TRUE(FailsWith(Doc("",
                            "[[tables]]\nname = \"Other\"\npartition_key = \"P\"\n"
                            "billing = \"ondemand\"\n"),
                        "tables[2].billing: unknown billing mode \"ondemand\" (expected one of "
                        "provisioned, on-demand)"));
  EXPECT_TRUE(FailsWith(Doc("", other + "name = \"Other\"\ntable_class = \"glacier\"\n"),
                        "tables[2].table_class: unknown table class \"glacier\" (expected one of "
                        "standard, standard-infrequent-access)"));
  auto ia = ParseWorkload(Doc("", other + "name = \"Other\"\ntable_class = "
                                          "\"standard-infrequent-access\"\n"),
                          "w.toml");
  ASSERT_TRUE(ia.ok()) << ia.status().message();
  EXPECT_EQ(ia->tables[0].table_class, TableClass::kStandard);
  EXPECT_EQ(ia->tables[2].table_class, TableClass::kStandardInfrequentAccess);
  const std::string provisioned =
      "[[tables]]\nname = \"Other\"\npartition_key = \"P\"\nbilling = \"provisioned\"\n";
  EXPECT_TRUE(FailsWith(Doc("", provisioned + "read_capacity = 0\nwrite_capacity = 1\n"),
                        "tables[2].read_capacity: must be between 1 and 1000000, got 0"));
  EXPECT_TRUE(FailsWith(Doc("", provisioned + "read_capacity = 1\nwrite_capacity = 1000001\n"),
                        "tables[2].write_capacity: must be between 1 and 1000000"));
}

TEST(WorkloadTomlTest, ACacheInFrontOfATable) {
  const std::string table =
      "[[tables]]\nname = \"Other\"\npartition_key = \"P\"\nbilling = \"on-demand\"\n";
  auto parsed = ParseWorkload(
      Doc("", table + "cache = { item_ttl = \"30s\", query_ttl = 2, memory_mb = 64 }\n"), "w.toml");
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_FALSE(parsed->tables[0].cache);
  ASSERT_TRUE(parsed->tables[2].cache);
  EXPECT_EQ(parsed->tables[2].cache->item_ttl_micros, 30'000'000);
  EXPECT_EQ(parsed->tables[2].cache->query_ttl_micros, 2'000'000);
  EXPECT_EQ(parsed->tables[2].cache->memory_mb, 64);
  auto defaults = ParseWorkload(Doc("", table + "cache = {}\n"), "w.toml");
  ASSERT_TRUE(defaults.ok()) << defaults.status().message();
  EXPECT_EQ(defaults->tables[2].cache->item_ttl_micros, 300'000'000);
  EXPECT_EQ(defaults->tables[2].cache->memory_mb, 256);
  EXPECT_TRUE(FailsWith(Doc("", table + "cache = { item_ttl = 0 }\n"),
                        "tables[2].cache.item_ttl: a cache's TTL must be positive"));
  EXPECT_TRUE(FailsWith(Doc("", table + "cache = { size = 3 }\n"), "tables[2].cache: unknown key"));
  EXPECT_TRUE(FailsWith(Doc("", table + "cache = { memory_mb = 0 }\n"),
                        "tables[2].cache.memory_mb: must be between 1 and 1048576"));
}

TEST(WorkloadTomlTest, IndexRules) {
  const std::string on_demand =
      "[[tables]]\nname = \"Other\"\npartition_key = \"P\"\nbilling = \"on-demand\"\n";
  const std::string provisioned =
      "[[tables]]\nname = \"Other\"\npartition_key = \"P\"\nread_capacity = 1\n"
      "write_capacity = 1\n";
  EXPECT_TRUE(FailsWith(Doc("", on_demand + "[[tables.indexes]]\nname = \"Idx\"\n"
                                            "partition_key = \"Q\"\nwrite_capacity = 3\n"),
                        "tables[2].indexes[0].write_capacity: an on-demand table takes no"));
  EXPECT_TRUE(FailsWith(Doc("", provisioned + "[[tables.indexes]]\nname = \"Idx\"\n"
                                              "partition_key = \"Q\"\n"),
                        "tables[2].indexes[0]: missing required key \"read_capacity\""));
  EXPECT_TRUE(FailsWith(Doc("", on_demand + "[[tables.indexes]]\nname = \"Idx\"\n"
                                            "partition_key = \"Q\"\nprojection = \"INCLUDE\"\n"),
                        "unknown projection \"INCLUDE\" (expected one of ALL, KEYS_ONLY)"));
  EXPECT_TRUE(FailsWith(Doc("", on_demand + "[[tables.indexes]]\nname = \"Idx\"\n"
                                            "partition_key = \"Q\"\nsort_key = \"Q\"\n"),
                        "tables[2].indexes[0].sort_key: the sort key must differ"));
  EXPECT_TRUE(FailsWith(Doc("", on_demand + "[[tables.indexes]]\nname = \"Idx\"\n"
                                            "partition_key = \"Q\"\n[[tables.indexes]]\n"
                                            "name = \"Idx\"\npartition_key = \"R\"\n"),
                        "tables[2].indexes[1].name: duplicate index name \"Idx\" (also "
                        "tables[2].indexes[0])"));
  EXPECT_TRUE(FailsWith(Doc("", on_demand + "[[tables.indexes]]\nname = \"I\"\n"
                                            "partition_key = \"Q\"\n"),
                        "tables[2].indexes[0].name: bad name \"I\""));
  std::string many = on_demand;
  for (int i = 0; i < 21; ++i) {
    many += "[[tables.indexes]]\nname = \"Idx" + std::to_string(i) + "\"\npartition_key = \"Q\"\n";
  }
  EXPECT_TRUE(FailsWith(Doc("", many),
                        "tables[2].indexes: at most 20 [[tables.indexes]] are allowed, got 21"));
}

TEST(WorkloadTomlTest, PhaseRules) {
  EXPECT_TRUE(FailsWith(WithPhase("name = \"\"\nduration = 1\nrate = 1\n"),
                        "phases[0].name: must not be empty"));
  EXPECT_TRUE(FailsWith(WithPhase("name = \"p\"\nduration = 0\nrate = 1\n"),
                        "phases[0].duration: must be longer than 0"));
  EXPECT_TRUE(FailsWith(WithPhase("name = \"p\"\nduration = 1\nrate = -1\n"),
                        "phases[0].rate: must be between 0 and 10000000, got -1"));
  EXPECT_TRUE(FailsWith(WithPhase("name = \"p\"\nduration = 1\nrate = 1e8\n"),
                        "phases[0].rate: must be between 0 and 10000000, got 100000000"));
  EXPECT_TRUE(FailsWith(WithPhase("name = \"p\"\nduration = 1\nrate = 1\nrate_end = 10000001\n"),
                        "phases[0].rate_end: must be between 0 and 10000000"));
  const std::string mix = "[[phases.mix]]\nop = \"scan\"\ntable = \"Flat\"\n";
  EXPECT_TRUE(FailsWith(WithPhase("name = \"p\"\nduration = 1\nrate = 1\n" + mix +
                                  "[[phases]]\nname = \"p\"\nduration = 1\nrate = 1\n" + mix),
                        "phases[1].name: duplicate phase name \"p\" (also phases[0])"));
  // Up to 1000 phases, 100 operations each.
  std::string phases;
  for (int i = 0; i < 1001; ++i) {
    phases += "[[phases]]\nname = \"p" + std::to_string(i) + "\"\nduration = 1\nrate = 1\n" + mix;
  }
  EXPECT_TRUE(FailsWith("name = \"x\"\n" + std::string(kTables) + phases,
                        "phases: at most 1000 [[phases]] are allowed, got 1001"));
  std::string ops = "name = \"p\"\nduration = 1\nrate = 1\n";
  for (int i = 0; i < 101; ++i) ops += mix;
  EXPECT_TRUE(
      FailsWith(WithPhase(ops), "phases[0].mix: at most 100 [[phases.mix]] are allowed, got 101"));
}

TEST(WorkloadTomlTest, TotalDurationAtMostSevenDays) {
  const std::string mix = "[[phases.mix]]\nop = \"scan\"\ntable = \"Flat\"\n";
  const Workload week = MustParse(WithPhase("name = \"a\"\nduration = \"84h\"\nrate = 1\n" + mix +
                                            "[[phases]]\nname = \"b\"\nduration = \"84h\"\n"
                                            "rate = 1\n" +
                                            mix));
  EXPECT_EQ(TotalMicros(week), int64_t{7} * 24 * 3600 * 1'000'000);
  EXPECT_TRUE(
      FailsWith(WithPhase("name = \"a\"\nduration = \"84h\"\nrate = 1\n" + mix +
                          "[[phases]]\nname = \"b\"\nduration = \"84.001h\"\nrate = 1\n" + mix),
                "phases[1].duration: the phases last longer than 7 days in total"));
}
}  // namespace
}  // namespace partstore::sim
