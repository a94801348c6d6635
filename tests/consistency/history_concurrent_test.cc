// Histories recorded in-process: client threads share one Database, and the checkers must find
// no anomaly; then the same workload against stores broken on purpose (a stale read, a lost
// write, a transaction applied one action at a time), and the checkers must find each.
//
// PARTSTORE_HISTORY_SCALE=N multiplies the operations (the long run in the README).
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>

#include "partstore/database.h"
#include "tests/consistency/append_checker_testutil.h"
#include "tests/consistency/register_checker_testutil.h"
#include "tests/consistency/workload_testutil.h"
#include "tests/testutil/filler.h"
#include "tests/testutil/forwarding_store.h"

namespace partstore::consistency {
namespace {

struct Checked {
  RecordedHistory history;
  CheckReport registers, lists;
};

// `broken`: a store that breaks its promises on purpose (the checkers must find anomalies).
Checked RunAndCheck(Store& store, bool broken = false) {
  const size_t ops_per_client = 1500;
  WorkloadOptions options{.ops_per_client = ops_per_client * static_cast<size_t>(HistoryScale()),
                          .store = [&](int) -> Store& { return store; }};
  Checked out;
  out.history = RunWorkload(options);
  out.registers = CheckRegisters(out.history.registers);
  out.lists = CheckLists(out.history.lists);
  if (!broken) SaveIfFailed(out.history, out.registers, out.lists);
  std::cout << out.history.Summary() << "\n  registers: " << out.registers.ToString()
            << "\n  lists: " << out.lists.ToString().substr(0, 2000) << "\n";
  return out;
}

std::unique_ptr<Database> NewDatabase(DatabaseOptions options = {}) {
  auto db = Database::Open(std::move(options));
  EXPECT_TRUE(db.ok()) << db.status().ToString();
  EXPECT_TRUE(CreateWorkloadTables(**db).ok());
  return std::move(*db);
}

TEST(ConcurrentHistoryTest, EngineHistoriesAreLinearizableAndSerializable) {
  auto db = NewDatabase();
  const Checked c = RunAndCheck(*db);
  EXPECT_TRUE(c.registers.ok()) << c.registers.ToString();
  EXPECT_TRUE(c.lists.ok()) << c.lists.ToString();
  // The workload did what it is for: contention, refused conditions, transactions.
  EXPECT_GT(c.history.registers.size(), 800u * static_cast<size_t>(HistoryScale()));
  EXPECT_GT(c.history.lists.txns.size(), 800u * static_cast<size_t>(HistoryScale()));
  size_t condition_failed = 0;
  for (const RegisterOp& op : c.history.registers) {
    condition_failed += op.outcome == Outcome::kConditionFailed;
  }
  EXPECT_GT(condition_failed, 10u);
}

// At the memory limit in reject mode, a refused write is refused whole: no element of a refused
// append or transaction is ever read, and the registers stay linearizable.
TEST(ConcurrentHistoryTest, AtTheMemoryLimitRefusedWritesAreRefusedWhole) {
  DatabaseOptions limited;
  limited.memory = {.limit_bytes = 1 << 20, .policy = MemoryPolicy::kReject};
  auto db = NewDatabase(std::move(limited));
  // Fill the store to the limit, then free a little room for the workload to use up.
  ASSERT_TRUE(db->CreateTable(SimpleTable("Filler", KeySchema{{"PK", KeyType::kString}, {}})).ok());
  int filled = 0;
  for (;; ++filled) {
    auto put = db->PutItem({.table_name = "Filler",
                            .item = {{"PK", Value("f" + std::to_string(filled))},
                                     {"pad", Value(partstore::testing::Filler(200))}}});
    if (!put.ok()) {
      ASSERT_EQ(put.status().code(), Code::kMemoryLimitExceeded) << put.status().ToString();
      break;
    }
  }
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(
        db->DeleteItem({.table_name = "Filler", .key = {{"PK", Value("f" + std::to_string(i))}}})
            .ok());
  }
  const Checked c = RunAndCheck(*db);
  EXPECT_GT(c.history.refusals.count("MemoryLimitExceeded"), 0u)
      << "the limit was never reached: " << c.history.Summary();
  EXPECT_GT(c.history.lists.failed.size(), 0u);
  EXPECT_TRUE(c.registers.ok()) << c.registers.ToString();
  EXPECT_TRUE(c.lists.ok()) << c.lists.ToString();
}

// Every fourth consistent read answers what the store answered for that key the time before.
class StaleReads : public testing::ForwardingStore {
 public:
  using ForwardingStore::ForwardingStore;
  Result<GetItemResult> GetItem(const GetItemRequest& r) override {
    const std::string key = r.table_name + "/" + r.key.at("PK").as_string();
    {
      std::lock_guard lock(mu_);
      auto memo = last_.find(key);
      if (++reads_ % 4 == 0 && memo != last_.end()) return memo->second;
    }
    auto answer = inner_.GetItem(r);
    if (answer.ok()) {
      std::lock_guard lock(mu_);
      last_[key] = *answer;
    }
    return answer;
  }

 private:
  std::mutex mu_;
  uint64_t reads_ = 0;
  std::unordered_map<std::string, GetItemResult> last_;
};

// Every fifth PutItem, and every fifth UpdateItem that returns nothing, is acknowledged and
// dropped.
class LostWrites : public testing::ForwardingStore {
 public:
  using ForwardingStore::ForwardingStore;
  Result<PutItemResult> PutItem(const PutItemRequest& r) override {
    if (++writes_ % 5 == 0) return PutItemResult{};
    return inner_.PutItem(r);
  }
  Result<UpdateItemResult> UpdateItem(const UpdateItemRequest& r) override {
    if (r.return_values == ReturnValue::kNone && ++writes_ % 5 == 0) return UpdateItemResult{};
    return inner_.UpdateItem(r);
  }

 private:
  std::atomic<uint64_t> writes_{0};
};

// TransactWriteItems applied one action at a time, with a pause between them.
class TornTransactions : public testing::ForwardingStore {
 public:
  using ForwardingStore::ForwardingStore;
  Result<TransactWriteItemsResult> TransactWriteItems(const TransactWriteItemsRequest& r) override {
    for (const TransactWriteItem& action : r.transact_items) {
      Status done = action.put      ? inner_.PutItem(*action.put).status()
                    : action.update ? inner_.UpdateItem(*action.update).status()
                                    : Status::Ok();
      if (!done.ok()) return done;
      std::this_thread::sleep_for(std::chrono::microseconds(300));
    }
    return TransactWriteItemsResult{};
  }
};

TEST(ConcurrentHistoryTest, TheCheckersCatchAStaleRead) {
  auto db = NewDatabase();
  StaleReads broken(*db);
  const Checked c = RunAndCheck(broken, /*broken=*/true);
  EXPECT_TRUE(c.registers.Mentions("not linearizable")) << c.registers.ToString();
  EXPECT_FALSE(c.lists.ok());
}

TEST(ConcurrentHistoryTest, TheCheckersCatchALostWrite) {
  auto db = NewDatabase();
  LostWrites broken(*db);
  const Checked c = RunAndCheck(broken, /*broken=*/true);
  EXPECT_TRUE(c.registers.Mentions("not linearizable")) << c.registers.ToString();
  EXPECT_TRUE(c.lists.Mentions("lost or stale")) << c.lists.ToString();
}

// Each key on its own still looks linearizable; only the dependencies between transactions show
// that readers saw half of one.
TEST(ConcurrentHistoryTest, TheCheckersCatchATransactionSeenHalfApplied) {
  auto db = NewDatabase();
  TornTransactions broken(*db);
  const Checked c = RunAndCheck(broken, /*broken=*/true);
  EXPECT_TRUE(c.lists.Mentions("cycle")) << c.lists.ToString();
}

}  // namespace
}  // namespace partstore::consistency
