// ParseWorkload: durations, sizes, key distributions, operations, preload and sharding.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "tests/simulator/workload_toml_testutil.h"
#include "tools/simulator/workload_toml.h"

namespace partstore::sim {
namespace {

using namespace toml_testing;  // NOLINT(google-build-using-namespace): the tests' own helpers

// --- Durations -----------------------------------------------------------------------------------

TEST(WorkloadTomlTest, Durations) {
  EXPECT_EQ(*Duration("2"), 2'000'000);
  EXPECT_EQ(*Duration("1.25"), 1'250'000);
  EXPECT_EQ(*Duration("\"250ms\""), 250'000);
  EXPECT_EQ(*Duration("\"1.5s\""), 1'500'000);
  EXPECT_EQ(*Duration("\"30m\""), 1'800'000'000);
  EXPECT_EQ(*Duration("\"2h\""), 7'200'000'000);
  EXPECT_EQ(*Duration("\"0.5ms\""), 500);
  EXPECT_EQ(*Duration("\"1.0000004s\""), 1'000'000);  // rounded to the nearest microsecond
  EXPECT_EQ(*Duration("\"1.0000006s\""), 1'000'001);
  EXPECT_EQ(*Duration("\"168h\""), int64_t{168} * 3600 * 1'000'000);
  EXPECT_EQ(*Duration("604800"), int64_t{604800} * 1'000'000);
}

TEST(WorkloadTomlTest, BadDurations) {
  for (std::string_view bad :
       {"\"5x\"", "\"5\"", "\"ms\"", "\"\"", "\"1.2.3s\"", "\".5s\"", "\"5.s\"", "\"5 s\"",
        "\"-1s\"", "\"1e3s\"", "\"5sec\"", "\"5S\"", "\"2d\"", "\"10us\""}) {
    Result<int64_t> d = Duration(bad);
    ASSERT_FALSE(d.ok()) << bad;
    EXPECT_NE(d.error().message().find("phases[0].duration: bad duration"), std::string::npos)
        << d.error().message();
  }
  EXPECT_NE(Duration("\"5x\"").error().message().find(
                "bad duration \"5x\": write a number and a unit (ms, s, m or h)"),
            std::string::npos);
  EXPECT_NE(Duration("-1").error().message().find("a duration must not be negative"),
            std::string::npos);
  EXPECT_NE(Duration("-0.5").error().message().find("must not be negative"), std::string::npos);
  EXPECT_NE(Duration("604801").error().message().find("a duration must be at most 7 days"),
            std::string::npos);
  EXPECT_NE(Duration("\"169h\"").error().message().find("at most 7 days"), std::string::npos);
  EXPECT_NE(Duration("9223372036854775807").error().message().find("at most 7 days"),
            std::string::npos);
  EXPECT_NE(Duration("\"0.0000004s\"").error().message().find("must be longer than 0"),
            std::string::npos);
  EXPECT_NE(Duration("\"0ms\"").error().message().find("must be longer than 0"), std::string::npos);
  EXPECT_NE(Duration("true").error().message().find("expected a duration"), std::string::npos);
}

// --- Sizes ---------------------------------------------------------------------------------------

TEST(WorkloadTomlTest, Sizes) {
  SizeDistribution fixed = *Size("400");
  EXPECT_EQ(fixed.kind, SizeDistribution::Kind::kFixed);
  EXPECT_EQ(fixed.bytes, 400);
  EXPECT_EQ(Size("1")->bytes, 1);
  EXPECT_EQ(Size("409600")->bytes, 409'600);

  SizeDistribution uniform = *Size("{ min = 100, max = 800 }");
  EXPECT_EQ(uniform.kind, SizeDistribution::Kind::kUniform);
  EXPECT_EQ(uniform.min, 100);
  EXPECT_EQ(uniform.max, 800);
  EXPECT_EQ(Size("{ min = 5, max = 5 }")->max, 5);

  SizeDistribution normal = *Size("{ mean = 400.5, stddev = 100 }");
  EXPECT_EQ(normal.kind, SizeDistribution::Kind::kNormal);
  EXPECT_EQ(normal.mean, 400.5);
  EXPECT_EQ(normal.stddev, 100);
  EXPECT_EQ(normal.min, 1);
  EXPECT_EQ(normal.max, 409'600);
  SizeDistribution clamped = *Size("{ mean = 400, stddev = 0, min = 300, max = 500 }");
  EXPECT_EQ(clamped.min, 300);
  EXPECT_EQ(clamped.max, 500);
  EXPECT_EQ(clamped.stddev, 0);
}

TEST(WorkloadTomlTest, BadSizes) {
  const auto error = [](std::string_view spelling) {
    Result<SizeDistribution> size = Size(spelling);
    return size.ok() ? std::string("OK") : std::string(size.error().message());
  };
  const auto contains = [&](std::string_view spelling, std::string_view text) {
    const std::string message = error(spelling);
    return ::testing::AssertionResult(message.find(text) != std::string::npos)
           << spelling << " -> " << message;
  };
  EXPECT_TRUE(contains("0", "phases[0].mix[0].size: must be between 1 and 409600, got 0"));
  EXPECT_TRUE(contains("409601", "must be between 1 and 409600"));
  EXPECT_TRUE(contains("1.5", "size: expected a size: an integer number of bytes"));
  EXPECT_TRUE(contains("\"400B\"", "expected a size"));
  EXPECT_TRUE(contains("{ min = 100 }",
                       "a size table needs min and max (uniform), or mean and "
                       "stddev (normal)"));
  EXPECT_TRUE(contains("{ max = 100 }", "a size table needs min and max"));
  EXPECT_TRUE(contains("{}", "a size table needs min and max"));
  EXPECT_TRUE(contains("{ min = 800, max = 100 }", "size.max: max (100) is less than min (800)"));
  EXPECT_TRUE(contains("{ min = 0, max = 100 }", "size.min: must be between 1 and 409600"));
  EXPECT_TRUE(contains("{ min = 1.5, max = 100 }", "size.min: expected an integer, got a float"));
  EXPECT_TRUE(contains("{ mean = 400 }", "size: missing required key \"stddev\""));
  EXPECT_TRUE(contains("{ stddev = 4 }", "size: missing required key \"mean\""));
  EXPECT_TRUE(contains("{ mean = 0, stddev = 4 }", "size.mean: must be between 1 and 409600"));
  EXPECT_TRUE(contains("{ mean = 10, stddev = -1 }", "size.stddev: must be between 0 and 409600"));
  EXPECT_TRUE(
      contains("{ mean = 10, stddev = 1, min = 9, max = 8 }", "max (8) is less than min (9)"));
  EXPECT_TRUE(contains("{ mean = 10, stddev = 1, max = 0 }", "size.max: must be between 1"));
  // Sizes belong to writes.
  EXPECT_TRUE(FailsWith(WithOp("op = \"get\"\ntable = \"Flat\"\nkey = \"K\"\nsize = 10\n"),
                        "phases[0].mix[0].size: \"size\" does not apply to get (only to put, "
                        "update, batch_write and transact_write)"));
  EXPECT_TRUE(FailsWith(Doc("", "[[preload]]\ntable = \"Flat\"\nkey = \"K\"\nkeys = 1\nsize = 0\n"),
                        "preload[0].size: must be between 1 and 409600"));
}

// --- Key distributions ---------------------------------------------------------------------------

TEST(WorkloadTomlTest, KeyDistributions) {
  KeyDistribution uniform = *Keys("{ distribution = \"uniform\" }");
  EXPECT_EQ(uniform.kind, KeyDistribution::Kind::kUniform);
  EXPECT_EQ(uniform.count, 1);
  EXPECT_EQ(Keys("{ distribution = \"uniform\", count = 1000000000 }")->count, 1'000'000'000);

  KeyDistribution zipf = *Keys("{ distribution = \"zipfian\", count = 50 }");
  EXPECT_EQ(zipf.kind, KeyDistribution::Kind::kZipfian);
  EXPECT_EQ(zipf.count, 50);
  EXPECT_EQ(zipf.theta, 0.99);
  EXPECT_EQ(Keys("{ distribution = \"zipfian\", theta = 1.5 }")->theta, 1.5);
  EXPECT_EQ(Keys("{ distribution = \"zipfian\", theta = 10 }")->theta, 10);
  EXPECT_EQ(Keys("{ distribution = \"zipfian\", theta = 0.01 }")->theta, 0.01);

  KeyDistribution hotspot = *Keys("{ distribution = \"hotspot\", count = 10 }");
  EXPECT_EQ(hotspot.kind, KeyDistribution::Kind::kHotspot);
  EXPECT_EQ(hotspot.hot_keys, 0.2);
  EXPECT_EQ(hotspot.hot_traffic, 0.8);
  KeyDistribution edges =
      *Keys("{ distribution = \"hotspot\", count = 10, hot_keys = 1, hot_traffic = 0 }");
  EXPECT_EQ(edges.hot_keys, 1);
  EXPECT_EQ(edges.hot_traffic, 0);

  KeyDistribution time = *Keys("{ distribution = \"time-ordered\" }");
  EXPECT_EQ(time.kind, KeyDistribution::Kind::kTimeOrdered);
  EXPECT_EQ(time.bucket_micros, 1'000'000);
  EXPECT_EQ(Keys("{ distribution = \"time-ordered\", bucket = \"1h\" }")->bucket_micros,
            3'600'000'000);
  EXPECT_EQ(Keys("{ distribution = \"time-ordered\", bucket = 0.5 }")->bucket_micros, 500'000);

  KeyDistribution hot = *Keys("{ distribution = \"hot-key\" }");
  EXPECT_EQ(hot.kind, KeyDistribution::Kind::kHotKey);
  EXPECT_EQ(hot.hot_key, 0);
  EXPECT_EQ(Keys("{ distribution = \"hot-key\", key = 12 }")->hot_key, 12);

  // A [phases.keys] sub-table is a table too.
  const Workload w =
      MustParse(WithPhase("name = \"p\"\nduration = 1\nrate = 1\n[phases.keys]\n"
                          "distribution = \"zipfian\"\ncount = 7\n[[phases.mix]]\n"
                          "op = \"scan\"\ntable = \"Flat\"\n"));
  EXPECT_EQ(w.phases[0].keys.count, 7);
}

TEST(WorkloadTomlTest, BadKeyDistributions) {
  const auto contains = [](std::string_view spelling, std::string_view text) {
    Result<KeyDistribution> keys = Keys(spelling);
    const std::string message = keys.ok() ? "OK" : std::string(keys.error().message());
    return ::testing::AssertionResult(message.find(text) != std::string::npos)
           << spelling << " -> " << message;
  };
  EXPECT_TRUE(contains("{ distribution = \"normal\" }",
                       "phases[0].keys.distribution: unknown distribution \"normal\" (expected one "
                       "of uniform, zipfian, hotspot, time-ordered, hot-key)"));
  EXPECT_TRUE(contains("{ count = 5 }", "phases[0].keys: missing required key \"distribution\""));
  // Keys of another distribution.
  EXPECT_TRUE(contains("{ distribution = \"uniform\", theta = 0.5 }",
                       "phases[0].keys: \"theta\" does not apply to the uniform distribution (it "
                       "takes: count)"));
  EXPECT_TRUE(contains("{ distribution = \"zipfian\", bucket = 1 }",
                       "\"bucket\" does not apply to the zipfian distribution (it takes: count, "
                       "theta)"));
  EXPECT_TRUE(contains("{ distribution = \"hotspot\", theta = 1 }",
                       "\"theta\" does not apply to the hotspot distribution (it takes: count, "
                       "hot_keys, hot_traffic)"));
  EXPECT_TRUE(contains("{ distribution = \"time-ordered\", count = 3 }",
                       "\"count\" does not apply to the time-ordered distribution (it takes: "
                       "bucket)"));
  EXPECT_TRUE(contains("{ distribution = \"hot-key\", hot_keys = 0.5 }",
                       "\"hot_keys\" does not apply to the hot-key distribution (it takes: key)"));
  EXPECT_TRUE(contains("{ distribution = \"hot-key\", count = 5 }",
                       "\"count\" does not apply to the hot-key distribution"));
  // Ranges.
  EXPECT_TRUE(contains("{ distribution = \"uniform\", count = 0 }",
                       "phases[0].keys.count: must be between 1 and 1000000000, got 0"));
  EXPECT_TRUE(contains("{ distribution = \"uniform\", count = 1000000001 }", "must be between 1"));
  EXPECT_TRUE(contains("{ distribution = \"uniform\", count = 10.0 }",
                       "count: expected an integer, got a float"));
  EXPECT_TRUE(contains("{ distribution = \"zipfian\", theta = 1 }",
                       "phases[0].keys.theta: must be > 0, not 1, and at most 10, got 1"));
  EXPECT_TRUE(contains("{ distribution = \"zipfian\", theta = 1.0 }", "not 1"));
  EXPECT_TRUE(contains("{ distribution = \"zipfian\", theta = 0 }", "must be > 0, not 1"));
  EXPECT_TRUE(contains("{ distribution = \"zipfian\", theta = 10.5 }", "must be between 0 and 10"));
  EXPECT_TRUE(contains("{ distribution = \"hotspot\", hot_keys = 0 }",
                       "phases[0].keys.hot_keys: must be greater than 0"));
  EXPECT_TRUE(
      contains("{ distribution = \"hotspot\", hot_keys = 1.5 }", "must be between 0 and 1"));
  EXPECT_TRUE(contains("{ distribution = \"hotspot\", hot_traffic = -0.1 }",
                       "hot_traffic: must be between 0 and 1"));
  EXPECT_TRUE(contains("{ distribution = \"time-ordered\", bucket = 0 }",
                       "phases[0].keys.bucket: must be longer than 0"));
  EXPECT_TRUE(contains("{ distribution = \"time-ordered\", bucket = \"1x\" }", "bad duration"));
  EXPECT_TRUE(contains("{ distribution = \"hot-key\", key = -1 }",
                       "phases[0].keys.key: must be at least 0, got -1"));
  // An operation's own distribution.
  EXPECT_TRUE(FailsWith(WithOp("op = \"get\"\ntable = \"Flat\"\nkey = \"K\"\n"
                               "keys = { distribution = \"uniform\", theta = 2 }\n"),
                        "phases[0].mix[0].keys: \"theta\" does not apply to the uniform"));
}

// --- Operations ----------------------------------------------------------------------------------

TEST(WorkloadTomlTest, UnknownTablesAndIndexes) {
  EXPECT_TRUE(FailsWith(WithOp("op = \"get\"\ntable = \"Shops\"\nkey = \"K\"\n"),
                        "phases[0].mix[0].table: unknown table \"Shops\" (tables: Shop, Flat)"));
  EXPECT_TRUE(FailsWith(WithOp("op = \"query\"\ntable = \"Shop\"\nindex = \"GSI9\"\nkey = \"K\"\n"),
                        "phases[0].mix[0].index: table \"Shop\" has no index \"GSI9\" (its "
                        "indexes: GSI1, ByPk)"));
  EXPECT_TRUE(FailsWith(Doc("",
                            "[[tables]]\nname = \"Bare\"\npartition_key = \"P\"\n"
                            "billing = \"on-demand\"\n[[phases]]\nname = \"q\"\nduration = 1\n"
                            "rate = 1\n[[phases.mix]]\nop = \"scan\"\ntable = \"Bare\"\n"
                            "index = \"X12\"\n"),
                        "table \"Bare\" has no index \"X12\" (it has no indexes)"));
  EXPECT_TRUE(FailsWith(WithOp("op = \"get\"\ntable = \"Shop\"\nindex = \"GSI1\"\nkey = \"K\"\n"
                               "sort = \"S\"\n"),
                        "phases[0].mix[0].index: \"index\" does not apply to get (only to query "
                        "and scan)"));
  EXPECT_TRUE(FailsWith(Doc("", "[[preload]]\ntable = \"Nope\"\nkey = \"K\"\nkeys = 1\n"),
                        "preload[0].table: unknown table \"Nope\""));
  EXPECT_TRUE(FailsWith(Doc("", "[[sharding]]\ntable = \"Nope\"\nkey = \"K\"\nshards = 2\n"),
                        "sharding[0].table: unknown table \"Nope\""));
  EXPECT_TRUE(FailsWith(Doc("",
                            "[[sharding]]\ntable = \"Flat\"\nindex = \"GSI1\"\nkey = \"K\"\n"
                            "shards = 2\n"),
                        "sharding[0].index: table \"Flat\" has no index \"GSI1\" (its indexes: "
                        "ByOwner)"));
}

TEST(WorkloadTomlTest, SortKeys) {
  // Item operations on a table with a sort key need one; on a table without, they must not.
  for (std::string_view op : {"get", "put", "update", "delete", "batch_get", "batch_write",
                              "transact_write", "transact_get"}) {
    EXPECT_TRUE(
        FailsWith(WithOp("op = \"" + std::string(op) + "\"\ntable = \"Shop\"\nkey = \"K\"\n"),
                  "phases[0].mix[0]: missing required key \"sort\": table \"Shop\" has a "
                  "sort key (SK)"))
        << op;
    EXPECT_TRUE(FailsWith(
        WithOp("op = \"" + std::string(op) + "\"\ntable = \"Flat\"\nkey = \"K\"\nsort = \"S\"\n"),
        "phases[0].mix[0].sort: table \"Flat\" has no sort key"))
        << op;
    const Operation ok = MustParseOp("op = \"" + std::string(op) +
                                     "\"\ntable = \"Shop\"\nkey = \"K\"\nsort = \"S\"\n");
    EXPECT_EQ(Text(ok.sort), "S");
  }
  EXPECT_TRUE(FailsWith(WithOp("op = \"query\"\ntable = \"Shop\"\nkey = \"K\"\nsort = \"S\"\n"),
                        "phases[0].mix[0].sort: a query takes no sort (use sort_prefix to narrow "
                        "it)"));
  EXPECT_TRUE(FailsWith(WithOp("op = \"scan\"\ntable = \"Shop\"\nsort = \"S\"\n"),
                        "phases[0].mix[0].sort: a scan takes no sort"));
  // sort_prefix: queries of a table or an index with a sort key.
  EXPECT_EQ(Text(MustParseOp("op = \"query\"\ntable = \"Shop\"\nkey = \"K\"\n"
                             "sort_prefix = \"ORDER#{key}\"\n")
                     .sort_prefix),
            "ORDER#{key}");
  EXPECT_TRUE(FailsWith(WithOp("op = \"query\"\ntable = \"Flat\"\nkey = \"K\"\n"
                               "sort_prefix = \"A\"\n"),
                        "phases[0].mix[0].sort_prefix: table \"Flat\" has no sort key"));
  EXPECT_TRUE(FailsWith(WithOp("op = \"query\"\ntable = \"Shop\"\nindex = \"ByPk\"\nkey = \"K\"\n"
                               "sort_prefix = \"A\"\n"),
                        "phases[0].mix[0].sort_prefix: index \"ByPk\" has no sort key"));
  MustParseOp(
      "op = \"query\"\ntable = \"Shop\"\nindex = \"GSI1\"\nkey = \"K\"\nsort_prefix = \"A\"\n");
  EXPECT_TRUE(FailsWith(WithOp("op = \"get\"\ntable = \"Shop\"\nkey = \"K\"\nsort = \"S\"\n"
                               "sort_prefix = \"A\"\n"),
                        "sort_prefix: \"sort_prefix\" does not apply to get (only to query)"));
  // Preload.
  EXPECT_TRUE(
      FailsWith(Doc("", "[[preload]]\ntable = \"Shop\"\nkey = \"K\"\nkeys = 1\n"),
                "preload[0]: missing required key \"sort\": table \"Shop\" has a sort key"));
  EXPECT_TRUE(FailsWith(Doc("",
                            "[[preload]]\ntable = \"Flat\"\nkey = \"K\"\nsort = \"S\"\n"
                            "keys = 1\n"),
                        "preload[0].sort: table \"Flat\" has no sort key"));
}

TEST(WorkloadTomlTest, KeysAndTemplates) {
  EXPECT_TRUE(FailsWith(WithOp("op = \"scan\"\ntable = \"Flat\"\nkey = \"K\"\n"),
                        "phases[0].mix[0].key: a scan takes no key"));
  EXPECT_TRUE(FailsWith(WithOp("op = \"get\"\ntable = \"Flat\"\nkey = \"\"\n"),
                        "phases[0].mix[0].key: must not be empty"));
  EXPECT_TRUE(
      FailsWith(WithOp("op = \"get\"\ntable = \"Flat\"\nkey = \"USER#{id}\"\n"),
                "phases[0].mix[0].key: unknown placeholder {id} in template \"USER#{id}\""));
  EXPECT_TRUE(FailsWith(WithOp("op = \"get\"\ntable = \"Shop\"\nkey = \"K\"\nsort = \"{key:6}\"\n"),
                        "phases[0].mix[0].sort: bad width"));
  EXPECT_TRUE(FailsWith(Doc("", "[[preload]]\ntable = \"Flat\"\nkey = \"K{\"\nkeys = 1\n"),
                        "preload[0].key: unclosed '{'"));
  const Operation op = MustParseOp("op = \"get\"\ntable = \"Flat\"\nkey = \"USER#{key:06}\"\n");
  EXPECT_EQ(op.key.Expand({.key = 42}), "USER#000042");
}

TEST(WorkloadTomlTest, Attributes) {
  const Operation put = MustParseOp(
      "op = \"put\"\ntable = \"Shop\"\nkey = \"K\"\nsort = \"S\"\n"
      "attributes = { GSI1PK = \"C#{key}\", note = \"\" }\n");
  ASSERT_EQ(put.attributes.size(), 2u);
  EXPECT_EQ(put.attributes[0].first, "GSI1PK");
  EXPECT_EQ(put.attributes[1].first, "note");
  EXPECT_TRUE(put.attributes[1].second.empty());
  EXPECT_TRUE(
      FailsWith(WithOp("op = \"put\"\ntable = \"Shop\"\nkey = \"K\"\nsort = \"S\"\n"
                       "attributes = { SK = \"x\" }\n"),
                "phases[0].mix[0].attributes.SK: \"SK\" is a key attribute of table \"Shop\""));
  EXPECT_TRUE(FailsWith(Doc("",
                            "[[preload]]\ntable = \"Flat\"\nkey = \"K\"\nkeys = 1\n"
                            "attributes = { id = \"x\" }\n"),
                        "preload[0].attributes.id: \"id\" is a key attribute of table \"Flat\""));
  EXPECT_TRUE(FailsWith(WithOp("op = \"put\"\ntable = \"Flat\"\nkey = \"K\"\n"
                               "attributes = { a = \"{nope}\" }\n"),
                        "phases[0].mix[0].attributes.a: unknown placeholder {nope}"));
  EXPECT_TRUE(FailsWith(WithOp("op = \"delete\"\ntable = \"Flat\"\nkey = \"K\"\n"
                               "attributes = { a = \"b\" }\n"),
                        "phases[0].mix[0].attributes: \"attributes\" does not apply to delete"));
  EXPECT_TRUE(FailsWith(WithOp("op = \"put\"\ntable = \"Flat\"\nkey = \"K\"\n"
                               "attributes = { \"\" = \"b\" }\n"),
                        "an attribute name must be 1 to 255 bytes long"));
}

TEST(WorkloadTomlTest, Batches) {
  struct Case {
    std::string_view op;
    int max;
  };
  for (const Case& c : {Case{"batch_get", 100}, Case{"batch_write", 25},
                        Case{"transact_write", 100}, Case{"transact_get", 100}}) {
    const std::string head = "op = \"" + std::string(c.op) + "\"\ntable = \"Flat\"\nkey = \"K\"\n";
    EXPECT_EQ(MustParseOp(head + "batch = " + std::to_string(c.max) + "\n").batch, c.max);
    EXPECT_EQ(MustParseOp(head + "batch = 1\n").batch, 1);
    EXPECT_TRUE(FailsWith(WithOp(head + "batch = " + std::to_string(c.max + 1) + "\n"),
                          "phases[0].mix[0].batch: must be between 1 and " + std::to_string(c.max) +
                              " for " + std::string(c.op) + ", got " + std::to_string(c.max + 1)));
    EXPECT_TRUE(FailsWith(WithOp(head + "batch = 0\n"), "batch: must be at least 1, got 0"));
  }
  EXPECT_EQ(MustParseOp("op = \"get\"\ntable = \"Flat\"\nkey = \"K\"\nbatch = 1\n").batch, 1);
  EXPECT_TRUE(FailsWith(WithOp("op = \"get\"\ntable = \"Flat\"\nkey = \"K\"\nbatch = 2\n"),
                        "phases[0].mix[0].batch: \"batch\" does not apply to get (only to "
                        "batch_get, batch_write, transact_write and transact_get)"));
  EXPECT_TRUE(FailsWith(WithOp("op = \"scan\"\ntable = \"Flat\"\nbatch = 5\n"),
                        "\"batch\" does not apply to scan"));
}

TEST(WorkloadTomlTest, ReadOptions) {
  // consistent_read: get, query, scan and batch_get; never with an index.
  EXPECT_TRUE(MustParseOp("op = \"query\"\ntable = \"Shop\"\nkey = \"K\"\nconsistent_read = true\n")
                  .consistent_read);
  EXPECT_TRUE(FailsWith(WithOp("op = \"query\"\ntable = \"Shop\"\nindex = \"GSI1\"\nkey = \"K\"\n"
                               "consistent_read = true\n"),
                        "phases[0].mix[0].consistent_read: global secondary indexes have no "
                        "strongly consistent reads"));
  EXPECT_TRUE(FailsWith(WithOp("op = \"scan\"\ntable = \"Flat\"\nindex = \"ByOwner\"\n"
                               "consistent_read = true\n"),
                        "global secondary indexes have no strongly consistent reads"));
  MustParseOp("op = \"scan\"\ntable = \"Flat\"\nindex = \"ByOwner\"\nconsistent_read = false\n");
  EXPECT_TRUE(FailsWith(WithOp("op = \"transact_get\"\ntable = \"Flat\"\nkey = \"K\"\n"
                               "consistent_read = true\n"),
                        "\"consistent_read\" does not apply to transact_get (only to get, query, "
                        "scan and batch_get)"));
  // limit: query and scan, 0 (none) to 10000.
  EXPECT_EQ(MustParseOp("op = \"scan\"\ntable = \"Flat\"\nlimit = 0\n").limit, 0);
  EXPECT_EQ(MustParseOp("op = \"scan\"\ntable = \"Flat\"\nlimit = 10000\n").limit, 10000);
  EXPECT_TRUE(FailsWith(WithOp("op = \"scan\"\ntable = \"Flat\"\nlimit = 10001\n"),
                        "phases[0].mix[0].limit: must be between 0 and 10000, got 10001"));
  EXPECT_TRUE(FailsWith(WithOp("op = \"get\"\ntable = \"Flat\"\nkey = \"K\"\nlimit = 5\n"),
                        "\"limit\" does not apply to get (only to query and scan)"));
  // scan_forward: query only.
  EXPECT_TRUE(FailsWith(WithOp("op = \"scan\"\ntable = \"Flat\"\nscan_forward = false\n"),
                        "\"scan_forward\" does not apply to scan (only to query)"));
}

TEST(WorkloadTomlTest, OperationRules) {
  EXPECT_TRUE(FailsWith(WithOp("op = \"get\"\ntable = \"Flat\"\nkey = \"K\"\nweight = 0\n"),
                        "phases[0].mix[0].weight: must be greater than 0"));
  EXPECT_TRUE(FailsWith(WithOp("op = \"get\"\ntable = \"Flat\"\nkey = \"K\"\nweight = -2\n"),
                        "weight: must be between 0 and 1000000000, got -2"));
  EXPECT_EQ(MustParseOp("op = \"get\"\ntable = \"Flat\"\nkey = \"K\"\nweight = 0.001\n").weight,
            0.001);
  EXPECT_TRUE(FailsWith(WithOp("op = \"get\"\ntable = \"Flat\"\nkey = \"K\"\nitems = 0\n"),
                        "phases[0].mix[0].items: must be between 1 and 1000000, got 0"));
  EXPECT_EQ(MustParseOp("op = \"get\"\ntable = \"Flat\"\nkey = \"K\"\nitems = 1000000\n").items,
            1'000'000);
  // counter: update only, not a key attribute nor one of the attributes it SETs.
  EXPECT_TRUE(FailsWith(WithOp("op = \"put\"\ntable = \"Flat\"\nkey = \"K\"\ncounter = \"c\"\n"),
                        "\"counter\" does not apply to put (only to update)"));
  EXPECT_TRUE(
      FailsWith(WithOp("op = \"update\"\ntable = \"Flat\"\nkey = \"K\"\ncounter = \"id\"\n"),
                "phases[0].mix[0].counter: \"id\" is a key attribute of table \"Flat\""));
  EXPECT_TRUE(FailsWith(WithOp("op = \"update\"\ntable = \"Flat\"\nkey = \"K\"\ncounter = \"\"\n"),
                        "counter: an attribute name must not be empty"));
  EXPECT_TRUE(FailsWith(WithOp("op = \"update\"\ntable = \"Flat\"\nkey = \"K\"\n"
                               "attributes = { n = \"x\" }\n"),
                        "the counter \"n\" is also one of the attributes SET"));
  const Operation update = MustParseOp(
      "op = \"update\"\ntable = \"Flat\"\nkey = \"K\"\n"
      "attributes = { status = \"x\" }\nsize = 300\n");
  EXPECT_EQ(update.counter, "n");
  EXPECT_EQ(update.attributes.size(), 1u);
  // A counter that is a GSI key (its keys are strings), given or by default, is refused.
  EXPECT_TRUE(FailsWith(WithOp("op = \"update\"\ntable = \"Flat\"\nkey = \"K\"\n"
                               "counter = \"owner\"\n"),
                        "\"owner\" is a key attribute of table \"Flat\" or one of its GSIs"));
}

TEST(WorkloadTomlTest, ThePaddingAttributeIsReserved) {
  // "data" pads generated items to their size: it may not be a key, an attribute or a counter.
  EXPECT_TRUE(FailsWith(WithOp("op = \"put\"\ntable = \"Flat\"\nkey = \"K\"\n"
                               "attributes = { data = \"x\" }\n"),
                        "phases[0].mix[0].attributes.data: \"data\" is reserved"));
  EXPECT_TRUE(FailsWith(WithOp("op = \"update\"\ntable = \"Flat\"\nkey = \"K\"\n"
                               "counter = \"data\"\n"),
                        "counter: \"data\" is reserved"));
  EXPECT_TRUE(
      FailsWith("name = \"t\"\n[[tables]]\nname = \"Tab\"\npartition_key = \"data\"\n"
                "billing = \"on-demand\"\n" +
                    std::string(kPhase),
                "tables[0].partition_key: \"data\" is reserved"));
}

// --- Preload and sharding ------------------------------------------------------------------------

TEST(WorkloadTomlTest, PreloadRanges) {
  const std::string head = "[[preload]]\ntable = \"Flat\"\nkey = \"K{key}\"\n";
  EXPECT_TRUE(FailsWith(Doc("", head + "keys = 0\n"),
                        "preload[0].keys: must be between 1 and 100000000, got 0"));
  EXPECT_TRUE(FailsWith(Doc("", head + "keys = 100000001\n"), "must be between 1 and 100000000"));
  EXPECT_TRUE(FailsWith(Doc("", head + "keys = 1\nitems_per_key = 1000001\n"),
                        "preload[0].items_per_key: must be between 1 and 1000000"));
  EXPECT_TRUE(FailsWith(Doc("", head + "keys = 20001\nitems_per_key = 1000\n"),
                        "preload[0]: keys x items_per_key = 20001000 items, more than the "
                        "20000000 allowed"));
  EXPECT_EQ(MustParse(Doc("", head + "keys = 20000\nitems_per_key = 1000\n")).preload[0].keys,
            20000);
  std::string many;
  for (int i = 0; i < 101; ++i) many += head + "keys = 1\n";
  EXPECT_TRUE(FailsWith(Doc("", many), "preload: at most 100 [[preload]] are allowed, got 101"));
}

TEST(WorkloadTomlTest, ShardingRules) {
  const auto sharding = [](std::string_view body) {
    return Doc("", "[[sharding]]\n" + std::string(body));
  };
  EXPECT_TRUE(FailsWith(sharding("table = \"Shop\"\nkey = \"A\"\nprefix = \"B\"\nshards = 2\n"),
                        "sharding[0].prefix: give either key (one partition key) or prefix, not "
                        "both"));
  EXPECT_TRUE(FailsWith(sharding("table = \"Shop\"\nshards = 2\n"),
                        "sharding[0]: missing \"key\" (one partition key) or \"prefix\""));
  EXPECT_TRUE(FailsWith(sharding("table = \"Shop\"\nprefix = \"\"\nshards = 2\n"),
                        "sharding[0].prefix: must not be empty"));
  EXPECT_TRUE(FailsWith(sharding("table = \"Shop\"\nkey = \"A\"\nshards = 0\n"),
                        "sharding[0].shards: must be between 1 and 1000, got 0"));
  EXPECT_TRUE(FailsWith(sharding("table = \"Shop\"\nkey = \"A\"\nshards = 1001\n"),
                        "must be between 1 and 1000"));
  EXPECT_TRUE(FailsWith(sharding("table = \"Shop\"\nkey = \"A\"\nshards = 2\n"
                                 "strategy = \"hashed\"\n"),
                        "sharding[0].strategy: unknown strategy \"hashed\" (expected one of "
                        "random, calculated)"));
  EXPECT_TRUE(
      FailsWith(sharding("table = \"Shop\"\nkey = \"A\"\nshards = 2\nsuffix = \"#S\"\n"),
                "sharding[0].suffix: must contain \"<n>\" (the shard number) exactly once"));
  EXPECT_TRUE(FailsWith(sharding("table = \"Shop\"\nkey = \"A\"\nshards = 2\n"
                                 "suffix = \"<n><n>\"\n"),
                        "exactly once"));
  EXPECT_TRUE(FailsWith(sharding("table = \"Shop\"\nkey = \"A\"\nshards = 2\n"
                                 "calculated_from = \"SK\"\n"),
                        "sharding[0].calculated_from: applies to strategy = \"calculated\" only"));
  EXPECT_TRUE(FailsWith(sharding("table = \"Flat\"\nkey = \"A\"\nshards = 2\n"
                                 "strategy = \"calculated\"\n"),
                        "sharding[0].strategy: strategy = \"calculated\" needs calculated_from: "
                        "table \"Flat\" has no sort key"));
  EXPECT_TRUE(FailsWith(sharding("table = \"Shop\"\nindex = \"ByPk\"\nkey = \"A\"\nshards = 2\n"
                                 "strategy = \"calculated\"\n"),
                        "index \"ByPk\" has no sort key"));
  EXPECT_TRUE(FailsWith(sharding("table = \"Shop\"\nkey = \"A\"\nshards = 2\n"
                                 "strategy = \"calculated\"\ncalculated_from = \"PK\"\n"),
                        "sharding[0].calculated_from: cannot be the partition key it shards (PK)"));
  EXPECT_TRUE(FailsWith(sharding("table = \"Shop\"\nkey = \"A\"\nshards = 2\n"
                                 "logical_key_attribute = \"GSI1SK\"\n"),
                        "sharding[0].logical_key_attribute: \"GSI1SK\" is a key attribute of "
                        "table \"Shop\" or its indexes"));
  const Workload calculated =
      MustParse(sharding("table = \"Flat\"\nkey = \"A\"\nshards = 2\n"
                         "strategy = \"calculated\"\n"
                         "calculated_from = \"userId\"\n"));
  EXPECT_EQ(calculated.sharding[0].policy.calculated_from, "userId");
  EXPECT_TRUE(FailsWith(WithPhase("name = \"p\"\nduration = 1\nrate = 1\n[[phases.sharding]]\n"
                                  "table = \"Flat\"\nkey = \"A\"\n"),
                        "phases[0].sharding[0]: missing required key \"shards\""));
}

}  // namespace
}  // namespace partstore::sim
