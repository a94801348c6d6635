// The aggregation pattern of the adjacency-list article (seeds/004: "DynamoDB Streams and AWS
// Lambda" keeping aggregates up to date), on its invoicing model: invoice partitions hold an item
// per bill that rolls up to the invoice (PK = Invoice-N, SK = Bill-M, with the customer and the
// amount), bill partitions hold the bill itself (PK = SK = Bill-M). A consumer of the table's
// stream (a StreamSubscription on its own thread) keeps every customer's total of rolled-up bills
// while writers put, update, delete, batch and move bills between invoices in transactions. At
// the end the totals are checked against a Scan. In-process the consumer wakes at each write;
// against an endpoint (--endpoint URL, example_store.h) it polls the stream's shards.
// Built and run by the test suite, so this example cannot rot.
#include <partstore/store.h>
#include <partstore/stream_subscription.h>

#include <iostream>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <thread>

#include "example_store.h"

using namespace partstore;  // NOLINT: an example

namespace {

bool IsRollup(const StoredItem& item) {
  const auto pk = item.Find("PK"), sk = item.Find("SK");
  return pk && sk && pk->as_string().starts_with("Invoice-") &&
         sk->as_string().starts_with("Bill-");
}

int64_t Cents(const ValueView& amount) { return std::stoll(std::string(amount.number_text())); }

Item Rollup(int invoice, int bill, const std::string& customer, int64_t cents) {
  return {{"PK", "Invoice-" + std::to_string(invoice)},
          {"SK", "Bill-" + std::to_string(bill)},
          {"Customer", customer},
          {"Amount", Number::Parse(std::to_string(cents)).value()}};
}

}  // namespace

int main(int argc, char** argv) {
  std::unique_ptr<Store> store = example::OpenStore(argc, argv);
  if (store == nullptr) return 2;
  Store& db = *store;
  CreateTableRequest table =
      SimpleTable("Billing", KeySchema{{"PK", KeyType::kString}, {{"SK", KeyType::kString}}});
  table.stream_specification = StreamSpecification{true, StreamViewType::kNewAndOldImages};
  if (!db.CreateTable(table).ok()) return 1;

  // The consumer: subtract what a record's old image rolled up, add what its new image does.
  std::mutex totals_mu;
  std::map<std::string, int64_t> totals;
  auto subscription = StreamSubscription::Open(db, "Billing", {}, [&](const StreamRecord& r) {
    std::lock_guard<std::mutex> lock(totals_mu);
    if (r.old_image && IsRollup(*r.old_image)) {
      totals[std::string(r.old_image->Find("Customer")->as_string())] -=
          Cents(*r.old_image->Find("Amount"));
    }
    if (r.new_image && IsRollup(*r.new_image)) {
      totals[std::string(r.new_image->Find("Customer")->as_string())] +=
          Cents(*r.new_image->Find("Amount"));
    }
  });
  if (!subscription.ok()) return 1;
  std::jthread consumer([&](std::stop_token stop) {
    if (Status s = (*subscription)->Run(stop); !s.ok()) std::cout << s.ToString() << "\n";
  });

  // The writers: 400 random changes to 20 invoices of 5 customers.
  std::mt19937 rng(4);
  auto pick = [&](int n) { return static_cast<int>(rng() % n); };
  const std::string customers[] = {"Amazon", "Acme", "Globex", "Initech", "Umbrella"};
  for (int i = 0; i < 400; ++i) {
    const int invoice = pick(20), bill = pick(50);
    const std::string& customer = customers[invoice % 5];
    Status status;
    switch (pick(5)) {
      case 0:  // a bill and its roll-up into an invoice, together
        status =
            db.TransactWriteItems(
                  {.transact_items =
                       {
                           {.put = PutItemRequest{.table_name = "Billing",
                                                  .item = {{"PK", "Bill-" + std::to_string(bill)},
                                                           {"SK", "Bill-" + std::to_string(bill)},
                                                           {"Customer", customer}}}},
                           {.put =
                                PutItemRequest{
                                    .table_name =
                                        "Billing",
                                    .item = Rollup(invoice, bill, customer, 100 + pick(10000))}},
                       }})
                .status();
        break;
      case 1:  // an amount changes
        status = db.UpdateItem(
                       {.table_name = "Billing",
                        .key = {{"PK", "Invoice-" + std::to_string(invoice)},
                                {"SK", "Bill-" + std::to_string(bill)}},
                        .update_expression = "SET Amount = Amount + :d",
                        .condition_expression = "attribute_exists(Amount)",
                        .expression_attribute_values =
                            AttributeMap{{":d", Number::Parse(std::to_string(pick(500))).value()}}})
                     .status();
        break;
      case 2:  // a bill leaves an invoice
        status = db.DeleteItem({.table_name = "Billing",
                                .key = {{"PK", "Invoice-" + std::to_string(invoice)},
                                        {"SK", "Bill-" + std::to_string(bill)}}})
                     .status();
        break;
      case 3: {  // a batch of roll-ups
        BatchWriteItemRequest batch;
        std::vector<WriteRequest> writes;
        for (int b = 0; b < 5; ++b) {
          writes.push_back({WriteRequest::Kind::kPut,
                            Rollup(invoice, 50 + 5 * i + b, customer, 100 + pick(1000))});
        }
        batch.request_items.push_back({"Billing", std::move(writes)});
        status = db.BatchWriteItem(batch).status();
        break;
      }
      default: {  // a bill moves to another invoice (maybe another customer's)
        const int to = (invoice + 1 + pick(19)) % 20;
        status = db.TransactWriteItems(
                       {.transact_items =
                            {
                                {.del =
                                     DeleteItemRequest{
                                         .table_name = "Billing",
                                         .key = {{"PK", "Invoice-" + std::to_string(invoice)},
                                                 {"SK", "Bill-" + std::to_string(bill)}},
                                         .condition_expression = "attribute_exists(PK)"}},
                                {.put = PutItemRequest{.table_name = "Billing",
                                                       .item = Rollup(to, bill, customers[to % 5],
                                                                      100 + pick(10000))}},
                            }})
                     .status();
      }
    }
    if (!status.ok() && status.code() != Code::kConditionalCheckFailed &&
        status.code() != Code::kTransactionCanceled) {
      std::cout << "write failed: " << status.ToString() << "\n";
      return 1;
    }
  }
  consumer.request_stop();
  consumer.join();
  if (!(*subscription)->Poll().ok()) return 1;  // what the consumer had not reached yet

  // The check: the same totals from a Scan.
  std::map<std::string, int64_t> scanned;
  ItemRange items = db.ScanAll({.table_name = "Billing"});
  for (const StoredItem& item : items) {
    if (IsRollup(item))
      scanned[std::string(item.Find("Customer")->as_string())] += Cents(*item.Find("Amount"));
  }
  if (!items.status().ok()) return 1;
  std::erase_if(totals, [](const auto& entry) { return entry.second == 0; });
  std::erase_if(scanned, [](const auto& entry) { return entry.second == 0; });
  for (const auto& [customer, cents] : totals) {
    std::cout << customer << ": " << cents / 100 << "." << (cents % 100 < 10 ? "0" : "")
              << cents % 100 << " (scan: " << scanned[customer] << " cents)\n";
  }
  if (totals != scanned) {
    std::cout << "the stream's totals differ from the scan's\n";
    return 1;
  }
  std::cout << "totals kept from the stream match the scan\n";
  return 0;
}
