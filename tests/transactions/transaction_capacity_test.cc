// Transactions under the capacity simulation (manual clock): transactional writes cost twice,
// and an action that cannot be paid for cancels the transaction with
// ProvisionedThroughputExceeded on that action, nothing written.
#include <gtest/gtest.h>

#include "partstore/error_detail.h"
#include "tests/capacity/capacity_testutil.h"

namespace partstore::testing {
namespace {

class TransactionCapacityTest : public CapacityTest {};

TransactWriteItem PutOf(const std::string& table, const std::string& pk) {
  TransactWriteItem out;
  out.put = PutItemRequest{.table_name = table, .item = {{"PK", pk}}};
  return out;
}

TEST_F(TransactionCapacityTest, AThrottledActionCancelsTheTransaction) {
  Create(CapacityTable("Rich", 100, 100));
  Create(CapacityTable("Poor", 1, 1));  // 1 WCU: a new partition holds about a second of it
  // Each transaction costs 2 WCU on the poor table; the clock stands still, so one of the first
  // few is refused.
  Result<TransactWriteItemsResult> cancelled = TransactWriteItemsResult{};
  int attempt = 0;
  for (; attempt < 5 && cancelled.ok(); ++attempt) {
    cancelled =
        db_.TransactWriteItems({.transact_items = {PutOf("Rich", "a" + std::to_string(attempt)),
                                                   PutOf("Poor", "b" + std::to_string(attempt))}});
  }
  ASSERT_EQ(cancelled.status().code(), Code::kTransactionCanceled) << cancelled.status().ToString();
  const auto& reasons = cancelled.status().detail()->cancellation_reasons;
  ASSERT_EQ(reasons.size(), 2u);
  EXPECT_EQ(reasons[0].code, "None");
  EXPECT_EQ(reasons[1].code, "ProvisionedThroughputExceeded");
  EXPECT_TRUE(reasons[1].message->starts_with("The level of configured provisioned throughput"));
  // Nothing of the cancelled transaction was written.
  const std::string last = std::to_string(attempt - 1);
  auto rich =
      db_.GetItem({.table_name = "Rich", .key = {{"PK", "a" + last}}, .consistent_read = true});
  ASSERT_TRUE(rich.ok());
  EXPECT_FALSE(rich->item);
  // Two seconds later the poor table can pay for one again.
  Advance(2);
  EXPECT_TRUE(
      db_.TransactWriteItems({.transact_items = {PutOf("Rich", "c"), PutOf("Poor", "c")}}).ok());
}

TEST_F(TransactionCapacityTest, TransactionalWritesConsumeTwiceTheUnits) {
  Create(CapacityTable("Tab", 1000, 1000));
  auto done = db_.TransactWriteItems({.transact_items = {PutOf("Tab", "a"), PutOf("Tab", "b")},
                                      .return_consumed_capacity = ReturnConsumedCapacity::kTotal});
  ASSERT_TRUE(done.ok());
  EXPECT_EQ(done->consumed_capacity[0].CapacityUnits(), 4.0);
  auto metrics = db_.GetMetrics({.table_name = "Tab", .index_name = std::nullopt, .period = 60});
  ASSERT_TRUE(metrics.ok());
  ASSERT_FALSE(metrics->points.empty());
  EXPECT_EQ(metrics->points.back().counters.consumed_write_half_units, 8);  // 4 WCU
}

}  // namespace
}  // namespace partstore::testing
