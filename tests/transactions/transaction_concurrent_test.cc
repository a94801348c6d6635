// Transactions from several threads (ThreadSanitizer in CI: the names have "Concurrent").
//   - Bank transfers between accounts in two tables: the total is conserved at every
//     TransactGetItems and at the end.
//   - A transaction writing two items races single-item writers and readers of the same items:
//     no GetItem ever sees one half of it.
#include <gtest/gtest.h>

#include <atomic>
#include <random>
#include <thread>

#include "tests/shard/database_testutil.h"

namespace partstore::testing {
namespace {

constexpr int kAccounts = 8;

std::string TableOf(int account) { return account % 2 == 0 ? "Even" : "Odd"; }

TEST(TransactionConcurrent, BankTransfersConserveTheTotal) {
  DatabaseOptions options;
  options.stripes_per_table = 4;  // few stripes: transactions overlap often
  Database db(options);
  MustCreate(db, "Even", StringKeys(/*with_sort=*/false));
  MustCreate(db, "Odd", StringKeys(/*with_sort=*/false));
  for (int a = 0; a < kAccounts; ++a) {
    MustPut(db, TableOf(a), {{"PK", "acct" + std::to_string(a)}, {"balance", 100}});
  }
  std::atomic<int> committed{0}, cancelled{0}, audits{0};
  std::atomic<bool> running{true};
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t) {
    threads.emplace_back([&, t] {
      while (audits.load() == 0) std::this_thread::yield();  // the auditor runs throughout
      std::mt19937 rng(t);
      for (int i = 0; i < 400; ++i) {
        const int from = static_cast<int>(rng() % kAccounts);
        int to = static_cast<int>(rng() % kAccounts);
        if (to == from) to = (to + 1) % kAccounts;
        const int amount = 1 + static_cast<int>(rng() % 40);
        TransactWriteItem debit, credit;
        debit.update = UpdateItemRequest{
            .table_name = TableOf(from),
            .key = {{"PK", "acct" + std::to_string(from)}},
            .update_expression = "SET balance = balance - :a",
            .condition_expression = "balance >= :a",
            .expression_attribute_values = AttributeMap{{":a", amount}}};
        credit.update = UpdateItemRequest{
            .table_name = TableOf(to),
            .key = {{"PK", "acct" + std::to_string(to)}},
            .update_expression = "SET balance = balance + :a",
            .expression_attribute_values = AttributeMap{{":a", amount}}};
        auto done = db.TransactWriteItems({.transact_items = {debit, credit}});
        if (done.ok()) {
          ++committed;
        } else {
          ASSERT_EQ(done.status().code(), Code::kTransactionCanceled) << done.status().ToString();
          ++cancelled;
        }
      }
    });
  }
  threads.emplace_back([&] {
    TransactGetItemsRequest all;
    for (int a = 0; a < kAccounts; ++a) {
      all.transact_items.push_back(
          {GetItemRequest{.table_name = TableOf(a), .key = {{"PK", "acct" + std::to_string(a)}}}});
    }
    do {
      auto read = db.TransactGetItems(all);
      ASSERT_TRUE(read.ok()) << read.status().ToString();
      int64_t total = 0;
      for (const auto& item : read->responses) {
        ASSERT_TRUE(item);
        const int64_t balance = *item->at("balance").as_number().ToInt64();
        ASSERT_GE(balance, 0);
        total += balance;
      }
      ASSERT_EQ(total, 100 * kAccounts);
      ++audits;
    } while (running.load());
  });
  for (int t = 0; t < 3; ++t) threads[static_cast<size_t>(t)].join();
  running = false;
  threads.back().join();
  int64_t total = 0;
  for (int a = 0; a < kAccounts; ++a) {
    total += *MustGet(db, TableOf(a), {{"PK", "acct" + std::to_string(a)}})
                  ->at("balance")
                  .as_number()
                  .ToInt64();
  }
  EXPECT_EQ(total, 100 * kAccounts);
  EXPECT_EQ(committed + cancelled, 3 * 400);
  EXPECT_GT(committed.load(), 0);
  EXPECT_GT(audits.load(), 0);
}

// A transaction sets v of two items to the same new value; single
// writers bump unrelated attributes of the same items; readers read both items inside one
// TransactGetItems and must always see x == y.
TEST(TransactionConcurrent, RacingSingleItemWritesNeverSeeHalfATransaction) {
  Database db;
  MustCreate(db, "Pairs", StringKeys(/*with_sort=*/false));
  MustPut(db, "Pairs", {{"PK", "left"}, {"v", 0}});
  MustPut(db, "Pairs", {{"PK", "right"}, {"v", 0}});
  std::atomic<bool> running{true};
  std::thread writer([&] {
    for (int i = 1; i <= 500; ++i) {
      TransactWriteItem left, right;
      left.update = UpdateItemRequest{.table_name = "Pairs",
                                      .key = {{"PK", "left"}},
                                      .update_expression = "SET v = :v",
                                      .expression_attribute_values = AttributeMap{{":v", i}}};
      right = left;
      right.update->key = {{"PK", "right"}};
      ASSERT_TRUE(db.TransactWriteItems({.transact_items = {left, right}}).ok());
    }
    running = false;
  });
  std::thread bumper([&] {
    while (running.load()) {
      for (const char* pk : {"left", "right"}) {
        ASSERT_TRUE(db.UpdateItem({.table_name = "Pairs",
                                   .key = {{"PK", pk}},
                                   .update_expression = "ADD bumps :one",
                                   .expression_attribute_values = AttributeMap{{":one", 1}}})
                        .ok());
      }
    }
  });
  int checks = 0;
  do {
    auto read = db.TransactGetItems(
        {.transact_items = {{GetItemRequest{.table_name = "Pairs", .key = {{"PK", "left"}}}},
                            {GetItemRequest{.table_name = "Pairs", .key = {{"PK", "right"}}}}}});
    ASSERT_TRUE(read.ok());
    ASSERT_EQ(read->responses[0]->at("v"), read->responses[1]->at("v"));
    ++checks;
  } while (running.load());
  writer.join();
  bumper.join();
  EXPECT_GT(checks, 0);
  EXPECT_EQ(MustGet(db, "Pairs", {{"PK", "left"}})->at("v"), N("500"));
}

}  // namespace
}  // namespace partstore::testing
