// partstore bench: the in-process targets keep the Target contract; the workloads are YCSB's; the
// histogram's percentiles; the runner's mixes, inserts, misses and errors.
#include "tools/bench/runner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <thread>

#include "tests/bench/target_testutil.h"
#include "tools/bench/bare_map_target.h"
#include "tools/bench/engine_target.h"
#include "tools/bench/histogram.h"
#include "tools/bench/workloads.h"

namespace partstore::bench {
namespace {

TEST(BenchTargets, EngineKeepsTheContract) {
  auto engine = MakeEngineTarget("engine");
  testing::CheckTargetContract(*engine);
  testing::CheckTargetContract(*engine);  // Prepare starts over
}

TEST(BenchTargets, BareMapKeepsTheContract) {
  auto bare = MakeBareMapTarget("bare-map");
  testing::CheckTargetContract(*bare);
  testing::CheckTargetContract(*bare);
}

TEST(BenchTargets, BareMapMovesGsiEntriesWhenAnItemIsReplaced) {
  auto bare = MakeBareMapTarget("bare-map");
  const TableSpec t = testing::ContractPairTable();
  ASSERT_TRUE(bare->Prepare(std::vector<TableSpec>{t}).ok());
  auto s = bare->NewSession();
  ASSERT_TRUE(s.ok());
  ASSERT_TRUE((*s)->Put(t, {{{"PK", "A"}, {"SK", "1"}, {"GSI1PK", "G1"}, {"GSI1SK", "x"}}}).ok());
  ASSERT_TRUE((*s)->Put(t, {{{"PK", "A"}, {"SK", "1"}, {"GSI1PK", "G2"}, {"GSI1SK", "x"}}}).ok());
  ReadOutcome old_key, new_key;
  ASSERT_TRUE((*s)->Query(t, true, "G1", "", 10, &old_key).ok());
  ASSERT_TRUE((*s)->Query(t, true, "G2", "", 10, &new_key).ok());
  EXPECT_EQ(old_key.items, 0);
  EXPECT_EQ(new_key.items, 1);
}

// Sessions of one target on many threads (run under ThreadSanitizer by tools/run): puts and
// updates moving items between GSI partitions while others query them; afterwards every item is
// on exactly one GSI partition.
TEST(BenchTargets, ConcurrentGsiMovesKeepEveryItemOnceOnTheGsi) {
  const TableSpec t = testing::ContractPairTable();
  std::vector<std::unique_ptr<Target>> targets;
  targets.push_back(MakeEngineTarget("engine"));
  targets.push_back(MakeBareMapTarget("bare-map"));
  constexpr int kItems = 8, kGsiPartitions = 3, kThreads = 4, kOps = 1'500;
  for (auto& target : targets) {
    SCOPED_TRACE(target->name());
    ASSERT_TRUE(target->Prepare(std::vector<TableSpec>{t}).ok());
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int th = 0; th < kThreads; ++th) {
      threads.emplace_back([&, th] {
        auto session = target->NewSession();
        if (!session.ok()) {
          ++failures;
          return;
        }
        std::mt19937 rng(th);
        for (int i = 0; i < kOps; ++i) {
          const std::string sk = std::to_string(rng() % kItems);
          const std::string gsi = "G" + std::to_string(rng() % kGsiPartitions);
          Status s;
          ReadOutcome out;
          switch (rng() % 3) {
            case 0:
              s = (*session)->Put(t, {{{"PK", "P"}, {"SK", sk}, {"GSI1PK", gsi}, {"GSI1SK", sk}}});
              break;
            case 1:
              s = (*session)->Update(t, {"P", sk}, "GSI1PK", gsi);
              break;
            default:
              s = (*session)->Query(t, true, gsi, "", kItems, &out);
          }
          if (!s.ok()) ++failures;
        }
      });
    }
    for (std::thread& th : threads) th.join();
    EXPECT_EQ(failures.load(), 0);
    auto session = target->NewSession();
    ASSERT_TRUE(session.ok());
    int on_gsi = 0;
    for (int g = 0; g < kGsiPartitions; ++g) {
      ReadOutcome out;
      ASSERT_TRUE((*session)->Query(t, true, "G" + std::to_string(g), "", 100, &out).ok());
      on_gsi += out.items;
    }
    ReadOutcome table;
    ASSERT_TRUE((*session)->Query(t, false, "P", "", 100, &table).ok());
    EXPECT_EQ(on_gsi, table.items);
    EXPECT_LE(table.items, kItems);
  }
}

TEST(BenchWorkloads, YcsbKeysAreFnvHashedRecordNumbers) {
  // YCSB's Utils.fnvhash64(0..2) made non-negative (computed with the Java algorithm).
  EXPECT_EQ(Dataset::YcsbKey(0), "user6284781860667377211");
  EXPECT_EQ(Dataset::YcsbKey(1), "user8517097267634966620");
  EXPECT_EQ(Dataset::YcsbKey(2), "user1820151046732198393");
}

// YCSB's scrambled zipfian: the hottest record is rank 0's hash, not record 0, and it gets rank
// 0's share of 1 / zeta(10^10, 0.99) (about 3.8%) plus what the tail's ranks hash onto it; the
// unscrambled chooser (for D's "latest") keeps rank 0 = record 0; uniform is flat.
TEST(BenchWorkloads, ZipfianRecordsAreScrambledAsYcsbDoes) {
  constexpr int64_t kRecords = 1'000;
  constexpr int kDraws = 200'000;
  auto counts = [&](RecordChooser chooser) {
    sim::Random random(7);
    std::vector<int> n(kRecords);
    for (int i = 0; i < kDraws; ++i) {
      const int64_t r = chooser.Next(random);
      EXPECT_TRUE(r >= 0 && r < kRecords) << r;
      if (r >= 0 && r < kRecords) ++n[static_cast<size_t>(r)];
    }
    return n;
  };
  auto hottest = [](const std::vector<int>& n) {
    return std::max_element(n.begin(), n.end()) - n.begin();
  };
  const std::vector<int> scrambled = counts(RecordChooser(Distribution::kZipfian, kRecords, true));
  EXPECT_EQ(hottest(scrambled), static_cast<int64_t>(Dataset::FnvHash64(0) % kRecords));
  const double share = scrambled[hottest(scrambled)] / double{kDraws};
  EXPECT_GT(share, 0.035);
  EXPECT_LT(share, 0.05);
  const std::vector<int> plain = counts(RecordChooser(Distribution::kZipfian, kRecords, false));
  EXPECT_EQ(hottest(plain), 0);
  EXPECT_GT(plain[0], scrambled[hottest(scrambled)]);  // zeta(1000) < zeta(10^10)
  const std::vector<int> uniform = counts(RecordChooser(Distribution::kUniform, kRecords, true));
  EXPECT_LT(*std::max_element(uniform.begin(), uniform.end()), 2 * kDraws / kRecords);
}

TEST(BenchWorkloads, YcsbProportionsAndRecords) {
  const std::vector<Workload> w = YcsbWorkloads();
  ASSERT_EQ(w.size(), 6u);
  for (const Workload& x : w) {
    EXPECT_NEAR(x.read + x.update + x.insert + x.scan + x.read_modify_write, 1.0, 1e-12) << x.name;
  }
  EXPECT_EQ(w[0].update, 0.5);
  EXPECT_EQ(w[1].update, 0.05);
  EXPECT_TRUE(w[2].point_reads_only());
  EXPECT_TRUE(w[3].latest);
  EXPECT_EQ(w[4].scan, 0.95);
  EXPECT_EQ(w[5].read_modify_write, 0.5);
  EXPECT_EQ(FindWorkload("ycsb-c")->name, "ycsb-c");
  EXPECT_EQ(FindWorkload("seed-followers-page")->seed_op, OpType::kFollowersPage);
  EXPECT_EQ(FindWorkload("nope"), nullptr);

  Dataset data({.records = 10});
  sim::Random random(1);
  BenchItem r = data.YcsbRecord(3, random);
  ASSERT_EQ(r.attributes.size(), 11u);  // key + field0..field9
  EXPECT_EQ(r.Get("YCSB_KEY"), Dataset::YcsbKey(3));
  EXPECT_EQ(r.Get("field9").size(), 100u);
  for (char c : r.Get("field0")) EXPECT_TRUE(c > ' ' && c <= '~');
}

TEST(BenchWorkloads, SeedModelHasTheDocumentedShape) {
  DatasetOptions o;
  o.records = 1;
  o.users = 40;
  Dataset data(o);
  std::map<std::string, int> by_type;
  std::set<std::pair<std::string, std::string>> keys;
  for (const BenchItem& item : data.SeedItems()) {
    ++by_type[std::string(item.Get("type"))];
    EXPECT_TRUE(keys.emplace(item.Get("PK"), item.Get("SK")).second) << "duplicate key";
  }
  EXPECT_EQ(by_type["user"], 40);
  EXPECT_EQ(by_type["follower"], 40 * 30);
  EXPECT_EQ(by_type["order"], 40 * 5);
  EXPECT_EQ(by_type["order_item"], 40 * 5 * 3);
  EXPECT_EQ(by_type["product"], 10);
  EXPECT_EQ(by_type["review"], 10 * 10);
}

TEST(BenchHistogram, PercentilesWithinThreePercent) {
  Histogram h;
  EXPECT_EQ(h.Percentile(0.5), 0u);
  for (uint64_t v = 1; v <= 100'000; ++v) h.Record(v * 10);  // 10 ns .. 1 ms uniformly
  EXPECT_EQ(h.count(), 100'000u);
  EXPECT_EQ(h.max(), 1'000'000u);
  EXPECT_NEAR(h.mean(), 500'005.0, 1.0);
  for (double q : {0.5, 0.9, 0.99, 0.999}) {
    const double expected = q * 1'000'000;
    EXPECT_NEAR(static_cast<double>(h.Percentile(q)), expected, expected * 0.035) << q;
  }
  EXPECT_EQ(h.Percentile(1.0), 1'000'000u);
  Histogram small;
  small.Record(7);
  small.Record(7);
  EXPECT_EQ(small.Percentile(0.5), 7u);  // below 32: exact
  Histogram huge;
  huge.Record(uint64_t{1} << 60);  // beyond the last bucket: clamped, not out of bounds
  EXPECT_EQ(huge.Percentile(0.5), uint64_t{1} << 60);
  h.Merge(small);
  EXPECT_EQ(h.count(), 100'002u);
}

class BenchRunner : public ::testing::Test {
 protected:
  static DatasetOptions Small() {
    DatasetOptions o;
    o.records = 2'000;
    o.users = 40;
    return o;
  }
  static CellOptions Quick(Distribution d, int threads) {
    CellOptions c;
    c.distribution = d;
    c.threads = threads;
    c.seconds = 0.15;
    c.warmup_seconds = 0.02;
    return c;
  }
};

TEST_F(BenchRunner, EveryWorkloadRunsOnTheEngineWithoutErrorsOrMisses) {
  Dataset data(Small());
  auto engine = MakeEngineTarget("engine");
  TargetState state(*engine, data);
  ASSERT_TRUE(state.Load(2).ok());
  EXPECT_EQ(state.loaded_items(), 2'000 + static_cast<int64_t>(data.SeedItems().size()));
  std::vector<Workload> all = YcsbWorkloads();
  for (Workload& s : SeedWorkloads()) all.push_back(s);
  for (const Workload& w : all) {
    for (Distribution d : {Distribution::kZipfian, Distribution::kUniform}) {
      auto cell = RunCell(state, w, Quick(d, 2));
      ASSERT_TRUE(cell.ok()) << cell.status().ToString();
      EXPECT_GT(cell->operations, 50u) << w.name;
      EXPECT_EQ(cell->errors, 0u) << w.name << ": " << cell->first_error;
      EXPECT_EQ(cell->misses, 0u) << w.name;
      EXPECT_EQ(cell->latency.count(), cell->operations) << w.name;
      EXPECT_GT(cell->ops_per_second, 0) << w.name;
      EXPECT_EQ(cell->threads, 2);
    }
  }
}

TEST_F(BenchRunner, MixesFollowTheWorkloadAndInsertsGrowTheTable) {
  Dataset data(Small());
  auto bare = MakeBareMapTarget("bare-map");
  TargetState state(*bare, data);
  ASSERT_TRUE(state.Load(1).ok());
  auto a = RunCell(state, *FindWorkload("ycsb-a"), Quick(Distribution::kZipfian, 1));
  ASSERT_TRUE(a.ok());
  ASSERT_EQ(a->ops.size(), 2u);
  EXPECT_EQ(a->ops[0].op, OpType::kRead);
  EXPECT_EQ(a->ops[1].op, OpType::kUpdate);
  const double share = static_cast<double>(a->ops[1].count) / a->operations;
  EXPECT_NEAR(share, 0.5, 0.05);

  auto d = RunCell(state, *FindWorkload("ycsb-d"), Quick(Distribution::kZipfian, 2));
  ASSERT_TRUE(d.ok());
  uint64_t inserts = 0;
  for (const OpResult& r : d->ops) {
    if (r.op == OpType::kInsert) inserts = r.count;
  }
  EXPECT_GT(inserts, 0u);
  EXPECT_EQ(d->misses, 0u);  // "latest" reads find the newest records
  // Inserts during warm-up are not counted but did happen: at least the measured ones.
  EXPECT_GE(state.next_record().load(), 2'000 + static_cast<int64_t>(inserts));
}

// A target whose every operation fails: the runner counts errors, keeps the first message and
// reports no throughput.
class FailingSession final : public Session {
 public:
  Status Get(const TableSpec&, ItemKey, ReadOutcome*) override { return Fail(); }
  Status Put(const TableSpec&, const BenchItem&) override { return Fail(); }
  Status Update(const TableSpec&, ItemKey, std::string_view, std::string_view) override {
    return Fail();
  }
  Status Query(const TableSpec&, bool, std::string_view, std::string_view, int,
               ReadOutcome*) override {
    return Fail();
  }
  Status Scan(const TableSpec&, std::string_view, int, ReadOutcome*) override { return Fail(); }

 private:
  static Status Fail() { return Status::Internal("connection refused"); }
};
class FailingTarget final : public Target {
 public:
  const std::string& name() const override { return name_; }
  Status Prepare(std::span<const TableSpec>) override { return Status::Ok(); }
  Result<std::unique_ptr<Session>> NewSession() override {
    return std::unique_ptr<Session>(std::make_unique<FailingSession>());
  }

 private:
  std::string name_ = "failing";
};

TEST_F(BenchRunner, ErrorsAreCountedNotTimed) {
  Dataset data(Small());
  FailingTarget target;
  TargetState state(target, data);
  EXPECT_FALSE(state.Load(1).ok());  // the load reports the failure
  auto cell = RunCell(state, *FindWorkload("ycsb-c"), Quick(Distribution::kUniform, 1));
  ASSERT_TRUE(cell.ok());
  EXPECT_GT(cell->errors, 0u);
  EXPECT_EQ(cell->errors, cell->operations);
  EXPECT_EQ(cell->ops_per_second, 0);
  EXPECT_EQ(cell->latency.count(), 0u);
  EXPECT_NE(cell->first_error.find("connection refused"), std::string::npos);
}

}  // namespace
}  // namespace partstore::bench
