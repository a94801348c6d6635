// The checkers on histories written by hand: each anomaly they must find, and the concurrent
// or uncertain histories they must accept.
#include <gtest/gtest.h>

#include "tests/consistency/append_checker_testutil.h"
#include "tests/consistency/register_checker_testutil.h"

namespace partstore::consistency {
namespace {

RegisterOp Reg(RegisterOpKind kind, std::optional<int64_t> value, int64_t from, int64_t to,
               Outcome outcome = Outcome::kOk) {
  return {.key = 0,
          .kind = kind,
          .value = value,
          .outcome = outcome,
          .invoked = from,
          .completed = outcome == Outcome::kUnknown ? kNever : to};
}
RegisterOp Put(int64_t v, int64_t from, int64_t to, Outcome outcome = Outcome::kOk) {
  return Reg(RegisterOpKind::kPut, v, from, to, outcome);
}
RegisterOp Read(std::optional<int64_t> v, int64_t from, int64_t to) {
  return Reg(RegisterOpKind::kRead, v, from, to);
}
RegisterOp Cas(std::optional<int64_t> expected, int64_t v, int64_t from, int64_t to,
               Outcome outcome) {
  RegisterOp op = Reg(RegisterOpKind::kCompareAndSet, v, from, to, outcome);
  op.expected = expected;
  return op;
}

TEST(RegisterCheckerTest, AcceptsSequentialAndConcurrentOrders) {
  EXPECT_TRUE(CheckRegisters({Put(1, 0, 1), Read(1, 2, 3), Put(2, 4, 5), Read(2, 6, 7)}).ok());
  // A read concurrent with a put may see the old value or the new one.
  EXPECT_TRUE(CheckRegisters({Put(1, 0, 1), Put(2, 2, 10), Read(1, 3, 4), Read(2, 5, 6)}).ok());
  EXPECT_TRUE(CheckRegisters({Put(1, 0, 1), Put(2, 2, 10), Read(2, 3, 4), Read(2, 5, 6)}).ok());
  // Touching in time counts as concurrent.
  EXPECT_TRUE(CheckRegisters({Put(1, 0, 5), Read(std::nullopt, 5, 6)}).ok());
}

TEST(RegisterCheckerTest, FindsAStaleRead) {
  const CheckReport report =
      CheckRegisters({Put(1, 0, 1), Put(2, 2, 3), Read(2, 4, 5), Read(1, 6, 7)});
  ASSERT_FALSE(report.ok());
  EXPECT_NE(report.anomalies[0].find("not linearizable"), std::string::npos) << report.ToString();
  EXPECT_NE(report.anomalies[0].find("read 1 of k0"), std::string::npos) << report.ToString();
}

TEST(RegisterCheckerTest, FindsALostUpdate) {
  EXPECT_FALSE(CheckRegisters({Put(1, 0, 1), Read(std::nullopt, 2, 3)}).ok());
  // Two increments that both saw nothing: one of them was lost.
  RegisterOp a = Reg(RegisterOpKind::kIncrement, 1, 0, 1);
  RegisterOp b = Reg(RegisterOpKind::kIncrement, 1, 2, 3);
  EXPECT_FALSE(CheckRegisters({a, b}).ok());
  b.value = 2;
  EXPECT_TRUE(CheckRegisters({a, b}).ok());
}

TEST(RegisterCheckerTest, ConditionsMustMatchAStateThatExisted) {
  // The compare-and-set found 1 and wrote 3; but 1 was gone before it was invoked.
  EXPECT_FALSE(CheckRegisters({Put(1, 0, 1), Put(2, 2, 3), Cas(1, 3, 4, 5, Outcome::kOk)}).ok());
  // Refused by its condition while the key held what it expected: impossible.
  EXPECT_FALSE(CheckRegisters({Put(1, 0, 1), Cas(1, 3, 2, 3, Outcome::kConditionFailed)}).ok());
  EXPECT_TRUE(CheckRegisters({Put(1, 0, 1), Cas(2, 3, 2, 3, Outcome::kConditionFailed),
                              Cas(1, 4, 4, 5, Outcome::kOk), Read(4, 6, 7)})
                  .ok());
}

TEST(RegisterCheckerTest, AnUnknownWriteMayTakeEffectLateOrNever) {
  // Not yet, then seen: it took effect between the reads.
  EXPECT_TRUE(
      CheckRegisters({Put(5, 0, 0, Outcome::kUnknown), Read(std::nullopt, 1, 2), Read(5, 3, 4)})
          .ok());
  // Never seen.
  EXPECT_TRUE(CheckRegisters({Put(5, 0, 0, Outcome::kUnknown), Read(std::nullopt, 1, 2)}).ok());
  // But once: seen, then gone again with nothing to remove it.
  EXPECT_FALSE(
      CheckRegisters({Put(5, 0, 0, Outcome::kUnknown), Read(5, 1, 2), Read(std::nullopt, 3, 4)})
          .ok());
  // An unknown compare-and-set may have met its condition or not.
  EXPECT_TRUE(CheckRegisters(
                  {Put(1, 0, 1), Cas(1, 2, 2, 0, Outcome::kUnknown), Read(1, 3, 4), Read(2, 5, 6)})
                  .ok());
}

TEST(RegisterCheckerTest, KeysAreCheckedApart) {
  RegisterOp other = Read(std::nullopt, 2, 3);
  other.key = 1;
  EXPECT_TRUE(CheckRegisters({Put(1, 0, 1), other}).ok());
  const CheckReport report = CheckRegisters({Put(1, 0, 1), other, Read(std::nullopt, 2, 3)});
  ASSERT_EQ(report.anomalies.size(), 1u) << report.ToString();
  EXPECT_EQ(report.anomalies[0].rfind("key k0:", 0), 0u) << report.ToString();
}

TEST(RegisterCheckerTest, AHistoryTooLargeToDecideIsNotCalledLinearizable) {
  std::vector<RegisterOp> ops;
  for (int i = 0; i < 40; ++i) ops.push_back(Put(i, 0, 100));
  ops.push_back(Read(-1, 101, 102));  // no put wrote -1: every order of the 40 puts is tried
  const CheckReport report = CheckRegisters(ops, /*max_steps_per_key=*/1000);
  ASSERT_FALSE(report.ok());
  EXPECT_NE(report.anomalies[0].find("could not decide"), std::string::npos) << report.ToString();
}

ListTxn Txn(std::vector<ListMicroOp> ops, int64_t from, int64_t to,
            Outcome outcome = Outcome::kOk) {
  return {.ops = std::move(ops),
          .outcome = outcome,
          .invoked = from,
          .completed = outcome == Outcome::kUnknown ? kNever : to,
          .origin = "test"};
}
ListMicroOp AppendOp(int key, int64_t element) {
  return {.append = true, .key = key, .element = element};
}
ListMicroOp ReadList(int key, std::vector<int64_t> list) {
  return {.key = key, .element = 0, .read = list};
}

TEST(AppendCheckerTest, AcceptsASerialHistoryAndConcurrentTransactions) {
  ListHistory h;
  h.txns = {Txn({AppendOp(0, 1), AppendOp(1, 2)}, 0, 1),
            Txn({ReadList(0, {1}), ReadList(1, {2})}, 2, 3), Txn({AppendOp(0, 3)}, 4, 10),
            Txn({ReadList(0, {1})}, 5, 6), Txn({ReadList(0, {1, 3})}, 11, 12)};
  const CheckReport report = CheckLists(h);
  EXPECT_TRUE(report.ok()) << report.ToString();
}

TEST(AppendCheckerTest, FindsAStaleRead) {
  ListHistory h;
  h.txns = {Txn({AppendOp(0, 1)}, 0, 1), Txn({AppendOp(0, 2)}, 2, 3),
            Txn({ReadList(0, {1})}, 4, 5)};
  const CheckReport report = CheckLists(h);
  EXPECT_TRUE(report.Mentions("cycle")) << report.ToString();
  EXPECT_TRUE(report.Mentions("-rw(k0)->")) << report.ToString();
  EXPECT_TRUE(report.Mentions("-rt->")) << report.ToString();
}

TEST(AppendCheckerTest, FindsALostWrite) {
  ListHistory h;
  h.txns = {Txn({AppendOp(0, 1)}, 0, 1), Txn({AppendOp(0, 2)}, 2, 3),
            Txn({ReadList(0, {1})}, 1, 2),  // concurrent with nothing it misses
            Txn({ReadList(0, {1})}, 4, 5)};
  const CheckReport report = CheckLists(h);
  EXPECT_TRUE(report.Mentions("lost or stale")) << report.ToString();
}

TEST(AppendCheckerTest, FindsATransactionSeenHalfApplied) {
  ListHistory h;
  // The reader runs alongside the transaction, so real time orders nothing: the half it saw
  // and the half it missed make the cycle.
  h.txns = {Txn({AppendOp(0, 1), AppendOp(1, 2)}, 0, 10),
            Txn({ReadList(0, {1}), ReadList(1, {})}, 1, 9)};
  const CheckReport report = CheckLists(h);
  EXPECT_TRUE(report.Mentions("-wr(k0)->")) << report.ToString();
  EXPECT_TRUE(report.Mentions("-rw(k1)->")) << report.ToString();
}

TEST(AppendCheckerTest, FindsWriteSkew) {
  // Each read the other's key before the other's append, and each appended: no serial order.
  ListHistory h;
  h.txns = {Txn({ReadList(0, {}), AppendOp(1, 1)}, 0, 10),
            Txn({ReadList(1, {}), AppendOp(0, 2)}, 0, 10),
            Txn({ReadList(0, {2}), ReadList(1, {1})}, 11, 12)};
  const CheckReport report = CheckLists(h);
  EXPECT_TRUE(report.Mentions("cycle of 2 transactions")) << report.ToString();
}

TEST(AppendCheckerTest, FindsAbortedGarbageAndDuplicateReads) {
  ListHistory h;
  h.failed = {Txn({AppendOp(0, 9)}, 0, 1)};
  h.txns = {Txn({AppendOp(0, 1)}, 0, 1), Txn({ReadList(0, {1, 9})}, 2, 3)};
  EXPECT_TRUE(CheckLists(h).Mentions("aborted read")) << CheckLists(h).ToString();
  h.txns[1] = Txn({ReadList(0, {1, 7})}, 2, 3);
  EXPECT_TRUE(CheckLists(h).Mentions("garbage")) << CheckLists(h).ToString();
  h.txns[1] = Txn({ReadList(0, {1, 1})}, 2, 3);
  EXPECT_TRUE(CheckLists(h).Mentions("duplicate")) << CheckLists(h).ToString();
}

TEST(AppendCheckerTest, FindsIncompatibleOrders) {
  ListHistory h;
  h.txns = {Txn({AppendOp(0, 1)}, 0, 10), Txn({AppendOp(0, 2)}, 0, 10),
            Txn({ReadList(0, {1, 2})}, 11, 12), Txn({ReadList(0, {2, 1})}, 11, 12)};
  EXPECT_TRUE(CheckLists(h).Mentions("incompatible orders")) << CheckLists(h).ToString();
}

TEST(AppendCheckerTest, AnUnknownAppendCountsWhenSeen) {
  ListHistory h;
  h.txns = {Txn({AppendOp(0, 1)}, 0, 0, Outcome::kUnknown), Txn({ReadList(0, {})}, 1, 2),
            Txn({ReadList(0, {1})}, 3, 4)};
  EXPECT_TRUE(CheckLists(h).ok()) << CheckLists(h).ToString();
  h.txns.push_back(Txn({ReadList(0, {})}, 5, 6));  // seen, then gone
  EXPECT_FALSE(CheckLists(h).ok());
}

}  // namespace
}  // namespace partstore::consistency
